//! `gobo.xlogo.classify`, `perturb`, `resample` and `report`: XLogoMiniProg's analyses (`gobo
//! xlogo classify|perturb|resample|report --json`; `POST /v1/xlogo/classify|perturb|resample|
//! report`). The semantics are `gobo::xlogo`'s (`dims`, `perturb`, `resample`, `report`); the
//! dicts are the CLI's JSON.

use gobo::xlogo::dims::{classify as classify_task, task_row, TaskRow};
use gobo::xlogo::perturb::{perturb as perturb_task, Subset};
use gobo::xlogo::report::report_of;
use gobo::xlogo::resample::{resample as resample_rows, row_failed, ResampleConfig};
use gobo::xlogo::Program;
use pyo3::prelude::*;
use serde_json::{json, Value};

use crate::convert::{error, input, rows, to_py};
use crate::xlogo::{parse_code, Task};

const COMMAND: &str = "xlogo";

/// A task argument as its JSON document: a `Task`, a dict (a task object or a data-file row
/// with `task` and `reference_code`), a path to its JSON file, or JSON `bytes`.
fn task_doc(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(t) = obj.cast::<Task>() {
        return Ok(t.get().json_value());
    }
    let (name, bytes) = input(obj, "task")?.read(py, COMMAND, "task")?;
    serde_json::from_slice(&bytes).map_err(|e| error(py, COMMAND, format!("{name}: {e}")))
}

/// The task row of a document, and the reference code: `code` when given, else the row's own
/// `reference_code`.
fn row_and_reference(
    py: Python<'_>,
    doc: &Value,
    code: Option<&Bound<'_, PyAny>>,
) -> PyResult<(TaskRow, Option<Program>)> {
    let row = task_row(doc).map_err(|e| error(py, COMMAND, format!("task: {e}")))?;
    let reference = match code.filter(|c| !c.is_none()) {
        Some(c) => Some(parse_code(py, c)?.map_err(|e| error(py, COMMAND, format!("code: {e}")))?),
        None => row.reference.clone(),
    };
    Ok((row, reference))
}

/// A task's dimensions (XLogoMiniProg §5.4; `gobo xlogo classify --json`): task type,
/// constraints, concepts, code length and grid size. The dimensions that need reference code
/// are `None` without it (`code`, else the row's `reference_code`).
#[pyfunction]
#[pyo3(signature = (task, code=None))]
fn classify<'py>(
    py: Python<'py>,
    task: &Bound<'py, PyAny>,
    code: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = task_doc(py, task)?;
    let (row, reference) = row_and_reference(py, &doc, code)?;
    let dims = py.detach(|| classify_task(&row.task, reference.as_ref()).to_json());
    to_py(py, &dims)
}

/// The paper's three simplifications of a task (`gobo xlogo perturb --json`): one dict per
/// subset (`"T"`, `"T_A"` .. `"T_ABC"`, or letters such as `"AB"`; default all eight) with the
/// perturbed task, what changed, the turtle's move for C, and the reference code's verdict.
#[pyfunction]
#[pyo3(signature = (task, code=None, *, subsets=None))]
fn perturb<'py>(
    py: Python<'py>,
    task: &Bound<'py, PyAny>,
    code: Option<&Bound<'py, PyAny>>,
    subsets: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = task_doc(py, task)?;
    let (_, reference) = row_and_reference(py, &doc, code)?;
    let subsets: Vec<Subset> = match subsets {
        None => Subset::ALL.to_vec(),
        Some(names) => names
            .iter()
            .map(|s| {
                Subset::parse(s).ok_or_else(|| {
                    error(py, COMMAND, format!("unknown subset {s:?} (T, T_A .. T_ABC)"))
                })
            })
            .collect::<PyResult<_>>()?,
    };
    let done = py.detach(|| -> Result<Vec<Value>, String> {
        subsets
            .into_iter()
            .map(|subset| {
                let p = perturb_task(&doc, reference.as_ref(), subset)
                    .map_err(|e| format!("task: {e}"))?;
                serde_json::to_value(&p).map_err(|e| e.to_string())
            })
            .collect()
    });
    to_py(py, &Value::Array(done.map_err(|e| error(py, COMMAND, e))?))
}

/// Emulator-driven curriculum resampling (`gobo xlogo resample --json`) over verdict rows
/// (`evaluate_batch`'s output): the weights, `sample` (the drawn rows' ids, in draw order) and
/// the share of failed rows drawn. `beta` ≥ 0 is how much more a failed task weighs; `size` the number of
/// draws (default: as many as rows).
#[pyfunction]
#[pyo3(signature = (rows, *, beta=1.0, size=None, seed=1))]
fn resample<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    beta: f64,
    size: Option<usize>,
    seed: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = self::rows(rows)?;
    let cfg = ResampleConfig { beta, size, seed };
    let done = py.detach(|| {
        let failed: Vec<bool> = rows.iter().map(row_failed).collect();
        let ids: Vec<Value> =
            rows.iter().map(|r| r.get("id").cloned().unwrap_or(Value::Null)).collect();
        resample_rows(&failed, &cfg).map(|r| r.to_json(&ids)).map_err(|e| e.to_string())
    });
    to_py(py, &done.map_err(|e| error(py, COMMAND, e))?)
}

/// Success, format and no-crash rates, overall and per task dimension (`gobo xlogo report
/// --json`), of verdict rows; `tasks` (data rows or batch inputs, matched by `id`) gives the
/// per-dimension tables. `unreadable_tasks` counts task rows that could not be read.
#[pyfunction]
#[pyo3(signature = (rows, tasks=None))]
fn report<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    tasks: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = self::rows(rows)?;
    if rows.is_empty() {
        return Err(error(py, "xlogo report", "no rows"));
    }
    let tasks = match tasks.filter(|t| !t.is_none()) {
        Some(t) => self::rows(t)?,
        None => Vec::new(),
    };
    let doc = py.detach(|| {
        let (report, unreadable) = report_of(&rows, &tasks);
        let mut doc = report.to_json();
        doc["unreadable_tasks"] = json!(unreadable);
        doc
    });
    to_py(py, &doc)
}

/// Registers the analyses in `gobo._gobo.xlogo`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(classify, m)?)?;
    m.add_function(wrap_pyfunction!(perturb, m)?)?;
    m.add_function(wrap_pyfunction!(resample, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    Ok(())
}
