//! `gobo xlogo classify | report | perturb | resample` end to end on the two example tasks: a
//! batch evaluated, reported by dimension, perturbed and resampled, with the JSON shapes, the
//! text output and exit codes 0 and 2.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{json, Value};

fn gobo(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().unwrap();
    assert!(out.status.code().is_some(), "gobo was killed");
    out
}

fn ok(args: &[&str]) -> String {
    let o = gobo(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("gobo-xlogo-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

fn read_json(path: &str) -> Value {
    serde_json::from_slice(&std::fs::read(repo(path)).unwrap()).unwrap()
}

/// Task rows with reference code, and a batch of model answers: find solved, draw not, and a
/// third row whose id matches no task.
fn files(tag: &str) -> (String, String) {
    let find = read_json("examples/xlogo/find-strawberry.json");
    let draw = read_json("examples/xlogo/draw-square.json");
    let find_ref = std::fs::read_to_string(repo("examples/xlogo/find-strawberry.py")).unwrap();
    let draw_ref = read_json("examples/xlogo/draw-square.ast.json");
    let tasks = tmp(&format!("{tag}-tasks.jsonl"));
    let rows = [
        json!({"task_id": "find", "task": find, "reference_code": find_ref}),
        json!({"task_id": "draw", "task": draw, "reference_code": draw_ref}),
    ];
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&tasks, text).unwrap();
    let input = tmp(&format!("{tag}-in.jsonl"));
    let answers = [
        json!({"id": "find", "task": find, "code": find_ref}),
        json!({"id": "draw", "task": draw, "code": {"run": [{"type": "fd"}]}}),
        json!({"id": "other", "task": find, "code": "def run(:\n"}),
    ];
    let text: String = answers.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&input, text).unwrap();
    let out = tmp(&format!("{tag}-out.jsonl"));
    let _ = std::fs::remove_file(&out);
    let o = gobo(&["xlogo", "eval", "--batch", &input, "--out", &out]);
    assert_eq!(o.status.code(), Some(1), "two rows fail");
    (tasks, out)
}

#[test]
fn classify_one_task_and_a_task_file() {
    let (tasks, _) = files("classify");
    let task = repo("examples/xlogo/find-strawberry.json").display().to_string();
    let code = repo("examples/xlogo/find-strawberry.py").display().to_string();
    let j: Value =
        serde_json::from_str(&ok(&["xlogo", "classify", &task, "--code", &code, "--json"]))
            .unwrap();
    assert_eq!(j["task_type"], "Logic", "find without stepping on the lemon: {j}");
    assert_eq!(
        (j["constraints"].as_str(), j["concepts"].as_str()),
        (Some("AtMost"), Some("Loops"))
    );
    assert_eq!(j["n_blocks"], 6);
    let text = ok(&["xlogo", "classify", &task]);
    assert!(text.contains("concepts: unknown (no reference code)"), "{text}");
    let dist = ok(&["xlogo", "classify", "--batch", &tasks]);
    assert!(dist.starts_with("2 tasks\ntask_type: Draw 1, Logic 1\n"), "{dist}");
    let dist: Value =
        serde_json::from_str(&ok(&["xlogo", "classify", "--batch", &tasks, "--json"])).unwrap();
    assert_eq!(dist["by"]["concepts"], json!({"Loops and Variables": 1, "Loops": 1}));
}

#[test]
fn report_by_dimension() {
    let (tasks, out) = files("report");
    let j: Value =
        serde_json::from_str(&ok(&["xlogo", "report", &out, "--tasks", &tasks, "--json"])).unwrap();
    assert_eq!(j["overall"]["rows"], 3);
    assert_eq!(
        (j["overall"]["success"].as_u64(), j["overall"]["format_ok"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(j["unmatched"], 1);
    let types = &j["by"][0];
    assert_eq!(types["dimension"], "task_type");
    let aspects: Vec<(String, u64, u64)> = types["aspects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["aspect"].as_str().unwrap().into(),
                a["rows"].as_u64().unwrap(),
                a["success"].as_u64().unwrap(),
            )
        })
        .collect();
    let want =
        [("Draw".to_string(), 1, 0), ("Logic".to_string(), 1, 1), ("unknown".to_string(), 1, 0)];
    assert_eq!(aspects, want);
    let text = ok(&["xlogo", "report", &out, "--tasks", &tasks]);
    assert!(text.starts_with("3 rows: success 33.33 % (1), format 66.67 % (2)"), "{text}");
    assert!(text.contains("| Logic | 1 | 100.00 % (1) |"), "{text}");
    // Without tasks: overall only.
    let j: Value = serde_json::from_str(&ok(&["xlogo", "report", &out, "--json"])).unwrap();
    assert_eq!((j["unmatched"].as_u64(), j["by"].as_array().map(Vec::len)), (Some(3), Some(0)));
}

#[test]
fn perturb_all_subsets_with_the_reference() {
    let task = repo("examples/xlogo/find-strawberry.json").display().to_string();
    let code = repo("examples/xlogo/find-strawberry.py").display().to_string();
    let dir = tmp("perturbed");
    let text = ok(&["xlogo", "perturb", &task, "--code", &code, "--json", "--out-dir", &dir]);
    let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let labels: Vec<&str> = rows.iter().map(|r| r["subset"].as_str().unwrap()).collect();
    assert_eq!(labels, ["T", "T_A", "T_B", "T_C", "T_AB", "T_BC", "T_AC", "T_ABC"]);
    assert_eq!(rows[0]["reference"], json!({"error_type": "OK", "success": true}));
    assert_eq!(rows[1]["changed"], json!({"A": true, "B": false, "C": false}));
    assert_eq!(rows[1]["task"]["constraints"], json!([]));
    for r in &rows {
        let written: Value = serde_json::from_slice(
            &std::fs::read(format!("{dir}/{}.json", r["subset"].as_str().unwrap())).unwrap(),
        )
        .unwrap();
        assert_eq!(written, r["task"]);
        // Every perturbed task loads and classifies.
        let path = tmp("perturbed-one.json");
        std::fs::write(&path, written.to_string()).unwrap();
        ok(&["xlogo", "classify", &path]);
    }
    let one = ok(&["xlogo", "perturb", &task, "--subset", "b"]);
    assert_eq!(one.lines().count(), 1);
    assert!(one.starts_with("T_B: changed B"), "{one}");
}

#[test]
fn resample_is_seeded_and_writes_the_drawn_rows() {
    let (tasks, out) = files("resample");
    let args = ["xlogo", "resample", &out, "--size", "50", "--seed", "9", "--json"];
    let a: Value = serde_json::from_str(&ok(&args)).unwrap();
    let b: Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(a, b);
    assert_eq!(
        (a["rows"].as_u64(), a["failed"].as_u64(), a["size"].as_u64()),
        (Some(3), Some(2), Some(50))
    );
    assert_eq!(a["weight_fail"], 0.4);
    let sample = a["sample"].as_array().unwrap();
    assert_eq!(sample.len(), 50);
    let drawn_failed = sample.iter().filter(|id| *id != "find").count() as u64;
    assert_eq!(a["drawn_failed"].as_u64(), Some(drawn_failed));
    // Only the two ids with a training row can be written: a draw of "other" is an error.
    let train = tmp("train.jsonl");
    std::fs::write(&train, std::fs::read_to_string(&tasks).unwrap()).unwrap();
    let dk = tmp("dk.jsonl");
    let o = gobo(&["xlogo", "resample", &out, "--size", "50", "--train", &train, "--out", &dk]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no training row with id \"other\""));
    let mut text = std::fs::read_to_string(&tasks).unwrap();
    text.push_str(&format!("{}\n", json!({"id": "other", "x": 1})));
    std::fs::write(&train, text).unwrap();
    ok(&["xlogo", "resample", &out, "--size", "50", "--train", &train, "--out", &dk]);
    let lines = std::fs::read_to_string(&dk).unwrap();
    assert_eq!(lines.lines().count(), 50);
}

#[test]
fn bad_input_exits_2_with_one_message() {
    let (_, out) = files("bad");
    let broken = tmp("broken.jsonl");
    std::fs::write(&broken, "{\"id\": 1}\nnot json\n").unwrap();
    let task = repo("examples/xlogo/find-strawberry.json").display().to_string();
    let cases: [&[&str]; 6] = [
        &["xlogo", "report", &broken],
        &["xlogo", "report", "/nonexistent/rows.jsonl"],
        &["xlogo", "resample", &out, "--beta=-1"],
        &["xlogo", "perturb", &task, "--subset", "D"],
        &["xlogo", "classify", &out],
        &["xlogo", "classify", "--batch", &broken],
    ];
    for args in cases {
        let o = gobo(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("gobo xlogo ") && err.lines().count() == 1, "{args:?}: {err}");
    }
}
