//! Suite adequacy (`gobo suite-check`, `docs/test-suite.md` "Adequacy"): from a suite's runs on
//! reference solutions ("golds") and on known-wrong programs ("negatives") under several seeds,
//! whether the suite passes every gold on every seed and fails every negative on every seed,
//! and which cases do the separating. Running the suite is the caller's (the host's); this
//! module only reads the verdicts.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::report::SuiteReport;

/// One program's runs: `runs[i]` is the suite's report under the i-th seed.
#[derive(Debug, Clone, Copy)]
pub struct ProgramRuns<'a> {
    /// How the program is named in the verdict (its path, usually).
    pub name: &'a str,
    pub runs: &'a [SuiteReport],
}

/// The verdict of `gobo suite-check`: the one JSON shape every host prints or serves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Adequacy {
    /// Every gold passes every case on every seed, and every negative is caught.
    pub adequate: bool,
    pub seeds: Vec<u64>,
    /// Golds passing every case on every seed.
    pub golds_passed: usize,
    pub golds_total: usize,
    /// Negatives failing some case on every seed.
    pub negatives_caught: usize,
    pub negatives_total: usize,
    /// Per case: how it does on the golds and which negatives it catches.
    pub cases: Vec<CaseAdequacy>,
    pub golds: Vec<GoldVerdict>,
    pub negatives: Vec<NegativeVerdict>,
}

/// One case across every program.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseAdequacy {
    pub name: String,
    /// The case passes on every gold under every seed.
    pub passes_golds: bool,
    /// Golds it fails on (under some seed): a defect of the case or of the gold.
    pub fails_golds: Vec<String>,
    /// Negatives it fails on under every seed.
    pub catches: Vec<String>,
    /// Negatives it fails on under some seeds but not all (an unreliable catch).
    pub flaky_on: Vec<String>,
    /// Passes every gold and catches at least one negative.
    pub separating: bool,
}

/// A case that failed, under which seed, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    pub case: String,
    pub seed: u64,
    pub reason: String,
}

/// One gold solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoldVerdict {
    pub name: String,
    /// Every case passed under every seed.
    pub passed: bool,
    /// The first failure of each failing case.
    pub failures: Vec<Failure>,
}

/// One known-wrong program.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NegativeVerdict {
    pub name: String,
    /// Under every seed some case failed.
    pub caught: bool,
    /// Seeds under which some case failed.
    pub caught_seeds: usize,
    /// Cases failing under every seed.
    pub by: Vec<String>,
    /// The first failure (the reason a reader sees first), when any case failed.
    pub first_failure: Option<Failure>,
}

/// Did case `i` pass in `run`? A missing verdict counts as a failure.
fn passed(run: &SuiteReport, i: usize) -> bool {
    run.cases.get(i).is_some_and(|c| c.passed)
}

fn failure(run: &SuiteReport, i: usize, seed: u64) -> Failure {
    let (case, reason) = match run.cases.get(i) {
        Some(c) => (c.name.clone(), c.reason.clone().unwrap_or_default()),
        None => (String::new(), String::from("no verdict")),
    };
    Failure { case, seed, reason }
}

impl Adequacy {
    /// Reads the verdicts. Every program ran the same suite under `seeds` (same cases in the
    /// same order); case names come from the first run found.
    pub fn new(
        seeds: &[u64],
        golds: &[ProgramRuns<'_>],
        negatives: &[ProgramRuns<'_>],
    ) -> Adequacy {
        let names: Vec<String> = golds
            .iter()
            .chain(negatives)
            .flat_map(|p| p.runs.first())
            .map(|r| r.cases.iter().map(|c| c.name.clone()).collect())
            .next()
            .unwrap_or_default();
        let seed_of = |k: usize| seeds.get(k).copied().unwrap_or(k as u64);
        let gold_verdicts: Vec<GoldVerdict> = golds
            .iter()
            .map(|g| {
                let mut failures = Vec::new();
                for i in 0..names.len() {
                    if let Some(k) = g.runs.iter().position(|r| !passed(r, i)) {
                        failures.push(failure(&g.runs[k], i, seed_of(k)));
                    }
                }
                let passed = failures.is_empty() && !g.runs.is_empty();
                GoldVerdict { name: String::from(g.name), passed, failures }
            })
            .collect();
        let fails_always = |p: &ProgramRuns<'_>, i: usize| {
            !p.runs.is_empty() && p.runs.iter().all(|r| !passed(r, i))
        };
        let fails_sometimes = |p: &ProgramRuns<'_>, i: usize| p.runs.iter().any(|r| !passed(r, i));
        let negative_verdicts: Vec<NegativeVerdict> = negatives
            .iter()
            .map(|n| {
                let failing_run = |r: &SuiteReport| (0..names.len()).any(|i| !passed(r, i));
                let caught_seeds = n.runs.iter().filter(|r| failing_run(r)).count();
                let by = (0..names.len())
                    .filter(|&i| fails_always(n, i))
                    .map(|i| names[i].clone())
                    .collect();
                let first_failure = n.runs.iter().enumerate().find_map(|(k, r)| {
                    (0..names.len()).find(|&i| !passed(r, i)).map(|i| failure(r, i, seed_of(k)))
                });
                NegativeVerdict {
                    name: String::from(n.name),
                    caught: !n.runs.is_empty() && caught_seeds == n.runs.len(),
                    caught_seeds,
                    by,
                    first_failure,
                }
            })
            .collect();
        let cases = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let fails_golds: Vec<String> = golds
                    .iter()
                    .filter(|g| fails_sometimes(g, i))
                    .map(|g| String::from(g.name))
                    .collect();
                let catches: Vec<String> = negatives
                    .iter()
                    .filter(|n| fails_always(n, i))
                    .map(|n| String::from(n.name))
                    .collect();
                let flaky_on = negatives
                    .iter()
                    .filter(|n| fails_sometimes(n, i) && !fails_always(n, i))
                    .map(|n| String::from(n.name))
                    .collect();
                let passes_golds = fails_golds.is_empty();
                CaseAdequacy {
                    name: name.clone(),
                    passes_golds,
                    separating: passes_golds && !catches.is_empty(),
                    fails_golds,
                    catches,
                    flaky_on,
                }
            })
            .collect();
        let golds_passed = gold_verdicts.iter().filter(|g| g.passed).count();
        let negatives_caught = negative_verdicts.iter().filter(|n| n.caught).count();
        Adequacy {
            adequate: golds_passed == golds.len() && negatives_caught == negatives.len(),
            seeds: seeds.to_vec(),
            golds_passed,
            golds_total: golds.len(),
            negatives_caught,
            negatives_total: negatives.len(),
            cases,
            golds: gold_verdicts,
            negatives: negative_verdicts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::suite::CaseVerdict;
    use alloc::vec;

    fn run(verdicts: &[(&str, bool)]) -> SuiteReport {
        SuiteReport {
            cases: verdicts
                .iter()
                .map(|(n, ok)| CaseVerdict {
                    name: String::from(*n),
                    passed: *ok,
                    reason: (!ok).then(|| String::from("because")),
                    frames: 1,
                    block_ops: 0,
                })
                .collect(),
        }
    }

    #[test]
    fn separating_flaky_and_gold_failures() {
        let gold = [run(&[("a", true), ("b", true)]), run(&[("a", true), ("b", true)])];
        let neg1 = [run(&[("a", false), ("b", true)]), run(&[("a", false), ("b", false)])];
        let neg2 = [run(&[("a", true), ("b", false)]), run(&[("a", true), ("b", true)])];
        let golds = [ProgramRuns { name: "g", runs: &gold }];
        let negs =
            [ProgramRuns { name: "n1", runs: &neg1 }, ProgramRuns { name: "n2", runs: &neg2 }];
        let a = Adequacy::new(&[1, 2], &golds, &negs);
        assert!(!a.adequate);
        assert_eq!((a.golds_passed, a.negatives_caught), (1, 1));
        assert_eq!(a.cases[0].catches, vec![String::from("n1")]);
        assert!(a.cases[0].separating);
        assert_eq!(a.cases[1].flaky_on, vec![String::from("n1"), String::from("n2")]);
        assert!(!a.cases[1].separating);
        assert!(!a.negatives[1].caught);
        assert_eq!(a.negatives[1].caught_seeds, 1);
        assert_eq!(a.negatives[1].first_failure.as_ref().map(|f| f.seed), Some(1));
    }

    #[test]
    fn a_failing_gold_is_inadequate_and_named() {
        let gold = [run(&[("a", true)]), run(&[("a", false)])];
        let neg = [run(&[("a", false)]), run(&[("a", false)])];
        let a = Adequacy::new(
            &[4, 5],
            &[ProgramRuns { name: "g", runs: &gold }],
            &[ProgramRuns { name: "n", runs: &neg }],
        );
        assert!(!a.adequate);
        assert_eq!(a.golds[0].failures[0].seed, 5);
        assert_eq!(a.cases[0].fails_golds, vec![String::from("g")]);
        assert!(!a.cases[0].separating);
        assert!(a.negatives[0].caught);
    }
}
