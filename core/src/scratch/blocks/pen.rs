//! Pen blocks (`pen_*`, scratch-vm's `scratch3_pen`): pen state per target, lines drawn as a
//! sprite moves with its pen down, the colour parameters and legacy shade/hue blocks, clear
//! and stamp. Each drawing request asks for a redraw as the extension does.

use crate::clamp::clamp;
use crate::scratch::image::ops::PenOp;
use crate::scratch::pen::color::{hsv_to_rgb, mix_rgb, rgb_to_hsv, to_rgb_color, Hsv, Rgb};
use crate::scratch::pen::PenState;
use crate::scratch::render::stamp;
use crate::scratch::value::cast::{to_number, to_str_value};
use crate::scratch::vm::scene::{costume_skin, drawable_of};
use crate::scratch::vm::Vm;

use crate::clamp::wrap_clamp;

/// `_setOrChangeColorParam` for one parameter name.
fn set_param(p: &mut PenState, param: &str, value: f64, change: bool) {
    let clamp = |v: f64| clamp(v, 0.0, 100.0);
    match param {
        "color" => p.color = wrap_clamp(value + if change { p.color } else { 0.0 }, 0.0, 100.0),
        "saturation" => p.saturation = clamp(value + if change { p.saturation } else { 0.0 }),
        "brightness" => p.brightness = clamp(value + if change { p.brightness } else { 0.0 }),
        "transparency" => p.transparency = clamp(value + if change { p.transparency } else { 0.0 }),
        _ => {}
    }
    p.update_color();
}

/// `_legacyUpdatePenColor`: the Scratch 2 shade model.
fn legacy_update(p: &mut PenState) {
    let mut rgb = hsv_to_rgb(Hsv { h: p.color * 360.0 / 100.0, s: 1.0, v: 1.0 });
    let shade = if p.shade > 100.0 { 200.0 - p.shade } else { p.shade };
    rgb = if shade < 50.0 {
        mix_rgb(Rgb::new(0.0, 0.0, 0.0), rgb, (10.0 + shade) / 60.0)
    } else {
        mix_rgb(rgb, Rgb::new(255.0, 255.0, 255.0), (shade - 50.0) / 60.0)
    };
    let hsv = rgb_to_hsv(rgb);
    p.color = 100.0 * hsv.h / 360.0;
    p.saturation = 100.0 * hsv.s;
    p.brightness = 100.0 * hsv.v;
    p.update_color();
}

/// `setPenShadeToNumber`'s wrap into 0..200.
fn set_shade(p: &mut PenState, shade: f64) {
    let mut s = shade % 200.0;
    if s < 0.0 {
        s += 200.0;
    }
    p.shade = s;
    legacy_update(p);
}

impl Vm {
    /// The pen's position-change listener (`_onTargetMoved`), after a non-forced move.
    pub(crate) fn pen_moved(&mut self, t: u32, old_x: f64, old_y: f64) {
        let Some(p) = self.insts[t as usize].pen else { return };
        if !p.down {
            return;
        }
        let (x, y) = (self.insts[t as usize].x, self.insts[t as usize].y);
        self.pen_layer_mut().draw_line(p.color4f, p.diameter, old_x, old_y, x, y);
        self.redraw = true;
    }

    /// `penStamp`: draw the target's drawable into the pen layer.
    fn pen_stamp(&mut self, t: u32) {
        let img = self.img.clone();
        let is_stage = t == self.stage;
        let Some(i) = self.insts.get(t as usize) else { return };
        let [w, _] = self.pen_size;
        let scale = f64::from(w) / 480.0;
        let d = costume_skin(&img, i).and_then(|s| drawable_of(s, i, is_stage, scale));
        let layer = self.pen_layer_mut();
        if let Some(d) = d {
            stamp(layer, &d);
        }
    }

    fn pen_state(&mut self, t: u32) -> &mut PenState {
        self.insts[t as usize].pen.get_or_insert_with(PenState::default)
    }

    pub(crate) fn exec_pen(&mut self, op: PenOp, args: &[u32], t: u32) {
        match op {
            PenOp::Clear => {
                self.pen_layer_mut().clear();
                self.redraw = true;
            }
            PenOp::Stamp => {
                self.pen_stamp(t);
                self.redraw = true;
            }
            PenOp::Down => {
                let p = self.pen_state(t);
                p.down = true;
                let p = *p;
                let (x, y) = (self.insts[t as usize].x, self.insts[t as usize].y);
                self.pen_layer_mut().draw_line(p.color4f, p.diameter, x, y, x, y);
                self.redraw = true;
            }
            PenOp::Up => self.pen_state(t).down = false,
            PenOp::SetColor => {
                let v = self.arg(args, 0, t);
                let rgb = to_rgb_color(&v);
                let hsv = rgb_to_hsv(rgb);
                let p = self.pen_state(t);
                p.color = hsv.h / 360.0 * 100.0;
                p.saturation = hsv.s * 100.0;
                p.brightness = hsv.v * 100.0;
                p.transparency = rgb.a.map_or(0.0, |a| 100.0 * (1.0 - a / 255.0));
                p.shade = p.brightness / 2.0;
                p.update_color();
            }
            PenOp::ChangeParam | PenOp::SetParam => {
                let param = to_str_value(&self.arg(args, 0, t));
                let v = to_number(&self.arg(args, 1, t));
                set_param(self.pen_state(t), &param, v, op == PenOp::ChangeParam);
            }
            PenOp::ChangeSize | PenOp::SetSize => {
                let v = self.num_arg(args, 0, t);
                let p = self.pen_state(t);
                let base = if op == PenOp::ChangeSize { p.diameter } else { 0.0 };
                p.diameter = clamp(base + v, 1.0, 1200.0);
            }
            PenOp::SetShade => {
                let v = self.num_arg(args, 0, t);
                set_shade(self.pen_state(t), v);
            }
            PenOp::ChangeShade => {
                let v = self.num_arg(args, 0, t);
                let p = self.pen_state(t);
                let s = p.shade + v;
                set_shade(p, s);
            }
            PenOp::SetHue => {
                let v = self.num_arg(args, 0, t);
                let p = self.pen_state(t);
                set_param(p, "color", v / 2.0, false);
                set_param(p, "transparency", 0.0, false);
                legacy_update(p);
            }
            PenOp::ChangeHue => {
                let v = self.num_arg(args, 0, t);
                let p = self.pen_state(t);
                set_param(p, "color", v / 2.0, true);
                legacy_update(p);
            }
        }
    }
}
