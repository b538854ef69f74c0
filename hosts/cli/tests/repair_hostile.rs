//! Hostile inputs to the repair toolkit's commands end quickly with a typed error (exit 2, the
//! field named) or a bounded report: a project with no triggers (`fixtures/hostile/`), and
//! scenario suites with absurd times (huge, negative, not numbers) given to oracle, probe and
//! verify. A million-block project is the core's `repair_hostile` test (a CLI input that big
//! exceeds the 64 MiB `project.json` limit and gets that typed error).

use std::path::{Path, PathBuf};
use std::process::Command;

fn here(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn gobo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().expect("gobo runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gobo-hostile-{}-{name}", std::process::id()))
}

#[test]
fn a_project_without_triggers_gets_bounded_answers() {
    let p = here("tests/fixtures/hostile/no-triggers.json");
    let p = p.to_str().unwrap();
    let (code, out, err) = gobo(&["scenarios", p, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["meta"]["keys"], serde_json::json!([]));

    let suite = tmp("none.suite.json");
    let (code, out, err) = gobo(&["oracle", p, p, "-o", suite.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("no suite") || err.contains("no suite"), "{out}{err}");

    let dir = tmp("forge");
    let (code, out, err) = gobo(&["forge", p, "-o", dir.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("no_site") || err.contains("no_site"), "{out}{err}");

    assert_eq!(gobo(&["lint", p]).0, 0);
}

#[test]
fn absurd_scenario_times_are_typed_errors() {
    let clicker = here("../../tests-support/forge-corpus/clicker");
    let clicker = clicker.to_str().unwrap();
    for (time, why) in [
        ("1e300", "must be above 0 and at most 86400 seconds"),
        ("18446744073709551615", "must be above 0 and at most 86400 seconds"),
        ("-5", "must not be negative"),
        ("\"NaN\"", "expected a number"),
        ("\"Infinity\"", "expected a number"),
    ] {
        let suite = tmp("absurd.suite.json");
        let doc = format!(
            r#"{{"tests": [{{"name": "c", "timeout": {time}, "steps": [
                 {{"at_frame": 0, "do": "green_flag"}}, {{"at_frame": 10, "mark": "end"}}]}}]}}"#
        );
        std::fs::write(&suite, doc).unwrap();
        let s = suite.to_str().unwrap();
        let out = tmp("absurd-out.json");
        for args in [
            vec!["oracle", clicker, clicker, "--scenarios", s, "-o", out.to_str().unwrap()],
            vec!["probe", clicker, "--gold", clicker, "--suite", s],
            vec!["verify", clicker, "--suite", s, "--level", "2"],
        ] {
            let (code, _, err) = gobo(&args);
            assert_eq!(code, 2, "{} with timeout {time}: {err}", args[0]);
            assert!(err.contains("tests[0].timeout") && err.contains(why), "{}: {err}", args[0]);
        }
        let _ = std::fs::remove_file(&suite);
    }
}
