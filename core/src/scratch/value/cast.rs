//! The casts of scratch-vm's `util/cast.js`: `toNumber`, `toBoolean`, `toString`, `compare`,
//! `isInt`, `isWhiteSpace` and `toListIndex`.

use super::number::{js_trim, parse_js_number, JsNum};
use super::Value;
use crate::scratch::value::case;
use alloc::rc::Rc;
use core::cmp::Ordering;

/// JavaScript `Number(value)` (NaN stays NaN).
pub fn js_number(v: &Value) -> f64 {
    match v {
        Value::Num(n) => *n,
        Value::Str(s) => parse_js_number(s),
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Undefined => f64::NAN,
    }
}

/// `Cast.toNumber`: like `Number(value)` but NaN becomes 0.
#[inline]
pub fn to_number(v: &Value) -> f64 {
    let n = match v {
        Value::Num(n) => *n,
        _ => js_number(v),
    };
    if n.is_nan() {
        0.0
    } else {
        n
    }
}

/// `Cast.toBoolean`.
pub fn to_bool(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Str(s) => !(s.is_empty() || &**s == "0" || s.eq_ignore_ascii_case("false")),
        Value::Num(n) => !(*n == 0.0 || n.is_nan()),
        Value::Undefined => false,
    }
}

/// `Cast.toString`: the value as a string value (no copy when it already is one).
pub fn to_str_value(v: &Value) -> Rc<str> {
    match v {
        Value::Str(s) => s.clone(),
        Value::Num(n) => {
            let mut buf = ryu_js::Buffer::new();
            Rc::from(JsNum(*n).as_str(&mut buf))
        }
        Value::Bool(true) => Rc::from("true"),
        Value::Bool(false) => Rc::from("false"),
        Value::Undefined => Rc::from("undefined"),
    }
}

/// `Cast.isWhiteSpace` (for a value that is not `null`).
pub fn is_white_space(v: &Value) -> bool {
    match v {
        Value::Str(s) => js_trim(s).is_empty(),
        _ => false,
    }
}

/// Call `f` with `String(v)` without allocating for strings, booleans and undefined.
pub fn with_str<R>(v: &Value, f: impl FnOnce(&str) -> R) -> R {
    match v {
        Value::Str(s) => f(s),
        Value::Num(n) => {
            let mut buf = ryu_js::Buffer::new();
            f(JsNum(*n).as_str(&mut buf))
        }
        Value::Bool(true) => f("true"),
        Value::Bool(false) => f("false"),
        Value::Undefined => f("undefined"),
    }
}

/// JavaScript `a.toLowerCase() < b.toLowerCase()` ordering (UTF-16 code unit order).
pub fn compare_lowercase(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        let ia = a.bytes().map(|c| c.to_ascii_lowercase());
        let ib = b.bytes().map(|c| c.to_ascii_lowercase());
        return ia.cmp(ib);
    }
    let la = case::to_lower(a);
    let lb = case::to_lower(b);
    la.encode_utf16().cmp(lb.encode_utf16())
}

/// `Cast.compare`: negative, zero or positive like scratch-vm (numeric when both sides are
/// numbers and neither is an empty/whitespace string, else case-insensitive text).
pub fn compare(a: &Value, b: &Value) -> f64 {
    if let (Value::Num(x), Value::Num(y)) = (a, b) {
        if !x.is_nan() && !y.is_nan() {
            return num_diff(*x, *y);
        }
    }
    let mut n1 = js_number(a);
    let mut n2 = js_number(b);
    if n1 == 0.0 && is_white_space(a) {
        n1 = f64::NAN;
    } else if n2 == 0.0 && is_white_space(b) {
        n2 = f64::NAN;
    }
    if n1.is_nan() || n2.is_nan() {
        return with_str(a, |sa| {
            with_str(b, |sb| match compare_lowercase(sa, sb) {
                Ordering::Less => -1.0,
                Ordering::Equal => 0.0,
                Ordering::Greater => 1.0,
            })
        });
    }
    num_diff(n1, n2)
}

#[inline]
fn num_diff(n1: f64, n2: f64) -> f64 {
    if n1 == n2 {
        // Also covers Infinity vs Infinity, which `n1 - n2` would make NaN.
        return 0.0;
    }
    n1 - n2
}

/// `Cast.isInt`.
pub fn is_int(v: &Value) -> bool {
    match v {
        Value::Num(n) => n.is_nan() || (libm::trunc(*n) == *n && libm::fabs(*n) < 1e21),
        Value::Bool(_) => true,
        Value::Str(s) => !s.contains('.'),
        Value::Undefined => false,
    }
}

/// The result of `Cast.toListIndex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListIndex {
    /// A 1-based index within the list.
    At(usize),
    /// `"all"` where accepted.
    All,
    /// Out of range or not an index.
    Invalid,
}

/// `Cast.toListIndex(index, length, acceptAll)`; `random` is called for `"random"`/`"any"`
/// (one draw, only when the list is not empty).
pub fn to_list_index(
    index: &Value,
    length: usize,
    accept_all: bool,
    random: impl FnOnce() -> f64,
) -> ListIndex {
    if let Value::Str(s) = index {
        match &**s {
            "all" => return if accept_all { ListIndex::All } else { ListIndex::Invalid },
            "last" => return if length > 0 { ListIndex::At(length) } else { ListIndex::Invalid },
            "random" | "any" => {
                if length > 0 {
                    let i = libm::floor(random() * length as f64) as usize;
                    return ListIndex::At(1 + i.min(length - 1));
                }
                return ListIndex::Invalid;
            }
            _ => {}
        }
    }
    let i = libm::floor(to_number(index));
    if i < 1.0 || i > length as f64 {
        return ListIndex::Invalid;
    }
    ListIndex::At(i as usize)
}
