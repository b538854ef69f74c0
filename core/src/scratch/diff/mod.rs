//! Trace comparison: the first divergent frame and field of two per-frame JSON-lines traces (the
//! refvm schema, `docs/trace.md`), each signal's discrepancy, and a drift score in [0, 1].
//!
//! The exact definitions are in `docs/trace-diff.md`. Nothing here runs a project: it reads
//! two traces, so a gobo trace can be compared with the reference VM's or with another gobo run.

mod deep;
mod parse;
mod signals;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde_json::json;

pub use parse::TraceError;
pub use signals::Signal;

/// What to compare.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// The signals scored, and (when `restrict_first` is set) searched for the first divergence.
    pub signals: Vec<Signal>,
    /// Look for the first divergence only in the chosen signals' fields instead of whole frames.
    pub restrict_first: bool,
    /// Two numbers closer than this are equal (0: exact).
    pub tolerance: f64,
    /// Score only every `every`-th frame number (`f % every == 0`) plus the last checkpoint;
    /// 0 or 1 scores every frame. The first divergence is searched in every frame regardless.
    pub every: u64,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            signals: Signal::ALL.to_vec(),
            restrict_first: false,
            tolerance: 0.0,
            every: 0,
        }
    }
}

/// Where two traces first differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Frame number (`f`).
    pub frame: u64,
    /// Field path inside the frame, e.g. `sprites[Cat#0].x` or `globals.vars.score`.
    pub path: String,
    /// The value in trace A (compact JSON; `(absent)` when missing).
    pub a: String,
    /// The value in trace B.
    pub b: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame {}: {}: A = {}, B = {}", self.frame, self.path, self.a, self.b)
    }
}

/// One signal's score.
#[derive(Debug, Clone, PartialEq)]
pub struct SignalScore {
    pub signal: Signal,
    /// Mean discrepancy over checkpoints, in [0, 1].
    pub discrepancy: f64,
    /// Checkpoints where the signal differs at all.
    pub frames_differing: usize,
    /// The first checkpoint where it differs.
    pub first_frame: Option<u64>,
}

/// The comparison of two traces.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffReport {
    pub frames_a: usize,
    pub frames_b: usize,
    /// Checkpoints: frame numbers present in either trace.
    pub checkpoints: usize,
    pub first: Option<Divergence>,
    pub signals: Vec<SignalScore>,
    /// Mean of the signals' discrepancies (0 = identical, 1 = different everywhere).
    pub drift: f64,
}

impl DiffReport {
    /// True when no field differs.
    pub fn identical(&self) -> bool {
        self.first.is_none() && self.frames_a == self.frames_b
    }

    /// The report object of `gobo diff-trace --json` and `POST /v1/traces/diff`
    /// (`docs/trace-diff.md`).
    pub fn to_json(&self) -> serde_json::Value {
        let signals: serde_json::Map<String, serde_json::Value> = self
            .signals
            .iter()
            .map(|s| {
                let v = json!({
                    "discrepancy": s.discrepancy,
                    "frames_differing": s.frames_differing,
                    "first_frame": s.first_frame,
                });
                (String::from(s.signal.name()), v)
            })
            .collect();
        json!({
            "identical": self.identical(),
            "frames_a": self.frames_a,
            "frames_b": self.frames_b,
            "checkpoints": self.checkpoints,
            "first_divergence": self.first.as_ref().map(|d| json!({
                "frame": d.frame, "path": d.path, "a": d.a, "b": d.b,
            })),
            "signals": signals,
            "drift": self.drift,
        })
    }
}

/// Compares trace `a` with trace `b` (JSON-lines text).
pub fn diff_traces(a: &str, b: &str, opts: &DiffOptions) -> Result<DiffReport, DiffError> {
    let ta = parse::parse_trace(a).map_err(|e| DiffError { trace: 'A', error: e })?;
    let tb = parse::parse_trace(b).map_err(|e| DiffError { trace: 'B', error: e })?;
    let frames = parse::align(&ta, &tb);

    let mut first = None;
    for (f, fa, fb) in &frames {
        let found = match (fa, fb) {
            (Some(x), Some(y)) => {
                if opts.restrict_first {
                    opts.signals.iter().find_map(|s| s.first_difference(x, y, opts.tolerance))
                } else {
                    deep::first_difference(x, y, opts.tolerance)
                }
            }
            (Some(_), None) => Some(deep::missing_frame(true)),
            (None, Some(_)) => Some(deep::missing_frame(false)),
            (None, None) => None,
        };
        if let Some((path, va, vb)) = found {
            first = Some(Divergence { frame: *f, path, a: va, b: vb });
            break;
        }
    }

    let last = frames.last().map(|(f, _, _)| *f);
    let scored: Vec<_> = frames
        .iter()
        .filter(|(f, _, _)| opts.every <= 1 || f % opts.every == 0 || Some(*f) == last)
        .collect();
    let mut scores = Vec::with_capacity(opts.signals.len());
    for &signal in &opts.signals {
        let mut sum = 0.0;
        let mut differing = 0;
        let mut first_frame = None;
        for (f, fa, fb) in scored.iter().copied() {
            let d = match (fa, fb) {
                (Some(x), Some(y)) => signal.discrepancy(x, y, opts.tolerance),
                _ => 1.0,
            };
            if d > 0.0 {
                differing += 1;
                first_frame.get_or_insert(*f);
            }
            sum += d;
        }
        let discrepancy = if scored.is_empty() { 0.0 } else { sum / scored.len() as f64 };
        scores.push(SignalScore { signal, discrepancy, frames_differing: differing, first_frame });
    }
    let drift = if scores.is_empty() {
        0.0
    } else {
        scores.iter().map(|s| s.discrepancy).sum::<f64>() / scores.len() as f64
    };
    Ok(DiffReport {
        frames_a: ta.frames.len(),
        frames_b: tb.frames.len(),
        checkpoints: scored.len(),
        first,
        signals: scores,
        drift,
    })
}

/// A trace that could not be read, with which one (`A` or `B`).
#[derive(Debug, Clone, PartialEq)]
pub struct DiffError {
    pub trace: char,
    pub error: TraceError,
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trace {}: {}", self.trace, self.error)
    }
}

impl core::error::Error for DiffError {}
