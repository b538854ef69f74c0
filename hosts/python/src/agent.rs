//! `gobo.scratch.observe` (`gobo observe`) and `gobo.scratch.Session` (`gobo act`): what a
//! ScratchWorld composite-mode agent sees of a project, and a session that applies its actions
//! (docs/observation.md, docs/composite.md). Thin over `gobo::scratch::agent`; the JSON is the
//! CLI's. No semantics live here.

use gobo::scratch::agent::{
    self, Feedback, IndexMode, ObserveMode, Session as Core, SessionConfig,
};
use gobo::scratch::project::{load_with, LoadOptions, Project};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};

use crate::convert::{error, to_json, to_py};
use crate::scratch::project_files;

fn parse_mode(mode: &str) -> PyResult<ObserveMode> {
    match mode {
        "compat" => Ok(ObserveMode::Compat),
        "full" => Ok(ObserveMode::Full),
        other => {
            Err(PyValueError::new_err(format!("mode: expected compat or full, got {other:?}")))
        }
    }
}

fn parse_index(index: &str) -> PyResult<IndexMode> {
    match index {
        "index" => Ok(IndexMode::Index),
        "id" => Ok(IndexMode::Id),
        other => Err(PyValueError::new_err(format!("index: expected index or id, got {other:?}"))),
    }
}

/// A project argument loaded as the CLI loads it (references repaired), and its name.
pub(crate) fn load(
    py: Python<'_>,
    project: &Bound<'_, PyAny>,
    command: &str,
) -> PyResult<(String, Project)> {
    let (name, files) = project_files(py, project, command)?;
    let opts = LoadOptions { repair_references: true };
    let loaded = py
        .detach(|| load_with(&files.project_json, &opts))
        .map_err(|e| error(py, command, format!("{name}: {e}")))?;
    Ok((name, loaded))
}

/// What an agent sees of a project (`gobo observe`): `format="json"` gives the observation
/// as a dict (`gobo observe --json`), `"text"` the per-turn prompt text, `"scratchblocks"` the
/// scripts in scratchblocks syntax. `target` names the editing target (default: the first
/// sprite).
#[pyfunction]
#[pyo3(signature = (project, *, target=None, mode="compat", index="index", format="json"))]
fn observe<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    target: Option<&str>,
    mode: &str,
    index: &str,
    format: &str,
) -> PyResult<Bound<'py, PyAny>> {
    const CMD: &str = "observe";
    let (mode, index) = (parse_mode(mode)?, parse_index(index)?);
    if !matches!(format, "json" | "text" | "scratchblocks") {
        return Err(PyValueError::new_err(format!(
            "format: expected json, text or scratchblocks, got {format:?}"
        )));
    }
    let (name, project) = load(py, project, CMD)?;
    let editing =
        agent::find_target(&project, target).map_err(|e| error(py, CMD, format!("{name}: {e}")))?;
    let out = py.detach(|| {
        let ctx = agent::Ctx::new(&project, editing);
        match format {
            "scratchblocks" => Ok(serde_json::Value::String(agent::scratchblocks::render(&ctx))),
            "text" => Ok(serde_json::Value::String(agent::observe_ctx(&ctx, mode, index).text)),
            _ => serde_json::to_value(agent::observe_ctx(&ctx, mode, index)),
        }
    });
    to_py(py, &out.map_err(|e| error(py, CMD, e))?)
}

/// A composite-mode session over a project (`gobo act`): `act(action)` applies one
/// `{"api", "args"}` action and returns its envelope as `gobo act` prints it. Forks and
/// pickles (the core's session bytes).
#[pyclass(module = "gobo.scratch")]
#[derive(Debug)]
pub struct Session {
    inner: Core,
}

#[pymethods]
impl Session {
    #[new]
    #[pyo3(signature = (project, *, mode="compat", index="index", seed=0, max_steps=50,
        observe_each=false, observation_only=false, auto_observe=true, session_id="s-1"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        project: &Bound<'_, PyAny>,
        mode: &str,
        index: &str,
        seed: u64,
        max_steps: u32,
        observe_each: bool,
        observation_only: bool,
        auto_observe: bool,
        session_id: &str,
    ) -> PyResult<Self> {
        const CMD: &str = "act";
        let config = SessionConfig {
            mode: parse_mode(mode)?,
            index: parse_index(index)?,
            seed,
            max_steps,
            session_id: session_id.to_string(),
            observe_each,
            feedback: if observation_only { Feedback::ObservationOnly } else { Feedback::Full },
            auto_observe,
        };
        let (name, project) = load(py, project, CMD)?;
        let inner =
            Core::new(project, config).map_err(|e| error(py, CMD, format!("{name}: {e}")))?;
        Ok(Session { inner })
    }

    /// Applies one action (`{"api": ..., "args": {...}}`) and returns its envelope.
    fn act<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action = to_json(action, "action")?;
        let inner = &mut self.inner;
        let r = py.detach(|| serde_json::to_value(inner.act(&action)));
        to_py(py, &r.map_err(|e| error(py, "act", e))?)
    }

    /// The observation of the editing target now (as `gobo observe --json`); indices of later
    /// actions resolve against it.
    fn observe<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = &mut self.inner;
        let r = py.detach(|| serde_json::to_value(inner.observe()));
        to_py(py, &r.map_err(|e| error(py, "act", e))?)
    }

    /// An independent copy of this session.
    fn fork(&self) -> Session {
        Session { inner: self.inner.clone() }
    }

    /// Actions taken so far.
    #[getter]
    fn step(&self) -> u32 {
        self.inner.step()
    }

    /// The edited project as `project.json` bytes.
    fn project_json<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| gobo::scratch::project::save(self.inner.project()));
        PyBytes::new(py, &bytes)
    }

    /// The session as bytes (the core's `Session::to_bytes`).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// A session from [`Session::to_bytes`].
    #[classmethod]
    fn from_bytes(_cls: &Bound<'_, PyType>, py: Python<'_>, data: &[u8]) -> PyResult<Session> {
        let inner =
            Core::from_bytes(data).map_err(|e| error(py, "act", format!("session: {e}")))?;
        Ok(Session { inner })
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let ctor = slf.get_type().getattr("from_bytes")?;
        Ok((ctor, (slf.borrow().to_bytes(py),)))
    }

    fn __repr__(&self) -> String {
        format!("<gobo.scratch.Session step={}>", self.inner.step())
    }
}

/// Registers the agent functions and classes in `gobo._gobo.scratch`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Session>()?;
    m.add_function(wrap_pyfunction!(observe, m)?)?;
    Ok(())
}
