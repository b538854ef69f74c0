//! Python's text conversions, as the reference evaluator's messages use them: `repr(float)`
//! (shortest round-trip digits; exponent form below 1e-4 and from 1e16 on, `1e+16`, `1e-05`),
//! `str()` / `repr()` of JSON values, `float(str)`, and the two `round(x, n)` functions
//! (Python's correctly rounded one and numpy's `rint(x * 10**n) / 10**n`).
//!
//! Known approximation: `repr(str)` treats every non-control character as printable, where
//! Python consults the Unicode database (a format or unassigned character is escaped there).

use alloc::format;
use alloc::string::String;
use core::fmt::Write;

use super::pyjson::PyValue;

/// `repr(x)` / `str(x)` of a Python float.
pub fn float_repr(x: f64) -> String {
    let mut out = String::new();
    push_float_repr(&mut out, x);
    out
}

/// Appends `repr(x)` of a Python float to `out`.
pub fn push_float_repr(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("nan");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "inf" } else { "-inf" });
        return;
    }
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0.0" } else { "0.0" });
        return;
    }
    if x < 0.0 {
        out.push('-');
    }
    // `{:e}` gives the shortest round-trip digits as `d.ddde<exp>`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let n = digits.len() as i32;
    let decpt = exp + 1;
    if decpt > -4 && decpt <= 16 {
        if decpt <= 0 {
            out.push_str("0.");
            for _ in 0..-decpt {
                out.push('0');
            }
            out.push_str(&digits);
        } else if decpt >= n {
            out.push_str(&digits);
            for _ in 0..decpt - n {
                out.push('0');
            }
            out.push_str(".0");
        } else {
            let (a, b) = digits.split_at(decpt as usize);
            out.push_str(a);
            out.push('.');
            out.push_str(b);
        }
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let sign = if exp < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exp.unsigned_abs());
    }
}

/// `str(v)` of a JSON value (strings unquoted; everything else as `repr`).
pub fn py_str(v: &PyValue) -> String {
    match v {
        PyValue::Str(s) => s.clone(),
        _ => py_repr(v),
    }
}

/// `repr(v)` of a JSON value.
pub fn py_repr(v: &PyValue) -> String {
    let mut out = String::new();
    push_repr(&mut out, v);
    out
}

fn push_repr(out: &mut String, v: &PyValue) {
    match v {
        PyValue::Null => out.push_str("None"),
        PyValue::Bool(true) => out.push_str("True"),
        PyValue::Bool(false) => out.push_str("False"),
        PyValue::Int(i) => {
            let _ = write!(out, "{i}");
        }
        PyValue::BigInt(b) => out.push_str(&b.text),
        PyValue::Float(f) => push_float_repr(out, *f),
        PyValue::Str(s) => push_str_repr(out, s),
        PyValue::List(items) => {
            out.push('[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                push_repr(out, item);
            }
            out.push(']');
        }
        PyValue::Dict(items) => {
            out.push('{');
            for (n, (k, item)) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                push_str_repr(out, k);
                out.push_str(": ");
                push_repr(out, item);
            }
            out.push('}');
        }
    }
}

/// `repr(s)` of a Python str.
pub fn push_str_repr(out: &mut String, s: &str) {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// Python's `float(s)` for a str: surrounding whitespace, a sign, underscores between digits,
/// `inf`/`infinity`/`nan` in any case. `None` where Python raises `ValueError`.
/// Non-ASCII decimal digits, which Python also accepts, are rejected here.
pub fn float_from_str(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c));
    if t.is_empty() || !t.is_ascii() {
        return None;
    }
    let bytes = t.as_bytes();
    let mut clean = String::with_capacity(t.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let prev = i.checked_sub(1).and_then(|p| bytes.get(p));
            let next = bytes.get(i + 1);
            if !matches!(prev, Some(b'0'..=b'9')) || !matches!(next, Some(b'0'..=b'9')) {
                return None;
            }
        } else {
            clean.push(b as char);
        }
    }
    let lower = clean.to_ascii_lowercase();
    let body = lower.trim_start_matches(['+', '-']);
    if lower.len() - body.len() > 1 {
        return None;
    }
    match body {
        "inf" | "infinity" | "nan" => {}
        _ if body.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-')) => {
        }
        _ => return None,
    }
    lower.parse::<f64>().ok()
}

/// Python's `round(x, ndigits)` on a float: correctly rounded, ties to even on the exact value.
pub fn round_python(x: f64, ndigits: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    round_exact(x, ndigits).unwrap_or_else(|| round_via_text(x, ndigits))
}

/// [`round_python`] through decimal text: the exact decimal value rounded half to even by
/// `format!`, read back as the nearest double.
fn round_via_text(x: f64, ndigits: usize) -> f64 {
    format!("{x:.ndigits$}").parse::<f64>().unwrap_or(x)
}

/// [`round_python`] by exact arithmetic, for up to 8 digits and `|x·10^n| < 2^52` (`None`
/// otherwise). `x·10^n` is split exactly into `p + e` (Dekker's product: `x` is cut into two
/// 26-bit halves, and `10^n` has at most 19 significant bits, so every partial product is
/// exact); the nearest integer `k` of `p` is corrected by the sign of `e` when `p` is halfway;
/// `k / 10^n` (two exact operands) is the double nearest to the decimal `k·10^-n`, which is
/// what Python's text round trip gives.
fn round_exact(x: f64, ndigits: usize) -> Option<f64> {
    const SCALE: [f64; 9] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
    let scale = *SCALE.get(ndigits)?;
    let p = x * scale;
    if libm::fabs(p) >= 4.0e15 {
        return None;
    }
    let split = 134_217_729.0 * x; // 2^27 + 1
    let hi = split - (split - x);
    let lo = x - hi;
    let e = (hi * scale - p) + lo * scale;
    let k0 = libm::rint(p);
    // Exact: p and k0 are within 0.5 of each other, below 2^52.
    let t = p - k0;
    let k = if t == 0.5 && e > 0.0 {
        k0 + 1.0
    } else if t == -0.5 && e < 0.0 {
        k0 - 1.0
    } else {
        k0
    };
    Some(k / scale)
}

/// numpy's `round(x, ndigits)` on a `float64`: `rint(x * 10**n) / 10**n`.
pub fn round_numpy(x: f64, ndigits: i32) -> f64 {
    // Powers of ten up to 10^22 are exact doubles (and what `pow` returns for them).
    const EXACT: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    let scale = match usize::try_from(ndigits).ok().and_then(|n| EXACT.get(n)) {
        Some(&s) => s,
        None => libm::pow(10.0, f64::from(ndigits)),
    };
    libm::rint(x * scale) / scale
}

/// Python's `f"{x:.Nf}"`.
pub fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        return String::from("nan");
    }
    if x.is_infinite() {
        return String::from(if x > 0.0 { "inf" } else { "-inf" });
    }
    format!("{x:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_rounding_is_the_text_round_trip() {
        let mut seed = 0x6a09_e667_f3bc_c909u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut values = alloc::vec![0.0, -0.0, 0.03125, -0.03125, 0.5, 2.5, 1e-300, 4e11, 0.00005];
        for _ in 0..200_000 {
            let bits = rnd();
            let v = match bits % 5 {
                // Any double of moderate size.
                0 => f64::from_bits(bits >> 2) % 1e6,
                // Near decimals with few digits, a few ulps either side.
                1 => {
                    let d = (rnd() % 2_000_000) as f64 / [1e3, 1e4, 1e5, 1e6][(bits % 4) as usize];
                    let mut v = d - 1000.0;
                    for _ in 0..(rnd() % 4) {
                        v = if bits & 8 == 0 { v.next_up() } else { v.next_down() };
                    }
                    v
                }
                // Dyadic fractions: exact decimal ties such as 1/32 = 0.03125.
                2 => (rnd() % 100_000) as f64 / (1u64 << (rnd() % 40)) as f64 - 20.0,
                // Coverage-like ratios.
                3 => ((rnd() % 1000) as f64 * (rnd() % 700) as f64) / 700_000.0,
                _ => f64::from_bits(rnd()),
            };
            values.push(v);
        }
        let mut fast = 0;
        for v in values.into_iter().filter(|v| v.is_finite()) {
            for n in 0..=10 {
                if let Some(r) = round_exact(v, n) {
                    fast += 1;
                    let want = round_via_text(v, n);
                    assert_eq!(r.to_bits(), want.to_bits(), "round({v:e}, {n}): {r:e} vs {want:e}");
                }
            }
        }
        assert!(fast > 1_000_000, "the exact path is taken ({fast})");
    }

    #[test]
    fn exact_powers_of_ten_are_what_pow_gives() {
        for n in 0..=22 {
            let table = round_numpy(1.0, n);
            assert_eq!(
                table,
                libm::rint(libm::pow(10.0, f64::from(n))) / libm::pow(10.0, f64::from(n))
            );
            assert_eq!(
                alloc::format!("{:e}", libm::pow(10.0, f64::from(n))),
                alloc::format!("1e{n}")
            );
        }
    }

    #[test]
    fn float_repr_matches_python() {
        let cases: &[(f64, &str)] = &[
            (590.0, "590.0"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (-1e-5, "-1e-05"),
            (0.0001, "0.0001"),
            (0.1, "0.1"),
            (1.5e-7, "1.5e-07"),
            (1e100, "1e+100"),
            (123456789.125, "123456789.125"),
            (9999999999999998.0, "9999999999999998.0"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
            (-0.0, "-0.0"),
            (0.0625, "0.0625"),
            (2.5e-308, "2.5e-308"),
        ];
        for (x, want) in cases {
            assert_eq!(float_repr(*x), *want, "repr({x:?})");
        }
    }

    #[test]
    fn float_from_str_follows_python() {
        assert_eq!(float_from_str(" 35 "), Some(35.0));
        assert_eq!(float_from_str("1_000.5"), Some(1000.5));
        assert_eq!(float_from_str("-Infinity"), Some(f64::NEG_INFINITY));
        assert!(float_from_str("nan").is_some_and(f64::is_nan));
        assert_eq!(float_from_str(".5"), Some(0.5));
        assert_eq!(float_from_str("5."), Some(5.0));
        assert_eq!(float_from_str("1__0"), None);
        assert_eq!(float_from_str("_1"), None);
        assert_eq!(float_from_str("abc"), None);
        assert_eq!(float_from_str(""), None);
        assert_eq!(float_from_str("--1"), None);
        assert_eq!(float_from_str("0x10"), None);
    }

    #[test]
    fn two_roundings_differ_where_python_and_numpy_do() {
        assert_eq!(round_python(0.0625, 3), 0.062);
        assert_eq!(round_python(0.1875, 3), 0.188);
        // 0.9625 is stored just above the tie, so Python rounds up; numpy's 0.9625 * 1000 is
        // exactly 962.5, which rint sends to the even 962.
        assert_eq!(round_python(0.9625, 3), 0.963);
        assert_eq!(round_numpy(0.9625, 3), 0.962);
    }

    #[test]
    fn repr_of_values() {
        let v = PyValue::List(alloc::vec![
            PyValue::Str(String::from("a'b")),
            PyValue::Null,
            PyValue::Bool(true),
            PyValue::Float(1.0),
        ]);
        assert_eq!(py_repr(&v), "[\"a'b\", None, True, 1.0]");
        let d = PyValue::Dict(alloc::vec![(String::from("k"), PyValue::Int(-3))]);
        assert_eq!(py_str(&d), "{'k': -3}");
    }
}
