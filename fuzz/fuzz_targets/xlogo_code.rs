//! Both code parsers on arbitrary bytes, with differential identities: a program that parses
//! prints to Python that parses back to the same AST, and survives a JSON AST round trip.
#![no_main]

use gobo::xlogo::{code_json, print, python, Program};
use libfuzzer_sys::fuzz_target;

fn round_trips(program: &Program) {
    let src = print::to_python(program);
    assert_eq!(python::parse(src.as_bytes()).as_ref(), Ok(program), "python round trip: {src}");
    let json = code_json::to_value(program);
    assert_eq!(code_json::parse_value(&json).as_ref(), Ok(program), "json round trip: {json}");
}

fuzz_target!(|data: &[u8]| {
    if let Ok(program) = python::parse(data) {
        round_trips(&program);
    }
    if let Ok(program) = code_json::parse_bytes(data) {
        round_trips(&program);
    }
});
