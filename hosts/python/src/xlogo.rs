//! `gobo.xlogo`: XLogo-Mini — `Task` (loaded and compiled once, picklable), `evaluate` (`gobo
//! xlogo eval`), `evaluate_batch` (`gobo xlogo eval --batch`: rows in, rows out, the GIL
//! released and every core used), `evaluate_jsonl` (the same on JSON Lines bytes), `prompt` and `render`. Verdicts are the core's
//! (`gobo::xlogo`), rows are `gobo::xlogo::batch::eval_row`'s: the CLI's bytes, as dicts.

use std::sync::Arc;

use gobo::xlogo::prompt::{prompt as task_prompt, PromptStyle};
use gobo::xlogo::render::render_image;
use gobo::xlogo::{
    code_json, evaluate_program, load, python, CodeError, Emulator, Program, Task as CoreTask,
    Verdict, World,
};
use gobo_host::batch::{map_lines, map_rows, BatchOptions};
use gobo_host::png::{encode_png, PixelFormat};
use gobo_host::xlogo_rows::xlogo_row;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};
use serde_json::Value;

use crate::convert::{error, input, json_lines, rows, to_json, to_py, to_py_list, Input};

const COMMAND: &str = "xlogo";

#[derive(Debug)]
struct Loaded {
    /// The task document as JSON text (what pickles).
    json: String,
    task: CoreTask,
    world: World,
}

/// An XLogo-Mini task, loaded and compiled once: from a dict (a task object, or a data-file
/// row with a `"task"` field), a path to its JSON file, or JSON `bytes`. Pickles as its JSON.
#[pyclass(module = "gobo.xlogo", frozen)]
#[derive(Debug)]
pub struct Task {
    inner: Arc<Loaded>,
}

fn load_task(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Arc<Loaded>> {
    if let Ok(t) = obj.cast::<Task>() {
        return Ok(t.get().inner.clone());
    }
    let (name, value) = match input(obj, "task")? {
        Input::Data(v) => (String::from("task"), v),
        other => {
            let (name, bytes) = other.read(py, COMMAND, "task")?;
            // The loader's own syntax error (with line and column) for text that is not JSON.
            match serde_json::from_slice::<Value>(&bytes) {
                Ok(v) => (name, v),
                Err(_) => {
                    let e = load::task_from_slice(&bytes).err();
                    let e = e.map_or_else(|| "not JSON".to_string(), |e| e.to_string());
                    return Err(error(py, COMMAND, format!("{name}: {e}")));
                }
            }
        }
    };
    let task =
        load::task_from_value(&value).map_err(|e| error(py, COMMAND, format!("{name}: {e}")))?;
    let world = World::new(&task);
    Ok(Arc::new(Loaded { json: value.to_string(), task, world }))
}

/// Code as given: `str` is Python-style source, a dict the JSON AST (`{"run": [...]}`), a
/// `pathlib.Path` a file (`.py` is Python-style, anything else the JSON AST), `bytes` the
/// JSON AST text.
pub(crate) fn parse_code(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
) -> PyResult<Result<Program, CodeError>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(python::parse(s.to_str()?.as_bytes()));
    }
    if obj.is_instance_of::<PyDict>() || obj.is_instance_of::<PyList>() {
        return Ok(code_json::parse_value(&to_json(obj, "code")?));
    }
    let is_py = matches!(input(obj, "code")?, Input::Path(ref p) if p.extension().is_some_and(|e| e == "py"));
    let (_, bytes) = input(obj, "code")?.read(py, COMMAND, "code")?;
    Ok(if is_py { python::parse(&bytes) } else { code_json::parse_bytes(&bytes) })
}

fn verdict(loaded: &Loaded, program: &Result<Program, CodeError>) -> Verdict {
    match program {
        Ok(p) => evaluate_program(&loaded.world, p),
        Err(e) => Verdict::code_error(e),
    }
}

#[pymethods]
impl Task {
    #[new]
    fn new(py: Python<'_>, task: &Bound<'_, PyAny>) -> PyResult<Task> {
        Ok(Task { inner: load_task(py, task)? })
    }

    /// Evaluates code on this task; the same as `gobo.xlogo.evaluate(task, code)`.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        code: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let program = parse_code(py, code)?;
        let v = py.detach(|| verdict(&self.inner, &program));
        to_py(py, &v.to_json())
    }

    /// The task as a prompt; the same as `gobo.xlogo.prompt(task, style)`.
    #[pyo3(signature = (style="nl"))]
    fn prompt(&self, py: Python<'_>, style: &str) -> PyResult<String> {
        Ok(task_prompt(&self.inner.task, prompt_style(py, style)?))
    }

    /// The task document as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Value = serde_json::from_str(&self.inner.json).unwrap_or(Value::Null);
        to_py(py, &v)
    }

    fn __repr__(&self) -> String {
        format!("gobo.xlogo.Task({}x{})", self.inner.task.cols, self.inner.task.rows)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let ctor = py.get_type::<Task>().getattr("_from_state")?;
        Ok((ctor, (PyBytes::new(py, slf.get().inner.json.as_bytes()),)))
    }

    /// Rebuilds a task from its pickled JSON.
    #[classmethod]
    fn _from_state(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        state: &Bound<'_, PyBytes>,
    ) -> PyResult<Task> {
        Ok(Task { inner: load_task(py, state.as_any())? })
    }
}

impl Task {
    /// The task document as JSON.
    pub(crate) fn json_value(&self) -> Value {
        serde_json::from_str(&self.inner.json).unwrap_or(Value::Null)
    }
}

fn prompt_style(py: Python<'_>, style: &str) -> PyResult<PromptStyle> {
    match style {
        "nl" => Ok(PromptStyle::Nl),
        "ascii" => Ok(PromptStyle::Ascii),
        other => Err(error(py, COMMAND, format!("style {other:?}: expected nl or ascii"))),
    }
}

/// Evaluates code against a task (`gobo xlogo eval TASK CODE`).
#[pyfunction]
fn evaluate<'py>(
    py: Python<'py>,
    task: &Bound<'py, PyAny>,
    code: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let loaded = load_task(py, task)?;
    let program = parse_code(py, code)?;
    let v = py.detach(|| verdict(&loaded, &program));
    to_py(py, &v.to_json())
}

/// Evaluates rows `{"id", "task", "code"}` on every core with the GIL released (`gobo xlogo
/// eval --batch`): one result row per input, in order.
#[pyfunction]
#[pyo3(signature = (rows, *, jobs=0))]
fn evaluate_batch<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    jobs: usize,
) -> PyResult<Bound<'py, PyList>> {
    let inputs = self::rows(rows)?;
    let out = py.detach(|| map_rows(&inputs, jobs, xlogo_row));
    to_py_list(py, &out)
}

/// Evaluates JSON Lines rows (`bytes` or `str`, one `{"id", "task", "code"}` per line) and
/// returns the result rows as JSON Lines `bytes`: exactly what `gobo xlogo eval --batch` writes.
/// Parsing, evaluation and serialization run with the GIL released, so two Python threads'
/// calls run in parallel (`evaluate_batch` holds the GIL while it builds its dicts).
#[pyfunction]
#[pyo3(signature = (lines, *, jobs=0))]
fn evaluate_jsonl<'py>(
    py: Python<'py>,
    lines: &Bound<'py, PyAny>,
    jobs: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let max_line = BatchOptions::default().max_line_bytes;
    let out = json_lines(lines, |text| py.detach(|| map_lines(text, jobs, max_line, xlogo_row)))?;
    Ok(PyBytes::new(py, &out))
}

/// The task as a prompt for a language model (`gobo xlogo prompt`).
#[pyfunction]
#[pyo3(signature = (task, style="nl"))]
fn prompt(py: Python<'_>, task: &Bound<'_, PyAny>, style: &str) -> PyResult<String> {
    let style = prompt_style(py, style)?;
    Ok(task_prompt(&load_task(py, task)?.task, style))
}

/// The task (and a run of `code`) as PNG bytes (`gobo xlogo render`).
#[pyfunction]
#[pyo3(signature = (task, code=None))]
fn render<'py>(
    py: Python<'py>,
    task: &Bound<'py, PyAny>,
    code: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let loaded = load_task(py, task)?;
    let program = match code.filter(|c| !c.is_none()) {
        None => None,
        Some(c) => Some(parse_code(py, c)?.map_err(|e| error(py, COMMAND, format!("code: {e}")))?),
    };
    let png = py.detach(|| {
        let report = program.as_ref().and_then(|p| {
            let mut emulator = Emulator::new();
            let outcome = emulator.evaluate(&loaded.world, p);
            Verdict::from_run(&loaded.world, &outcome, &emulator).run
        });
        let image = render_image(&loaded.task, report.as_ref());
        encode_png(image.width(), image.height(), PixelFormat::Rgb8, image.pixels())
    });
    let png = png.map_err(|e| error(py, COMMAND, e))?;
    Ok(PyBytes::new(py, &png))
}

/// Registers `gobo._gobo.xlogo`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "xlogo")?;
    m.add_class::<Task>()?;
    m.add_function(wrap_pyfunction!(evaluate, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_jsonl, &m)?)?;
    m.add_function(wrap_pyfunction!(prompt, &m)?)?;
    m.add_function(wrap_pyfunction!(render, &m)?)?;
    crate::xlogo_analysis::register(&m)?;
    parent.add_submodule(&m)
}
