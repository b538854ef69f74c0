//! The suite-format features of issue 20 (`docs/test-suite.md`: `changed … by`, inclusive
//! `since`, `count_of`, `ever`, `always`, `fraction`, `exists` and `"missing": "fail"`,
//! `series`, `value`, `sequence`, distance, clone and stage probes, `repeat`, inputs `onto` a
//! sprite, checks before the first frame) on projects written for them, run on the live VM.
//! One test per suite file under `fixtures/suite-features/<project>/`: every case named
//! `pass: …` must pass and every case named `fail: …` must fail, with a reason holding the
//! words listed for it here.
//!
//! `walker`: the green flag puts Walker at x 0, then moves it 10 steps right (one per frame)
//! and 10 steps back; clicking Walker adds 1 to `score`. Target sits at x 100.
//! `starter`: Runner's flag script goes to x 0 and steps 10 right ten times; Other's sets `started`
//! and keeps `down` equal to `mouse down?`; clicking the stage adds 1 to `clicks`.
//! `spawner`: the green flag makes Seed create a clone and step 10 right, three times (each
//! clone jumps 50 up, rises 10 a frame five times and deletes itself); the stage raises its
//! brightness effect from 0 by 10 five times; Pointer follows the mouse pointer.

use std::path::{Path, PathBuf};

use gobo::scratch::suite::{load_suite, run_suite, CaseVerdict, VmSubject};

fn dir() -> PathBuf {
    project_dir("walker")
}

fn project_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/suite-features").join(name)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn run(suite_file: &str) -> Vec<CaseVerdict> {
    let (name, file) = suite_file.split_once('/').unwrap_or(("walker", suite_file));
    let dir = project_dir(name);
    let project = read(&dir.join("project.json"));
    let (suite, facts) = load_suite(&read(&dir.join(file)), &project)
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

#[test]
fn series_values_and_sequences() {
    check(
        "series.json",
        &[
            ("fail: steps of at most 5", "its largest step was 10 in 30 frames"),
            ("fail: two peaks", "it peaked 1 times"),
            (
                "fail: changes at least a second apart",
                "the shortest gap between its 19 changes was 0.0333 s",
            ),
            ("fail: stays within 30 of Target", "it did not hold at 0 s"),
            (
                "fail: 100 then 80 on consecutive frames",
                "at most 1 held in a row; [Walker to have x 80] never followed",
            ),
        ],
    );
}

#[test]
fn inputs_repeats_and_the_first_frame() {
    check(
        "inputs.json",
        &[
            (
                "fail: the repeat runs out of rounds",
                "step 3: expected variable score to be at least 100 within 3 rounds",
            ),
            (
                "fail: a wait cut off by the case's budget",
                "the case ran out of its 1 s budget, waiting for variable score to be 5",
            ),
            ("fail: at least three backdrops", "expected at least 3 backdrops at 0 s; it has 1"),
            ("fail: Walker was at x 50 at the mark", "at 0.3 s: Walker: x is 100"),
            ("fail: Walker wears a costume named like on", "Walker: costume is 'c1'"),
        ],
    );
}

#[test]
fn clones_and_the_stage() {
    check(
        "spawner/clones-stage.json",
        &[
            ("fail: five clones created", "it is 3"),
            ("fail: the stage brightens to 60", "it is 50"),
        ],
    );
}

/// A sprite check or probe with nothing to compare is an error that says so; "Stage" is a
/// sprite only for its effects and backdrop.
#[test]
fn a_sprite_check_without_a_property_says_so() {
    let project = read(&dir().join("project.json"));
    let load = |check: &str| {
        let text = format!(r#"{{"tests": [{{"name": "a", "steps": [{{"expect": {check}}}]}}]}}"#);
        load_suite(&text, &project).err().map(|e| e.to_string()).unwrap_or_default()
    };
    let e = load(r#"{"sprite": "Walker"}"#);
    assert!(e.contains("tests[0].steps[0].expect.sprite: a sprite check needs a property"), "{e}");
    assert!(e.contains(r#"write {"exists": {"sprite": ...}}"#), "{e}");
    let e = load(r#"{"extent": {"sprite": "Walker"}, "min": 0}"#);
    assert!(e.contains("expect.extent.property: a sprite probe needs a property"), "{e}");
    let e = load(
        r#"{"series": {"sprite": "Walker", "property": "position"}, "measure": "peaks", "max": 1}"#,
    );
    assert!(e.contains("reversals, peaks, range, above_min and below_max need a number"), "{e}");
    let e = load(r#"{"value": {"sprite": "Stage", "property": "x"}, "equals": 0}"#);
    assert!(e.contains("unknown sprite 'Stage'"), "{e}");
}

#[test]
fn one_sprites_flag_scripts_and_the_button_flag() {
    check(
        "starter/inputs.json",
        &[
            ("fail: Other's flag script did not run", "started to be 1 at 0.1 s; it is 0"),
            ("fail: a flag write is no click", "clicks to be 1 at 0.13 s; it is 0"),
        ],
    );
}
