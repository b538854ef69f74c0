//! `xlogo resample`: emulator-driven curriculum weighting (XLogoMiniProg §4.2, Eq. 1). Each
//! training task i gets `w_i = (1/|D|) · (1 + β · failed_i)`, normalised to sum 1, and the next
//! epoch's training set is drawn from that categorical distribution with replacement by a
//! seeded generator. Reading verdict files and writing the drawn rows is the host's part.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::scratch::vm::random::Mulberry32;

/// Largest accepted sample size (draws), so a typo cannot exhaust memory.
pub const MAX_DRAWS: usize = 10_000_000;

/// Parameters of one resampling.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResampleConfig {
    /// β ≥ 0: how much more a failed task weighs (the paper uses 1).
    pub beta: f64,
    /// Draws; `None` = as many as there are rows (the recommended |D|).
    pub size: Option<usize>,
    /// Seed of the generator (mulberry32).
    pub seed: u32,
}

impl Default for ResampleConfig {
    fn default() -> Self {
        ResampleConfig { beta: 1.0, size: None, seed: 1 }
    }
}

/// Why resampling was refused.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ResampleError {
    /// No rows to sample from.
    Empty,
    /// β is negative, infinite or NaN.
    Beta(f64),
    /// More draws than [`MAX_DRAWS`].
    TooManyDraws(usize),
}

impl fmt::Display for ResampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResampleError::Empty => write!(f, "no rows to resample"),
            ResampleError::Beta(b) => write!(f, "beta {b} is not a finite number >= 0"),
            ResampleError::TooManyDraws(n) => {
                write!(f, "{n} draws exceed the limit of {MAX_DRAWS}")
            }
        }
    }
}

impl core::error::Error for ResampleError {}

/// The outcome: the normalised weights of a passed and a failed row, and the draws.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resample {
    /// Rows sampled from.
    pub rows: usize,
    /// Rows whose verdict is not a success.
    pub failed: usize,
    /// β.
    pub beta: f64,
    /// Seed.
    pub seed: u32,
    /// Draws.
    pub size: usize,
    /// Normalised weight of a row that passed.
    pub weight_pass: f64,
    /// Normalised weight of a row that failed.
    pub weight_fail: f64,
    /// Expected share of failed rows among the draws (`failed · weight_fail`).
    pub expected_fail_share: f64,
    /// Draws of failed rows.
    pub drawn_failed: usize,
    /// Row index of each draw, in draw order.
    pub draws: Vec<usize>,
}

impl Resample {
    /// The JSON `gobo xlogo resample --json` prints: every field but `draws`, which becomes
    /// `sample`, the drawn rows' ids (`ids[i]` is row i's id; `null` where missing).
    pub fn to_json(&self, ids: &[Value]) -> Value {
        let mut doc = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Some(obj) = doc.as_object_mut() {
            obj.remove("draws");
            let sample =
                self.draws.iter().map(|i| ids.get(*i).cloned().unwrap_or(Value::Null)).collect();
            obj.insert("sample".into(), Value::Array(sample));
        }
        doc
    }
}

/// Whether a verdict row counts as a failure for the curriculum (anything but `success: true`
/// with `error_type: "OK"`).
pub fn row_failed(row: &Value) -> bool {
    !(row.get("success") == Some(&Value::Bool(true))
        && row.get("error_type").and_then(Value::as_str) == Some("OK"))
}

/// Draws the next training set from rows with the given failure flags.
pub fn resample(failed: &[bool], cfg: &ResampleConfig) -> Result<Resample, ResampleError> {
    let rows = failed.len();
    if rows == 0 {
        return Err(ResampleError::Empty);
    }
    if !cfg.beta.is_finite() || cfg.beta < 0.0 {
        return Err(ResampleError::Beta(cfg.beta));
    }
    let size = cfg.size.unwrap_or(rows);
    if size > MAX_DRAWS {
        return Err(ResampleError::TooManyDraws(size));
    }
    let n_failed = failed.iter().filter(|f| **f).count();
    // Unnormalised weights 1 and 1 + β (the common factor 1/|D| cancels).
    let total = rows as f64 + cfg.beta * n_failed as f64;
    let mut prefix = vec![0.0f64; rows];
    let mut acc = 0.0;
    for (p, f) in prefix.iter_mut().zip(failed) {
        acc += if *f { 1.0 + cfg.beta } else { 1.0 };
        *p = acc;
    }
    let mut rng = Mulberry32::new(cfg.seed);
    let mut draws = Vec::with_capacity(size);
    let mut drawn_failed = 0;
    for _ in 0..size {
        let t = rng.next_f64() * total;
        // The first row whose cumulative weight exceeds t.
        let i = prefix.partition_point(|p| *p <= t).min(rows - 1);
        drawn_failed += usize::from(failed.get(i).copied().unwrap_or(false));
        draws.push(i);
    }
    let weight_pass = 1.0 / total;
    let weight_fail = (1.0 + cfg.beta) / total;
    Ok(Resample {
        rows,
        failed: n_failed,
        beta: cfg.beta,
        seed: cfg.seed,
        size,
        weight_pass,
        weight_fail,
        expected_fail_share: n_failed as f64 * weight_fail,
        drawn_failed,
        draws,
    })
}
