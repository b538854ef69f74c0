//! Small typed readers from a [`Json`] node to model values, each failing with a
//! [`LoadError`] that names the JSON path.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{LoadError, Path};
use super::json::{Json, Num};
use super::model::Literal;

pub(crate) fn object(node: Json, path: &Path) -> Result<Vec<(String, Json)>, LoadError> {
    match node {
        Json::Object(pairs) => Ok(pairs),
        other => Err(path.type_err("an object", &other)),
    }
}

pub(crate) fn array(node: Json, path: &Path) -> Result<Vec<Json>, LoadError> {
    match node {
        Json::Array(items) => Ok(items),
        other => Err(path.type_err("an array", &other)),
    }
}

pub(crate) fn string(node: Json, path: &Path) -> Result<String, LoadError> {
    match node {
        Json::String(s) => Ok(s),
        other => Err(path.type_err("a string", &other)),
    }
}

/// A string or `null`.
pub(crate) fn opt_string(node: Json, path: &Path) -> Result<Option<String>, LoadError> {
    match node {
        Json::String(s) => Ok(Some(s)),
        Json::Null => Ok(None),
        other => Err(path.type_err("a string or null", &other)),
    }
}

pub(crate) fn boolean(node: Json, path: &Path) -> Result<bool, LoadError> {
    match node {
        Json::Bool(b) => Ok(b),
        other => Err(path.type_err("a boolean", &other)),
    }
}

pub(crate) fn number(node: Json, path: &Path) -> Result<Num, LoadError> {
    match node {
        Json::Number(n) => Ok(n),
        other => Err(path.type_err("a number", &other)),
    }
}

/// A number that must lie in `min..=max`.
pub(crate) fn number_in(node: Json, path: &Path, min: f64, max: f64) -> Result<Num, LoadError> {
    let n = number(node, path)?;
    let v = n.as_f64();
    if v >= min && v <= max {
        Ok(n)
    } else {
        Err(LoadError::OutOfRange { path: path.render(), value: v })
    }
}

/// A scalar: number, string, boolean or null.
pub(crate) fn literal(node: Json, path: &Path) -> Result<Literal, LoadError> {
    match node {
        Json::Number(n) => Ok(Literal::Number(n)),
        Json::String(s) => Ok(Literal::Text(s)),
        Json::Bool(b) => Ok(Literal::Bool(b)),
        Json::Null => Ok(Literal::Null),
        other => Err(path.type_err("a number, string, boolean or null", &other)),
    }
}

/// `true`/`"true"` → true, `false`/`"false"` → false (Scratch writes both forms).
pub(crate) fn loose_bool(node: &Json, path: &Path) -> Result<bool, LoadError> {
    match node {
        Json::Bool(b) => Ok(*b),
        Json::String(s) if s == "true" => Ok(true),
        Json::String(s) if s == "false" => Ok(false),
        Json::Null => Ok(false),
        other => Err(path.type_err("true, false, \"true\" or \"false\"", other)),
    }
}

pub(crate) fn literal_to_json(lit: &Literal) -> Json {
    match lit {
        Literal::Number(n) => Json::Number(*n),
        Literal::Text(s) => Json::String(s.clone()),
        Literal::Bool(b) => Json::Bool(*b),
        Literal::Null => Json::Null,
    }
}
