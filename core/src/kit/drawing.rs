//! DrawingBench on a kit: the program-image payload (kind 3) that carries a model's action text
//! and the UI layout it was written for, and the player that shows the drawing one action at a
//! time.
//!
//! The player reads the actions with the evaluator's parser ([`Actions::parse`]), replays them
//! as the drawing app does ([`crate::drawing::replay`]) and paints the operations straight at
//! the display's scale on a palette canvas (one byte per pixel) with the full-size rasterizer's
//! rules ([`Painter::at_scale`]). Stepping forward paints the new action's operations; stepping
//! back repaints from the start.
//!
//! Timing (frames at 30 fps): the blank canvas is held for [`START_HOLD_FRAMES`], then one
//! action every [`FRAMES_PER_STEP`]; the keys are [`super::playback`]'s. At most
//! [`MAX_PLAYBACK_STEPS`] actions are played.

use core::fmt;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use serde::{Deserialize, Serialize};

use super::input::Keys;
use super::playback::{Playback, PlayerState};
use super::screen;
use super::DisplaySpec;
use crate::clamp::clamp;
use crate::drawing::actions::{Actions, ActionsError};
use crate::drawing::palette::PaletteCanvas;
use crate::drawing::raster::Painter;
use crate::drawing::replay::replay;
use crate::drawing::ui::{UiConfig, UiConfigError};

/// Frames the blank canvas is shown before the first action.
pub const START_HOLD_FRAMES: u32 = 30;
/// Frames each action is shown while playing.
pub const FRAMES_PER_STEP: u32 = 4;
/// Actions the player plays at most (later ones are not shown).
pub const MAX_PLAYBACK_STEPS: usize = 1_000;
/// How an erased (transparent) pixel looks on the kit: light grey, so it differs from the
/// canvas's white.
pub const ERASED_COLOR: Rgb888 = Rgb888::new(160, 160, 160);

/// Payload of a drawing program image: the texts as written, borrowed from the image, so the
/// kit reads them with exactly the parsers the evaluator uses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawingProgram<'a> {
    /// The model's raw action text (a JSON list of actions).
    pub actions: &'a str,
    /// The UI config JSON the actions were written for; `None` for DrawingBench's layout
    /// ([`UiConfig::drawingbench_default`]).
    pub ui: Option<&'a str>,
    /// The `drawingbench-1.0` score `gobo pack` computed for the task it was given, shown at
    /// the end.
    pub score: Option<f64>,
}

/// Why a drawing payload cannot be played.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayError {
    /// The actions are not an action list.
    Actions(ActionsError),
    /// The UI config does not load.
    Ui(UiConfigError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Actions(e) => write!(f, "actions: {e}"),
            Self::Ui(e) => e.fmt(f),
        }
    }
}

/// Where the picture and the status panel go on a display, and the picture's scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// The picture's place on the display.
    pub picture: Rectangle,
    /// Top left of the status panel.
    pub panel: Point,
    /// Display pixels per canvas pixel.
    pub scale: f64,
}

/// Columns of the status panel beside the picture on wide displays.
const SIDE_PANEL_COLS: u32 = 7;

/// The layout of a `canvas`-sized drawing on `display`: the canvas fitted whole keeping its
/// aspect, on the left of a 7-column status panel on wide displays (128x64: 91x64), above two
/// status lines on others (240x240: 240x168), centred in the room left.
pub fn layout(display: DisplaySpec, canvas: Size) -> Layout {
    let (dw, dh) = (display.width.max(1), display.height.max(1));
    let font = screen::font_for(dw);
    let (room, panel) = if dw >= 2 * dh {
        let side = SIDE_PANEL_COLS * font.character_size.width + 2;
        let w = dw.saturating_sub(side).max(1);
        (Size::new(w, dh), Point::new((w + 2) as i32, 0))
    } else {
        let h = dh.saturating_sub(2 * font.character_size.height + 2).max(1);
        (Size::new(dw, h), Point::new(0, (h + 2) as i32))
    };
    let (cw, ch) = (u64::from(canvas.width.max(1)), u64::from(canvas.height.max(1)));
    let (rw, rh) = (u64::from(room.width), u64::from(room.height));
    // Scale num / den: the smaller of rw / cw and rh / ch, compared without division.
    let (num, den) = if rw * ch <= rh * cw { (rw, cw) } else { (rh, ch) };
    let fit = |v: u64, max: u64| (v * num).div_ceil(den).clamp(1, max) as u32;
    let size = Size::new(fit(cw, rw), fit(ch, rh));
    let at = Point::new(
        ((room.width - size.width) / 2) as i32,
        ((room.height - size.height) / 2) as i32,
    );
    Layout { picture: Rectangle::new(at, size), panel, scale: num as f64 / den as f64 }
}

/// The canvas size a UI config gives (clamped to 1…4096 as the rasterizer does).
fn canvas_size(ui: &UiConfig) -> Size {
    let dim = |v: f64| if v.is_finite() { clamp(v, 1.0, 4096.0) as u32 } else { 1 };
    Size::new(dim(ui.width.v), dim(ui.height.v))
}

/// Plays a drawing.
#[derive(Debug)]
pub struct Player {
    actions: Actions,
    ui: UiConfig,
    total: usize,
    score: Option<f64>,
    layout: Layout,
    painter: Painter,
    canvas: PaletteCanvas,
    /// Actions painted on the canvas.
    painted: usize,
    playback: Playback,
}

impl Player {
    /// Reads the program for `display`; the player starts at the blank canvas, playing.
    pub fn new(program: &DrawingProgram<'_>, display: DisplaySpec) -> Result<Self, PlayError> {
        let ui = match program.ui {
            Some(text) => UiConfig::from_json(text).map_err(PlayError::Ui)?,
            None => UiConfig::drawingbench_default(),
        };
        let mut actions = Actions::parse(program.actions.as_bytes()).map_err(PlayError::Actions)?;
        let total = actions.len();
        actions.list.truncate(MAX_PLAYBACK_STEPS);
        actions.list.shrink_to_fit();
        let layout = layout(display, canvas_size(&ui));
        let painter = Painter::at_scale(layout.scale);
        let canvas = PaletteCanvas::new(layout.picture.size.width, layout.picture.size.height);
        let playback = Playback::new(actions.len(), START_HOLD_FRAMES, FRAMES_PER_STEP);
        let score = program.score;
        Ok(Self { actions, ui, total, score, layout, painter, canvas, painted: 0, playback })
    }

    /// The visible state.
    pub fn state(&self) -> PlayerState {
        self.playback.state(false)
    }

    /// Actions in the program (the playback shows at most [`MAX_PLAYBACK_STEPS`] of them).
    pub fn total_actions(&self) -> usize {
        self.total
    }

    /// The canvas as painted for the step shown.
    pub fn canvas(&self) -> &PaletteCanvas {
        &self.canvas
    }

    /// Where the picture and panel go.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Paints the canvas for the first `step` actions: only the new action's operations when
    /// one more, else from a blank canvas.
    fn paint_to(&mut self, step: usize) {
        let from = if step == self.painted + 1 {
            self.painted
        } else {
            self.canvas.clear();
            0
        };
        let (canvas, painter) = (&mut self.canvas, &self.painter);
        replay(&self.actions, &self.ui, |i, op, pen| {
            if (from..step).contains(&i) {
                canvas.paint(painter, op, pen);
            }
        });
        self.painted = step;
    }

    /// Advances one frame with this frame's keys; returns whether the picture changed.
    pub fn step_frame(&mut self, keys: Keys) -> bool {
        let before = self.state();
        if self.playback.frame(keys, false) {
            self.paint_to(self.playback.step());
        }
        self.state() != before
    }

    /// Draws the canvas in its place and the status panel (`step k/n`, the play state, at the
    /// end the score if the image has one, else the number of actions).
    pub fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>,
    {
        target.clear(screen::BACKGROUND)?;
        let colors = self.canvas.indices().iter().map(|&i| match self.canvas.color(i) {
            Some([r, g, b]) => Rgb888::new(r, g, b),
            None => ERASED_COLOR,
        });
        target.fill_contiguous(&self.layout.picture, colors)?;
        screen::draw_status(target, self.layout.panel, self.state(), &self.end_text())
    }

    /// The status shown at the end: `score 0.87` if the image has a score, else `N actions`.
    pub fn end_text(&self) -> heapless::String<32> {
        let mut end = heapless::String::new();
        let _ = match self.score {
            Some(score) => write_score(&mut end, score),
            None => fmt::Write::write_fmt(&mut end, format_args!("{} actions", self.total)),
        };
        end
    }
}

/// `score 0.87`: the score to two decimals, printed with integers (the kit firmware links no
/// float formatting).
fn write_score(out: &mut impl fmt::Write, score: f64) -> fmt::Result {
    let hundredths = libm::round(clamp(score, -1e6, 1e6) * 100.0) as i64;
    let sign = if hundredths < 0 { "-" } else { "" };
    let v = hundredths.unsigned_abs();
    write!(out, "score {sign}{}.{:02}", v / 100, v % 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{CLUE, LM3S6965};

    #[test]
    fn layouts_fit_the_canvas_whole_beside_or_above_the_panel() {
        let l = layout(LM3S6965.display, Size::new(1000, 700));
        assert_eq!(l.picture, Rectangle::new(Point::zero(), Size::new(91, 64)));
        assert_eq!(l.panel, Point::new(93, 0));
        assert_eq!(l.scale, 0.091);
        let l = layout(CLUE.display, Size::new(1000, 700));
        assert_eq!(l.picture, Rectangle::new(Point::new(0, 25), Size::new(240, 168)));
        assert_eq!(l.panel, Point::new(0, 220));
        let l = layout(LM3S6965.display, Size::new(100, 400));
        assert_eq!(l.picture, Rectangle::new(Point::new(37, 0), Size::new(16, 64)));
        let l = layout(LM3S6965.display, Size::new(1, 1));
        assert_eq!(l.picture.size, Size::new(64, 64), "small canvases are scaled up");
    }

    #[test]
    fn scores_print_with_two_decimals() {
        let text = |s: f64| {
            let mut out = heapless::String::<32>::new();
            write_score(&mut out, s).unwrap();
            out
        };
        assert_eq!(text(0.875), "score 0.88");
        assert_eq!(text(1.0), "score 1.00");
        assert_eq!(text(-0.05), "score -0.05");
        assert_eq!(text(f64::NAN), "score 0.00");
    }
}
