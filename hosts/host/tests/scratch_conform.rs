//! scratch-vm's own execute fixtures (`../shared/refvm/fixtures/execute`: 2 `.sb3` + 45
//! converted from `.sb2`) under the SAY `plan`/`pass`/`fail`/`end` protocol, read through the
//! `.sb3` reader and run by the core's `scratch::conform`. Skips cleanly without `../shared`.
//! Every failing fixture is named; the pass count is printed.

#[path = "../../../tests-support/reference.rs"]
mod reference;

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::conform::run_fixture;
use gobo::scratch::project::load;
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::Config;

fn fixtures() -> Option<PathBuf> {
    let p = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("refvm/fixtures/execute");
    p.is_dir().then_some(p)
}

fn sb3_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            sb3_files(&e, out);
        } else if e.extension().is_some_and(|x| x == "sb3") {
            out.push(e);
        }
    }
}

#[test]
fn execute_fixtures_pass() {
    let Some(dir) = fixtures() else {
        reference::skipped(
            "scratch_conform::execute_fixtures_pass",
            "../shared/refvm/fixtures/execute not found (set GOBO_SHARED)",
        );
        return;
    };
    reference::ran("scratch_conform::execute_fixtures_pass");
    let mut files = Vec::new();
    sb3_files(&dir, &mut files);
    let mut failed = Vec::new();
    for f in &files {
        let verdict = gobo_host::sb3::load_path(f)
            .map_err(|e| e.to_string())
            .and_then(|p| load(&p.project_json).map_err(|e| e.to_string()))
            .and_then(|p| compile(&p).map_err(|e| e.to_string()))
            .and_then(|img| {
                run_fixture(
                    img,
                    Config {
                        audio: AudioMode::None,
                        drag: gobo::scratch::vm::drag::DragStyle::None,
                        ..Config::default()
                    },
                    300,
                )
                .map_err(|e| e.to_string())
            });
        match verdict {
            Ok(o) if o.ok() => {}
            Ok(o) => failed.push(format!("{}: {o:?}", f.display())),
            Err(e) => failed.push(format!("{}: {e}", f.display())),
        }
    }
    println!("{} of {} execute fixtures pass", files.len() - failed.len(), files.len());
    assert_eq!(files.len(), 47, "expected 2 + 45 .sb3 fixtures");
    assert!(failed.is_empty(), "failing fixtures:\n{}", failed.join("\n"));
}
