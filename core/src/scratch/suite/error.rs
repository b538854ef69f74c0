//! Why a suite was rejected: what is wrong and where, as a JSON path such as
//! `tests[2].steps[4].expect.sprite`.

use alloc::string::String;
use core::fmt;

use super::regex::RegexError;

/// A suite that cannot be used, with the JSON path of the offending value.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteError {
    /// JSON path from the document root (`""` for the root itself).
    pub path: String,
    pub kind: SuiteErrorKind,
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SuiteErrorKind {
    /// The text is not JSON.
    InvalidJson(String),
    /// A required field is absent.
    Missing,
    /// The value has the wrong JSON type.
    WrongType {
        expected: &'static str,
    },
    /// A field this object does not have (a typo, usually).
    UnknownField,
    /// An object that must say what it is names no known kind.
    UnknownKind {
        expected: &'static str,
    },
    /// A value outside what the field accepts.
    BadValue(String),
    BadRegex(RegexError),
    /// A name the project does not define (`what` is "sprite", "variable", ...).
    Unknown {
        what: &'static str,
        name: String,
        known: String,
    },
    /// A `since`/`from`/`to` mark not set by an earlier `mark` step of the case.
    UnknownMark(String),
    /// Two cases share a name.
    DuplicateCase(String),
}

impl SuiteError {
    pub(crate) fn new(path: &str, kind: SuiteErrorKind) -> SuiteError {
        SuiteError { path: String::from(path), kind }
    }
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(root)" } else { &self.path };
        write!(f, "{path}: ")?;
        match &self.kind {
            SuiteErrorKind::InvalidJson(m) => write!(f, "not JSON ({m})"),
            SuiteErrorKind::Missing => f.write_str("required field is missing"),
            SuiteErrorKind::WrongType { expected } => write!(f, "expected {expected}"),
            SuiteErrorKind::UnknownField => f.write_str("unknown field"),
            SuiteErrorKind::UnknownKind { expected } => write!(f, "expected one of: {expected}"),
            SuiteErrorKind::BadValue(m) => f.write_str(m),
            SuiteErrorKind::BadRegex(e) => write!(f, "bad regular expression: {e}"),
            SuiteErrorKind::Unknown { what, name, known } => {
                write!(f, "unknown {what} '{name}'")?;
                if known.is_empty() {
                    Ok(())
                } else {
                    write!(f, " (the project has: {known})")
                }
            }
            SuiteErrorKind::UnknownMark(m) => {
                write!(f, "mark '{m}' is not set by an earlier mark step of this case")
            }
            SuiteErrorKind::DuplicateCase(n) => write!(f, "a case named '{n}' already exists"),
        }
    }
}

impl core::error::Error for SuiteError {}
