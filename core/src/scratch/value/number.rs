//! JavaScript number conversions: `Number(string)` (StringToNumber of ECMA-262, with its
//! whitespace set, `0x`/`0b`/`0o` literals and `Infinity`) and `Number.prototype.toString`
//! (shortest round-trip digits via `ryu-js`, `-0` printed as `0`).

/// True for the characters ECMA-262 `String.prototype.trim` removes (WhiteSpace and
/// LineTerminator).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// JavaScript `s.trim()`.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// JavaScript `Number(s)` for a string: NaN when `s` is not a numeric literal.
pub fn parse_js_number(s: &str) -> f64 {
    let t = js_trim(s);
    if t.is_empty() {
        return 0.0;
    }
    let b = t.as_bytes();
    if b.len() > 2 && b[0] == b'0' {
        let radix = match b[1] {
            b'x' | b'X' => 16,
            b'b' | b'B' => 2,
            b'o' | b'O' => 8,
            _ => 0,
        };
        if radix != 0 {
            return parse_radix(&t[2..], radix);
        }
    }
    let (sign, body) = match b[0] {
        b'+' => (1.0, &t[1..]),
        b'-' => (-1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body == "Infinity" {
        return sign * f64::INFINITY;
    }
    if !is_decimal_literal(body.as_bytes()) {
        return f64::NAN;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

/// Digits in `radix` (2, 8 or 16), no sign: the value, or NaN.
fn parse_radix(digits: &str, radix: u32) -> f64 {
    let mut v = 0.0f64;
    for c in digits.chars() {
        match c.to_digit(radix) {
            Some(d) => v = v * f64::from(radix) + f64::from(d),
            None => return f64::NAN,
        }
    }
    v
}

/// StrUnsignedDecimalLiteral: `digits [. digits] [e [+-] digits]` or `. digits [...]`.
fn is_decimal_literal(b: &[u8]) -> bool {
    let mut i = 0;
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - s;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    i == b.len()
}

/// A number formatted as JavaScript's `String(n)` does.
#[derive(Clone, Copy, Debug)]
pub struct JsNum(pub f64);

impl JsNum {
    /// Format into `buf` and return the text.
    pub fn as_str(self, buf: &mut ryu_js::Buffer) -> &str {
        let n = self.0;
        if n == 0.0 {
            return "0";
        }
        buf.format(n)
    }
}

/// `String(n)` as an owned string.
pub fn js_number_to_string(n: f64) -> alloc::string::String {
    let mut buf = ryu_js::Buffer::new();
    alloc::string::String::from(JsNum(n).as_str(&mut buf))
}

/// `n.toFixed(digits)` (digits ≤ 100).
pub fn js_to_fixed(n: f64, digits: u8) -> alloc::string::String {
    let mut buf = ryu_js::Buffer::new();
    alloc::string::String::from(buf.format_to_fixed(n, digits))
}
