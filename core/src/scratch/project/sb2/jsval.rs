//! The JavaScript operations scratch-vm's sb2 loader applies to values read from the file:
//! indexing (`block[i]` on arrays, strings and objects), `String(v)`, `Number(v)`, truthiness,
//! `StringUtil.replaceUnsafeChars`, `Color.decimalToHex` and `JSON.stringify`. `None` stands for
//! JavaScript `undefined` (a missing key or index).

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::super::json::Json;
use crate::scratch::value::number::{
    js_number_to_radix_string, js_number_to_string, parse_js_number,
};

/// `v[i]`: an array element, a string's UTF-16 code unit as a one-character string, an
/// object's property named `i`; `undefined` for everything else. `Err` for a code unit that
/// is half of a surrogate pair (not representable as a Rust string).
pub(super) fn at(v: &Json, i: usize) -> Result<Option<Cow<'_, Json>>, ()> {
    Ok(match v {
        Json::Array(items) => items.get(i).map(Cow::Borrowed),
        Json::Object(pairs) => {
            let key = i.to_string();
            pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| Cow::Borrowed(v))
        }
        Json::String(s) => {
            let mut unit = 0;
            for c in s.chars() {
                let n = c.len_utf16();
                if unit == i {
                    if n != 1 {
                        return Err(());
                    }
                    return Ok(Some(Cow::Owned(Json::String(c.to_string()))));
                }
                if unit + n > i {
                    return Err(());
                }
                unit += n;
            }
            None
        }
        _ => None,
    })
}

/// `typeof v === 'object' && v` (arrays and objects, not `null`).
pub(super) fn is_object(v: Option<&Json>) -> bool {
    matches!(v, Some(Json::Array(_) | Json::Object(_)))
}

/// `v === s` for a string `s`.
pub(super) fn is_str(v: Option<&Json>, s: &str) -> bool {
    matches!(v, Some(Json::String(t)) if t == s)
}

/// JavaScript truthiness.
pub(super) fn truthy(v: Option<&Json>) -> bool {
    match v {
        None | Some(Json::Null) => false,
        Some(Json::Bool(b)) => *b,
        Some(Json::Number(n)) => {
            let f = n.as_f64();
            f != 0.0 && !f.is_nan()
        }
        Some(Json::String(s)) => !s.is_empty(),
        Some(Json::Array(_) | Json::Object(_)) => true,
    }
}

/// `String(v)` (arrays join their elements with commas, `null` and `undefined` elements as "").
pub(super) fn to_string(v: Option<&Json>) -> String {
    match v {
        None => String::from("undefined"),
        Some(Json::Null) => String::from("null"),
        Some(Json::Bool(b)) => String::from(if *b { "true" } else { "false" }),
        Some(Json::Number(n)) => js_number_to_string(n.as_f64()),
        Some(Json::String(s)) => s.clone(),
        Some(Json::Object(_)) => String::from("[object Object]"),
        Some(Json::Array(items)) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| if matches!(i, Json::Null) { String::new() } else { to_string(Some(i)) })
                .collect();
            parts.join(",")
        }
    }
}

/// `Number(v)`.
pub(super) fn to_number(v: Option<&Json>) -> f64 {
    match v {
        None | Some(Json::Object(_)) => f64::NAN,
        Some(Json::Null) => 0.0,
        Some(Json::Bool(b)) => f64::from(u8::from(*b)),
        Some(Json::Number(n)) => n.as_f64(),
        Some(Json::String(s)) => parse_js_number(s),
        Some(a @ Json::Array(_)) => parse_js_number(&to_string(Some(a))),
    }
}

/// `StringUtil.replaceUnsafeChars(String(name))`: `<>&'"` become `lt gt amp apos quot`.
pub(super) fn replace_unsafe(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '<' => out.push_str("lt"),
            '>' => out.push_str("gt"),
            '&' => out.push_str("amp"),
            '\'' => out.push_str("apos"),
            '"' => out.push_str("quot"),
            c => out.push(c),
        }
    }
    out
}

/// `Color.decimalToHex(v)`: a Scratch 2 colour number as `#rrggbb` (negative numbers are
/// 24-bit two's complement; other values go through JavaScript's coercions as written).
pub(super) fn decimal_to_hex(v: Option<&Json>) -> String {
    // `if (decimal < 0) decimal += 0xFFFFFF + 1;` adds to numbers but appends to strings.
    let n = match v {
        Some(Json::String(_) | Json::Array(_)) => {
            let s = to_string(v);
            if parse_js_number(&s) < 0.0 {
                parse_js_number(&alloc::format!("{s}16777216"))
            } else {
                parse_js_number(&s)
            }
        }
        _ => {
            let n = to_number(v);
            if n < 0.0 {
                n + 16_777_216.0
            } else {
                n
            }
        }
    };
    let hex = js_number_to_radix_string(n, 16);
    let pad = 6usize.saturating_sub(hex.encode_utf16().count());
    let mut out = String::from("#");
    out.extend(core::iter::repeat_n('0', pad));
    out.push_str(&hex);
    out
}

/// `JSON.stringify(v)` (numbers as JavaScript prints them).
pub(super) fn stringify(v: &Json) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

fn write_json(v: &Json, out: &mut String) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => {
            let f = n.as_f64();
            if f.is_finite() {
                out.push_str(&js_number_to_string(f));
            } else {
                out.push_str("null");
            }
        }
        Json::String(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Json::Object(pairs) => {
            out.push('{');
            for (i, (k, item)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

/// Whether a property key is an array index (`"0"`, `"17"`, not `"01"` or `"-1"`): JavaScript
/// objects list such keys first, in ascending order, before the others in insertion order.
pub(super) fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|&n| n != u32::MAX)
}

/// A number as a JSON value the way `JSON.stringify` writes it: integers stay integers,
/// `NaN` and infinities become `null`.
pub(super) fn num_json(f: f64) -> Json {
    if !f.is_finite() {
        return Json::Null;
    }
    if f == libm::trunc(f) && f.abs() < 9.007_199_254_740_992e15 {
        // -0 prints as 0 in JSON.
        return Json::Number(super::super::json::Num::Int(f as i64));
    }
    Json::Number(super::super::json::Num::Float(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours() {
        let n = |x: i64| Json::Number(super::super::super::json::Num::Int(x));
        assert_eq!(decimal_to_hex(Some(&n(16711680))), "#ff0000");
        assert_eq!(decimal_to_hex(Some(&n(255))), "#0000ff");
        assert_eq!(decimal_to_hex(Some(&n(-16777216))), "#000000");
        assert_eq!(decimal_to_hex(Some(&n(-1))), "#ffffff");
        assert_eq!(decimal_to_hex(None), "#000NaN");
        assert_eq!(decimal_to_hex(Some(&Json::Null)), "#000000");
        assert_eq!(decimal_to_hex(Some(&Json::String("-5".into()))), "#-1ecd6500");
        assert_eq!(decimal_to_hex(Some(&Json::String("abc".into()))), "#000NaN");
        assert_eq!(decimal_to_hex(Some(&Json::Array(alloc::vec![n(3)]))), "#000003");
        assert_eq!(decimal_to_hex(Some(&Json::Bool(true))), "#000001");
        let f = Json::Number(super::super::super::json::Num::Float(12.5));
        assert_eq!(decimal_to_hex(Some(&f)), "#000c.8");
    }

    #[test]
    fn indexing_strings_by_utf16_units() {
        let s = Json::String("a\u{1F600}b".into());
        assert_eq!(at(&s, 0).unwrap().as_deref(), Some(&Json::String("a".into())));
        assert!(at(&s, 1).is_err());
        assert!(at(&s, 2).is_err());
        assert_eq!(at(&s, 3).unwrap().as_deref(), Some(&Json::String("b".into())));
        assert_eq!(at(&s, 4).unwrap(), None);
    }

    #[test]
    fn array_index_keys() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("42"), Some(42));
        assert_eq!(array_index("042"), None);
        assert_eq!(array_index("-1"), None);
        assert_eq!(array_index("4294967295"), None);
        assert_eq!(array_index("a1"), None);
    }
}
