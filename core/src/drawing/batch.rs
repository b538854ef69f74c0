//! The result row of one drawing under a scoring profile ([`eval_json`]: `gobo draw eval`,
//! `POST /v1/draw/eval`) and of one batch input line ([`eval_line`]: `{id, task | task_index,
//! actions_raw | actions}`, `gobo draw eval --batch`, batch jobs of kind `draw`), as pure
//! functions hosts run in parallel. Row format: `docs/drawing.md`.

use alloc::string::{String, ToString};

use serde_json::{Map, Value};

use super::task::{Criteria, Task};
use super::ui::UiConfig;
use super::{judge, judge_paper, pyjson, Profile};

/// The row for a model's raw action text: the profile's verdict fields plus `profile`, or
/// `{error, profile}` when the text holds more actions than the evaluator accepts.
pub fn eval_json(
    raw: &[u8],
    criteria: &Criteria,
    ui: &UiConfig,
    profile: Profile,
) -> Map<String, Value> {
    let mut row = match profile {
        Profile::DrawingBench10 => match judge(raw, criteria, ui) {
            Ok(v) => v.to_row(criteria, ui),
            Err(e) => error_row(e.to_string()),
        },
        Profile::Paper => match judge_paper(raw, criteria, ui) {
            Ok(p) => match p.to_json() {
                Value::Object(m) => m,
                _ => Map::new(),
            },
            Err(e) => error_row(e.to_string()),
        },
    };
    row.insert("profile".into(), Value::from(profile.name()));
    row
}

/// Whether a row was scored: it has no `error`, and no `exception` or `parse_error` (the
/// reference's own failures). Drawings are scored, not passed: this is the verdict the exit
/// code of `gobo draw eval` follows (0 when every row was scored, 1 when some was not).
pub fn scored(row: &Value) -> bool {
    let null = |k: &str| row.get(k).is_none_or(Value::is_null);
    null("error") && null("exception") && null("parse_error")
}

/// `{error: message}`.
pub fn error_row(message: String) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("error".into(), Value::from(message));
    m
}

/// Reads a profile name, or says which names exist.
pub fn profile(name: &str) -> Result<Profile, String> {
    Profile::from_name(name)
        .ok_or_else(|| alloc::format!("unknown profile `{name}` (drawingbench-1.0 or paper)"))
}

/// Task `index` of `tasks`, or why not.
pub fn pick(tasks: &[Task], index: u64) -> Result<&Task, String> {
    usize::try_from(index)
        .ok()
        .and_then(|i| tasks.get(i))
        .ok_or_else(|| alloc::format!("task index {index} out of range (0..{})", tasks.len()))
}

/// Whether a batch line names its task by index only (so the host must load the dataset).
pub fn needs_dataset(line: &Value) -> bool {
    line.get("task").is_none() && line.get("task_index").is_some()
}

/// The row for one batch input line: its task is `task` (a task object, or its JSON text as a
/// string: what columnar tools such as Arrow keep intact) or `task_index` (into `tasks`, echoed
/// in the row), its text `actions_raw` (a string) or `actions` (any JSON, scored as its text).
/// A line the row cannot be built from gets `{error}`.
pub fn eval_line(line: &Value, tasks: &[Task], ui: &UiConfig, profile: Profile) -> Value {
    let criteria = task_of(line, tasks).map(|t| t.criteria);
    let raw = match line.get("actions_raw") {
        Some(Value::String(s)) => Ok(s.clone().into_bytes()),
        Some(_) => Err(String::from("`actions_raw` must be a string")),
        None => match line.get("actions") {
            Some(v) => Ok(v.to_string().into_bytes()),
            None => Err(String::from("line has no `actions_raw`")),
        },
    };
    let mut row = match (criteria, raw) {
        (Ok(c), Ok(raw)) => eval_json(&raw, &c, ui, profile),
        (Err(e), _) | (_, Err(e)) => error_row(e),
    };
    if let Some(i) = line.get("task_index") {
        row.insert("task_index".into(), i.clone());
    }
    Value::Object(row)
}

/// The task a line names: `task` (an object, or its JSON text) or `task_index` into `tasks`;
/// or why not (the messages of [`eval_line`]'s error rows).
pub fn task_of(line: &Value, tasks: &[Task]) -> Result<Task, String> {
    match (line.get("task"), line.get("task_index")) {
        (Some(Value::String(text)), _) => Task::from_json(text).map_err(|e| e.to_string()),
        (Some(t), _) => pyjson::parse(&t.to_string())
            .map_err(|e| e.to_string())
            .and_then(|v| Task::from_value(&v, "task").map_err(|e| e.to_string())),
        (None, Some(index)) => match index.as_u64() {
            Some(i) => match usize::try_from(i).ok().and_then(|i| tasks.get(i)) {
                Some(t) => Ok(t.clone()),
                None => Err(alloc::format!("task_index {i} out of range (0..{})", tasks.len())),
            },
            None if index.as_f64().is_some_and(|i| i < 0.0) => {
                Err(alloc::format!("task_index {index} is negative"))
            }
            None => Err(alloc::format!("task_index {index} is not a whole number")),
        },
        (None, None) => Err(String::from("line has neither `task` nor `task_index`")),
    }
}
