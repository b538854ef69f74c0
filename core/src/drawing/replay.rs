//! Replays actions the way the drawing app (`src/app.js`) executes them, producing drawing
//! operations in canvas coordinates: pen/eraser segments while the mouse is down, dots for
//! clicks on the canvas, line/rectangle/circle shapes at mouseUp, flood fills. The rasterizer
//! paints these operations; the `paper` profile measures them.
//!
//! The app decides what a point hits from its DOM; gobo uses the UI config's boxes instead:
//! tool and size buttons ±40 px (open), colour buttons ±12 × ±8 px (closed), checked in the
//! app's order (tool, size, colour, canvas); the canvas is `[0, width) × [0, height)`.
//! Actions whose coordinates are not numbers, and `undo`/`redo`, are skipped.

use super::actions::{Actions, Kind};
use super::ui::UiConfig;

/// A point in canvas coordinates.
pub type Point = (f64, f64);

/// The tools of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Freehand pen.
    Pen,
    /// Freehand eraser (makes pixels transparent).
    Eraser,
    /// Flood fill on click.
    Fill,
    /// Straight line from mouseDown to mouseUp.
    Line,
    /// Rectangle outline between the drag corners.
    Rectangle,
    /// Circle outline centred at mouseDown through mouseUp.
    Circle,
}

impl Tool {
    fn from_key(key: &str) -> Option<Tool> {
        Some(match key {
            "pen" => Tool::Pen,
            "eraser" => Tool::Eraser,
            "fill" => Tool::Fill,
            "line" => Tool::Line,
            "rectangle" => Tool::Rectangle,
            "circle" => Tool::Circle,
            _ => return None,
        })
    }
}

/// Colour and width in effect for an operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pen {
    /// RGB colour.
    pub rgb: [u8; 3],
    /// Line width (dot diameter).
    pub size: f64,
    /// Whether the eraser is drawing.
    pub erase: bool,
}

/// One drawing operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// A pen/eraser segment (round caps), part of stroke number `stroke`.
    Segment {
        /// Start.
        from: Point,
        /// End.
        to: Point,
        /// Which mouseDown…mouseUp stroke it belongs to (0-based over all strokes).
        stroke: usize,
    },
    /// A dot from a click on the canvas (radius size/2).
    Dot(Point),
    /// A straight line.
    Line(Point, Point),
    /// A rectangle outline between two corners.
    Rect(Point, Point),
    /// A circle outline: centre and radius.
    Circle(Point, f64),
    /// A flood fill starting at a point.
    Fill(Point),
}

/// Parses `#RRGGBB` (the app falls back to black).
pub fn hex_rgb(hex: &str) -> [u8; 3] {
    let h = hex.strip_prefix('#').unwrap_or(hex);
    let byte = |i: usize| h.get(i..i + 2).and_then(|s| u8::from_str_radix(s, 16).ok());
    match (h.len(), byte(0), byte(2), byte(4)) {
        (6, Some(r), Some(g), Some(b)) => [r, g, b],
        _ => [0, 0, 0],
    }
}

/// Replays `actions`, calling `emit(action_index, op, pen)` for every drawing operation.
pub fn replay(actions: &Actions, ui: &UiConfig, mut emit: impl FnMut(usize, Op, Pen)) {
    let (ox, oy, w, h) = (ui.offset_x.v, ui.offset_y.v, ui.width.v, ui.height.v);
    let mut tool = Tool::Pen;
    let mut pen = Pen { rgb: [0, 0, 0], size: 2.0, erase: false };
    let mut mouse: Point = (0.0, 0.0);
    let mut drawing = false;
    let mut last: Point = (0.0, 0.0);
    let mut start: Point = (0.0, 0.0);
    let mut strokes = 0usize;
    let on_canvas = |(x, y): Point| x - ox >= 0.0 && x - ox < w && y - oy >= 0.0 && y - oy < h;
    let canvas = |(x, y): Point| (x - ox, y - oy);
    for (i, act) in actions.list.iter().enumerate() {
        let x = act.x.and_then(|c| actions.num(c).ok());
        let y = act.y.and_then(|c| actions.num(c).ok());
        // `x === undefined` picks the mouse position; a present but unusable value is skipped.
        let at = match (act.x, act.y, x, y) {
            (None, _, _, _) => Some(mouse),
            (Some(_), Some(_), Some(x), Some(y)) => Some((x, y)),
            _ => None,
        };
        pen.erase = tool == Tool::Eraser;
        match act.kind {
            Kind::MoveTo => {
                let (Some(x), Some(y)) = (x, y) else { continue };
                mouse = (x, y);
                if drawing && matches!(tool, Tool::Pen | Tool::Eraser) {
                    let to = canvas(mouse);
                    emit(i, Op::Segment { from: last, to, stroke: strokes.saturating_sub(1) }, pen);
                    last = to;
                }
            }
            Kind::Click => {
                let Some(p) = at else { continue };
                let near = |bx: f64, by: f64, tx: f64, ty: f64| {
                    libm::fabs(p.0 - bx) < tx && libm::fabs(p.1 - by) < ty
                };
                if let Some(t) = ui.tools.iter().find(|t| near(t.x.v, t.y.v, 40.0, 40.0)) {
                    tool = Tool::from_key(&t.key).unwrap_or(tool);
                } else if let Some(s) = ui.sizes.iter().find(|s| near(s.x.v, s.y.v, 40.0, 40.0)) {
                    pen.size = s.value;
                } else if let Some(c) = ui
                    .colors
                    .iter()
                    .find(|c| libm::fabs(p.0 - c.x.v) <= 12.0 && libm::fabs(p.1 - c.y.v) <= 8.0)
                {
                    pen.rgb = hex_rgb(&c.hex);
                } else if on_canvas(p) {
                    let op =
                        if tool == Tool::Fill { Op::Fill(canvas(p)) } else { Op::Dot(canvas(p)) };
                    emit(i, op, pen);
                }
            }
            Kind::MouseDown => {
                let Some(p) = at else { continue };
                if on_canvas(p) {
                    drawing = true;
                    last = canvas(p);
                    start = last;
                    strokes += 1;
                }
            }
            Kind::MouseUp => {
                if !drawing {
                    continue;
                }
                let Some(p) = at else { continue };
                let end = canvas(p);
                match tool {
                    Tool::Line => emit(i, Op::Line(start, end), pen),
                    Tool::Rectangle => emit(i, Op::Rect(start, end), pen),
                    Tool::Circle => {
                        let (dx, dy) = (end.0 - start.0, end.1 - start.1);
                        emit(i, Op::Circle(start, libm::sqrt(dx * dx + dy * dy)), pen);
                    }
                    _ => {}
                }
                drawing = false;
            }
            Kind::Missing | Kind::Other(_) => {}
        }
    }
}
