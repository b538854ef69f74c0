//! A JSON reader with the value model of Python's `json.loads`, which is how the reference
//! harness turns a model's text into actions: ints and floats stay distinct, ints are unbounded
//! (up to Python's 4,300-digit limit), the literals `NaN`, `Infinity` and `-Infinity` are
//! accepted, objects keep their key order and a repeated key keeps its first position with the
//! last value. Errors carry Python's message and position (`line`, `column`, `char`).
//!
//! What differs from Python, by design: nesting deeper than [`MAX_DEPTH`] is an error (Python's
//! own limit is its recursion limit, also about 1,000), and a lone UTF-16 surrogate escape
//! (`"\ud800"`) becomes U+FFFD because Rust strings cannot hold it.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use hashbrown::HashMap;

/// Deepest array/object nesting accepted.
pub const MAX_DEPTH: usize = 1000;
/// Python's default limit on the digits of an int literal (`sys.int_info.default_max_str_digits`).
pub const MAX_INT_DIGITS: usize = 4300;

/// A parsed JSON value, typed the way Python's `json` module types it.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue {
    /// `null` (Python `None`).
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An int literal that fits in an `i64`.
    Int(i64),
    /// An int literal beyond `i64`: its canonical decimal text and its value rounded to `f64`
    /// (infinite when Python's `float()` of it would raise `OverflowError`).
    BigInt(Box<BigInt>),
    /// A literal with a fraction or exponent, or `NaN` / `Infinity`.
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    List(Vec<PyValue>),
    /// An object, keys in first-seen order.
    Dict(Vec<(String, PyValue)>),
}

/// An int too wide for `i64`.
#[derive(Debug, Clone, PartialEq)]
pub struct BigInt {
    /// Canonical decimal text (`-` then digits, no leading zeros).
    pub text: String,
    /// The value rounded to the nearest `f64` (infinite past `f64::MAX`).
    pub approx: f64,
}

impl PyValue {
    /// Python's type name (`type(v).__name__`).
    pub fn type_name(&self) -> &'static str {
        match self {
            PyValue::Null => "NoneType",
            PyValue::Bool(_) => "bool",
            PyValue::Int(_) | PyValue::BigInt(_) => "int",
            PyValue::Float(_) => "float",
            PyValue::Str(_) => "str",
            PyValue::List(_) => "list",
            PyValue::Dict(_) => "dict",
        }
    }

    /// `dict.get(key)` for an object; `None` for a missing key or a non-object.
    pub fn get(&self, key: &str) -> Option<&PyValue> {
        match self {
            PyValue::Dict(items) => items.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// What went wrong while reading JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// The input bytes are not UTF-8 (Python raises `UnicodeDecodeError`).
    InvalidUtf8,
    /// The text starts with a byte-order mark.
    Bom,
    /// `Expecting value`.
    ExpectingValue,
    /// `Expecting property name enclosed in double quotes`.
    ExpectingPropertyName,
    /// `Expecting ':' delimiter`.
    ExpectingColon,
    /// `Expecting ',' delimiter`.
    ExpectingComma,
    /// `Unterminated string starting at`.
    UnterminatedString,
    /// `Invalid control character at`.
    InvalidControl,
    /// `Invalid \escape`.
    InvalidEscape,
    /// `Invalid \uXXXX escape`.
    InvalidUnicodeEscape,
    /// `Extra data`.
    ExtraData,
    /// Nesting deeper than [`MAX_DEPTH`] (Python: `RecursionError`).
    TooDeep,
    /// An int literal longer than [`MAX_INT_DIGITS`] digits (Python: `ValueError`).
    IntTooLong,
}

/// A JSON reading error with Python's position triple.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// What went wrong.
    pub kind: JsonErrorKind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// 0-based character offset (for [`JsonErrorKind::InvalidUtf8`], the byte offset).
    pub char: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = match self.kind {
            JsonErrorKind::InvalidUtf8 => {
                return write!(f, "UnicodeDecodeError: invalid utf-8 at byte {}", self.char)
            }
            JsonErrorKind::TooDeep => {
                return write!(
                f,
                "RecursionError: nesting deeper than {MAX_DEPTH} at line {} column {} (char {})",
                self.line, self.column, self.char
            )
            }
            JsonErrorKind::IntTooLong => {
                return write!(
                    f,
                    "ValueError: Exceeds the limit ({MAX_INT_DIGITS} digits) for integer string \
                     conversion at line {} column {} (char {})",
                    self.line, self.column, self.char
                )
            }
            JsonErrorKind::Bom => "Unexpected UTF-8 BOM (decode using utf-8-sig)",
            JsonErrorKind::ExpectingValue => "Expecting value",
            JsonErrorKind::ExpectingPropertyName => {
                "Expecting property name enclosed in double quotes"
            }
            JsonErrorKind::ExpectingColon => "Expecting ':' delimiter",
            JsonErrorKind::ExpectingComma => "Expecting ',' delimiter",
            JsonErrorKind::UnterminatedString => "Unterminated string starting at",
            JsonErrorKind::InvalidControl => "Invalid control character at",
            JsonErrorKind::InvalidEscape => "Invalid \\escape",
            JsonErrorKind::InvalidUnicodeEscape => "Invalid \\uXXXX escape",
            JsonErrorKind::ExtraData => "Extra data",
        };
        write!(
            f,
            "JSONDecodeError: {msg}: line {} column {} (char {})",
            self.line, self.column, self.char
        )
    }
}

impl core::error::Error for JsonError {}

/// Parses bytes the way `json.loads` parses a `str` (after UTF-8 decoding).
pub fn parse_bytes(bytes: &[u8]) -> Result<PyValue, JsonError> {
    match core::str::from_utf8(bytes) {
        Ok(s) => parse(s),
        Err(e) => Err(JsonError {
            kind: JsonErrorKind::InvalidUtf8,
            line: 0,
            column: 0,
            char: e.valid_up_to(),
        }),
    }
}

/// Parses text the way `json.loads` does.
pub fn parse(text: &str) -> Result<PyValue, JsonError> {
    let p = Parser { s: text.as_bytes(), text };
    if text.starts_with('\u{feff}') {
        return Err(p.err(JsonErrorKind::Bom, 0));
    }
    let start = p.ws(0);
    let (value, end) = p.value(start, 0)?;
    let end = p.ws(end);
    if end != p.s.len() {
        return Err(p.err(JsonErrorKind::ExtraData, end));
    }
    Ok(value)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
}

type Step = Result<(PyValue, usize), JsonError>;

impl Parser<'_> {
    fn err(&self, kind: JsonErrorKind, byte_pos: usize) -> JsonError {
        let pos = byte_pos.min(self.s.len());
        let before = self.text.get(..pos).unwrap_or("");
        let char = before.chars().count();
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let column = match before.rfind('\n') {
            Some(nl) => before.get(nl + 1..).map_or(0, |t| t.chars().count()) + 1,
            None => char + 1,
        };
        JsonError { kind, line, column, char }
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.s.get(i).copied()
    }

    fn ws(&self, mut i: usize) -> usize {
        while matches!(self.at(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    }

    fn starts(&self, i: usize, lit: &[u8]) -> bool {
        self.s.get(i..i + lit.len()) == Some(lit)
    }

    /// `scan_once`: a value starting exactly at `i`.
    fn value(&self, i: usize, depth: usize) -> Step {
        let Some(c) = self.at(i) else {
            return Err(self.err(JsonErrorKind::ExpectingValue, i));
        };
        match c {
            b'"' => self.string(i + 1).map(|(s, e)| (PyValue::Str(s), e)),
            b'{' => self.object(i + 1, depth + 1),
            b'[' => self.array(i + 1, depth + 1),
            b'n' if self.starts(i, b"null") => Ok((PyValue::Null, i + 4)),
            b't' if self.starts(i, b"true") => Ok((PyValue::Bool(true), i + 4)),
            b'f' if self.starts(i, b"false") => Ok((PyValue::Bool(false), i + 5)),
            b'N' if self.starts(i, b"NaN") => Ok((PyValue::Float(f64::NAN), i + 3)),
            b'I' if self.starts(i, b"Infinity") => Ok((PyValue::Float(f64::INFINITY), i + 8)),
            b'-' if self.starts(i, b"-Infinity") => Ok((PyValue::Float(f64::NEG_INFINITY), i + 9)),
            b'-' | b'0'..=b'9' => self.number(i),
            _ => Err(self.err(JsonErrorKind::ExpectingValue, i)),
        }
    }

    fn digits(&self, mut i: usize) -> usize {
        while matches!(self.at(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        i
    }

    /// `-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`, each optional group taken only when complete.
    fn number(&self, start: usize) -> Step {
        let mut i = start;
        if self.at(i) == Some(b'-') {
            i += 1;
        }
        let int_start = i;
        match self.at(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => i = self.digits(i),
            _ => return Err(self.err(JsonErrorKind::ExpectingValue, start)),
        }
        let int_end = i;
        let mut is_float = false;
        if self.at(i) == Some(b'.') && matches!(self.at(i + 1), Some(b'0'..=b'9')) {
            i = self.digits(i + 1);
            is_float = true;
        }
        if matches!(self.at(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(self.at(j), Some(b'+' | b'-')) {
                j += 1;
            }
            if matches!(self.at(j), Some(b'0'..=b'9')) {
                i = self.digits(j);
                is_float = true;
            }
        }
        let lit = self.text.get(start..i).unwrap_or("0");
        if is_float {
            return Ok((PyValue::Float(lit.parse::<f64>().unwrap_or(f64::NAN)), i));
        }
        if int_end - int_start > MAX_INT_DIGITS {
            return Err(self.err(JsonErrorKind::IntTooLong, start));
        }
        let value = match lit.parse::<i64>() {
            Ok(0) => PyValue::Int(0),
            Ok(v) => PyValue::Int(v),
            Err(_) => PyValue::BigInt(Box::new(BigInt {
                text: String::from(lit),
                approx: lit.parse::<f64>().unwrap_or(f64::NAN),
            })),
        };
        Ok((value, i))
    }

    fn hex4(&self, i: usize) -> Option<u32> {
        let h = self.s.get(i..i + 4)?;
        let mut v = 0u32;
        for &b in h {
            v = v * 16 + (b as char).to_digit(16)?;
        }
        Some(v)
    }

    /// A string body starting after the opening quote at `begin - 1`.
    fn string(&self, begin: usize) -> Result<(String, usize), JsonError> {
        // Fast path: no escape before the closing quote.
        let mut i = begin;
        while let Some(b) = self.at(i) {
            if b == b'"' {
                return Ok((String::from(self.text.get(begin..i).unwrap_or("")), i + 1));
            }
            if b == b'\\' || b < 0x20 {
                break;
            }
            i += 1;
        }
        let mut out = String::new();
        let mut i = begin;
        loop {
            // Copy a run of plain characters.
            let run_start = i;
            while let Some(b) = self.at(i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                i += 1;
            }
            out.push_str(self.text.get(run_start..i).unwrap_or(""));
            match self.at(i) {
                None => return Err(self.err(JsonErrorKind::UnterminatedString, begin - 1)),
                Some(b'"') => return Ok((out, i + 1)),
                Some(b'\\') => {}
                Some(_) => return Err(self.err(JsonErrorKind::InvalidControl, i)),
            }
            let Some(esc) = self.at(i + 1) else {
                return Err(self.err(JsonErrorKind::UnterminatedString, begin - 1));
            };
            let simple = match esc {
                b'"' => Some('"'),
                b'\\' => Some('\\'),
                b'/' => Some('/'),
                b'b' => Some('\u{8}'),
                b'f' => Some('\u{c}'),
                b'n' => Some('\n'),
                b'r' => Some('\r'),
                b't' => Some('\t'),
                b'u' => None,
                _ => return Err(self.err(JsonErrorKind::InvalidEscape, i)),
            };
            if let Some(c) = simple {
                out.push(c);
                i += 2;
                continue;
            }
            let Some(hi) = self.hex4(i + 2) else {
                return Err(self.err(JsonErrorKind::InvalidUnicodeEscape, i));
            };
            i += 6;
            let mut code = hi;
            if (0xD800..0xDC00).contains(&hi) && self.starts(i, b"\\u") {
                if let Some(lo) = self.hex4(i + 2) {
                    if (0xDC00..0xE000).contains(&lo) {
                        code = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        i += 6;
                    }
                }
            }
            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
        }
    }

    fn object(&self, mut i: usize, depth: usize) -> Step {
        if depth > MAX_DEPTH {
            return Err(self.err(JsonErrorKind::TooDeep, i));
        }
        let mut items: Vec<(String, PyValue)> = Vec::new();
        // Key -> slot, built once an object grows past a few keys, so repeated-key handling
        // stays linear on hostile input.
        let mut index: Option<HashMap<String, usize>> = None;
        i = self.ws(i);
        if self.at(i) == Some(b'}') {
            return Ok((PyValue::Dict(items), i + 1));
        }
        loop {
            if self.at(i) != Some(b'"') {
                return Err(self.err(JsonErrorKind::ExpectingPropertyName, i));
            }
            let (key, end) = self.string(i + 1)?;
            i = self.ws(end);
            if self.at(i) != Some(b':') {
                return Err(self.err(JsonErrorKind::ExpectingColon, i));
            }
            i = self.ws(i + 1);
            let (value, end) = self.value(i, depth)?;
            let found = match &index {
                Some(map) => map.get(&key).copied(),
                None => items.iter().position(|(k, _)| *k == key),
            };
            match found.and_then(|at| items.get_mut(at)) {
                Some(slot) => slot.1 = value,
                None => {
                    if let Some(map) = &mut index {
                        map.insert(key.clone(), items.len());
                    }
                    items.push((key, value));
                    if index.is_none() && items.len() > 16 {
                        index = Some(
                            items.iter().enumerate().map(|(n, (k, _))| (k.clone(), n)).collect(),
                        );
                    }
                }
            }
            i = self.ws(end);
            match self.at(i) {
                Some(b'}') => return Ok((PyValue::Dict(items), i + 1)),
                Some(b',') => i = self.ws(i + 1),
                _ => return Err(self.err(JsonErrorKind::ExpectingComma, i)),
            }
        }
    }

    fn array(&self, mut i: usize, depth: usize) -> Step {
        if depth > MAX_DEPTH {
            return Err(self.err(JsonErrorKind::TooDeep, i));
        }
        let mut items = Vec::new();
        i = self.ws(i);
        if self.at(i) == Some(b']') {
            return Ok((PyValue::List(items), i + 1));
        }
        loop {
            let (value, end) = self.value(i, depth)?;
            items.push(value);
            i = self.ws(end);
            match self.at(i) {
                Some(b']') => return Ok((PyValue::List(items), i + 1)),
                Some(b',') => i = self.ws(i + 1),
                _ => return Err(self.err(JsonErrorKind::ExpectingComma, i)),
            }
        }
    }
}
