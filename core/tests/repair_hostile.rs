//! The repair toolkit's static passes on a huge project: a green-flag script of N `change score
//! by 1` blocks (N = 20,000 by default; `GOBO_HOSTILE_BLOCKS=1000000` for the issue's million,
//! not timed here) goes through lint (with itself as base), hooks, metadata, scenario
//! instantiation and site search without panicking, and each answer is the bounded one.

use gobo::scratch::forge::templates::{instantiate, ScenarioConfig};
use gobo::scratch::forge::{extract, hooks, sites, Operator};
use gobo::scratch::lint::lint;
use gobo::scratch::project::load;

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
