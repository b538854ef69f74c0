//! gobo's figures for the comparison table: each workload timed in-process through the same
//! library calls the criterion benches use. A workload whose gobo side does not exist yet is
//! reported as [`Outcome::Unavailable`] with the reason, never guessed.

use std::time::{Duration, Instant};

use crate::suite::{Mode, Suite, Workload};

/// One measured figure ("higher is better", in `unit`).
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub value: f64,
    pub unit: String,
    pub median_ms: f64,
    pub runs: usize,
}

/// A figure, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Figure(Figure),
    Unavailable(String),
}

/// Median of `runs` timings of `f` after one untimed warm-up call.
pub fn median_ms(runs: usize, mut f: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    f()?;
    let mut times: Vec<Duration> = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed());
    }
    times.sort();
    let mid = times.len() / 2;
    let ms = if times.len() % 2 == 1 {
        times[mid].as_secs_f64() * 1e3
    } else {
        (times[mid - 1] + times[mid]).as_secs_f64() * 1e3 / 2.0
    };
    Ok(ms)
}

/// Turns a median time for `work` units into a figure in `unit`.
pub fn figure(unit: &str, work: f64, median_ms: f64, runs: usize) -> Figure {
    let value = if median_ms > 0.0 { work / (median_ms / 1e3) } else { f64::INFINITY };
    Figure { value, unit: unit.to_string(), median_ms, runs }
}

/// gobo's figure for a Scratch workload.
pub fn scratch(_suite: &Suite, w: &Workload, runs: usize) -> Outcome {
    let bytes = match std::fs::read(&w.path) {
        Ok(b) => b,
        Err(e) => return Outcome::Unavailable(format!("cannot read {}: {e}", w.path.display())),
    };
    match w.mode {
        Mode::Load => {
            let timed = median_ms(runs, || {
                gobo::scratch::project::load(&bytes).map(drop).map_err(|e| e.to_string())
            });
            match timed {
                Ok(ms) => Outcome::Figure(figure(&w.unit, 1.0, ms, runs)),
                Err(e) => Outcome::Unavailable(format!("load failed: {e}")),
            }
        }
        Mode::UntilIdle { .. } | Mode::Frames { .. } => {
            Outcome::Unavailable("not available yet: the Scratch VM is not on main".into())
        }
    }
}
