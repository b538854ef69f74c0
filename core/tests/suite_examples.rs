//! Every example suite (`examples/scratch/<name>/suite.json`) passes on its project and fails
//! on the broken variant (one block changed) with a verdict naming the expected case.
//!
//! The frames come from reference traces (scratch-vm 5.0.300, recorded by
//! `scripts/regen-suite-traces.py` into `core/tests/fixtures/suite/<name>/`) replayed strictly:
//! every input a case sends must be the one recorded at that frame. Cases with direct writes
//! (which a recorded trace cannot replay) are left to the live VM. Static-only cases need no
//! frames and run on an empty trace.

use std::path::{Path, PathBuf};

use gobo::scratch::suite::{load_suite, model::StepKind, run_case, CaseVerdict, TraceSubject};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Judges every case of `example` on `variant` (project.json or broken.json) that has a trace
/// (or needs none); returns the verdicts and the names of cases left out.
fn judge(example: &str, variant: &str) -> (Vec<CaseVerdict>, Vec<String>) {
    let dir = root().join("examples/scratch").join(example);
    let read =
        |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let (suite, facts) = load_suite(&read(&dir.join("suite.json")), &read(&dir.join(variant)))
        .unwrap_or_else(|e| panic!("{example}: {e}"));
    let suffix = if variant == "broken.json" { ".broken.jsonl" } else { ".jsonl" };
    let mut verdicts = Vec::new();
    let mut left_out = Vec::new();
    for case in &suite.cases {
        let static_only = case.steps.iter().all(|s| matches!(s.kind, StepKind::Expect(_)));
        let trace =
            root().join("core/tests/fixtures/suite").join(example).join(slug(&case.name) + suffix);
        let text = if static_only {
            String::new()
        } else if trace.exists() {
            read(&trace)
        } else {
            left_out.push(case.name.clone());
            continue;
        };
        let mut subject =
            TraceSubject::new(&text, true).unwrap_or_else(|e| panic!("{}: {e}", trace.display()));
        verdicts.push(run_case(case, suite.fps, &facts, &mut subject));
    }
    (verdicts, left_out)
}

fn check_example(example: &str, broken_cases: &[&str], live_only: &[&str]) {
    let (good, left_out) = judge(example, "project.json");
    let failed: Vec<String> = good
        .iter()
        .filter(|v| !v.passed)
        .map(|v| format!("{}: {}", v.name, v.reason.as_deref().unwrap_or("")))
        .collect();
    assert!(
        failed.is_empty(),
        "{example}: cases fail on the working project:\n{}",
        failed.join("\n")
    );
    assert_eq!(left_out, live_only, "{example}: cases without a trace");

    let (bad, _) = judge(example, "broken.json");
    let mut failing: Vec<&str> =
        bad.iter().filter(|v| !v.passed).map(|v| v.name.as_str()).collect();
    failing.sort_unstable();
    let mut want = broken_cases.to_vec();
    want.sort_unstable();
    assert_eq!(failing, want, "{example}: cases failing on the broken variant");
    for v in bad.iter().filter(|v| !v.passed) {
        let reason = v.reason.as_deref().unwrap_or("");
        assert!(
            reason.starts_with("step ") && reason.contains("expected"),
            "{example}/{}: reason '{reason}'",
            v.name
        );
    }
}

#[test]
fn keys_example() {
    check_example("keys", &["arrows move the cat"], &["direct writes"]);
}

#[test]
fn quiz_example() {
    // The broken quiz accepts 8 instead of 7: the right answer is refused, the wrong one praised.
    check_example(
        "quiz",
        &[
            "a computed right answer is praised",
            "a wrong answer is refused",
            "answers given by steps",
        ],
        &[],
    );
}

#[test]
fn timing_example() {
    // The lamp now runs a second longer, so the project is still running when the spawner case
    // waits for every script to end.
    check_example(
        "timing",
        &["the lamp is dark for two seconds", "the spawner makes three ghost clones"],
        &[],
    );
}

#[test]
fn reasons_say_what_was_expected_and_seen() {
    let (bad, _) = judge("keys", "broken.json");
    let arrows =
        bad.iter().find(|v| v.name == "arrows move the cat").and_then(|v| v.reason.clone());
    assert_eq!(
        arrows.as_deref(),
        Some("step 9: expected Cat to have x 10, y 10 ± 0.001, direction 90 at 0.37 s; Cat: y is -10")
    );
    let (bad, _) = judge("timing", "broken.json");
    let lamp = bad
        .iter()
        .find(|v| v.name == "the lamp is dark for two seconds")
        .and_then(|v| v.reason.clone());
    assert_eq!(
        lamp.as_deref(),
        Some(
            "step 4: expected [Lamp to be hidden] then [Lamp to be visible] between 1.5 and 2.5 s later at 4.03 s; \
             the first at 1 s, the second at 4 s: 3 s apart"
        )
    );
}

#[test]
fn a_trace_that_does_not_follow_the_suite_is_rejected() {
    // The "arrows" trace recorded a right-arrow key; the "space" case sends space keys.
    let dir = root().join("examples/scratch/keys");
    let read =
        |p: PathBuf| std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let (suite, facts) = load_suite(&read(dir.join("suite.json")), &read(dir.join("project.json")))
        .unwrap_or_else(|e| panic!("{e}"));
    let trace = read(root().join("core/tests/fixtures/suite/keys/arrows-move-the-cat.jsonl"));
    let mut subject = TraceSubject::new(&trace, true).unwrap_or_else(|e| panic!("{e}"));
    let v = run_case(&suite.cases[0], suite.fps, &facts, &mut subject);
    let reason = v.reason.unwrap_or_default();
    assert!(reason.contains("does not follow the suite"), "{reason}");
}

/// The same suites on gobo's VM (`VmSubject`): the same cases pass and fail as on the reference
/// traces, including "direct writes", which the traces cannot replay.
#[test]
fn the_vm_gives_the_reference_verdicts() {
    use gobo::scratch::suite::{run_suite, VmSubject};
    let cases: [(&str, &[&str]); 3] = [
        ("keys", &["arrows move the cat"]),
        (
            "quiz",
            &[
                "a computed right answer is praised",
                "a wrong answer is refused",
                "answers given by steps",
            ],
        ),
        ("timing", &["the lamp is dark for two seconds", "the spawner makes three ghost clones"]),
    ];
    for (example, broken) in cases {
        for variant in ["project.json", "broken.json"] {
            let dir = root().join("examples/scratch").join(example);
            let read = |p: &Path| {
                std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            };
            let project = read(&dir.join(variant));
            let (suite, facts) = load_suite(&read(&dir.join("suite.json")), &project)
                .unwrap_or_else(|e| panic!("{example}: {e}"));
            let loaded =
                gobo::scratch::project::load(project.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            let img = gobo::scratch::compile::compile(&loaded).unwrap_or_else(|e| panic!("{e}"));
            let verdicts = run_suite(&suite, &facts, suite.seed, |seed| {
                VmSubject::new(img.clone(), suite.fps, seed)
            });
            let mut failing: Vec<&str> =
                verdicts.iter().filter(|v| !v.passed).map(|v| v.name.as_str()).collect();
            failing.sort_unstable();
            let mut want: Vec<&str> =
                if variant == "broken.json" { broken.to_vec() } else { Vec::new() };
            want.sort_unstable();
            assert_eq!(failing, want, "{example}/{variant}: {verdicts:#?}");
        }
    }
}
