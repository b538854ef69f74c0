//! The block catalog covers every opcode `docs/scratch-blocks.md` lists (the opcodes
//! scratch-vm 5.0.300 runs with the extensions gobo knows), with shapes that agree with how
//! the compiler treats them.

use gobo::scratch::catalog::{self, Shape};

#[test]
fn every_documented_opcode_is_in_the_catalog() {
    let doc = include_str!("../../docs/scratch-blocks.md");
    let mut missing = Vec::new();
    let mut seen = 0;
    for line in doc.lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(op) =
            cols.get(2).and_then(|c| c.strip_prefix('`')).and_then(|c| c.strip_suffix('`'))
        else {
            continue;
        };
        if !op.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || !op.contains('_') {
            continue;
        }
        seen += 1;
        if catalog::lookup(op).is_none() {
            missing.push(op.to_string());
        }
    }
    assert!(seen > 150, "the docs table was not found ({seen} opcodes)");
    assert!(missing.is_empty(), "not in the catalog: {missing:?}");
}

#[test]
fn shapes_of_well_known_blocks() {
    let shape = |op| catalog::lookup(op).map(|b| b.shape);
    assert_eq!(shape("event_whenflagclicked"), Some(Shape::Hat));
    assert_eq!(shape("control_forever"), Some(Shape::Cap));
    assert_eq!(shape("operator_lt"), Some(Shape::Boolean));
    assert_eq!(shape("motion_xposition"), Some(Shape::Reporter));
    assert_eq!(shape("math_number"), Some(Shape::Menu));
    let repeat = catalog::lookup("control_repeat").unwrap();
    assert!(repeat.is_c_block() && repeat.has_next() && repeat.has_previous());
    assert_eq!(catalog::extension_of("pen_clear"), Some("pen"));
    assert_eq!(catalog::extension_of("wedo2_motorOn"), Some("wedo2"));
    assert_eq!(catalog::extension_of("motion_movesteps"), None);
    assert!(catalog::stop_has_next("other scripts in sprite"));
    assert!(!catalog::stop_has_next("all"));
}
