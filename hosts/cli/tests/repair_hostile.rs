//! Hostile inputs to the repair toolkit's commands end quickly with a typed error (exit 2,
//! `gobo <command>: ...` naming the field) or a bounded report: a project with no triggers
//! (`fixtures/hostile/`); a suite that never settles (`fixtures/hostile/never-settles.json`: a
//! `forever`, a broadcast-and-wait loop, cases waiting for what never comes) given to test,
//! verify, probe and oracle; scenario suites with absurd times given to oracle, probe, verify
//! and test; `gobo record` with absurd `--frames`, `--every`, `--keyframes`, `--seed` and
//! scenario documents. Every run has a generous wall-clock limit, so a hang fails the test
//! instead of blocking CI. A million-block project is the core's `repair_hostile` test (a CLI
//! input that big exceeds the 64 MiB `project.json` limit and gets that typed error).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn here(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// Longest a hostile run may take (debug build, a loaded machine): far above the seconds each
/// needs, far below a hang.
const LIMIT: Duration = Duration::from_secs(300);

/// Runs `gobo ARGS` and returns (exit code, stdout, stderr); kills it and fails the test when
/// it outlives [`LIMIT`].
fn gobo(args: &[&str]) -> (i32, String, String) {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = tmp(&format!("io-{}", RUNS.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).unwrap();
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_gobo"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("gobo runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gobo {args:?} still running after {LIMIT:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let text = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    let result = (status.code().unwrap_or(-1), text(&out_path), text(&err_path));
    let _ = std::fs::remove_dir_all(&dir);
    result
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

/// `never-settles.json` as a project folder with its backdrop asset (a stand-in SVG under the
/// name the project gives), so `gobo verify`'s static stage (assets present) passes and the
/// run stages are reached.
fn never_settles_folder() -> PathBuf {
    let dir = tmp("never-settles");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(here("tests/fixtures/hostile/never-settles.json"), dir.join("project.json"))
        .unwrap();
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360"></svg>"#;
    std::fs::write(dir.join("cd21514d0531fdffb22204e0ec5ed84a.svg"), svg).unwrap();
    dir
}

#[test]
fn a_suite_that_never_settles_ends_with_bounded_reports() {
    let project = never_settles_folder();
    let p = project.to_str().unwrap();
    let suite = here("tests/fixtures/hostile/never-settles.suite.json");
    let s = suite.to_str().unwrap();
    // What each case waited for, as the reports say it.
    let waited = [
        ("waits for done", "step 2: expected variable done to be 1 within 2 s (by 2 s); it is 0"),
        (
            "outlives its budget",
            "step 2: the case ran out of its 1 s budget, waiting for variable done to be 1; it is 0",
        ),
        (
            "waits for a broadcast",
            "step 2: expected broadcast 'finished' to be sent within 3 s (by 3 s); it was sent 0 times",
        ),
    ];

    // gobo test: every case fails at its budget, the verdict is a failure (exit 1).
    let (code, out, err) = gobo(&["test", p, s]);
    assert_eq!(code, 1, "test: {out}{err}");
    for (case, why) in waited {
        assert!(out.contains(&format!("FAIL  {case}\n      {why}\n")), "test: {case}: {out}");
    }
    assert!(out.contains("0/3 cases passed"), "{out}");
    let (code, out, err) = gobo(&["test", p, s, "--json"]);
    assert_eq!(code, 1, "{err}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let frames: Vec<u64> = ["waits for done", "outlives its budget", "waits for a broadcast"]
        .iter()
        .map(|name| {
            let case = report["details"].as_array().unwrap().iter().find(|c| c["name"] == *name);
            case.unwrap_or_else(|| panic!("{name}: {out}"))["frames"].as_u64().unwrap()
        })
        .collect();
    // Each case ends at its wait's timeout or its own budget (30 fps), never later.
    assert!(frames[0] <= 61 && frames[1] <= 31 && frames[2] <= 91, "{frames:?}");

    // gobo verify: static passes, the smoke stage fails on the first case, naming it and what
    // it waited for (exit 1).
    let (code, out, err) = gobo(&["verify", p, "--suite", s, "--level", "2"]);
    assert_eq!(code, 1, "verify: {out}{err}");
    let (case, why) = waited[0];
    assert_eq!(
        out,
        format!("static: passed\nsmoke: FAILED: {case}: {why}\nnot verified\n"),
        "verify: {err}"
    );

    // gobo probe: the probe ran (exit 0, docs/signals.md), and every case is listed with what
    // it waited for; its work is bounded by the cases' budgets.
    let (code, out, err) = gobo(&["probe", p, "--gold", p, "--suite", s]);
    assert_eq!(code, 0, "probe: {out}{err}");
    assert!(out.starts_with("level 0 (text-min): pass gold 0.00 buggy 0.00 gap 0.00"), "{out}");
    for (case, why) in waited {
        let line = format!("case '{case}': gold passes 0/2, buggy 0/2: {why}\n");
        assert!(out.contains(&line), "probe: {line}: {out}");
    }
    let (code, out, _) = gobo(&["probe", p, "--gold", p, "--suite", s, "--json"]);
    assert_eq!(code, 0);
    let probe: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // 3 cases x 2 seeds x 2 programs, each at most 90 frames (+1 for the step that ends it).
    assert!(probe["work"]["frames"].as_u64().unwrap() <= 12 * 91, "{}", probe["work"]);

    // gobo oracle: no case completes on gold, so there is no suite (exit 1); the report names
    // every dropped case and what it waited for.
    let o = tmp("never-settles-oracle.json");
    let (code, out, err) = gobo(&["oracle", p, p, "--scenarios", s, "-o", o.to_str().unwrap()]);
    assert_eq!(code, 1, "oracle: {out}{err}");
    for (case, why) in waited {
        assert!(out.contains(&format!("dropped '{case}': {why}\n")), "oracle: {case}: {out}");
    }
    let (case, why) = waited[0];
    let reason = format!(
        "no suite: no scenario completed on the gold program (3 dropped; first: {case}: {why})\n"
    );
    assert!(out.ends_with(&reason), "oracle: {out}");
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&o).unwrap()).unwrap();
    assert_eq!(written["tests"], serde_json::json!([]));
    let _ = std::fs::remove_file(&o);
    let _ = std::fs::remove_dir_all(&project);
}

/// What a hostile `gobo record` must do: fail with exit 2 and `gobo record: ` plus a message
/// containing the text (naming the field), or write at most this many sampled pictures.
enum Expect {
    Error(&'static str),
    Samples(usize),
}

#[test]
fn record_with_absurd_frames_every_and_times_is_a_typed_error_or_bounded() {
    use Expect::{Error, Samples};
    let project = here("../../tests-support/forge-corpus/clicker");
    let p = project.to_str().unwrap();
    let out = tmp("record");
    let o = out.to_str().unwrap();
    let flags: &[(&[&str], Expect)] = &[
        (&["--frames", "0"], Error("configuration: frames must be 1..=108000")),
        (&["--frames", "18446744073709551615"], Error("frames must be 1..=108000")),
        (&["--frames", "18446744073709551616"], Error("for '--frames <FRAMES>'")),
        (&["--frames", "-1"], Error("invalid value '-1' for '--frames <FRAMES>'")),
        (&["--frames", "1e300"], Error("invalid value '1e300' for '--frames <FRAMES>'")),
        (&["--frames", "NaN"], Error("invalid value 'NaN' for '--frames <FRAMES>'")),
        (&["--frames", "108000", "--every", "1"], Error("frames / every must be at most 2000")),
        (&["--every", "0"], Error("configuration: every must be at least 1")),
        (&["--every", "-1"], Error("invalid value '-1' for '--every <EVERY>'")),
        (&["--every", "99999999999999999999"], Error("for '--every <EVERY>'")),
        (&["--every", "18446744073709551615"], Samples(1)),
        (&["--frames", "108000", "--every", "18446744073709551615"], Samples(1)),
        (&["--frames", "10", "--keyframes", "18446744073709551615"], Samples(4)),
        (&["--frames", "10", "--keyframes", "0"], Samples(4)),
        (&["--seed", "-1"], Error("invalid value '-1' for '--seed <SEED>'")),
        (&["--seed", "4294967296"], Error("for '--seed <SEED>'")),
    ];
    let scenarios: &[(&str, Expect)] = &[
        (r#"{"frames": 1e300}"#, Error(r#"scenario field "frames": must be a non-negative"#)),
        (r#"{"frames": -1}"#, Error(r#"scenario field "frames""#)),
        (r#"{"frames": "NaN"}"#, Error(r#"scenario field "frames""#)),
        (r#"{"frames": 18446744073709551615}"#, Error(r#"scenario field "frames""#)),
        (r#"{"frames": 0}"#, Error("configuration: frames must be 1..=108000")),
        (r#"{"frames": 108000}"#, Error("frames / every must be at most 2000")),
        (r#"[{"frame": 1e300, "action": "green_flag"}]"#, Error(r#"scenario event 0: "frame""#)),
        (r#"[{"frame": -5, "action": "green_flag"}]"#, Error(r#"scenario event 0: "frame""#)),
        (r#"[{"frame": "NaN", "action": "green_flag"}]"#, Error(r#"scenario event 0: "frame""#)),
        // The record runs at 30 frames per second; a scenario has no frame rate of its own.
        (r#"{"fps": 0, "events": []}"#, Error(r#"scenario field "fps": unknown field"#)),
        (r#"{"fps": 1e9, "events": []}"#, Error(r#"scenario field "fps": unknown field"#)),
        (
            r#"{"seed": -1}"#,
            Error(r#"scenario field "seed": must be an integer in 0..=4294967295"#),
        ),
        (r#"{"seed": 99999999999}"#, Error(r#"scenario field "seed""#)),
        (r#"{"seed": 1e300}"#, Error(r#"scenario field "seed""#)),
        // An event after the last frame never fires; a mouse far off the stage is clamped.
        (
            r#"{"frames": 30, "events": [{"frame": 9000000000000000000, "action": "green_flag"}]}"#,
            Samples(10),
        ),
        (
            r#"{"frames": 30, "events": [{"frame": 3, "action": "mouse_move", "x": 1e300, "y": -1e300}]}"#,
            Samples(10),
        ),
        (
            r#"[{"frame": 1, "action": "mouse_move", "x": "NaN", "y": 0}]"#,
            Error(r#"scenario event 0: "x" must be a number"#),
        ),
    ];
    let scenario = tmp("record-scenario.json");
    let runs = flags.iter().map(|(f, e)| (f.to_vec(), e, None)).chain(
        scenarios
            .iter()
            .map(|(doc, e)| (vec!["--scenario", scenario.to_str().unwrap()], e, Some(*doc))),
    );
    for (extra, expect, doc) in runs {
        if let Some(doc) = doc {
            std::fs::write(&scenario, doc).unwrap();
        }
        let mut args = vec!["record", p, "-o", o, "--json"];
        args.extend(extra.iter().copied());
        let (code, stdout, err) = gobo(&args);
        let what = format!("{extra:?} {}", doc.unwrap_or(""));
        match expect {
            Error(text) => {
                assert_eq!(code, 2, "{what}: {stdout}{err}");
                assert!(err.starts_with("gobo record: ") && err.contains(text), "{what}: {err}");
                assert_eq!(err.matches("gobo record: ").count(), 1, "{what}: once: {err}");
            }
            Samples(n) => {
                assert_eq!(code, 0, "{what}: {err}");
                let m: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
                assert_eq!(m["samples"].as_array().map(Vec::len), Some(*n), "{what}: {stdout}");
                let keys = m["keyframes"].as_array().unwrap().len();
                assert!(keys <= *n, "{what}: {keys} keyframes");
                // The pictures, the sheet, the clip and the manifest.
                assert_eq!(std::fs::read_dir(&out).unwrap().count(), n + 3, "{what}");
            }
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    let _ = std::fs::remove_file(&scenario);
}

#[test]
fn absurd_suite_times_given_to_gobo_test_are_typed_errors_or_end_at_the_budget() {
    use Expect::{Error, Fails};
    enum Expect {
        /// Exit 2, `gobo test: ` and the field's JSON path.
        Error(&'static str),
        /// Exit 1: the case fails at its budget with this reason.
        Fails(&'static str),
    }
    let clicker = here("../../tests-support/forge-corpus/clicker");
    let clicker = clicker.to_str().unwrap();
    let suite = tmp("times.suite.json");
    let case = r#"{"name": "c", "steps": [{"do": "green_flag"}, {"mark": "end"}]}"#;
    let flag = |step: &str| {
        format!(r#"{{"tests": [{{"name": "c", "steps": [{{"do": "green_flag"}}, {step}]}}]}}"#)
    };
    let first = |step: &str| format!(r#"{{"tests": [{{"name": "c", "steps": [{step}]}}]}}"#);
    for (doc, expect) in [
        (format!(r#"{{"fps": 0, "tests": [{case}]}}"#), Error("fps")),
        (format!(r#"{{"fps": 1e9, "tests": [{case}]}}"#), Error("fps")),
        (format!(r#"{{"fps": -30, "tests": [{case}]}}"#), Error("fps")),
        (format!(r#"{{"fps": "NaN", "tests": [{case}]}}"#), Error("fps")),
        (
            r#"{"tests": [{"name": "c", "timeout": 1e300, "steps": []}]}"#.into(),
            Error("tests[0].timeout: must be above 0 and at most 86400 seconds"),
        ),
        (
            first(r#"{"at": -1, "do": "green_flag"}"#),
            Error("tests[0].steps[0].at: must not be negative"),
        ),
        (
            first(r#"{"at": "NaN", "do": "green_flag"}"#),
            Error("tests[0].steps[0].at: expected a number"),
        ),
        (first(r#"{"at_frame": 1e300, "do": "green_flag"}"#), Error("tests[0].steps[0].at_frame")),
        // Times past the budget (default 60 s) are cut there.
        (
            first(r#"{"at": 1e300, "do": "green_flag"}"#),
            Fails("the case ran out of its 60 s budget"),
        ),
        (
            first(r#"{"at_frame": 18446744073709551615, "do": "green_flag"}"#),
            Fails("the case ran out of its 60 s budget"),
        ),
        (flag(r#"{"wait": 1e300}"#), Fails("step 2: the case ran out of its 60 s budget")),
        (
            flag(r#"{"wait": {"seconds": 1e300}}"#),
            Fails("step 2: the case ran out of its 60 s budget"),
        ),
    ] {
        std::fs::write(&suite, &doc).unwrap();
        let (code, out, err) = gobo(&["test", clicker, suite.to_str().unwrap()]);
        match expect {
            Error(field) => {
                assert_eq!(code, 2, "{doc}: {out}{err}");
                assert!(err.starts_with("gobo test: ") && err.contains(field), "{doc}: {err}");
            }
            Fails(why) => {
                assert_eq!(code, 1, "{doc}: {out}{err}");
                assert_eq!(out, format!("FAIL  c\n      {why}\n0/1 cases passed\n"), "{doc}");
            }
        }
    }
    let _ = std::fs::remove_file(&suite);
}
