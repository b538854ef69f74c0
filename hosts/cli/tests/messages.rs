//! Exit codes (0 all passed, 1 some failed, 2 bad input; README, "Exit codes") and messages
//! that point at the cause, one test per command and case of issue 21.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::json;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-messages-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

fn gobo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gobo"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Asserts the exit code and that stderr holds `needle` exactly `times` times.
fn expect(out: &Output, code: i32, needle: &str, times: usize) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let said = format!("stdout: {}\nstderr: {err}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(code), "{said}");
    if !needle.is_empty() {
        assert_eq!(err.matches(needle).count(), times, "{needle:?} in\n{said}");
    }
    err
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap_or_default()
}

#[test]
fn conform_with_no_fixture_fails_with_a_message() {
    let dir = temp_dir("conform-empty");
    expect(&gobo(&["conform", p(&dir)]), 2, "no .sb3 or .sb2 fixture found", 1);
    let missing = dir.join("nope");
    expect(&gobo(&["conform", p(&missing)]), 2, "no such file or folder", 1);
    // Only unreadable files: each fails, and so does the run.
    fs::write(dir.join("bad.sb3"), "not a zip").unwrap();
    let out = gobo(&["conform", p(&dir)]);
    expect(&out, 1, "", 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not a zip archive") && text.contains("0 passed, 1 failed"), "{text}");
}

#[test]
fn a_non_zip_sb3_is_not_a_zip_archive() {
    let dir = temp_dir("notzip");
    let sb3 = dir.join("game.sb3");
    fs::write(&sb3, "{\"targets\": []}").unwrap();
    let err = expect(&gobo(&["run", p(&sb3)]), 2, "not a zip archive", 1);
    assert!(!err.contains("JSON"), "{err}");
}

#[test]
fn a_missing_path_is_printed_once() {
    let dir = temp_dir("missing");
    let path = dir.join("absent.json");
    let err = expect(&gobo(&["run", p(&path)]), 2, "absent.json", 1);
    assert!(err.contains("No such file"), "{err}");
}

#[test]
fn render_names_the_size_limit_and_the_flag_it_needs() {
    let dir = temp_dir("render");
    let png = dir.join("x.png");
    let args = ["render", "examples/scratch/guess", "--frame", "1", "-o", p(&png)];
    let mut big = args.to_vec();
    big.extend(["--size", "5000x5000"]);
    expect(&gobo(&big), 2, "1 to 4096 pixels", 1);
    expect(&gobo(&["render", "examples/scratch/guess", "-o", p(&png)]), 2, "--frame N", 1);
    expect(&gobo(&["render", "examples/scratch/guess"]), 2, "--png-at", 1);
}

#[test]
fn a_negative_task_index_says_it_is_negative() {
    let out = gobo(&["draw", "eval", "--task-index", "-1", "examples/drawing/red_circle.json"]);
    expect(&out, 2, "-1 is negative", 1);
    // In a batch row, too (the row fails; the batch exits 1).
    let dir = temp_dir("negative");
    let input = dir.join("in.jsonl");
    fs::write(&input, json!({"id": "n", "task_index": -3, "actions": []}).to_string()).unwrap();
    let out_file = dir.join("out.jsonl");
    let dataset = dir.join("dataset.json");
    fs::write(&dataset, "[]").unwrap();
    let out = gobo(&[
        "draw",
        "eval",
        "--batch",
        p(&input),
        "--out",
        p(&out_file),
        "--dataset",
        p(&dataset),
    ]);
    expect(&out, 1, "0 passed, 1 failed", 1);
    let row = fs::read_to_string(&out_file).unwrap();
    assert!(row.contains("\"id\":\"n\"") && row.contains("task_index -3 is negative"), "{row}");
}

#[test]
fn xlogo_eval_exit_codes() {
    let task = "examples/xlogo/find-strawberry.json";
    expect(&gobo(&["xlogo", "eval", task, "examples/xlogo/find-strawberry.py"]), 0, "", 0);
    expect(&gobo(&["xlogo", "eval", task, "examples/xlogo/find-strawberry-crash.py"]), 1, "", 0);
    expect(
        &gobo(&["xlogo", "eval", "nope.json", "examples/xlogo/find-strawberry.py"]),
        2,
        "nope.json",
        1,
    );
    // A batch: one row passes, one fails, one is not JSON (and keeps its id).
    let dir = temp_dir("xlogo-batch");
    let t: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root().join(task)).unwrap()).unwrap();
    let code = fs::read_to_string(root().join("examples/xlogo/find-strawberry.py")).unwrap();
    let input = dir.join("in.jsonl");
    let lines = [
        json!({"id": "ok", "task": t, "code": code}).to_string(),
        json!({"id": "no", "task": t, "code": "def run():\n    move_forward()\n"}).to_string(),
        "{\"id\": \"cut\", \"task\": {".to_string(),
    ];
    fs::write(&input, lines.join("\n")).unwrap();
    let out_file = dir.join("out.jsonl");
    let out = gobo(&["xlogo", "eval", "--batch", p(&input), "--out", p(&out_file)]);
    expect(&out, 1, "1 passed, 2 failed", 1);
    let rows = fs::read_to_string(&out_file).unwrap();
    assert!(rows.lines().nth(2).is_some_and(|r| r.contains("\"id\":\"cut\"")), "{rows}");
    // An empty batch is bad input.
    fs::write(&input, "\n").unwrap();
    expect(
        &gobo(&["xlogo", "eval", "--batch", p(&input), "--out", p(&out_file)]),
        2,
        "no input lines",
        1,
    );
}

/// XLogo code nested 63 and 64 repeats deep (the documented limit) is accepted as JSON, as the
/// same program in Python form is; 65 is refused in both.
#[test]
fn xlogo_json_code_nested_to_the_limit_is_accepted() {
    let dir = temp_dir("xlogo-deep");
    let task = "examples/xlogo/find-strawberry.json";
    for (depth, code) in [(63, 0), (64, 0), (65, 2)] {
        let mut block = json!({"type": "rt"});
        for _ in 0..depth {
            block = json!({"type": "repeat", "times": 1, "body": [block]});
        }
        let json_code = dir.join(format!("deep{depth}.json"));
        fs::write(&json_code, json!({"run": [block]}).to_string()).unwrap();
        let mut py = String::from("def run():\n");
        for k in 0..depth {
            py.push_str(&format!("{}for i in range(1):\n", "    ".repeat(k + 1)));
        }
        py.push_str(&format!("{}turn_right()\n", "    ".repeat(depth + 1)));
        let py_code = dir.join(format!("deep{depth}.py"));
        fs::write(&py_code, py).unwrap();
        for file in [&json_code, &py_code] {
            let out = gobo(&["xlogo", "eval", task, p(file)]);
            let verdict: serde_json::Value =
                serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
            let kind = verdict["error_type"].as_str().unwrap_or_default();
            // The program does not solve the task: it parses (GOAL_FAIL) or it does not.
            let parsed = !matches!(kind, "FORMAT_ERROR" | "INVALID_CODE");
            assert_eq!(parsed, code == 0, "depth {depth}, {}: {verdict}", file.display());
        }
    }
}

#[test]
fn draw_eval_over_the_action_limit_fails_without_building_the_list() {
    let dir = temp_dir("draw-many");
    let actions = dir.join("many.json");
    let one = "{\"action\":\"click\",\"x\":1,\"y\":1},";
    let mut text = String::from("[");
    text.push_str(&one.repeat(1_000_001));
    text.pop();
    text.push(']');
    fs::write(&actions, text).unwrap();
    let out =
        gobo(&["draw", "eval", "--task", "examples/drawing/red-circle.task.json", p(&actions)]);
    expect(&out, 1, "", 0);
    let row = String::from_utf8_lossy(&out.stdout);
    assert!(row.contains("1000001 actions exceed gobo's limit of 1000000"), "{row}");
    // A good drawing is scored: exit 0, one compact JSON line.
    let out = gobo(&[
        "draw",
        "eval",
        "--task",
        "examples/drawing/red-circle.task.json",
        "examples/drawing/red_circle.json",
    ]);
    expect(&out, 0, "", 0);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
}

#[test]
fn diff_trace_exit_codes() {
    let dir = temp_dir("diff");
    let a = dir.join("a.jsonl");
    let run = gobo(&["run", "examples/scratch/guess", "--frames", "5", "--trace", p(&a)]);
    expect(&run, 0, "", 0);
    expect(&gobo(&["diff-trace", p(&a), p(&a)]), 0, "", 0);
    let b = dir.join("b.jsonl");
    let text = fs::read_to_string(&a).unwrap().replace("\"f\":3,\"t\":100", "\"f\":3,\"t\":101");
    fs::write(&b, text).unwrap();
    expect(&gobo(&["diff-trace", p(&a), p(&b)]), 1, "", 0);
    expect(&gobo(&["diff-trace", p(&a), p(&dir.join("none.jsonl"))]), 2, "none.jsonl", 1);
}

#[test]
fn a_runaway_program_stops_with_its_reason_and_exit_1() {
    let fixture = "core/tests/fixtures/scratch/runaway/recursion.json";
    let dir = temp_dir("runaway");
    let trace = dir.join("t.jsonl");
    let out = gobo(&["run", fixture, "--trace", p(&trace)]);
    expect(&out, 1, "(call_depth)", 1);
    let text = fs::read_to_string(&trace).unwrap();
    let end = text.lines().last().unwrap_or_default();
    assert!(end.contains("\"stop\":{\"reason\":\"call_depth\""), "{end}");
}

/// One JSON style: every command with JSON output prints one compact line, and `--pretty`
/// prints the same document indented.
#[test]
fn json_is_one_compact_line_and_pretty_indents_it() {
    let dir = temp_dir("json-style");
    let trace = dir.join("t.jsonl");
    expect(
        &gobo(&["run", "examples/scratch/guess", "--frames", "5", "--trace", p(&trace)]),
        0,
        "",
        0,
    );
    let quiz = ["examples/scratch/quiz/project.json", "examples/scratch/quiz/suite.json"];
    let commands: Vec<(Vec<&str>, &str)> = vec![
        (vec!["run", "examples/scratch/guess", "--frames", "5"], "--json"),
        (vec!["test", quiz[0], quiz[1]], "--json"),
        (vec!["diff-trace", p(&trace), p(&trace)], "--json"),
        (vec!["validate", "examples/scratch/keys"], "--json"),
        (vec!["observe", "examples/scratch/keys"], "--json"),
        (
            vec![
                "xlogo",
                "eval",
                "examples/xlogo/find-strawberry.json",
                "examples/xlogo/find-strawberry.py",
            ],
            "",
        ),
        (
            vec![
                "draw",
                "eval",
                "--task",
                "examples/drawing/red-circle.task.json",
                "examples/drawing/red_circle.json",
            ],
            "",
        ),
    ];
    for (args, json_flag) in commands {
        let mut compact = args.clone();
        if !json_flag.is_empty() {
            compact.push(json_flag);
        }
        let out = gobo(&compact);
        expect(&out, 0, "", 0);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(text.lines().count(), 1, "{compact:?}: {text}");
        let doc: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{compact:?}: {e}: {text}"));
        // --pretty alone is enough (it implies --json).
        let mut pretty = args.clone();
        pretty.push("--pretty");
        let out = gobo(&pretty);
        expect(&out, 0, "", 0);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(text.lines().count() > 2 && text.contains("\n  \""), "{pretty:?}: {text}");
        let same: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{pretty:?}: {e}: {text}"));
        assert_eq!(doc, same, "{pretty:?}");
    }
}

/// A scenario field of the wrong kind, or one the action does not take, is an error naming
/// it (exit 2), never replaced by a default.
#[test]
fn a_scenario_with_invalid_fields_names_the_field() {
    let dir = temp_dir("scenario");
    let cases = [
        (json!({"frames": -1, "events": []}), "\"frames\""),
        (json!({"frames": 2.5, "events": []}), "\"frames\""),
        (json!({"seed": "one", "events": []}), "\"seed\""),
        (json!({"frame": 3, "events": []}), "\"frame\""),
        (json!([{"frame": 2.5, "action": "green_flag"}]), "\"frame\""),
        (json!([{"frmae": 30, "action": "green_flag"}]), "\"frmae\""),
        (json!([{"frame": 1, "action": "key_down"}]), "\"key\""),
        (json!([{"frame": 1, "action": "key_down", "key": ["a"]}]), "\"key\""),
        (json!([{"frame": 1, "action": "mouse_move", "x": "left", "y": 0}]), "\"x\""),
        (json!([{"frame": 1, "action": "mouse_down", "x": 1, "y": null}]), "\"y\""),
        (json!([{"frame": 1, "action": "turbo", "on": "yes"}]), "\"on\""),
        (json!([{"frame": 1, "action": "dance"}]), "\"dance\""),
    ];
    for (k, (scenario, field)) in cases.iter().enumerate() {
        let file = dir.join(format!("s{k}.json"));
        fs::write(&file, scenario.to_string()).unwrap();
        let out = gobo(&["run", "examples/scratch/guess", "--scenario", p(&file)]);
        let err = expect(&out, 2, field, 1);
        assert!(err.starts_with("gobo run: ") && err.contains("scenario"), "{scenario}: {err}");
    }
    // The same fields with good values run.
    let file = dir.join("good.json");
    let good = json!({"frames": 3, "seed": 7, "events": [
        {"frame": 0, "action": "green_flag"},
        {"frame": 1, "action": "key_down", "key": "space"},
        {"frame": 1, "action": "mouse_move", "x": 10, "y": -5},
        {"frame": 2, "action": "mouse_down"},
        {"frame": 2, "action": "turbo", "on": false}
    ]});
    fs::write(&file, good.to_string()).unwrap();
    let out = gobo(&["run", "examples/scratch/guess", "--scenario", p(&file), "--json"]);
    expect(&out, 0, "", 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"frames\":3"));
}

/// The meta line counts missing assets as the reference harness does: the distinct costume
/// and sound files a bare project.json names that are not beside it (or in `assets/`); with
/// none missing the reference packs them (`packedFromJson`).
#[test]
fn the_trace_meta_counts_missing_assets_as_the_reference_does() {
    let dir = temp_dir("meta-assets");
    let meta = |project: &Path| -> serde_json::Value {
        let trace = dir.join("t.jsonl");
        expect(&gobo(&["run", p(project), "--frames", "1", "--trace", p(&trace)]), 0, "", 0);
        let text = fs::read_to_string(&trace).unwrap();
        let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        first["meta"].clone()
    };
    // Every costume of the example is in its assets/ folder.
    let m = meta(&root().join("examples/scratch/keys/project.json"));
    assert_eq!((m["missingAssets"].clone(), m["packedFromJson"].clone()), (json!(0), json!(true)));
    // The same project.json alone: its 5 distinct costume files are missing.
    let alone = dir.join("project.json");
    fs::copy(root().join("examples/scratch/keys/project.json"), &alone).unwrap();
    let m = meta(&alone);
    assert_eq!((m["missingAssets"].clone(), m["packedFromJson"].clone()), (json!(5), json!(false)));
    // One of them back beside it: 4.
    let assets = root().join("examples/scratch/keys/assets");
    let one = fs::read_dir(&assets).unwrap().next().unwrap().unwrap().path();
    fs::copy(&one, dir.join(one.file_name().unwrap())).unwrap();
    assert_eq!(meta(&alone)["missingAssets"], json!(4));
}
