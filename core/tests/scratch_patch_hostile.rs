//! Hostile block-edit patches (a million edits, non-UTF-8, deep nesting, huge values, targets,
//! blocks and paths that do not exist, a move into itself) get typed errors and leave the
//! project unchanged.

use gobo::scratch::project::patch::{
    apply_block_edits, parse_block_edits, ErrorCode, PatchOptions,
};
use gobo::scratch::project::{load, save, Project};
use serde_json::{json, Value};

fn project(path: &str) -> Project {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    load(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn code(patch: &[u8], max_edits: usize) -> ErrorCode {
    let base = project("tests/fixtures/edit/base.json");
    let opts = PatchOptions { max_edits, ..PatchOptions::default() };
    let edits = match parse_block_edits(patch, max_edits) {
        Ok(e) => e,
        Err(e) => return e.code,
    };
    let mut p = base.clone();
    let e = apply_block_edits(&mut p, &edits, &opts).expect_err("a hostile patch fails");
    assert!(save(&p) == save(&base), "a failed patch changed the project");
    e.code
}

#[test]
fn hostile_patches_get_typed_errors() {
    let edit = r#"{"op":"remove","sprite_id":"Cat","block_id":"l"},"#;
    let million = format!("[{}{{}}]", edit.repeat(1_000_000));
    assert_eq!(code(million.as_bytes(), 10_000), ErrorCode::Budget);
    assert_eq!(code(b"[{\"op\":\"add\",\"sprite_id\":\"C\xffat\"}]", 10), ErrorCode::Schema);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(code(deep.as_bytes(), 10), ErrorCode::Schema);
    let at = |patch: Value| code(patch.to_string().as_bytes(), 10);
    assert_eq!(
        at(json!({"op": "remove", "sprite_id": "#99999", "block_id": "a"})),
        ErrorCode::UnknownTarget
    );
    assert_eq!(
        at(json!({"op": "remove", "sprite_id": "Cat", "block_id": "nowhere"})),
        ErrorCode::UnknownBlock
    );
    assert_eq!(
        at(
            json!({"op": "modify", "sprite_id": "Cat", "block_id": "a", "path": "inputs/NOPE", "value": 1})
        ),
        ErrorCode::UnknownPath
    );
    // Moving a C-block into its own slot.
    assert_eq!(
        at(
            json!({"op": "modify", "sprite_id": "Cat", "block_id": "c", "path": "inputs/SUBSTACK/block", "value": "c"})
        ),
        ErrorCode::Cycle
    );
    // Huge values are values: a 1 MiB literal and 1e308 apply and round-trip.
    let mut p = project("tests/fixtures/edit/base.json");
    for v in [json!("x".repeat(1 << 20)), json!(1e308), json!(-0.0)] {
        let patch = json!({"op": "modify", "sprite_id": "Cat", "block_id": "a", "path": "inputs/STEPS", "value": v});
        let edits = parse_block_edits(patch.to_string().as_bytes(), 10).unwrap();
        apply_block_edits(&mut p, &edits, &PatchOptions::default()).unwrap();
        assert!(load(&save(&p)).is_ok());
    }
}
