//! Stage-geometry goldens: every `tests/golden/stage/<name>/` (a project with its own costume
//! assets, a scenario and the trace of the browser reference, scratch-vm 5.0.300 with
//! scratch-render 2.2.84; `scripts/regen-stage-goldens.sh`) is loaded with its skins, run by
//! gobo and compared frame by frame, field by field. A failure lists every differing frame
//! with its first differing field, and the agreement (frames equal / total).

#[path = "../../../tests-support/reference.rs"]
mod reference;

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::run_frames;
use gobo::scratch::vm::{Config, Vm};
use gobo_host::skins::{attach_skins, SkinOptions};
use serde_json::Value as Json;

fn golden_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/stage").join(name)
}

/// The first difference between two JSON values, as a path.
fn first_diff(a: &Json, b: &Json, path: &str) -> Option<String> {
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    None => return Some(format!("{path}.{k}: missing in gobo")),
                    Some(w) => {
                        if let Some(d) = first_diff(v, w, &format!("{path}.{k}")) {
                            return Some(d);
                        }
                    }
                }
            }
            (x.len() != y.len()).then(|| format!("{path}: key counts {} vs {}", x.len(), y.len()))
        }
        (Json::Array(x), Json::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: length {} vs {}", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (u, v))| first_diff(u, v, &format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(format!("{path}: reference {a} vs gobo {b}")),
    }
}

/// Runs a project folder against a reference trace; returns (frames equal, total, diffs).
fn agreement(
    project_dir: &Path,
    scenario: Option<&Path>,
    trace: &Path,
) -> (usize, usize, Vec<String>) {
    let files = gobo_host::sb3::load_path(project_dir).expect("project files");
    let project = load(&files.project_json).expect("load");
    let mut img = compile(&project).expect("compile");
    let warnings = attach_skins(&mut img, &project, &files, &SkinOptions::default());
    assert!(warnings.is_empty(), "{warnings:?}");
    let scenario = match scenario {
        Some(p) => Scenario::parse(&std::fs::read(p).expect("scenario")).expect("scenario"),
        None => Scenario::green_flag(),
    };
    let reference: Vec<Json> = std::fs::read_to_string(trace)
        .expect("golden trace")
        .lines()
        .map(|l| serde_json::from_str(l).expect("reference line"))
        .collect();
    let meta = &reference[0]["meta"];
    let frames = meta["frames"].as_u64().unwrap_or(300);
    let cfg = Config {
        seed: meta["seed"].as_u64().unwrap_or(1) as u32,
        fps: meta["fps"].as_u64().unwrap_or(30) as u32,
        // The reference ran without an audio engine.
        audio: gobo::scratch::vm::sound::AudioMode::None,
        // ... and no GUI: mouse events go straight to the VM.
        drag: gobo::scratch::vm::drag::DragStyle::None,
        ..Config::default()
    };
    let mut vm = Vm::new(img, cfg).expect("vm");
    let mut ours: Vec<Json> = Vec::new();
    let mut text = String::new();
    run_frames(&mut vm, &scenario, frames, false, &mut |line| {
        ours.push(serde_json::from_str(line).expect("gobo line"));
        text.push_str(line);
        text.push('\n');
    });
    // GOBO_STAGE_DUMP=FILE writes gobo's trace, to compare it whole with the reference.
    if let Some(out) = std::env::var_os("GOBO_STAGE_DUMP") {
        std::fs::write(out, &text).expect("dump gobo's trace");
    }
    let theirs: Vec<&Json> = reference.iter().filter(|l| l.get("f").is_some()).collect();
    let mut diffs = Vec::new();
    let mut equal = 0;
    for (i, r) in theirs.iter().enumerate() {
        match ours.get(i).and_then(|o| first_diff(r, o, "")) {
            None if ours.get(i).is_some() => equal += 1,
            None => diffs.push(format!("frame {i}: missing in gobo")),
            Some(d) => diffs.push(format!("frame {i}: {d}")),
        }
    }
    (equal, theirs.len(), diffs)
}

fn check(name: &str) {
    let dir = golden_dir(name);
    let (equal, total, diffs) =
        agreement(&dir, Some(&dir.join("scenario.json")), &dir.join("trace.jsonl"));
    println!("{name}: {equal}/{total} frames equal");
    assert!(diffs.is_empty(), "{name}: {equal}/{total} frames equal\n{}", diffs.join("\n"));
}

#[test]
fn motion_fence() {
    check("motion_fence");
}

#[test]
fn bounce() {
    check("bounce");
}

#[test]
fn size_layers() {
    check("size_layers");
}

#[test]
fn touching() {
    check("touching");
}

#[test]
fn clicks() {
    check("clicks");
}

#[test]
fn distort_sprite() {
    check("distort_sprite");
}

#[test]
fn distort_color() {
    check("distort_color");
}

#[test]
fn distort_edge_mouse() {
    check("distort_edge_mouse");
}

#[test]
fn touch_bounds() {
    check("touch_bounds");
}

#[test]
fn empty_costume() {
    check("empty_costume");
}

/// The mouse before the first mouse event: undefined and NaN positions (issue 19).
#[test]
fn mouse_undefined() {
    check("mouse_undefined");
}

/// `../shared` (or `$GOBO_SHARED`), if present.
fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    dir.join("refvm/bench").is_dir().then_some(dir)
}

/// A reference harness workload against its browser trace (100 frames, zipped).
fn check_bench(name: &str) {
    let Some(shared) = shared() else {
        reference::skipped(
            "stage_goldens::check_bench",
            "../shared/refvm/bench not found (set GOBO_SHARED)",
        );
        return;
    };
    reference::ran("stage_goldens::check_bench");
    let zip = std::fs::read(golden_dir("bench").join(format!("{name}.trace.zip"))).expect("zip");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).expect("zip archive");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut archive.by_name("trace.jsonl").expect("entry"), &mut text)
        .expect("trace text");
    let trace =
        std::env::temp_dir().join(format!("gobo-stage-{name}-{}.jsonl", std::process::id()));
    std::fs::write(&trace, text).expect("temp trace");
    let (equal, total, diffs) = agreement(&shared.join("refvm/bench").join(name), None, &trace);
    let _ = std::fs::remove_file(&trace);
    println!("{name}: {equal}/{total} frames equal");
    assert!(diffs.is_empty(), "{name}: {equal}/{total} frames equal\n{}", diffs.join("\n"));
}

#[test]
fn bench_clones300_move() {
    check_bench("clones300_move");
}

#[test]
fn bench_sprites100_motion() {
    check_bench("sprites100_motion");
}
