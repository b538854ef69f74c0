//! Reading a JSON-lines trace into its frames, keyed by frame number.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Map, Value};

/// Why a trace could not be read; `line` counts from 1.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TraceError {
    /// The line is not JSON.
    InvalidJson { line: usize, message: String },
    /// The line is JSON but not an object.
    NotAnObject { line: usize },
    /// A frame line without a non-negative integer `f`.
    MissingFrameNumber { line: usize },
    /// Two lines claim the same frame number.
    DuplicateFrame { line: usize, frame: u64 },
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::InvalidJson { line, message } => {
                write!(f, "line {line}: not JSON ({message})")
            }
            TraceError::NotAnObject { line } => write!(f, "line {line}: not a JSON object"),
            TraceError::MissingFrameNumber { line } => {
                write!(f, "line {line}: a frame needs a non-negative integer \"f\"")
            }
            TraceError::DuplicateFrame { line, frame } => {
                write!(f, "line {line}: frame {frame} appears twice")
            }
        }
    }
}

impl core::error::Error for TraceError {}

/// A parsed trace: its frame objects in file order (meta and end lines are set aside).
#[derive(Debug)]
pub(super) struct Trace {
    pub frames: Vec<(u64, Map<String, Value>)>,
}

struct Line {
    frame: u64,
    line: usize,
    map: Map<String, Value>,
}

pub(super) fn parse_trace(text: &str) -> Result<Trace, TraceError> {
    let mut lines: Vec<Line> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line)
            .map_err(|e| TraceError::InvalidJson { line: line_no, message: e.to_string() })?;
        let Value::Object(map) = value else {
            return Err(TraceError::NotAnObject { line: line_no });
        };
        if map.contains_key("meta") || map.contains_key("end") {
            continue;
        }
        let frame = map
            .get("f")
            .and_then(Value::as_u64)
            .ok_or(TraceError::MissingFrameNumber { line: line_no })?;
        lines.push(Line { frame, line: line_no, map });
    }
    // Stable: of two lines with one frame number, the later one is reported.
    lines.sort_by_key(|l| l.frame);
    if let Some(w) = lines.windows(2).find(|w| w[0].frame == w[1].frame) {
        return Err(TraceError::DuplicateFrame { line: w[1].line, frame: w[1].frame });
    }
    Ok(Trace { frames: lines.into_iter().map(|l| (l.frame, l.map)).collect() })
}

/// Frames of both traces side by side, by frame number, over the union of frame numbers.
pub(super) type Aligned<'a> =
    Vec<(u64, Option<&'a Map<String, Value>>, Option<&'a Map<String, Value>>)>;

pub(super) fn align<'a>(a: &'a Trace, b: &'a Trace) -> Aligned<'a> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.frames.len().max(b.frames.len()));
    while i < a.frames.len() || j < b.frames.len() {
        let fa = a.frames.get(i).map(|(f, _)| *f);
        let fb = b.frames.get(j).map(|(f, _)| *f);
        match (fa, fb) {
            (Some(x), Some(y)) if x == y => {
                out.push((x, Some(&a.frames[i].1), Some(&b.frames[j].1)));
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                out.push((x, Some(&a.frames[i].1), None));
                i += 1;
            }
            (Some(x), None) => {
                out.push((x, Some(&a.frames[i].1), None));
                i += 1;
            }
            (_, Some(y)) => {
                out.push((y, None, Some(&b.frames[j].1)));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}
