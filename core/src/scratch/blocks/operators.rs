//! Operator blocks (`operator_*`): arithmetic, comparison, logic, `pick random`, text and
//! `mathop`, as scratch-vm's `scratch3_operators.js` computes them.

use crate::scratch::value::case;
use alloc::string::String;

use crate::scratch::image::ops::MathFn;
use crate::scratch::image::Rop;
use crate::scratch::value::cast::{self, to_number};
use crate::scratch::value::Value;
use crate::scratch::vm::budget::Charge;
use crate::scratch::vm::random::Mulberry32;

/// add, subtract, multiply, divide, mod on values.
pub fn arith(op: &Rop, a: &Value, b: &Value) -> Value {
    Value::Num(arith_num(op, to_number(a), to_number(b)))
}

/// add, subtract, multiply, divide, mod on numbers already cast.
#[inline]
pub fn arith_num(op: &Rop, x: f64, y: f64) -> f64 {
    match op {
        Rop::Add => x + y,
        Rop::Sub => x - y,
        Rop::Mul => x * y,
        Rop::Div => x / y,
        _ => floored_mod(x, y),
    }
}

/// scratch-vm's `mod`: `r = n % m; if (r / m < 0) r += m` (the result has the divisor's sign).
/// Whole numbers below 9e15 take the integer remainder: same value as `fmod`, including the
/// sign of zero, and there `r / m < 0` is exactly "r is non-zero with the other sign" (no
/// underflow: |r| >= 1 and |m| < 9e15).
#[inline]
pub fn floored_mod(x: f64, y: f64) -> f64 {
    #[cfg(feature = "planted-divergence")]
    if crate::scratch::planted::on() {
        return x % y;
    }
    // `v as i64 as f64 == v` is `trunc(v) == v` in this range (NaN fails the range check).
    let whole = |v: f64| libm::fabs(v) < 9.0e15 && v as i64 as f64 == v;
    if y != 0.0 && whole(x) && whole(y) {
        let (a, b) = (x as i64, y as i64);
        let q = a % b;
        if q == 0 {
            return if x.is_sign_negative() { -0.0 } else { 0.0 };
        }
        return if (q < 0) != (b < 0) { (q + b) as f64 } else { q as f64 };
    }
    let mut r = x % y;
    if r / y < 0.0 {
        r += y;
    }
    r
}

/// gt, lt, equals.
pub fn compare(op: &Rop, a: &Value, b: &Value) -> Value {
    let c = cast::compare(a, b);
    Value::Bool(match op {
        Rop::Gt => c > 0.0,
        Rop::Lt => c < 0.0,
        _ => c == 0.0,
    })
}

/// and, or.
pub fn logic(op: &Rop, a: &Value, b: &Value) -> Value {
    let x = cast::to_bool(a);
    let y = cast::to_bool(b);
    Value::Bool(if *op == Rop::And { x && y } else { x || y })
}

/// `pick random`: integer when both ends are integers (one draw either way).
pub fn random(from: &Value, to: &Value, rng: &mut Mulberry32) -> Value {
    let nfrom = to_number(from);
    let nto = to_number(to);
    let low = if nfrom <= nto { nfrom } else { nto };
    let high = if nfrom <= nto { nto } else { nfrom };
    if low == high {
        return Value::Num(low);
    }
    let r = rng.next_f64();
    if cast::is_int(from) && cast::is_int(to) {
        Value::Num(low + libm::floor(r * ((high + 1.0) - low)))
    } else {
        Value::Num((r * (high - low)) + low)
    }
}

/// `join` built in `buf` (a scratch buffer the caller keeps, so only the result allocates).
/// The caller checks the string budget first ([`text_len`]).
pub fn join(buf: &mut String, a: &Value, b: &Value) -> Value {
    buf.clear();
    cast::with_str(a, |x| buf.push_str(x));
    cast::with_str(b, |x| buf.push_str(x));
    Value::str(buf)
}

/// An upper bound of the UTF-8 bytes of a value's text (exact for strings; a number prints
/// in at most 25 characters).
#[inline]
pub fn text_len(v: &Value) -> usize {
    match v {
        Value::Str(s) => s.len(),
        _ => 32,
    }
}

/// The UTF-8 bytes of a string value (0 for other values: their text is short).
#[inline]
pub fn str_len(v: &Value) -> usize {
    match v {
        Value::Str(s) => s.len(),
        _ => 0,
    }
}

/// UTF-16 code units of a value's text (what JavaScript's `length` says).
pub fn text_units(v: &Value) -> usize {
    cast::with_str(v, |s| if s.is_ascii() { s.len() } else { utf16_len(s) })
}

/// UTF-16 code units of a string (JavaScript string indexing).
fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `letter (n) of (text)` (1-based UTF-16 index, "" when out of range).
pub fn letter_of(n: &Value, text: &Value) -> Value {
    let i = to_number(n) - 1.0;
    cast::with_str(text, |s| {
        if i.is_nan() || i < 0.0 || i >= utf16_len(s) as f64 {
            return Value::empty();
        }
        let i = libm::floor(i) as usize;
        // One UTF-16 unit as JavaScript's `charAt`; a lone surrogate half becomes U+FFFD, as
        // `String::from_utf16_lossy` would make it.
        let unit = s.encode_utf16().nth(i).unwrap_or(0xFFFD);
        let c = char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER);
        Value::str(c.encode_utf8(&mut [0; 4]))
    })
}

/// `length of`.
pub fn length(v: &Value) -> Value {
    Value::Num(cast::with_str(v, utf16_len) as f64)
}

/// `contains` (case-insensitive).
pub fn contains(a: &Value, b: &Value) -> Value {
    cast::with_str(a, |x| {
        cast::with_str(b, |y| Value::Bool(case::to_lower(x).contains(&case::to_lower(y))))
    })
}

/// `letter (n) of (text)` under the work budget (scanning `text` is work); "" once halted.
pub(crate) fn letter_of_charged(n: &Value, text: &Value, c: &mut impl Charge) -> Value {
    if !c.spend(str_len(text)) {
        return Value::empty();
    }
    letter_of(n, text)
}

/// `length of` under the work budget; 0 once halted.
pub(crate) fn length_charged(v: &Value, c: &mut impl Charge) -> Value {
    if !c.spend(str_len(v)) {
        return Value::Num(0.0);
    }
    length(v)
}

/// `contains` under the work budget (scanning `a`); false once halted.
pub(crate) fn contains_charged(a: &Value, b: &Value, c: &mut impl Charge) -> Value {
    if !c.spend(str_len(a)) {
        return Value::Bool(false);
    }
    contains(a, b)
}

/// Whether `join a b` fits the string budget (`Config::max_string_len`; charged as work and
/// growth): when not, the run halts (scratch-vm throws `RangeError: Invalid string length`)
/// and `join` reports "".
pub(crate) fn join_fits(a: &Value, b: &Value, c: &mut impl Charge) -> bool {
    c.string_fits(text_len(a) + text_len(b), &|| text_units(a) + text_units(b))
}

/// `join` in the VM's buffer `buf` ([`join`]), which is dropped when it grew past
/// [`TEXT_BUF_KEEP`]. Call [`join_fits`] first.
pub(crate) fn join_kept(buf: &mut String, a: &Value, b: &Value) -> Value {
    let v = join(buf, a, b);
    if buf.capacity() > TEXT_BUF_KEEP {
        *buf = String::new();
    }
    v
}

/// `parseFloat(x.toFixed(10))`.
fn round10(x: f64) -> f64 {
    use crate::scratch::value::number::{js_to_fixed, parse_js_number};
    if !x.is_finite() {
        return x;
    }
    parse_js_number(&js_to_fixed(x, 10))
}

/// `mathop`.
pub fn mathop(f: MathFn, v: &Value) -> Value {
    Value::Num(mathop_num(f, to_number(v)))
}

/// `mathop` of a number already cast.
pub fn mathop_num(f: MathFn, n: f64) -> f64 {
    let pi = core::f64::consts::PI;
    match f {
        MathFn::Abs => libm::fabs(n),
        MathFn::Floor => libm::floor(n),
        MathFn::Ceiling => libm::ceil(n),
        MathFn::Sqrt => libm::sqrt(n),
        MathFn::Sin => round10(libm::sin((pi * n) / 180.0)),
        MathFn::Cos => round10(libm::cos((pi * n) / 180.0)),
        MathFn::Tan => tan_deg(n),
        MathFn::Asin => libm::asin(n) * 180.0 / core::f64::consts::PI,
        MathFn::Acos => libm::acos(n) * 180.0 / core::f64::consts::PI,
        MathFn::Atan => libm::atan(n) * 180.0 / core::f64::consts::PI,
        MathFn::Ln => libm::log(n),
        MathFn::Log => libm::log(n) / core::f64::consts::LN_10,
        MathFn::Exp => libm::exp(n),
        MathFn::Pow10 => libm::pow(10.0, n),
        MathFn::Unknown => 0.0,
    }
}

/// `MathUtil.tan`: ±Infinity at 90/270 degrees, else rounded to 10 places.
fn tan_deg(angle: f64) -> f64 {
    let a = angle % 360.0;
    if a == -270.0 || a == 90.0 {
        f64::INFINITY
    } else if a == -90.0 || a == 270.0 {
        f64::NEG_INFINITY
    } else {
        round10(libm::tan(core::f64::consts::PI * a / 180.0))
    }
}

/// Strings built by `join` longer than this are not kept in the VM's scratch buffer.
const TEXT_BUF_KEEP: usize = 1 << 16;

impl crate::scratch::vm::Vm {
    /// `operator_join` under the string budget (`Config::max_string_len`): a result longer
    /// than it halts the run (scratch-vm throws `RangeError: Invalid string length`).
    pub(crate) fn join(&mut self, a: &Value, b: &Value) -> Value {
        if !join_fits(a, b, self) {
            return Value::empty();
        }
        join_kept(&mut self.text_buf, a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floored_mod_matches_scratch() {
        // (n, modulus, expected) from scratch-vm's `mod`: n % m, plus m when the signs differ.
        let rows = [
            (7.0, 3.0, 1.0),
            (-7.0, 3.0, 2.0),
            (7.0, -3.0, -2.0),
            (5.5, 2.0, 1.5),
            (-5.5, 2.0, 0.5),
            (1e20, 7.0, 1e20 % 7.0),
        ];
        for (n, m, want) in rows {
            assert_eq!(arith_num(&Rop::Mod, n, m), want, "{n} mod {m}");
        }
        let z = arith_num(&Rop::Mod, -4.0, 2.0);
        assert!(z == 0.0 && z.is_sign_negative(), "-4 mod 2 is -0 in JavaScript");
        assert!(arith_num(&Rop::Mod, 1.0, 0.0).is_nan());
    }

    #[test]
    fn floored_mod_integer_path_equals_the_float_formula() {
        // The JavaScript formula on f64 (Rust's `%` is fmod, as JavaScript's `%`).
        let js = |n: f64, m: f64| {
            let mut r = n % m;
            if r / m < 0.0 {
                r += m;
            }
            r
        };
        let vals = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.0,
            -2.0,
            3.0,
            7.0,
            -7.0,
            10.0,
            -10.0,
            360.0,
            -360.0,
            1e9,
            -1e9,
            8.9e15,
            -8.9e15,
            9.0e15,
            2.5,
            -2.5,
            1e300,
            f64::INFINITY,
            f64::NAN,
        ];
        for &n in &vals {
            for &m in &vals {
                let (got, want) = (floored_mod(n, m), js(n, m));
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{n} mod {m}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn letter_of_takes_utf16_units() {
        let letter =
            |n: f64, s: &str| alloc::format!("{}", letter_of(&Value::Num(n), &Value::str(s)));
        assert_eq!(letter(1.0, "abc"), "a");
        assert_eq!(letter(3.7, "abc"), "c");
        assert_eq!(letter(4.0, "abc"), "");
        assert_eq!(letter(0.0, "abc"), "");
        assert_eq!(letter(2.0, "aé"), "é");
        // An astral character is two units; each half alone is U+FFFD.
        assert_eq!(letter(2.0, "a😀b"), "\u{FFFD}");
        assert_eq!(letter(3.0, "a😀b"), "\u{FFFD}");
        assert_eq!(letter(4.0, "a😀b"), "b");
    }

    #[test]
    fn tan_has_infinities_at_right_angles() {
        assert_eq!(tan_deg(90.0), f64::INFINITY);
        assert_eq!(tan_deg(-90.0), f64::NEG_INFINITY);
        assert_eq!(tan_deg(45.0), 1.0);
    }
}
