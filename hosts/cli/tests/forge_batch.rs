//! `gobo forge --batch` resumes after an interruption without losing or duplicating rows: a
//! batch over three small classroom projects (`tests-support/forge-corpus/`: clicker,
//! countdown, animation; every applicable pattern, few trials, short runs) is killed once some
//! rows are written, rerun with the same arguments, and must end with every (project,
//! pattern) row exactly once and the same `results.jsonl` bytes, and the same bug files, as
//! an uninterrupted run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const PROJECTS: [&str; 3] = ["animation", "clicker", "countdown"];

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gobo-forge-batch-{}-{name}", std::process::id()))
}

/// A folder holding copies of the three projects.
fn corpus() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests-support/forge-corpus");
    let dir = tmp("corpus");
    for name in PROJECTS {
        let to = dir.join(name).join("assets");
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(src.join(name).join("project.json"), dir.join(name).join("project.json"))
            .unwrap();
        for a in std::fs::read_dir(src.join(name).join("assets")).unwrap() {
            let a = a.unwrap();
            std::fs::copy(a.path(), to.join(a.file_name())).unwrap();
        }
    }
    dir
}

/// The batch command; its stderr goes to `OUT.stderr`.
fn command(corpus: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gobo"));
    c.args(["forge", "--batch", "--all-patterns", "--jobs", "1"])
        .args(["--trials", "2", "--reruns", "2", "--ticks", "150"])
        .arg(corpus)
        .arg("-o")
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(out.with_extension("stderr")).unwrap());
    c
}

/// Longest a batch may take (debug build, loaded machine); a hang fails the test.
const LIMIT: Duration = Duration::from_secs(600);

fn run_to_end(corpus: &Path, out: &Path) -> i32 {
    let mut child = command(corpus, out).spawn().expect("gobo runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        assert!(start.elapsed() < LIMIT, "the batch still runs after {LIMIT:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Complete lines of `results.jsonl` (a line cut off by the kill has no newline yet).
fn complete_rows(out: &Path) -> usize {
    std::fs::read(out.join("results.jsonl"))
        .map_or(0, |b| b.iter().filter(|c| **c == b'\n').count())
}

/// Every file under `dir` (relative path, bytes), but the results and manifest.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                all.insert(p.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&p).unwrap());
            }
        }
    }
    all
}

#[test]
fn an_interrupted_batch_resumes_to_the_rows_of_an_uninterrupted_one() {
    let corpus = corpus();
    let whole = tmp("whole");
    let cut = tmp("cut");

    let code = run_to_end(&corpus, &whole);
    assert!(code == 0 || code == 1, "exit {code}");
    let manifest = std::fs::read_to_string(whole.join("manifest.jsonl")).unwrap();
    let ids: Vec<String> = manifest
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect();
    assert!(ids.len() >= 6, "{ids:?}");
    for p in PROJECTS {
        assert!(ids.iter().any(|id| id.starts_with(&format!("{p}#"))), "{p}: {ids:?}");
    }
    let expected = std::fs::read_to_string(whole.join("results.jsonl")).unwrap();

    // Interrupt: kill the run once at least two rows are written and before the last.
    let mut child = command(&corpus, &cut).spawn().expect("gobo runs");
    let start = Instant::now();
    let written = loop {
        let n = complete_rows(&cut);
        if n >= 2 {
            break n;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the batch ended ({status}) before it could be interrupted");
        }
        assert!(start.elapsed() < LIMIT, "no rows after {LIMIT:?}");
        std::thread::sleep(Duration::from_millis(5));
    };
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(status.code().is_none(), "killed while running ({status}, {written} rows)");
    let partial = complete_rows(&cut);
    assert!(partial < ids.len(), "{partial} of {} rows before the kill", ids.len());

    // Resume with the same arguments.
    let resumed = run_to_end(&corpus, &cut);
    let err = std::fs::read_to_string(cut.with_extension("stderr")).unwrap();
    assert_eq!(resumed, code, "{err}");
    assert!(
        err.contains(&format!("{} rows (", ids.len())) && err.contains("kept from an earlier run"),
        "{err}"
    );

    let got = std::fs::read_to_string(cut.join("results.jsonl")).unwrap();
    let rows: Vec<String> = got
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rows, ids, "every (project, pattern) row exactly once, in manifest order");
    assert_eq!(got, expected, "the resumed results equal the uninterrupted ones byte for byte");
    assert_eq!(files(&cut), files(&whole), "the same bug files");

    for d in [corpus, whole.clone(), cut.clone()] {
        let _ = std::fs::remove_dir_all(d);
    }
    for f in [whole, cut] {
        let _ = std::fs::remove_file(f.with_extension("stderr"));
    }
}
