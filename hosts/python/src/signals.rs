//! `gobo.scratch.probe`, `verify`, `hooks`, `record`, `lint` and `suite_check`: the repair
//! loop's runtime signals, staged verification, trigger hooks, visual evidence, binding and
//! barrier lints, and suite adequacy (`gobo probe|verify|hooks|record|lint|suite-check --json`;
//! `POST /v1/signals/probe`, `/v1/verify`, `/v1/hooks`, `/v1/record`, `/v1/lint`,
//! `/v1/suites/check`). The calls are `gobo_host::repair`'s, `gobo_host::evidence`'s,
//! `gobo_host::judge`'s and the core's, with the GIL released; the dicts are the CLI's JSON.

use gobo::scratch::forge::hooks as script_hooks;
use gobo::scratch::lint::lint as lint_project;
use gobo::scratch::signals::{ProbeConfig, VerifyConfig};
use gobo_host::cost::{Stopwatch, Timed};
use gobo_host::evidence::{record as record_run, RecordParams};
use gobo_host::judge::{check_suite, parse_seeds, NamedProject};
use gobo_host::repair;
use gobo_host::sb3::ProjectFiles;
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

/// Binding and barrier findings (`gobo lint --json`, docs/lint.md): `{findings: [{code,
/// severity, target, block, message}], errors, warnings, patch_rules}`; with `base` (the project
/// before a patch) the patch's rules run too.
#[pyfunction]
#[pyo3(signature = (project, *, base=None))]
fn lint<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    base: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "lint";
    let project = loaded(py, project, CMD)?;
    let base = match base.filter(|b| !b.is_none()) {
        Some(b) => Some(loaded(py, b, CMD)?),
        None => None,
    };
    let report = py.detach(|| {
        serde_json::to_value(lint_project(&project.project, base.as_ref().map(|b| &b.project)))
    });
    to_py(py, &report.map_err(|e| error(py, CMD, e))?)
}

/// Suite adequacy (`gobo suite-check --json`, docs/test-suite.md "Adequacy"): whether `suite`
/// passes every program of `passing` and fails every program of `failing` on every seed, and
/// which cases separate them. `seeds` is `R` (1..R), `"A..B"` or a list (default: once, under
/// the suite's seed). Programs are named by their path as given, else `pass[i]` / `fail[i]`.
#[pyfunction]
#[pyo3(signature = (suite, passing, failing, *, seeds=None))]
fn suite_check<'py>(
    py: Python<'py>,
    suite: &Bound<'py, PyAny>,
    passing: Vec<Bound<'py, PyAny>>,
    failing: Vec<Bound<'py, PyAny>>,
    seeds: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "suite-check";
    let suite = self::suite(py, suite, CMD)?.to_string();
    let seeds = match seeds.filter(|s| !s.is_none()) {
        None => None,
        Some(s) => Some(match s.extract::<Vec<u64>>() {
            Ok(list) => list,
            Err(_) => {
                let text = s.str()?.to_string();
                parse_seeds(&text).map_err(|e| error(py, CMD, e))?
            }
        }),
    };
    let files =
        |list: &[Bound<'py, PyAny>], field: &str| -> PyResult<Vec<(String, ProjectFiles)>> {
            list.iter()
                .enumerate()
                .map(|(i, p)| {
                    let (name, files) = project_files(py, p, CMD)?;
                    let name = if name == "project" { format!("{field}[{i}]") } else { name };
                    Ok((name, files))
                })
                .collect()
        };
    let golds = files(&passing, "pass")?;
    let negatives = files(&failing, "fail")?;
    let done = py.detach(|| {
        let (adequacy, warnings) =
            check_suite(&suite, &named(&golds), &named(&negatives), seeds.as_deref(), None)
                .map_err(|e| format!("{}: {}", e.program, e.error))?;
        let mut doc = serde_json::to_value(&adequacy).map_err(|e| e.to_string())?;
        let warnings: Vec<Value> = warnings
            .iter()
            .map(|(program, w)| serde_json::json!({"program": program, "warning": w}))
            .collect();
        doc["warnings"] = Value::Array(warnings);
        Ok::<Value, String>(doc)
    });
    to_py(py, &done.map_err(|e| error(py, CMD, e))?)
}

fn named(ps: &[(String, ProjectFiles)]) -> Vec<NamedProject<'_>> {
    ps.iter().map(|(name, files)| NamedProject { name, files }).collect()
}

/// Registers the functions in `gobo._gobo.scratch`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(probe, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(hooks, m)?)?;
    m.add_function(wrap_pyfunction!(record, m)?)?;
    m.add_function(wrap_pyfunction!(lint, m)?)?;
    m.add_function(wrap_pyfunction!(suite_check, m)?)?;
    Ok(())
}
