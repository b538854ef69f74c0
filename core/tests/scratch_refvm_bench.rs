//! The reference harness's own workloads (`../shared/refvm/bench/*`): gobo's trace must equal
//! the trace of scratch-vm 5.0.300 (checked in under `tests/golden/refvm-bench/`, made by
//! `node ../shared/refvm/trace.js ../shared/refvm/bench/<name>/project.json [--scenario ...]
//! --out core/tests/golden/refvm-bench/<name>.trace.jsonl`) on every frame and field.
//! The projects stay in `../shared`; the test skips when it is absent.
//!
//! One known divergence is listed, not hidden: `io_demo` presses the mouse on a sprite at
//! frame 12. Which target a click hits is decided by sprite geometry (the reference's stub
//! renderer hit-tests costume rectangles), which gobo does not model yet, so the `clicks`
//! counter and the "clicked" bubble of that frame differ. The test asserts that nothing else
//! does.

#[path = "../../tests-support/reference.rs"]
mod reference;

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::run_frames;
use gobo::scratch::vm::{Config, Vm};
use serde_json::Value as Json;

fn shared() -> Option<PathBuf> {
    let p = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    p.join("refvm/bench").is_dir().then_some(p)
}

/// All differing leaf paths between two JSON values.
fn diffs(a: &Json, b: &Json, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => diffs(v, w, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}")),
                }
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!("{path}.{k}"));
            }
        }
        (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                diffs(u, v, &format!("{path}[{i}]"), out);
            }
        }
        _ if a == b => {}
        _ => out.push(path.to_string()),
    }
}

/// Run a bench project and return, per frame, the differing field paths.
fn compare(name: &str, scenario: Option<&str>) -> Option<Vec<(u64, Vec<String>)>> {
    let Some(shared) = shared() else {
        reference::skipped(
            "scratch_refvm_bench::compare",
            "../shared/refvm/bench not found (set GOBO_SHARED)",
        );
        return None;
    };
    reference::ran("scratch_refvm_bench::compare");
    let project = std::fs::read(shared.join("refvm/bench").join(name).join("project.json")).ok()?;
    let sc = match scenario {
        Some(s) => Scenario::parse(&std::fs::read(shared.join("refvm/scenarios").join(s)).ok()?)
            .expect("scenario"),
        None => Scenario::green_flag(),
    };
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/refvm-bench")
        .join(format!("{name}.trace.jsonl"));
    let reference: Vec<Json> = std::fs::read_to_string(golden)
        .expect("golden trace")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .filter(|l: &Json| l.get("f").is_some())
        .collect();
    let img = compile(&load(&project).expect("load")).expect("compile");
    let mut vm = Vm::new(img, Config::default()).expect("vm");
    let mut ours = Vec::new();
    run_frames(&mut vm, &sc, reference.len() as u64, false, &mut |l| {
        ours.push(serde_json::from_str::<Json>(l).expect("json"))
    });
    assert_eq!(ours.len(), reference.len(), "{name}: frames");
    let mut out = Vec::new();
    for (r, g) in reference.iter().zip(&ours) {
        let mut d = Vec::new();
        diffs(r, g, "", &mut d);
        if !d.is_empty() {
            out.push((r["f"].as_u64().unwrap_or(0), d));
        }
    }
    Some(out)
}

fn assert_identical(name: &str) {
    if let Some(d) = compare(name, None) {
        assert!(d.is_empty(), "{name}: first divergence {:?}", d.first());
    }
}

#[test]
fn loop1m_warp() {
    assert_identical("loop1m_warp");
}

#[test]
fn loop100k_nowarp() {
    assert_identical("loop100k_nowarp");
}

#[test]
fn semantics_demo() {
    assert_identical("semantics_demo");
}

#[test]
fn io_demo_differs_only_where_a_click_needs_geometry() {
    let Some(d) = compare("io_demo", Some("io_demo.json")) else { return };
    for (f, paths) in &d {
        for p in paths {
            let pick = *f >= 12
                && (p == ".globals.vars.clicks"
                    || (*f == 12 && (p == ".redraw" || p.starts_with(".says")))
                    || ((12..=14).contains(f) && p.starts_with(".sprites[0].bubble")));
            assert!(pick, "io_demo frame {f}: unexpected divergence at {p}");
        }
    }
    // The click divergence is real and visible (so this test notices when picking lands).
    assert!(d.iter().any(|(f, _)| *f == 12), "io_demo: expected the frame-12 click divergence");
}
