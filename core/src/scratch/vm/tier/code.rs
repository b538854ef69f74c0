//! The tier's code: typed register operations ([`Op`]) and compiled loops ([`Region`]). What
//! the operations mean is in `exec`; how they are made from the program image, in `build`.
//!
//! Every register holds one Scratch value as a number, a tag and (for strings and
//! `undefined`) a boxed value: [`NUM`] `Num(n)`, [`BOOL`] `Bool(n != 0)`, [`CANON`] a string
//! that is the JavaScript spelling of the finite number `n` without an exponent (only literals
//! become one), [`BOXED`] any other string or `undefined`, kept in the boxed value. For the
//! first three, `n` with NaN read as 0 is exactly `Cast.toNumber` of the value, so arithmetic
//! reads registers without looking at the boxed value.

use alloc::vec::Vec;

use crate::scratch::image::ops::MathFn;
use crate::scratch::image::{Slot, StmtId};
use crate::scratch::value::Value;

use super::exec::{Cell, Ins};

/// A register index.
pub(crate) type Reg = u8;

/// Registers per region (indices are `u8`, so the register file needs no bounds checks).
pub(crate) const MAX_REGS: usize = 256;

/// Operations per region, beyond which a loop keeps the interpreter.
pub(crate) const MAX_OPS: usize = 16_384;

/// Nested loops and `if`s followed inside a region (deeper ones keep the interpreter).
pub(crate) const MAX_NESTING: usize = 32;

/// Tag: the value is `Num(n)` (NaN, infinities and -0 included).
pub(crate) const NUM: u8 = 0;
/// Tag: the value is `Bool(n != 0)`; `n` is 0 or 1.
pub(crate) const BOOL: u8 = 1;
/// Tag: the boxed value is a string spelling the finite number `n` as JavaScript prints it,
/// without an exponent: every cast of it equals the cast of `Num(n)`.
pub(crate) const CANON: u8 = 2;
/// Tag: the boxed value is any other string, or `undefined`; `n` is not used.
pub(crate) const BOXED: u8 = 3;

/// Where a loop end yields to when it does: an index into [`Region::paths`].
pub(crate) type PathId = u16;

/// One typed register operation. `d` is written after every operand is read, so an operand
/// may be the destination.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    /// `d = a` (the whole value).
    Move { d: Reg, a: Reg },
    /// `d = a + b` on numbers (`Cast.toNumber` of each).
    Add { d: Reg, a: Reg, b: Reg },
    /// `d = a - b`.
    Sub { d: Reg, a: Reg, b: Reg },
    /// `d = a * b`.
    Mul { d: Reg, a: Reg, b: Reg },
    /// `d = a / b`.
    Div { d: Reg, a: Reg, b: Reg },
    /// `d = a mod b` (floored, as scratch-vm).
    Mod { d: Reg, a: Reg, b: Reg },
    /// `d = a op k` for a literal `k` (already cast).
    ArithK { d: Reg, a: Reg, k: f64, op: ArithOp },
    /// `d = a mod k` for a literal `k` (`0 < |k| < 2^31`; `m`: its `fastmod` factor): the
    /// same number as [`Op::Mod`], with the remainder from multiplications.
    ModK { d: Reg, a: Reg, k: i32, m: u64 },
    /// `d = toNumber(d) + toNumber(a)` (`change [d] by (a)`).
    Change { d: Reg, a: Reg },
    /// `d = toNumber(d) + k` (`change [d] by (literal)`, the literal already cast).
    ChangeK { d: Reg, k: f64 },
    /// `d = round(a)` (JavaScript `Math.round`).
    Round { d: Reg, a: Reg },
    /// `d = mathop f (a)`.
    Math { d: Reg, a: Reg, f: MathFn },
    /// `d = a < b` (`Cast.compare`).
    Lt { d: Reg, a: Reg, b: Reg },
    /// `d = a > b`.
    Gt { d: Reg, a: Reg, b: Reg },
    /// `d = a = b`.
    Eq { d: Reg, a: Reg, b: Reg },
    /// `d = a and b` (both already evaluated).
    And { d: Reg, a: Reg, b: Reg },
    /// `d = a or b`.
    Or { d: Reg, a: Reg, b: Reg },
    /// `d = not a`.
    Not { d: Reg, a: Reg },
    /// `d = join a b` (under the string budget).
    Join { d: Reg, a: Reg, b: Reg },
    /// `d = letter a of b` (scanning `b` is work).
    Letter { d: Reg, a: Reg, b: Reg },
    /// `d = length of a` (scanning `a` is work).
    Length { d: Reg, a: Reg },
    /// `d = a contains b` (scanning `a` is work).
    Contains { d: Reg, a: Reg, b: Reg },
    /// `d = pick random a to b`.
    Random { d: Reg, a: Reg, b: Reg },
    /// `d = item a of list l`.
    Item { d: Reg, l: Reg, a: Reg },
    /// `d = length of list l`.
    ListLen { d: Reg, l: Reg },
    /// `d = item # of a in list l` (scanning is work).
    ItemNum { d: Reg, l: Reg, a: Reg },
    /// `d = list l contains a` (scanning is work).
    ListHas { d: Reg, l: Reg, a: Reg },
    /// `d = list l` (its contents as text, under the string budget).
    Contents { d: Reg, l: Reg },
    /// `add a to list l` (under the list-bytes budget).
    ListAdd { l: Reg, a: Reg },
    /// `delete a of list l`.
    ListDelete { l: Reg, a: Reg },
    /// `delete all of list l`.
    ListClear { l: Reg },
    /// `insert item at index of list l`.
    ListInsert { l: Reg, item: Reg, index: Reg },
    /// `replace item index of list l with item`.
    ListReplace { l: Reg, index: Reg, item: Reg },
    /// Where the interpreter looks whether a budget halted the run (after a statement it
    /// steps on its own, or at the end of a fused loop's body): when one did, the region
    /// stops there (its frames rebuilt from `path`).
    HaltCheck { path: PathId },
    /// `d = counter` (`control_get_counter`).
    Counter { d: Reg },
    /// `control_incr_counter`.
    IncrCounter,
    /// `control_clear_counter`.
    ClearCounter,
    /// Go to `to`.
    Jump { to: u32 },
    /// Go to `to` unless `Cast.toBoolean(a)`.
    JumpIfNot { a: Reg, to: u32 },
    /// Go to `to` if `Cast.toBoolean(a)`.
    JumpIf { a: Reg, to: u32 },
    /// Go to `to` when the comparison `a cmp b` (`Cast.compare`) is `when` (an `if`, `while`
    /// or `repeat until` whose condition is a comparison, or its `not`).
    JumpCmp { a: Reg, b: Reg, cmp: Cmp, when: bool, to: u32 },
    /// [`Op::JumpCmp`] against a literal that compares as the number `k` (not NaN).
    JumpCmpK { a: Reg, k: f64, cmp: Cmp, when: bool, to: u32 },
    /// `repeat (n)` at its block: the counter `c` (NaN: not started) is set from `n` when not
    /// started, then counts down; when it is spent the loop is over (`c` back to NaN) and
    /// control goes to `exit`.
    Repeat { c: Reg, n: Reg, exit: u32 },
    /// `for each [v] in (a)`: the index `c` (NaN: 0) counts up to `Number(a)`, writing `v`;
    /// past it the loop is over (`c` back to NaN) and control goes to `exit`.
    ForEach { c: Reg, v: Reg, a: Reg, exit: u32 },
    /// The end of a loop's body (`stepThread` back at the loop block): one warp-timer check in
    /// warp mode, else a yield (or, for the only thread of a pass, the next pass in place);
    /// when it goes on, control goes to `head`; when it yields, the thread's frames are
    /// rebuilt from `path`.
    LoopEnd { head: u32, path: PathId },
    /// [`Op::LoopEnd`] of a `repeat` whose count is a literal or a variable (evaluating it
    /// again does nothing), followed by its [`Op::Repeat`]: the counter (started) counts down
    /// and control goes back to `body`, or the loop is over and control goes on.
    RepeatEnd { c: Reg, body: u32, path: PathId },
    /// The region's loop is over.
    Done,
}

/// The operation of [`Op::ArithK`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

/// A comparison of [`Op::JumpCmp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `=`
    Eq,
}

/// A frame below the region's own loop frame, rebuilt when the region yields inside it: the
/// statement the frame is at, its `isLoop`, and the register of its loop counter (`repeat`,
/// `for each`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Step {
    pub stmt: StmtId,
    pub is_loop: bool,
    pub counter: Option<Reg>,
}

/// A loop statement compiled to register code, with everything it reads and writes.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    /// The code; it starts at the loop's head.
    pub ops: Vec<Op>,
    /// The same, ready to run.
    pub code: Vec<Ins>,
    /// Block operations of the code's first straight-line run (the region's loop block and
    /// what follows it up to the first jump), added when the region is entered; the jumps
    /// add the others (`Ins::nt`, `Ins::nf`).
    pub entry_blocks: u32,
    /// Variables and the register each lives in while the region runs.
    pub vars: Vec<(Slot, Reg)>,
    /// Lists, by list register.
    pub lists: Vec<Slot>,
    /// Procedure parameters read (index of the innermost call's parameter, register).
    pub params: Vec<(u32, Reg)>,
    /// Literals (and `undefined`) with their registers' contents.
    pub consts: Vec<(Reg, Cell, Value)>,
    /// The counter of the region's own loop (`repeat`, `for each`).
    pub counter: Option<Reg>,
    /// Counters of the loops nested inside (not started when the region is entered).
    pub inner_counters: Vec<Reg>,
    /// Frames to rebuild for each yield point (empty: the region's own loop end).
    pub paths: Vec<Vec<Step>>,
    /// Some slot index appears both as a sprite-local and a global variable (or list): on the
    /// stage both name the same storage, so the region is not entered there.
    pub local_global_overlap: bool,
    /// Some operation charges the run budgets (the region then measures the memory it
    /// cannot change when it is entered).
    pub charges: bool,
    /// Fixed registers (variables, parameters, literals, counters) are `0..fixed`;
    /// temporaries are `low_temp..MAX_REGS`.
    pub fixed: usize,
    pub low_temp: usize,
}
