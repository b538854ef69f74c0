//! The cast table: scratch-vm's own `test/unit/util_cast.js` expectations plus JavaScript's
//! `Number(string)` and `String(number)` behaviour (values checked against Node 20).
#![allow(clippy::approx_constant)] // 3.14 is scratch-vm's own test value, not pi.

use gobo::scratch::value::cast::{self, ListIndex};
use gobo::scratch::value::number::{js_number_to_string, parse_js_number};
use gobo::scratch::value::Value;

fn n(x: f64) -> Value {
    Value::Num(x)
}
fn s(x: &str) -> Value {
    Value::str(x)
}
fn b(x: bool) -> Value {
    Value::Bool(x)
}

#[test]
fn to_number_matches_util_cast() {
    let rows: &[(Value, f64)] = &[
        (n(0.0), 0.0),
        (n(1.0), 1.0),
        (n(3.14), 3.14),
        (s("0"), 0.0),
        (s("1"), 1.0),
        (s("3.14"), 3.14),
        (s("0.1e10"), 1_000_000_000.0),
        (s("foobar"), 0.0),
        (b(true), 1.0),
        (b(false), 0.0),
        (s("true"), 0.0),
        (s("false"), 0.0),
        (Value::Undefined, 0.0),
        (n(f64::NAN), 0.0),
    ];
    for (v, want) in rows {
        assert_eq!(cast::to_number(v), *want, "toNumber({v:?})");
    }
}

#[test]
fn js_number_parsing() {
    let rows: &[(&str, &str)] = &[
        ("", "0"),
        (" ", "0"),
        (" 12 ", "12"),
        ("0x1F", "31"),
        ("0b101", "5"),
        ("0o17", "15"),
        ("0X1f", "31"),
        ("-0x10", "NaN"),
        ("Infinity", "Infinity"),
        ("-Infinity", "-Infinity"),
        ("+Infinity", "Infinity"),
        ("infinity", "NaN"),
        ("1e5", "100000"),
        ("1e", "NaN"),
        (".5", "0.5"),
        ("5.", "5"),
        (".", "NaN"),
        ("+.5", "0.5"),
        ("1_000", "NaN"),
        ("\u{a0}12\u{3000}", "12"),
        ("12abc", "NaN"),
        ("0.1e10", "1000000000"),
        ("  -3.5e-2 ", "-0.035"),
        ("\n\t7\r", "7"),
        ("00012", "12"),
        ("-", "NaN"),
        ("+", "NaN"),
        ("1e+400", "Infinity"),
        ("0x", "NaN"),
        ("nan", "NaN"),
        ("inf", "NaN"),
    ];
    for (text, want) in rows {
        assert_eq!(js_number_to_string(parse_js_number(text)), *want, "Number({text:?})");
    }
}

#[test]
fn js_number_formatting() {
    let rows: &[(f64, &str)] = &[
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (-1.0, "-1"),
        (3.14, "3.14"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (123456789012345680000.0, "123456789012345680000"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (1.0 / 3.0, "0.3333333333333333"),
        (-2.5e-10, "-2.5e-10"),
        (1e20, "100000000000000000000"),
        (12345.6789, "12345.6789"),
        (9007199254740992.0, "9007199254740992"),
        (0.000001, "0.000001"),
        (1e301, "1e+301"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "Infinity"),
        (f64::NEG_INFINITY, "-Infinity"),
        (-1e-7, "-1e-7"),
    ];
    for (x, want) in rows {
        assert_eq!(js_number_to_string(*x), *want, "String({x:e})");
    }
}

#[test]
fn to_boolean_matches_util_cast() {
    let rows: &[(Value, bool)] = &[
        (n(0.0), false),
        (n(1.0), true),
        (n(3.14), true),
        (s("0"), false),
        (s("1"), true),
        (s("3.14"), true),
        (s("0.1e10"), true),
        (s("foobar"), true),
        (s("FaLsE"), false),
        (s(""), false),
        (b(true), true),
        (b(false), false),
        (Value::Undefined, false),
        (n(f64::NAN), false),
    ];
    for (v, want) in rows {
        assert_eq!(cast::to_bool(v), *want, "toBoolean({v:?})");
    }
}

#[test]
fn to_string_matches_util_cast() {
    let rows: &[(Value, &str)] = &[
        (n(0.0), "0"),
        (n(1.0), "1"),
        (n(3.14), "3.14"),
        (s("0.1e10"), "0.1e10"),
        (s("foobar"), "foobar"),
        (b(true), "true"),
        (b(false), "false"),
        (Value::Undefined, "undefined"),
    ];
    for (v, want) in rows {
        assert_eq!(&*cast::to_str_value(v), *want, "toString({v:?})");
    }
}

#[test]
fn compare_matches_util_cast() {
    let sign = |x: f64| x.partial_cmp(&0.0).map(|o| o as i32);
    let rows: &[(Value, Value, i32)] = &[
        (n(0.0), n(0.0), 0),
        (n(1.0), n(0.0), 1),
        (n(0.0), n(1.0), -1),
        (s("0"), s("0"), 0),
        (s("0.1e10"), s("1000000000"), 0),
        (s("foobar"), s("FOOBAR"), 0),
        (s("dog"), s("cat"), 1),
        (b(true), b(true), 0),
        (b(true), b(false), 1),
        (b(false), b(true), -1),
        (Value::Undefined, Value::Undefined, 0),
        (Value::Undefined, s("undefined"), 0),
        // Empty and whitespace strings are not zero.
        (s(""), n(0.0), -1),
        (n(0.0), s(" "), 1),
        (s(""), s(""), 0),
        (n(f64::INFINITY), s("Infinity"), 0),
        (n(f64::NEG_INFINITY), n(f64::NEG_INFINITY), 0),
        (s("10"), s("9"), 1),
        (s("10"), s("9a"), -1),
        (s("Ä"), s("ä"), 0),
    ];
    for (a, c, want) in rows {
        assert_eq!(sign(cast::compare(a, c)), Some(*want), "compare({a:?}, {c:?})");
    }
}

#[test]
fn is_int_matches_util_cast() {
    let rows: &[(Value, bool)] = &[
        (n(0.0), true),
        (n(1.0), true),
        (n(3.14), false),
        (n(f64::NAN), true),
        (n(1e21), false),
        (n(f64::INFINITY), false),
        (s("0"), true),
        (s("1"), true),
        (s("0.0"), false),
        (s("0.1e10"), false),
        (s("3.14"), false),
        (b(true), true),
        (b(false), true),
        (Value::Undefined, false),
    ];
    for (v, want) in rows {
        assert_eq!(cast::is_int(v), *want, "isInt({v:?})");
    }
}

#[test]
fn to_list_index_matches_util_cast() {
    let no_rand = || -> f64 { panic!("no draw expected") };
    assert_eq!(cast::to_list_index(&n(1.0), 6, false, no_rand), ListIndex::At(1));
    assert_eq!(cast::to_list_index(&n(6.0), 6, false, no_rand), ListIndex::At(6));
    assert_eq!(cast::to_list_index(&n(6.9), 6, false, no_rand), ListIndex::At(6));
    for bad in [-1.0, 0.1, 0.0, 7.0] {
        assert_eq!(cast::to_list_index(&n(bad), 6, false, no_rand), ListIndex::Invalid);
    }
    assert_eq!(cast::to_list_index(&s("all"), 6, true, no_rand), ListIndex::All);
    assert_eq!(cast::to_list_index(&s("all"), 6, false, no_rand), ListIndex::Invalid);
    assert_eq!(cast::to_list_index(&s("last"), 6, false, no_rand), ListIndex::At(6));
    assert_eq!(cast::to_list_index(&s("last"), 0, false, no_rand), ListIndex::Invalid);
    assert_eq!(cast::to_list_index(&s("random"), 6, false, || 0.0), ListIndex::At(1));
    assert_eq!(cast::to_list_index(&s("any"), 6, false, || 0.99), ListIndex::At(6));
    assert_eq!(cast::to_list_index(&s("random"), 0, false, no_rand), ListIndex::Invalid);
    assert_eq!(cast::to_list_index(&s(" 2 "), 6, false, no_rand), ListIndex::At(2));
}
