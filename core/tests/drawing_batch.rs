//! The DrawingBench batch row (`gobo::drawing::batch`): the same verdict for a task given as an
//! object, as its JSON text, or by index; `task_index` echoed; rows that cannot be scored
//! carry an `error` naming why; the `paper` profile and unknown profile names.

use gobo::drawing::batch::{eval_json, eval_line, needs_dataset, pick, profile};
use gobo::drawing::task::Task;
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{judge, Profile};
use serde_json::{json, Value};

fn example(name: &str) -> String {
    let path = format!("{}/../examples/drawing/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn a_task_object_its_text_and_its_index_give_the_same_row() {
    let ui = UiConfig::drawingbench_default();
    let task_text = example("red-circle.task.json");
    let task_value: Value = serde_json::from_str(&task_text).unwrap();
    let task = Task::from_json(&task_text).unwrap();
    let actions = example("red_circle.json");
    let p = Profile::DrawingBench10;
    let by_object = eval_line(&json!({"task": task_value, "actions_raw": actions}), &[], &ui, p);
    let by_text = eval_line(&json!({"task": task_text, "actions_raw": actions}), &[], &ui, p);
    let tasks = vec![task.clone(), task.clone()];
    let mut by_index = eval_line(&json!({"task_index": 1, "actions_raw": actions}), &tasks, &ui, p);
    assert_eq!(by_index["task_index"], json!(1));
    by_index.as_object_mut().unwrap().remove("task_index");
    assert_eq!(by_object, by_text);
    assert_eq!(by_object, by_index);
    // The row is the verdict's row plus the profile name.
    let verdict = judge(actions.as_bytes(), &task.criteria, &ui).unwrap();
    let mut want = verdict.to_row(&task.criteria, &ui);
    want.insert("profile".into(), json!("drawingbench-1.0"));
    assert_eq!(by_object, Value::Object(want.clone()));
    assert_eq!(eval_json(actions.as_bytes(), &task.criteria, &ui, p), want);
    assert!(by_object["score"].as_f64().unwrap() > 0.5, "{}", by_object["score"]);
    // `actions` (a JSON list) is read as the text of that list.
    let list: Value = serde_json::from_str(&actions).unwrap();
    let by_list = eval_line(&json!({"task": task_value, "actions": list}), &[], &ui, p);
    assert_eq!(by_list["score"], by_object["score"]);
}

#[test]
fn rows_that_cannot_be_scored_say_why() {
    let ui = UiConfig::drawingbench_default();
    let p = Profile::DrawingBench10;
    let err = |row: Value| eval_line(&row, &[], &ui, p)["error"].as_str().unwrap().to_string();
    assert_eq!(err(json!({"actions_raw": "[]"})), "line has neither `task` nor `task_index`");
    assert_eq!(
        err(json!({"task_index": 3, "actions_raw": "[]"})),
        "task_index 3 out of range (0..0)"
    );
    assert_eq!(err(json!({"task_index": -1, "actions_raw": "[]"})), "task_index -1 is negative");
    assert_eq!(
        err(json!({"task": {"min_segments": 1}, "actions_raw": 5})),
        "`actions_raw` must be a string"
    );
    assert_eq!(err(json!({"task": {"min_segments": 1}})), "line has no `actions_raw`");
    assert!(!err(json!({"task": "{", "actions_raw": "[]"})).is_empty());
    assert!(needs_dataset(&json!({"task_index": 0})));
    assert!(!needs_dataset(&json!({"task_index": 0, "task": {}})));
    assert!(pick(&[], 0).is_err());
}

#[test]
fn profiles_by_name() {
    assert_eq!(profile("paper"), Ok(Profile::Paper));
    assert_eq!(profile("drawingbench-1.0"), Ok(Profile::DrawingBench10));
    assert_eq!(profile("nope"), Err("unknown profile `nope` (drawingbench-1.0 or paper)".into()));
    let ui = UiConfig::drawingbench_default();
    let row = eval_line(
        &json!({"task": example("red-circle.task.json"), "actions_raw": example("red_circle.json")}),
        &[],
        &ui,
        Profile::Paper,
    );
    assert_eq!(row["profile"], "paper");
    assert!(row.get("error").is_none(), "{row}");
}
