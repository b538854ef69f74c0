//! Scratch values: the dynamically typed [`Value`] (number, string, boolean, `undefined`) and
//! the casts scratch-vm's `util/cast.js` defines on it ([`cast`]), with JavaScript's number
//! parsing and formatting ([`number`]).
//!
//! Strings are `Rc<str>` so cloning a value never copies text, and number-only scripts never
//! allocate. What a value *means* in a block (list indices, colours, comparisons) lives in
//! [`cast`]; this module only holds the representation.

pub mod case;
pub mod cast;
pub mod jsmath;
pub mod number;
pub mod sort;

use alloc::rc::Rc;
use alloc::string::String;
use core::fmt;

/// A Scratch value as scratch-vm holds it in a JavaScript variable.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// A JavaScript number (including NaN, ±Infinity and -0).
    Num(f64),
    /// A JavaScript string.
    Str(Rc<str>),
    /// A JavaScript boolean (comparison and boolean reporters).
    Bool(bool),
    /// JavaScript `undefined` (e.g. `mouse x` before any mouse event, or a reporter with no
    /// implementation).
    #[default]
    Undefined,
}

impl Value {
    /// The empty string.
    pub fn empty() -> Value {
        Value::Str(Rc::from(""))
    }

    /// A string value from text.
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    /// A string value taking ownership of a `String`.
    pub fn string(s: String) -> Value {
        Value::Str(Rc::from(s))
    }

    /// True when the value is a JavaScript number.
    pub fn is_num(&self) -> bool {
        matches!(self, Value::Num(_))
    }

    /// JavaScript strict equality (`===`) on the representation, as used where scratch-vm
    /// compares raw values (edge-activated hats, `typeof` checks).
    pub fn strict_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Num(a), Value::Num(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Undefined, Value::Undefined) => true,
            _ => false,
        }
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Value {
        Value::Num(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}

impl fmt::Display for Value {
    /// JavaScript `String(value)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Num(n) => f.write_str(number::JsNum(*n).as_str(&mut ryu_js::Buffer::new())),
            Value::Str(s) => f.write_str(s),
            Value::Bool(true) => f.write_str("true"),
            Value::Bool(false) => f.write_str("false"),
            Value::Undefined => f.write_str("undefined"),
        }
    }
}
