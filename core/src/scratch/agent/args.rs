//! Reading action arguments the way ScratchWorld's Python server does (`scratch_api.py`):
//! `args.get(k) or ""` then `.strip()`, `isinstance(x, int) and x >= 1` for indices (so `true`
//! passes as 1 and is then looked up as `"True"`), and the error every action can return.

use alloc::string::String;
use core::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// An action's error code (ScratchWorld's, plus gobo's episode codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum Code {
    /// A missing or malformed argument, a cycle, an unknown placement kind.
    InvalidArg,
    /// No observation to resolve indices against (only without auto-observation).
    InvalidState,
    /// No block at that index, no sprite or variable with that name.
    NotFound,
    /// The blocks lack the connections the placement needs.
    ConnectionMismatch,
    /// An empty block type.
    InvalidType,
    /// An empty variable or list name.
    InvalidName,
    /// The block could not be built from its template.
    XmlError,
    /// The shadow has no field of that name.
    InvalidField,
    /// The block has no field or input of that name.
    InputNotFound,
    /// An API the session does not offer.
    Unsupported,
    /// A new shadow could not be made for an empty input.
    ShadowCreateFailed,
    /// A new shadow does not fit the empty input.
    ConnectionFailed,
    /// The field refused the value.
    SetFailed,
    /// The editor threw while connecting (type checks, a block joined to itself).
    Error,
    /// The server failed on an argument of the wrong type (Python `.strip()` on a number).
    RuntimeError,
    /// An argument made the page script invalid (a quote in a sprite name).
    JavascriptError,
    /// A reply that is not one action (gobo `act` lines that do not parse).
    InvalidActionPlan,
    /// The episode has used all its steps (gobo).
    StepLimit,
    /// The episode has ended with `done` or `failed` (gobo).
    EpisodeDone,
    /// The action would leave the project with validation errors it did not have; it is not
    /// applied (gobo; `details` names the action and the findings).
    InvalidResult,
}

impl Code {
    /// The code as written in responses.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidArg => "INVALID_ARG",
            Code::InvalidState => "INVALID_STATE",
            Code::NotFound => "NOT_FOUND",
            Code::ConnectionMismatch => "CONNECTION_MISMATCH",
            Code::InvalidType => "INVALID_TYPE",
            Code::InvalidName => "INVALID_NAME",
            Code::XmlError => "XML_ERROR",
            Code::InvalidField => "INVALID_FIELD",
            Code::InputNotFound => "INPUT_NOT_FOUND",
            Code::Unsupported => "UNSUPPORTED",
            Code::ShadowCreateFailed => "SHADOW_CREATE_FAILED",
            Code::ConnectionFailed => "CONNECTION_FAILED",
            Code::SetFailed => "SET_FAILED",
            Code::Error => "ERROR",
            Code::RuntimeError => "RUNTIME_ERROR",
            Code::JavascriptError => "JAVASCRIPT_ERROR",
            Code::InvalidActionPlan => "INVALID_ACTION_PLAN",
            Code::StepLimit => "STEP_LIMIT",
            Code::EpisodeDone => "EPISODE_DONE",
            Code::InvalidResult => "INVALID_RESULT",
        }
    }
}

/// A failed action: its code, message and optional details.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActError {
    /// The code.
    pub code: Code,
    /// What went wrong.
    pub message: String,
    /// Extra facts (ScratchWorld sends them for `RUNTIME_ERROR`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

impl ActError {
    /// An error with a message.
    pub fn new(code: Code, message: impl Into<String>) -> ActError {
        ActError { code, message: message.into(), details: None }
    }
}

impl fmt::Display for ActError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl core::error::Error for ActError {}

/// Python truthiness of a JSON value.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// The Python type name of a JSON value (for the messages Python writes).
pub fn py_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// Python's `str.strip()` (Unicode whitespace, including the separators `\x1c`..`\x1f`).
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// `(args.get(key) or "").strip()`: `""` for a missing or falsy value; a truthy non-string
/// fails as Python does (`RUNTIME_ERROR`).
pub fn py_str(args: &Map<String, Value>, key: &str, api: &str) -> Result<String, ActError> {
    match args.get(key) {
        Some(v) if truthy(v) => match v {
            Value::String(s) => Ok(py_strip(s).into()),
            other => Err(runtime_error(
                api,
                alloc::format!("'{}' object has no attribute 'strip'", py_type(other)),
            )),
        },
        _ => Ok(String::new()),
    }
}

/// ScratchWorld's `RUNTIME_ERROR` ("Execution failed", with the Python exception).
pub fn runtime_error(api: &str, error: String) -> ActError {
    let mut details = Map::new();
    details.insert("api".into(), Value::String(api.into()));
    details.insert("error".into(), Value::String(error));
    ActError {
        code: Code::RuntimeError,
        message: "Execution failed".into(),
        details: Some(Value::Object(details)),
    }
}

/// An index argument that passed `isinstance(x, int) and x >= 1`: the key ScratchWorld looks
/// it up with (`str(x)`: `"3"`, or `"True"` for `true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexArg {
    /// `str(x)`.
    pub key: String,
    /// The index, when it is a number that fits.
    pub value: Option<u64>,
}

/// Reads an index argument, or `None` when it is not a positive integer for Python.
pub fn index_arg(v: Option<&Value>) -> Option<IndexArg> {
    match v? {
        Value::Bool(true) => Some(IndexArg { key: "True".into(), value: None }),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                return (u >= 1).then(|| IndexArg { key: alloc::format!("{u}"), value: Some(u) });
            }
            if n.as_i64().is_some() {
                return None;
            }
            // An integer too large for 64 bits arrives as a float: Python holds it as an int.
            let f = n.as_f64()?;
            (f.is_finite() && f >= 9.2e18 && libm::trunc(f) == f).then(|| IndexArg {
                key: super::jsval::value_string(&Value::Number(n.clone())),
                value: None,
            })
        }
        _ => None,
    }
}
