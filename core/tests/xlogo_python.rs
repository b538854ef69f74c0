//! The strict Python-style parser: what it accepts, and the line/column of what it rejects.

use gobo::xlogo::{python, CodeError, PenColor, Program, Stmt};

fn ok(src: &str) -> Program {
    python::parse(src.as_bytes()).unwrap_or_else(|e| panic!("{src:?}: {e}"))
}

fn format_err(src: &str) -> (usize, usize, String) {
    match python::parse(src.as_bytes()) {
        Err(CodeError::Format { line, column, message }) => (line, column, message),
        other => panic!("{src:?}: expected a format error, got {other:?}"),
    }
}

#[test]
fn accepts_the_oracle_layout() {
    let p = ok("def run():\n    move_forward()\n    for i in range(3):\n        turn_left()\n    setpc('red')\n    setpc(None)\n    move_backward()\n    turn_right()");
    assert_eq!(
        p.run,
        vec![
            Stmt::Fd,
            Stmt::Repeat { times: 3, body: vec![Stmt::Lt] },
            Stmt::SetPc(Some(PenColor::Red)),
            Stmt::SetPc(None),
            Stmt::Bk,
            Stmt::Rt
        ]
    );
}

#[test]
fn accepts_python_variations() {
    let src = "# a comment\n\ndef run():  # trailing comment\r\n  for step in range( 2 ) :\r\n\r\n      setpc(\"blue\")\n      pass\n  move_forward( )\n";
    let p = ok(src);
    assert_eq!(
        p.run,
        vec![Stmt::Repeat { times: 2, body: vec![Stmt::SetPc(Some(PenColor::Blue))] }, Stmt::Fd]
    );
    assert_eq!(ok("\u{feff}def run():\n    pass").run, vec![]);
    // Dedent over several levels at once.
    let p = ok("def run():\n    for i in range(2):\n        for j in range(2):\n            move_forward()\n    turn_left()");
    assert_eq!(p.run.len(), 2);
}

#[test]
fn rejects_with_line_and_column() {
    assert_eq!(format_err("def main():\n    move_forward()").0, 1);
    let (l, c, _) = format_err("def run():\n    move_forward()\n    jump()");
    assert_eq!((l, c), (3, 5));
    let (l, c, _) = format_err("def run():\n    move_forward(1)");
    assert_eq!((l, c), (2, 18));
    let (l, _, m) = format_err("def run():\n\tmove_forward()");
    assert_eq!(l, 2);
    assert!(m.contains("tab"), "{m}");
    let (l, c, _) = format_err("def run():\n    move_forward()\n      turn_left()");
    assert_eq!((l, c), (3, 1));
    let (l, _, m) =
        format_err("def run():\n    for i in range(2):\n        turn_left()\n      turn_left()");
    assert_eq!(l, 4);
    assert!(m.contains("unindent"), "{m}");
    let (l, _, _) = format_err("def run():\n    move_forward()\nrun()");
    assert_eq!(l, 3);
    let (l, _, m) = format_err("def run():\n    for i in range(2):\n");
    assert_eq!(l, 2);
    assert!(m.contains("indented block"), "{m}");
    assert_eq!(format_err("def run():\n    for i in range(n):\n        pass").0, 2);
    assert_eq!(format_err("def run():\n    move_forward(); turn_left()").1, 19);
    assert_eq!(format_err("").0, 1);
    assert_eq!(format_err("move_forward()").0, 1);
    assert_eq!(format_err("def run():\n    setpc('red)").0, 2);
    assert_eq!(format_err("def run():\n    setpc()").0, 2);
    assert_eq!(format_err("def run():\n    for in in range(2):\n        pass").1, 9);
    assert_eq!(format_err("def run():\n    x = 1").0, 2);
    assert_eq!(format_err("def run():\n    for i in range(03):\n        pass").0, 2);
}

#[test]
fn non_ascii_and_non_utf8_bytes_are_format_errors_outside_comments() {
    assert!(python::parse("# ünïcode comment\ndef run():\n    pass".as_bytes()).is_ok());
    let (l, c, _) = format_err("def run():\n    mové()");
    assert_eq!((l, c), (2, 8));
    match python::parse(b"def run():\n    \xff\xfe") {
        Err(CodeError::Format { line: 2, column: 5, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn out_of_vocabulary_values_are_invalid_code_not_format_errors() {
    for src in [
        "def run():\n    for i in range(0):\n        pass",
        "def run():\n    for i in range(13):\n        pass",
        "def run():\n    for i in range(-1):\n        pass",
        "def run():\n    for i in range(99999999999999999999999):\n        pass",
        "def run():\n    setpc('orange')",
    ] {
        assert!(matches!(python::parse(src.as_bytes()), Err(CodeError::Invalid { .. })), "{src}");
    }
}
