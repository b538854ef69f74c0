//! Python values in and out: JSON-like objects ↔ `serde_json::Value` (through `pythonize`), the
//! argument forms the bindings take (a path, `bytes`, or parsed data), and `gobo.GoboError`,
//! the exception that carries the CLI's exit code and message. No semantics live here.

use std::fmt::Display;
use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};
use serde_json::Value;

/// The CLI's exit code for bad input, usage or I/O errors.
pub const BAD_INPUT: u8 = 2;

/// A `gobo.GoboError` for `command` (the CLI subcommand whose message it repeats) with exit
/// code 2: `str(e)` is what the CLI prints after `gobo COMMAND: `.
pub fn error(py: Python<'_>, command: &str, message: impl Display) -> PyErr {
    let message = message.to_string();
    let made = py
        .import("gobo._errors")
        .and_then(|m| m.getattr("GoboError"))
        .and_then(|cls| cls.call1((message.as_str(), BAD_INPUT, command)));
    match made {
        Ok(exc) => PyErr::from_value(exc),
        Err(_) => PyValueError::new_err(message),
    }
}

/// A Python object as JSON (dicts, lists, str, int, float, bool, None).
pub fn to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    pythonize::depythonize(obj)
        .map_err(|e| PyTypeError::new_err(format!("{what}: not JSON-like data: {e}")))
}

/// A JSON value as a Python object.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// JSON values as a Python list.
pub fn to_py_list<'py>(py: Python<'py>, values: &[Value]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for v in values {
        list.append(to_py(py, v)?)?;
    }
    Ok(list)
}

/// How an argument was given.
#[derive(Debug)]
pub enum Input {
    /// A path (`str` or `os.PathLike`): the file is read.
    Path(PathBuf),
    /// `bytes`/`bytearray`: the file's content.
    Bytes(Vec<u8>),
    /// A dict or list: the parsed document.
    Data(Value),
}

/// Reads an argument given as a path (`str`/`os.PathLike`), bytes, or a dict/list.
pub fn input(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Input> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Input::Bytes(b.as_bytes().to_vec()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Input::Bytes(b.to_vec()));
    }
    if obj.is_instance_of::<PyDict>()
        || obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>()
    {
        return to_json(obj, what).map(Input::Data);
    }
    match obj.extract::<PathBuf>() {
        Ok(p) => Ok(Input::Path(p)),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what}: expected a path, bytes, or a dict/list, got {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))),
    }
}

/// A text argument that is the content itself when given as `str` (code, action text), else
/// read like [`input`] (a `pathlib.Path` or other `os.PathLike` is read as a file).
pub fn text_or_input(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Input> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Input::Bytes(s.to_str()?.as_bytes().to_vec()));
    }
    input(obj, what)
}

impl Input {
    /// The content as bytes and the name messages give it: the path as given, or `what`.
    pub fn read(self, py: Python<'_>, command: &str, what: &str) -> PyResult<(String, Vec<u8>)> {
        match self {
            Input::Path(p) => {
                let name = p.display().to_string();
                let bytes = py
                    .detach(|| std::fs::read(&p))
                    .map_err(|e| error(py, command, format!("{name}: {e}")))?;
                Ok((name, bytes))
            }
            Input::Bytes(b) => Ok((what.to_string(), b)),
            Input::Data(v) => Ok((what.to_string(), v.to_string().into_bytes())),
        }
    }

    /// [`Input::read`] as UTF-8 text.
    pub fn read_text(
        self,
        py: Python<'_>,
        command: &str,
        what: &str,
    ) -> PyResult<(String, String)> {
        let (name, bytes) = self.read(py, command, what)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| error(py, command, format!("{name}: not UTF-8")))?;
        Ok((name, text))
    }
}

/// Rows of a batch: any iterable of dicts, as JSON values.
pub fn rows(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Value>> {
    let mut out = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        out.push(to_json(&item?, &format!("rows[{i}]"))?);
    }
    Ok(out)
}

/// Calls `f` on the bytes of a JSON Lines argument (`bytes`, `bytearray` or `str`), borrowed
/// without a copy where Python allows it.
pub fn json_lines<R>(obj: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(f(b.as_bytes()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(f(s.to_str()?.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(f(&b.to_vec()));
    }
    Err(PyTypeError::new_err(format!(
        "lines: expected JSON Lines as bytes or str, got {}",
        obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
    )))
}
