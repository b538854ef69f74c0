//! The batch row format: one input object `{"id", "task", "code"}` → one output row with `id`
//! and the oracle's verdict fields, as a pure function (hosts run it in parallel), plus the
//! benchmark's three rates over the output rows. A [`TaskCache`] keeps the last tasks compiled,
//! so rows that share a task (several programs per task) load it once.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::{code_json, evaluate_program, load, python, Verdict, World};

/// `error_type` of a row whose task could not be loaded (or that has no task).
pub const INVALID_TASK: &str = "INVALID_TASK";

fn evaluate_row_code(world: &World, code: Option<&Value>) -> Verdict {
    let parsed = match code {
        Some(Value::String(src)) => python::parse(src.as_bytes()),
        Some(v) => code_json::parse_value(v),
        None => code_json::parse_value(&Value::Null),
    };
    match parsed {
        Ok(program) => evaluate_program(world, &program),
        Err(e) => Verdict::code_error(&e),
    }
}

/// Tasks compiled for the rows before, by their JSON (text or object): at most
/// [`TaskCache::SLOTS`], the oldest replaced first. A row's verdict never depends on the
/// cache, only the time it takes.
#[derive(Debug, Default, Clone)]
pub struct TaskCache {
    entries: Vec<(u64, Value, World)>,
    next: usize,
}

impl TaskCache {
    /// Tasks kept.
    pub const SLOTS: usize = 16;

    /// An empty cache.
    pub fn new() -> TaskCache {
        TaskCache::default()
    }

    /// The compiled world of `task` (a task object or its JSON text), loading it on a miss.
    fn world(&mut self, task: &Value) -> Result<&World, String> {
        let key = hash_value(task);
        if let Some(i) = self.entries.iter().position(|(k, t, _)| *k == key && t == task) {
            return Ok(&self.entries[i].2);
        }
        let loaded = match task {
            Value::String(text) => load::task_from_slice(text.as_bytes()),
            other => load::task_from_value(other),
        };
        let world = World::new(&loaded.map_err(|e| e.to_string())?);
        let slot = if self.entries.len() < Self::SLOTS {
            self.entries.push((key, task.clone(), world));
            self.entries.len() - 1
        } else {
            let slot = self.next;
            self.entries[slot] = (key, task.clone(), world);
            self.next = (slot + 1) % Self::SLOTS;
            slot
        };
        Ok(&self.entries[slot].2)
    }
}

/// FNV-1a over a JSON value's structure and scalars (equal values hash equally; a hit is then
/// confirmed by comparing the values).
fn hash_value(v: &Value) -> u64 {
    fn eat(h: &mut u64, bytes: &[u8]) {
        for &b in bytes {
            *h = (*h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn walk(h: &mut u64, v: &Value) {
        match v {
            Value::Null => eat(h, b"n"),
            Value::Bool(b) => eat(h, if *b { b"t" } else { b"f" }),
            Value::Number(n) => {
                eat(h, b"#");
                eat(h, &n.as_f64().unwrap_or(0.0).to_bits().to_le_bytes());
            }
            Value::String(s) => {
                eat(h, b"s");
                eat(h, s.as_bytes());
            }
            Value::Array(items) => {
                eat(h, b"[");
                items.iter().for_each(|i| walk(h, i));
            }
            Value::Object(map) => {
                eat(h, b"{");
                for (k, v) in map {
                    eat(h, k.as_bytes());
                    walk(h, v);
                }
            }
        }
    }
    let mut h = 0xcbf2_9ce4_8422_2325;
    walk(&mut h, v);
    h
}

/// Evaluates one batch input row. `task` is a task object or its JSON text (a string: what
/// columnar tools such as Arrow keep intact); `code` is a JSON AST object or a Python-style
/// string.
pub fn eval_row(input: &Value) -> Value {
    eval_row_with(input, &mut TaskCache::new())
}

/// [`eval_row`] with the tasks of earlier rows kept in `cache` (a host keeps one per worker
/// thread): the same row, without loading a task again.
pub fn eval_row_with(input: &Value, cache: &mut TaskCache) -> Value {
    let mut row = Map::new();
    row.insert("id".to_string(), input.get("id").cloned().unwrap_or(Value::Null));
    let verdict = match input.get("task") {
        None => Err(format!("{INVALID_TASK}: the row has no \"task\"")),
        Some(task) => cache.world(task).map(|world| evaluate_row_code(world, input.get("code"))),
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
