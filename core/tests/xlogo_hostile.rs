//! Hostile inputs: huge repeat counts, deep nesting, enormous grids, unknown commands,
//! non-UTF-8 and random bytes give typed errors or verdicts, never a panic or a hang.

use gobo::xlogo::{
    code_json, evaluate_bytes, load, python, CodeError, CodeInput, ErrorType, TaskErrorKind,
};

const TASK: &str = r#"{"turtle":{"x":1,"y":1,"direction":0},
 "tiles":[{"x":0,"y":0,"allowed":true,"walls":{}},{"x":1,"y":0,"allowed":true,"walls":{}},
          {"x":0,"y":1,"allowed":true,"walls":{}},{"x":1,"y":1,"allowed":true,"walls":{}}],
 "items":[],"lines":[],"goal":[],"constraints":[]}"#;

fn eval_json(code: &str) -> ErrorType {
    evaluate_bytes(TASK.as_bytes(), CodeInput::Json(code.as_bytes())).expect("task").error_type
}

#[test]
fn huge_and_malformed_repeat_counts_are_invalid_code() {
    for times in ["0", "13", "-1", "1e30", "18446744073709551616", "2.0", "\"2\"", "null", "false"]
    {
        let code = format!(r#"{{"run":[{{"type":"repeat","times":{times},"body":[]}}]}}"#);
        assert_eq!(eval_json(&code), ErrorType::InvalidCode, "times {times}");
    }
    // Python's isinstance(True, int): `true` repeats once.
    let code = r#"{"run":[{"type":"repeat","times":true,"body":[{"type":"lt"}]}]}"#;
    assert_eq!(eval_json(code), ErrorType::Ok);
}

#[test]
fn deep_nesting_is_rejected_or_bounded() {
    let mut code = String::from(r#"{"run":["#);
    for _ in 0..300 {
        code.push_str(r#"{"type":"repeat","times":12,"body":["#);
    }
    code.push_str(&"]}".repeat(300));
    code.push_str("]}");
    assert_eq!(eval_json(&code), ErrorType::InvalidCode);
    let mut src = String::from("def run():\n");
    for d in 1..200 {
        src.push_str(&"    ".repeat(d));
        src.push_str("for i in range(12):\n");
    }
    src.push_str(&"    ".repeat(200));
    src.push_str("turn_left()\n");
    assert!(matches!(python::parse(src.as_bytes()), Err(CodeError::Format { .. })));
}

#[test]
fn nested_loops_hit_the_action_cap_quickly() {
    let mut code = String::from(r#"{"run":["#);
    for _ in 0..30 {
        code.push_str(r#"{"type":"repeat","times":12,"body":["#);
    }
    code.push_str(r#"{"type":"lt"}"#);
    code.push_str(&"]}".repeat(30));
    code.push_str("]}");
    assert_eq!(eval_json(&code), ErrorType::CrashExceedMaxCalls);
}

#[test]
fn unknown_commands_are_typed() {
    assert_eq!(eval_json(r#"{"run":[{"type":"jump"}]}"#), ErrorType::InvalidCode);
    assert_eq!(eval_json(r#"{"run":[{"type":"cursor"}]}"#), ErrorType::InvalidCode);
    assert_eq!(eval_json(r#"{"run":[],"extra":1}"#), ErrorType::InvalidCode);
    assert_eq!(eval_json(r#"[1,2]"#), ErrorType::InvalidCode);
    assert_eq!(eval_json("not json"), ErrorType::InvalidCode);
    let v =
        evaluate_bytes(TASK.as_bytes(), CodeInput::Python(b"def run():\n    fly()")).expect("task");
    assert_eq!(v.error_type, ErrorType::FormatError);
    assert!(v.error.as_deref().is_some_and(|e| e.contains("line 2")), "{:?}", v.error);
}

#[test]
fn enormous_or_malformed_grids_are_task_errors_with_paths() {
    let big = TASK.replace(r#"{"x":1,"y":1,"allowed""#, r#"{"x":1000000000,"y":1,"allowed""#);
    let e = load::task_from_slice(big.as_bytes()).expect_err("too large");
    assert!(matches!(e.kind, TaskErrorKind::TooLarge { .. }), "{e}");
    assert_eq!(e.path, "$.tiles[3].x");
    let neg = TASK.replace(r#""direction":0"#, r#""direction":7"#);
    assert_eq!(load::task_from_slice(neg.as_bytes()).expect_err("dir").path, "$.turtle.direction");
    let outside = TASK.replace(r#""turtle":{"x":1"#, r#""turtle":{"x":5"#);
    assert_eq!(load::task_from_slice(outside.as_bytes()).expect_err("start").path, "$.turtle");
    let house = TASK.replace(
        r#""items":[]"#,
        r#""items":[{"x":0,"y":0,"name":"house","color":"red","count":1}]"#,
    );
    assert_eq!(load::task_from_slice(house.as_bytes()).expect_err("house").path, "$.items[0].name");
    let e = load::task_from_slice(b"{\"tiles\": [}").expect_err("syntax");
    assert!(matches!(e.kind, TaskErrorKind::Syntax { line: 1, .. }), "{e}");
    assert!(load::task_from_slice(b"\xff\xfe\x00").is_err());
    let no_tiles = TASK.replace(r#""tiles":["#, r#""tiles":[],"x":["#);
    assert!(load::task_from_slice(no_tiles.as_bytes()).is_err());
    let goal = TASK.replace(
        r#""goal":[]"#,
        r#""goal":[{"name":"find","specs":[[[{"name":"house","neg":0}]]]}]"#,
    );
    assert_eq!(
        load::task_from_slice(goal.as_bytes()).expect_err("literal").path,
        "$.goal[0].specs[0][0][0].name"
    );
}

/// xorshift64*: deterministic pseudo-random bytes.
fn bytes(seed: &mut u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            alphabet[(*seed % alphabet.len() as u64) as usize]
        })
        .collect()
}

#[test]
fn random_inputs_never_panic() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let py_alphabet =
        b"def run():\n    move_forward()turn_left\tfor i in range(12)setpc('red')pass#\xff\r ";
    let json_alphabet = b"{}[]\":,0123456789-.etruanlfsxy \ntypeutimesbodyrunrepeatfdlt";
    let all: Vec<u8> = (0..=255).collect();
    for _ in 0..3000 {
        let len = (seed % 120) as usize;
        let src = bytes(&mut seed, len, py_alphabet);
        let _ = python::parse(&src);
        let src = bytes(&mut seed, len, json_alphabet);
        let _ = code_json::parse_bytes(&src);
        let _ = load::task_from_slice(&src);
        let src = bytes(&mut seed, len, &all);
        let _ = python::parse(&src);
        let _ = evaluate_bytes(TASK.as_bytes(), CodeInput::Python(&src));
    }
}
