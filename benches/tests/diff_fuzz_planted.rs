//! The differential fuzzer finds a planted divergence. With the core's test-only rule switched
//! on (`gobo::scratch::planted`, feature `planted-divergence`: `operator_mod` as JavaScript's
//! truncating `%`), a campaign run against scratch-vm in Node (`../shared/refvm`) reports a
//! program as diverging and minimizes it to a smaller program that still uses `operator_mod`;
//! switched off, the same program runs the same in gobo and in the reference.
//!
//! The program: a generated one (of some size) with one more stage script, `when flag clicked:
//! set variable to ((-7) mod (3))`, found by searching the generator's description space (the
//! generator alone rarely writes `mod` with operands of opposite signs). Skips visibly when
//! `../shared` or Node is missing. One test in this binary: the switch is process-wide.

use std::path::PathBuf;

#[path = "../../tests-support/reference.rs"]
mod reference;

use gobo_benches::diff::campaign::{self, Options};
use gobo_benches::diff::gen::{Block, Expr, Profile, ProjectDef, ScriptDef};
use gobo_benches::diff::oracle::Oracle;
use gobo_benches::diff::{ours, plant, program_def};

const SEED: u64 = 11;

fn options(shared: &std::path::Path, out: PathBuf, minimize: bool) -> Options {
    Options {
        seed: SEED,
        start: 0,
        count: 0,
        profile: Profile::GeometryFree,
        oracle: Oracle::Node,
        shared: shared.to_path_buf(),
        out,
        minimize,
        minimize_runs: 150,
        max_trace_bytes: 8 << 20,
    }
}

/// A stage script `when flag clicked: set <var> to ((-7) mod (3))` in the generator's terms.
fn mod_script() -> ScriptDef {
    for op in 0..=u8::MAX {
        for rep in 0..=u8::MAX {
            let script = ScriptDef {
                hat: 0,
                arg: 0,
                body: vec![Block {
                    op,
                    args: vec![Expr::Rep(rep, 0, vec![Expr::Int(-7), Expr::Int(3)])],
                    field: 0,
                    branches: Vec::new(),
                }],
            };
            let def = ProjectDef {
                stage: vec![script.clone()],
                sprites: Vec::new(),
                events: Vec::new(),
                frames: 0,
                seed: 0,
                budget: 0,
            };
            let json = def.program(Profile::GeometryFree).project_json;
            if json.contains("event_whenflagclicked")
                && json.contains("data_setvariableto")
                && json.contains("operator_mod")
            {
                return script;
            }
        }
    }
    panic!("the generator writes no set-variable-to-mod script");
}

/// Whether the planted rule changes gobo's own trace of `def` (gobo only: cheap).
fn planted_changes_gobo(def: &ProjectDef) -> bool {
    let p = def.program(Profile::GeometryFree);
    let Ok(sb3) = ours::pack(&p) else { return false };
    plant(false);
    let off = ours::trace(&sb3, &p);
    plant(true);
    let on = ours::trace(&sb3, &p);
    plant(false);
    off.is_ok() && on.is_ok() && off != on
}

#[test]
fn planted_divergence_is_found_reported_and_minimized() {
    const NAME: &str = "diff_fuzz_planted::planted_divergence_is_found_reported_and_minimized";
    let Some(shared) = reference::shared() else {
        reference::skipped(NAME, "../shared is absent");
        return;
    };
    if let Some(why) = Oracle::Node.missing(&shared) {
        reference::skipped(NAME, &why);
        return;
    }
    assert!(plant(false), "the benches' tests build the core with planted-divergence");
    let root = std::env::temp_dir().join(format!("gobo-diff-planted-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);

    // The first generated program of some size that, with the mod script added, the planted
    // rule changes in gobo and that agrees with the reference when the rule is off (a real
    // divergence elsewhere in it would muddle the test).
    let script = mod_script();
    let mut tried = Vec::new();
    let mut found = None;
    for index in 0..400 {
        let mut def = program_def(SEED, index);
        if def.size() < 12 {
            continue;
        }
        def.stage.push(script.clone());
        if !planted_changes_gobo(&def) {
            continue;
        }
        let out = root.join(format!("off-{index}"));
        let off = campaign::run_defs(&options(&shared, out, false), [(index, def.clone())], |_| {})
            .expect("campaign runs");
        tried.push((index, off.same, off.diverged, off.inconclusive.clone()));
        if off.same == 1 {
            found = Some((index, def));
            break;
        }
        if tried.len() == 5 {
            break;
        }
    }
    let Some((index, def)) = found else {
        panic!("no program agrees with the reference with the rule off: {tried:?}");
    };

    plant(true);
    let out = root.join("on");
    let on =
        campaign::run_defs(&options(&shared, out.clone(), true), [(index, def.clone())], |_| {});
    plant(false);
    let on = on.expect("campaign runs");
    let report = std::fs::read_to_string(out.join("report.jsonl")).expect("report.jsonl");
    assert_eq!((on.tried, on.diverged), (1, 1), "{on:?}: {report}");
    assert!(on.minimizer_runs > 0 && on.minimizer_runs <= 150, "{on:?}");

    let line: serde_json::Value =
        serde_json::from_str(report.lines().next().expect("a report line")).expect("JSON");
    assert_eq!(line["index"], index);
    assert_eq!(line["oracle"], "node");
    assert_ne!(line["reference"], line["gobo"], "{line}");
    let minimized = &line["minimized"];
    assert!(minimized.is_object(), "the divergence is minimized: {line}");
    let (before, after) = (line["size"].as_u64().unwrap(), minimized["size"].as_u64().unwrap());
    assert_eq!(before as usize, def.size());
    assert!(after < before, "{before} -> {after}");
    let dir = PathBuf::from(line["dir"].as_str().expect("dir"));
    let small = std::fs::read_to_string(dir.join("minimized/project.json")).expect("minimized");
    assert!(small.contains("operator_mod"), "{small}");
    for f in ["project.sb3", "scenario.json", "reference.jsonl", "gobo.jsonl"] {
        assert!(dir.join("minimized").join(f).exists(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&root);
    reference::ran(NAME);
}
