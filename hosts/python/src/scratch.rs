//! `gobo.scratch`: Scratch 3 projects — `Project` (loaded and compiled once, picklable),
//! `run` (trace rows or a summary, `gobo run`), `render` / `render_frames` (PNG bytes,
//! `gobo render`), `test` / `test_batch` (suites with seeds, `gobo test`), `diff_trace`
//! (`gobo diff-trace`), `drift` (two runs compared, `POST /v1/metrics/drift`) and `validate` (`gobo validate`); `observe`/`Session` live in `agent.rs`,
//! `patch`/`invert`/`diff` in `patch.rs`. Every call goes through the same
//! `gobo-host` functions as the CLI and returns the CLI's `--json` shape; the GIL is released
//! while the engine works.

use std::collections::BTreeMap;
use std::sync::Arc;

use gobo::scratch::diff::{diff_traces, DiffOptions, Signal};
use gobo::scratch::image::Image;
use gobo::scratch::project::validate::{validate_with, Context, Validation};
use gobo::scratch::project::{load_with, LoadOptions};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::suite::Stability;
use gobo::scratch::vm::Config;
use gobo_host::judge::{judge, parse_seeds, TestError, TestJob};
use gobo_host::project::compile_files;
use gobo_host::run::{parse_audio, parse_drag, run_trace, RunOptions, Source};
use gobo_host::sb3::{self, Limits, ProjectFiles};
use gobo_host::stage::render_frames as stage_frames;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap as Assets;

use crate::convert::{error, input, project_input, to_py, Input};

/// Version of the pickled `Project` state; bumped with [`gobo::scratch::image::IMAGE_VERSION`]
/// changes or changes to [`State`].
const STATE_VERSION: u32 = 2;

/// What a `Project` holds and pickles (postcard bytes).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct State {
    version: u32,
    name: String,
    md5: Option<String>,
    /// `missingAssets` and `packedFromJson` of its traces' meta line.
    missing_assets: usize,
    packed_from_json: bool,
    project_json: Vec<u8>,
    assets: Assets<String, Vec<u8>>,
    warnings: Vec<String>,
    pub(crate) image: Image,
}

impl State {
    fn files(&self) -> ProjectFiles {
        ProjectFiles { project_json: self.project_json.clone(), assets: self.assets.clone() }
    }
}

/// A Scratch 3 project, loaded and compiled once: from a path (an `.sb3`, a folder holding
/// `project.json`, or a `project.json` file), `bytes` (an `.sb3` archive or `project.json`
/// text), or a dict (the parsed `project.json`). Pickles as postcard bytes of the compiled
/// program image.
#[pyclass(module = "gobo.scratch", frozen)]
#[derive(Debug)]
pub struct Project {
    state: Arc<State>,
}

pub(crate) fn load_project(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    command: &str,
) -> PyResult<Arc<State>> {
    if let Ok(p) = source.cast::<Project>() {
        return Ok(p.get().state.clone());
    }
    let (name, files, md5, assets) = match project_input(source)? {
        Input::Path(path) => {
            let name = path.display().to_string();
            let files = py.detach(|| sb3::load_path(&path)).map_err(|e| {
                let message = if e.names_file() { e.to_string() } else { format!("{name}: {e}") };
                error(py, command, message)
            })?;
            // The reference hashes the file it was given; for a folder, its project.json.
            let hashed = if path.is_dir() { path.join("project.json") } else { path.clone() };
            let md5 = std::fs::read(&hashed).ok().map(|b| gobo::md5::hex(&b));
            let assets = sb3::AssetLoad::of(&files, sb3::is_archive(&path));
            (name, files, md5, assets)
        }
        other => {
            let bytes = match other {
                Input::Bytes(b) => b,
                Input::Data(v) => v.to_string().into_bytes(),
                Input::Path(_) => unreachable!("handled above"),
            };
            let files = sb3::read_bytes(&bytes, &Limits::default())
                .map_err(|e| error(py, command, format!("project: {e}")))?;
            let assets = sb3::AssetLoad::of(&files, bytes.starts_with(b"PK"));
            (String::from("project"), files, Some(gobo::md5::hex(&bytes)), assets)
        }
    };
    let compiled = py
        .detach(|| compile_files(&files))
        .map_err(|e| error(py, command, format!("{name}: {e}")))?;
    Ok(Arc::new(State {
        version: STATE_VERSION,
        name,
        md5,
        missing_assets: assets.missing,
        packed_from_json: assets.packed_from_json,
        project_json: files.project_json,
        assets: files.assets,
        warnings: compiled.warnings,
        image: compiled.image,
    }))
}

#[pymethods]
impl Project {
    #[new]
    fn new(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Project> {
        Ok(Project { state: load_project(py, source, "run")? })
    }

    /// The project as named in traces: the path as given, or `"project"`.
    #[getter]
    fn name(&self) -> &str {
        &self.state.name
    }

    /// MD5 (hex) of what the project was read from (`meta.md5` of its traces).
    #[getter]
    fn md5(&self) -> Option<&str> {
        self.state.md5.as_deref()
    }

    /// Problems that did not stop the project from loading (the CLI prints them as warnings).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.state.warnings.clone()
    }

    /// Target names in project order (the stage first).
    #[getter]
    fn targets(&self) -> Vec<String> {
        self.state.image.targets.iter().map(|t| t.name.to_string()).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "gobo.scratch.Project({:?}, targets={})",
            self.state.name,
            self.state.image.targets.len()
        )
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let bytes = postcard::to_allocvec(&*slf.get().state)
            .map_err(|e| PyValueError::new_err(format!("cannot pickle the project: {e}")))?;
        let ctor = py.get_type::<Project>().getattr("_from_state")?;
        Ok((ctor, (PyBytes::new(py, &bytes),)))
    }

    /// Rebuilds a project from its pickled state.
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: &[u8]) -> PyResult<Project> {
        let state: State = postcard::from_bytes(state)
            .map_err(|e| PyValueError::new_err(format!("not a pickled gobo project: {e}")))?;
        if state.version != STATE_VERSION {
            return Err(PyValueError::new_err(format!(
                "pickled by another gobo version (state {}, this gobo reads {STATE_VERSION})",
                state.version
            )));
        }
        Ok(Project { state: Arc::new(state) })
    }
}

pub(crate) fn scenario(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    command: &str,
) -> PyResult<Scenario> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(Scenario::green_flag()) };
    let (name, bytes) = input(obj, "scenario")?.read(py, command, "scenario")?;
    Scenario::parse(&bytes).map_err(|e| error(py, command, format!("{name}: {e}")))
}

/// Runs a project on the virtual clock (`gobo run`).
#[pyfunction]
#[pyo3(signature = (project, scenario=None, *, frames=None, seed=None, fps=30, turbo=false,
    audio="timed", drag="player", ticks_per_frame=1000, warp_checks=1_000_000,
    epoch="2020-01-01T00:00:00Z", until_idle=false, trace=true))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    frames: Option<u64>,
    seed: Option<u32>,
    fps: u32,
    turbo: bool,
    audio: &str,
    drag: &str,
    ticks_per_frame: u32,
    warp_checks: u32,
    epoch: &str,
    until_idle: bool,
    trace: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let state = load_project(py, project, "run")?;
    let sc = self::scenario(py, scenario, "run")?;
    let opts = RunOptions {
        frames,
        seed,
        fps,
        turbo,
        audio: parse_audio(audio).map_err(|e| error(py, "run", format!("audio {e}")))?,
        drag: parse_drag(drag).map_err(|e| error(py, "run", format!("drag {e}")))?,
        ticks_per_frame,
        warp_checks,
        epoch: epoch.to_string(),
        until_idle,
    };
    let (summary, lines) = py.detach(|| {
        let mut lines: Vec<String> = Vec::new();
        let assets = sb3::AssetLoad {
            missing: state.missing_assets,
            packed_from_json: state.packed_from_json,
        };
        let source = Source { project: &state.name, md5: state.md5.as_deref(), assets };
        let summary = run_trace(state.image.clone(), &sc, &opts, source, &mut |line| {
            if trace {
                lines.push(line.to_string());
            }
        });
        (summary, lines)
    });
    let summary = summary.map_err(|e| error(py, "run", e))?;
    if trace {
        // Python's own JSON reader keeps each line's key order (the trace schema's order).
        let loads = py.import("json")?.getattr("loads")?;
        let rows = PyList::empty(py);
        for line in &lines {
            rows.append(loads.call1((line.as_str(),))?)?;
        }
        Ok(rows.into_any())
    } else {
        to_py(py, &summary.to_json())
    }
}

/// The picture size: `scale` (1..=8) times 480x360, else `width` x `height` (1..=4096 each).
fn size(py: Python<'_>, width: u32, height: u32, scale: Option<u32>) -> PyResult<(u32, u32)> {
    match scale {
        Some(k @ 1..=8) => Ok((480 * k, 360 * k)),
        Some(k) => Err(error(py, "render", format!("scale {k} is not in 1..=8"))),
        None if (1..=4096).contains(&width) && (1..=4096).contains(&height) => Ok((width, height)),
        None => Err(error(py, "render", format!("--size \"{width}x{height}\" is not WxH"))),
    }
}

#[allow(clippy::too_many_arguments)]
fn rendered<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    frames: &[u64],
    seed: Option<u32>,
    fps: u32,
    (width, height): (u32, u32),
) -> PyResult<Vec<Vec<u8>>> {
    if !(30..=60).contains(&fps) {
        return Err(error(py, "render", format!("--fps {fps} is not in 30..=60")));
    }
    let state = load_project(py, project, "render")?;
    let sc = self::scenario(py, scenario, "render")?;
    let config = Config { fps, seed: seed.or(sc.seed).unwrap_or(1), ..Config::default() };
    py.detach(|| stage_frames(state.image.clone(), &sc, config, frames, width, height))
        .map_err(|e| error(py, "render", e))
}

/// The stage after one frame as PNG bytes (`gobo render --frame N -o F`).
#[pyfunction]
#[pyo3(signature = (project, scenario=None, *, frame=0, seed=None, fps=30, width=480, height=360, scale=None))]
#[allow(clippy::too_many_arguments)]
fn render<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    frame: u64,
    seed: Option<u32>,
    fps: u32,
    width: u32,
    height: u32,
    scale: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    let size = size(py, width, height, scale)?;
    let pngs = rendered(py, project, scenario, &[frame], seed, fps, size)?;
    let png = pngs.first().ok_or_else(|| error(py, "render", "the frame was not rendered"))?;
    Ok(PyBytes::new(py, png))
}

/// The stage after each of `frames` as PNG bytes, by frame (`gobo render --png-at`).
#[pyfunction]
#[pyo3(signature = (project, frames, scenario=None, *, seed=None, fps=30, width=480, height=360, scale=None))]
#[allow(clippy::too_many_arguments)]
fn render_frames<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    frames: Vec<u64>,
    scenario: Option<&Bound<'py, PyAny>>,
    seed: Option<u32>,
    fps: u32,
    width: u32,
    height: u32,
    scale: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let size = size(py, width, height, scale)?;
    let pngs = rendered(py, project, scenario, &frames, seed, fps, size)?;
    let out = PyDict::new(py);
    for (f, png) in frames.iter().zip(pngs) {
        out.set_item(f, PyBytes::new(py, &png))?;
    }
    Ok(out)
}

/// Seeds as given: `None`, `R` (1..=R), `"A..B"`, or an iterable of ints.
fn seeds(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<u64>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(None) };
    let spec = if let Ok(n) = obj.extract::<u64>() {
        n.to_string()
    } else if let Ok(s) = obj.cast::<PyString>() {
        s.to_str()?.to_string()
    } else {
        let list: Vec<u64> = obj.extract()?;
        if list.is_empty() || list.len() > 100_000 {
            return Err(error(
                py,
                "test",
                format!("seeds: {} seeds (1..=100000 allowed)", list.len()),
            ));
        }
        return Ok(Some(list));
    };
    parse_seeds(&spec).map(Some).map_err(|e| error(py, "test", e))
}

/// A trace given as a path, bytes (JSON lines), or a list of rows (as `run` returns).
fn trace_text(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    command: &str,
) -> PyResult<(String, String)> {
    let (name, text) = match input(obj, what)? {
        Input::Data(Value::Array(rows)) => {
            let mut text = String::new();
            for row in rows {
                text.push_str(&row.to_string());
                text.push('\n');
            }
            (what.to_string(), text)
        }
        other => other.read_text(py, command, what)?,
    };
    Ok((name, text))
}

/// Runs a test suite (`gobo test PROJECT SUITE [--seeds] [--trace CASE=F] --json`).
#[pyfunction]
#[pyo3(signature = (project, suite, *, seeds=None, traces=None, theta_pass=0.9, theta_fail=0.1))]
fn test<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    suite: &Bound<'py, PyAny>,
    seeds: Option<&Bound<'py, PyAny>>,
    traces: Option<&Bound<'py, PyDict>>,
    theta_pass: f64,
    theta_fail: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let state = load_project(py, project, "test")?;
    let (suite_name, suite_text) = input(suite, "suite")?.read_text(py, "test", "suite")?;
    let seeds = self::seeds(py, seeds)?;
    let (mut names, mut texts) = (BTreeMap::new(), BTreeMap::new());
    if let Some(traces) = traces {
        for (case, trace) in traces.iter() {
            let case: String = case.extract()?;
            let what = format!("traces[{case:?}]");
            let (name, text) = trace_text(py, &trace, &what, "test")?;
            names.insert(case.clone(), name);
            texts.insert(case, text);
        }
    }
    let files = state.files();
    let job = TestJob {
        project: &files,
        suite: &suite_text,
        seeds: seeds.as_deref(),
        stability: Stability { theta_pass, theta_fail },
        traces: &texts,
        max_frames: None,
    };
    // The CLI's messages (`gobo test`): each problem named by the file it is in.
    let judged = py.detach(|| judge(&job)).map_err(|e| {
        let message = match e {
            TestError::Suite(e) => format!("{suite_name}: {e}"),
            TestError::Trace { case, message } => format!("{}: {message}", names[&case]),
            TestError::UnknownTraceCase(name) => {
                format!("--trace names no case of the suite: '{name}'")
            }
            e => format!("{}: {e}", state.name),
        };
        error(py, "test", message)
    })?;
    to_py(py, &judged.report.to_json())
}

/// Compares two traces (`gobo diff-trace A B --json`). `signals` are signal names or the sets
/// `all` and `scratcheval`; `every` scores every N-th frame plus the last (0: every frame).
#[pyfunction]
#[pyo3(signature = (a, b, *, signals=None, tolerance=0.0, every=0))]
fn diff_trace<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    signals: Option<Vec<String>>,
    tolerance: f64,
    every: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let a = trace_text(py, a, "a", "diff-trace")?;
    let b = trace_text(py, b, "b", "diff-trace")?;
    let mut opts = DiffOptions { tolerance, every, ..DiffOptions::default() };
    if let Some(names) = signals {
        opts.signals = Signal::parse_list(&names).map_err(|e| error(py, "diff-trace", e))?;
        opts.restrict_first = true;
    }
    let report =
        py.detach(|| diff_traces(&a.1, &b.1, &opts)).map_err(|e| error(py, "diff-trace", e))?;
    to_py(py, &report.to_json())
}

/// ScratchEval's semantic drift of `candidate` from `gold` on one scenario (`POST
/// /v1/metrics/drift`): both run under the same seed, their traces compared on `signals`
/// (default the `scratcheval` set) at every `every`-th frame plus the last (default 10): the
/// report of `gobo diff-trace A B --every N --signals ... --json` on the two `gobo run` traces.
#[pyfunction]
#[pyo3(signature = (gold, candidate, scenario=None, *, frames=None, seed=None, fps=30, signals=None, every=10, tolerance=0.0))]
#[allow(clippy::too_many_arguments)]
fn drift<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyAny>,
    candidate: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    frames: Option<u64>,
    seed: Option<u32>,
    fps: u32,
    signals: Option<Vec<String>>,
    every: u64,
    tolerance: f64,
) -> PyResult<Bound<'py, PyAny>> {
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(error(py, "drift", "tolerance is a number >= 0"));
    }
    let names = signals.unwrap_or_else(|| vec![String::from("scratcheval")]);
    let signals = Signal::parse_list(&names).map_err(|e| error(py, "drift", e))?;
    let opts = DiffOptions { signals, restrict_first: true, tolerance, every };
    let (gold, candidate) =
        (load_project(py, gold, "drift")?, load_project(py, candidate, "drift")?);
    let sc = self::scenario(py, scenario, "drift")?;
    let run = RunOptions { frames, seed, fps, ..RunOptions::default() };
    let report = py.detach(|| -> Result<Value, String> {
        let trace = |state: &State| -> Result<String, String> {
            let assets = sb3::AssetLoad {
                missing: state.missing_assets,
                packed_from_json: state.packed_from_json,
            };
            let source = Source { project: &state.name, md5: state.md5.as_deref(), assets };
            let mut out = String::new();
            run_trace(state.image.clone(), &sc, &run, source, &mut |line| {
                out.push_str(line);
                out.push('\n');
            })
            .map_err(|e| e.to_string())?;
            Ok(out)
        };
        let (a, b) = (trace(&gold)?, trace(&candidate)?);
        diff_traces(&a, &b, &opts).map(|r| r.to_json()).map_err(|e| e.to_string())
    });
    to_py(py, &report.map_err(|e| error(py, "drift", e))?)
}

/// The files of a project argument (a `Project`, a path, bytes or a dict) and the name its
/// errors use; read errors are `GoboError`s of `command`.
pub(crate) fn project_files(
    py: Python<'_>,
    project: &Bound<'_, PyAny>,
    command: &str,
) -> PyResult<(String, ProjectFiles)> {
    if let Ok(p) = project.cast::<Project>() {
        return Ok((p.get().state.name.clone(), p.get().state.files()));
    }
    match project_input(project)? {
        Input::Path(path) => {
            let name = path.display().to_string();
            let files = py
                .detach(|| sb3::load_path(&path))
                .map_err(|e| error(py, command, format!("{name}: {e}")))?;
            Ok((name, files))
        }
        other => {
            let (name, bytes) = other.read(py, command, "project")?;
            let files = sb3::read_bytes(&bytes, &Limits::default())
                .map_err(|e| error(py, command, format!("{name}: {e}")))?;
            Ok((name, files))
        }
    }
}

/// Structural validation of a project (`gobo validate --json`): `{valid, errors, warnings,
/// findings: [{code, path, severity, message}]}`. Dropped references are findings, not
/// refusals; `assets=False` skips the check that every costume and sound is present.
#[pyfunction]
#[pyo3(signature = (project, *, assets=true))]
fn validate<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    assets: bool,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "validate";
    let (name, files) = project_files(py, project, CMD)?;
    let result = py.detach(|| {
        let opts = LoadOptions { repair_references: true };
        let project = load_with(&files.project_json, &opts).map_err(|e| e.to_string())?;
        let present = |n: &str| files.assets.contains_key(n);
        let cx = Context {
            asset_present: assets.then_some(&present as &dyn Fn(&str) -> bool),
            max_findings: 0,
        };
        serde_json::to_value(Validation::new(validate_with(&project, &cx)))
            .map_err(|e| e.to_string())
    });
    to_py(py, &result.map_err(|e| error(py, CMD, format!("{name}: {e}")))?)
}

/// Registers `gobo._gobo.scratch`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "scratch")?;
    m.add_class::<Project>()?;
    m.add_function(wrap_pyfunction!(run, &m)?)?;
    m.add_function(wrap_pyfunction!(render, &m)?)?;
    m.add_function(wrap_pyfunction!(render_frames, &m)?)?;
    m.add_function(wrap_pyfunction!(test, &m)?)?;
    m.add_function(wrap_pyfunction!(diff_trace, &m)?)?;
    m.add_function(wrap_pyfunction!(drift, &m)?)?;
    m.add_function(wrap_pyfunction!(validate, &m)?)?;
    crate::agent::register(&m)?;
    crate::patch::register(&m)?;
    crate::repair::register(&m)?;
    crate::signals::register(&m)?;
    parent.add_submodule(&m)
}
