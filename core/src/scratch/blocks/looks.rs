//! Looks blocks (`looks_*`) as target state: say/think (say-for-secs on the virtual timeout
//! queue), show/hide, costumes and backdrops (with the backdrop hats), graphic effects, size
//! and layers; plus the sound volume state. Bubbles, visibility, clearing effects and the
//! layer order are the target's state changes in `crate::scratch::vm::sprite`. Each visual
//! change requests a redraw exactly where scratch-vm does with a renderer attached.
#![allow(clippy::collapsible_match)] // arms mirror scratch-vm's block functions one to one

use crate::clamp::{clamp, wrap_clamp};

use crate::scratch::image::ops::EFFECT_NAMES;
use crate::scratch::image::Sop;
use crate::scratch::value::cast::{self, js_number, to_str_value};
use crate::scratch::value::Value;
use crate::scratch::vm::io::{js_round, Timeout};
use crate::scratch::vm::sched::HatSel;
use crate::scratch::vm::thread::Ctx;
use crate::scratch::vm::Vm;

impl Vm {
    pub(crate) fn set_costume(&mut self, t: u32, index: f64) {
        let n = self.costumes(t).len();
        let mut i = js_round(index);
        if !i.is_finite() {
            i = 0.0;
        }
        let c = wrap_clamp(i, 0.0, n.saturating_sub(1) as f64);
        let inst = &mut self.insts[t as usize];
        inst.costume = if c.is_finite() && c >= 0.0 { c as u32 } else { 0 };
        if inst.visible {
            self.redraw = true;
            self.visual_change(t);
        }
    }

    /// `_setCostume` / `_setBackdrop` value rules; returns whether a name matched etc.
    fn costume_request(&mut self, t: u32, v: &Value, zero: bool, backdrop: bool) {
        if let Value::Num(n) = v {
            self.set_costume(t, if zero { *n } else { n - 1.0 });
            return;
        }
        let s = to_str_value(v);
        let cur = f64::from(self.insts[t as usize].costume);
        if let Some(i) = self.costumes(t).iter().position(|c| **c == *s) {
            self.set_costume(t, i as f64);
        } else if (!backdrop && &*s == "next costume") || (backdrop && &*s == "next backdrop") {
            self.set_costume(t, cur + 1.0);
        } else if (!backdrop && &*s == "previous costume")
            || (backdrop && &*s == "previous backdrop")
        {
            self.set_costume(t, cur - 1.0);
        } else if backdrop && &*s == "random backdrop" {
            let n = self.costumes(t).len();
            if n > 1 {
                let r = self.rng.next_f64();
                let mut k = libm::floor(r * (n - 1) as f64);
                if k >= cur {
                    k += 1.0;
                }
                self.set_costume(t, k);
            }
        } else {
            let num = js_number(v);
            if !(num.is_nan() || cast::is_white_space(v)) {
                self.set_costume(t, if zero { num } else { num - 1.0 });
            }
        }
    }

    /// Switch the backdrop and start its hats; returns the threads started.
    fn set_backdrop(&mut self, v: &Value, zero: bool) -> alloc::vec::Vec<u64> {
        let stage = self.stage;
        self.costume_request(stage, v, zero, true);
        let c = self.insts[stage as usize].costume as usize;
        let name = self.costumes(stage).get(c).cloned().unwrap_or_default();
        self.start_hats(HatSel::Backdrop(&name), None)
    }

    fn set_effect(&mut self, t: u32, name: &str, value: f64) {
        let Some(k) = EFFECT_NAMES.iter().position(|n| *n == name) else { return };
        let v = match name {
            "ghost" => clamp(value, 0.0, 100.0),
            "brightness" => clamp(value, -100.0, 100.0),
            _ => value,
        };
        let inst = &mut self.insts[t as usize];
        inst.effects[k] = v;
        if inst.visible {
            self.redraw = true;
        }
        if matches!(name, "fisheye" | "whirl" | "pixelate" | "mosaic") {
            self.shape_effect_set(t);
        }
    }

    pub(crate) fn set_size(&mut self, t: u32, size: f64) {
        if t == self.stage {
            return;
        }
        // With a renderer, clamp relative to the costume and the stage (`setSize`).
        let size = match self.skin_index(t).filter(|_| self.renders()) {
            Some(k) => {
                let [w, h] = self.img.skins[k as usize].size;
                let min = (5.0 / w).max(5.0 / h).min(1.0);
                let max = (1.5 * 480.0 / w).min(1.5 * 360.0 / h);
                let s = size / 100.0;
                if s.is_nan() {
                    s
                } else {
                    s.max(min).min(max) * 100.0
                }
            }
            None => size,
        };
        let inst = &mut self.insts[t as usize];
        inst.size = size;
        if inst.visible {
            self.redraw = true;
            self.visual_change(t);
        }
    }

    pub(crate) fn exec_looks(&mut self, op: &Sop, args: &[u32], t: u32) {
        match op {
            Sop::Say | Sop::Think => {
                let m = self.arg(args, 0, t);
                self.say_event(t, *op == Sop::Think, m);
            }
            Sop::SayForSecs | Sop::ThinkForSecs => {
                let m = self.arg(args, 0, t);
                let secs = self.arg(args, 1, t);
                let think = *op == Sop::ThinkForSecs;
                self.say_event(t, think, m);
                let usage = self.insts[t as usize].bubble.as_ref().map_or(0, |b| b.usage);
                let ms = 1000.0 * js_number(&secs);
                let delay = if ms.is_nan() { 0.0 } else { ms.max(0.0) };
                self.timeout_seq += 1;
                let seq = self.timeout_seq;
                let thread = self.th().serial;
                self.timeouts.push(Timeout {
                    due: self.now_ms + delay,
                    seq,
                    target: t,
                    usage,
                    think,
                    thread,
                });
                self.last_bubble_timeout = seq;
                self.promise_wait();
            }
            Sop::Show | Sop::Hide => self.set_visible(t, *op == Sop::Show),
            Sop::SwitchCostume => {
                let v = self.arg(args, 0, t);
                self.costume_request(t, &v, false, false);
            }
            Sop::NextCostume => {
                let c = f64::from(self.insts[t as usize].costume);
                self.set_costume(t, c + 1.0);
            }
            Sop::SwitchBackdrop => {
                let v = self.arg(args, 0, t);
                self.set_backdrop(&v, false);
            }
            Sop::NextBackdrop => {
                let c = f64::from(self.insts[self.stage as usize].costume);
                self.set_backdrop(&Value::Num(c + 1.0), true);
            }
            Sop::SwitchBackdropAndWait => {
                let v = self.arg(args, 0, t);
                let started = match self.th().ctx() {
                    Ctx::Started(s) => s.clone(),
                    _ => {
                        let s = self.set_backdrop(&v, false);
                        if s.is_empty() {
                            return;
                        }
                        *self.th().ctx() = Ctx::Started(s.clone());
                        s
                    }
                };
                self.wait_for_started(&started);
            }
            Sop::ChangeEffect(name) | Sop::SetEffect(name) => {
                let v = self.num_arg(args, 0, t);
                let Some(k) = EFFECT_NAMES.iter().position(|n| n == name) else { return };
                let base = if matches!(op, Sop::ChangeEffect(_)) {
                    self.insts[t as usize].effects[k]
                } else {
                    0.0
                };
                self.set_effect(t, name, v + base);
            }
            Sop::ClearEffects => self.clear_effects(t),
            Sop::ChangeSize => {
                let d = self.num_arg(args, 0, t);
                let s = self.insts[t as usize].size;
                self.set_size(t, s + d);
            }
            Sop::SetSize => {
                let s = self.num_arg(args, 0, t);
                self.set_size(t, s);
            }
            Sop::GoToFrontBack(front) => {
                if t != self.stage {
                    self.set_exec_position(
                        t,
                        if *front { f64::INFINITY } else { f64::NEG_INFINITY },
                    );
                }
            }
            Sop::GoForwardBackward(fwd) => {
                let n = self.num_arg(args, 0, t);
                if t != self.stage {
                    self.move_exec(t, if *fwd { n } else { -n });
                }
            }
            Sop::SetVolume | Sop::ChangeVolume => {
                let v = self.num_arg(args, 0, t);
                let base =
                    if *op == Sop::ChangeVolume { self.insts[t as usize].volume } else { 0.0 };
                self.insts[t as usize].volume = clamp(v + base, 0.0, 100.0);
                // `_updateVolume` returns `Promise.resolve()`: yield until the next frame.
                self.resolve_next_frame();
            }
            _ => {}
        }
    }
}
