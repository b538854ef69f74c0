//! `gobo.draw`: DrawingBench — `evaluate` (`gobo draw eval`), `evaluate_batch` (`gobo draw eval
//! --batch`: rows in, rows out, the GIL released and every core used), `evaluate_jsonl` (the
//! same on JSON Lines bytes), `feedback` (turn-2 feedback and the two-turn rule) and `render`
//! (the canvas as PNG). Results are the core's (`gobo::drawing::batch`): the CLI's rows, as
//! dicts.

use std::path::PathBuf;

use gobo::drawing::actions::Actions;
use gobo::drawing::batch::{eval_json, eval_line, needs_dataset, pick, profile as parse_profile};
use gobo::drawing::feedback::{final_score as core_final_score, needs_second_turn as core_needs};
use gobo::drawing::raster::Canvas;
use gobo::drawing::task::{dataset_from_json, Task};
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{judge, Profile};
use gobo_host::batch::{map_lines, map_rows, BatchOptions};
use gobo_host::png::{encode_png, PixelFormat};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use serde_json::{json, Value};

use crate::convert::{error, input, json_lines, rows, text_or_input, to_py, to_py_list, Input};

const COMMAND: &str = "draw";
/// Environment variable naming the DrawingBench dataset file (as for the CLI).
const DATASET_ENV: &str = "GOBO_DRAWINGBENCH_DATASET";

/// The raw action text: `str` as the model wrote it, a list of dicts (its JSON), `bytes`, or a
/// `pathlib.Path` to a file.
fn actions_text(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    Ok(text_or_input(obj, "actions")?.read(py, COMMAND, "actions")?.1)
}

fn load_ui(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<UiConfig> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(UiConfig::drawingbench_default());
    };
    let (name, text) = input(obj, "ui")?.read_text(py, COMMAND, "ui")?;
    UiConfig::from_json(&text).map_err(|e| error(py, COMMAND, format!("{name}: {e}")))
}

fn load_dataset(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Task>> {
    let source = match obj.filter(|o| !o.is_none()) {
        Some(o) => input(o, "dataset")?,
        None => match std::env::var_os(DATASET_ENV) {
            Some(p) => Input::Path(PathBuf::from(p)),
            None => {
                return Err(error(
                    py,
                    COMMAND,
                    format!(
                        "a task index needs the dataset: pass dataset=PATH or set {DATASET_ENV}"
                    ),
                ))
            }
        },
    };
    let (name, text) = source.read_text(py, COMMAND, "dataset")?;
    py.detach(|| dataset_from_json(&text)).map_err(|e| error(py, COMMAND, format!("{name}: {e}")))
}

/// The task: `task` (a dict `{id, prompt, criteria}` or bare criteria, a path, or JSON bytes),
/// else `task_index` into the dataset.
fn load_task(
    py: Python<'_>,
    task: Option<&Bound<'_, PyAny>>,
    task_index: Option<usize>,
    dataset: Option<&Bound<'_, PyAny>>,
) -> PyResult<Task> {
    if let Some(t) = task.filter(|t| !t.is_none()) {
        let (name, text) = input(t, "task")?.read_text(py, COMMAND, "task")?;
        return Task::from_json(&text).map_err(|e| error(py, COMMAND, format!("{name}: {e}")));
    }
    match task_index {
        Some(i) => {
            pick(&load_dataset(py, dataset)?, i as u64).cloned().map_err(|e| error(py, COMMAND, e))
        }
        None => Err(error(py, COMMAND, "pass task= or task_index=")),
    }
}

fn profile(py: Python<'_>, name: &str) -> PyResult<Profile> {
    parse_profile(name).map_err(|e| error(py, COMMAND, e))
}

/// Scores a model's actions (`gobo draw eval`).
#[pyfunction]
#[pyo3(signature = (actions, task=None, *, task_index=None, dataset=None, profile="drawingbench-1.0", ui=None))]
fn evaluate<'py>(
    py: Python<'py>,
    actions: &Bound<'py, PyAny>,
    task: Option<&Bound<'py, PyAny>>,
    task_index: Option<usize>,
    dataset: Option<&Bound<'py, PyAny>>,
    profile: &str,
    ui: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let profile = self::profile(py, profile)?;
    let ui = load_ui(py, ui)?;
    let task = load_task(py, task, task_index, dataset)?;
    let raw = actions_text(py, actions)?;
    let row = py.detach(|| eval_json(&raw, &task.criteria, &ui, profile));
    to_py(py, &Value::Object(row))
}

/// Scores rows `{"id", "task_index" | "task", "actions_raw"}` on every core with the GIL
/// released (`gobo draw eval --batch`): one result row per input, in order.
#[pyfunction]
#[pyo3(signature = (rows, *, dataset=None, profile="drawingbench-1.0", ui=None, jobs=0))]
fn evaluate_batch<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    dataset: Option<&Bound<'py, PyAny>>,
    profile: &str,
    ui: Option<&Bound<'py, PyAny>>,
    jobs: usize,
) -> PyResult<Bound<'py, PyList>> {
    let profile = self::profile(py, profile)?;
    let ui = load_ui(py, ui)?;
    let inputs = self::rows(rows)?;
    // The dataset is only read when some row names its task by index.
    let tasks =
        if inputs.iter().any(needs_dataset) { load_dataset(py, dataset)? } else { Vec::new() };
    let out = py.detach(|| map_rows(&inputs, jobs, |row| eval_line(row, &tasks, &ui, profile)));
    to_py_list(py, &out)
}

/// Scores JSON Lines rows (`bytes` or `str`) and returns the result rows as JSON Lines
/// `bytes`: exactly what `gobo draw eval --batch` writes. Parsing, scoring and serialization
/// run with the GIL released. The dataset is read only when some line holds `"task_index"`.
#[pyfunction]
#[pyo3(signature = (lines, *, dataset=None, profile="drawingbench-1.0", ui=None, jobs=0))]
fn evaluate_jsonl<'py>(
    py: Python<'py>,
    lines: &Bound<'py, PyAny>,
    dataset: Option<&Bound<'py, PyAny>>,
    profile: &str,
    ui: Option<&Bound<'py, PyAny>>,
    jobs: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let profile = self::profile(py, profile)?;
    let ui = load_ui(py, ui)?;
    let needle: &[u8] = b"\"task_index\"";
    let indexed = json_lines(lines, |t| t.windows(needle.len()).any(|w| w == needle))?;
    let tasks = if indexed { load_dataset(py, dataset)? } else { Vec::new() };
    let max_line = BatchOptions::default().max_line_bytes;
    let out = json_lines(lines, |text| {
        py.detach(|| map_lines(text, jobs, max_line, |row| eval_line(row, &tasks, &ui, profile)))
    })?;
    Ok(PyBytes::new(py, &out))
}

/// Turn-2 feedback on a model's actions (`drawingbench-1.0`): `{"feedback", "text", "score",
/// "second_turn"}`, or `None` where the reference evaluator raises.
#[pyfunction]
#[pyo3(signature = (actions, task=None, *, task_index=None, dataset=None, ui=None))]
fn feedback<'py>(
    py: Python<'py>,
    actions: &Bound<'py, PyAny>,
    task: Option<&Bound<'py, PyAny>>,
    task_index: Option<usize>,
    dataset: Option<&Bound<'py, PyAny>>,
    ui: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let ui = load_ui(py, ui)?;
    let task = load_task(py, task, task_index, dataset)?;
    let raw = actions_text(py, actions)?;
    let verdict =
        py.detach(|| judge(&raw, &task.criteria, &ui)).map_err(|e| error(py, COMMAND, e))?;
    let out = match (verdict.score(), verdict.feedback(&task.criteria, &ui)) {
        (Some(score), Some(fb)) => json!({
            "feedback": fb.to_json(),
            "text": fb.text(),
            "score": score,
            "second_turn": core_needs(score),
        }),
        _ => Value::Null,
    };
    to_py(py, &out)
}

/// Whether a turn-1 score gets a second turn with feedback (below 0.9).
#[pyfunction]
fn needs_second_turn(score: f64) -> bool {
    core_needs(score)
}

/// The two-turn protocol's final score: turn 2's if it ran, else turn 1's.
#[pyfunction]
#[pyo3(signature = (turn1, turn2=None))]
fn final_score(turn1: f64, turn2: Option<f64>) -> f64 {
    core_final_score(turn1, turn2)
}

/// What the drawing app shows for the actions, as PNG bytes (RGBA; `gobo draw render`).
#[pyfunction]
#[pyo3(signature = (actions, *, ui=None))]
fn render<'py>(
    py: Python<'py>,
    actions: &Bound<'py, PyAny>,
    ui: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let ui = load_ui(py, ui)?;
    let raw = actions_text(py, actions)?;
    let png = py.detach(|| {
        let actions = Actions::parse(&raw).map_err(|e| e.to_string())?;
        let canvas = Canvas::render(&actions, &ui);
        encode_png(canvas.width(), canvas.height(), PixelFormat::Rgba8, canvas.rgba())
            .map_err(|e| e.to_string())
    });
    let png = png.map_err(|e| error(py, COMMAND, e))?;
    Ok(PyBytes::new(py, &png))
}

/// Registers `gobo._gobo.draw`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "draw")?;
    m.add_function(wrap_pyfunction!(evaluate, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_jsonl, &m)?)?;
    m.add_function(wrap_pyfunction!(feedback, &m)?)?;
    m.add_function(wrap_pyfunction!(needs_second_turn, &m)?)?;
    m.add_function(wrap_pyfunction!(final_score, &m)?)?;
    m.add_function(wrap_pyfunction!(render, &m)?)?;
    parent.add_submodule(&m)
}
