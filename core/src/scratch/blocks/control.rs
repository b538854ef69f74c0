//! Control blocks (`control_*`): loops, waits, stop, clones and the hidden counter blocks.

use crate::scratch::image::ops::StopKind;
use crate::scratch::image::{Sop, StmtId};
use crate::scratch::value::cast::{js_number, to_str_value};
use crate::scratch::value::Value;
use crate::scratch::vm::io::js_round;
use crate::scratch::vm::thread::{Ctx, Status};
use crate::scratch::vm::Vm;

impl Vm {
    /// `control_repeat` with `TIMES` already cast to a number.
    pub(crate) fn repeat(&mut self, cur: StmtId, times: f64) {
        let times = js_round(times);
        let ctx = self.th().ctx();
        let c = match ctx {
            Ctx::Counter(c) => *c,
            _ => times,
        } - 1.0;
        *ctx = Ctx::Counter(c);
        if c >= 0.0 {
            self.step_to_branch(cur, 0, true);
        }
    }

    pub(crate) fn exec_control(&mut self, op: &Sop, cur: StmtId, args: &[u32], t: u32) {
        match op {
            Sop::Wait => {
                let d = self.num_arg(args, 0, t);
                let now = self.current_msecs;
                match *self.th().ctx() {
                    Ctx::Timer(start, dur) => {
                        if now - start < dur {
                            self.yield_now();
                        }
                    }
                    _ => {
                        let dur = (1000.0 * d).max(0.0);
                        *self.th().ctx() = Ctx::Timer(now, if dur.is_nan() { 0.0 } else { dur });
                        self.redraw = true;
                        self.yield_now();
                    }
                }
            }
            Sop::ForEach(slot) => {
                let limit = js_number(&self.arg(args, 0, t));
                let ctx = self.th().ctx();
                let index = match ctx {
                    Ctx::Counter(i) => *i,
                    _ => 0.0,
                };
                if index < limit {
                    *ctx = Ctx::Counter(index + 1.0);
                    if let Some(v) = self.var_mut(t, *slot) {
                        *v = Value::Num(index + 1.0);
                    }
                    self.step_to_branch(cur, 0, true);
                } else {
                    *ctx = Ctx::Counter(index);
                }
            }
            Sop::Stop(kind) => match kind {
                StopKind::All => self.stop_all(),
                StopKind::OtherScripts => {
                    let me = self.th().serial;
                    self.stop_for_target(t, Some(me));
                }
                StopKind::ThisScript => self.stop_this_script(),
                StopKind::Nothing => {}
            },
            Sop::CreateClone => {
                let opt = to_str_value(&self.arg(args, 0, t));
                let src = if &*opt == "_myself_" { Some(t) } else { self.sprite_by_name(&opt) };
                if let Some(src) = src {
                    self.make_clone(src);
                }
            }
            Sop::DeleteClone => {
                if self.insts[t as usize].original {
                    return;
                }
                self.dispose_clone(t);
            }
            Sop::AllAtOnce => self.step_to_branch(cur, 0, false),
            Sop::IncrCounter => self.counter += 1.0,
            Sop::ClearCounter => self.counter = 0.0,
            _ => {}
        }
    }

    /// `thread.stopThisScript()`.
    fn stop_this_script(&mut self) {
        let img = self.img.clone();
        let th = self.th();
        while let Some(b) = th.peek() {
            if matches!(img.stmts[b as usize].op, Sop::Call { .. }) {
                break;
            }
            th.pop();
        }
        if th.frames.is_empty() {
            th.status = Status::Done;
        }
    }

    /// `RenderedTarget.makeClone` + `runtime.addTarget` + `goBehindOther`.
    pub(crate) fn make_clone(&mut self, src: u32) -> Option<u32> {
        if self.clone_count >= self.cfg.max_clones || src == self.stage {
            return None;
        }
        // The clone copies the sprite's local lists (the list budgets count the copies).
        let lists = &self.insts[src as usize].lists;
        let items: usize = lists.iter().map(|l| l.len()).sum();
        let bytes: usize = lists.iter().map(|l| crate::scratch::vm::budget::list_bytes(l)).sum();
        if !self.spend(items) || !self.list_grow(bytes) {
            return None;
        }
        self.clone_count += 1;
        let mut inst = self.insts[src as usize].clone();
        // A clone's drawable is new: its convex hull starts dirty.
        inst.draw.set_hull_dirty();
        inst.original = false;
        inst.alive = true;
        inst.dragging = false;
        inst.volume = 100.0;
        // `_onTargetCreated` copies the sound state (effects); `sound_fx` came with the clone.
        inst.bubble = None;
        let sprite = inst.sprite as usize;
        if let Some(s) = self.clone_serials.get_mut(sprite) {
            *s += 1;
            inst.serial = *s;
        }
        let visible = inst.visible;
        let id = match self.free_insts.pop() {
            Some(i) => {
                self.insts[i as usize] = inst;
                i
            }
            None => {
                self.insts.push(inst);
                (self.insts.len() - 1) as u32
            }
        };
        if visible {
            self.redraw = true;
        }
        self.start_hats(crate::scratch::vm::sched::HatSel::StartAsClone, Some(id));
        self.targets.push(id);
        self.exec.push(id);
        let src_pos = self.exec.iter().position(|&x| x == src).unwrap_or(0);
        self.set_exec_position(id, src_pos as f64);
        Some(id)
    }
}
