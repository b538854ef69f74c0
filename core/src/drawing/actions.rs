//! Mouse actions (`moveTo`, `click`, `mouseDown`, `mouseUp`) read from a model's raw text,
//! keeping what the reference evaluator can observe: the action name as written (any JSON
//! value), and `x` / `y` as ints, floats, bools or other values, present or absent.
//! Python exceptions the reference would raise while reading them are [`PyException`]s.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::pyfmt;
use super::pyjson::{self, PyValue};
use super::ui::Num;

/// Most actions accepted in one sequence. The reference has no limit; past this gobo returns
/// [`ActionsError::TooMany`] instead of a verdict so that every evaluation ends quickly.
pub const MAX_ACTIONS: usize = 1_000_000;

/// The action's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `"moveTo"`.
    MoveTo,
    /// `"click"`.
    Click,
    /// `"mouseDown"`.
    MouseDown,
    /// `"mouseUp"`.
    MouseUp,
    /// No `"action"` key.
    Missing,
    /// Any other hashable value; the index of the raw value in [`Actions::extras`].
    Other(u32),
}

/// An `x` or `y` value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Coord {
    /// An int that fits in `i64`.
    Int(i64),
    /// A float (including NaN and ±inf).
    Float(f64),
    /// `true` / `false`, which Python treats as 1 / 0 in arithmetic.
    Bool(bool),
    /// Any other value (a wide int, a string, null, a list, an object): index into
    /// [`Actions::extras`].
    Raw(u32),
}

/// One action.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Action {
    /// The name.
    pub kind: Kind,
    /// `x`, if the key is present.
    pub x: Option<Coord>,
    /// `y`, if the key is present.
    pub y: Option<Coord>,
}

impl Action {
    /// Whether the action has both an `x` and a `y` key.
    pub fn has_xy(&self) -> bool {
        self.x.is_some() && self.y.is_some()
    }
}

/// A parsed action list plus the side table of unusual raw values.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Actions {
    /// The actions, in order.
    pub list: Vec<Action>,
    /// Raw values referenced by [`Kind::Other`] and [`Coord::Raw`].
    pub extras: Vec<PyValue>,
}

/// A Python exception the reference evaluator raises on this input (it then has no result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyException {
    /// Exception class (`TypeError`, `AttributeError`, `ValueError`, `OverflowError`).
    pub class: &'static str,
    /// The message.
    pub message: String,
}

impl PyException {
    /// Builds an exception.
    pub fn new(class: &'static str, message: String) -> PyException {
        PyException { class, message }
    }

    /// `TypeError: unsupported operand type(s) for -: 'a' and 'b'`.
    pub fn sub(left: &str, right: &str) -> PyException {
        PyException::new(
            "TypeError",
            alloc::format!("unsupported operand type(s) for -: '{left}' and '{right}'"),
        )
    }

    /// `TypeError: '<op>' not supported between instances of 'a' and 'b'`.
    pub fn compare(op: &str, left: &str, right: &str) -> PyException {
        PyException::new(
            "TypeError",
            alloc::format!("'{op}' not supported between instances of '{left}' and '{right}'"),
        )
    }
}

impl fmt::Display for PyException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class, self.message)
    }
}

impl core::error::Error for PyException {}

/// Why a model's text gave no action list to evaluate.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ActionsError {
    /// The text is not JSON (the reference harness then passes the raw string on, which the
    /// evaluator scores as "Actions must be a list/array").
    Json(pyjson::JsonError),
    /// The JSON is not a list (same verdict as above). Holds the Python type name.
    NotAList(&'static str),
    /// Reading the list raises in the reference (a non-object element, an unhashable action).
    Exception(PyException),
    /// More than [`MAX_ACTIONS`] actions.
    TooMany(usize),
}

impl fmt::Display for ActionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionsError::Json(e) => write!(f, "actions are not JSON: {e}"),
            ActionsError::NotAList(t) => write!(f, "actions must be a JSON list, found {t}"),
            ActionsError::Exception(e) => write!(f, "the reference evaluator raises {e}"),
            ActionsError::TooMany(n) => {
                write!(f, "{n} actions exceed gobo's limit of {MAX_ACTIONS}")
            }
        }
    }
}

impl core::error::Error for ActionsError {}

impl Actions {
    /// Reads actions from a model's raw text (bytes; invalid UTF-8 is a JSON error).
    pub fn parse(raw: &[u8]) -> Result<Actions, ActionsError> {
        let mut a = Actions::default();
        a.parse_into(raw)?;
        Ok(a)
    }

    /// [`Actions::parse`] into `self`, reusing its buffers. The common shape (flat objects of
    /// plain scalars) is read directly from the text; anything else goes through the general
    /// JSON reader ([`Actions::parse_via_json`]), with the same result either way. On `Err`,
    /// `self` holds no meaningful actions.
    pub fn parse_into(&mut self, raw: &[u8]) -> Result<(), ActionsError> {
        if super::quick::read(raw, self) {
            return Ok(());
        }
        // The limit holds before any tree is built: a list of ten million actions is refused
        // after one scan, not after parsing it.
        let n = top_level_items(raw);
        if n > MAX_ACTIONS {
            return Err(ActionsError::TooMany(n));
        }
        *self = Actions::parse_via_json(raw)?;
        Ok(())
    }

    /// Reads actions through the general JSON tree ([`pyjson::parse_bytes`], then
    /// [`Actions::from_value`]): the definition [`Actions::parse`] agrees with.
    pub fn parse_via_json(raw: &[u8]) -> Result<Actions, ActionsError> {
        let value = pyjson::parse_bytes(raw).map_err(ActionsError::Json)?;
        Actions::from_value(value)
    }

    /// Reads actions from a parsed JSON value, in the reference's `_count_actions` order: the
    /// first element that is not an object raises `AttributeError`, the first unhashable
    /// action name raises `TypeError`.
    pub fn from_value(value: PyValue) -> Result<Actions, ActionsError> {
        let PyValue::List(items) = value else {
            return Err(ActionsError::NotAList(value.type_name()));
        };
        if items.len() > MAX_ACTIONS {
            return Err(ActionsError::TooMany(items.len()));
        }
        let mut out = Actions { list: Vec::with_capacity(items.len()), extras: Vec::new() };
        for item in items {
            let PyValue::Dict(fields) = item else {
                return Err(ActionsError::Exception(PyException::new(
                    "AttributeError",
                    alloc::format!("'{}' object has no attribute 'get'", item.type_name()),
                )));
            };
            let mut action = Action { kind: Kind::Missing, x: None, y: None };
            for (key, v) in fields {
                match key.as_str() {
                    "action" => {
                        action.kind = match v {
                            PyValue::Str(s) if s == "moveTo" => Kind::MoveTo,
                            PyValue::Str(s) if s == "click" => Kind::Click,
                            PyValue::Str(s) if s == "mouseDown" => Kind::MouseDown,
                            PyValue::Str(s) if s == "mouseUp" => Kind::MouseUp,
                            PyValue::List(_) | PyValue::Dict(_) => {
                                return Err(ActionsError::Exception(PyException::new(
                                    "TypeError",
                                    alloc::format!("unhashable type: '{}'", v.type_name()),
                                )));
                            }
                            other => Kind::Other(out.push_extra(other)),
                        }
                    }
                    "x" => action.x = Some(out.coord(v)),
                    "y" => action.y = Some(out.coord(v)),
                    _ => {}
                }
            }
            out.list.push(action);
        }
        Ok(out)
    }

    fn push_extra(&mut self, v: PyValue) -> u32 {
        self.extras.push(v);
        (self.extras.len() - 1) as u32
    }

    fn coord(&mut self, v: PyValue) -> Coord {
        match v {
            PyValue::Int(i) => Coord::Int(i),
            PyValue::Float(f) => Coord::Float(f),
            PyValue::Bool(b) => Coord::Bool(b),
            other => Coord::Raw(self.push_extra(other)),
        }
    }

    fn extra(&self, i: u32) -> Option<&PyValue> {
        self.extras.get(i as usize)
    }

    /// The numeric value of a coordinate, or its Python type name if it is not a number.
    #[inline]
    pub fn num(&self, c: Coord) -> Result<f64, &'static str> {
        match c {
            Coord::Int(i) => Ok(i as f64),
            Coord::Float(f) => Ok(f),
            Coord::Bool(b) => Ok(f64::from(u8::from(b))),
            Coord::Raw(i) => match self.extra(i) {
                Some(PyValue::BigInt(b)) => Ok(b.approx),
                Some(v) => Err(v.type_name()),
                None => Err("NoneType"),
            },
        }
    }

    /// Whether the coordinate is a Python int (or bool) rather than a float.
    pub fn is_int(&self, c: Coord) -> bool {
        match c {
            Coord::Int(_) | Coord::Bool(_) => true,
            Coord::Float(_) => false,
            Coord::Raw(i) => matches!(self.extra(i), Some(PyValue::BigInt(_))),
        }
    }

    /// `c - k` in Python, as a float.
    #[inline]
    pub fn sub(&self, c: Coord, k: Num) -> Result<f64, PyException> {
        self.num(c).map(|v| v - k.v).map_err(|t| PyException::sub(t, k.type_name()))
    }

    /// Python's `float(c)`: `Ok(None)` where `float()` raises `TypeError`/`ValueError` (which
    /// the reference catches), `Err` where it raises `OverflowError` (which it does not).
    pub fn py_float(&self, c: Coord) -> Result<Option<f64>, PyException> {
        match c {
            Coord::Raw(i) => match self.extra(i) {
                Some(PyValue::BigInt(b)) if b.approx.is_infinite() => Err(PyException::new(
                    "OverflowError",
                    String::from("int too large to convert to float"),
                )),
                Some(PyValue::BigInt(b)) => Ok(Some(b.approx)),
                Some(PyValue::Str(s)) => Ok(pyfmt::float_from_str(s)),
                _ => Ok(None),
            },
            other => Ok(self.num(other).ok()),
        }
    }

    /// Python's `str()` of a coordinate's raw JSON value.
    pub fn coord_str(&self, c: Coord) -> String {
        match c {
            Coord::Int(i) => alloc::format!("{i}"),
            Coord::Float(f) => pyfmt::float_repr(f),
            Coord::Bool(true) => String::from("True"),
            Coord::Bool(false) => String::from("False"),
            Coord::Raw(i) => self.extra(i).map_or_else(|| String::from("None"), pyfmt::py_str),
        }
    }

    /// `str(action.get("action", missing))`.
    pub fn kind_str(&self, k: Kind, missing: &str) -> String {
        match k {
            Kind::MoveTo => String::from("moveTo"),
            Kind::Click => String::from("click"),
            Kind::MouseDown => String::from("mouseDown"),
            Kind::MouseUp => String::from("mouseUp"),
            Kind::Missing => String::from(missing),
            Kind::Other(i) => self.extra(i).map_or_else(String::new, pyfmt::py_str),
        }
    }

    /// Number of actions.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are no actions.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Elements of a top-level JSON list (its commas outside strings and nested values, plus one),
/// by one scan without parsing; 0 when the text is not a list. Malformed text gets a count
/// that the parser then refuses for what it is.
fn top_level_items(raw: &[u8]) -> usize {
    if raw.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'[') {
        return 0;
    }
    let mut depth = 0usize;
    let (mut in_str, mut escaped, mut n, mut any) = (false, false, 0usize, false);
    for &b in raw {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_str = true;
                any |= depth == 1;
            }
            b'[' | b'{' => {
                any |= depth == 1;
                depth += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => n += 1,
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => any |= depth == 1,
        }
    }
    if any {
        n + 1
    } else {
        0
    }
}
