//! The checked-in Scratch workloads: the list parses, every project exists and gobo's loader
//! accepts it, and the result-line parser reads what the reference runners print.

use gobo_benches::reference::parse_rows;
use gobo_benches::suite::{Mode, Suite};

#[test]
fn every_listed_workload_loads_in_gobo() {
    let suite = Suite::load(&gobo_benches::scratch_workloads_dir()).expect("workloads.json");
    assert_eq!(suite.fps, 30);
    let names: Vec<&str> = suite.workloads.iter().map(|w| w.name.as_str()).collect();
    for wanted in ["loop1m_warp", "loop100k_nowarp", "clones300_move", "trivial", "warp7_1m"] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    for w in &suite.workloads {
        let bytes = std::fs::read(&w.path).unwrap_or_else(|e| panic!("{}: {e}", w.path.display()));
        let project = gobo::scratch::project::load(&bytes)
            .unwrap_or_else(|e| panic!("{}: gobo cannot load it: {e}", w.name));
        assert!(project.targets.len() >= 2, "{}: stage and at least one sprite", w.name);
        if let Mode::UntilIdle { iterations, .. } = w.mode {
            assert!(iterations > 0, "{}", w.name);
        }
    }
}

#[test]
fn runner_lines_parse_and_bad_lines_are_errors() {
    let out = "{\"impl\":\"scratch-vm 5.0.300\",\"workload\":\"trivial\",\"unit\":\"frames/s\",\
               \"value\":98358.2,\"median_ms\":30.5,\"runs\":3,\"frames\":3000,\"checked\":true}\n\n";
    let rows = parse_rows(out).expect("one row");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].workload, "trivial");
    assert!(rows[0].checked);
    assert!(parse_rows("{\"impl\":\"x\"}\n").is_err());
    assert!(parse_rows("not json\n").is_err());
}
