//! An order-preserving JSON tree ([`Json`]) used by the project loader and saver.
//!
//! `serde_json::Value` sorts object keys (without its `std`-only `preserve_order` feature), but
//! key order in `project.json` is observable in Scratch: the order of a target's `blocks` map is
//! the order its scripts start in. [`Json`] keeps objects as ordered `(key, value)` pairs.
//! Duplicate keys behave like JavaScript's `JSON.parse`: the value of the last occurrence wins,
//! at the position of the first. Nesting depth is bounded by `serde_json`'s recursion limit
//! (128), so building and dropping a tree never recurses deeper than that.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON number as written in the file: an integer that fits `i64`, or any other number as `f64`.
///
/// Keeping integers apart from floats lets the saver write `10` back as `10`, not `10.0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer literal that fits in `i64`.
    Int(i64),
    /// Any other number (fraction, exponent or an integer beyond `i64`).
    Float(f64),
}

impl Num {
    /// The number as JavaScript sees it.
    pub fn as_f64(self) -> f64 {
        match self {
            // Precision loss beyond 2^53 is what JavaScript does too.
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

impl From<f64> for Num {
    fn from(f: f64) -> Self {
        Num::Float(f)
    }
}

impl From<i64> for Num {
    fn from(i: i64) -> Self {
        Num::Int(i)
    }
}

/// A JSON value with object keys kept in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number.
    Number(Num),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in file order (duplicates merged as `JSON.parse` does).
    Object(Vec<(String, Json)>),
}

impl Json {
    /// A short name of this value's JSON type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// Looks up `key` in an object (`None` for other types or a missing key).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Parses JSON text, keeping object key order.
    pub fn parse(bytes: &[u8]) -> Result<Json, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// Writes compact JSON text (no whitespace), as Scratch does.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Serializing a `Json` cannot fail: keys are strings and numbers are finite.
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// Removes escaped backspaces (`\b`, `\u0008`) from JSON text, as scratch-parser does before
/// `JSON.parse` (an escaped backslash followed by `b` stays).
pub fn strip_backspace_escapes(text: &[u8]) -> alloc::borrow::Cow<'_, [u8]> {
    if !text.windows(2).any(|w| w == b"\\b" || w == b"\\u") {
        return alloc::borrow::Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] != b'\\' {
            out.push(text[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && text[i] == b'\\' {
            i += 1;
        }
        let run = i - start;
        let code = if text[i..].starts_with(b"b") {
            1
        } else if text[i..].starts_with(b"u0008") {
            5
        } else {
            0
        };
        if code > 0 && run % 2 == 1 {
            out.extend_from_slice(&text[start..i - 1]);
            i += code;
        } else {
            out.extend_from_slice(&text[start..i]);
        }
    }
    alloc::borrow::Cow::Owned(out)
}

/// Builds an object from `(key, value)` pairs in order, merging duplicate keys like `JSON.parse`.
#[derive(Debug, Default)]
pub(crate) struct ObjectBuilder {
    pairs: Vec<(String, Json)>,
    /// Key positions, built once the object grows past a handful of keys.
    index: Option<BTreeMap<String, usize>>,
}

/// Objects up to this many keys are searched linearly for duplicates.
const LINEAR_KEYS: usize = 16;

impl ObjectBuilder {
    pub(crate) fn insert(&mut self, key: String, value: Json) {
        let found = match &self.index {
            Some(index) => index.get(&key).copied(),
            None => self.pairs.iter().position(|(k, _)| *k == key),
        };
        if let Some(slot) = found.and_then(|i| self.pairs.get_mut(i)) {
            slot.1 = value;
            return;
        }
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.pairs.len());
        }
        self.pairs.push((key, value));
        if self.index.is_none() && self.pairs.len() > LINEAR_KEYS {
            let index = self.pairs.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect();
            self.index = Some(index);
        }
    }

    pub(crate) fn finish(self) -> Vec<(String, Json)> {
        self.pairs
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
        Ok(Json::Number(Num::Int(i)))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
        Ok(Json::Number(match i64::try_from(u) {
            Ok(i) => Num::Int(i),
            Err(_) => Num::Float(u as f64),
        }))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Json, E> {
        if f.is_finite() {
            Ok(Json::Number(Num::Float(f)))
        } else {
            Err(E::custom("number out of range"))
        }
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(String::from(s)))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = ObjectBuilder::default();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            object.insert(key, value);
        }
        Ok(Json::Object(object.finish()))
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Num::Int(i) => serializer.serialize_i64(i),
            Num::Float(f) => serializer.serialize_f64(f),
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(pairs) => {
                let mut map = serializer.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}
