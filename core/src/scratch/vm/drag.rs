//! Dragging sprites with the mouse as the Scratch GUI does it: scratch-gui's `stage.jsx`
//! (the 3-pixel threshold, the 400 ms long press, the grab offset, the player and editor drag
//! styles) driving scratch-vm's `startDrag`, `postSpriteInfo({x, y, force})` and `stopDrag`.
//!
//! The reference harnesses post mouse events straight to the VM, with no GUI, so nothing drags
//! there: [`DragStyle::None`] reproduces them. Dragging needs the stage geometry (costume
//! skins in the image), since the GUI picks the sprite under the mouse with the renderer.

use crate::scratch::vm::Vm;

/// The GUI's drag threshold in canvas pixels (`dragThreshold`).
const THRESHOLD: f64 = 3.0;
/// A press held this long (virtual ms) starts a drag without moving (`mouseDownTimeoutId`).
/// The time is counted in whole frames from the press (400 ms is 12 frames at 30 fps), and
/// the timer fires after that frame's inputs.
const LONG_PRESS_MS: f64 = 400.0;

/// How mouse events drag sprites.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DragStyle {
    /// The player (the project page, full screen): only draggable sprites drag, and they
    /// follow the mouse (default).
    #[default]
    Player,
    /// The editor's stage: any sprite drags; it is hidden while dragged and placed where it
    /// is dropped, if that is on the stage.
    Editor,
    /// No GUI (the reference harnesses): mouse events only reach the VM; nothing drags.
    None,
}

impl DragStyle {
    /// Parse `player` / `editor` / `none`.
    pub fn parse(s: &str) -> Option<DragStyle> {
        match s {
            "player" => Some(DragStyle::Player),
            "editor" => Some(DragStyle::Editor),
            "none" => Some(DragStyle::None),
            _ => None,
        }
    }

    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            DragStyle::Player => "player",
            DragStyle::Editor => "editor",
            DragStyle::None => "none",
        }
    }
}

/// The GUI's drag state (`mouseDown`, `mouseDownPosition`, `mouseDownTimeoutId`, `dragId`,
/// `dragOffset`).
#[derive(Clone, Debug, Default)]
pub struct Drag {
    /// Canvas position of the press while the button is down (a press on the stage only).
    down_at: Option<(f64, f64)>,
    /// Frame of the press while the long-press timer runs (cancelled by a drag or release).
    timer: Option<u64>,
    /// The dragged instance and the grab offset.
    active: Option<(u32, f64, f64)>,
}

impl Drag {
    /// The instance being dragged.
    pub fn dragged(&self) -> Option<u32> {
        self.active.map(|a| a.0)
    }
}

/// The canvas (client) position of a Scratch position on the 480×360 stage.
fn canvas(pos: (f64, f64)) -> (f64, f64) {
    (pos.0 + 240.0, 180.0 - pos.1)
}

impl Vm {
    /// `onMouseDown` before the VM sees the press: a press on the canvas arms the drag.
    pub(crate) fn gui_mouse_down(&mut self) {
        if self.cfg.drag == DragStyle::None {
            return;
        }
        let (cx, cy) = canvas(self.io.pos);
        // The listener is on the canvas element.
        if !((0.0..480.0).contains(&cx) && (0.0..360.0).contains(&cy)) {
            return;
        }
        self.io.drag.down_at = Some((cx, cy));
        self.io.drag.timer = Some(self.frame);
    }

    /// `onMouseMove` to `pos` (Scratch coordinates) before the VM sees the move: past the
    /// threshold a drag starts where the press was; a dragged sprite follows the mouse.
    pub(crate) fn gui_mouse_move(&mut self, pos: (f64, f64)) {
        self.drop_dead_drag();
        let Some((dx, dy)) = self.io.drag.down_at else { return };
        let (cx, cy) = canvas(pos);
        if self.io.drag.active.is_none() {
            let (ex, ey) = (cx - dx, cy - dy);
            if libm::sqrt(ex * ex + ey * ey) > THRESHOLD {
                self.io.drag.timer = None;
                self.start_drag(dx, dy);
            }
        }
        if let (Some((t, ox, oy)), DragStyle::Player) = (self.io.drag.active, self.cfg.drag) {
            let (sx, sy) = (cx - 240.0, cy - 180.0);
            self.set_xy_forced(t, sx + ox, -(sy + oy));
        }
    }

    /// `onMouseUp` before the VM sees the release: ends a drag. Returns whether one ended
    /// (`wasDragged`: then the release starts no click hats).
    pub(crate) fn gui_mouse_up(&mut self) -> bool {
        self.drop_dead_drag();
        self.io.drag.timer = None;
        self.io.drag.down_at = None;
        let Some((t, ox, oy)) = self.io.drag.active.take() else { return false };
        if self.cfg.drag == DragStyle::Editor {
            let (cx, cy) = canvas(self.io.pos);
            if cx > 0.0 && cx < 480.0 && cy > 0.0 && cy < 360.0 {
                let (sx, sy) = (cx - 240.0, cy - 180.0);
                self.set_xy_forced(t, sx + ox, -(sy + oy));
            }
            self.set_visible(t, true);
        }
        self.insts[t as usize].dragging = false;
        self.render_changed();
        true
    }

    /// The long-press timer: a press held [`LONG_PRESS_MS`] starts a drag where it was.
    pub(crate) fn fire_drag_timer(&mut self) {
        let Some(pressed) = self.io.drag.timer else { return };
        let elapsed = self.frame.saturating_sub(pressed) as f64 * 1000.0;
        if elapsed / f64::from(self.cfg.fps.max(1)) < LONG_PRESS_MS {
            return;
        }
        self.io.drag.timer = None;
        if let Some((x, y)) = self.io.drag.down_at {
            self.start_drag(x, y);
        }
    }

    /// `onStartDrag` at a canvas point: pick the sprite there; in the player only a
    /// draggable one; bring it to the front and keep the grab offset (`vm.startDrag`).
    fn start_drag(&mut self, x: f64, y: f64) {
        if self.io.drag.active.is_some() || !self.renders() {
            return;
        }
        let t = self.pick(x, y);
        if t == self.stage {
            return;
        }
        let editor = self.cfg.drag == DragStyle::Editor;
        if !(editor || self.insts[t as usize].draggable) {
            return;
        }
        self.set_exec_position(t, f64::INFINITY);
        let i = &mut self.insts[t as usize];
        let (sx, sy) = (x - 240.0, y - 180.0);
        let offset = (i.x - sx, -(i.y + sy));
        i.dragging = true;
        self.render_changed();
        self.io.drag.active = Some((t, offset.0, offset.1));
        if editor {
            self.set_visible(t, false);
        }
    }

    /// A dragged clone that was deleted ends the drag.
    fn drop_dead_drag(&mut self) {
        if let Some((t, ..)) = self.io.drag.active {
            if !self.insts.get(t as usize).is_some_and(|i| i.alive) {
                self.io.drag.active = None;
            }
        }
    }
}
