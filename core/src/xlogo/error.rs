//! Typed errors of the XLogo subsystem: a task that cannot be loaded (with the JSON path of the
//! offending value) and code that cannot be run (a Python format error with line and column, or
//! an invalid program with the path of the offending block).

use alloc::string::String;
use core::fmt;

/// Why a task document was rejected, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskError {
    /// JSON path of the offending value (`$.tiles[3].allowed`), or `$` for the document.
    pub path: String,
    /// What is wrong with it.
    pub kind: TaskErrorKind,
}

/// The kinds of task errors.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskErrorKind {
    /// The bytes are not JSON (1-based line and column of the JSON parser).
    Syntax { line: usize, column: usize, message: String },
    /// A required field is absent.
    Missing,
    /// The value has the wrong JSON type.
    Type { expected: &'static str },
    /// The value is well-typed but outside what the reference accepts.
    Value { reason: String },
    /// A coordinate or size exceeds gobo's limits (see [`crate::xlogo::MAX_GRID_SIDE`]).
    TooLarge { limit: i64 },
    /// The task text is longer than [`crate::xlogo::MAX_TASK_BYTES`].
    TooLong { bytes: usize, limit: usize },
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TaskErrorKind::Syntax { line, column, message } => {
                write!(f, "task is not JSON (line {line}, column {column}): {message}")
            }
            TaskErrorKind::Missing => write!(f, "{}: required field is missing", self.path),
            TaskErrorKind::Type { expected } => write!(f, "{}: expected {expected}", self.path),
            TaskErrorKind::Value { reason } => write!(f, "{}: {reason}", self.path),
            TaskErrorKind::TooLong { bytes, limit } => {
                write!(f, "task is {bytes} bytes, more than the limit of {limit}")
            }
            TaskErrorKind::TooLarge { limit } => {
                write!(f, "{}: exceeds the limit of {limit}", self.path)
            }
        }
    }
}

impl core::error::Error for TaskError {}

/// Why code cannot be run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CodeError {
    /// Python-style text outside the grammar (verdict `FORMAT_ERROR`); 1-based line and byte column.
    Format { line: usize, column: usize, message: String },
    /// A program the reference rejects with an assertion (verdict `INVALID_CODE`): unknown block,
    /// extra keys, `times` outside 1..12, a pen colour outside the six. `path` is a JSON path
    /// (`$.run[2].times`) for JSON code and `line L` for Python code.
    Invalid { path: String, message: String },
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeError::Format { line, column, message } => {
                write!(f, "line {line}, column {column}: {message}")
            }
            CodeError::Invalid { path, message } => write!(f, "{path}: {message}"),
        }
    }
}

impl core::error::Error for CodeError {}
