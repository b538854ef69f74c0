//! `gobo.scratch.edit_distance`, `scenarios`, `oracle`, `forge` and `bug_sites`: ScratchEval's
//! edit distance and the repair toolkit (`gobo edit-distance`, `gobo scenarios`, `gobo oracle`,
//! `gobo forge`; `POST /v1/projects/edit-distance`, `/v1/scenarios/instantiate`,
//! `/v1/oracles/synthesize`, `/v1/bugs/inject`, `/v1/bugs/sites`). The calls are
//! `gobo_host::repair`'s and the core's, with the GIL released; the dicts are the CLI's JSON.

use gobo::scratch::project::diff::project_edit_distance;
use gobo::scratch::project::save;
use gobo_host::repair::{self, ForgeParams, Loaded, OracleParams};
use gobo_host::sb3;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use serde_json::Value;

use crate::agent::load;
use crate::convert::{error, input, to_py};
use crate::scratch::project_files;

/// A project argument loaded for the repair calls (Scratch 2 converted).
pub(crate) fn loaded(
    py: Python<'_>,
    project: &Bound<'_, PyAny>,
    command: &str,
) -> PyResult<Loaded> {
    let (name, files) = project_files(py, project, command)?;
    py.detach(|| Loaded::new(&files)).map_err(|e| error(py, command, format!("{name}: {e}")))
}

/// ScratchEval's edit distance of a candidate fix to the gold fix, both made on `base`
/// (`gobo edit-distance --json`): `{d_edit, matched, missing, extra}`.
#[pyfunction]
#[pyo3(signature = (base, gold, candidate))]
fn edit_distance<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    gold: &Bound<'py, PyAny>,
    candidate: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "edit-distance";
    let (_, base) = load(py, base, CMD)?;
    let (_, gold) = load(py, gold, CMD)?;
    let (_, candidate) = load(py, candidate, CMD)?;
    let d = py.detach(|| serde_json::to_value(project_edit_distance(&base, &gold, &candidate)));
    to_py(py, &d.map_err(|e| error(py, CMD, e))?)
}

/// The oracle's keyword arguments as parameters.
#[allow(clippy::too_many_arguments)]
fn params(
    reruns: u32,
    ticks: u64,
    every: u64,
    theta_pass: f64,
    theta_fail: f64,
    max_assertions: usize,
    templates: Option<String>,
    max_cases: usize,
) -> OracleParams {
    OracleParams {
        reruns,
        ticks,
        every,
        theta_pass,
        theta_fail,
        max_assertions,
        templates,
        max_cases,
    }
}

/// The scenario templates instantiated on a project (`gobo scenarios --json`): `{meta, fps,
/// frames, cases}`.
#[pyfunction]
#[pyo3(signature = (project, *, templates=None, ticks=2000, max_cases=12))]
fn scenarios<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    templates: Option<String>,
    ticks: u64,
    max_cases: usize,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "scenarios";
    let p = OracleParams { ticks, max_cases, templates, ..OracleParams::default() };
    let cfg = p.scenarios().map_err(|e| error(py, CMD, e))?;
    let (_, project) = load(py, project, CMD)?;
    let doc = py.detach(|| repair::scenarios(&project, &cfg));
    to_py(py, &doc)
}

/// A suite that passes on the gold program and fails on the buggy one (`gobo oracle --json`):
/// `{accepted, reason?, suite, assertions, candidates, features, work}`. `cases` is a suite
/// document of scenario cases (a path, bytes or a dict); default: the templates instantiated
/// on the gold project.
#[pyfunction]
#[pyo3(signature = (gold, buggy, *, cases=None, reruns=5, ticks=2000, every=10, theta_pass=0.9,
    theta_fail=0.1, max_assertions=5, templates=None, max_cases=12))]
#[allow(clippy::too_many_arguments)]
fn oracle<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyAny>,
    buggy: &Bound<'py, PyAny>,
    cases: Option<&Bound<'py, PyAny>>,
    reruns: u32,
    ticks: u64,
    every: u64,
    theta_pass: f64,
    theta_fail: f64,
    max_assertions: usize,
    templates: Option<String>,
    max_cases: usize,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "oracle";
    let p =
        params(reruns, ticks, every, theta_pass, theta_fail, max_assertions, templates, max_cases);
    let cases: Option<Value> = match cases {
        Some(c) => {
            let (name, bytes) = input(c, "cases")?.read(py, CMD, "cases")?;
            Some(
                serde_json::from_slice(&bytes)
                    .map_err(|e| error(py, CMD, format!("{name}: {e}")))?,
            )
        }
        None => None,
    };
    let gold = loaded(py, gold, CMD)?;
    let buggy = loaded(py, buggy, CMD)?;
    let done = py.detach(|| {
        let syn = repair::oracle(&gold, &buggy, cases.as_ref(), &p)?;
        serde_json::to_value(&syn).map_err(|e| e.to_string())
    });
    to_py(py, &done.map_err(|e| error(py, CMD, e))?)
}

/// Injects one validated bug into `gold` (`gobo forge --json`): `{success, pattern, reason?,
/// record?, trials, sites, work}` and, when a bug was validated, `suite` (the separating suite)
/// and `buggy_sb3` (the buggy project's `.sb3` bytes, gold's assets kept; the bytes `gobo forge`
/// writes). The forward and inverse patches are `record["ground_truth"]["forward"|"inverse"]`.
#[pyfunction]
#[pyo3(signature = (gold, *, pattern=None, operator=None, seed=0, trials=20, reruns=5,
    ticks=2000, every=10, theta_pass=0.9, theta_fail=0.1, max_assertions=5, templates=None,
    max_cases=12))]
#[allow(clippy::too_many_arguments)]
fn forge<'py>(
    py: Python<'py>,
    gold: &Bound<'py, PyAny>,
    pattern: Option<String>,
    operator: Option<String>,
    seed: u64,
    trials: u32,
    reruns: u32,
    ticks: u64,
    every: u64,
    theta_pass: f64,
    theta_fail: f64,
    max_assertions: usize,
    templates: Option<String>,
    max_cases: usize,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "forge";
    let p =
        params(reruns, ticks, every, theta_pass, theta_fail, max_assertions, templates, max_cases);
    let cfg = ForgeParams { pattern, operator, seed, trials }
        .config(&p)
        .map_err(|e| error(py, CMD, e))?;
    let gold = loaded(py, gold, CMD)?;
    let done = py.detach(|| -> Result<(Value, Option<Vec<u8>>), String> {
        let outcome = repair::forge(&gold, &cfg)?;
        let mut doc = serde_json::to_value(&outcome).map_err(|e| e.to_string())?;
        let sb3 = match &outcome.bug {
            Some(bug) => {
                doc["suite"] = bug.suite.clone();
                let (bytes, _) =
                    sb3::repack(&gold.files, save(&bug.buggy)).map_err(|e| e.to_string())?;
                Some(bytes)
            }
            None => None,
        };
        Ok((doc, sb3))
    });
    let (doc, sb3) = done.map_err(|e| error(py, CMD, e))?;
    let out = to_py(py, &doc)?;
    if let Some(bytes) = sb3 {
        out.cast::<PyDict>()?.set_item("buggy_sb3", PyBytes::new(py, &bytes))?;
    }
    Ok(out)
}

/// The Bug Forge's ranked injection sites of a project for a pattern or one operator (every
/// applicable pattern by default): `{patterns, sites: [{operator, sprite, script_top, block,
/// rank}]}`, rank 0 first.
#[pyfunction]
#[pyo3(signature = (project, *, pattern=None, operator=None))]
fn bug_sites<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    pattern: Option<String>,
    operator: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "forge";
    let (_, project) = load(py, project, CMD)?;
    let params = ForgeParams { pattern, operator, ..ForgeParams::default() };
    let doc = py.detach(|| repair::ranked_sites(&project, &params));
    to_py(py, &doc.map_err(|e| error(py, CMD, e))?)
}

/// Registers the repair functions in `gobo._gobo.scratch`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(edit_distance, m)?)?;
    m.add_function(wrap_pyfunction!(scenarios, m)?)?;
    m.add_function(wrap_pyfunction!(oracle, m)?)?;
    m.add_function(wrap_pyfunction!(forge, m)?)?;
    m.add_function(wrap_pyfunction!(bug_sites, m)?)?;
    Ok(())
}
