//! `gobo scenarios` on `fixtures/scenarios/inputs/` (a stage and three sprites using every
//! kind of input the metadata reads: `when key pressed` hats of several keys, `any` among them,
//! a `key pressed?` menu, `when this sprite clicked` on two sprites, `when stage clicked`,
//! messages received and one only sent, `ask and wait`, and the mouse four ways: `mouse x`,
//! `mouse down?`, `go to mouse-pointer`, `touching mouse-pointer`): the metadata is exactly
//! what the project uses; each mouse use alone makes `mouse` true and none makes it false; the
//! instantiated templates are suite cases without assertions that `gobo test` runs and passes.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios/inputs")
}

fn gobo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().expect("gobo runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gobo-scenarios-{}-{name}", std::process::id()))
}

fn scenarios(project: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["scenarios", project.to_str().unwrap(), "--json"];
    args.extend(extra);
    let (code, out, err) = gobo(&args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.trim()).expect("one JSON document")
}

/// The metadata of the whole fixture.
fn expected_meta(mouse: bool) -> Value {
    json!({
        // Sorted; `any` counts as space; `up arrow` from the `key pressed?` menu.
        "keys": ["a", "left arrow", "space", "up arrow"],
        // Target order: the stage (`when stage clicked`), then Cat and Ball; Wall has no click.
        "clickable": ["Stage", "Cat", "Ball"],
        // Received messages only: `only sent` is broadcast but has no `when I receive`.
        "messages": ["go", "hit"],
        "asks": true,
        "mouse": mouse,
        "counters": [["Stage", "lives"]],
    })
}

#[test]
fn the_metadata_names_every_input_the_project_uses() {
    let v = scenarios(&fixture(), &["--max-cases", "20"]);
    assert_eq!(v["meta"], expected_meta(true));
    assert_eq!((v["fps"].as_u64(), v["frames"].as_u64()), (Some(30), Some(2000)));
    let names: Vec<&str> =
        v["cases"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "flag",
            "flag_key(a)",
            "flag_key(left arrow)",
            "flag_key(space)",
            "flag_key(up arrow)",
            "flag_keys",
            "flag_click(Stage)",
            "flag_click(Cat)",
            "flag_click(Ball)",
            "flag_broadcast(go)",
            "flag_broadcast(hit)",
            "flag_answers",
            "flag_mouse",
            "flag_drive(lives=0)",
        ]
    );
    // The default keeps the first 12 cases.
    let v = scenarios(&fixture(), &[]);
    assert_eq!(v["cases"].as_array().unwrap().len(), 12);
    assert_eq!(v["cases"][11]["name"], "flag_answers");
}

/// The fixture with the blocks of the mouse scripts other than `keep` removed (each mouse use
/// is one script whose block ids start with its two-letter prefix).
fn without_mouse_scripts_but(keep: Option<&str>) -> PathBuf {
    let dir = fixture();
    let mut project: Value =
        serde_json::from_slice(&std::fs::read(dir.join("project.json")).unwrap()).unwrap();
    let drop =
        |id: &str| ["mg", "mx", "md", "mt"].iter().any(|p| id.starts_with(p) && Some(*p) != keep);
    let mut removed = 0;
    for t in project["targets"].as_array_mut().unwrap() {
        let blocks = t["blocks"].as_object_mut().unwrap();
        let before = blocks.len();
        blocks.retain(|id, _| !drop(id));
        removed += before - blocks.len();
    }
    assert!(removed > 0);
    let path = tmp(&format!("mouse-{}.json", keep.unwrap_or("none")));
    std::fs::write(&path, serde_json::to_vec(&project).unwrap()).unwrap();
    path
}

#[test]
fn each_mouse_use_alone_counts_as_mouse_use() {
    for keep in ["mg", "mx", "md", "mt"] {
        let path = without_mouse_scripts_but(Some(keep));
        let v = scenarios(&path, &[]);
        let _ = std::fs::remove_file(&path);
        let mut meta = expected_meta(true);
        if keep != "mx" {
            // The `hit` message is received by the `mouse x` script only.
            meta["messages"] = json!(["go"]);
        }
        assert_eq!(v["meta"], meta, "only the script {keep}");
    }
    let path = without_mouse_scripts_but(None);
    let v = scenarios(&path, &["--max-cases", "20"]);
    let _ = std::fs::remove_file(&path);
    let mut meta = expected_meta(false);
    meta["messages"] = json!(["go"]);
    assert_eq!(v["meta"], meta);
    let names: Vec<&str> =
        v["cases"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert!(!names.contains(&"flag_mouse"), "{names:?}");
}

#[test]
fn the_instantiated_cases_carry_no_assertion_and_gobo_test_passes_them() {
    let suite = tmp("suite.json");
    let v = scenarios(
        &fixture(),
        &["--max-cases", "20", "--ticks", "150", "-o", suite.to_str().unwrap()],
    );
    let written: Value = serde_json::from_slice(&std::fs::read(&suite).unwrap()).unwrap();
    assert_eq!(written["tests"], v["cases"], "-o writes the cases printed");
    assert_eq!((written["version"].as_u64(), written["fps"].as_u64()), (Some(1), Some(30)));
    let cases = written["tests"].as_array().unwrap();
    assert_eq!(cases.len(), 14);
    for c in cases {
        let steps = c["steps"].as_array().unwrap();
        // Instant inputs at fixed frames, then the mark at H: no check, no wait.
        for s in &steps[..steps.len() - 1] {
            let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
            assert!(
                s.get("do").is_some() && s["at_frame"].as_u64() < Some(150),
                "{}: {s}",
                c["name"]
            );
            assert!(!keys.iter().any(|k| ["expect", "wait", "repeat"].contains(k)), "{s}");
        }
        assert_eq!(
            steps.last().unwrap(),
            &json!({"at_frame": 150, "mark": "end"}),
            "{}",
            c["name"]
        );
    }
    // The answers case answers the question the click asks.
    let answers = cases.iter().find(|c| c["name"] == "flag_answers").unwrap();
    assert_eq!(answers["answers"].as_array().map(Vec::len), Some(12));

    let (code, out, err) =
        gobo(&["test", fixture().to_str().unwrap(), suite.to_str().unwrap(), "--json"]);
    let _ = std::fs::remove_file(&suite);
    assert_eq!(code, 0, "{out}{err}");
    let report: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (report["passed_tests"].as_u64(), report["total_tests"].as_u64()),
        (Some(14), Some(14))
    );
    let verdicts = report["details"].as_array().unwrap();
    assert_eq!(verdicts.len(), 14, "{out}");
    for c in verdicts {
        assert_eq!(c["passed"], true, "{c}");
    }
}
