//! `gobo.scratch.patch`, `invert` and `diff`: block-edit and JSON Patch edits of a project
//! (`gobo patch apply|invert|diff`, `POST /v1/projects/patch|invert|diff`, docs/patches.md).
//! The same `gobo-host` and core calls as the CLI and the server, and the server's documents;
//! no semantics live here.

use gobo_host::edit::{self, Format, Request};
use gobo_host::sb3;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use serde_json::Value;

use crate::agent::load;
use crate::convert::{error, json_to_py, text_or_input, to_py};
use crate::scratch::project_files;

const CMD: &str = "patch";

/// A patch argument's bytes: `str` is the patch text itself (a model's raw reply for
/// `json-patch`), a path is read, `bytes` as is, a dict/list as its JSON.
fn patch_bytes(py: Python<'_>, patch: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    Ok(text_or_input(patch, "patch")?.read(py, CMD, "patch")?.1)
}

/// The patched project, as asked for.
enum Out {
    Json(Vec<u8>),
    Sb3(Vec<u8>, String),
}

/// Applies a patch (`gobo patch apply --json`, `POST /v1/projects/patch`): the report `{ok,
/// format, stage?, error?, edits, created, normalized, findings}` and, when it applied, the
/// patched project as `project` (a dict) or, with `output="sb3"`, the archive as `sb3` bytes
/// and its `sha256`.
#[pyfunction]
#[pyo3(signature = (project, patch, *, format="block-edits", budget=None, seed=0, assets=true,
    output="json"))]
#[allow(clippy::too_many_arguments)]
fn patch<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    patch: &Bound<'py, PyAny>,
    format: &str,
    budget: Option<usize>,
    seed: u64,
    assets: bool,
    output: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let format = match format {
        "block-edits" => Format::BlockEdits,
        "json-patch" => Format::JsonPatch,
        other => {
            return Err(PyValueError::new_err(format!(
                "format: expected block-edits or json-patch, got {other:?}"
            )))
        }
    };
    let sb3_out = match output {
        "json" => false,
        "sb3" => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "output: expected json or sb3, got {other:?}"
            )))
        }
    };
    let (name, files) = project_files(py, project, CMD)?;
    let patch = patch_bytes(py, patch)?;
    let req = Request { format, budget, seed, check_assets: assets };
    let done = py.detach(|| -> Result<(Value, Option<Out>), String> {
        let (report, json) =
            edit::apply(&files, &patch, &req).map_err(|e| format!("{name}: {e}"))?;
        let value = serde_json::to_value(&report).map_err(|e| e.to_string())?;
        let out = match json {
            Some(json) if sb3_out => {
                let (bytes, _) = sb3::repack(&files, json).map_err(|e| e.to_string())?;
                let sha = sb3::sha256_hex(&bytes);
                Some(Out::Sb3(bytes, sha))
            }
            Some(json) => Some(Out::Json(json)),
            None => None,
        };
        Ok((value, out))
    });
    let (value, out) = done.map_err(|e| error(py, CMD, e))?;
    let doc = to_py(py, &value)?;
    let dict = doc.cast::<PyDict>()?;
    match out {
        // Parsed by Python's json so the blocks keep their order (it is the scripts' order).
        Some(Out::Json(json)) => dict.set_item("project", json_to_py(py, &json)?)?,
        Some(Out::Sb3(bytes, sha)) => {
            dict.set_item("sb3", PyBytes::new(py, &bytes))?;
            dict.set_item("sha256", sha)?;
        }
        None => {}
    }
    Ok(doc)
}

/// The exact inverse of a block-edit patch on a project (`gobo patch invert`, `POST
/// /v1/projects/invert`): `{ok: true, inverse}` or `{ok: false, error}` when the patch does
/// not apply.
#[pyfunction]
#[pyo3(signature = (project, patch, *, seed=0))]
fn invert<'py>(
    py: Python<'py>,
    project: &Bound<'py, PyAny>,
    patch: &Bound<'py, PyAny>,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let (_, project) = load(py, project, CMD)?;
    let patch = patch_bytes(py, patch)?;
    let done = py.detach(|| edit::invert_doc(&project, &patch, seed));
    to_py(py, &done.map_err(|e| error(py, CMD, e))?)
}

/// The normalized block-edit patch that turns project `a` into `b` (`gobo patch diff`, `POST
/// /v1/projects/diff`): `{ok: true, patch}`, with `atoms=True` `{ok: true, atoms}`, or `{ok:
/// false, error}` when no patch expresses the difference.
#[pyfunction]
#[pyo3(signature = (a, b, *, atoms=false))]
fn diff<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    atoms: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (_, a) = load(py, a, CMD)?;
    let (_, b) = load(py, b, CMD)?;
    let done = py.detach(|| edit::diff_doc(&a, &b, atoms));
    to_py(py, &done.map_err(|e| error(py, CMD, e))?)
}

/// Registers the patch functions in `gobo._gobo.scratch`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(patch, m)?)?;
    m.add_function(wrap_pyfunction!(invert, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    Ok(())
}
