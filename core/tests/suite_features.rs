//! The suite-format features of issue 20 (`docs/test-suite.md`: `changed … by`, inclusive
//! `since`, `count_of`, `ever`, `always`, `fraction`, `exists` and `"missing": "fail"`) on a project written for them, run on the
//! live VM. One test per suite file under `fixtures/suite-features/walker/`: every case named
//! `pass: …` must pass and every case named `fail: …` must fail, with a reason holding the
//! words listed for it here.
//!
//! The project: the green flag puts Walker at x 0, then moves it 10 steps right (one per frame)
//! and 10 steps back; clicking Walker adds 1 to `score`. Target sits at x 100.

use std::path::{Path, PathBuf};

use gobo::scratch::suite::{load_suite, run_suite, CaseVerdict, VmSubject};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/suite-features/walker")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn run(suite_file: &str) -> Vec<CaseVerdict> {
    let project = read(&dir().join("project.json"));
    let (suite, facts) = load_suite(&read(&dir().join(suite_file)), &project)
        .unwrap_or_else(|e| panic!("{suite_file}: {e}"));
    let loaded = gobo::scratch::project::load(project.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let img = gobo::scratch::compile::compile(&loaded).unwrap_or_else(|e| panic!("{e}"));
    run_suite(&suite, &facts, suite.seed, |seed| VmSubject::new(img.clone(), suite.fps, seed))
}

/// Every `pass:` case passes, every `fail:` case fails with the words given for it.
fn check(suite_file: &str, reasons: &[(&str, &str)]) {
    let verdicts = run(suite_file);
    assert!(!verdicts.is_empty());
    for v in &verdicts {
        let reason = v.reason.as_deref().unwrap_or("");
        if v.name.starts_with("pass:") {
            assert!(v.passed, "{suite_file}: '{}' failed: {reason}", v.name);
        } else {
            assert!(!v.passed, "{suite_file}: '{}' passed", v.name);
            let want = reasons.iter().find(|(n, _)| *n == v.name).map(|(_, w)| *w);
            let want = want.unwrap_or_else(|| panic!("no reason listed for '{}'", v.name));
            assert!(reason.contains(want), "'{}': {reason}", v.name);
        }
    }
}

#[test]
fn change() {
    check(
        "change.json",
        &[
            ("fail: a click adds two", "(by 1)"),
            ("fail: x back within 5 of the mark", "went from 10 to 0 (by -10)"),
            ("fail: the mark's own frame is not in a plain window", "it ranged from 20 to 30"),
        ],
    );
}

#[test]
fn over_time() {
    check(
        "over-time.json",
        &[
            (
                "fail: all 4 targets reached",
                "3 of 4 held; failing: [at some frame: Walker to have x 150]",
            ),
            ("fail: 70 % of the frames right of 50", "it held in 11 of 20 frames (0.55)"),
            ("fail: always right of 5", "it did not hold at"),
        ],
    );
}

#[test]
fn existence() {
    check(
        "existence.json",
        &[
            ("fail: a Ball or a Bat exists", "the project has no sprite Ball / Bat (it has: Walker, Target)"),
            ("fail: a list of items exists", "the project has no list items"),
            (
                "fail: three lives",
                "the project lacks what the case needs: tests[5].steps[2].expect.variable: unknown variable 'lives'",
            ),
            ("fail: Ball moves", "tests[6].steps[2].expect.moved: unknown sprite 'Ball'"),
        ],
    );
}

/// Without `"missing": "fail"` a missing name is still an error of the whole suite.
#[test]
fn missing_is_an_error_by_default() {
    let text = read(&dir().join("existence.json")).replace("\"missing\": \"fail\",", "");
    let err = load_suite(&text, &read(&dir().join("project.json")))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("tests[5].steps[2].expect.variable: unknown variable 'lives'"), "{err}");
}
