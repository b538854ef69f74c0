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

/// `n.toString(radix)` for `radix` in 2..=36, as V8 writes it (`DoubleToRadixCString`): the
/// integer part exactly, the fraction digit by digit up to the precision of `n`, rounded to even.
pub fn js_number_to_radix_string(n: f64, radix: u32) -> alloc::string::String {
    use alloc::string::String;
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let radix = radix.clamp(2, 36);
    if n.is_nan() {
        return String::from("NaN");
    }
    if n.is_infinite() {
        return String::from(if n > 0.0 { "Infinity" } else { "-Infinity" });
    }
    if radix == 10 {
        return js_number_to_string(n);
    }
    let r = f64::from(radix);
    let negative = n < 0.0;
    let value = if negative { -n } else { n };
    let mut integer = libm::floor(value);
    let mut fraction = value - integer;
    // Half the distance to the next double: digits beyond it are not represented.
    let next_up = f64::from_bits(value.to_bits() + 1);
    let mut delta = (0.5 * (next_up - value)).max(f64::from_bits(1));
    let mut frac: alloc::vec::Vec<u8> = alloc::vec::Vec::new();
    if fraction >= delta {
        loop {
            fraction *= r;
            delta *= r;
            let digit = fraction as usize;
            frac.push(digit as u8);
            fraction -= digit as f64;
            if (fraction > 0.5 || (fraction == 0.5 && digit & 1 == 1)) && fraction + delta > 1.0 {
                // Round up, carrying into earlier digits (and the integer part).
                loop {
                    match frac.pop() {
                        None => {
                            integer += 1.0;
                            break;
                        }
                        Some(d) if u32::from(d) + 1 < radix => {
                            frac.push(d + 1);
                            break;
                        }
                        Some(_) => {}
                    }
                }
                break;
            }
            if fraction < delta {
                break;
            }
        }
    }
    // Integer digits, least significant first; digits below the precision of a double are 0.
    let mut int_digits: alloc::vec::Vec<u8> = alloc::vec::Vec::new();
    while (integer / r) >= 9_007_199_254_740_992.0 {
        integer /= r;
        int_digits.push(b'0');
    }
    loop {
        let rem = integer % r;
        int_digits.push(DIGITS[rem as usize]);
        integer = (integer - rem) / r;
        if integer <= 0.0 {
            break;
        }
    }
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    out.extend(int_digits.iter().rev().map(|&b| char::from(b)));
    if !frac.is_empty() {
        out.push('.');
        out.extend(frac.iter().map(|&d| char::from(DIGITS[usize::from(d)])));
    }
    out
}

#[cfg(test)]
mod radix_tests {
    use super::js_number_to_radix_string as radix;

    /// Expected strings from Node 20 (`x.toString(16)`, `x.toString(2)`).
    #[test]
    fn matches_v8() {
        let cases: &[(f64, &str, &str)] = &[
            (255.0, "ff", "11111111"),
            (-1.0, "-1", "-1"),
            (0.5, "0.8", "0.1"),
            (
                1.0 / 3.0,
                "0.55555555555554",
                "0.010101010101010101010101010101010101010101010101010101",
            ),
            (16777215.5, "ffffff.8", "111111111111111111111111.1"),
            (
                1e21,
                "3635c9adc5dea00000",
                "1101100011010111001001101011011100010111011110101000000000000000000000",
            ),
            (0.1, "0.1999999999999a", "0.0001100110011001100110011001100110011001100110011001101"),
            (-16777215.75, "-ffffff.c", "-111111111111111111111111.11"),
            (
                123456789.123,
                "75bcd15.1f7ced8",
                "111010110111100110100010101.0001111101111100111011011",
            ),
            (
                1e-7,
                "0.000001ad7f29abcaf48",
                "0.0000000000000000000000011010110101111111001010011010101111001010111101001",
            ),
            (3.25, "3.4", "11.01"),
            (0.0, "0", "0"),
            (f64::NAN, "NaN", "NaN"),
        ];
        for &(x, hex, bin) in cases {
            assert_eq!(radix(x, 16), hex, "{x} in base 16");
            assert_eq!(radix(x, 2), bin, "{x} in base 2");
        }
        assert_eq!(radix(1152921504606848000.0, 16), "1000000000000400");
    }
}
