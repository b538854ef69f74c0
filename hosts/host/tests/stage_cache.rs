//! Geometry caches versus no caches: every project with costumes in the repository (the stage
//! goldens, the clone bench workloads, `tests/fixtures/geometry_churn`, where costume,
//! size, rotation style, shape effect, direction, position and visibility all change at
//! random, and `tests/fixtures/edge_sweep`, forty sprites of random sizes and rotation
//! centres jumping to every distance from the edges) runs with its skins twice, with
//! `Config::geometry_cache` on and off, and every frame's trace line must be identical. Direct writes (`Input::SetSprite`, as test suites
//! make them) are sent to the churn fixture's sprite between frames. A stale transform,
//! position-free part or hull bound would move a fenced or bounced sprite, or change a
//! `touching edge` count, in the cached run; so would a shortcut for sprites clear of the
//! edges that is taken where it does not hold.

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::trace::frame_line;
use gobo::scratch::vm::{Config, Input, Vm};
use gobo_host::skins::{attach_skins, SkinOptions};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (name, project folder or `.project.json` with its assets beside it).
fn projects() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let stage = root().join("hosts/host/tests/golden/stage");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&stage)
        .expect("stage goldens")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("project.json").is_file())
        .collect();
    dirs.sort();
    for d in dirs {
        let name = d.file_name().unwrap_or_default().to_string_lossy().into_owned();
        out.push((format!("stage/{name}"), d));
    }
    for w in ["clones300_move", "sprites100_motion"] {
        let p = root().join(format!("benches/workloads/scratch/{w}.project.json"));
        out.push((format!("benches/{w}"), p));
    }
    for f in ["geometry_churn", "edge_sweep"] {
        out.push((format!("fixtures/{f}"), root().join("hosts/host/tests/fixtures").join(f)));
    }
    out
}

/// Frame lines of `frames` frames: the green flag at frame 0, then every 7th frame a direct
/// write to the first sprite (position, direction or both, some off the stage).
fn run(path: &Path, geometry_cache: bool, frames: u64) -> Vec<String> {
    let files = gobo_host::sb3::load_path(path).expect("project files");
    let project = load(&files.project_json).expect("load");
    let mut img = compile(&project).expect("compile");
    let warnings = attach_skins(&mut img, &project, &files, &SkinOptions::default());
    assert!(warnings.is_empty(), "{}: {warnings:?}", path.display());
    let sprite = project.targets.iter().find(|t| !t.is_stage).map(|t| t.name.clone());
    let mut vm = Vm::new(img, Config { geometry_cache, ..Config::default() }).expect("vm");
    let mut lines = Vec::new();
    for f in 0..frames {
        let mut inputs = Vec::new();
        if f == 0 {
            inputs.push(Input::GreenFlag);
        }
        if let (Some(name), true) = (&sprite, f % 7 == 3) {
            let k = (f / 7) as f64;
            let (x, y, d) = match (f / 7) % 3 {
                0 => (Some(300.0 - 37.0 * k), None, Some(k * 31.5 - 170.0)),
                1 => (Some(-k), Some(250.0 - 20.0 * k), None),
                _ => (None, None, Some(-k * 13.25)),
            };
            inputs.push(Input::SetSprite { sprite: name.clone(), x, y, direction: d });
        }
        vm.step_frame(&inputs);
        lines.push(frame_line(&vm.observe(), &[]));
    }
    lines
}

#[test]
fn cached_geometry_equals_recomputed_geometry() {
    let mut checked = 0;
    for (name, path) in projects() {
        let frames = if name.starts_with("benches/") { 40 } else { 150 };
        let plain = run(&path, false, frames);
        let cached = run(&path, true, frames);
        if let Some(i) = plain.iter().zip(&cached).position(|(a, b)| a != b) {
            panic!("{name}: frame {i} differs\nuncached: {}\ncached:   {}", plain[i], cached[i]);
        }
        assert_eq!(plain.len(), cached.len(), "{name}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} projects");
}

/// The churn fixture really exercises what it claims: its sprites bounce off and touch the
/// edge (the counter grows) and switch costumes.
#[test]
fn the_churn_fixture_churns() {
    let lines = run(&root().join("hosts/host/tests/fixtures/geometry_churn"), true, 150);
    let last = lines.last().expect("frames");
    assert!(last.contains("\"edges\""), "{last}");
    assert!(!last.contains("\"edges\":0,"), "no edge touched: {last}");
    assert!(lines.iter().any(|l| l.contains("\"costume\":1")), "no costume switch");
}

/// The sweep fixture reaches the edges often and uses its costume with the rotation centre
/// outside it.
#[test]
fn the_sweep_fixture_sweeps() {
    let lines = run(&root().join("hosts/host/tests/fixtures/edge_sweep"), true, 150);
    let last = lines.last().expect("frames");
    let edges = last.split("\"edges\":").nth(1).and_then(|r| r.split([',', '}']).next());
    let edges: f64 = edges.and_then(|e| e.parse().ok()).expect("edges counter");
    assert!(edges > 200.0, "only {edges} edge frames: {last}");
    assert!(lines.iter().any(|l| l.contains("\"costume\":2")), "no third costume");
}
