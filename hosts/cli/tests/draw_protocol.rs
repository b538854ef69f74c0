//! `gobo draw episode` and `gobo draw report` end to end: the example episode as a document
//! and as `--actions` files (the same row as the core's), canvas PNGs per turn, a batch with a
//! broken line, the report of its rows (JSON and Markdown), and exit codes 0, 1 and 2.

use std::path::PathBuf;
use std::process::{Command, Output};

use gobo::drawing::episode::{episode_line, EpisodeConfig};
use gobo::drawing::ui::UiConfig;
use serde_json::{json, Value};

fn gobo(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().unwrap();
    assert!(out.status.code().is_some(), "gobo was killed");
    out
}

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).display().to_string()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-draw-protocol-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn example() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(repo("examples/drawing/red-circle.episode.json")).unwrap(),
    )
    .unwrap()
}

#[test]
fn the_example_episode_is_the_cores_row() {
    let o = gobo(&["draw", "episode", &repo("examples/drawing/red-circle.episode.json"), "--json"]);
    assert_eq!(code(&o), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let row: Value = serde_json::from_slice(&o.stdout).unwrap();
    let want =
        episode_line(&example(), &[], &UiConfig::drawingbench_default(), EpisodeConfig::default());
    assert_eq!(row, want);
    assert_eq!(row["turns_run"], json!(2));
    // Human text names the turns and the stop.
    let o = gobo(&["draw", "episode", &repo("examples/drawing/red-circle.episode.json")]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("turn 1: score 0."), "{text}");
    assert!(text.contains("stopped (threshold); final score"), "{text}");
}

#[test]
fn actions_files_and_canvases() {
    let doc = example();
    let mut args: Vec<String> = ["draw", "episode", "--task"].map(String::from).to_vec();
    args.push(repo("examples/drawing/red-circle.task.json"));
    for (k, turn) in doc["turns"].as_array().unwrap().iter().enumerate() {
        let path = tmp(&format!("turn{k}.json"));
        std::fs::write(&path, turn["actions"].to_string()).unwrap();
        args.push("--actions".into());
        args.push(path.display().to_string());
    }
    let pngs = tmp("pngs");
    args.extend(["--png-dir".into(), pngs.display().to_string(), "--json".into()]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = gobo(&argv);
    assert_eq!(code(&o), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let row: Value = serde_json::from_slice(&o.stdout).unwrap();
    let want =
        episode_line(&example(), &[], &UiConfig::drawingbench_default(), EpisodeConfig::default());
    for k in 0..2 {
        assert_eq!(row["turns"][k]["score"], want["turns"][k]["score"]);
        assert_eq!(row["turns"][k]["feedback_recon_text"], want["turns"][k]["feedback_recon_text"]);
    }
    for k in 1..=2 {
        let bytes = std::fs::read(pngs.join(format!("turn-{k}.png"))).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (1000, 700));
    }
    // A second turn pictures the red circle: its canvas differs from the first's.
    assert_ne!(
        std::fs::read(pngs.join("turn-1.png")).unwrap(),
        std::fs::read(pngs.join("turn-2.png")).unwrap()
    );
}

#[test]
fn a_batch_and_its_report() {
    let doc = example();
    let input = tmp("in.jsonl");
    let out = tmp("out.jsonl");
    let _ = std::fs::remove_file(&out);
    let mut second = doc.clone();
    second["id"] = json!("only-turn-1");
    second["turns"] = json!([doc["turns"][0]]);
    second["difficulty"] = json!("hard");
    let lines = [doc.clone(), second, json!({"id": "broken", "task": doc["task"], "turns": []})];
    std::fs::write(&input, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let (i, o) = (input.display().to_string(), out.display().to_string());
    let run = gobo(&["draw", "episode", "--batch", &i, "--out", &o]);
    // The broken line's row is an error: exit 1.
    assert_eq!(code(&run), Some(1), "{}", String::from_utf8_lossy(&run.stderr));
    let rows: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["needs_next_turn"], json!(true));
    assert_eq!(rows[2]["id"], json!("broken"));
    assert!(rows[2]["error"].as_str().unwrap().contains("turns"));

    let rep = gobo(&["draw", "report", &o, "--json"]);
    assert_eq!(code(&rep), Some(0), "{}", String::from_utf8_lossy(&rep.stderr));
    let r: Value = serde_json::from_slice(&rep.stdout).unwrap();
    assert_eq!((r["rows"].clone(), r["error_rows"].clone()), (json!(3), json!(1)));
    assert_eq!(r["overall"]["episodes"], json!(2));
    assert_eq!(r["overall"]["retried"], json!(1));
    let names: Vec<&str> = r["by_difficulty"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["hard", "unknown"]);
    let md = gobo(&["draw", "report", &o]);
    let text = String::from_utf8(md.stdout).unwrap();
    assert!(text.starts_with("2 episodes (1 retried), 1 error rows"), "{text}");
    assert!(text.contains("| difficulty | episodes |"), "{text}");
}

#[test]
fn bad_input_exits_2() {
    let o = gobo(&["draw", "episode"]);
    assert_eq!(code(&o), Some(2));
    let bad = tmp("bad.json");
    std::fs::write(&bad, r#"{"task": {"min_segments": 1}, "turns": ["[]"], "max_turns": 0}"#)
        .unwrap();
    let o = gobo(&["draw", "episode", &bad.display().to_string()]);
    assert_eq!(code(&o), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.starts_with("gobo draw episode: `max_turns` must be"), "{err}");
    let o = gobo(&[
        "draw",
        "episode",
        &repo("examples/drawing/red-circle.episode.json"),
        "--stop-at",
        "2",
    ]);
    assert_eq!(code(&o), Some(2));
    // An unscored turn: exit 1.
    std::fs::write(&bad, r#"{"task": {"min_segments": 1}, "turns": ["[\"x\"]"]}"#).unwrap();
    assert_eq!(code(&gobo(&["draw", "episode", &bad.display().to_string(), "--json"])), Some(1));
    // Reports: no rows, a line that is not JSON.
    let empty = tmp("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(code(&gobo(&["draw", "report", &empty.display().to_string()])), Some(2));
    std::fs::write(&empty, "{\"score\": 1}\nnot json\n").unwrap();
    let o = gobo(&["draw", "report", &empty.display().to_string()]);
    assert_eq!(code(&o), Some(2));
    assert!(String::from_utf8(o.stderr).unwrap().contains("line 2"));
}
