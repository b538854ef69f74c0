//! Computing an answer from a question's text with the closed set of [`AnswerFn`]s.

use alloc::string::String;
use alloc::vec::Vec;

use super::model::{AnswerFn, Reply};
use crate::scratch::value::number::{js_number_to_string, parse_js_number};

/// The numbers written in `text`: optional sign, digits, optional fraction (`-3`, `4.5`).
/// A `-` counts as a sign only when it does not follow a digit ("7-2" holds 7 and 2).
pub fn numbers_in(text: &str) -> Vec<f64> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let neg = b[i] == b'-'
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
            && (i == 0 || !b[i - 1].is_ascii_digit());
        if b[i].is_ascii_digit() || neg {
            let start = i;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            out.push(parse_js_number(&text[start..i]));
        } else {
            i += 1;
        }
    }
    out
}

/// The reply's text for question `q`.
pub fn answer_text(reply: &Reply, q: &str) -> String {
    let f = match reply {
        Reply::Text(t) => return t.clone(),
        Reply::Compute(f) => *f,
    };
    let nums = numbers_in(q);
    let fold = |init: Option<f64>, op: fn(f64, f64) -> f64| -> String {
        let mut it = nums.iter().copied();
        let first = init.or_else(|| it.next());
        match first {
            None => String::new(),
            Some(a) => js_number_to_string(it.fold(a, op)),
        }
    };
    match f {
        AnswerFn::Echo => String::from(q),
        AnswerFn::Sum => fold(Some(0.0), |a, b| a + b),
        AnswerFn::Difference => fold(None, |a, b| a - b),
        AnswerFn::Product => fold(Some(1.0), |a, b| a * b),
        AnswerFn::Quotient => fold(None, |a, b| a / b),
        AnswerFn::Max => fold(None, f64::max),
        AnswerFn::Min => fold(None, f64::min),
        AnswerFn::Count => js_number_to_string(nums.len() as f64),
        AnswerFn::Reverse => q.chars().rev().collect(),
        AnswerFn::Upper => q.to_uppercase(),
        AnswerFn::Lower => q.to_lowercase(),
        AnswerFn::Length => js_number_to_string(q.encode_utf16().count() as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_from_the_question() {
        let c = |f, q| answer_text(&Reply::Compute(f), q);
        assert_eq!(c(AnswerFn::Sum, "What is 3 + 4?"), "7");
        assert_eq!(c(AnswerFn::Sum, "What is -3 + 4.5?"), "1.5");
        assert_eq!(c(AnswerFn::Difference, "7-2"), "5");
        assert_eq!(c(AnswerFn::Product, "6 times 7"), "42");
        assert_eq!(c(AnswerFn::Quotient, "1 / 4"), "0.25");
        assert_eq!(c(AnswerFn::Max, "2, 9, 4"), "9");
        assert_eq!(c(AnswerFn::Min, "2, 9, 4"), "2");
        assert_eq!(c(AnswerFn::Count, "2, 9, 4"), "3");
        assert_eq!(c(AnswerFn::Sum, "no numbers"), "0");
        assert_eq!(c(AnswerFn::Max, "no numbers"), "");
        assert_eq!(c(AnswerFn::Reverse, "abc"), "cba");
        assert_eq!(c(AnswerFn::Upper, "abc"), "ABC");
        assert_eq!(c(AnswerFn::Lower, "AbC"), "abc");
        assert_eq!(c(AnswerFn::Length, "héllo"), "5");
        assert_eq!(c(AnswerFn::Echo, "hi?"), "hi?");
    }
}
