//! Reference comparisons that say whether they ran: a test that compares with `../shared`
//! (or `$GOBO_SHARED`) reports [`ran`] or [`skipped`]. A skip is written straight to the
//! terminal's stderr (past the test harness's capture), so `cargo test`'s output names every
//! skipped comparison and why; with `GOBO_REFERENCE_LOG=FILE` each report is also appended to
//! FILE as `ran NAME` or `skipped NAME: WHY`, which `.ci/run` counts (and fails on a skip when
//! `../shared` is present). Included by each test crate with `#[path]`.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

/// The reference material: `$GOBO_SHARED`, else `../shared` beside the repository.
pub fn shared() -> Option<PathBuf> {
    let dir = match std::env::var_os("GOBO_SHARED") {
        Some(d) => PathBuf::from(d),
        None => repo_root().join("../shared"),
    };
    dir.is_dir().then_some(dir)
}

/// The repository root: the nearest folder above the crate holding `.ci/run`.
pub fn repo_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut dir = here.as_path();
    while !dir.join(".ci/run").is_file() {
        match dir.parent() {
            Some(p) => dir = p,
            None => return here,
        }
    }
    dir.to_path_buf()
}

fn log(line: &str) {
    if let Some(path) = std::env::var_os("GOBO_REFERENCE_LOG") {
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = f.write_all(format!("{line}\n").as_bytes());
        }
    }
}

/// The comparison `name` ran.
pub fn ran(name: &str) {
    log(&format!("ran {name}"));
}

/// The comparison `name` did not run, because of `why`.
pub fn skipped(name: &str, why: &str) {
    let line = format!("skipped {name}: {why}");
    // Straight to the file descriptor: `eprintln!` would be captured by the test harness.
    let _ = std::io::stderr().write_all(format!("\n{line}\n").as_bytes());
    log(&line);
}
