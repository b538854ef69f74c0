//! Reading JSON objects field by field with the JSON path at hand, so every error names where
//! it is; unknown fields are errors (they are usually typos).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::error::{SuiteError, SuiteErrorKind};
use crate::scratch::value::Value;

pub(crate) type Result<T> = core::result::Result<T, SuiteError>;

pub(crate) fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        String::from(key)
    } else {
        format!("{path}.{key}")
    }
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

pub(crate) fn wrong(path: &str, expected: &'static str) -> SuiteError {
    SuiteError::new(path, SuiteErrorKind::WrongType { expected })
}

pub(crate) fn bad(path: &str, message: &str) -> SuiteError {
    SuiteError::new(path, SuiteErrorKind::BadValue(String::from(message)))
}

/// An object being read; `finish` rejects fields nobody asked for.
pub(crate) struct Obj<'a> {
    pub map: &'a Map<String, Json>,
    pub path: String,
    seen: Vec<&'a str>,
}

impl<'a> Obj<'a> {
    pub fn new(v: &'a Json, path: &str) -> Result<Obj<'a>> {
        match v {
            Json::Object(map) => Ok(Obj { map, path: String::from(path), seen: Vec::new() }),
            _ => Err(wrong(path, "an object")),
        }
    }

    pub fn path_of(&self, key: &str) -> String {
        child(&self.path, key)
    }

    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    pub fn get(&mut self, key: &str) -> Option<&'a Json> {
        let (k, v) = self.map.get_key_value(key)?;
        self.seen.push(k.as_str());
        Some(v)
    }

    pub fn req(&mut self, key: &str) -> Result<&'a Json> {
        self.get(key).ok_or_else(|| SuiteError::new(&self.path_of(key), SuiteErrorKind::Missing))
    }

    pub fn str(&mut self, key: &str) -> Result<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(wrong(&self.path_of(key), "a string")),
        }
    }

    pub fn req_str(&mut self, key: &str) -> Result<String> {
        let v = self.req(key)?;
        v.as_str().map(String::from).ok_or_else(|| wrong(&self.path_of(key), "a string"))
    }

    pub fn num(&mut self, key: &str) -> Result<Option<f64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => number(v, &self.path_of(key)).map(Some),
        }
    }

    pub fn req_num(&mut self, key: &str) -> Result<f64> {
        let v = self.req(key)?;
        number(v, &self.path_of(key))
    }

    pub fn bool(&mut self, key: &str) -> Result<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Json::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(wrong(&self.path_of(key), "true or false")),
        }
    }

    pub fn u64(&mut self, key: &str) -> Result<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| wrong(&self.path_of(key), "a non-negative integer")),
        }
    }

    /// Rejects any field not read so far.
    pub fn finish(self) -> Result<()> {
        match self.map.keys().find(|k| !self.seen.contains(&k.as_str())) {
            Some(k) => Err(SuiteError::new(&child(&self.path, k), SuiteErrorKind::UnknownField)),
            None => Ok(()),
        }
    }
}

/// A finite JSON number.
pub(crate) fn number(v: &Json, path: &str) -> Result<f64> {
    match v.as_f64() {
        Some(n) if n.is_finite() => Ok(n),
        _ => Err(wrong(path, "a number")),
    }
}

/// A non-negative finite number.
pub(crate) fn non_negative(v: &Json, path: &str) -> Result<f64> {
    let n = number(v, path)?;
    if n < 0.0 {
        return Err(bad(path, "must not be negative"));
    }
    Ok(n)
}

/// A JSON scalar as a Scratch value (numbers, strings, booleans).
pub(crate) fn scalar(v: &Json, path: &str) -> Result<Value> {
    match v {
        Json::String(s) => Ok(Value::str(s)),
        Json::Bool(b) => Ok(Value::Bool(*b)),
        Json::Number(_) => number(v, path).map(Value::Num),
        _ => Err(wrong(path, "a number, string or boolean")),
    }
}

pub(crate) fn array<'a>(v: &'a Json, path: &str) -> Result<&'a Vec<Json>> {
    v.as_array().ok_or_else(|| wrong(path, "an array"))
}
