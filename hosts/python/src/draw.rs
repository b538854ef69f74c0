//! `gobo.draw`: DrawingBench — `evaluate` (`gobo draw eval`), `evaluate_batch` (`gobo draw eval
//! --batch`: rows in, rows out, the GIL released and every core used), `evaluate_jsonl` (the
//! same on JSON Lines bytes), `feedback` (turn-2 feedback and the two-turn rule), `render`
//! (the canvas as PNG), `episode` (`gobo draw episode`: the multi-turn protocol) and `report`
//! (`gobo draw report`: the paper's tables). Results are the core's (`gobo::drawing::batch`): the CLI's rows, as
//! dicts.

use std::path::PathBuf;

use gobo::drawing::actions::Actions;
use gobo::drawing::batch::{eval_json, eval_line, needs_dataset, pick, profile as parse_profile};
use gobo::drawing::episode::{read_doc, EpisodeConfig, DEFAULT_MAX_TURNS};
use gobo::drawing::feedback::{
    final_score as core_final_score, needs_second_turn as core_needs, RETRY_BELOW,
};
use gobo::drawing::raster::Canvas;
use gobo::drawing::report::report_of;
use gobo::drawing::task::{dataset_from_json, Task};
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{judge, Profile};
use gobo_host::batch::{map_lines, map_rows, BatchOptions};
use gobo_host::drawing::canvas_png;
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

/// Runs the multi-turn protocol over an episode document (`gobo draw episode --json`): a dict,
/// JSON text or bytes, or a path. With `render=True` each turn carries `canvas_png` (PNG
/// bytes, or `None` for text that is not an action list).
#[pyfunction]
#[pyo3(signature = (episode, *, dataset=None, max_turns=DEFAULT_MAX_TURNS, stop_at=RETRY_BELOW, profile="drawingbench-1.0", ui=None, render=false))]
#[allow(clippy::too_many_arguments)]
fn episode<'py>(
    py: Python<'py>,
    episode: &Bound<'py, PyAny>,
    dataset: Option<&Bound<'py, PyAny>>,
    max_turns: u32,
    stop_at: f64,
    profile: &str,
    ui: Option<&Bound<'py, PyAny>>,
    render: bool,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "draw episode";
    let config = EpisodeConfig { max_turns, stop_at, profile: self::profile(py, profile)? };
    config.check().map_err(|e| error(py, CMD, e))?;
    let ui = load_ui(py, ui)?;
    let doc: Value = match text_or_input(episode, "episode")? {
        Input::Data(v) => v,
        other => {
            let (name, text) = other.read_text(py, CMD, "episode")?;
            serde_json::from_str(&text).map_err(|e| error(py, CMD, format!("{name}: {e}")))?
        }
    };
    let tasks = if doc.get("task").is_none() && doc.get("task_index").is_some() {
        load_dataset(py, dataset)?
    } else {
        Vec::new()
    };
    let parsed = read_doc(&doc, &tasks, config).map_err(|e| error(py, CMD, e))?;
    let (row, pngs) = py.detach(|| {
        let (episode, row) = parsed.run(&ui);
        let pngs: Vec<Option<Vec<u8>>> = if render {
            parsed.turns.iter().take(episode.turns.len()).map(|t| canvas_png(&t.raw, &ui)).collect()
        } else {
            Vec::new()
        };
        (Value::Object(row), pngs)
    });
    let out = to_py(py, &row)?;
    if render {
        let turns = out.get_item("turns")?;
        for (k, png) in pngs.into_iter().enumerate() {
            let value = match png {
                Some(p) => PyBytes::new(py, &p).into_any(),
                None => py.None().into_bound(py),
            };
            turns.get_item(k)?.set_item("canvas_png", value)?;
        }
    }
    Ok(out)
}

/// The paper's tables (`gobo draw report --json`) from result rows: episode rows or `draw
/// eval` rows (an iterable of dicts). `dataset` names the category and difficulty of rows
/// carrying only a `task_index`.
#[pyfunction]
#[pyo3(signature = (rows, *, dataset=None))]
fn report<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    dataset: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = self::rows(rows)?;
    if rows.is_empty() {
        return Err(error(py, "draw report", "no rows"));
    }
    let tasks = match dataset.filter(|d| !d.is_none()) {
        Some(_) => load_dataset(py, dataset)?,
        None => Vec::new(),
    };
    let doc = py.detach(|| report_of(&rows, &tasks).to_json());
    to_py(py, &doc)
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
    m.add_function(wrap_pyfunction!(episode, &m)?)?;
    m.add_function(wrap_pyfunction!(report, &m)?)?;
    parent.add_submodule(&m)
}
