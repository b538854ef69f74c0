//! A batch streams: `gobo xlogo eval --batch` over a generated 200 MB input keeps its peak
//! resident memory (the child process's `ru_maxrss`) under a fixed bound, far below the input's
//! size (before rows streamed, a 705 MB batch peaked at 13.7 GB). One test in this binary, so
//! the only child whose peak `getrusage(RUSAGE_CHILDREN)` reports is the CLI run here.

#![allow(unsafe_code)] // getrusage is a plain libc call on a zeroed struct.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

const INPUT_BYTES: u64 = 200 << 20;
/// The bound on the CLI's peak resident memory.
const PEAK_BOUND_MIB: i64 = 64;

fn children_peak_kib() -> i64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable rusage.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage");
    usage.ru_maxrss as i64
}

#[test]
fn a_200_mb_xlogo_batch_runs_in_bounded_memory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("gobo-batch-memory-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let task: Value = serde_json::from_slice(
        &fs::read(root.join("examples/xlogo/find-strawberry.json")).unwrap(),
    )
    .unwrap();
    let code = fs::read_to_string(root.join("examples/xlogo/find-strawberry.py")).unwrap();
    // Rows of ~4 KB (a note the evaluator ignores pads them), every 10th failing.
    let pad = "p".repeat(3500);
    let input = dir.join("in.jsonl");
    let mut w = BufWriter::new(fs::File::create(&input).unwrap());
    let (mut written, mut rows) = (0u64, 0u64);
    while written < INPUT_BYTES {
        let code = if rows % 10 == 9 { "def run():\n    move_forward()\n" } else { code.as_str() };
        let line = json!({"id": rows, "task": task, "code": code, "note": pad}).to_string();
        writeln!(w, "{line}").unwrap();
        written += line.len() as u64 + 1;
        rows += 1;
    }
    w.flush().unwrap();
    drop(w);
    let out = dir.join("out.jsonl");
    let before = children_peak_kib();
    let status = Command::new(env!("CARGO_BIN_EXE_gobo"))
        .args(["xlogo", "eval", "--batch"])
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "2"])
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let peak_mib = children_peak_kib() / 1024;
    let stderr = String::from_utf8_lossy(&status.stderr);
    println!("{rows} rows, {} MiB in; peak RSS {peak_mib} MiB; {stderr}", written >> 20);
    assert!(before < PEAK_BOUND_MIB * 1024, "an earlier child used {before} KiB");
    // Every 10th row fails: exit 1, and every row is there, in order.
    assert_eq!(status.status.code(), Some(1), "{stderr}");
    let failed = rows / 10;
    assert!(stderr.contains(&format!("{} passed, {failed} failed", rows - failed)), "{stderr}");
    let text = fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count() as u64, rows);
    let last: Value = serde_json::from_str(text.lines().last().unwrap_or_default()).unwrap();
    assert_eq!(last["id"], json!(rows - 1));
    assert!(peak_mib < PEAK_BOUND_MIB, "peak RSS {peak_mib} MiB >= {PEAK_BOUND_MIB} MiB");
    let _ = fs::remove_dir_all(&dir);
}
