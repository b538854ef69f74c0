//! The tier's interpreter: runs a region's [`Op`]s over the register file ([`Regs`]) until
//! the region's loop is over or a loop end yields. Every operation computes what the VM's
//! block implementations compute (it calls the same functions, or, for numbers, does the same
//! floating-point operations in the same order); only where values live differs.

use alloc::string::String;
use alloc::vec::Vec;

use super::code::{Op, PathId, Reg, BOOL, BOXED, CANON, MAX_REGS, NUM};
use crate::scratch::blocks::{data, operators as o};
use crate::scratch::value::cast::{self, to_number};
use crate::scratch::value::Value;
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
    pub text: &'a mut String,
    pub counter: &'a mut f64,
    pub max_string_len: usize,
    pub max_list_len: usize,
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
        to_number(&b[usize::from(a)])
    }
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

/// `Cast.compare(a, b)` as an ordering test: `want(c)` of the comparison's sign. Registers
/// holding numbers, booleans or number spellings that are not NaN compare as numbers, which
/// is what `Cast.compare` does for them; anything else takes `Cast.compare` itself.
#[inline(always)]
fn compare(
    r: &[Cell; MAX_REGS],
    b: &[Value; MAX_REGS],
    a: Reg,
    c: Reg,
    num_test: fn(f64, f64) -> bool,
    sign_test: fn(f64) -> bool,
) -> bool {
    let (x, y) = (r[usize::from(a)], r[usize::from(c)]);
    if x.tag != BOXED && y.tag != BOXED && !x.n.is_nan() && !y.n.is_nan() {
        return num_test(x.n, y.n);
    }
    sign_test(cast::compare(&seen(r, b, a), &seen(r, b, c)))
}

/// Floored `x mod k` for a whole `k` with `0 < |k| < 2^31` (`inv` is `1 / |k|`), `x` already
/// cast: the value of [`o::floored_mod`]. For whole `|x| < 2^53` the remainder of `|x|` by
/// `|k|` comes from a quotient estimated by a multiplication with `inv` (off by at most one,
/// then corrected exactly in integers) instead of a division; everything else goes to
/// `floored_mod`.
#[inline(always)]
pub(crate) fn mod_k(x: f64, k: i32, inv: f64) -> f64 {
    const LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53
    let ax = libm::fabs(x);
    if ax < LIMIT && ax as i64 as f64 == ax {
        let m = i64::from(k).abs();
        let mut rem = ax as i64 - (ax * inv) as i64 * m;
        while rem < 0 {
            rem += m;
        }
        while rem >= m {
            rem -= m;
        }
        if rem == 0 {
            // `n % m` is a zero with the dividend's sign, and `0 / m < 0` never holds.
            return if x.is_sign_negative() { -0.0 } else { 0.0 };
        }
        // The remainder has the dividend's sign; floored: add `k` when the signs differ.
        let r = if x < 0.0 { -(rem as f64) } else { rem as f64 };
        return if (x < 0.0) != (k < 0) { r + f64::from(k) } else { r };
    }
    o::floored_mod(x, f64::from(k))
}

/// Run `code` from `pc` until the region's loop is over or a loop end yields.
pub(crate) fn run(code: &[Op], regs: &mut Regs, env: &mut Env<'_>, mut pc: usize) -> Exit {
    let Regs { r, b, lists } = regs;
    loop {
        let Some(&op) = code.get(pc) else { return Exit::Done };
        pc += 1;
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
            Op::ModK { d, a, k, inv } => {
                let n = mod_k(num(r, b, a), k, inv);
                r[usize::from(d)] = Cell { n, tag: NUM };
            }
            Op::Change { d, a } => {
                let n = num(r, b, d) + num(r, b, a);
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
            Op::Lt { d, a, b: c } => {
                let t = compare(r, b, a, c, |x, y| x < y, |s| s < 0.0);
                r[usize::from(d)] = Cell { n: f64::from(u8::from(t)), tag: BOOL };
            }
            Op::Gt { d, a, b: c } => {
                let t = compare(r, b, a, c, |x, y| x > y, |s| s > 0.0);
                r[usize::from(d)] = Cell { n: f64::from(u8::from(t)), tag: BOOL };
            }
            Op::Eq { d, a, b: c } => {
                let t = compare(r, b, a, c, |x, y| x == y, |s| s == 0.0);
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
            Op::Join { d, a, b: c } => {
                let v = o::join(env.text, &seen(r, b, a), &seen(r, b, c), env.max_string_len);
                put(r, b, d, v);
            }
            Op::Letter { d, a, b: c } => {
                let v = o::letter_of(&seen(r, b, a), &seen(r, b, c));
                put(r, b, d, v);
            }
            Op::Length { d, a } => {
                let v = o::length(&seen(r, b, a));
                put(r, b, d, v);
            }
            Op::Contains { d, a, b: c } => {
                let v = o::contains(&seen(r, b, a), &seen(r, b, c));
                put(r, b, d, v);
            }
            Op::Random { d, a, b: c } => {
                let v = o::random(&seen(r, b, a), &seen(r, b, c), env.rng);
                put(r, b, d, v);
            }
            Op::Item { d, l, a } => {
                let list = lists.get(usize::from(l)).map_or(&[][..], Vec::as_slice);
                let c = r[usize::from(a)];
                let v = if c.tag != BOXED {
                    // `Cast.toListIndex` of a number: floor, then 1..=length.
                    let i = libm::floor(nz(c.n));
                    if i < 1.0 || i > list.len() as f64 {
                        Value::empty()
                    } else {
                        list[i as usize - 1].clone()
                    }
                } else {
                    data::item(list, &b[usize::from(a)], env.rng)
                };
                put(r, b, d, v);
            }
            Op::ItemNum { d, l, a } => {
                let list = lists.get(usize::from(l)).map_or(&[][..], Vec::as_slice);
                let v = data::item_num(list, &seen(r, b, a));
                put(r, b, d, v);
            }
            Op::ListLen { d, l } => {
                let n = lists.get(usize::from(l)).map_or(0, Vec::len) as f64;
                r[usize::from(d)] = Cell { n, tag: NUM };
            }
            Op::ListHas { d, l, a } => {
                let list = lists.get(usize::from(l)).map_or(&[][..], Vec::as_slice);
                let v = data::contains(list, &seen(r, b, a));
                put(r, b, d, v);
            }
            Op::Contents { d, l } => {
                let list = lists.get(usize::from(l)).map_or(&[][..], Vec::as_slice);
                let v = data::contents(list, env.max_string_len);
                put(r, b, d, v);
            }
            Op::ListAdd { l, a } => {
                let v = seen(r, b, a).clone();
                if let Some(list) = lists.get_mut(usize::from(l)) {
                    data::add(list, v, env.max_list_len);
                }
            }
            Op::ListDelete { l, a } => {
                if let Some(list) = lists.get_mut(usize::from(l)) {
                    data::delete(list, &seen(r, b, a), env.rng);
                }
            }
            Op::ListClear { l } => {
                if let Some(list) = lists.get_mut(usize::from(l)) {
                    list.clear();
                }
            }
            Op::ListInsert { l, item, index } => {
                let v = seen(r, b, item).clone();
                if let Some(list) = lists.get_mut(usize::from(l)) {
                    data::insert(list, v, &seen(r, b, index), env.max_list_len, env.rng);
                }
            }
            Op::ListReplace { l, index, item } => {
                let v = seen(r, b, item).clone();
                if let Some(list) = lists.get_mut(usize::from(l)) {
                    let c = r[usize::from(index)];
                    if c.tag != BOXED {
                        let i = libm::floor(nz(c.n));
                        if i >= 1.0 && i <= list.len() as f64 {
                            list[i as usize - 1] = v;
                        }
                    } else {
                        data::replace(list, &b[usize::from(index)], v, env.rng);
                    }
                }
            }
            Op::Counter { d } => r[usize::from(d)] = Cell { n: *env.counter, tag: NUM },
            Op::IncrCounter => *env.counter += 1.0,
            Op::ClearCounter => *env.counter = 0.0,
            Op::Jump { to } => pc = to as usize,
            Op::JumpIfNot { a, to } => {
                if !truthy(r, b, a) {
                    pc = to as usize;
                }
            }
            Op::JumpIf { a, to } => {
                if truthy(r, b, a) {
                    pc = to as usize;
                }
            }
            Op::Repeat { c, n, exit } => {
                let mut left = r[usize::from(c)].n;
                if left.is_nan() {
                    left = js_round(num(r, b, n));
                }
                left -= 1.0;
                if left >= 0.0 {
                    r[usize::from(c)].n = left;
                } else {
                    r[usize::from(c)].n = f64::NAN;
                    pc = exit as usize;
                }
            }
            Op::ForEach { c, v, a, exit } => {
                let limit = js_num(r, b, a);
                let index = nz(r[usize::from(c)].n);
                if index < limit {
                    r[usize::from(c)].n = index + 1.0;
                    r[usize::from(v)] = Cell { n: index + 1.0, tag: NUM };
                } else {
                    r[usize::from(c)].n = f64::NAN;
                    pc = exit as usize;
                }
            }
            Op::LoopEnd { head, path } => {
                if env.warp {
                    env.checks = env.checks.saturating_add(1);
                    if env.checks > env.warp_limit {
                        env.warp_expired = true;
                        return Exit::Yield(path);
                    }
                } else if env.solo && *env.ticks < env.ticks_per_frame && (env.turbo || !env.redraw)
                {
                    *env.ticks += 1;
                } else {
                    return Exit::Yield(path);
                }
                pc = head as usize;
            }
            Op::Done => return Exit::Done,
        }
    }
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
                let inv = 1.0 / libm::fabs(f64::from(k));
                let (got, want) = (mod_k(x, k, inv), o::floored_mod(x, f64::from(k)));
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{x} mod {k}: {got} vs {want}"
                );
            }
        }
    }
}
