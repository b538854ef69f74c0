//! How the browser turns the values an agent sees and sends into text: JavaScript truthiness,
//! `String(v)`, `JSON.stringify(v)` of field values, and the body of a single-quoted string
//! literal (ScratchWorld pastes some arguments into page scripts as `'...'`).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use crate::scratch::project::{Literal, Num};
use crate::scratch::value::number::js_number_to_string;

/// A project literal as a JavaScript value.
pub fn literal_truthy(v: &Literal) -> bool {
    match v {
        Literal::Number(n) => {
            let f = n.as_f64();
            f != 0.0 && !f.is_nan()
        }
        Literal::Text(s) => !s.is_empty(),
        Literal::Bool(b) => *b,
        Literal::Null => false,
    }
}

/// `String(v)` of a project literal.
pub fn literal_string(v: &Literal) -> String {
    match v {
        Literal::Number(n) => num_string(*n),
        Literal::Text(s) => s.clone(),
        Literal::Bool(b) => String::from(if *b { "true" } else { "false" }),
        Literal::Null => String::from("null"),
    }
}

/// `JSON.stringify(v)` of a project literal.
pub fn literal_json(v: &Literal) -> String {
    match v {
        Literal::Text(s) => json_string(s),
        Literal::Number(n) => {
            let f = n.as_f64();
            if f.is_finite() {
                num_string(*n)
            } else {
                String::from("null")
            }
        }
        other => literal_string(other),
    }
}

/// `String(n)` of a JSON number.
pub fn num_string(n: Num) -> String {
    match n {
        Num::Int(i) if i.unsigned_abs() < (1 << 53) => alloc::format!("{i}"),
        n => js_number_to_string(n.as_f64()),
    }
}

/// A string as `JSON.stringify` writes it (the same escapes as serde_json for valid UTF-8).
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// [`json_string`] appended to `out`: a string without a quote, a backslash or a control
/// character is copied between quotes; any other is escaped by serde_json as there.
pub fn write_json_string(out: &mut String, s: &str) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&json_string(s));
    } else {
        out.push('"');
        out.push_str(s);
        out.push('"');
    }
}

/// [`literal_string`] appended to `out`.
pub fn write_literal_string(out: &mut String, v: &Literal) {
    match v {
        Literal::Number(n) => write_num(out, *n),
        Literal::Text(s) => out.push_str(s),
        Literal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Literal::Null => out.push_str("null"),
    }
}

/// [`literal_json`] appended to `out`.
pub fn write_literal_json(out: &mut String, v: &Literal) {
    match v {
        Literal::Text(s) => write_json_string(out, s),
        Literal::Number(n) if !n.as_f64().is_finite() => out.push_str("null"),
        other => write_literal_string(out, other),
    }
}

/// [`num_string`] appended to `out`.
fn write_num(out: &mut String, n: Num) {
    match n {
        Num::Int(i) if i.unsigned_abs() < (1 << 53) => {
            let _ = core::fmt::Write::write_fmt(out, format_args!("{i}"));
        }
        n => out.push_str(&js_number_to_string(n.as_f64())),
    }
}

/// `String(v)` of an action argument (arrays join their items with commas, objects are
/// `[object Object]`).
pub fn value_string(v: &Value) -> String {
    match v {
        Value::Null => String::from("null"),
        Value::Bool(b) => String::from(if *b { "true" } else { "false" }),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if i.unsigned_abs() < (1 << 53) => alloc::format!("{i}"),
            (_, Some(f)) => js_number_to_string(f),
            _ => String::from("NaN"),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| match i {
                    Value::Null => String::new(),
                    other => value_string(other),
                })
                .collect();
            parts.join(",")
        }
        Value::Object(_) => String::from("[object Object]"),
    }
}

/// What a page script sees of `s` pasted between single quotes, or `None` when the pasted
/// text is not a valid string literal (a quote, a line break or a bad escape in `s`).
pub fn single_quoted(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '\n' | '\r' | '\u{2028}' | '\u{2029}' => return None,
            '\\' => {
                let e = chars.next()?;
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'v' => out.push('\u{b}'),
                    '0' if !chars.peek().is_some_and(|c| c.is_ascii_digit()) => out.push('\0'),
                    '1'..='9' | '0' => return None,
                    'x' => {
                        let h: String = [chars.next()?, chars.next()?].iter().collect();
                        out.push(char::from_u32(u32::from_str_radix(&h, 16).ok()?)?);
                    }
                    'u' => out.push(unicode_escape(&mut chars)?),
                    '\n' | '\u{2028}' | '\u{2029}' => {}
                    '\r' => {
                        if chars.peek() == Some(&'\n') {
                            chars.next();
                        }
                    }
                    other => out.push(other),
                }
            }
            c => out.push(c),
        }
    }
    Some(out)
}

fn unicode_escape(chars: &mut core::iter::Peekable<core::str::Chars<'_>>) -> Option<char> {
    let code = if chars.peek() == Some(&'{') {
        chars.next();
        let mut h = String::new();
        loop {
            match chars.next()? {
                '}' => break,
                c if c.is_ascii_hexdigit() && h.len() < 8 => h.push(c),
                _ => return None,
            }
        }
        u32::from_str_radix(&h, 16).ok()?
    } else {
        let h: String =
            [chars.next()?, chars.next()?, chars.next()?, chars.next()?].iter().collect();
        u32::from_str_radix(&h, 16).ok()?
    };
    // A lone surrogate is a valid JavaScript string but not a Rust one: the replacement
    // character stands in for it.
    Some(char::from_u32(code).unwrap_or('\u{fffd}'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_as_javascript_writes_them() {
        assert_eq!(value_string(&serde_json::json!(1.5)), "1.5");
        assert_eq!(value_string(&serde_json::json!(1e21)), "1e+21");
        assert_eq!(value_string(&serde_json::json!([1, null, "a"])), "1,,a");
        assert_eq!(value_string(&serde_json::json!({"a": 1})), "[object Object]");
        assert_eq!(literal_json(&Literal::Number(Num::Float(0.5))), "0.5");
        assert_eq!(json_string("a\"b\n"), "\"a\\\"b\\n\"");
    }

    #[test]
    fn the_writers_write_what_the_functions_return() {
        let lits = [
            Literal::Number(Num::Int(12)),
            Literal::Number(Num::Int(1 << 60)),
            Literal::Number(Num::Float(0.1)),
            Literal::Number(Num::Float(f64::INFINITY)),
            Literal::Text("plain".into()),
            Literal::Text("q\"\\\u{1}\t\u{7f}\u{2028}é".into()),
            Literal::Text(String::new()),
            Literal::Bool(true),
            Literal::Null,
        ];
        for l in &lits {
            let mut out = String::from(">");
            write_literal_string(&mut out, l);
            assert_eq!(out[1..], literal_string(l), "{l:?}");
            let mut out = String::from(">");
            write_literal_json(&mut out, l);
            assert_eq!(out[1..], literal_json(l), "{l:?}");
        }
    }

    #[test]
    fn single_quoted_literals() {
        assert_eq!(single_quoted("Sprite1").as_deref(), Some("Sprite1"));
        assert_eq!(single_quoted("a\\tb").as_deref(), Some("a\tb"));
        assert_eq!(single_quoted("it's"), None);
        assert_eq!(single_quoted("a\\"), None);
        assert_eq!(single_quoted("\\u0041\\x42").as_deref(), Some("AB"));
    }
}
