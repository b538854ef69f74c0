//! The repair toolkit's static passes on a huge project: a green-flag script of N `change score
//! by 1` blocks (N = 20,000 by default; `GOBO_HOSTILE_BLOCKS=1000000` for the issue's million,
//! not timed here) goes through lint (with itself as base), hooks, metadata, scenario
//! instantiation and site search without panicking, and each answer is the bounded one. A
//! program that never settles (a `forever` keeping a thread running, a broadcast-and-wait loop;
//! the CLI's `fixtures/hostile/never-settles.json`) under cases waiting for what never comes
//! ends every case at its budget in the suite runner, the oracle, probe and verify, each
//! reason naming what the case waited for; absurd scenario and suite times are typed errors.

use gobo::scratch::forge::templates::{instantiate, ScenarioConfig};
use gobo::scratch::forge::{extract, hooks, sites, Operator};
use gobo::scratch::lint::lint;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::suite::{parse_suite_json, run_suite, validate, ProjectFacts, VmSubject};

fn chain(n: usize) -> String {
    let mut s = String::with_capacity(n * 160);
    s.push_str(
        r#"{"targets": [{"isStage": true, "name": "Stage", "variables": {"s": ["score", 0]},
      "lists": {}, "broadcasts": {}, "costumes": [], "sounds": [], "blocks": {
      "h": {"opcode": "event_whenflagclicked", "next": "b0", "parent": null, "inputs": {},
            "fields": {}, "shadow": false, "topLevel": true, "x": 0, "y": 0}"#,
    );
    for i in 0..n {
        let parent = if i == 0 { String::from("h") } else { format!("b{}", i - 1) };
        let next = if i + 1 < n { format!("\"b{}\"", i + 1) } else { String::from("null") };
        s.push_str(&format!(
            r#",
      "b{i}": {{"opcode": "data_changevariableby", "next": {next}, "parent": "{parent}",
        "inputs": {{"VALUE": [1, [4, "1"]]}}, "fields": {{"VARIABLE": ["score", "s"]}},
        "shadow": false, "topLevel": false}}"#
        ));
    }
    s.push_str("}}], \"meta\": {\"semver\": \"3.0.0\"}}");
    s
}

#[test]
fn a_huge_script_goes_through_the_static_passes() {
    let n: usize =
        std::env::var("GOBO_HOSTILE_BLOCKS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let project = load(chain(n).as_bytes()).expect("the chain loads");
    assert_eq!(project.targets[0].blocks.len(), n + 1);

    let report = lint(&project, Some(&project));
    assert!(report.clean(), "{:?}", report.findings.first());

    let hooks = hooks(&project);
    assert_eq!(hooks.len(), 1);
    assert_eq!(
        (hooks[0].trigger.as_str(), hooks[0].writes.as_slice()),
        ("green_flag", &["vars:score".to_string()][..])
    );

    let meta = extract(&project);
    let scenarios = instantiate(&meta, &ScenarioConfig::default());
    assert!(!scenarios.cases.is_empty());

    // Every `change by 1` is a site of the off-by-one operator: the list is bounded by the blocks.
    let found = sites(&project, &Operator::ALL);
    assert!(found.len() <= Operator::ALL.len() * (n + 1), "{} sites", found.len());
}

fn never_settles() -> (String, gobo::scratch::image::Image) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hosts/cli/tests/fixtures/hostile/never-settles.json");
    let text = std::fs::read_to_string(path).expect("fixture");
    let image =
        gobo::scratch::compile::compile(&load(text.as_bytes()).expect("loads")).expect("compiles");
    (text, image)
}

/// A case that waits for a variable that never changes, past its 1 s budget.
const WAITS: &str = r#"{"tests": [{"name": "waits", "timeout": 1, "steps": [{"do": "green_flag"},
    {"wait": {"until": {"variable": "done", "equals": 1}, "timeout": 600}}]}]}"#;
const WHY: &str = "waits: step 2: the case ran out of its 1 s budget, waiting for variable done";

#[test]
fn a_program_that_never_settles_ends_every_case_at_its_budget() {
    let (text, image) = never_settles();
    let doc: serde_json::Value = serde_json::from_str(WAITS).unwrap();
    let facts = ProjectFacts::from_project_text(&text).expect("facts");
    let mut suite = parse_suite_json(&doc).expect("suite");
    validate(&mut suite, &facts).expect("valid");
    let v = run_suite(&suite, &facts, 1, |s| VmSubject::new(image.clone(), 30, s));
    assert_eq!(v[0].frames, 30);
    assert!(v[0].block_ops > 0, "the scripts ran");
    let reason = format!("waits: {}", v[0].reason.as_deref().unwrap_or(""));
    assert!(reason.starts_with(WHY), "{reason}");

    let build = |p: &gobo::scratch::project::Project| {
        gobo::scratch::compile::compile(p).map_err(|e| e.to_string())
    };
    let cfg = gobo::scratch::signals::VerifyConfig::default();
    let ver = gobo::scratch::signals::verify(text.as_bytes(), &doc, &build, None, &cfg)
        .expect("verifies");
    assert!(!ver.passed);
    let smoke = &ver.stages[1];
    assert!(smoke.reason.as_deref().unwrap_or("").starts_with(WHY), "{:?}", smoke.reason);

    let cfg = gobo::scratch::signals::ProbeConfig::default();
    let p = gobo::scratch::signals::probe(&doc, &text, &image, &image, &cfg).expect("probes");
    assert_eq!(p.cases[0].gold_passes, 0);
    assert!(p.work.block_ops > 0 && p.work.frames <= 2 * 2 * 31, "{:?}", p.work);

    let ocfg = gobo::scratch::oracle::OracleConfig::default();
    let prep = gobo::scratch::oracle::prepare(&doc, &text, &ocfg).expect("prepared");
    let rec = gobo::scratch::oracle::record_gold(&prep, &image, &ocfg);
    let syn = gobo::scratch::oracle::synthesize(&prep, &rec, &image, &image, &ocfg);
    assert!(!syn.accepted);
    let dropped = format!("{}: {}", syn.dropped_cases[0][0], syn.dropped_cases[0][1]);
    assert!(dropped.starts_with(WHY), "{dropped}");
}

#[test]
fn absurd_scenario_frames_are_typed_errors() {
    for doc in [
        r#"{"frames": 1e300, "events": []}"#,
        r#"{"frames": -1, "events": []}"#,
        r#"{"frames": "NaN", "events": []}"#,
        r#"{"frames": 18446744073709551616, "events": []}"#,
    ] {
        let e = Scenario::parse(doc.as_bytes()).expect_err(doc);
        assert!(e.to_string().contains("frames"), "{doc}: {e}");
    }
    // A seed outside 32 bits is refused, not wrapped (-1 would become 4294967295).
    for doc in [r#"{"seed": -1}"#, r#"{"seed": 4294967296}"#, r#"{"seed": 1e300}"#] {
        let e = Scenario::parse(doc.as_bytes()).expect_err(doc);
        assert!(e.to_string().contains("\"seed\": must be an integer"), "{doc}: {e}");
    }
    assert_eq!(Scenario::parse(br#"{"seed": 4294967295}"#).unwrap().seed, Some(u32::MAX));
    for fps in ["0", "1000000000", "1e300", "-30"] {
        let doc = format!(r#"{{"fps": {fps}, "tests": [{{"name": "c", "steps": []}}]}}"#);
        let e = parse_suite_json(&serde_json::from_str(&doc).unwrap()).expect_err(&doc);
        assert!(e.to_string().contains("fps"), "{doc}: {e}");
    }
}
