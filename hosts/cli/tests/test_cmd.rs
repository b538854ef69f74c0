//! `gobo test` end to end: exit statuses, the JSON report, seeds, and a batch run killed midway
//! then resumed, which must end with the same results file as an uninterrupted run.
//!
//! Cases are judged on the reference traces checked in under core/tests/fixtures/suite/.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn gobo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gobo"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-test-cmd-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

const LAMP: &str = "the lamp is dark for two seconds";
const BALL: &str = "the ball moves right and grows";

/// `gobo test` on the timing example with traces of two cases.
fn timing(variant: &str, extra: &[&str]) -> std::process::Output {
    let ex = root().join("examples/scratch/timing");
    let fx = root().join("core/tests/fixtures/suite/timing");
    let suffix = if variant == "broken.json" { ".broken.jsonl" } else { ".jsonl" };
    let trace =
        |case: &str, slug: &str| format!("{case}={}", fx.join(format!("{slug}{suffix}")).display());
    gobo()
        .arg("test")
        .arg(ex.join(variant))
        .arg(ex.join("suite.json"))
        .arg("--trace")
        .arg(trace(LAMP, "the-lamp-is-dark-for-two-seconds"))
        .arg("--trace")
        .arg(trace(BALL, "the-ball-moves-right-and-grows"))
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("gobo: {e}"))
}

#[test]
fn exit_status_and_reports() {
    let ok = timing("project.json", &[]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(text.contains("PASS  the lamp") && text.contains("2/2 cases passed"), "{text}");

    let bad = timing("broken.json", &["--json"]);
    assert_eq!(bad.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&bad.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report["success"], false);
    assert_eq!(report["passed_tests"], 1);
    assert_eq!(report["total_tests"], 2);
    assert_eq!(report["partial_success_rate"], 0.5);
    assert_eq!(report["details"][0]["name"], LAMP);
    assert_eq!(report["details"][0]["passed"], false);
    assert!(report["details"][0]["reason"].as_str().unwrap_or("").contains("3 s apart"));

    let seeds = timing("project.json", &["--seeds", "1..3", "--json"]);
    assert_eq!(seeds.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&seeds.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report["seeds"], serde_json::json!([1, 2, 3]));
    assert_eq!(report["details"][1]["pass_rate"], 1.0);
    assert_eq!(report["details"][1]["stable"], true);

    let missing = gobo()
        .args(["test", "nope.json", "nope-suite.json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(missing.status.code(), Some(2));
}

fn manifest(dir: &Path, rows: usize) -> PathBuf {
    let ex = root().join("examples/scratch");
    let fx = root().join("core/tests/fixtures/suite");
    let mut lines = Vec::new();
    for i in 0..rows {
        let (variant, suffix) =
            if i % 3 == 2 { ("broken.json", ".broken.jsonl") } else { ("project.json", ".jsonl") };
        let row = serde_json::json!({
            "id": format!("row{i}"),
            "project": ex.join("timing").join(variant),
            "suite": ex.join("timing/suite.json"),
            "seeds": "1..4",
            "traces": {
                LAMP: fx.join(format!("timing/the-lamp-is-dark-for-two-seconds{suffix}")),
                BALL: fx.join(format!("timing/the-ball-moves-right-and-grows{suffix}")),
            },
        });
        lines.push(row.to_string());
    }
    lines.push(r#"{"id": "bad", "project": "missing.json", "suite": "missing.json"}"#.to_string());
    let path = dir.join("manifest.jsonl");
    fs::write(&path, lines.join("\n") + "\n").unwrap_or_else(|e| panic!("{e}"));
    path
}

fn batch(manifest: &Path, out: &Path) -> Command {
    let mut c = gobo();
    c.arg("test").arg("--batch").arg(manifest).arg("--out").arg(out).args(["--jobs", "2"]);
    c
}

fn lines(path: &Path) -> usize {
    fs::read_to_string(path).map(|t| t.lines().count()).unwrap_or(0)
}

#[test]
fn batch_resumes_after_a_kill_with_the_same_results() {
    let dir = temp_dir("batch");
    let rows = 30;
    let manifest = manifest(&dir, rows);

    let full = dir.join("full.jsonl");
    let status =
        batch(&manifest, &full).stderr(Stdio::null()).status().unwrap_or_else(|e| panic!("{e}"));
    // Broken variants and the bad row fail: the batch exits 1 (README, "Exit codes").
    assert_eq!(status.code(), Some(1));
    assert_eq!(lines(&full), rows + 1);

    // Kill a second run once some rows are written, then rerun it to completion.
    let cut = dir.join("cut.jsonl");
    let mut child =
        batch(&manifest, &cut).stderr(Stdio::null()).spawn().unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    while lines(&cut) < 3 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    let done_before = lines(&cut);
    assert!(
        (1..=rows).contains(&done_before),
        "the kill should interrupt the run midway; {done_before} of {} rows were written",
        rows + 1
    );
    let status =
        batch(&manifest, &cut).stderr(Stdio::null()).status().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.code(), Some(1));
    let (a, b) = (fs::read(&full).unwrap_or_default(), fs::read(&cut).unwrap_or_default());
    assert!(a == b, "resumed results differ from an uninterrupted run");

    let first: Value = serde_json::from_str(
        fs::read_to_string(&full).unwrap_or_default().lines().next().unwrap_or(""),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first["id"], "row0");
    assert_eq!(first["success"], true);
    let text = fs::read_to_string(&full).unwrap_or_default();
    let last: Value =
        serde_json::from_str(text.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(last["id"], "bad");
    assert!(last["error"].as_str().unwrap_or("").contains("missing.json"));
}
