//! Suite reports: one run's `{success, passed_tests, total_tests, partial_success_rate,
//! details[]}`, and reruns under several seeds with each case's pass rate and stability.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::run::CaseVerdict;

/// The report of one run of a suite.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteReport {
    pub cases: Vec<CaseVerdict>,
}

impl SuiteReport {
    pub fn passed_tests(&self) -> usize {
        self.cases.iter().filter(|c| c.passed).count()
    }

    pub fn total_tests(&self) -> usize {
        self.cases.len()
    }

    pub fn success(&self) -> bool {
        self.passed_tests() == self.total_tests()
    }

    /// Passed over total (0 for an empty suite).
    pub fn partial_success_rate(&self) -> f64 {
        if self.cases.is_empty() {
            0.0
        } else {
            self.passed_tests() as f64 / self.total_tests() as f64
        }
    }

    pub fn to_json(&self, fps: u32) -> Json {
        let details: Vec<Json> = self
            .cases
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "passed": c.passed,
                    "reason": c.reason,
                    "frames": c.frames,
                    "seconds": c.frames as f64 / f64::from(fps),
                    "block_ops": c.block_ops,
                })
            })
            .collect();
        json!({
            "success": self.success(),
            "passed_tests": self.passed_tests(),
            "total_tests": self.total_tests(),
            "partial_success_rate": self.partial_success_rate(),
            "details": details,
        })
    }
}

/// Thresholds of rerun-stabilised verdicts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stability {
    /// A case passes when its pass rate is at least this.
    pub theta_pass: f64,
    /// A case is a stable failure when its pass rate is at most this.
    pub theta_fail: f64,
}

impl Default for Stability {
    fn default() -> Self {
        Stability { theta_pass: 0.9, theta_fail: 0.1 }
    }
}

/// One case over several seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRates {
    pub name: String,
    pub runs: usize,
    pub passes: usize,
    pub pass_rate: f64,
    /// Pass rate ≥ θ_pass.
    pub passed: bool,
    /// Pass rate ≥ θ_pass or ≤ θ_fail.
    pub stable: bool,
    /// The first failure's seed and reason.
    pub first_failure: Option<(u64, String)>,
}

/// A suite rerun under several seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedReport {
    pub seeds: Vec<u64>,
    pub stability: Stability,
    pub cases: Vec<CaseRates>,
}

impl SeedReport {
    /// Aggregates per-seed reports (`runs[i]` ran under `seeds[i]`, same cases in each).
    pub fn new(seeds: &[u64], runs: &[SuiteReport], stability: Stability) -> SeedReport {
        let names: Vec<&String> =
            runs.first().map(|r| r.cases.iter().map(|c| &c.name).collect()).unwrap_or_default();
        let cases = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let mut passes = 0;
                let mut first_failure = None;
                for (seed, run) in seeds.iter().zip(runs) {
                    match run.cases.get(i) {
                        Some(c) if c.passed => passes += 1,
                        Some(c) if first_failure.is_none() => {
                            first_failure = Some((*seed, c.reason.clone().unwrap_or_default()));
                        }
                        Some(_) => {}
                        None => {}
                    }
                }
                let n = runs.len();
                let pass_rate = if n == 0 { 0.0 } else { passes as f64 / n as f64 };
                CaseRates {
                    name: (*name).clone(),
                    runs: n,
                    passes,
                    pass_rate,
                    passed: pass_rate >= stability.theta_pass,
                    stable: pass_rate >= stability.theta_pass || pass_rate <= stability.theta_fail,
                    first_failure,
                }
            })
            .collect();
        SeedReport { seeds: seeds.to_vec(), stability, cases }
    }

    pub fn passed_tests(&self) -> usize {
        self.cases.iter().filter(|c| c.passed).count()
    }

    pub fn success(&self) -> bool {
        self.passed_tests() == self.cases.len()
    }

    pub fn to_json(&self) -> Json {
        let total = self.cases.len();
        let details: Vec<Json> = self
            .cases
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "passed": c.passed,
                    "pass_rate": c.pass_rate,
                    "stable": c.stable,
                    "runs": c.runs,
                    "passes": c.passes,
                    "first_failure": c.first_failure.as_ref().map(|(s, r)| json!({"seed": s, "reason": r})),
                })
            })
            .collect();
        json!({
            "success": self.success(),
            "passed_tests": self.passed_tests(),
            "total_tests": total,
            "partial_success_rate": if total == 0 { 0.0 } else { self.passed_tests() as f64 / total as f64 },
            "seeds": self.seeds,
            "theta_pass": self.stability.theta_pass,
            "theta_fail": self.stability.theta_fail,
            "details": details,
        })
    }
}
