//! `gobo act` end to end: from a project with one empty sprite, the 35 composite actions of
//! `tests/fixtures/agent/game.jsonl` build an arrow-key game that says "Ouch!" at the edge;
//! its test suite passes on the written `.sb3`, the `.sb3` is the same bytes on every run, and
//! the same trajectory with wrong indices fails with ScratchWorld's codes and leaves a
//! project the suite rejects.

use std::path::{Path, PathBuf};
use std::process::Command;

use gobo::scratch::agent::{observe, IndexMode, ObserveMode};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent")
}

fn gobo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().expect("run gobo");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn responses(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).expect("one JSON response per line")).collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-act-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_trajectory_builds_a_working_game() {
    let start = fixtures().join("start");
    let actions = fixtures().join("game.jsonl");
    let out = temp("game.sb3");
    let (code, stdout, stderr) = gobo(&[
        "act",
        start.to_str().unwrap(),
        actions.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let rs = responses(&stdout);
    assert_eq!(rs.len(), 35);
    assert!(rs.iter().all(|r| r["success"] == true), "{stdout}");
    assert_eq!(rs[34]["done"], true);
    assert_eq!(rs[34]["meta"]["steps_left"], 15);
    // The game runs: the suite passes on the written project.
    let suite = fixtures().join("game.suite.json");
    let (code, stdout, stderr) = gobo(&["test", out.to_str().unwrap(), suite.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("3/3 cases passed"));
    // What was built, in scratchblocks.
    let (_, sb, _) = gobo(&["observe", out.to_str().unwrap(), "--format", "scratchblocks"]);
    let expected = "when flag clicked\ngo to x: (0) y: (0)\nset [hits v] to [0]\nforever\n  if <key (right arrow v) pressed?> then\n    change x by (10)\n  end\n  if <key (left arrow v) pressed?> then\n    change x by (-10)\n  end\n  if <touching (edge v)?> then\n    say [Ouch!]\n    change [hits v] by (1)\n  end\nend\n";
    assert_eq!(sb, expected);
    // The same inputs give the same bytes; the costume asset is kept.
    let again = temp("game-again.sb3");
    gobo(&[
        "act",
        start.to_str().unwrap(),
        actions.to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&again).unwrap());
    let files = gobo_host::sb3::load_path(&out).unwrap();
    assert_eq!(files.assets.len(), 2);
}

#[test]
fn wrong_indices_fail_with_scratchworld_codes() {
    // Every index 20 too high: the blocks are made, nothing is joined or set.
    let text = std::fs::read_to_string(fixtures().join("game.jsonl")).unwrap();
    let mut wrong = String::new();
    for line in text.lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        for key in ["sourceBlockIndex", "targetBlockIndex", "blockIndex"] {
            if let Some(n) = v["args"].get(key).and_then(Value::as_u64) {
                v["args"][key] = Value::from(n + 20);
            }
        }
        wrong.push_str(&v.to_string());
        wrong.push('\n');
    }
    let actions = temp("wrong.jsonl");
    std::fs::write(&actions, wrong).unwrap();
    let out = temp("wrong.sb3");
    let start = fixtures().join("start");
    let (code, stdout, _) = gobo(&[
        "act",
        start.to_str().unwrap(),
        actions.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let rs = responses(&stdout);
    for r in &rs {
        let api = r["requested_action"]["api"].as_str().unwrap();
        match api {
            "connect_blocks" => {
                assert_eq!(r["error"]["code"], "NOT_FOUND");
                let src = r["requested_action"]["args"]["sourceBlockIndex"].as_u64().unwrap();
                assert_eq!(r["error"]["message"], format!("Source block not found at index {src}"));
            }
            "set_block_field" => {
                assert_eq!(r["error"]["code"], "NOT_FOUND");
                assert!(r["error"]["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("Block not found at index: "));
            }
            _ => assert_eq!(r["success"], true, "{r}"),
        }
    }
    // Loose blocks do nothing: the suite fails.
    let suite = fixtures().join("game.suite.json");
    let (code, stdout, _) = gobo(&["test", out.to_str().unwrap(), suite.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
}

#[test]
fn an_action_with_an_invalid_result_is_refused() {
    // Full mode shows the custom block definition (#1); deleting it while a call (#2)
    // remains would leave the call naming nothing: refused, no step used, exit 1.
    let project = fixtures().join("custom-block.json");
    let actions = temp("custom.jsonl");
    std::fs::write(
        &actions,
        [
            r#"{"api": "add_block", "args": {"blockType": "procedures_call"}}"#,
            r#"{"api": "delete_block", "args": {"blockIndex": 1}}"#,
            r#"{"api": "delete_block", "args": {"blockIndex": 2}}"#,
            r#"{"api": "delete_block", "args": {"blockIndex": 1}}"#,
        ]
        .join("\n"),
    )
    .unwrap();
    let (p, a) = (project.to_str().unwrap(), actions.to_str().unwrap());
    let (code, stdout, stderr) = gobo(&["act", p, a, "--mode", "full"]);
    assert_eq!(code, 1, "{stderr}");
    let rs = responses(&stdout);
    let steps: Vec<&Value> = rs.iter().map(|r| &r["meta"]["step"]).collect();
    assert_eq!(steps, [1, 1, 2, 3], "{stdout}");
    assert_eq!(rs[1]["success"], false);
    assert_eq!(rs[1]["error"]["code"], "INVALID_RESULT", "{stdout}");
    assert_eq!(rs[1]["error"]["details"]["action"], "delete_block");
    assert_eq!(rs[1]["error"]["details"]["findings"][0]["code"], "UNKNOWN_PROCEDURE");
    assert!(rs.iter().enumerate().all(|(i, r)| (r["success"] == true) == (i != 1)), "{stdout}");
}

#[test]
fn act_reports_bad_input() {
    let start = fixtures().join("start");
    let (code, _, stderr) = gobo(&["act", start.to_str().unwrap(), "/nonexistent/actions.jsonl"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("gobo: act: "), "{stderr}");
    let bad = temp("bad.jsonl");
    std::fs::write(&bad, b"\xff\xfe\n").unwrap();
    let (code, _, stderr) = gobo(&["act", start.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    // Lines that are not actions use up a step each.
    let lines = temp("lines.jsonl");
    std::fs::write(&lines, "not json\n{\"api\": \"select_stage\"}\n").unwrap();
    let (code, stdout, _) =
        gobo(&["act", start.to_str().unwrap(), lines.to_str().unwrap(), "--observe-each"]);
    assert_eq!(code, 1);
    let rs = responses(&stdout);
    assert_eq!(rs[0]["error"]["code"], "INVALID_ACTION_PLAN");
    assert_eq!(rs[1]["meta"]["step"], 2);
    assert_eq!(rs[1]["observation"]["target"], "Stage");
}

#[test]
fn observe_prints_the_prompt_and_json() {
    let start = fixtures().join("start");
    let (code, text, _) = gobo(&["observe", start.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(
        text,
        "\n## Current Editing Target\nCat\n\n## Target Variables In Scope\n\nNone\n\n## Target Lists In Scope\n\nNone\n\n## All Available Targets\n\nStage, Cat\n\n## Blocks Pseudocode\n\n\n"
    );
    let (code, json, _) =
        gobo(&["observe", start.to_str().unwrap(), "--json", "--target", "Stage"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["target"], "Stage");
    assert_eq!(v["targets"][1]["name"], "Cat");
    let (code, _, stderr) = gobo(&["observe", start.to_str().unwrap(), "--target", "Bird"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no target is named \"Bird\""), "{stderr}");
}

#[test]
fn observe_full_mode_by_id_is_the_cores_observation() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../core/tests/fixtures/agent/quirks.json");
    let project = gobo::scratch::project::load(&std::fs::read(&path).unwrap()).unwrap();
    for (mode, index, m, i) in [
        (ObserveMode::Full, IndexMode::Id, "full", "id"),
        (ObserveMode::Full, IndexMode::Index, "full", "index"),
        (ObserveMode::Compat, IndexMode::Id, "compat", "id"),
    ] {
        let core = observe(&project, None, mode, index).unwrap();
        let p = path.to_str().unwrap();
        let (code, json, stderr) = gobo(&["observe", p, "--mode", m, "--index", i, "--json"]);
        assert_eq!(code, 0, "{stderr}");
        let v: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v, serde_json::to_value(&core).unwrap(), "{m} {i}");
        let (code, text, _) = gobo(&["observe", p, "--mode", m, "--index", i]);
        assert_eq!((code, text), (0, core.text.clone()), "{m} {i}");
    }
    // Full mode by id shows what compat hides: the custom block's definition and pen blocks.
    let full = observe(&project, None, ObserveMode::Full, IndexMode::Id).unwrap();
    assert!(full.pseudocode.contains("@def [top] procedures_definition"), "{}", full.pseudocode);
    assert!(full.pseudocode.contains("@pen pen_penDown"), "{}", full.pseudocode);
}
