//! The batch row format: one input object `{"id", "task_index" | "task", "actions_raw"}` → one
//! output row with the profile's verdict fields, as a pure function of the row, the dataset and
//! the UI layout (hosts run it in parallel). The row fields are listed in `docs/drawing.md`.

use alloc::format;
use alloc::string::{String, ToString};

use serde_json::{Map, Value};

use super::task::{Criteria, Task};
use super::ui::UiConfig;
use super::{judge, judge_paper, pyjson, Profile};

/// The result object for one raw action text under `profile`: the `drawingbench-1.0` row
/// ([`super::Verdict::to_row`]) or the `paper` result, plus `"profile"`; `{"error"}` when the
/// text has more actions than gobo evaluates.
pub fn eval_text(
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

fn error_row(msg: String) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("error".into(), Value::from(msg));
    m
}

/// Task `index` of `tasks`, or why not.
pub fn pick(tasks: &[Task], index: usize) -> Result<&Task, String> {
    tasks.get(index).ok_or_else(|| format!("task index {index} out of range (0..{})", tasks.len()))
}

/// Whether a batch row names its task by index (so the host must load the dataset).
pub fn needs_dataset(row: &Value) -> bool {
    row.get("task").is_none() && row.get("task_index").is_some()
}

/// Evaluates one batch input row: the task is the row's `"task"` object (`{id, prompt,
/// criteria}` or bare criteria) or `tasks[task_index]`; the text is `"actions_raw"` (or, when
/// absent, the JSON text of `"actions"`). A row that cannot be evaluated gets `{"error"}`.
/// `task_index` is echoed; the host sets `id`.
pub fn eval_row(line: &Value, tasks: &[Task], ui: &UiConfig, profile: Profile) -> Value {
    let criteria = match (line.get("task"), line.get("task_index")) {
        (Some(t), _) => pyjson::parse(&t.to_string())
            .map_err(|e| e.to_string())
            .and_then(|v| Task::from_value(&v, "task").map_err(|e| e.to_string()))
            .map(|t| t.criteria),
        (None, Some(i)) => match i.as_u64().and_then(|i| usize::try_from(i).ok()) {
            Some(i) => pick(tasks, i).map(|t| t.criteria.clone()),
            None => Err(format!("task_index {i} is not a non-negative integer")),
        },
        (None, None) => Err(String::from("line has neither `task` nor `task_index`")),
    };
    let raw = match line.get("actions_raw") {
        Some(Value::String(s)) => Ok(s.clone().into_bytes()),
        Some(_) => Err(String::from("`actions_raw` must be a string")),
        None => match line.get("actions") {
            Some(v) => Ok(v.to_string().into_bytes()),
            None => Err(String::from("line has no `actions_raw`")),
        },
    };
    let mut row = match (criteria, raw) {
        (Ok(c), Ok(raw)) => eval_text(&raw, &c, ui, profile),
        (Err(e), _) | (_, Err(e)) => error_row(e),
    };
    if let Some(i) = line.get("task_index") {
        row.insert("task_index".into(), i.clone());
    }
    Value::Object(row)
}
