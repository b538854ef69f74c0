//! Scratch 2 projects read through `gobo_host::project` (the `.sb2` archive, the core's
//! conversion, assets renamed to the converted `md5ext`):
//! - the trace goldens in `tests/golden/sb2/<name>/` (our own `.sb2` archives, written by
//!   `scripts/sb2_golden_projects.py`, traced by scratch-vm 5.0.300 loading them with its own
//!   sb2 deserializer, `scripts/regen-sb2-goldens.sh`) match line for line, end line included
//!   (its `uidCalls` counts the ids scratch-vm drew while converting);
//! - scratch-vm's 45 Scratch 2 execute fixtures (`../shared/refvm/fixtures/execute/sb2`) pass
//!   the SAY protocol, and each runs exactly like its twin converted and saved by scratch-vm
//!   (`converted-from-sb2/`), frame by frame; skipped visibly without `../shared`.

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::conform::run_fixture;
use gobo::scratch::project::{LoadOptions, SourceFormat};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::{end_line, run_frames};
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::{Config, Vm};
use gobo_host::project::load_files;
use gobo_host::sb3::load_path;
use gobo_host::skins::{attach_skins, SkinOptions};

/// The reference harnesses' configuration: no audio engine, nothing drags.
fn config(seed: u32) -> Config {
    Config {
        seed,
        audio: AudioMode::None,
        drag: gobo::scratch::vm::drag::DragStyle::None,
        ..Config::default()
    }
}

fn image(path: &Path) -> gobo::scratch::image::Image {
    let files = load_path(path).expect("project files");
    let options = LoadOptions { repair_references: true };
    let (project, files) = load_files(&files, &options).expect("loads");
    let mut img = compile(&project).expect("compiles");
    attach_skins(&mut img, &project, &files, &SkinOptions::default());
    img
}

fn trace(path: &Path, scenario: &Scenario, frames: u64, seed: u32) -> (Vec<String>, String) {
    let mut vm = Vm::new(image(path), config(seed)).expect("vm");
    let mut lines = Vec::new();
    run_frames(&mut vm, scenario, frames, false, &mut |l| lines.push(l.to_string()));
    (lines, end_line(&vm))
}

fn golden(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sb2").join(name);
    let scenario =
        Scenario::parse(&std::fs::read(dir.join("scenario.json")).expect("scenario")).unwrap();
    let reference = std::fs::read_to_string(dir.join("trace.jsonl")).expect("golden trace");
    let lines: Vec<&str> = reference.lines().collect();
    let meta: serde_json::Value = serde_json::from_str(lines[0]).expect("meta");
    let frames = meta["meta"]["frames"].as_u64().expect("frames");
    let seed = meta["meta"]["seed"].as_u64().expect("seed") as u32;
    let (ours, end) = trace(&dir.join("project.sb2"), &scenario, frames, seed);
    let want = &lines[1..lines.len() - 1];
    assert_eq!(want.len(), ours.len(), "{name}: frame count");
    for (i, (w, g)) in want.iter().zip(&ours).enumerate() {
        assert_eq!(w, g, "{name}: frame {i} differs");
    }
    assert_eq!(lines[lines.len() - 1], end, "{name}: end line");
}

#[test]
fn golden_blocks() {
    golden("blocks");
}

#[test]
fn golden_procedures() {
    golden("procedures");
}

#[test]
fn golden_names() {
    golden("names");
}

/// The converted project keeps its assets under the names the converted model gives them, and
/// saving it gives a Scratch 3 project that loads back into the same model.
#[test]
fn converted_files_are_scratch3() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sb2/blocks");
    let files = load_path(&dir.join("project.sb2")).expect("files");
    assert!(files.assets.contains_key("1.svg"), "the archive names assets by layer id");
    let options = LoadOptions::default();
    let (project, converted) = load_files(&files, &options).expect("loads");
    assert!(matches!(project.source, SourceFormat::Sb2 { load_uid_calls } if load_uid_calls > 0));
    let names = gobo_host::sb3::asset_names(&converted.project_json);
    assert!(!names.is_empty());
    for n in &names {
        assert!(converted.assets.contains_key(n), "converted asset {n} missing");
        let (md5, _) = n.split_once('.').unwrap();
        assert_eq!(md5, gobo::md5::hex(&converted.assets[n]), "{n} is named by its md5");
    }
    let again = gobo::scratch::project::load(&converted.project_json).expect("reloads");
    assert_eq!(again.targets, project.targets);
    assert_eq!(again.monitors, project.monitors);
}

fn shared_fixtures() -> Option<PathBuf> {
    let p = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("refvm/fixtures/execute");
    p.join("sb2").is_dir().then_some(p)
}

#[test]
fn execute_fixtures_pass_and_run_like_their_scratch3_twins() {
    let Some(dir) = shared_fixtures() else {
        println!("skipped: ../shared/refvm/fixtures/execute/sb2 not found (set GOBO_SHARED)");
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("sb2"))
        .expect("sb2 folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sb2"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 45, "scratch-vm has 45 Scratch 2 execute fixtures");
    let mut failed = Vec::new();
    for f in &files {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let outcome = run_fixture(image(f), config(1), 300).expect("runs");
        if !outcome.ok() {
            failed.push(format!("{name}: {outcome:?}"));
            continue;
        }
        let twin = dir.join("converted-from-sb2").join(format!("{name}.sb3"));
        let scenario = Scenario::green_flag();
        let (ours, _) = trace(f, &scenario, 60, 1);
        let (theirs, _) = trace(&twin, &scenario, 60, 1);
        if let Some(i) = (0..ours.len()).find(|&i| ours[i] != theirs[i]) {
            failed.push(format!("{name}: frame {i} differs from the converted twin"));
        }
    }
    println!("{} of {} Scratch 2 execute fixtures pass and match", 45 - failed.len(), 45);
    assert!(failed.is_empty(), "failing fixtures:\n{}", failed.join("\n"));
}
