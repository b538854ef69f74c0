//! The tier's interpreter: runs a region's [`Op`]s, each with its handler ([`Ins`]), over the
//! register file ([`Regs`]) until the region's loop is over or a loop end yields. Every
//! operation computes what the VM's block implementations compute (it calls the same
//! functions, or, for numbers, does the same floating-point operations in the same order);
//! only where values live differs.

use alloc::vec::Vec;

use super::code::{ArithOp, Cmp, Op, PathId, Reg, BOOL, BOXED, CANON, MAX_REGS, NUM};
use crate::scratch::blocks::{data, operators as o};
use crate::scratch::image::Slot;
use crate::scratch::value::cast::{self, to_list_index, to_number};
use crate::scratch::value::Value;
use crate::scratch::vm::budget::{Meter, Metered};
use crate::scratch::vm::io::js_round;
use crate::scratch::vm::random::Mulberry32;

/// A register's number and tag (see `code`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Cell {
    pub n: f64,
    pub tag: u8,
}

/// The register file and the lists of the running region (one per VM, reused).
#[derive(Debug)]
pub(crate) struct Regs {
    pub r: [Cell; MAX_REGS],
    pub b: [Value; MAX_REGS],
    pub lists: Vec<Vec<Value>>,
}

impl Regs {
    /// An empty register file with room for `lists` lists.
    pub(crate) fn new(lists: usize) -> Regs {
        Regs {
            r: [Cell { n: 0.0, tag: NUM }; MAX_REGS],
            b: [const { Value::Undefined }; MAX_REGS],
            lists: Vec::with_capacity(lists),
        }
    }

    /// Store a value in register `d`.
    #[inline]
    pub(crate) fn put(&mut self, d: Reg, v: Value) {
        let d = usize::from(d);
        match v {
            Value::Num(n) => self.r[d] = Cell { n, tag: NUM },
            Value::Bool(x) => self.r[d] = Cell { n: f64::from(u8::from(x)), tag: BOOL },
            other => {
                self.r[d].tag = BOXED;
                self.b[d] = other;
            }
        }
    }

    /// The value in register `a`, moved out (the register keeps its number and tag only).
    pub(crate) fn take(&mut self, a: Reg) -> Value {
        let c = self.r[usize::from(a)];
        match c.tag {
            NUM => Value::Num(c.n),
            BOOL => Value::Bool(c.n != 0.0),
            _ => core::mem::take(&mut self.b[usize::from(a)]),
        }
    }

    /// Drop the boxed values of registers `range` (strings a finished region held).
    pub(crate) fn clear(&mut self, range: core::ops::Range<usize>) {
        for v in self.b.get_mut(range).into_iter().flatten() {
            if !matches!(v, Value::Undefined) {
                *v = Value::Undefined;
            }
        }
    }
}

/// What the region's code needs from the VM while it runs.
#[derive(Debug)]
pub(crate) struct Env<'a> {
    pub rng: &'a mut Mulberry32,
    pub counter: &'a mut f64,
    /// The run budgets, charged by the string and list operations.
    pub meter: Meter<'a>,
    /// `Config::max_list_len`.
    pub max_list_len: usize,
    /// The region's variables and their registers (their strings count in memory scans).
    pub vars: &'a [(Slot, Reg)],
    /// Warp mode: loop ends count warp-timer checks.
    pub warp: bool,
    /// Warp-timer checks made by this thread in this step, and the budget.
    pub checks: u32,
    pub warp_limit: u32,
    /// Set when the budget ran out (the VM's `warp_expired`).
    pub warp_expired: bool,
    /// The only thread of a pass (see `Vm::run_loop`): a non-warp loop end runs the next
    /// pass in place while the frame's budget allows.
    pub solo: bool,
    pub ticks: &'a mut u32,
    pub ticks_per_frame: u32,
    pub turbo: bool,
    pub redraw: bool,
    /// How the code stopped (set by the operation that stops it).
    pub exit: Exit,
    /// The region's operations, for [`general`].
    pub ops: &'a [Op],
    /// Block operations run so far (`Vm::block_ops`).
    pub block_ops: u64,
}

/// How the region's code stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The region's loop is over.
    Done,
    /// A loop end yielded; its frames are rebuilt from this path.
    Yield(PathId),
}

/// A value seen through a register: built in place for numbers and booleans, borrowed else.
enum Seen<'a> {
    Own(Value),
    Ref(&'a Value),
}

impl core::ops::Deref for Seen<'_> {
    type Target = Value;
    fn deref(&self) -> &Value {
        match self {
            Seen::Own(v) => v,
            Seen::Ref(v) => v,
        }
    }
}

#[inline(always)]
fn nz(n: f64) -> f64 {
    if n.is_nan() {
        0.0
    } else {
        n
    }
}

/// `Cast.toNumber` of register `a`.
#[inline(always)]
fn num(r: &[Cell; MAX_REGS], b: &[Value; MAX_REGS], a: Reg) -> f64 {
    let c = r[usize::from(a)];
    if c.tag != BOXED {
        nz(c.n)
    } else {
        boxed_num(&b[usize::from(a)])
    }
}

/// `Cast.toNumber` of a string or `undefined`.
#[cold]
#[inline(never)]
fn boxed_num(v: &Value) -> f64 {
    to_number(v)
}

/// JavaScript `Number()` of register `a` (NaN kept).
#[inline]
fn js_num(r: &[Cell; MAX_REGS], b: &[Value; MAX_REGS], a: Reg) -> f64 {
    let c = r[usize::from(a)];
    if c.tag != BOXED {
        c.n
    } else {
        cast::js_number(&b[usize::from(a)])
    }
}

/// `Cast.toBoolean` of register `a`.
#[inline(always)]
fn truthy(r: &[Cell; MAX_REGS], b: &[Value; MAX_REGS], a: Reg) -> bool {
    let c = r[usize::from(a)];
    if c.tag != BOXED {
        c.n != 0.0 && !c.n.is_nan()
    } else {
        cast::to_bool(&b[usize::from(a)])
    }
}

/// The value of register `a`.
#[inline]
fn seen<'a>(r: &[Cell; MAX_REGS], b: &'a [Value; MAX_REGS], a: Reg) -> Seen<'a> {
    let c = r[usize::from(a)];
    match c.tag {
        NUM => Seen::Own(Value::Num(c.n)),
        BOOL => Seen::Own(Value::Bool(c.n != 0.0)),
        _ => Seen::Ref(&b[usize::from(a)]),
    }
}

/// Floored `x mod k` for a literal `k` with `0 < |k| < 2^31`, `m` its [`fastmod`] factor,
/// `x` already cast: the value of [`o::floored_mod`].
pub(crate) fn mod_k(x: f64, k: i32, m: u64) -> f64 {
    match mod_k_whole(x, k, m) {
        Some(r) => r,
        None => o::floored_mod(x, f64::from(k)),
    }
}

/// [`mod_k`] for whole `|x| < 2^32`: the remainder of `|x|` by `|k|` from two
/// multiplications (Lemire's "fastmod", exact for 32-bit operands) instead of a division.
#[inline(always)]
fn mod_k_whole(x: f64, k: i32, m: u64) -> Option<f64> {
    let ax = libm::fabs(x);
    let a = ax as i64;
    if !(ax < 4_294_967_296.0 && a as f64 == ax) {
        return None;
    }
    let d = u64::from(k.unsigned_abs());
    let rem = ((u128::from(m.wrapping_mul(a as u64)) * u128::from(d)) >> 64) as i64;
    if rem == 0 {
        // `n % m` is a zero with the dividend's sign, and `0 / m < 0` never holds.
        return Some(if x.is_sign_negative() { -0.0 } else { 0.0 });
    }
    // The remainder has the dividend's sign; floored: add `k` when the signs differ.
    let r = if x < 0.0 { -rem } else { rem };
    Some(if (x < 0.0) != (k < 0) { (r + i64::from(k)) as f64 } else { r as f64 })
}

/// The factor of Lemire's `fastmod` for divisor `|k|` (`2^64 / |k|` rounded up).
pub(crate) fn fastmod(k: i32) -> u64 {
    (u64::MAX / u64::from(k.unsigned_abs().max(1))).wrapping_add(1)
}

/// [`Cmp`] as a constant generic parameter.
const LT: u8 = 0;
const GT: u8 = 1;
const EQ: u8 = 2;

fn cmp_code(c: Cmp) -> u8 {
    match c {
        Cmp::Lt => LT,
        Cmp::Gt => GT,
        Cmp::Eq => EQ,
    }
}

/// `Cast.compare` of two registers against `cmp` (any values).
fn compare_any(r: &[Cell; MAX_REGS], b: &[Value; MAX_REGS], a: Reg, c: Reg, cmp: u8) -> bool {
    sign_is(cast::compare(&seen(r, b, a), &seen(r, b, c)), cmp)
}

/// Whether the sign `s` of a `Cast.compare` means `cmp`.
fn sign_is(s: f64, cmp: u8) -> bool {
    match cmp {
        LT => s < 0.0,
        GT => s > 0.0,
        _ => s == 0.0,
    }
}

/// An operation's implementation: runs `ins` at `pc` and returns the next `pc` ([`STOP`]
/// when the region stops, with [`Env::exit`] set).
pub(crate) type Handler = fn(&mut Regs, &mut Env<'_>, &Ins, usize) -> usize;

/// An operation ready to run (direct threading): its handler and its operands, flat. Each
/// handler is a small function of its own, so the dispatch loop holds nothing but `pc`;
/// handlers of common operations do the common case (plain numbers) and leave everything
/// else to [`general`], which reads the operation itself from [`Env::ops`]. Which fields an
/// operation uses is in [`lower`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ins {
    pub h: Handler,
    pub d: Reg,
    pub a: Reg,
    pub b: Reg,
    /// A jump target.
    pub to: u32,
    /// A literal number's bits, a `fastmod` factor or a yield path.
    pub imm: u64,
    /// Of a control operation: the block operations it adds when it jumps (`nt`) and when
    /// it goes on to the next operation (`nf`) (see `build`'s `block_counts`).
    pub nt: u32,
    pub nf: u32,
}

/// The `pc` of "stop".
const STOP: usize = usize::MAX;

/// Jump to `ins.to`, adding the block operations of the run there.
#[inline(always)]
fn taken(env: &mut Env<'_>, ins: &Ins) -> usize {
    env.block_ops += u64::from(ins.nt);
    ins.to as usize
}

/// Go on to `pc + 1`, adding the block operations of the run there.
#[inline(always)]
fn onward(env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    env.block_ops += u64::from(ins.nf);
    pc + 1
}

/// Run `code` from `pc` until the region's loop is over or a loop end yields.
pub(crate) fn run(code: &[Ins], regs: &mut Regs, env: &mut Env<'_>, mut pc: usize) -> Exit {
    env.exit = Exit::Done;
    while let Some(ins) = code.get(pc) {
        pc = (ins.h)(regs, env, ins, pc);
    }
    env.exit
}

/// The code of `ops`: each operation's handler and operands.
pub(crate) fn lower(ops: &[Op]) -> Vec<Ins> {
    ops.iter().map(|&op| lower_one(op)).collect()
}

fn lower_one(op: Op) -> Ins {
    let ins = |h: Handler, d: Reg, a: Reg, b: Reg, to: u32, imm: u64| Ins {
        h,
        d,
        a,
        b,
        to,
        imm,
        nt: 0,
        nf: 0,
    };
    match op {
        Op::Move { d, a } => ins(h_move, d, a, 0, 0, 0),
        Op::Add { d, a, b } => ins(h_arith::<ADD>, d, a, b, 0, 0),
        Op::Sub { d, a, b } => ins(h_arith::<SUB>, d, a, b, 0, 0),
        Op::Mul { d, a, b } => ins(h_arith::<MUL>, d, a, b, 0, 0),
        Op::Div { d, a, b } => ins(h_arith::<DIV>, d, a, b, 0, 0),
        Op::Mod { d, a, b } => ins(h_arith::<MOD>, d, a, b, 0, 0),
        Op::ArithK { d, a, k, op } => {
            let h = match op {
                ArithOp::Add => h_arith_k::<ADD>,
                ArithOp::Sub => h_arith_k::<SUB>,
                ArithOp::Mul => h_arith_k::<MUL>,
                ArithOp::Div => h_arith_k::<DIV>,
            };
            ins(h, d, a, 0, 0, k.to_bits())
        }
        Op::ModK { d, a, k, m } => ins(h_mod_k, d, a, 0, k as u32, m),
        Op::Change { d, a } => ins(h_change, d, a, 0, 0, 0),
        Op::ChangeK { d, k } => ins(h_change_k, d, 0, 0, 0, k.to_bits()),
        Op::Lt { d, a, b } => ins(h_cmp::<LT>, d, a, b, 0, 0),
        Op::Gt { d, a, b } => ins(h_cmp::<GT>, d, a, b, 0, 0),
        Op::Eq { d, a, b } => ins(h_cmp::<EQ>, d, a, b, 0, 0),
        Op::Item { d, l, a } => ins(h_item, d, a, l, 0, 0),
        Op::ListReplace { l, index, item } => ins(h_replace, l, index, item, 0, 0),
        Op::HaltCheck { path } => ins(h_halt_check, 0, 0, 0, 0, u64::from(path)),
        Op::Jump { to } => ins(h_jump, 0, 0, 0, to, 0),
        Op::JumpIfNot { a, to } => ins(h_jump_if::<false>, 0, a, 0, to, 0),
        Op::JumpIf { a, to } => ins(h_jump_if::<true>, 0, a, 0, to, 0),
        Op::JumpCmp { a, b, cmp, when, to } => {
            let h = match (cmp_code(cmp), when) {
                (LT, false) => h_jump_cmp::<LT, false>,
                (LT, true) => h_jump_cmp::<LT, true>,
                (GT, false) => h_jump_cmp::<GT, false>,
                (GT, true) => h_jump_cmp::<GT, true>,
                (_, false) => h_jump_cmp::<EQ, false>,
                (_, true) => h_jump_cmp::<EQ, true>,
            };
            ins(h, 0, a, b, to, 0)
        }
        Op::JumpCmpK { a, k, cmp, when, to } => {
            let h = match (cmp_code(cmp), when) {
                (LT, false) => h_jump_cmp_k::<LT, false>,
                (LT, true) => h_jump_cmp_k::<LT, true>,
                (GT, false) => h_jump_cmp_k::<GT, false>,
                (GT, true) => h_jump_cmp_k::<GT, true>,
                (_, false) => h_jump_cmp_k::<EQ, false>,
                (_, true) => h_jump_cmp_k::<EQ, true>,
            };
            ins(h, 0, a, 0, to, k.to_bits())
        }
        Op::ListLen { d, l } => ins(h_list_len, d, l, 0, 0, 0),
        Op::Repeat { c, n, exit } => ins(h_repeat, c, n, 0, exit, 0),
        Op::RepeatEnd { c, body, path } => ins(h_repeat_end, c, 0, 0, body, u64::from(path)),
        Op::ForEach { c, v, a, exit } => ins(h_for_each, c, a, v, exit, 0),
        Op::LoopEnd { head, path } => ins(h_loop_end, 0, 0, 0, head, u64::from(path)),
        Op::Done => ins(h_done, 0, 0, 0, 0, 0),
        _ => ins(general, 0, 0, 0, 0, 0),
    }
}

const ADD: u8 = 0;
const SUB: u8 = 1;
const MUL: u8 = 2;
const DIV: u8 = 3;
const MOD: u8 = 4;

/// The number in register `a` when it holds a number, boolean or number spelling.
#[inline(always)]
fn plain(g: &Regs, a: Reg) -> Option<f64> {
    let c = g.r[usize::from(a)];
    (c.tag != BOXED).then_some(nz(c.n))
}

#[inline(always)]
fn set_num(g: &mut Regs, d: Reg, n: f64) {
    g.r[usize::from(d)] = Cell { n, tag: NUM };
}

fn h_move(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    let c = g.r[usize::from(ins.a)];
    if c.tag < CANON {
        g.r[usize::from(ins.d)] = c;
        return pc + 1;
    }
    general(g, env, ins, pc)
}

#[inline(always)]
fn arith<const OP: u8>(x: f64, y: f64) -> f64 {
    match OP {
        ADD => x + y,
        SUB => x - y,
        MUL => x * y,
        DIV => x / y,
        _ => o::floored_mod(x, y),
    }
}

fn h_arith<const OP: u8>(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if let (Some(x), Some(y)) = (plain(g, ins.a), plain(g, ins.b)) {
        set_num(g, ins.d, arith::<OP>(x, y));
        return pc + 1;
    }
    general(g, env, ins, pc)
}

fn h_arith_k<const OP: u8>(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if let Some(x) = plain(g, ins.a) {
        set_num(g, ins.d, arith::<OP>(x, f64::from_bits(ins.imm)));
        return pc + 1;
    }
    general(g, env, ins, pc)
}

fn h_mod_k(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if let Some(n) = plain(g, ins.a).and_then(|x| mod_k_whole(x, ins.to as i32, ins.imm)) {
        set_num(g, ins.d, n);
        return pc + 1;
    }
    general(g, env, ins, pc)
}

fn h_change(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if let (Some(x), Some(y)) = (plain(g, ins.d), plain(g, ins.a)) {
        set_num(g, ins.d, x + y);
        return pc + 1;
    }
    general(g, env, ins, pc)
}

fn h_change_k(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if let Some(x) = plain(g, ins.d) {
        set_num(g, ins.d, x + f64::from_bits(ins.imm));
        return pc + 1;
    }
    general(g, env, ins, pc)
}

/// `a cmp b` when both registers hold numbers, booleans or number spellings, none NaN:
/// then `Cast.compare` compares them as numbers.
#[inline(always)]
fn compare_plain<const C: u8>(g: &Regs, a: Reg, b: Reg) -> Option<bool> {
    let (x, y) = (g.r[usize::from(a)], g.r[usize::from(b)]);
    if x.tag != BOXED && y.tag != BOXED && !x.n.is_nan() && !y.n.is_nan() {
        return Some(match C {
            LT => x.n < y.n,
            GT => x.n > y.n,
            _ => x.n == y.n,
        });
    }
    None
}

fn h_cmp<const C: u8>(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if let Some(t) = compare_plain::<C>(g, ins.a, ins.b) {
        g.r[usize::from(ins.d)] = Cell { n: f64::from(u8::from(t)), tag: BOOL };
        return pc + 1;
    }
    general(g, env, ins, pc)
}

/// The 0-based index `Cast.toListIndex` gives register `a` for a list of `len` items, when
/// `a` holds a plain number (floor, then `1..=len`).
#[inline(always)]
fn plain_index(g: &Regs, a: Reg, len: usize) -> Option<usize> {
    // `1 <= floor(x) <= len` is `1 <= x < len + 1` (exact: lists hold far fewer than 2^53
    // items), and then `x as usize` truncates as `floor` does.
    let x = plain(g, a)?;
    (x >= 1.0 && x < len as f64 + 1.0).then(|| x as usize - 1)
}

/// `item a of list b` into `d`.
fn h_item(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if let Some(list) = g.lists.get(usize::from(ins.b)) {
        if let Some(i) = plain_index(g, ins.a, list.len()) {
            if let Value::Num(n) = list[i] {
                set_num(g, ins.d, n);
                return pc + 1;
            }
        }
    }
    general(g, env, ins, pc)
}

/// `replace item a of list d with b`: a number replacing a number at a valid index changes
/// no list bytes; it still accounts the item's growth towards the next memory scan.
fn h_replace(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    let c = g.r[usize::from(ins.b)];
    let len = g.lists.get(usize::from(ins.d)).map_or(0, Vec::len);
    if let (NUM, Some(i)) = (c.tag, plain_index(g, ins.a, len)) {
        if let Some(slot) = g.lists.get_mut(usize::from(ins.d)).and_then(|x| x.get_mut(i)) {
            if matches!(slot, Value::Num(_)) && env.meter.grow_quiet(ITEM_BYTES) {
                *slot = Value::Num(c.n);
                return pc + 1;
            }
        }
    }
    general(g, env, ins, pc)
}

/// Accounted bytes of an item that holds no string.
const ITEM_BYTES: usize = core::mem::size_of::<Value>();

/// After a statement the interpreter looks for a halt: stop when the run is halted.
fn h_halt_check(_: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if env.meter.halted() {
        env.warp_expired = true;
        env.exit = Exit::Yield(ins.imm as PathId);
        return STOP;
    }
    onward(env, ins, pc)
}

/// Bytes of the strings the region's variables hold (registers `vars`).
fn var_bytes(r: &[Cell; MAX_REGS], b: &[Value; MAX_REGS], vars: &[(Slot, Reg)]) -> usize {
    vars.iter()
        .map(|&(_, v)| match (r[usize::from(v)].tag, &b[usize::from(v)]) {
            (CANON | BOXED, Value::Str(s)) => s.len(),
            _ => 0,
        })
        .sum()
}

fn h_list_len(g: &mut Regs, _: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    let n = g.lists.get(usize::from(ins.a)).map_or(0, Vec::len) as f64;
    set_num(g, ins.d, n);
    pc + 1
}

/// `a cmp k` against a literal `k` (`imm`, a number that is not NaN) as
/// `Cast.compare` decides it, when `a` holds a plain number that is not NaN.
#[inline(always)]
fn compare_k<const C: u8>(g: &Regs, a: Reg, k: f64) -> Option<bool> {
    let x = g.r[usize::from(a)];
    if x.tag != BOXED && !x.n.is_nan() {
        return Some(match C {
            LT => x.n < k,
            GT => x.n > k,
            _ => x.n == k,
        });
    }
    None
}

fn h_jump_cmp_k<const C: u8, const WHEN: bool>(
    g: &mut Regs,
    env: &mut Env<'_>,
    ins: &Ins,
    pc: usize,
) -> usize {
    if let Some(t) = compare_k::<C>(g, ins.a, f64::from_bits(ins.imm)) {
        return if t == WHEN { taken(env, ins) } else { onward(env, ins, pc) };
    }
    general(g, env, ins, pc)
}

fn h_jump(_: &mut Regs, env: &mut Env<'_>, ins: &Ins, _: usize) -> usize {
    taken(env, ins)
}

fn h_jump_if<const WHEN: bool>(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    let c = g.r[usize::from(ins.a)];
    if c.tag != BOXED {
        let t = c.n != 0.0 && !c.n.is_nan();
        return if t == WHEN { taken(env, ins) } else { onward(env, ins, pc) };
    }
    general(g, env, ins, pc)
}

fn h_jump_cmp<const C: u8, const WHEN: bool>(
    g: &mut Regs,
    env: &mut Env<'_>,
    ins: &Ins,
    pc: usize,
) -> usize {
    if let Some(t) = compare_plain::<C>(g, ins.a, ins.b) {
        return if t == WHEN { taken(env, ins) } else { onward(env, ins, pc) };
    }
    general(g, env, ins, pc)
}

/// `repeat`'s block: counter `d` (NaN: not started), count `a`, exit `to`.
fn h_repeat(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    let c = usize::from(ins.d);
    let mut left = g.r[c].n;
    if left.is_nan() {
        left = js_round(num(&g.r, &g.b, ins.a));
    }
    left -= 1.0;
    if left >= 0.0 {
        g.r[c].n = left;
        onward(env, ins, pc)
    } else {
        g.r[c].n = f64::NAN;
        taken(env, ins)
    }
}

/// The end of a loop's body: one warp-timer check (warp mode), a pass in place (the only
/// thread of a pass, while the frame's budget allows), or a yield. True: go on.
#[inline(always)]
fn loop_end(env: &mut Env<'_>, path: u64) -> bool {
    if env.warp {
        env.checks = env.checks.saturating_add(1);
        if env.checks > env.warp_limit {
            env.warp_expired = true;
            env.exit = Exit::Yield(path as PathId);
            return false;
        }
    } else if env.solo && *env.ticks < env.ticks_per_frame && (env.turbo || !env.redraw) {
        *env.ticks += 1;
    } else {
        env.exit = Exit::Yield(path as PathId);
        return false;
    }
    true
}

/// The end of a `repeat` with a pure count: counter `d`, body `to`, yield path `imm`.
fn h_repeat_end(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    if !loop_end(env, ins.imm) {
        return STOP;
    }
    let c = usize::from(ins.d);
    let left = g.r[c].n - 1.0;
    if left >= 0.0 {
        g.r[c].n = left;
        return taken(env, ins);
    }
    g.r[c].n = f64::NAN;
    onward(env, ins, pc)
}

/// A loop's end: head `to`, yield path `imm`.
fn h_loop_end(_: &mut Regs, env: &mut Env<'_>, ins: &Ins, _: usize) -> usize {
    if loop_end(env, ins.imm) {
        taken(env, ins)
    } else {
        STOP
    }
}

/// `for each [b] in (a)`: index `d`, exit `to`.
fn h_for_each(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    let limit = js_num(&g.r, &g.b, ins.a);
    let c = usize::from(ins.d);
    let index = nz(g.r[c].n);
    if index < limit {
        g.r[c].n = index + 1.0;
        set_num(g, ins.b, index + 1.0);
        onward(env, ins, pc)
    } else {
        g.r[c].n = f64::NAN;
        taken(env, ins)
    }
}

fn h_done(_: &mut Regs, env: &mut Env<'_>, _: &Ins, _: usize) -> usize {
    env.exit = Exit::Done;
    STOP
}

/// Every operation but the loops, in full (any value in any register): the handler of the
/// rarer operations, and where the others go when their operands are not plain numbers.
#[inline(never)]
fn general(g: &mut Regs, env: &mut Env<'_>, ins: &Ins, pc: usize) -> usize {
    let Regs { r, b, lists } = g;
    let Some(&op) = env.ops.get(pc) else { return pc + 1 };
    match op {
        Op::Move { d, a } => {
            let c = r[usize::from(a)];
            if c.tag >= CANON {
                b[usize::from(d)] = b[usize::from(a)].clone();
            }
            r[usize::from(d)] = c;
        }
        Op::Add { d, a, b: c } => {
            let n = num(r, b, a) + num(r, b, c);
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Sub { d, a, b: c } => {
            let n = num(r, b, a) - num(r, b, c);
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Mul { d, a, b: c } => {
            let n = num(r, b, a) * num(r, b, c);
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Div { d, a, b: c } => {
            let n = num(r, b, a) / num(r, b, c);
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Mod { d, a, b: c } => {
            let n = o::floored_mod(num(r, b, a), num(r, b, c));
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::ModK { d, a, k, m } => {
            let n = mod_k(num(r, b, a), k, m);
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::ArithK { d, a, k, op } => {
            let x = num(r, b, a);
            let n = match op {
                ArithOp::Add => x + k,
                ArithOp::Sub => x - k,
                ArithOp::Mul => x * k,
                ArithOp::Div => x / k,
            };
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Change { d, a } => {
            let n = num(r, b, d) + num(r, b, a);
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::ChangeK { d, k } => {
            let n = num(r, b, d) + k;
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Round { d, a } => {
            let n = js_round(num(r, b, a));
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Math { d, a, f } => {
            let n = o::mathop_num(f, num(r, b, a));
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Lt { d, a, b: c } | Op::Gt { d, a, b: c } | Op::Eq { d, a, b: c } => {
            let cmp = match op {
                Op::Lt { .. } => LT,
                Op::Gt { .. } => GT,
                _ => EQ,
            };
            let t = compare_any(r, b, a, c, cmp);
            r[usize::from(d)] = Cell { n: f64::from(u8::from(t)), tag: BOOL };
        }
        Op::And { d, a, b: c } => {
            let t = truthy(r, b, a) && truthy(r, b, c);
            r[usize::from(d)] = Cell { n: f64::from(u8::from(t)), tag: BOOL };
        }
        Op::Or { d, a, b: c } => {
            let t = truthy(r, b, a) || truthy(r, b, c);
            r[usize::from(d)] = Cell { n: f64::from(u8::from(t)), tag: BOOL };
        }
        Op::Not { d, a } => {
            let t = !truthy(r, b, a);
            r[usize::from(d)] = Cell { n: f64::from(u8::from(t)), tag: BOOL };
        }
        Op::Random { d, a, b: c } => {
            let v = o::random(&seen(r, b, a), &seen(r, b, c), env.rng);
            put(r, b, d, v);
        }
        Op::Join { d, a, b: c } => {
            let vars = env.vars;
            let v = {
                let (x, y) = (seen(r, b, a), seen(r, b, c));
                let live = || var_bytes(r, b, vars);
                let fits =
                    o::join_fits(&x, &y, &mut Metered { meter: &mut env.meter, live: &live });
                if fits {
                    o::join_kept(&mut *env.meter.text, &x, &y)
                } else {
                    Value::empty()
                }
            };
            put(r, b, d, v);
        }
        Op::Letter { d, a, b: c } => {
            let vars = env.vars;
            let v = {
                let live = || var_bytes(r, b, vars);
                let mut m = Metered { meter: &mut env.meter, live: &live };
                o::letter_of_charged(&seen(r, b, a), &seen(r, b, c), &mut m)
            };
            put(r, b, d, v);
        }
        Op::Length { d, a } => {
            let vars = env.vars;
            let v = {
                let live = || var_bytes(r, b, vars);
                let mut m = Metered { meter: &mut env.meter, live: &live };
                o::length_charged(&seen(r, b, a), &mut m)
            };
            put(r, b, d, v);
        }
        Op::Contains { d, a, b: c } => {
            let vars = env.vars;
            let v = {
                let live = || var_bytes(r, b, vars);
                let mut m = Metered { meter: &mut env.meter, live: &live };
                o::contains_charged(&seen(r, b, a), &seen(r, b, c), &mut m)
            };
            put(r, b, d, v);
        }
        Op::ItemNum { d, l, a } | Op::ListHas { d, l, a } => {
            let vars = env.vars;
            let v = {
                let list = lists.get(usize::from(l)).map_or(&[][..], Vec::as_slice);
                let live = || var_bytes(r, b, vars);
                let mut m = Metered { meter: &mut env.meter, live: &live };
                let x = seen(r, b, a);
                match op {
                    Op::ItemNum { .. } => data::item_num(list, &x, &mut m),
                    _ => data::list_has(list, &x, &mut m),
                }
            };
            put(r, b, d, v);
        }
        Op::Contents { d, l } => {
            let vars = env.vars;
            let v = {
                let list = lists.get(usize::from(l)).map_or(&[][..], Vec::as_slice);
                let live = || var_bytes(r, b, vars);
                data::contents(list, &mut Metered { meter: &mut env.meter, live: &live })
            };
            put(r, b, d, v);
        }
        Op::ListAdd { l, a } => {
            let item = seen(r, b, a).clone();
            let live = || var_bytes(r, b, env.vars);
            let mut m = Metered { meter: &mut env.meter, live: &live };
            if let Some(list) = lists.get_mut(usize::from(l)) {
                data::add(list, item, env.max_list_len, &mut m);
            }
        }
        Op::ListDelete { l, a } => {
            if let Some(list) = lists.get_mut(usize::from(l)) {
                let rng = &mut *env.rng;
                let at = to_list_index(&seen(r, b, a), list.len(), true, || rng.next_f64());
                let live = || var_bytes(r, b, env.vars);
                data::delete(list, at, &mut Metered { meter: &mut env.meter, live: &live });
            }
        }
        Op::ListClear { l } => {
            if let Some(list) = lists.get_mut(usize::from(l)) {
                let live = || var_bytes(r, b, env.vars);
                data::clear(list, &mut Metered { meter: &mut env.meter, live: &live });
            }
        }
        Op::ListInsert { l, item, index } => {
            let item = seen(r, b, item).clone();
            if let Some(list) = lists.get_mut(usize::from(l)) {
                let rng = &mut *env.rng;
                let at =
                    to_list_index(&seen(r, b, index), list.len() + 1, false, || rng.next_f64());
                let live = || var_bytes(r, b, env.vars);
                let mut m = Metered { meter: &mut env.meter, live: &live };
                data::insert(list, item, at, env.max_list_len, &mut m);
            }
        }
        Op::ListReplace { l, index, item } => {
            let item = seen(r, b, item).clone();
            if let Some(list) = lists.get_mut(usize::from(l)) {
                let rng = &mut *env.rng;
                let at = to_list_index(&seen(r, b, index), list.len(), false, || rng.next_f64());
                let live = || var_bytes(r, b, env.vars);
                data::replace(list, item, at, &mut Metered { meter: &mut env.meter, live: &live });
            }
        }
        Op::Item { d, l, a } => {
            let list = lists.get(usize::from(l)).map_or(&[][..], Vec::as_slice);
            let v = data::item(list, &seen(r, b, a), env.rng);
            put(r, b, d, v);
        }
        Op::ListLen { d, l } => {
            let n = lists.get(usize::from(l)).map_or(0, Vec::len) as f64;
            r[usize::from(d)] = Cell { n, tag: NUM };
        }
        Op::Counter { d } => r[usize::from(d)] = Cell { n: *env.counter, tag: NUM },
        Op::IncrCounter => *env.counter += 1.0,
        Op::ClearCounter => *env.counter = 0.0,
        Op::JumpIf { a, .. } if truthy(r, b, a) => return taken(env, ins),
        Op::JumpIfNot { a, .. } if !truthy(r, b, a) => return taken(env, ins),
        Op::JumpCmp { a, b: c, cmp, when, .. }
            if compare_any(r, b, a, c, cmp_code(cmp)) == when =>
        {
            return taken(env, ins);
        }
        Op::JumpCmpK { a, k, cmp, when, .. }
            if sign_is(cast::compare(&seen(r, b, a), &Value::Num(k)), cmp_code(cmp)) == when =>
        {
            return taken(env, ins);
        }
        // Jumps not taken (the loops have handlers of their own); every other operation
        // adds nothing here.
        _ => {}
    }
    onward(env, ins, pc)
}

/// [`Regs::put`] on the register file's parts.
#[inline]
fn put(r: &mut [Cell; MAX_REGS], b: &mut [Value; MAX_REGS], d: Reg, v: Value) {
    let d = usize::from(d);
    match v {
        Value::Num(n) => r[d] = Cell { n, tag: NUM },
        Value::Bool(x) => r[d] = Cell { n: f64::from(u8::from(x)), tag: BOOL },
        other => {
            r[d].tag = BOXED;
            b[d] = other;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_k_equals_floored_mod() {
        let ks = [1, -1, 2, -2, 3, 7, -7, 10, 360, 1_000_000_000, -2_147_483_647, i32::MAX];
        let mut xs: Vec<f64> = alloc::vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            6.0,
            7.0,
            -7.0,
            8.0,
            1e15,
            -1e15,
            9007199254740991.0,
            -9007199254740991.0,
            9007199254740992.0,
            1e300,
            2.5,
            -2.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        for n in 0..2000 {
            xs.push(f64::from(n));
            xs.push(-f64::from(n));
            xs.push(4_294_967_295.0 - f64::from(n));
            xs.push(-4_294_967_296.0 + f64::from(n));
        }
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let mag = (s >> 11) as f64;
            let shift = (s % 54) as i32;
            let x = libm::trunc(mag / libm::exp2(f64::from(shift)));
            xs.push(if s & 1 == 0 { x } else { -x });
        }
        for &k in &ks {
            for &x in &xs {
                let (got, want) = (mod_k(x, k, fastmod(k)), o::floored_mod(x, f64::from(k)));
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{x} mod {k}: {got} vs {want}"
                );
            }
        }
    }
}
