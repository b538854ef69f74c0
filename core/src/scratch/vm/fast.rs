//! Fused execution of common shapes: a statement's *shape* (`Shape`), computed once when the
//! VM starts, says whether it can run without the general stack machinery, and the sequencer
//! then runs such statements (and whole loops over them) inline.
//!
//! A **leaf** is a statement that never touches the thread's stack, status or execution context
//! and never changes the thread list (`set`, `change`, motion without glides, looks without
//! backdrop hats or timed bubbles, lists, ...). A **branch** is an `if` / `if else` whose
//! branches are chains of leaves and branches. A **loop** is a `repeat`, `forever`, `while` or
//! `repeat until` whose body is such a chain.
//!
//! Running them inline is exactly equivalent to scratch-vm's `stepThread`: pushing a branch
//! frame, running leaves that only reuse it, and popping it back changes nothing a leaf can
//! observe; the only points where scratch-vm's sequencer decides anything are the loop ends,
//! and there the fused loop does what `stepThread` does: set `isLoop`, then in warp mode one
//! warp-timer check per iteration (counted exactly as `warpTimer.timeElapsed()` calls), else
//! yield after the iteration. Everything else (procedure calls, waits, broadcasts, clones,
//! glides, `stop`, nested loops) keeps the general path.

use alloc::vec::Vec;

use crate::scratch::image::{Expr, ExprId, Image, Rop, Slot, Sop, StmtId};
use crate::scratch::value::cast::to_bool;
use crate::scratch::value::Value;
use crate::scratch::vm::hooks::Blocks;
use crate::scratch::vm::io::js_round;
use crate::scratch::vm::thread::Ctx;
use crate::scratch::vm::{Active, Vm};

/// How a statement can run (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Only through the general executor.
    General,
    /// Runs to completion without touching the thread.
    Leaf,
    /// `if` / `if else` over fusible chains.
    Branch,
    /// A loop over a fusible chain.
    Loop,
}

/// Deepest nesting of branches the analysis follows (deeper ones stay general).
const MAX_DEPTH: u32 = 32;

/// Whether `op` is a leaf: it evaluates its inputs and changes target or VM state, but never
/// the thread (stack, status, context) nor the thread list.
fn is_leaf(op: &Sop) -> bool {
    matches!(
        op,
        Sop::Hat
            | Sop::Unimplemented
            | Sop::Nop
            | Sop::MoveSteps
            | Sop::TurnRight
            | Sop::TurnLeft
            | Sop::GoTo
            | Sop::GoToXY
            | Sop::PointInDirection
            | Sop::PointTowards
            | Sop::ChangeX
            | Sop::SetX
            | Sop::ChangeY
            | Sop::SetY
            | Sop::IfOnEdgeBounce
            | Sop::SetRotationStyle(_)
            | Sop::Say
            | Sop::Think
            | Sop::Show
            | Sop::Hide
            | Sop::SwitchCostume
            | Sop::NextCostume
            | Sop::ChangeEffect(_)
            | Sop::SetEffect(_)
            | Sop::ClearEffects
            | Sop::ChangeSize
            | Sop::SetSize
            | Sop::GoToFrontBack(_)
            | Sop::GoForwardBackward(_)
            | Sop::IncrCounter
            | Sop::Pen(_)
            | Sop::ClearCounter
            | Sop::ResetTimer
            | Sop::SetDragMode(_)
            | Sop::SetVar(_)
            | Sop::ChangeVar(_)
            | Sop::AddToList(_)
            | Sop::DeleteOfList(_)
            | Sop::DeleteAllOfList(_)
            | Sop::InsertAtList(_)
            | Sop::ReplaceItemOfList(_)
    )
}

/// Whether `op` is a leaf that `execute_in` hands to `exec_motion` (every motion block but
/// the glides, which wait).
fn is_motion_leaf(op: &Sop) -> bool {
    matches!(
        op,
        Sop::MoveSteps
            | Sop::TurnRight
            | Sop::TurnLeft
            | Sop::GoTo
            | Sop::GoToXY
            | Sop::PointInDirection
            | Sop::PointTowards
            | Sop::ChangeX
            | Sop::SetX
            | Sop::ChangeY
            | Sop::SetY
            | Sop::IfOnEdgeBounce
            | Sop::SetRotationStyle(_)
    )
}

/// The shapes of every statement of `img`, by [`StmtId`].
pub(crate) fn shapes(img: &Image) -> Vec<Shape> {
    let mut a = Analysis {
        img,
        shape: alloc::vec![None; img.stmts.len()],
        chain: alloc::vec![None; img.stmts.len()],
    };
    (0..img.stmts.len() as u32).map(|s| a.shape(s, 0)).collect()
}

/// A leaf's precomputed form for the commonest variable blocks (everything a run needs is in
/// the value, no image lookups); [`Quick::None`] runs through the general executor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Quick {
    /// No quick form.
    None,
    /// `change [var] by (number literal)`: the literal already cast.
    ChangeBy(Slot, f64),
    /// `change [var] by (reporter)`.
    Change(Slot, ExprId),
    /// `set [var] to (a + - * / mod b)`: the number as computed, NaN included.
    SetArith(Slot, ExprId),
    /// A motion leaf: straight to `exec_motion`, where the general executor's two
    /// dispatches (`execute_in`, `execute_other`) would send it.
    Motion,
}

/// The quick forms of every statement of `img` (`consts_num`: `Cast.toNumber` of each constant).
pub(crate) fn quicks(img: &Image, consts_num: &[f64]) -> Vec<Quick> {
    let one_arg = |s: &crate::scratch::image::Stmt| {
        if s.nargs == 1 {
            img.args.get(s.args as usize).copied()
        } else {
            None
        }
    };
    // A statement with a hoist (`Image::stmt_hoists`) runs it in `execute_in`: no quick form.
    let hoisted = |id: usize| img.stmt_hoists.binary_search_by_key(&(id as u32), |p| p.0).is_ok();
    img.stmts
        .iter()
        .enumerate()
        .map(|(id, s)| if hoisted(id) { (&Sop::Nop, None) } else { (&s.op, one_arg(s)) })
        .map(|(op, arg)| match (op, arg) {
            (Sop::ChangeVar(slot), Some(e)) => match img.exprs.get(e as usize) {
                Some(Expr::Const(k)) => match consts_num.get(*k as usize) {
                    Some(&d) => Quick::ChangeBy(*slot, d),
                    None => Quick::None,
                },
                Some(_) => Quick::Change(*slot, e),
                None => Quick::None,
            },
            (Sop::SetVar(slot), Some(e)) => match img.exprs.get(e as usize) {
                Some(Expr::Op(Rop::Add | Rop::Sub | Rop::Mul | Rop::Div | Rop::Mod, _, 2)) => {
                    Quick::SetArith(*slot, e)
                }
                _ => Quick::None,
            },
            (op, _) if is_motion_leaf(op) => Quick::Motion,
            _ => Quick::None,
        })
        .collect()
}

struct Analysis<'a> {
    img: &'a Image,
    shape: Vec<Option<Shape>>,
    /// Whether the chain starting at a statement is fusible.
    chain: Vec<Option<bool>>,
}

impl Analysis<'_> {
    fn shape(&mut self, s: StmtId, depth: u32) -> Shape {
        if let Some(Some(k)) = self.shape.get(s as usize) {
            return *k;
        }
        let Some(st) = self.img.stmts.get(s as usize) else { return Shape::General };
        // A branch or loop whose inputs are hoisted (`Image::stmt_hoists`) keeps the general
        // path, which runs the hoist; a leaf runs through `execute_in`, which does.
        let hoisted = || self.img.stmt_hoists.binary_search_by_key(&s, |p| p.0).is_ok();
        let k = if is_leaf(&st.op) {
            Shape::Leaf
        } else if depth >= MAX_DEPTH || hoisted() {
            Shape::General
        } else {
            let b = st.branch;
            match st.op {
                Sop::If if self.chain_ok(b[0], depth + 1) => Shape::Branch,
                Sop::IfElse if self.chain_ok(b[0], depth + 1) && self.chain_ok(b[1], depth + 1) => {
                    Shape::Branch
                }
                Sop::Repeat | Sop::Forever | Sop::While | Sop::RepeatUntil
                    if self.chain_ok(b[0], depth + 1) =>
                {
                    Shape::Loop
                }
                _ => Shape::General,
            }
        };
        self.shape[s as usize] = Some(k);
        k
    }

    /// Whether every statement of the chain from `start` is a leaf or a branch (a cycle of
    /// `next` links is not fusible). Results are memoised for every statement walked; a
    /// branch cut off by [`MAX_DEPTH`] makes its chains general, which is always correct.
    fn chain_ok(&mut self, start: Option<StmtId>, depth: u32) -> bool {
        let n = self.img.stmts.len();
        let mut walked: Vec<StmtId> = Vec::new();
        let mut cur = start;
        let mut ok = true;
        while let Some(s) = cur {
            if let Some(Some(known)) = self.chain.get(s as usize) {
                ok = *known;
                break;
            }
            if walked.len() > n || !matches!(self.shape(s, depth), Shape::Leaf | Shape::Branch) {
                ok = false;
                break;
            }
            walked.push(s);
            cur = self.img.stmts.get(s as usize).and_then(|x| x.next);
        }
        for s in walked {
            self.chain[s as usize] = Some(ok);
        }
        ok
    }
}

/// How a fused loop left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoopExit {
    /// The thread yields with the loop frame on top (`stepThread` returns).
    Yield,
    /// The loop is over: the general path moves on to the next block.
    Done,
}

impl Vm {
    /// Run the fusible chain starting at `s` for instance `t`.
    pub(crate) fn run_chain(&mut self, img: &Image, mut s: Option<StmtId>, t: u32) {
        while let Some(id) = s {
            let Some(st) = img.stmts.get(id as usize) else { return };
            self.block_ops += 1;
            match self.quicks.get(id as usize) {
                Some(&Quick::ChangeBy(slot, d)) => self.change_var(t, slot, d),
                Some(&Quick::Change(slot, e)) => {
                    let d = self.num_in(img, e, t);
                    self.change_var(t, slot, d);
                }
                Some(&Quick::SetArith(slot, e)) => {
                    let v = self.arith_in(img, e, t);
                    if let Some(x) = self.var_mut(t, slot) {
                        *x = Value::Num(v);
                    }
                }
                Some(Quick::Motion) => {
                    let args = img.args.get(st.args as usize..st.args as usize + st.nargs as usize);
                    self.motion_leaf(&st.op, args.unwrap_or(&[]), t);
                }
                _ => match self.shapes.get(id as usize) {
                    Some(Shape::Branch) => self.run_branch(img, id, t),
                    _ => self.execute_in(img, id, t),
                },
            }
            s = st.next;
        }
    }

    /// Run a [`Shape::Branch`] statement inline (condition, then the chosen branch).
    pub(crate) fn run_branch(&mut self, img: &Image, id: StmtId, t: u32) {
        let Some(st) = img.stmts.get(id as usize) else { return };
        let args = img.args.get(st.args as usize..st.args as usize + st.nargs as usize);
        let args = args.unwrap_or(&[]);
        let c = to_bool(&self.arg_in(img, args, 0, t));
        let b = match st.op {
            Sop::IfElse if !c => st.branch[1],
            _ if c => st.branch[0],
            _ => None,
        };
        self.run_chain(img, b, t);
    }

    /// Run a [`Shape::Loop`] statement `cur` (on top of the active thread's stack, in warp
    /// mode when `warp`) for as long as `stepThread` would keep running it.
    ///
    /// The loop counter and the warp-check count live in locals while the body runs (leaves
    /// never read the thread) and are stored back whenever the loop leaves.
    pub(crate) fn run_loop(&mut self, img: &Image, cur: StmtId, warp: bool) -> LoopExit {
        let Some(st) = img.stmts.get(cur as usize) else { return LoopExit::Done };
        let args = img.args.get(st.args as usize..st.args as usize + st.nargs as usize);
        let args = args.unwrap_or(&[]);
        let body = st.branch[0];
        // A literal or a variable as `TIMES` has no effect when evaluated: skip it.
        let times_pure = args.first().is_none_or(|&e| {
            matches!(img.exprs.get(e as usize), Some(Expr::Const(_) | Expr::Var(_)))
        });
        let th = self.th();
        let t = th.target;
        let mut counter = match th.frames.last().map(|f| &f.ctx) {
            Some(Ctx::Counter(c)) => Some(*c),
            _ => None,
        };
        let mut checks = th.warp_timer.unwrap_or(0);
        let limit = self.cfg.warp_checks;
        let mut entered = false;
        // The only thread of a pass (no monitors to run after it in the first pass): the
        // passes that follow would run just this loop again, so they run here, counted in
        // `ticks` exactly as `stepThreads` counts them, while it would keep going (budget of
        // passes left, no redraw requested unless turbo).
        let solo = !warp
            && self.in_pass
            && self.active == Active::Pass(0)
            && self.orphans.is_none()
            && self.threads.len() == 1
            && img.monitors.is_empty();
        let exit = loop {
            // `execute` of the loop block (its first one this step was counted by the
            // sequencer, which called this).
            if entered {
                self.block_ops += 1;
            }
            let enter = match st.op {
                Sop::Repeat => {
                    let c = match counter {
                        Some(c) if times_pure => c,
                        _ => {
                            let n = self.num_arg_in(img, args, 0, t);
                            counter.unwrap_or_else(|| js_round(n))
                        }
                    } - 1.0;
                    counter = Some(c);
                    c >= 0.0
                }
                Sop::Forever => true,
                Sop::While => to_bool(&self.arg_in(img, args, 0, t)),
                Sop::RepeatUntil => !to_bool(&self.arg_in(img, args, 0, t)),
                _ => break LoopExit::Done,
            };
            if !enter {
                break LoopExit::Done;
            }
            // `stepToBranch(.., isLoop = true)`; the branch frame is pushed and popped with
            // nothing observable in between.
            if !entered {
                entered = true;
                if let Some(f) = self.th().frames.last_mut() {
                    f.is_loop = true;
                }
            }
            self.run_chain(img, body, t);
            if self.halted() {
                break LoopExit::Yield;
            }
            // Back at the loop frame: `stepThread`'s `isLoop` check, one warp-timer check per
            // iteration in warp mode (`Vm::warp_expired_check`), else the thread yields.
            if !warp {
                if solo && self.ticks < self.cfg.ticks_per_frame && (self.cfg.turbo || !self.redraw)
                {
                    self.ticks += 1;
                    continue;
                }
                break LoopExit::Yield;
            }
            checks = checks.saturating_add(1);
            if checks > limit {
                self.warp_expired = true;
                break LoopExit::Yield;
            }
        };
        let th = self.th();
        if warp {
            th.warp_timer = Some(checks);
        }
        if let Some(c) = counter {
            *th.ctx() = Ctx::Counter(c);
        }
        exit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_has_fused_and_general_shapes() {
        let bytes = include_bytes!("../../../tests/fixtures/scratch/fused/project.json");
        let project = crate::scratch::project::load(bytes).expect("fixture loads");
        let img = crate::scratch::compile::compile(&project).expect("fixture compiles");
        let shapes = shapes(&img);
        let count = |k: Shape| shapes.iter().filter(|&&s| s == k).count();
        // Fused loops: the 50-step body, random count, inner 4, until, param loop, 3000, while,
        // 0 times, empty body, forever with if, repeat 25, forever late, the plain procedure.
        assert_eq!(count(Shape::Loop), 13);
        assert!(count(Shape::Branch) >= 4);
        // General: the outer loop around a loop, and the loop calling a procedure.
        let general_loops = img
            .stmts
            .iter()
            .zip(&shapes)
            .filter(|(s, k)| matches!(s.op, Sop::Repeat) && **k == Shape::General)
            .count();
        assert_eq!(general_loops, 2);
    }
}
