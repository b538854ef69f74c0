//! Geometry caches and the touching memo versus none: every project with costumes in the
//! repository (the stage goldens with their scenarios, the clone bench workloads,
//! `tests/fixtures/geometry_churn`, where costume, size, rotation style, shape effect,
//! direction, position and visibility all change at random, `tests/fixtures/edge_sweep`,
//! forty sprites of random sizes and rotation centres jumping to every distance from the
//! edges, `tests/fixtures/touch_churn` and `touch_flip`, which ask every touching query
//! several times a frame while everything those answers depend on changes, and
//! `tests/fixtures/maze_idle`, a
//! maze polling its wall colour and goal while mostly idle) runs with its skins twice, with
//! `Config::geometry_cache` (or `Config::touch_memo`) on and off, and every frame's trace line
//! must be identical. Direct writes (`Input::SetSprite`, as test suites make them) are sent to
//! the first sprite between frames, and the mouse moves, presses and drags. A stale transform,
//! position-free part or hull bound would move a fenced or bounced sprite, or change a
//! `touching edge` count, in the cached run; so would a shortcut for sprites clear of the
//! edges that is taken where it does not hold; a stale touching answer changes a counter
//! (and in debug builds the memo checks every hit against the full query).

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
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
    for f in ["geometry_churn", "edge_sweep", "touch_churn", "touch_flip", "maze_idle"] {
        out.push((format!("fixtures/{f}"), root().join("hosts/host/tests/fixtures").join(f)));
    }
    out
}

/// Frame lines of `frames` frames: the project's scenario (`scenario.json` in its folder) or
/// the green flag at frame 0, then every 7th frame a direct write to the first sprite
/// (position, direction or both, some off the stage), and the mouse moving every 4th frame
/// with a press held over 12 frames every 40 (a drag where it lands on a draggable sprite);
/// neither in `touch_flip`, which makes its own changes one at a time.
fn run(path: &Path, cfg: Config, frames: u64) -> Vec<String> {
    let files = gobo_host::sb3::load_path(path).expect("project files");
    let project = load(&files.project_json).expect("load");
    let mut img = compile(&project).expect("compile");
    let warnings = attach_skins(&mut img, &project, &files, &SkinOptions::default());
    assert!(warnings.is_empty(), "{}: {warnings:?}", path.display());
    // `touch_flip` makes one change at a time itself: no direct writes or mouse there.
    let own = path.ends_with("touch_flip");
    let sprite = project.targets.iter().find(|t| !t.is_stage).map(|t| t.name.clone());
    let sprite = sprite.filter(|_| !own);
    let scenario = match std::fs::read(path.join("scenario.json")) {
        Ok(bytes) => Scenario::parse(&bytes).expect("scenario"),
        Err(_) => Scenario::green_flag(),
    };
    let mut vm = Vm::new(img, cfg).expect("vm");
    let mut lines = Vec::new();
    for f in 0..frames {
        let mut inputs: Vec<Input> = scenario.at(f).map(|e| e.2.clone()).collect();
        if f % 4 == 2 && !own {
            let k = f as f64;
            inputs.push(Input::MouseMove(200.0 * (k / 9.0).sin(), 150.0 * (k / 13.0).cos()));
        }
        match if own { 0 } else { f % 40 } {
            20 => inputs.push(Input::MouseDown(None, None)),
            32 => inputs.push(Input::MouseUp(None, None)),
            _ => {}
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
        let plain = run(&path, Config { geometry_cache: false, ..Config::default() }, frames);
        let cached = run(&path, Config::default(), frames);
        if let Some(i) = plain.iter().zip(&cached).position(|(a, b)| a != b) {
            panic!("{name}: frame {i} differs\nuncached: {}\ncached:   {}", plain[i], cached[i]);
        }
        assert_eq!(plain.len(), cached.len(), "{name}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} projects");
}

#[test]
fn touch_memo_equals_no_memo() {
    let mut checked = 0;
    for (name, path) in projects() {
        let frames = if name.starts_with("benches/") { 40 } else { 150 };
        let plain = run(&path, Config { touch_memo: false, ..Config::default() }, frames);
        let memo = run(&path, Config::default(), frames);
        if let Some(i) = plain.iter().zip(&memo).position(|(a, b)| a != b) {
            panic!("{name}: frame {i} differs\nno memo: {}\nmemo:    {}", plain[i], memo[i]);
        }
        assert_eq!(plain.len(), memo.len(), "{name}");
        checked += 1;
    }
    assert!(checked >= 14, "only {checked} projects");
}

/// The touch fixtures answer every query true some of the time.
#[test]
fn the_touch_fixtures_touch() {
    let fixtures = [
        ("touch_churn", &["red", "blue", "greenred", "edge", "mouse", "wall", "walker"][..]),
        ("touch_flip", &["red", "blue", "greenred", "edge", "wall", "redsprite", "blueclone"][..]),
    ];
    for (fixture, counters) in fixtures {
        let path = root().join("hosts/host/tests/fixtures").join(fixture);
        let lines = run(&path, Config::default(), 150);
        let last = lines.last().expect("frames");
        for counter in counters {
            let n = last.split(&format!("\"{counter}\":")).nth(1);
            let n: f64 = n.and_then(|r| r.split([',', '}']).next()?.parse().ok()).expect("counter");
            assert!(n > 0.0, "{fixture}: {counter} never touched: {last}");
        }
    }
}

/// The churn fixture really exercises what it claims: its sprites bounce off and touch the
/// edge (the counter grows) and switch costumes.
#[test]
fn the_churn_fixture_churns() {
    let lines =
        run(&root().join("hosts/host/tests/fixtures/geometry_churn"), Config::default(), 150);
    let last = lines.last().expect("frames");
    assert!(last.contains("\"edges\""), "{last}");
    assert!(!last.contains("\"edges\":0,"), "no edge touched: {last}");
    assert!(lines.iter().any(|l| l.contains("\"costume\":1")), "no costume switch");
}

/// The sweep fixture reaches the edges often and uses its costume with the rotation centre
/// outside it.
#[test]
fn the_sweep_fixture_sweeps() {
    let lines = run(&root().join("hosts/host/tests/fixtures/edge_sweep"), Config::default(), 150);
    let last = lines.last().expect("frames");
    let edges = last.split("\"edges\":").nth(1).and_then(|r| r.split([',', '}']).next());
    let edges: f64 = edges.and_then(|e| e.parse().ok()).expect("edges counter");
    assert!(edges > 200.0, "only {edges} edge frames: {last}");
    assert!(lines.iter().any(|l| l.contains("\"costume\":2")), "no third costume");
}
