//! Typed errors of the project loader ([`LoadError`]) and the JSON path ([`Path`]) they carry.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// Why a `project.json` could not be loaded. Every variant says where (a JSON path such as
/// `targets[1].blocks["a1"].inputs.VALUE`, or a line and column for malformed JSON).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LoadError {
    /// The bytes are not JSON (syntax, nesting deeper than 128, a number out of `f64` range).
    Json {
        /// 1-based line of the problem (0 when unknown).
        line: usize,
        /// 1-based column of the problem (0 when unknown).
        column: usize,
        /// What `serde_json` reported.
        message: String,
    },
    /// A value has the wrong JSON type.
    Type {
        /// Where the value is.
        path: String,
        /// What the format requires there.
        expected: &'static str,
        /// What the file holds.
        found: &'static str,
    },
    /// A required key is absent.
    Missing {
        /// The object lacking the key.
        path: String,
        /// The key.
        key: &'static str,
    },
    /// A value has the right type but an impossible shape or content.
    Invalid {
        /// Where the value is.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A number outside the range the format allows at that place.
    OutOfRange {
        /// Where the number is.
        path: String,
        /// The number.
        value: f64,
    },
    /// A block reference (`next`, `parent` or an input) names a block id absent from the target.
    DanglingBlock {
        /// Where the reference is.
        path: String,
        /// The missing block id.
        id: String,
    },
    /// A block is the child (`next` or input) of two different places.
    SharedBlock {
        /// The second reference.
        path: String,
        /// The block referenced twice.
        id: String,
    },
    /// Following `next`, inputs or `parent` from this block comes back to it.
    Cycle {
        /// The target's blocks map.
        path: String,
        /// A block on the cycle.
        id: String,
    },
    /// A block sits more inputs deep below its script's first block than
    /// [`MAX_NESTING`](super::MAX_NESTING) allows.
    TooDeep {
        /// The target's blocks map.
        path: String,
        /// The first block found too deep.
        id: String,
        /// The limit.
        limit: usize,
    },
    /// The project has more of something than the loader supports.
    TooLarge {
        /// Where.
        path: String,
        /// The limit.
        limit: usize,
    },
}

impl LoadError {
    pub(crate) fn from_json(e: &serde_json::Error) -> LoadError {
        LoadError::Json { line: e.line(), column: e.column(), message: e.to_string() }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Json { line, column, message } => {
                write!(f, "invalid JSON at line {line} column {column}: {message}")
            }
            LoadError::Type { path, expected, found } => {
                write!(f, "{path}: expected {expected}, found {found}")
            }
            LoadError::Missing { path, key } => write!(f, "{path}: missing key {key:?}"),
            LoadError::Invalid { path, reason } => write!(f, "{path}: {reason}"),
            LoadError::OutOfRange { path, value } => {
                write!(f, "{path}: number {value} out of range")
            }
            LoadError::DanglingBlock { path, id } => {
                write!(f, "{path}: refers to block {id:?}, which does not exist")
            }
            LoadError::SharedBlock { path, id } => {
                write!(f, "{path}: block {id:?} is already the child of another block")
            }
            LoadError::Cycle { path, id } => {
                write!(f, "{path}: block {id:?} is part of a reference cycle")
            }
            LoadError::TooDeep { path, id, limit } => {
                write!(f, "{path}: block {id:?} is nested more than {limit} inputs deep")
            }
            LoadError::TooLarge { path, limit } => {
                write!(f, "{path}: more than {limit} entries")
            }
        }
    }
}

impl core::error::Error for LoadError {}

/// One step of a [`Path`].
#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// A JSON path built on the stack while loading (no allocation until an error renders it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Seg<'a>,
}

impl<'a> Path<'a> {
    pub(crate) const ROOT: Path<'static> = Path { parent: None, seg: Seg::Root };

    pub(crate) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path { parent: Some(self), seg: Seg::Key(key) }
    }

    pub(crate) fn index(&'a self, index: usize) -> Path<'a> {
        Path { parent: Some(self), seg: Seg::Index(index) }
    }

    /// Renders the path, e.g. `targets[0].blocks["a b"].next`; the root alone is `$`.
    pub(crate) fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            segs.push(p.seg);
            at = p.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            // Writing to a String cannot fail.
            let _ = match seg {
                Seg::Root => Ok(()),
                Seg::Index(i) => write!(out, "[{i}]"),
                Seg::Key(k) if is_plain(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                    Ok(())
                }
                Seg::Key(k) => write!(out, "[{k:?}]"),
            };
        }
        if out.is_empty() {
            out.push('$');
        }
        out
    }

    pub(crate) fn type_err(&self, expected: &'static str, found: &super::Json) -> LoadError {
        LoadError::Type { path: self.render(), expected, found: found.type_name() }
    }

    pub(crate) fn invalid(&self, reason: &'static str) -> LoadError {
        LoadError::Invalid { path: self.render(), reason }
    }

    pub(crate) fn missing(&self, key: &'static str) -> LoadError {
        LoadError::Missing { path: self.render(), key }
    }
}

fn is_plain(key: &str) -> bool {
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
}
