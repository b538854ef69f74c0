//! Motion blocks (`motion_*`) as target state: position, direction, glides on the virtual
//! clock, rotation style, `if on edge, bounce`. With skins (a renderer) positions are fenced
//! to the stage as scratch-render does (`crate::scratch::vm::sprite`, `vm::drawable`); without,
//! they are set unfenced and bouncing does nothing, as scratch-vm without a renderer.

use crate::scratch::geom::transform::move_angle;
use crate::scratch::image::Sop;
use crate::scratch::value::cast::{to_number, to_str_value};
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
            (hw + b.left).max(0.0),
            (hh - b.top).max(0.0),
            (hw - b.right).max(0.0),
            (hh + b.bottom).max(0.0),
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

    /// `getTargetXY` of a menu value (`_mouse_`, `_random_` or a sprite name).
    fn target_xy(&mut self, v: &Value) -> Option<(f64, f64)> {
        if let Value::Str(s) = v {
            match &**s {
                "_mouse_" => {
                    return Some((to_number(&self.io.mouse_x), to_number(&self.io.mouse_y)));
                }
                "_random_" => {
                    let x = js_round(480.0 * (self.rng.next_f64() - 0.5));
                    let y = js_round(360.0 * (self.rng.next_f64() - 0.5));
                    return Some((x, y));
                }
                _ => {}
            }
        }
        let o = self.sprite_by_name(&to_str_value(v))?;
        let i = &self.insts[o as usize];
        Some((i.x, i.y))
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
        let (x, y, dir) = {
            let i = &self.insts[t as usize];
            (i.x, i.y, i.direction)
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
                if let Some((nx, ny)) = self.target_xy(&v) {
                    self.set_xy(t, nx, ny);
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
                let (nx, ny) = self.target_xy(&v).unwrap_or((0.0, 0.0));
                self.glide(t, s, nx, ny);
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
                if let Some((tx, ty)) = self.target_xy(&v) {
                    let dx = tx - x;
                    let dy = ty - y;
                    let d = 90.0 - jsmath::atan2(dy, dx) * 180.0 / core::f64::consts::PI;
                    self.set_direction(t, d);
                }
            }
            Sop::ChangeX => {
                let d = self.num_arg(args, 0, t);
                self.set_xy(t, x + d, y);
            }
            Sop::SetX => {
                let nx = self.num_arg(args, 0, t);
                self.set_xy(t, nx, y);
            }
            Sop::ChangeY => {
                let d = self.num_arg(args, 0, t);
                self.set_xy(t, x, y + d);
            }
            Sop::SetY => {
                let ny = self.num_arg(args, 0, t);
                self.set_xy(t, x, ny);
            }
            Sop::IfOnEdgeBounce if self.renders() => self.bounce(t),
            Sop::SetRotationStyle(s) => {
                if let Some(r) = RotationStyle::parse(s) {
                    self.insts[t as usize].rotation = r;
                }
                if t != self.stage && self.insts[t as usize].visible {
                    self.redraw = true;
                }
            }
            _ => {}
        }
    }
}
