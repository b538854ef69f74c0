//! `gobo.scratch.probe`, `verify`, `hooks` and `record`: the repair loop's runtime signals,
//! staged verification, trigger hooks and visual evidence (`gobo probe|verify|hooks|record
//! --json`; `POST /v1/signals/probe`, `/v1/verify`, `/v1/hooks`, `/v1/record`). The calls are
//! `gobo_host::repair`'s, `gobo_host::evidence`'s and the core's, with the GIL released; the
//! dicts are the CLI's JSON.

use gobo::scratch::forge::hooks as script_hooks;
use gobo::scratch::signals::{ProbeConfig, VerifyConfig};
use gobo_host::cost::{Stopwatch, Timed};
use gobo_host::evidence::{record as record_run, RecordParams};
use gobo_host::repair;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use serde_json::Value;

use crate::agent::load;
use crate::convert::{error, input, to_py};
use crate::repair::loaded;
use crate::scratch::{load_project, project_files, scenario};

/// A suite argument (a path, `bytes` or a dict) as JSON.
fn suite(py: Python<'_>, obj: &Bound<'_, PyAny>, command: &str) -> PyResult<Value> {
    let (name, bytes) = input(obj, "suite")?.read(py, command, "suite")?;
    serde_json::from_slice(&bytes).map_err(|e| error(py, command, format!("{name}: {e}")))
}

/// A result with its `time` (`{wall_ms, cpu_ms}`), as a dict.
fn timed<'py, T: serde::Serialize>(
    py: Python<'py>,
    command: &str,
    result: &T,
    watch: &Stopwatch,
) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(Timed { result, time: watch.timing() });
    to_py(py, &v.map_err(|e| error(py, command, e))?)
}

/// The runtime probe of a buggy program against its gold reference (`gobo probe --json`, SPEC
/// §3.2): pass rates, pass gap, mismatch rate, rerun instability, the first divergence, the
/// escalation level and repair plan, `work` and `time`. `frames` caps each case (1..=3600);
/// the cases rerun under seeds 1..=`seeds`.
#[pyfunction]
#[pyo3(signature = (buggy, gold, suite, *, frames=300, seeds=2))]
fn probe<'py>(
    py: Python<'py>,
    buggy: &Bound<'py, PyAny>,
    gold: &Bound<'py, PyAny>,
    suite: &Bound<'py, PyAny>,
    frames: u64,
    seeds: u32,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "probe";
    let watch = Stopwatch::start();
    let gold = loaded(py, gold, CMD)?;
    let buggy = loaded(py, buggy, CMD)?;
    let suite = self::suite(py, suite, CMD)?;
    let cfg = ProbeConfig { frames, seeds, ..ProbeConfig::default() };
    let p = py.detach(|| repair::probe(&gold, &buggy, &suite, &cfg));
    let p = p.map_err(|e| error(py, CMD, format!("suite: {e}")))?;
    timed(py, CMD, &p, &watch)
}

/// Staged verification of a candidate (`gobo verify --json`, SPEC §3.3): static checks (level
/// 0), a smoke run of at most `frames` per case (level 1), the full suite under seeds
/// 1..=`seeds` with each case passing at least `theta_pass` (level 2), stopping at the first
/// stage that fails: `{passed, level, stages, work, time}`. A candidate that does not load fails
/// the static stage; only an unreadable suite raises.
#[pyfunction]
#[pyo3(signature = (candidate, suite, *, level=2, frames=300, seeds=5, theta_pass=0.9))]
fn verify<'py>(
    py: Python<'py>,
    candidate: &Bound<'py, PyAny>,
    suite: &Bound<'py, PyAny>,
    level: u8,
    frames: u64,
    seeds: u32,
    theta_pass: f64,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "verify";
    let watch = Stopwatch::start();
    let (_, files) = project_files(py, candidate, CMD)?;
    let suite = self::suite(py, suite, CMD)?;
    let cfg = VerifyConfig { level, smoke_frames: frames, seeds, theta_pass };
    let v = py.detach(|| repair::verify(&files, &suite, &cfg));
    let v = v.map_err(|e| error(py, CMD, format!("suite: {e}")))?;
    timed(py, CMD, &v, &watch)
}

/// Every hat script with its canonical trigger, the signals it writes and the custom blocks it
/// calls (`gobo hooks --json`): `{hooks: [{sprite, block, trigger, writes, calls}]}`.
#[pyfunction]
fn hooks<'py>(py: Python<'py>, project: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let (_, project) = load(py, project, "hooks")?;
    let doc = py.detach(|| serde_json::json!({ "hooks": script_hooks(&project) }));
    to_py(py, &doc)
}

/// Visual evidence of a run (`gobo record --json`): the manifest (`width`, `height`,
/// `side_by_side`, `samples`, `keyframes`, `config`, `work`, `sheet`, `animation`, `time`) and
/// `files`, every picture `gobo record -o DIR` writes, by file name, as PNG `bytes`: the stage
/// every `every` frames, the contact sheet of `keyframes` keyframes, and the animated PNG. With
/// `gold`, every picture shows gold on the left. `frames` and `seed` default to the scenario's,
/// else 300 and 1.
#[pyfunction]
#[pyo3(signature = (project, scenario=None, *, every=3, frames=None, keyframes=4, gold=None,
    seed=None))]
#[allow(clippy::too_many_arguments)]
fn record<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    every: u64,
    frames: Option<u64>,
    keyframes: usize,
    gold: Option<&Bound<'py, PyAny>>,
    seed: Option<u32>,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "record";
    let watch = Stopwatch::start();
    let image = load_project(py, project, CMD)?.image.clone();
    let gold = match gold.filter(|g| !g.is_none()) {
        Some(g) => Some(load_project(py, g, CMD)?.image.clone()),
        None => None,
    };
    let sc = self::scenario(py, scenario, CMD)?;
    let cfg = RecordParams { every, frames, keyframes, seed }.config(&sc);
    let ev = py.detach(|| record_run(image, gold, &sc, &cfg));
    let ev = ev.map_err(|e| error(py, CMD, e))?;
    let mut manifest = ev.manifest();
    manifest["time"] = serde_json::to_value(watch.timing()).unwrap_or_default();
    let out = to_py(py, &manifest)?;
    let files = PyDict::new(py);
    for (name, bytes) in ev.files() {
        files.set_item(name, PyBytes::new(py, bytes))?;
    }
    out.cast::<PyDict>()?.set_item("files", files)?;
    Ok(out)
}

/// Registers the functions in `gobo._gobo.scratch`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(probe, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(hooks, m)?)?;
    m.add_function(wrap_pyfunction!(record, m)?)?;
    Ok(())
}
