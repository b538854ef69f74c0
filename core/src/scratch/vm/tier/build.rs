//! The tier's compiler: a loop statement of the program image, with everything nested in it,
//! to a [`Region`] of register code, when every block in it is one the tier runs (variables,
//! lists, operators, `if`, the loops, the hidden counter); any other block (or a hoisted
//! input, or more registers than [`MAX_REGS`]) leaves the loop to the interpreter.
//!
//! Blocks the run budgets charge (`join`, `letter of`, `length of`, `contains`, list changes
//! and scans) charge them in the region as in the VM, and after them the region looks for a
//! halt ([`Op::HaltCheck`]) exactly where the interpreter does: after each statement it
//! steps on its own, or at the end of a fused loop's body and after a fused `if` (the
//! statement shapes of `vm::fast`), so a halt leaves the same work done with the tier on or
//! off.
//!
//! Inputs are compiled in the order the VM's block implementations evaluate them, so random
//! draws happen in the same order. Variables, lists, parameters and literals get fixed
//! registers from the bottom of the file; each statement's intermediate results get registers
//! from the top, free again after the statement.

use alloc::vec;
use alloc::vec::Vec;

use super::code::{
    ArithOp, Cmp, Op, Reg, Region, Step, BOOL, BOXED, CANON, MAX_NESTING, MAX_OPS, MAX_REGS, NUM,
};
use super::exec::Cell;
use crate::scratch::image::{Expr, ExprId, Image, Rop, Slot, Sop, StmtId};
use crate::scratch::value::number::{parse_js_number, JsNum};
use crate::scratch::value::Value;
use crate::scratch::vm::fast::Shape;

/// Why a loop is left to the interpreter (only used to stop compiling).
#[derive(Debug)]
struct Reject;

type Res<T> = Result<T, Reject>;

/// The regions of every loop statement of `img` that the tier can run: for each statement,
/// the index of its region (or `u32::MAX`), and the regions. `consts` are the image's
/// literals as values.
pub(crate) fn regions(img: &Image, consts: &[Value], shapes: &[Shape]) -> (Vec<u32>, Vec<Region>) {
    let mut by_stmt = vec![u32::MAX; img.stmts.len()];
    let mut out = Vec::new();
    let mut seen = vec![false; img.stmts.len()];
    for (id, st) in img.stmts.iter().enumerate() {
        if !matches!(
            st.op,
            Sop::Repeat | Sop::Forever | Sop::While | Sop::RepeatUntil | Sop::ForEach(_)
        ) {
            continue;
        }
        let mut b = Builder::new(img, consts, shapes, &mut seen);
        let region = b.region(id as StmtId);
        b.unsee();
        if let Ok(r) = region {
            by_stmt[id] = out.len() as u32;
            out.push(r);
        }
    }
    (by_stmt, out)
}

/// Whether `s` is the JavaScript spelling of a finite number without an exponent (so every
/// cast of the string equals the cast of the number): that number.
fn canonical(s: &str) -> Option<f64> {
    let n = parse_js_number(s);
    if !n.is_finite() {
        return None;
    }
    let mut buf = ryu_js::Buffer::new();
    let spelled = JsNum(n).as_str(&mut buf);
    (spelled == s && !spelled.contains('e')).then_some(n)
}

/// A literal's register contents.
fn literal(v: &Value) -> Cell {
    match v {
        Value::Num(n) => Cell { n: *n, tag: NUM },
        Value::Bool(x) => Cell { n: f64::from(u8::from(*x)), tag: BOOL },
        Value::Str(s) => match canonical(s) {
            Some(n) => Cell { n, tag: CANON },
            None => Cell { n: 0.0, tag: BOXED },
        },
        Value::Undefined => Cell { n: 0.0, tag: BOXED },
    }
}

struct Builder<'a> {
    img: &'a Image,
    consts: &'a [Value],
    shapes: &'a [Shape],
    /// Inside a statement the interpreter runs fused (a [`Shape::Loop`] or
    /// [`Shape::Branch`] it reached on its own): it looks for a halt only after it.
    fused: bool,
    /// Budget-charging operations emitted so far.
    charged: usize,
    code: Vec<Op>,
    vars: Vec<(Slot, Reg)>,
    lists: Vec<Slot>,
    params: Vec<(u32, Reg)>,
    literals: Vec<(u32, Reg)>,
    region_consts: Vec<(Reg, Cell, Value)>,
    undefined: Option<Reg>,
    /// Next fixed register (they grow up from 0).
    fixed: usize,
    /// Lowest temporary register handed out so far, and the next one (they grow down).
    low_temp: usize,
    temp: usize,
    inner_counters: Vec<Reg>,
    path: Vec<Step>,
    paths: Vec<Vec<Step>>,
    /// Statements compiled into this region (a statement reached twice means a cycle).
    seen: &'a mut Vec<bool>,
    seen_list: Vec<StmtId>,
    /// Block-operation accounting (see [`Builder::block_counts`]): the straight-line runs,
    /// the current one, the run each control operation goes on to, and the run each jump
    /// targets (by operation index).
    runs: Vec<Run>,
    run: usize,
    fall_runs: Vec<(u32, usize)>,
    jump_runs: Vec<(u32, usize)>,
}

/// A straight-line run of code (see [`Builder::block_counts`]).
#[derive(Clone, Copy, Debug)]
struct Run {
    /// Its first position.
    pos: u32,
    /// Statements starting in it.
    blocks: u32,
    /// The run it flows into without a control operation between (a later jump target).
    into: Option<usize>,
}

/// A jump target: its position and its run.
#[derive(Clone, Copy, Debug)]
struct Lead {
    pos: u32,
    run: usize,
}

impl<'a> Builder<'a> {
    fn new(
        img: &'a Image,
        consts: &'a [Value],
        shapes: &'a [Shape],
        seen: &'a mut Vec<bool>,
    ) -> Builder<'a> {
        Builder {
            img,
            consts,
            shapes,
            fused: false,
            charged: 0,
            code: Vec::new(),
            vars: Vec::new(),
            lists: Vec::new(),
            params: Vec::new(),
            literals: Vec::new(),
            region_consts: Vec::new(),
            undefined: None,
            fixed: 0,
            low_temp: MAX_REGS,
            temp: MAX_REGS,
            inner_counters: Vec::new(),
            path: Vec::new(),
            paths: vec![Vec::new()],
            seen,
            seen_list: Vec::new(),
            runs: vec![Run { pos: 0, blocks: 0, into: None }],
            run: 0,
            fall_runs: Vec::new(),
            jump_runs: Vec::new(),
        }
    }

    /// Forget the statements this region marked.
    fn unsee(&mut self) {
        for &s in &self.seen_list {
            self.seen[s as usize] = false;
        }
    }

    fn region(&mut self, id: StmtId) -> Res<Region> {
        let counter = self.loop_stmt(id, true)?;
        self.emit(Op::Done)?;
        let overlap = |slots: &mut dyn Iterator<Item = Slot>| {
            let (mut local, mut global) = (Vec::new(), Vec::new());
            for s in slots {
                match s {
                    Slot::Local(k) => local.push(k),
                    Slot::Global(k) => global.push(k),
                }
            }
            local.iter().any(|k| global.contains(k))
        };
        let local_global_overlap =
            overlap(&mut self.vars.iter().map(|v| v.0)) || overlap(&mut self.lists.iter().copied());
        let mut code = super::exec::lower(&self.code);
        let entry_blocks = self.block_counts(&mut code);
        Ok(Region {
            code,
            entry_blocks,
            ops: core::mem::take(&mut self.code),
            vars: core::mem::take(&mut self.vars),
            lists: core::mem::take(&mut self.lists),
            params: core::mem::take(&mut self.params),
            consts: core::mem::take(&mut self.region_consts),
            counter,
            inner_counters: core::mem::take(&mut self.inner_counters),
            paths: core::mem::take(&mut self.paths),
            local_global_overlap,
            charges: self.charged > 0,
            fixed: self.fixed,
            low_temp: self.low_temp,
        })
    }

    fn emit(&mut self, op: Op) -> Res<u32> {
        if self.code.len() >= MAX_OPS {
            return Err(Reject);
        }
        if matches!(
            op,
            Op::Join { .. }
                | Op::Letter { .. }
                | Op::Length { .. }
                | Op::Contains { .. }
                | Op::ItemNum { .. }
                | Op::ListHas { .. }
                | Op::Contents { .. }
                | Op::ListAdd { .. }
                | Op::ListDelete { .. }
                | Op::ListClear { .. }
                | Op::ListInsert { .. }
                | Op::ListReplace { .. }
        ) {
            self.charged += 1;
        }
        let control = matches!(
            op,
            Op::Jump { .. }
                | Op::JumpIf { .. }
                | Op::JumpIfNot { .. }
                | Op::JumpCmp { .. }
                | Op::JumpCmpK { .. }
                | Op::Repeat { .. }
                | Op::ForEach { .. }
                | Op::LoopEnd { .. }
                | Op::RepeatEnd { .. }
                | Op::HaltCheck { .. }
                | Op::Done
        );
        self.code.push(op);
        let at = (self.code.len() - 1) as u32;
        if control {
            self.runs.push(Run { pos: self.here(), blocks: 0, into: None });
            self.run = self.runs.len() - 1;
            self.fall_runs.push((at, self.run));
        }
        Ok(at)
    }

    fn here(&self) -> u32 {
        self.code.len() as u32
    }

    /// The current position as a jump target: a new straight-line run starts there, which
    /// the one before flows into (unless that one starts here and holds no statement yet:
    /// two targets at one position, such as a `forever`'s head and the head of a loop first
    /// in its body, are different runs once a statement lies between them).
    fn leader(&mut self) -> Lead {
        let pos = self.here();
        let cur = self.runs[self.run];
        if cur.pos == pos && cur.blocks == 0 {
            return Lead { pos, run: self.run };
        }
        self.runs.push(Run { pos, blocks: 0, into: None });
        let run = self.runs.len() - 1;
        self.runs[self.run].into = Some(run);
        self.run = run;
        Lead { pos, run }
    }

    /// One statement starts in the current run (one block operation when the run is run).
    fn count_block(&mut self) {
        let r = &mut self.runs[self.run];
        r.blocks = r.blocks.saturating_add(1);
    }

    /// Point the jump at `at` to `to` and remember the run it enters.
    fn target(&mut self, at: u32, to: Lead) {
        self.patch(at, to.pos);
        self.jump_runs.push((at, to.run));
    }

    /// Block operations ([`Vm::block_ops`](crate::scratch::vm::Vm::block_ops)) in register
    /// code: a straight-line run of code has no exit but its last (control) operation, so
    /// every statement starting in it runs when the run is entered. The statements of the
    /// run from each position on (through the runs it flows into) are added by the control
    /// operation that enters it: a jump taken adds its target's (`Ins::nt`), one that goes
    /// on adds the next position's (`Ins::nf`); a `repeat`'s end (`Op::RepeatEnd`) adds its
    /// own loop block as well, the head it skips. Returns the count of the run at position
    /// 0, which the region adds when it is entered.
    fn block_counts(&self, code: &mut [super::exec::Ins]) -> u32 {
        // A run flows only into runs made after it: total them from the last.
        let mut total: Vec<u32> = self.runs.iter().map(|r| r.blocks).collect();
        for i in (0..self.runs.len()).rev() {
            if let Some(into) = self.runs[i].into {
                let add = total.get(into).copied().unwrap_or(0);
                total[i] = total[i].saturating_add(add);
            }
        }
        let at = |r: Option<usize>| r.and_then(|r| total.get(r)).copied().unwrap_or(0);
        let find = |list: &[(u32, usize)], i: u32| {
            list.binary_search_by_key(&i, |p| p.0).ok().map(|k| list[k].1)
        };
        let mut jumps = self.jump_runs.clone();
        jumps.sort_unstable();
        for (i, (op, ins)) in self.code.iter().zip(code.iter_mut()).enumerate() {
            let i = i as u32;
            let (to, next) = (at(find(&jumps, i)), at(find(&self.fall_runs, i)));
            let (nt, nf) = match op {
                Op::Jump { .. } | Op::LoopEnd { .. } => (to, 0),
                Op::JumpIf { .. }
                | Op::JumpIfNot { .. }
                | Op::JumpCmp { .. }
                | Op::JumpCmpK { .. }
                | Op::Repeat { .. }
                | Op::ForEach { .. } => (to, next),
                Op::RepeatEnd { .. } => (to.saturating_add(1), next.saturating_add(1)),
                Op::HaltCheck { .. } => (0, next),
                _ => (0, 0),
            };
            ins.nt = nt;
            ins.nf = nf;
        }
        total.first().copied().unwrap_or(0)
    }

    /// Point the jump at `at` to `to`.
    fn patch(&mut self, at: u32, to: u32) {
        if let Some(
            Op::Jump { to: t }
            | Op::JumpIf { to: t, .. }
            | Op::JumpIfNot { to: t, .. }
            | Op::JumpCmp { to: t, .. }
            | Op::JumpCmpK { to: t, .. }
            | Op::Repeat { exit: t, .. }
            | Op::ForEach { exit: t, .. },
        ) = self.code.get_mut(at as usize)
        {
            *t = to;
        }
    }

    fn fixed_reg(&mut self) -> Res<Reg> {
        if self.fixed >= self.low_temp {
            return Err(Reject);
        }
        self.fixed += 1;
        Ok((self.fixed - 1) as Reg)
    }

    fn temp_reg(&mut self) -> Res<Reg> {
        if self.temp <= self.fixed {
            return Err(Reject);
        }
        self.temp -= 1;
        self.low_temp = self.low_temp.min(self.temp);
        Ok(self.temp as Reg)
    }

    fn var(&mut self, slot: Slot) -> Res<Reg> {
        if let Some(&(_, r)) = self.vars.iter().find(|v| v.0 == slot) {
            return Ok(r);
        }
        let r = self.fixed_reg()?;
        self.vars.push((slot, r));
        Ok(r)
    }

    fn list(&mut self, slot: Slot) -> Res<Reg> {
        if let Some(i) = self.lists.iter().position(|&l| l == slot) {
            return Ok(i as Reg);
        }
        if self.lists.len() >= MAX_REGS {
            return Err(Reject);
        }
        self.lists.push(slot);
        Ok((self.lists.len() - 1) as Reg)
    }

    fn param(&mut self, index: u32) -> Res<Reg> {
        if let Some(&(_, r)) = self.params.iter().find(|p| p.0 == index) {
            return Ok(r);
        }
        let r = self.fixed_reg()?;
        self.params.push((index, r));
        Ok(r)
    }

    fn literal(&mut self, k: u32) -> Res<Reg> {
        if let Some(&(_, r)) = self.literals.iter().find(|c| c.0 == k) {
            return Ok(r);
        }
        let v = self.consts.get(k as usize).cloned().unwrap_or_default();
        let r = self.fixed_reg()?;
        self.literals.push((k, r));
        self.region_consts.push((r, literal(&v), v));
        Ok(r)
    }

    fn undefined(&mut self) -> Res<Reg> {
        if let Some(r) = self.undefined {
            return Ok(r);
        }
        let r = self.fixed_reg()?;
        self.undefined = Some(r);
        self.region_consts.push((r, literal(&Value::Undefined), Value::Undefined));
        Ok(r)
    }

    /// The inputs of statement or reporter `(start, n)`.
    fn inputs(&self, start: u32, n: u16) -> &'a [ExprId] {
        let img: &'a Image = self.img;
        img.args.get(start as usize..start as usize + n as usize).unwrap_or(&[])
    }

    /// The register holding input `k` (undefined when absent, as the VM reads it).
    fn input(&mut self, args: &[ExprId], k: usize) -> Res<Reg> {
        match args.get(k) {
            Some(&e) => self.operand(e),
            None => self.undefined(),
        }
    }

    /// The register holding reporter `e`'s value: its own register for variables,
    /// parameters and literals, else a temporary it is computed into.
    fn operand(&mut self, e: ExprId) -> Res<Reg> {
        match self.img.exprs.get(e as usize) {
            Some(Expr::Const(k)) => self.literal(*k),
            Some(Expr::Var(slot)) => self.var(*slot),
            Some(Expr::Param(_, i)) => self.param(*i),
            Some(Expr::Op(Rop::Nothing, ..)) => self.undefined(),
            Some(Expr::Op(..)) => {
                let t = self.temp_reg()?;
                self.compute(e, t)?;
                // The inputs' temporaries are consumed: free them again.
                self.temp = usize::from(t);
                Ok(t)
            }
            _ => Err(Reject),
        }
    }

    /// Evaluate reporter `e` into register `d`.
    fn into(&mut self, e: ExprId, d: Reg) -> Res<()> {
        match self.img.exprs.get(e as usize) {
            Some(Expr::Op(op, ..)) if *op != Rop::Nothing => self.compute(e, d),
            _ => {
                let a = self.operand(e)?;
                if a != d {
                    self.emit(Op::Move { d, a })?;
                }
                Ok(())
            }
        }
    }

    /// Compute the operation reporter `e` into `d`.
    fn compute(&mut self, e: ExprId, d: Reg) -> Res<()> {
        let Some(Expr::Op(op, start, n)) = self.img.exprs.get(e as usize) else {
            return Err(Reject);
        };
        let args = self.inputs(*start, *n);
        let op = match op {
            Rop::Add | Rop::Sub | Rop::Mul | Rop::Div | Rop::Mod => {
                let a = self.input(args, 0)?;
                if *op == Rop::Mod {
                    if let Some(k) = args.get(1).and_then(|&e| self.whole_literal(e)) {
                        let m = super::exec::fastmod(k);
                        return self.emit(Op::ModK { d, a, k, m }).map(drop);
                    }
                }
                if let Some(k) = self.literal_number(args.get(1).copied()) {
                    let op = match op {
                        Rop::Add => Some(ArithOp::Add),
                        Rop::Sub => Some(ArithOp::Sub),
                        Rop::Mul => Some(ArithOp::Mul),
                        Rop::Div => Some(ArithOp::Div),
                        _ => None,
                    };
                    if let Some(op) = op {
                        return self.emit(Op::ArithK { d, a, k, op }).map(drop);
                    }
                }
                let b = self.input(args, 1)?;
                match op {
                    Rop::Add => Op::Add { d, a, b },
                    Rop::Sub => Op::Sub { d, a, b },
                    Rop::Mul => Op::Mul { d, a, b },
                    Rop::Div => Op::Div { d, a, b },
                    _ => Op::Mod { d, a, b },
                }
            }
            Rop::Gt
            | Rop::Lt
            | Rop::Eq
            | Rop::And
            | Rop::Or
            | Rop::Join
            | Rop::LetterOf
            | Rop::Contains
            | Rop::Random => {
                let a = self.input(args, 0)?;
                let b = self.input(args, 1)?;
                match op {
                    Rop::Gt => Op::Gt { d, a, b },
                    Rop::Lt => Op::Lt { d, a, b },
                    Rop::Eq => Op::Eq { d, a, b },
                    Rop::And => Op::And { d, a, b },
                    Rop::Or => Op::Or { d, a, b },
                    Rop::Join => Op::Join { d, a, b },
                    Rop::LetterOf => Op::Letter { d, a, b },
                    Rop::Contains => Op::Contains { d, a, b },
                    _ => Op::Random { d, a, b },
                }
            }
            Rop::Not => Op::Not { d, a: self.input(args, 0)? },
            Rop::Length => Op::Length { d, a: self.input(args, 0)? },
            Rop::ListContents(s) => Op::Contents { d, l: self.list(*s)? },
            Rop::Round => Op::Round { d, a: self.input(args, 0)? },
            Rop::MathOp(f) => Op::Math { d, a: self.input(args, 0)?, f: *f },
            Rop::LengthOfList(s) => Op::ListLen { d, l: self.list(*s)? },
            Rop::ItemOfList(s) => {
                let l = self.list(*s)?;
                Op::Item { d, l, a: self.input(args, 0)? }
            }
            Rop::ItemNumOfList(s) => {
                let l = self.list(*s)?;
                Op::ItemNum { d, l, a: self.input(args, 0)? }
            }
            Rop::ListContains(s) => {
                let l = self.list(*s)?;
                Op::ListHas { d, l, a: self.input(args, 0)? }
            }
            Rop::Counter => Op::Counter { d },
            Rop::Unimplemented => {
                for k in 0..args.len() {
                    self.input(args, k)?;
                }
                Op::Move { d, a: self.undefined()? }
            }
            Rop::Nothing => Op::Move { d, a: self.undefined()? },
            _ => return Err(Reject),
        };
        self.emit(op).map(drop)
    }

    /// The number a literal `e` is compared as, when `Cast.compare` compares it with any
    /// plain number that is not NaN as that number: a number literal (not NaN) or a number
    /// spelling ([`CANON`]).
    fn compares_as_number(&self, e: ExprId) -> Option<f64> {
        let Some(Expr::Const(k)) = self.img.exprs.get(e as usize) else { return None };
        let cell = literal(self.consts.get(*k as usize)?);
        (matches!(cell.tag, NUM | CANON) && !cell.n.is_nan()).then_some(cell.n)
    }

    /// Whether evaluating reporter `e` again has no effect (no random draw) and gives the
    /// same value while nothing is written: then a `repeat` need not evaluate its count once
    /// counting.
    fn pure(&self, e: ExprId, depth: u32) -> bool {
        if depth > 64 {
            return false;
        }
        match self.img.exprs.get(e as usize) {
            Some(Expr::Const(_) | Expr::Var(_) | Expr::Param(..)) => true,
            Some(Expr::Op(op, start, n)) => {
                let ok = matches!(
                    op,
                    Rop::Add
                        | Rop::Sub
                        | Rop::Mul
                        | Rop::Div
                        | Rop::Mod
                        | Rop::Round
                        | Rop::MathOp(_)
                        | Rop::Lt
                        | Rop::Gt
                        | Rop::Eq
                        | Rop::And
                        | Rop::Or
                        | Rop::Not
                        | Rop::LengthOfList(_)
                );
                ok && self.inputs(*start, *n).iter().all(|&a| self.pure(a, depth + 1))
            }
            _ => false,
        }
    }

    /// `Cast.toNumber` of input `e` when it is a literal.
    fn literal_number(&self, e: Option<ExprId>) -> Option<f64> {
        let Some(Expr::Const(k)) = self.img.exprs.get(e? as usize) else { return None };
        Some(crate::scratch::value::cast::to_number(self.consts.get(*k as usize)?))
    }

    /// Emit a jump (its target patched later) taken when condition input 0 of `args`,
    /// cast to a boolean, is `when`: a comparison (or its `not`) jumps on the comparison
    /// itself. Returns the jump's index.
    fn jump_on(&mut self, args: &[ExprId], when: bool) -> Res<u32> {
        let img: &'a Image = self.img;
        match args.first().and_then(|&e| img.exprs.get(e as usize)) {
            Some(Expr::Op(Rop::Not, start, n)) => {
                let inner = self.inputs(*start, *n);
                self.jump_on(inner, !when)
            }
            Some(Expr::Op(op @ (Rop::Lt | Rop::Gt | Rop::Eq), start, n)) => {
                let inner = self.inputs(*start, *n);
                let a = self.input(inner, 0)?;
                let cmp = match op {
                    Rop::Lt => Cmp::Lt,
                    Rop::Gt => Cmp::Gt,
                    _ => Cmp::Eq,
                };
                if let Some(k) = inner.get(1).and_then(|&e| self.compares_as_number(e)) {
                    return self.emit(Op::JumpCmpK { a, k, cmp, when, to: 0 });
                }
                let b = self.input(inner, 1)?;
                self.emit(Op::JumpCmp { a, b, cmp, when, to: 0 })
            }
            _ => {
                let a = self.input(args, 0)?;
                self.emit(if when { Op::JumpIf { a, to: 0 } } else { Op::JumpIfNot { a, to: 0 } })
            }
        }
    }

    /// A literal `e` whose number is whole with `0 < |k| < 2^31` (the divisor of
    /// [`Op::ModK`]).
    fn whole_literal(&self, e: ExprId) -> Option<i32> {
        let Some(Expr::Const(k)) = self.img.exprs.get(e as usize) else { return None };
        let n = crate::scratch::value::cast::to_number(self.consts.get(*k as usize)?);
        let whole = libm::trunc(n) == n && n != 0.0 && libm::fabs(n) < 2_147_483_648.0;
        whole.then_some(n as i32)
    }

    /// Compile the chain of statements from `s`.
    fn chain(&mut self, mut s: Option<StmtId>) -> Res<()> {
        while let Some(id) = s {
            self.stmt(id)?;
            s = self.img.stmts.get(id as usize).ok_or(Reject)?.next;
        }
        Ok(())
    }

    /// Mark `id` compiled; a statement reached twice is a cycle of links.
    fn see(&mut self, id: StmtId) -> Res<()> {
        match self.seen.get_mut(id as usize) {
            Some(x) if !*x => {
                *x = true;
                self.seen_list.push(id);
                Ok(())
            }
            _ => Err(Reject),
        }
    }

    fn stmt(&mut self, id: StmtId) -> Res<()> {
        let img: &'a Image = self.img;
        let st = img.stmts.get(id as usize).ok_or(Reject)?;
        if img.stmt_hoists.binary_search_by_key(&id, |p| p.0).is_ok() {
            return Err(Reject);
        }
        let args = self.inputs(st.args, st.nargs);
        let mark = self.temp;
        if !matches!(
            st.op,
            Sop::Repeat | Sop::Forever | Sop::While | Sop::RepeatUntil | Sop::ForEach(_)
        ) {
            // A loop counts itself at its head.
            self.count_block();
        }
        // The interpreter steps this statement on its own (and looks for a halt after it),
        // or runs it inside a fused one.
        let outer = !self.fused;
        let charged = self.charged;
        let fused_if = outer && self.shapes.get(id as usize) == Some(&Shape::Branch);
        self.fused |= fused_if;
        match &st.op {
            Sop::Hat
            | Sop::HatGreater(_)
            | Sop::HatTouching
            | Sop::HatMakeyKey
            | Sop::HatMakeyCode
            | Sop::HatVideoMotion => self.see(id)?,
            Sop::Unimplemented | Sop::Nop => {
                self.see(id)?;
                for k in 0..args.len() {
                    self.input(args, k)?;
                }
            }
            Sop::SetVar(slot) => {
                self.see(id)?;
                let v = self.var(*slot)?;
                match args.first() {
                    Some(&e) => self.into(e, v)?,
                    None => {
                        let u = self.undefined()?;
                        self.emit(Op::Move { d: v, a: u })?;
                    }
                }
            }
            Sop::ChangeVar(slot) => {
                self.see(id)?;
                let d = self.var(*slot)?;
                match self.literal_number(args.first().copied()) {
                    Some(k) => self.emit(Op::ChangeK { d, k })?,
                    None => {
                        let a = self.input(args, 0)?;
                        self.emit(Op::Change { d, a })?
                    }
                };
            }
            Sop::AddToList(s) => {
                self.see(id)?;
                let l = self.list(*s)?;
                let a = self.input(args, 0)?;
                self.emit(Op::ListAdd { l, a })?;
            }
            Sop::DeleteOfList(s) => {
                self.see(id)?;
                let l = self.list(*s)?;
                let a = self.input(args, 0)?;
                self.emit(Op::ListDelete { l, a })?;
            }
            Sop::DeleteAllOfList(s) => {
                self.see(id)?;
                let l = self.list(*s)?;
                self.emit(Op::ListClear { l })?;
            }
            Sop::InsertAtList(s) => {
                self.see(id)?;
                let l = self.list(*s)?;
                let item = self.input(args, 0)?;
                let index = self.input(args, 1)?;
                self.emit(Op::ListInsert { l, item, index })?;
            }
            Sop::ReplaceItemOfList(s) => {
                self.see(id)?;
                let l = self.list(*s)?;
                let index = self.input(args, 0)?;
                let item = self.input(args, 1)?;
                self.emit(Op::ListReplace { l, index, item })?;
            }
            Sop::IncrCounter => {
                self.see(id)?;
                self.emit(Op::IncrCounter)?;
            }
            Sop::ClearCounter => {
                self.see(id)?;
                self.emit(Op::ClearCounter)?;
            }
            Sop::If | Sop::IfElse => {
                self.see(id)?;
                if self.path.len() >= MAX_NESTING {
                    return Err(Reject);
                }
                let skip = self.jump_on(args, false)?;
                self.temp = mark;
                self.path.push(Step { stmt: id, is_loop: false, counter: None });
                // A general `if` pushes its branch and the interpreter looks for a halt
                // before the branch's first statement, or after the `if` when not taken.
                let cond_charged = !self.fused && self.charged > charged;
                if cond_charged {
                    self.halt_check()?;
                }
                self.chain(st.branch[0])?;
                if st.op == Sop::IfElse {
                    let over = self.emit(Op::Jump { to: 0 })?;
                    let other = self.leader();
                    self.target(skip, other);
                    if cond_charged {
                        self.halt_check()?;
                    }
                    self.chain(st.branch[1])?;
                    let end = self.leader();
                    self.target(over, end);
                } else {
                    let end = self.leader();
                    self.target(skip, end);
                    if cond_charged {
                        self.halt_check()?;
                    }
                }
                self.path.pop();
            }
            Sop::Repeat | Sop::Forever | Sop::While | Sop::RepeatUntil | Sop::ForEach(_) => {
                self.loop_stmt(id, false)?;
                self.temp = mark;
                return Ok(());
            }
            _ => return Err(Reject),
        }
        self.fused = !outer;
        let general_if = matches!(st.op, Sop::If | Sop::IfElse) && !fused_if;
        if outer && !general_if && self.charged > charged {
            self.halt_check()?;
        }
        self.temp = mark;
        Ok(())
    }

    /// Emit an [`Op::HaltCheck`] for the frames of the current nesting.
    fn halt_check(&mut self) -> Res<()> {
        let path = u16::try_from(self.paths.len()).map_err(|_| Reject)?;
        self.paths.push(self.path.clone());
        self.emit(Op::HaltCheck { path }).map(drop)
    }

    /// Compile loop statement `id` (the region's own loop when `root`); returns its counter
    /// register.
    fn loop_stmt(&mut self, id: StmtId, root: bool) -> Res<Option<Reg>> {
        let img: &'a Image = self.img;
        let st = img.stmts.get(id as usize).ok_or(Reject)?;
        if img.stmt_hoists.binary_search_by_key(&id, |p| p.0).is_ok() {
            return Err(Reject);
        }
        self.see(id)?;
        if self.path.len() >= MAX_NESTING {
            return Err(Reject);
        }
        let args = self.inputs(st.args, st.nargs);
        let mark = self.temp;
        let counter = match st.op {
            Sop::Repeat | Sop::ForEach(_) => Some(self.fixed_reg()?),
            _ => None,
        };
        if let (false, Some(c)) = (root, counter) {
            self.inner_counters.push(c);
        }
        // A fused loop (the interpreter's `run_loop`) looks for a halt at the end of each
        // iteration's body and once it is over; a general one after evaluating its head.
        let fused_loop = self.shapes.get(id as usize) == Some(&Shape::Loop);
        let charged = self.charged;
        let head = self.leader();
        self.count_block();
        let exit = match st.op {
            Sop::Repeat => {
                let n = self.input(args, 0)?;
                Some(self.emit(Op::Repeat { c: counter.unwrap_or(0), n, exit: 0 })?)
            }
            Sop::ForEach(slot) => {
                let v = self.var(slot)?;
                let a = self.input(args, 0)?;
                Some(self.emit(Op::ForEach { c: counter.unwrap_or(0), v, a, exit: 0 })?)
            }
            Sop::While => Some(self.jump_on(args, false)?),
            Sop::RepeatUntil => Some(self.jump_on(args, true)?),
            _ => None,
        };
        self.temp = mark;
        if !root {
            self.path.push(Step { stmt: id, is_loop: true, counter });
        }
        let head_charged = self.charged > charged;
        if head_charged && !fused_loop {
            self.halt_check()?;
        }
        let body = self.leader();
        self.fused = fused_loop;
        self.chain(st.branch[0])?;
        self.fused = false;
        if fused_loop && self.charged > charged {
            self.halt_check()?;
        }
        let path = if root {
            0
        } else {
            let p = u16::try_from(self.paths.len()).map_err(|_| Reject)?;
            self.paths.push(self.path.clone());
            self.path.pop();
            p
        };
        // A `repeat` whose count does nothing when evaluated again counts down at its end.
        let pure = args.first().is_none_or(|&e| self.pure(e, 0));
        match (st.op.clone(), counter) {
            (Sop::Repeat, Some(c)) if pure => {
                let at = self.emit(Op::RepeatEnd { c, body: body.pos, path })?;
                self.jump_runs.push((at, body.run));
            }
            _ => {
                let at = self.emit(Op::LoopEnd { head: head.pos, path })?;
                self.jump_runs.push((at, head.run));
            }
        };
        let end = self.leader();
        if let Some(at) = exit {
            self.target(at, end);
        }
        if head_charged {
            self.halt_check()?;
        }
        Ok(counter)
    }
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn canonical_spellings() {
        assert_eq!(canonical("0"), Some(0.0));
        assert_eq!(canonical("12"), Some(12.0));
        assert_eq!(canonical("-3.5"), Some(-3.5));
        assert_eq!(canonical("0.000001"), Some(0.000001));
        for s in [
            "", " 1", "1 ", "01", "1.0", "-0", "+1", "1e3", "1e-7", "1e+21", "NaN", "Infinity",
            "0x10", "abc", ".5",
        ] {
            assert_eq!(canonical(s), None, "{s:?}");
        }
    }
}
