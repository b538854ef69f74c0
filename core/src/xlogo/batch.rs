//! The batch row format: one input object `{"id", "task", "code"}` → one output row with `id`
//! and the oracle's verdict fields, as a pure function (hosts run it in parallel), plus the
//! benchmark's three rates over the output rows.

use alloc::format;
use alloc::string::ToString;

use serde_json::{Map, Value};

use super::{code_json, evaluate_program, load, python, Verdict, World};

/// `error_type` of a row whose task could not be loaded (or that has no task).
pub const INVALID_TASK: &str = "INVALID_TASK";

fn evaluate_row_code(task: &super::Task, code: Option<&Value>) -> Verdict {
    let world = World::new(task);
    let parsed = match code {
        Some(Value::String(src)) => python::parse(src.as_bytes()),
        Some(v) => code_json::parse_value(v),
        None => code_json::parse_value(&Value::Null),
    };
    match parsed {
        Ok(program) => evaluate_program(&world, &program),
        Err(e) => Verdict::code_error(&e),
    }
}

/// Evaluates one batch input row. `task` is a task object or its JSON text (a string: what
/// columnar tools such as Arrow keep intact); `code` is a JSON AST object or a Python-style
/// string.
pub fn eval_row(input: &Value) -> Value {
    let mut row = Map::new();
    row.insert("id".to_string(), input.get("id").cloned().unwrap_or(Value::Null));
    let verdict = match input.get("task") {
        None => Err(format!("{INVALID_TASK}: the row has no \"task\"")),
        Some(Value::String(text)) => load::task_from_slice(text.as_bytes())
            .map_err(|e| e.to_string())
            .map(|task| evaluate_row_code(&task, input.get("code"))),
        Some(task) => load::task_from_value(task)
            .map_err(|e| e.to_string())
            .map(|task| evaluate_row_code(&task, input.get("code"))),
    };
    match verdict {
        Ok(v) => {
            if let Value::Object(fields) = v.to_json() {
                row.extend(fields);
            }
        }
        Err(msg) => {
            row.insert("error_type".to_string(), Value::from(INVALID_TASK));
            row.insert("success".to_string(), Value::Bool(false));
            row.insert("error".to_string(), Value::from(msg));
            row.insert("result".to_string(), Value::Null);
        }
    }
    Value::Object(row)
}

/// The benchmark's metrics over output rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Rows.
    pub rows: usize,
    /// `error_type == OK`.
    pub success: usize,
    /// Code that parsed (everything but `FORMAT_ERROR`).
    pub format_ok: usize,
    /// Programs that ran to the end without crashing (OK, GOAL_FAIL, CONSTRAINT_FAIL,
    /// GOAL_AND_CONSTRAINT_FAIL).
    pub no_crash: usize,
}

impl Summary {
    /// Counts the rows.
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a Value>) -> Summary {
        let mut s = Summary::default();
        for row in rows {
            s.add(row);
        }
        s
    }

    /// Counts one more row (a batch's rows stream past one at a time).
    pub fn add(&mut self, row: &Value) {
        self.rows += 1;
        let t = row.get("error_type").and_then(Value::as_str).unwrap_or("");
        self.success += usize::from(t == "OK");
        self.format_ok += usize::from(t != "FORMAT_ERROR");
        self.no_crash += usize::from(matches!(
            t,
            "OK" | "GOAL_FAIL" | "CONSTRAINT_FAIL" | "GOAL_AND_CONSTRAINT_FAIL"
        ));
    }

    /// `part / rows` (0 when there are no rows).
    pub fn rate(&self, part: usize) -> f64 {
        if self.rows == 0 {
            0.0
        } else {
            part as f64 / self.rows as f64
        }
    }
}
