//! Motion blocks (`motion_*`) as target state: position, direction, glides on the virtual
//! clock, rotation style, `if on edge, bounce`. With skins (a renderer) positions are fenced
//! to the stage as scratch-render does (`crate::scratch::vm::sprite`, `vm::drawable`); without,
//! they are set unfenced and bouncing does nothing, as scratch-vm without a renderer.

use crate::clamp::js_max;
use crate::scratch::geom::transform::move_angle;
use crate::scratch::image::Sop;
use crate::scratch::value::cast::{js_number, to_str_value};
use crate::scratch::value::jsmath;
use crate::scratch::value::Value;
use crate::scratch::vm::io::js_round;
use crate::scratch::vm::target::RotationStyle;
use crate::scratch::vm::thread::Ctx;
use crate::scratch::vm::Vm;

impl Vm {
    /// `ifOnEdgeBounce`: turn away from the nearest edge the bounds touch, then keep in fence.
    fn bounce(&mut self, t: u32) {
        let Some(b) = self.edge_bounds(t) else { return };
        let (hw, hh) = (240.0, 180.0);
        let dists = [
            js_max(0.0, hw + b.left),
            js_max(0.0, hh - b.top),
            js_max(0.0, hw - b.right),
            js_max(0.0, hh + b.bottom),
        ];
        let (mut edge, mut min) = (4, f64::INFINITY);
        for (k, d) in dists.iter().enumerate() {
            if *d < min {
                min = *d;
                edge = k;
            }
        }
        if min > 0.0 {
            return;
        }
        let (sin, cos) = self.sin_cos(move_angle(self.insts[t as usize].direction));
        let (mut dx, mut dy) = (cos, -sin);
        match edge {
            0 => dx = libm::fabs(dx).max(0.2),
            1 => dy = libm::fabs(dy).max(0.2),
            2 => dx = 0.0 - libm::fabs(dx).max(0.2),
            3 => dy = 0.0 - libm::fabs(dy).max(0.2),
            _ => {}
        }
        let d = jsmath::atan2(dy, dx) * 180.0 / core::f64::consts::PI + 90.0;
        self.set_direction(t, d);
        let (x, y) = (self.insts[t as usize].x, self.insts[t as usize].y);
        let (fx, fy) = self.keep_in_fence(t, x, y);
        self.set_xy(t, fx, fy);
    }

    /// `getTargetXY` of a menu value (`_mouse_`, `_random_` or a sprite name), as raw
    /// coordinates: the mouse before its first event (`getScratchX()` is `undefined`) and a
    /// sprite placed there give `undefined` ones (NaN, flagged in the third value).
    fn target_xy(&mut self, v: &Value) -> Option<(f64, f64, [bool; 2])> {
        if let Value::Str(s) = v {
            match &**s {
                "_mouse_" => {
                    let (x, y) = (&self.io.mouse_x, &self.io.mouse_y);
                    return Some((
                        js_number(x),
                        js_number(y),
                        [matches!(x, Value::Undefined), matches!(y, Value::Undefined)],
                    ));
                }
                "_random_" => {
                    let x = js_round(480.0 * (self.rng.next_f64() - 0.5));
                    let y = js_round(360.0 * (self.rng.next_f64() - 0.5));
                    return Some((x, y, [false; 2]));
                }
                _ => {}
            }
        }
        let o = self.sprite_by_name(&to_str_value(v))?;
        let i = &self.insts[o as usize];
        Some((i.x, i.y, i.undefined))
    }

    fn glide(&mut self, t: u32, secs: f64, x: f64, y: f64) {
        let now = self.current_msecs;
        match *self.th().ctx() {
            Ctx::Glide([start, dur, sx, sy, ex, ey]) => {
                let el = now - start;
                if el < dur {
                    let f = el / dur;
                    self.set_xy(t, sx + f * (ex - sx), sy + f * (ey - sy));
                    self.yield_now();
                } else {
                    self.set_xy(t, ex, ey);
                }
            }
            _ => {
                let d = (1000.0 * secs).max(0.0);
                let i = &self.insts[t as usize];
                *self.th().ctx() = Ctx::Glide([now, d, i.x, i.y, x, y]);
                if d <= 0.0 {
                    self.set_xy(t, x, y);
                    return;
                }
                self.yield_now();
            }
        }
    }

    pub(crate) fn exec_motion(&mut self, op: &Sop, args: &[u32], t: u32) {
        let (x, y, dir, [ux, uy]) = {
            let i = &self.insts[t as usize];
            (i.x, i.y, i.direction, i.undefined)
        };
        match op {
            Sop::MoveSteps => {
                let s = self.num_arg(args, 0, t);
                let (sin, cos) = self.sin_cos(move_angle(dir));
                self.set_xy(t, x + s * cos, y + s * sin);
            }
            Sop::TurnRight | Sop::TurnLeft => {
                let d = self.num_arg(args, 0, t);
                let right = matches!(op, Sop::TurnRight);
                self.set_direction(t, if right { dir + d } else { dir - d });
            }
            Sop::GoTo => {
                let v = self.arg(args, 0, t);
                if let Some((nx, ny, undefined)) = self.target_xy(&v) {
                    self.set_xy_js(t, nx, ny, undefined);
                }
            }
            Sop::GoToXY => {
                let nx = self.num_arg(args, 0, t);
                let ny = self.num_arg(args, 1, t);
                self.set_xy(t, nx, ny);
            }
            Sop::GlideSecsToXY => {
                let s = self.num_arg(args, 0, t);
                let nx = self.num_arg(args, 1, t);
                let ny = self.num_arg(args, 2, t);
                self.glide(t, s, nx, ny);
            }
            Sop::GlideTo => {
                let s = self.num_arg(args, 0, t);
                let v = self.arg(args, 1, t);
                // `glide` casts: `Cast.toNumber` of undefined or NaN is 0.
                let cast = |n: f64| if n.is_nan() { 0.0 } else { n };
                let (nx, ny, _) = self.target_xy(&v).unwrap_or((0.0, 0.0, [false; 2]));
                self.glide(t, s, cast(nx), cast(ny));
            }
            Sop::PointInDirection => {
                let d = self.num_arg(args, 0, t);
                self.set_direction(t, d);
            }
            Sop::PointTowards => {
                let v = self.arg(args, 0, t);
                if matches!(&v, Value::Str(s) if &**s == "_random_") {
                    let r = self.rng.next_f64();
                    self.set_direction(t, js_round(r * 360.0) - 180.0);
                    return;
                }
                if let Some((tx, ty, _)) = self.target_xy(&v) {
                    let dx = tx - x;
                    let dy = ty - y;
                    let d = 90.0 - jsmath::atan2(dy, dx) * 180.0 / core::f64::consts::PI;
                    self.set_direction(t, d);
                }
            }
            // The other coordinate is passed as it is: `undefined` stays `undefined` (while
            // `undefined + d` is NaN).
            Sop::ChangeX => {
                let d = self.num_arg(args, 0, t);
                self.set_xy_js(t, x + d, y, [false, uy]);
            }
            Sop::SetX => {
                let nx = self.num_arg(args, 0, t);
                self.set_xy_js(t, nx, y, [false, uy]);
            }
            Sop::ChangeY => {
                let d = self.num_arg(args, 0, t);
                self.set_xy_js(t, x, y + d, [ux, false]);
            }
            Sop::SetY => {
                let ny = self.num_arg(args, 0, t);
                self.set_xy_js(t, x, ny, [ux, false]);
            }
            Sop::IfOnEdgeBounce if self.renders() => self.bounce(t),
            Sop::SetRotationStyle(s) => {
                if let Some(r) = RotationStyle::parse(s) {
                    if self.insts[t as usize].rotation != r {
                        self.insts[t as usize].rotation = r;
                        self.render_changed();
                    }
                }
                if t != self.stage && self.insts[t as usize].visible {
                    self.redraw = true;
                }
            }
            _ => {}
        }
    }
}
