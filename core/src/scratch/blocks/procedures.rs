//! Custom blocks (`procedures_*`): calls push their parameters on the call's frame and step
//! into the definition (`sequencer.stepToProcedure`), with scratch-vm's warp and recursion
//! yields. Argument reporters are resolved at compile time to parameter indices.

use crate::scratch::image::Sop;
use crate::scratch::value::Value;
use crate::scratch::vm::thread::{Ctx, Status};
use crate::scratch::vm::Vm;

fn lit(l: &crate::scratch::image::Lit) -> Value {
    match l {
        crate::scratch::image::Lit::Num(n) => Value::Num(*n),
        crate::scratch::image::Lit::Str(s) => Value::str(s),
        crate::scratch::image::Lit::Bool(b) => Value::Bool(*b),
        crate::scratch::image::Lit::Undefined => Value::Undefined,
    }
}

impl Vm {
    pub(crate) fn exec_call(&mut self, op: &Sop, args: &[u32], t: u32) {
        let Sop::Call { proc, code, present } = op else { return };
        // Inputs are evaluated on every execution, as execute.js does.
        let mut vals: alloc::vec::Vec<Value> = alloc::vec::Vec::with_capacity(args.len());
        for k in 0..args.len() {
            vals.push(self.arg(args, k, t));
        }
        if matches!(self.th().ctx(), Ctx::Executed) {
            return;
        }
        let Some(p) = proc else { return };
        let img = self.img.clone();
        let pr = &img.procs[*p as usize];
        let depth = self.th().frames.len();
        if !self.call_fits(depth, pr.param_names.len()) {
            return;
        }
        let th = self.th();
        let base = th.params.len() as u32;
        let mut next_arg = vals.into_iter();
        for (k, d) in pr.defaults.iter().enumerate().take(pr.param_names.len()) {
            let v = if present.get(k).copied().unwrap_or(false) {
                next_arg.next().unwrap_or(Value::Undefined)
            } else {
                lit(d)
            };
            th.params.push(v);
        }
        if let Some(f) = th.frames.last_mut() {
            f.params = Some(base);
            f.ctx = Ctx::Executed;
        }
        // stepToProcedure
        let Some(def) = pr.definition else { return };
        let recursive = {
            let n = th.frames.len();
            let mut found = false;
            let mut budget = 5i32;
            for f in th.frames[..n.saturating_sub(1)].iter().rev() {
                if let Some(b) = f.block {
                    if let Sop::Call { code: c, .. } = &img.stmts[b as usize].op {
                        if c == code {
                            found = true;
                            break;
                        }
                    }
                }
                budget -= 1;
                if budget < 0 {
                    break;
                }
            }
            found
        };
        th.push(Some(def));
        let warp_now = th.frames.last().is_some_and(|f| f.warp);
        if warp_now && self.warp_expired_check() {
            self.th().status = Status::Yield;
        } else if pr.warp {
            if let Some(f) = self.th().frames.last_mut() {
                f.warp = true;
            }
        } else if recursive {
            self.th().status = Status::Yield;
        }
    }
}
