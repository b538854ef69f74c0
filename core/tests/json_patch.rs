//! RFC 6902 JSON Patch (`gobo::json_patch`): every enabled record of the json-patch-tests
//! conformance suite (`../shared/json-patch-tests`, 108 records: the result or the failure
//! must match), plus hostile patches: limits on operations, depth and size, atomicity.

use std::path::{Path, PathBuf};

use gobo::json_patch::{self, ErrorKind, Limits};
use gobo::scratch::project::Json;

fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GOBO_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.is_dir().then_some(dir)
}

fn parse(text: &str) -> Json {
    Json::parse(text.as_bytes()).unwrap()
}

#[test]
fn conformance_suite() {
    let Some(shared) = shared_dir() else {
        println!("skipped: ../shared is absent");
        return;
    };
    let mut run = 0;
    let mut failures = Vec::new();
    for file in ["tests.json", "spec_tests.json"] {
        let text = std::fs::read(shared.join("json-patch-tests").join(file)).expect("suite file");
        let Json::Array(records) = Json::parse(&text).unwrap() else {
            panic!("{file}: not an array")
        };
        for (n, rec) in records.iter().enumerate() {
            if matches!(rec.get("disabled"), Some(Json::Bool(true))) {
                continue;
            }
            let (Some(doc), Some(patch)) = (rec.get("doc"), rec.get("patch")) else { continue };
            run += 1;
            let name = format!("{file}[{n}] {:?}", rec.get("comment").or(rec.get("error")));
            let mut doc = doc.clone();
            let result = json_patch::apply_json(&mut doc, patch, &Limits::default());
            match (rec.get("expected"), rec.get("error"), result) {
                (Some(want), _, Ok(())) if !json_patch::json_eq(&doc, want) => {
                    failures
                        .push(format!("{name}: got {}", String::from_utf8_lossy(&doc.to_bytes())));
                }
                (Some(_), _, Err(e)) => failures.push(format!("{name}: failed: {e}")),
                (None, Some(_), Ok(())) => failures.push(format!("{name}: should fail")),
                // A failed patch leaves the document unchanged.
                (None, Some(_), Err(_)) if !json_patch::json_eq(&doc, rec.get("doc").unwrap()) => {
                    failures.push(format!("{name}: failed but changed the document"));
                }
                _ => {}
            }
        }
    }
    assert_eq!(run, 108, "enabled records");
    assert!(failures.is_empty(), "{} of {run} failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn pointer_escapes_and_key_order() {
    let mut doc = parse(r#"{"b":1,"a/b":2,"m~n":3}"#);
    let patch = parse(
        r#"[{"op":"replace","path":"/a~1b","value":20},{"op":"add","path":"/m~0n","value":30},{"op":"add","path":"/c","value":4}]"#,
    );
    json_patch::apply_json(&mut doc, &patch, &Limits::default()).unwrap();
    assert_eq!(String::from_utf8(doc.to_bytes()).unwrap(), r#"{"b":1,"a/b":20,"m~n":30,"c":4}"#);
    let bad = parse(r#"[{"op":"add","path":"/x~2","value":1}]"#);
    assert_eq!(
        json_patch::apply_json(&mut doc, &bad, &Limits::default()).unwrap_err().kind,
        ErrorKind::BadPointer
    );
}

#[test]
fn doubling_copies_hit_the_size_limit_in_bounded_time() {
    let mut doc = parse(r#"{"a":[1,2,3,4,5,6,7,8]}"#);
    let mut ops = String::from("[");
    for i in 0..200 {
        if i > 0 {
            ops.push(',');
        }
        ops.push_str(r#"{"op":"copy","from":"/a","path":"/a/-"}"#);
    }
    ops.push(']');
    let patch = parse(&ops);
    let start = std::time::Instant::now();
    let e = json_patch::apply_json(&mut doc, &patch, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    assert!(start.elapsed().as_secs() < 10);
    assert_eq!(
        String::from_utf8(doc.to_bytes()).unwrap(),
        r#"{"a":[1,2,3,4,5,6,7,8]}"#,
        "unchanged"
    );
}

#[test]
fn nesting_by_copy_hits_the_depth_limit() {
    let mut doc = parse(r#"{"a":{"b":{}}}"#);
    let mut ops = String::from("[");
    for i in 0..100 {
        if i > 0 {
            ops.push(',');
        }
        ops.push_str(r#"{"op":"copy","from":"/a","path":"/a/b/c"}"#);
    }
    ops.push(']');
    let e = json_patch::apply_json(&mut doc, &parse(&ops), &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
}

#[test]
fn a_million_operations_are_refused_before_applying() {
    let mut ops = String::from("[");
    for i in 0..1_000_000 {
        if i > 0 {
            ops.push(',');
        }
        ops.push_str(r#"{"op":"test","path":"","value":1}"#);
    }
    ops.push(']');
    let patch = parse(&ops);
    let mut doc = parse("1");
    let e = json_patch::apply_json(&mut doc, &patch, &Limits::default()).unwrap_err();
    assert_eq!((e.kind, e.index), (ErrorKind::Limit, None), "{e}");
}

#[test]
fn move_into_own_child_is_refused() {
    let mut doc = parse(r#"{"a":{"b":1}}"#);
    let e = json_patch::apply_json(
        &mut doc,
        &parse(r#"[{"op":"move","from":"/a","path":"/a/b/c"}]"#),
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::MoveIntoChild);
}

mod profile {
    //! gobo's profile for project.json (SPEC §3.5): extraction from a model's reply,
    //! normalization, the budget, and each failure stage.

    use gobo::scratch::project::json_patch::{apply_text, Profile, Stage};

    const BASE: &[u8] = include_bytes!("fixtures/edit/base.json");

    fn fails(patch: &str) -> (Stage, Option<usize>, String) {
        let f = apply_text(BASE, patch.as_bytes(), &Profile::default()).unwrap_err();
        (f.stage, f.index, f.code)
    }

    #[test]
    fn a_fenced_reply_is_extracted_normalized_and_applied() {
        let reply = "Here is the fix:\n```json\n[{\"op\":\"REPLACE\",\"path\":\"targets/@Cat/blocks/a/inputs/STEPS/1/1\",\"value\":\"20\",\"why\":\"faster\"}]\n```\nDone.";
        let out = apply_text(BASE, reply.as_bytes(), &Profile::default()).unwrap();
        assert_eq!(out.ops, 1);
        let steps: Vec<&str> = out.normalized.iter().map(|s| s.step).collect();
        assert_eq!(steps, ["drop_unknown", "lowercase_op", "leading_slash", "target_name"]);
        let v: serde_json::Value = serde_json::from_slice(&out.project_json).unwrap();
        assert_eq!(v["targets"][1]["blocks"]["a"]["inputs"]["STEPS"][1][1], "20");
        // Only that value changed: the rest of the file keeps its keys and their order.
        let want = gobo::scratch::project::Json::parse(BASE).unwrap().to_bytes();
        assert_ne!(out.project_json, want);
        let undo =
            r#"[{"op":"replace","path":"/targets/1/blocks/a/inputs/STEPS/1/1","value":"10"}]"#;
        let back = apply_text(&out.project_json, undo.as_bytes(), &Profile::default()).unwrap();
        assert_eq!(back.project_json, want);
    }

    #[test]
    fn each_failure_stage_is_named() {
        assert_eq!(fails("no patch here"), (Stage::Extract, None, "no_json".into()));
        assert_eq!(fails(r#"{"op":"add"}"#), (Stage::Schema, None, "not_a_patch".into()));
        assert_eq!(
            fails(r#"[{"op":"test","path":"/meta"},{"op":"frobnicate","path":"/x"}]"#).0,
            Stage::Schema
        );
        let many = format!(
            "[{}]",
            vec![r#"{"op":"test","path":"/targets/0/isStage","value":true}"#; 101].join(",")
        );
        assert_eq!(fails(&many), (Stage::Budget, None, "over_budget".into()));
        assert_eq!(
            fails(r#"[{"op":"remove","path":"/targets/1/blocks/nope/next"}]"#),
            (Stage::Apply, Some(0), "no_such_path".into())
        );
        assert_eq!(
            fails(
                r#"[{"op":"test","path":"/targets/1/name","value":"Cat"},{"op":"test","path":"/targets/1/name","value":"Dog"}]"#
            ),
            (Stage::Apply, Some(1), "test_failed".into())
        );
        // Removing a block its parent still points to breaks the project.
        assert_eq!(
            fails(r#"[{"op":"remove","path":"/targets/1/blocks/d2"}]"#),
            (Stage::Validate, None, "INVALID_RESULT".into())
        );
        assert_eq!(
            fails(r#"[{"op":"replace","path":"/targets","value":3}]"#),
            (Stage::Validate, None, "LOAD".into())
        );
    }

    #[test]
    fn non_utf8_replies_are_typed_failures() {
        let f = |bytes: &[u8]| {
            let f = apply_text(BASE, bytes, &Profile::default()).unwrap_err();
            (f.stage, f.index, f.code)
        };
        // A reply that is not text at all, and a patch with a byte that is not UTF-8 inside
        // a string (JSON text must be UTF-8).
        assert_eq!(f(b"\xff\xfe\xfd"), (Stage::Extract, None, "not_utf8".into()));
        assert_eq!(
            f(b"[{\"op\":\"add\",\"path\":\"/x\xff\",\"value\":1}]"),
            (Stage::Extract, None, "not_utf8".into())
        );
    }
}
