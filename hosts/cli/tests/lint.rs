//! `gobo lint` on the fixtures in `fixtures/lint`: a clean base project (exit 0), a patch of it
//! that swaps the barrier for a literal wait and rebinds half a script (exit 1 with the three
//! patch findings), a project with binding mistakes (exit 1), and unreadable input (exit 2).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lint").join(name)
}

fn gobo(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().expect("gobo runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(text.trim()).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn codes(report: &Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["code"].as_str().unwrap().into(), f["block"].as_str().unwrap_or("").into()))
        .collect()
}

#[test]
fn the_base_project_is_clean() {
    let base = fixture("base.json");
    let (code, json, err) = gobo(&["lint", base.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["findings"], Value::Array(vec![]));
    assert_eq!(json["patch_rules"], false);
}

#[test]
fn the_patch_findings_name_their_blocks() {
    let (base, patched) = (fixture("base.json"), fixture("patched.json"));
    let alone = gobo(&["lint", patched.to_str().unwrap(), "--json"]);
    assert_eq!(alone.0, 0, "without a base only the binding rules run: {}", alone.1);
    let (code, json, err) =
        gobo(&["lint", patched.to_str().unwrap(), "--base", base.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{err}");
    let want = [
        ("binding.partial_rebind", "inc2"),
        ("barrier.delay_substitute", "barrier"),
        ("barrier.removed", "barrier"),
    ];
    let want: Vec<(String, String)> =
        want.iter().map(|(c, b)| (c.to_string(), b.to_string())).collect();
    assert_eq!(codes(&json), want);
    assert_eq!((json["errors"].as_u64(), json["warnings"].as_u64()), (Some(0), Some(3)));
}

#[test]
fn binding_mistakes_are_found_and_printed() {
    let p = fixture("bindings.json");
    let (code, json, _) = gobo(&["lint", p.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let found = codes(&json);
    for want in [
        ("binding.dangling", "inc1"),
        ("binding.name_mismatch", "reset"),
        ("binding.shadowed", "inc2"),
        ("binding.shadowed", "show"),
    ] {
        assert!(found.contains(&(want.0.into(), want.1.into())), "{want:?} not in {found:?}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gobo"))
        .args(["lint", p.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error binding.dangling Player block inc1:"), "{text}");
    assert!(text.trim_end().ends_with("1 errors, 4 warnings"), "{text}");
}

#[test]
fn unreadable_input_is_a_usage_error() {
    let (code, _, err) = gobo(&["lint", "/nonexistent/project.json"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("gobo lint: "), "{err}");
    let garbage = std::env::temp_dir().join(format!("gobo-lint-{}.json", std::process::id()));
    std::fs::write(&garbage, "{\"targets\": [").unwrap();
    let (code, _, err) = gobo(&[
        "lint",
        fixture("base.json").to_str().unwrap(),
        "--base",
        garbage.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&garbage);
    assert_eq!(code, 2, "{err}");
}
