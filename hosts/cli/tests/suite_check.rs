//! `gobo suite-check` end to end on the clicker of tests-support/forge-corpus (the gold) and
//! three hand-made wrong variants in tests-support/suite-check/clicker: `double` (a click adds
//! 2), `late-level` (level 2 after 6 clicks instead of 3) and `stays-small` (the costume never
//! switches back, which the suite does not look at).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn dir() -> PathBuf {
    root().join("tests-support/suite-check/clicker")
}

fn gold() -> PathBuf {
    root().join("tests-support/forge-corpus/clicker")
}

fn check(golds: &[PathBuf], negatives: &[PathBuf], extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gobo"))
        .arg("suite-check")
        .arg(dir().join("suite.json"))
        .arg("--pass")
        .args(golds)
        .arg("--fail")
        .args(negatives)
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("gobo: {e}"))
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn adequate_suite_names_the_separating_cases() {
    let out =
        check(&[gold()], &[dir().join("double"), dir().join("late-level")], &["--seeds", "1..2"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("adequate: golds passed 1/1, negatives caught 2/2 (seeds 1,2)"),
        "{text}"
    );

    let out = check(
        &[gold()],
        &[dir().join("double"), dir().join("late-level")],
        &["--seeds", "1..2", "--json"],
    );
    let v = json(&out);
    assert_eq!(v["adequate"], true);
    assert_eq!(v["seeds"], serde_json::json!([1, 2]));
    let cases = v["cases"].as_array().map(Vec::as_slice).unwrap_or_default();
    let catches = |i: usize| -> Vec<String> {
        cases[i]["catches"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(|s| s.rsplit('/').next().unwrap_or(s).to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(cases.len(), 3);
    assert_eq!(catches(0), ["double"]);
    assert_eq!(catches(1), ["late-level"]);
    assert_eq!(catches(2), ["double"]);
    assert!(cases.iter().all(|c| c["separating"] == true && c["passes_golds"] == true));
    assert_eq!(v["negatives"][0]["caught_seeds"], 2);
    assert_eq!(v["negatives"][1]["by"], serde_json::json!(["three clicks reach level 2"]));
}

#[test]
fn a_missed_negative_or_a_failing_gold_is_inadequate() {
    let out = check(&[gold()], &[dir().join("double"), dir().join("stays-small")], &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["adequate"], false);
    assert_eq!((v["negatives_caught"].as_u64(), v["negatives_total"].as_u64()), (Some(1), Some(2)));
    assert_eq!(v["negatives"][1]["caught"], false);
    assert_eq!(v["negatives"][1]["first_failure"], Value::Null);

    // The wrong program given as a gold: the cases that fail on it are named, not separating.
    let out = check(&[dir().join("double")], &[dir().join("late-level")], &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("GOLD FAIL") && text.contains("it is 2"), "{text}");
    assert!(text.contains("fails gold  a click adds one"), "{text}");
    assert!(text.contains("NOT adequate: golds passed 0/1"), "{text}");
}

#[test]
fn bad_input_exits_2() {
    let out = check(&[gold()], &[root().join("no/such/project")], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("gobo suite-check: "));

    let out = check(&[gold()], &[dir().join("double")], &["--seeds", "5..1"]);
    assert_eq!(out.status.code(), Some(2));

    // A suite that does not fit a program (an unknown variable) is bad input, named.
    let tmp = std::env::temp_dir().join(format!("gobo-suite-check-{}.json", std::process::id()));
    let suite =
        r#"{"tests": [{"name": "x", "steps": [{"expect": {"variable": "nope", "equals": 1}}]}]}"#;
    std::fs::write(&tmp, suite).unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_gobo"))
        .arg("suite-check")
        .arg(&tmp)
        .arg("--pass")
        .arg(gold())
        .arg("--fail")
        .arg(dir().join("double"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&tmp);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("forge-corpus/clicker") && err.contains("nope"), "{err}");
}
