//! The register tier: loops whose blocks are all variables, lists, operators, `if`s and
//! loops (the compute part of a project) compiled, when the VM starts, to typed register
//! code ([`code`]) that a small interpreter ([`exec`]) runs instead of the block tree.
//!
//! A *region* is one loop statement with everything nested in it ([`build`]). The sequencer
//! enters it where it would execute the loop block (`Vm::step_thread`) and the region runs
//! until the loop is over or a loop end yields; in between nothing else runs, so the
//! variables and lists it uses live in registers and local vectors, moved in on entry and
//! back on exit. What scratch-vm's sequencer decides, the region decides the same way at the
//! same points: each loop end is one counted warp-timer check in warp mode and a yield
//! otherwise (the next pass in place for the only thread of a pass, as `vm::fast` does);
//! when it yields inside nested loops or `if`s, the thread's frames are rebuilt exactly as
//! `stepThread` would have left them (each with its block, `isLoop` and loop counter), so
//! the next step resumes through the interpreter or the inner loop's own region.
//!
//! Registers carry a tag next to the number (see [`code`]), so arithmetic never looks at a
//! boxed value, comparisons of numbers are plain float comparisons, `mod` by a literal is a
//! multiplication, and every result is the one the block implementations give (the tier
//! calls them for strings, lists and anything not a plain number). `Config::tier = false`
//! leaves every loop to the interpreter; the differential tests compare both. The cargo
//! feature `tier` (on by default) builds it; the classroom-kit firmware leaves it out.
//!
//! Blocks that the run budgets ([`budget`](super::budget)) account (`join`, `letter of`,
//! `length of`, `contains`, list changes and scans) charge them in the region through a
//! [`Meter`](super::budget::Meter) over the VM's own budget state, with the same functions
//! the VM's blocks call (`blocks::data`, `blocks::operators`); the region looks for a halt
//! where the interpreter does (see [`build`]), so every budget halts the run at the same
//! block, for the same reason, with the same work done, with the tier on or off.
//!
//! Block operations (`Vm::block_ops`) are counted without an operation of their own: a
//! straight-line run of register code has no exit but its last (control) operation, so the
//! jump that enters a run adds the statements starting in it (`build`'s `block_counts`),
//! and entering the region adds those of its first run.

mod build;
mod code;
mod exec;

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::budget::{Limits, Meter};
use super::fast::LoopExit;
use super::fast::Shape;
use super::thread::Ctx;
use super::Vm;
use crate::scratch::image::{Image, Slot, StmtId};
use crate::scratch::value::Value;
use code::{Region, CANON};
use exec::{Env, Exit, Regs};

/// The compiled regions of one VM and the register file they run in.
#[derive(Debug, Default)]
pub(crate) struct Tier {
    /// For each statement, the index of its region (`u32::MAX`: none).
    by_stmt: Vec<u32>,
    regions: Vec<Region>,
    /// Allocated when the image has a region.
    regs: Option<Box<Regs>>,
}

impl Tier {
    /// The regions of `img` (none when `on` is false); `consts` are its literals as values.
    /// `shapes` are the statements' shapes as the interpreter runs them (`vm::fast`).
    pub(crate) fn new(img: &Image, consts: &[Value], shapes: &[Shape], on: bool) -> Tier {
        if !on {
            return Tier::default();
        }
        let (by_stmt, regions) = build::regions(img, consts, shapes);
        let lists = regions.iter().map(|r| r.lists.len()).max();
        let regs = lists.map(|n| Box::new(Regs::new(n)));
        Tier { by_stmt, regions, regs }
    }

    /// Number of loop statements compiled.
    pub(crate) fn len(&self) -> usize {
        self.regions.len()
    }
}

impl Vm {
    /// Run loop statement `cur` (on top of the active thread's stack, in warp mode when
    /// `warp`) through its region, if it has one and can be entered here; `None` leaves it
    /// to the interpreter.
    pub(crate) fn run_tier(&mut self, cur: StmtId, warp: bool) -> Option<LoopExit> {
        let ri = *self.tier.by_stmt.get(cur as usize)?;
        if ri == u32::MAX {
            return None;
        }
        let mut tier = core::mem::take(&mut self.tier);
        let exit = self.run_region(&mut tier, ri as usize, warp);
        self.tier = tier;
        exit
    }

    /// The instance and index a slot names as seen from `t`, if it exists.
    fn place(&self, t: u32, slot: Slot, list: bool) -> Option<(usize, usize)> {
        let (i, k) = match slot {
            Slot::Local(k) => (t, k),
            Slot::Global(k) => (self.stage, k),
        };
        let inst = self.insts.get(i as usize)?;
        let len = if list { inst.lists.len() } else { inst.vars.len() };
        ((k as usize) < len).then_some((i as usize, k as usize))
    }

    fn run_region(&mut self, tier: &mut Tier, ri: usize, warp: bool) -> Option<LoopExit> {
        let region = tier.regions.get(ri)?;
        let regs = tier.regs.as_deref_mut()?;
        let th = self.th();
        let t = th.target;
        let counter = match th.frames.last().map(|f| &f.ctx) {
            Some(Ctx::Counter(c)) => *c,
            _ => f64::NAN,
        };
        let checks = th.warp_timer.unwrap_or(0);
        // On the stage a sprite-local slot and a global slot of the same index are one
        // variable; registers would split it.
        if region.local_global_overlap && t == self.stage {
            return None;
        }
        if region.vars.iter().any(|v| self.place(t, v.0, false).is_none())
            || region.lists.iter().any(|&l| self.place(t, l, true).is_none())
        {
            return None;
        }
        // Entered: move everything in.
        for &(slot, r) in &region.vars {
            if let Some(x) = self.var_mut(t, slot) {
                regs.put(r, core::mem::take(x));
            }
        }
        regs.lists.clear();
        for &slot in &region.lists {
            let l = self.list_mut(t, slot).map(core::mem::take).unwrap_or_default();
            regs.lists.push(l);
        }
        for &(i, r) in &region.params {
            let v = self.th().param(i).cloned().unwrap_or(Value::Num(0.0));
            regs.put(r, v);
        }
        for (r, cell, v) in &region.consts {
            regs.r[usize::from(*r)] = *cell;
            if cell.tag >= CANON {
                regs.b[usize::from(*r)] = v.clone();
            }
        }
        for &c in &region.inner_counters {
            regs.r[usize::from(c)].n = f64::NAN;
        }
        if let Some(c) = region.counter {
            regs.r[usize::from(c)].n = counter;
        }
        let solo = !warp
            && self.in_pass
            && self.active == super::Active::Pass(0)
            && self.orphans.is_none()
            && self.threads.len() == 1
            && self.img.monitors.is_empty();
        // What the memory estimate holds that the region cannot change (its variables are
        // moved out; it counts their strings itself).
        let fixed = if region.charges {
            self.memory_estimate() - self.budget.list_bytes - self.text_buf.capacity()
        } else {
            0
        };
        let lim = Limits {
            max_string_len: self.cfg.max_string_len,
            max_list_bytes: self.cfg.max_list_bytes,
            max_memory: self.cfg.max_memory,
            max_frame_work: self.cfg.max_frame_work,
        };
        let meter =
            Meter { budget: &mut self.budget, lim, text: &mut self.text_buf, fixed, tripped: None };
        let mut env = Env {
            rng: &mut self.rng,
            counter: &mut self.counter,
            meter,
            max_list_len: self.cfg.max_list_len,
            vars: &region.vars,
            warp,
            checks,
            warp_limit: self.cfg.warp_checks,
            warp_expired: false,
            solo,
            ticks: &mut self.ticks,
            ticks_per_frame: self.cfg.ticks_per_frame,
            turbo: self.cfg.turbo,
            redraw: self.redraw,
            exit: Exit::Done,
            ops: &region.ops,
            block_ops: u64::from(region.entry_blocks),
        };
        let exit = exec::run(&region.code, regs, &mut env, 0);
        let (checks, expired, tripped) = (env.checks, env.warp_expired, env.meter.tripped);
        self.block_ops += env.block_ops;
        if expired {
            self.warp_expired = true;
        }
        // Everything back.
        for &(slot, r) in &region.vars {
            let v = regs.take(r);
            if let Some(x) = self.var_mut(t, slot) {
                *x = v;
            }
        }
        for (k, &slot) in region.lists.iter().enumerate() {
            let l = regs.lists.get_mut(k).map(core::mem::take).unwrap_or_default();
            if let Some(x) = self.list_mut(t, slot) {
                *x = l;
            }
        }
        regs.lists.clear();
        let th = self.th();
        if warp {
            th.warp_timer = Some(checks);
        }
        let result = match exit {
            Exit::Done => LoopExit::Done,
            Exit::Yield(p) => {
                // The frames `stepThread` leaves: the region's loop, then every `if` and loop
                // the yielding loop end is nested in.
                if let Some(f) = th.frames.last_mut() {
                    f.is_loop = true;
                    if let Some(c) = region.counter {
                        f.ctx = Ctx::Counter(regs.r[usize::from(c)].n);
                    }
                }
                for step in region.paths.get(usize::from(p)).map_or(&[][..], Vec::as_slice) {
                    th.push(Some(step.stmt));
                    if let Some(f) = th.frames.last_mut() {
                        f.is_loop = step.is_loop;
                        if let Some(c) = step.counter {
                            f.ctx = Ctx::Counter(regs.r[usize::from(c)].n);
                        }
                    }
                }
                LoopExit::Yield
            }
        };
        regs.clear(0..region.fixed);
        regs.clear(region.low_temp..code::MAX_REGS);
        if let Some((reason, limit)) = tripped {
            self.halt(reason, limit);
        }
        Some(result)
    }
}
