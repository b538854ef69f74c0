//! A target's state changes that blocks and the runtime both make, as scratch-vm's
//! `RenderedTarget` and runtime methods make them: position (fenced to the stage with a
//! renderer), direction, visibility, effects cleared, speech bubbles (with SAY events) and
//! the layer order. Each visible change requests a redraw exactly where scratch-vm does and
//! tells the renderer's side ([`super::drawable`]). The blocks that call these live in
//! `crate::scratch::blocks`.

use alloc::rc::Rc;

use crate::clamp::wrap_clamp;
use crate::scratch::value::cast::to_str_value;
use crate::scratch::value::number::js_to_fixed;
use crate::scratch::value::Value;

use super::hooks::Blocks;
use super::target::Bubble;
use super::{SayEvent, Vm};

/// `_formatBubbleText`.
fn format_bubble(v: &Value) -> Rc<str> {
    if let Value::Num(n) = v {
        if libm::fabs(*n) >= 0.01 && n % 1.0 != 0.0 {
            return Rc::from(js_to_fixed(*n, 2).as_str());
        }
    }
    let s = to_str_value(v);
    if s.encode_utf16().count() <= 330 {
        return s;
    }
    let units: alloc::vec::Vec<u16> = s.encode_utf16().take(330).collect();
    Rc::from(alloc::string::String::from_utf16_lossy(&units).as_str())
}

impl Vm {
    /// `RenderedTarget.setXY` (not forced: a dragged sprite stays where the mouse has it).
    pub(crate) fn set_xy(&mut self, t: u32, x: f64, y: f64) {
        self.set_xy_js(t, x, y, [false; 2]);
    }

    /// `RenderedTarget.setXY` with coordinates that may be JavaScript `undefined`
    /// (`undefined[k]`: coordinate `k` is, and holds NaN). Fencing never changes such a
    /// coordinate (its offset from the drawable is NaN), so it stays `undefined`.
    pub(crate) fn set_xy_js(&mut self, t: u32, x: f64, y: f64, undefined: [bool; 2]) {
        if self.insts[t as usize].dragging {
            return;
        }
        self.set_position(t, x, y, undefined);
    }

    /// `RenderedTarget.setXY(x, y, true)`: also while dragged (the GUI moving it).
    pub(crate) fn set_xy_forced(&mut self, t: u32, x: f64, y: f64) {
        self.set_position(t, x, y, [false; 2]);
    }

    fn set_position(&mut self, t: u32, x: f64, y: f64, undefined: [bool; 2]) {
        if t == self.stage {
            return;
        }
        let (x, y) = if self.renders() { self.fenced_position(t, x, y) } else { (x, y) };
        let i = &mut self.insts[t as usize];
        let (old_x, old_y) = (i.x, i.y);
        i.x = x;
        i.y = y;
        i.undefined = undefined;
        let (visible, pen) = (i.visible, i.pen.is_some());
        if old_x.to_bits() != x.to_bits() || old_y.to_bits() != y.to_bits() {
            self.render_changed();
        }
        if visible {
            self.redraw = true;
            self.visual_change(t);
        }
        if pen {
            self.target_moved(t, old_x, old_y);
        }
    }

    /// `RenderedTarget.setDirection`.
    pub(crate) fn set_direction(&mut self, t: u32, d: f64) {
        if t == self.stage || !d.is_finite() {
            return;
        }
        let i = &mut self.insts[t as usize];
        let old = i.direction;
        i.direction = wrap_clamp(d, -179.0, 180.0);
        let (visible, changed) = (i.visible, old.to_bits() != i.direction.to_bits());
        if changed {
            self.render_changed();
        }
        if visible {
            self.redraw = true;
            self.visual_change(t);
        }
    }

    /// Emit a SAY event (which also updates the bubble).
    pub(crate) fn say_event(&mut self, t: u32, think: bool, text: Value) {
        let target = self.name_of(t);
        self.events.says.push(SayEvent { target, think, text: text.clone() });
        self.update_bubble(t, think, &text);
    }

    /// `_updateBubble` + `_renderBubble`.
    pub(crate) fn update_bubble(&mut self, t: u32, think: bool, text: &Value) {
        self.usage_seq += 1;
        let usage = self.usage_seq;
        let text = if matches!(text, Value::Str(s) if s.is_empty()) {
            Rc::from("")
        } else {
            format_bubble(text)
        };
        let inst = &mut self.insts[t as usize];
        let had = inst.bubble.as_ref().is_some_and(|b| !b.text.is_empty());
        inst.bubble = Some(Bubble { think, text, usage });
        self.render_bubble(t, had);
    }

    /// `RenderedTarget.setVisible` (show/hide, and the GUI hiding a sprite it drags).
    pub(crate) fn set_visible(&mut self, t: u32, show: bool) {
        if t == self.stage {
            return;
        }
        let had = {
            let i = &self.insts[t as usize];
            i.visible && i.bubble.as_ref().is_some_and(|b| !b.text.is_empty())
        };
        if self.insts[t as usize].visible != show {
            self.insts[t as usize].visible = show;
            self.render_changed();
        }
        if show {
            self.redraw = true;
        }
        self.render_bubble(t, had);
    }

    fn render_bubble(&mut self, t: u32, had_drawable: bool) {
        let inst = &self.insts[t as usize];
        let shown = inst.visible && inst.bubble.as_ref().is_some_and(|b| !b.text.is_empty());
        if shown || had_drawable {
            self.redraw = true;
        }
        if shown && self.renders() {
            // Positioning the bubble asks for the bounds (`getBoundsForBubble`).
            self.visual_change(t);
        }
    }

    /// `RenderedTarget.clearEffects`.
    pub(crate) fn clear_effects(&mut self, t: u32) {
        let inst = &mut self.insts[t as usize];
        let had = inst.effects.iter().any(|v| v.to_bits() != 0);
        inst.effects = [0.0; 7];
        if had {
            self.render_changed();
        }
        let inst = &self.insts[t as usize];
        if inst.visible {
            self.redraw = true;
        }
        // Every effect is updated in the renderer, the shape effects among them.
        self.shape_effect_set(t);
    }

    /// `runtime.setExecutablePosition`.
    pub(crate) fn set_exec_position(&mut self, t: u32, index: f64) {
        let old = self.exec.iter().position(|&x| x == t).unwrap_or(0) as f64;
        self.move_exec(t, index - old);
    }

    /// `runtime.moveExecutable`.
    pub(crate) fn move_exec(&mut self, t: u32, delta: f64) {
        let Some(old) = self.exec.iter().position(|&x| x == t) else { return };
        self.exec.remove(old);
        let len = self.exec.len() as f64;
        let mut new = old as f64 + delta;
        if new > len {
            new = len;
        }
        if new <= 0.0 || new.is_nan() {
            let stage_first = self.exec.first().is_some_and(|&f| f == self.stage);
            new = if stage_first { 1.0 } else { 0.0 };
        }
        let idx = (libm::trunc(new) as usize).min(self.exec.len());
        self.exec.insert(idx, t);
        if idx != old {
            self.render_changed();
        }
    }
}
