//! DrawingBench tasks: a prompt and its `criteria` (required tools and colours, minimum
//! segments and coverage, and the spatial constraints only the `paper` profile evaluates),
//! read from the dataset file (`{metadata, prompts: [...]}`) or from a single task object.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::pyjson::{self, PyValue};
use super::ui::Num;

/// A half of the canvas named by a `position_constraint.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// `left`: x < width / 2.
    Left,
    /// `right`: x ≥ width / 2.
    Right,
    /// `above`: y < height / 2.
    Above,
    /// `below`: y ≥ height / 2.
    Below,
}

/// `criteria.position_constraint`.
#[derive(Debug, Clone, PartialEq)]
pub enum PositionConstraint {
    /// `{type: "left"|"right"|"above"|"below", description}`: the first drawn shape lies in
    /// that half of the canvas.
    Half(Half),
    /// `{x_min?, x_max?, y_min?, y_max?}` in screen coordinates: every drawn shape lies inside.
    Box {
        /// Smallest allowed screen x.
        x_min: Option<f64>,
        /// Largest allowed screen x.
        x_max: Option<f64>,
        /// Smallest allowed screen y.
        y_min: Option<f64>,
        /// Largest allowed screen y.
        y_max: Option<f64>,
    },
}

/// `criteria.size_constraint`: some drawn shape's bounding box is `width`×`height` within
/// `tolerance` pixels on each side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeConstraint {
    /// Wanted width in pixels.
    pub width: f64,
    /// Wanted height in pixels.
    pub height: f64,
    /// Allowed absolute difference per dimension.
    pub tolerance: f64,
}

/// A task's `criteria` object, with the keys the reference evaluator reads kept exactly as
/// present or absent (presence changes the result).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Criteria {
    /// Whether the criteria object has any key (`if criteria:` in the reference).
    pub nonempty: bool,
    /// `required_tools`, in order, duplicates kept.
    pub required_tools: Option<Vec<String>>,
    /// `required_colors`, in order, duplicates kept.
    pub required_colors: Option<Vec<String>>,
    /// `min_segments`.
    pub min_segments: Option<Num>,
    /// `min_coverage`.
    pub min_coverage: Option<Num>,
    /// `prompt` (never present in the benchmark; enables the unscored spatial metric).
    pub prompt: Option<String>,
    /// `max_actions` (ignored by the reference).
    pub max_actions: Option<Num>,
    /// `position_constraint` (ignored by the reference; scored by `paper`).
    pub position: Option<PositionConstraint>,
    /// `size_constraint` (ignored by the reference; scored by `paper`).
    pub size: Option<SizeConstraint>,
    /// `corner_placement: true` (ignored by the reference; scored by `paper`).
    pub corner_placement: bool,
}

/// One benchmark task.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Task {
    /// `id` (not unique in the published dataset; key tasks by index).
    pub id: String,
    /// The prompt shown to the model.
    pub prompt: String,
    /// `category` (empty when absent; the dataset has 25 labels).
    pub category: String,
    /// `difficulty` (`easy`, `medium`, `hard`, `very_hard`; empty when absent).
    pub difficulty: String,
    /// The scoring criteria.
    pub criteria: Criteria,
}

/// Why a task or dataset could not be read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TaskError {
    /// Not JSON.
    Json(pyjson::JsonError),
    /// A field is missing or has the wrong type; `path` is a JSON path.
    Field {
        /// Where.
        path: String,
        /// What was expected there.
        expected: &'static str,
    },
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskError::Json(e) => write!(f, "task: {e}"),
            TaskError::Field { path, expected } => write!(f, "task: `{path}` must be {expected}"),
        }
    }
}

impl core::error::Error for TaskError {}

fn ferr(path: &str, key: &str, expected: &'static str) -> TaskError {
    let path = if path.is_empty() { String::from(key) } else { alloc::format!("{path}.{key}") };
    TaskError::Field { path, expected }
}

fn str_list(v: &PyValue, path: &str, key: &str) -> Result<Vec<String>, TaskError> {
    let PyValue::List(items) = v else { return Err(ferr(path, key, "a list of strings")) };
    items
        .iter()
        .map(|i| match i {
            PyValue::Str(s) => Ok(s.clone()),
            _ => Err(ferr(path, key, "a list of strings")),
        })
        .collect()
}

fn opt_f64(v: &PyValue, key: &str) -> Option<f64> {
    v.get(key).and_then(Num::from_py).map(|n| n.v)
}

impl Criteria {
    /// Reads a `criteria` object; `path` prefixes error paths.
    pub fn from_value(v: &PyValue, path: &str) -> Result<Criteria, TaskError> {
        let PyValue::Dict(items) = v else { return Err(ferr(path, "criteria", "an object")) };
        let mut c = Criteria { nonempty: !items.is_empty(), ..Criteria::default() };
        let num = |key: &str| -> Result<Option<Num>, TaskError> {
            match v.get(key) {
                None => Ok(None),
                Some(n) => Num::from_py(n).map(Some).ok_or_else(|| ferr(path, key, "a number")),
            }
        };
        if let Some(t) = v.get("required_tools") {
            c.required_tools = Some(str_list(t, path, "required_tools")?);
        }
        if let Some(t) = v.get("required_colors") {
            c.required_colors = Some(str_list(t, path, "required_colors")?);
        }
        c.min_segments = num("min_segments")?;
        c.min_coverage = num("min_coverage")?;
        c.max_actions = num("max_actions")?;
        match v.get("prompt") {
            None => {}
            Some(PyValue::Str(s)) => c.prompt = Some(s.clone()),
            Some(_) => return Err(ferr(path, "prompt", "a string")),
        }
        if let Some(p) = v.get("position_constraint") {
            c.position = Some(match p.get("type") {
                Some(PyValue::Str(t)) => PositionConstraint::Half(match t.as_str() {
                    "left" => Half::Left,
                    "right" => Half::Right,
                    "above" => Half::Above,
                    "below" => Half::Below,
                    _ => {
                        return Err(ferr(
                            path,
                            "position_constraint.type",
                            "left/right/above/below",
                        ))
                    }
                }),
                Some(_) => return Err(ferr(path, "position_constraint.type", "a string")),
                None => PositionConstraint::Box {
                    x_min: opt_f64(p, "x_min"),
                    x_max: opt_f64(p, "x_max"),
                    y_min: opt_f64(p, "y_min"),
                    y_max: opt_f64(p, "y_max"),
                },
            });
        }
        if let Some(s) = v.get("size_constraint") {
            let need = |key: &str| {
                opt_f64(s, key)
                    .ok_or_else(|| ferr(path, "size_constraint", "{width, height, tolerance?}"))
            };
            c.size = Some(SizeConstraint {
                width: need("width")?,
                height: need("height")?,
                tolerance: opt_f64(s, "tolerance").unwrap_or(0.0),
            });
        }
        c.corner_placement = matches!(v.get("corner_placement"), Some(PyValue::Bool(true)));
        Ok(c)
    }
}

impl Task {
    /// Reads one task object (`{id, prompt, criteria, …}`); an object without `criteria` is
    /// read as the criteria themselves.
    pub fn from_value(v: &PyValue, path: &str) -> Result<Task, TaskError> {
        if !matches!(v, PyValue::Dict(_)) {
            return Err(TaskError::Field { path: String::from(path), expected: "an object" });
        }
        let text = |key: &str| match v.get(key) {
            Some(PyValue::Str(s)) => s.clone(),
            _ => String::new(),
        };
        let criteria = match v.get("criteria") {
            Some(c) => {
                let p = if path.is_empty() {
                    String::from("criteria")
                } else {
                    alloc::format!("{path}.criteria")
                };
                Criteria::from_value(c, &p)?
            }
            None => Criteria::from_value(v, path)?,
        };
        Ok(Task {
            id: text("id"),
            prompt: text("prompt"),
            category: text("category"),
            difficulty: text("difficulty"),
            criteria,
        })
    }

    /// Reads a task from JSON text.
    pub fn from_json(text: &str) -> Result<Task, TaskError> {
        Task::from_value(&pyjson::parse(text).map_err(TaskError::Json)?, "")
    }
}

/// Reads the dataset file (`{metadata, prompts: [...]}`, or a bare list of tasks).
pub fn dataset_from_json(text: &str) -> Result<Vec<Task>, TaskError> {
    let root = pyjson::parse(text).map_err(TaskError::Json)?;
    let list = match (&root, root.get("prompts")) {
        (_, Some(PyValue::List(items))) => items,
        (PyValue::List(items), _) => items,
        _ => return Err(TaskError::Field { path: String::from("prompts"), expected: "a list" }),
    };
    list.iter()
        .enumerate()
        .map(|(i, t)| Task::from_value(t, &alloc::format!("prompts[{i}]")))
        .collect()
}
