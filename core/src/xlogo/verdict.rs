//! The verdict: error class plus everything the oracle rows report (final turtle, trace, drawn
//! unit segments, pen, action and block counts), and its JSON encoding with the oracle's field
//! names (`error_type`, `success`, `final_turtle`, `trace_xy`, `drawn_lines`, ...).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::ast::{BlockCounts, PenColor};
use super::emulator::{Crash, CrashKind, Emulator, Outcome};
use super::error::CodeError;
use super::task::Dir;
use super::world::{edge_color, World};

/// The verdict classes (the oracle's `error_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorType {
    Ok,
    GoalFail,
    ConstraintFail,
    GoalAndConstraintFail,
    CrashWall,
    CrashForbiddenArea,
    CrashOutOfWorld,
    CrashGridNotExist,
    CrashExceedMaxCalls,
    /// A program the reference rejects (unknown block, `times` outside 1..12, ...).
    InvalidCode,
    /// Python-style text outside the grammar.
    FormatError,
}

impl ErrorType {
    /// The oracle's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Ok => "OK",
            ErrorType::GoalFail => "GOAL_FAIL",
            ErrorType::ConstraintFail => "CONSTRAINT_FAIL",
            ErrorType::GoalAndConstraintFail => "GOAL_AND_CONSTRAINT_FAIL",
            ErrorType::CrashWall => "CRASH_WALL",
            ErrorType::CrashForbiddenArea => "CRASH_FORBIDDEN_AREA",
            ErrorType::CrashOutOfWorld => "CRASH_OUT_OF_WORLD",
            ErrorType::CrashGridNotExist => "CRASH_GRID_NOT_EXIST",
            ErrorType::CrashExceedMaxCalls => "CRASH_EXCEED_MAX_CALLS",
            ErrorType::InvalidCode => "INVALID_CODE",
            ErrorType::FormatError => "FORMAT_ERROR",
        }
    }

    /// Whether the program ran to the end without crashing (the benchmark's "no crash").
    pub fn is_crash(self) -> bool {
        matches!(
            self,
            ErrorType::CrashWall
                | ErrorType::CrashForbiddenArea
                | ErrorType::CrashOutOfWorld
                | ErrorType::CrashGridNotExist
                | ErrorType::CrashExceedMaxCalls
        )
    }
}

/// A drawn unit segment, endpoints ordered so that (y1, x1) < (y2, x2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnLine {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
    /// Last colour drawn over it.
    pub color: PenColor,
}

/// What a run that got to execute reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// Final x, y, heading.
    pub final_turtle: (i32, i32, Dir),
    /// Every position, start first.
    pub trace: Vec<(i32, i32)>,
    /// Drawn unit segments sorted by (y1, x1, y2, x2).
    pub drawn_lines: Vec<DrawnLine>,
    /// Last `setpc` value.
    pub pen_color: Option<PenColor>,
    /// Actions executed.
    pub n_actions: u32,
    /// Blocks per kind.
    pub block_cnt: BlockCounts,
    /// The crash, if any.
    pub crash: Option<Crash>,
    /// `goal_ok` (None after a crash).
    pub goal_ok: Option<bool>,
    /// `cons_ok` (None after a crash).
    pub cons_ok: Option<bool>,
}

/// The full verdict of one evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The class.
    pub error_type: ErrorType,
    /// Why the code could not run (for `INVALID_CODE` / `FORMAT_ERROR`).
    pub error: Option<String>,
    /// The run (absent when the code could not run).
    pub run: Option<RunReport>,
}

impl Verdict {
    /// The verdict for code that cannot run.
    pub fn code_error(err: &CodeError) -> Verdict {
        let error_type = match err {
            CodeError::Format { .. } => ErrorType::FormatError,
            CodeError::Invalid { .. } => ErrorType::InvalidCode,
        };
        Verdict { error_type, error: Some(err.to_string()), run: None }
    }

    /// The verdict of an evaluation, with the trace and drawing left in `emulator`.
    pub fn from_run(world: &World, outcome: &Outcome, emulator: &Emulator) -> Verdict {
        let s = outcome.state;
        let run = RunReport {
            final_turtle: (s.x, s.y, s.dir),
            trace: emulator.trace().to_vec(),
            drawn_lines: drawn_lines(world, emulator.drawn_edges()),
            pen_color: s.pen,
            n_actions: s.n_actions,
            block_cnt: outcome.counts,
            crash: s.crash,
            goal_ok: outcome.goal_ok,
            cons_ok: outcome.cons_ok,
        };
        Verdict { error_type: outcome.error_type(), error: None, run: Some(run) }
    }

    /// Success: no crash, goal and constraints met.
    pub fn success(&self) -> bool {
        self.error_type == ErrorType::Ok
    }

    /// The oracle-compatible JSON object (without `id`).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("error_type".to_string(), Value::from(self.error_type.as_str()));
        o.insert("success".to_string(), Value::from(self.success()));
        if let Some(e) = &self.error {
            o.insert("error".to_string(), Value::from(e.as_str()));
        }
        match &self.run {
            Some(run) => run.write_json(&mut o),
            // As in the oracle: code that cannot run has no result.
            None => {
                o.insert("result".to_string(), Value::Null);
            }
        }
        Value::Object(o)
    }
}

/// Drawn edges in (y1, x1, y2, x2) order: cells row-major, the right edge before the down edge.
pub(crate) fn drawn_lines(world: &World, edges: &[u8]) -> Vec<DrawnLine> {
    let mut out = Vec::new();
    for (i, code) in edges.iter().enumerate() {
        let Some(color) = edge_color(*code) else { continue };
        let cell = (i / 2) as i32;
        let (x, y) = (cell % world.cols.max(1), cell / world.cols.max(1));
        let (x2, y2) = if i % 2 == 0 { (x + 1, y) } else { (x, y + 1) };
        out.push(DrawnLine { x1: x, y1: y, x2, y2, color });
    }
    out
}

fn xy(x: i32, y: i32) -> Value {
    Value::Array(alloc::vec![Value::from(x), Value::from(y)])
}

impl RunReport {
    fn write_json(&self, o: &mut Map<String, Value>) {
        let (x, y, dir) = self.final_turtle;
        let mut turtle = Map::new();
        turtle.insert("x".to_string(), Value::from(x));
        turtle.insert("y".to_string(), Value::from(y));
        turtle.insert("direction".to_string(), Value::from(dir.index()));
        o.insert("final_turtle".to_string(), Value::Object(turtle));
        o.insert(
            "trace_xy".to_string(),
            Value::Array(self.trace.iter().map(|&(x, y)| xy(x, y)).collect()),
        );
        let lines = self
            .drawn_lines
            .iter()
            .map(|l| {
                let mut m = Map::new();
                m.insert("y1".to_string(), Value::from(l.y1));
                m.insert("x1".to_string(), Value::from(l.x1));
                m.insert("y2".to_string(), Value::from(l.y2));
                m.insert("x2".to_string(), Value::from(l.x2));
                m.insert("color".to_string(), Value::from(l.color.hex()));
                Value::Object(m)
            })
            .collect();
        o.insert("drawn_lines".to_string(), Value::Array(lines));
        o.insert(
            "pen_color".to_string(),
            self.pen_color.map_or(Value::Null, |c| Value::from(c.as_str())),
        );
        o.insert("n_actions".to_string(), Value::from(self.n_actions));
        let mut counts = Map::new();
        for (kind, n) in self.block_cnt.iter() {
            counts.insert(kind.as_str().to_string(), Value::from(n));
        }
        o.insert("block_cnt".to_string(), Value::Object(counts));
        o.insert("n_blocks".to_string(), Value::from(self.block_cnt.total()));
        let crashed_msg = match self.crash {
            None => Value::Null,
            Some(Crash { kind: CrashKind::ExceedMaxCalls, .. }) => Value::from("EXCEED_MAX_CALLS"),
            Some(Crash { kind, pos }) => {
                let mut m = Map::new();
                m.insert("crash_type".to_string(), Value::from(kind.as_str()));
                let (px, py) = pos.unwrap_or((x, y));
                m.insert("pos_xy".to_string(), xy(px, py));
                Value::Object(m)
            }
        };
        let mut result = Map::new();
        result.insert("crashed".to_string(), Value::from(self.crash.is_some()));
        result.insert("crashed_msg".to_string(), crashed_msg);
        let opt = |b: Option<bool>| b.map_or(Value::Null, Value::from);
        result.insert("goal_ok".to_string(), opt(self.goal_ok));
        result.insert("cons_ok".to_string(), opt(self.cons_ok));
        let err_msg = if self.crash.is_some() { "CRASHED" } else { "OK" };
        result.insert("err_msg".to_string(), Value::from(err_msg));
        o.insert("result".to_string(), Value::Object(result));
    }
}
