//! Judging a Scratch project on a test suite (`docs/test-suite.md`): once under the suite's
//! seed or rerun under several seeds, on the VM or on recorded traces, within an optional
//! frame budget; and the report every host prints or serves ([`Report::to_json`]). The runner,
//! the verdicts and the report shapes are the core's (`gobo::scratch::suite`); this module only
//! wires project files, suite text and traces held in memory to it.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use gobo::scratch::suite::{
    load_suite, run_case, run_suite, Adequacy, LoadError, ProgramRuns, SeedReport, Snapshot,
    Stability, Subject, SuiteReport, TraceSubject, VmSubject,
};
use serde_json::Value;

use crate::project::{compile_files, ProjectError};
use crate::sb3::ProjectFiles;

/// One project to judge on one suite.
#[derive(Debug, Clone, Copy)]
pub struct TestJob<'a> {
    /// The project's files.
    pub project: &'a ProjectFiles,
    /// The suite text (JSON).
    pub suite: &'a str,
    /// Rerun under these seeds (`None`: once, under the suite's seed).
    pub seeds: Option<&'a [u64]>,
    /// Thresholds of a rerun's verdicts.
    pub stability: Stability,
    /// Recorded traces by case name: judge these cases on their traces instead of the VM
    /// (then only they are judged).
    pub traces: &'a BTreeMap<String, String>,
    /// Most frames the VM may run over all cases and seeds (`None`: no limit beyond each
    /// case's own timeout).
    pub max_frames: Option<u64>,
}

/// A suite's verdicts.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// One run under the suite's seed.
    Once {
        /// The verdicts.
        report: SuiteReport,
        /// The suite's frame rate (for the seconds in the JSON).
        fps: u32,
    },
    /// Reruns under several seeds.
    Seeds(SeedReport),
}

impl Report {
    /// Every case passed.
    pub fn success(&self) -> bool {
        match self {
            Report::Once { report, .. } => report.success(),
            Report::Seeds(report) => report.success(),
        }
    }

    /// The report object of `gobo test --json` and `POST /v1/tests/run`.
    pub fn to_json(&self) -> Value {
        match self {
            Report::Once { report, fps } => report.to_json(*fps),
            Report::Seeds(report) => report.to_json(),
        }
    }
}

/// Why a project could not be judged.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TestError {
    /// `project.json` is not UTF-8.
    ProjectNotUtf8,
    /// The suite does not parse, or does not fit the project.
    Suite(LoadError),
    /// A trace names a case the suite does not have.
    UnknownTraceCase(String),
    /// A trace cannot be read.
    Trace {
        /// The case it was given for.
        case: String,
        /// What is wrong.
        message: String,
    },
    /// The project cannot be compiled.
    Project(ProjectError),
    /// The run needed more frames than [`TestJob::max_frames`].
    FrameBudget {
        /// The budget.
        limit: u64,
    },
}

impl fmt::Display for TestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TestError::ProjectNotUtf8 => f.write_str("project.json is not UTF-8"),
            TestError::Suite(e) => write!(f, "{e}"),
            TestError::UnknownTraceCase(name) => {
                write!(f, "a trace names no case of the suite: '{name}'")
            }
            TestError::Trace { case, message } => write!(f, "trace of case '{case}': {message}"),
            TestError::Project(e) => write!(f, "{e}"),
            TestError::FrameBudget { limit } => {
                write!(f, "the suite needs more than the work budget of {limit} frames")
            }
        }
    }
}

impl std::error::Error for TestError {}

/// A judged project.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// The verdicts.
    pub report: Report,
    /// Warnings from compiling the project (`gobo_host::project::Compiled::warnings`).
    pub warnings: Vec<String>,
}

/// Judges `job.project` on `job.suite`.
pub fn judge(job: &TestJob<'_>) -> Result<Judged, TestError> {
    let runs = judge_runs(job)?;
    let report = match job.seeds {
        None => Report::Once {
            report: runs.reports.into_iter().next().unwrap_or(SuiteReport { cases: Vec::new() }),
            fps: runs.fps,
        },
        Some(seeds) => Report::Seeds(SeedReport::new(seeds, &runs.reports, job.stability)),
    };
    Ok(Judged { report, warnings: runs.warnings })
}

/// A suite's runs on one project, one report per seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Runs {
    /// The seeds run (the suite's own seed when the job names none).
    pub seeds: Vec<u64>,
    /// `reports[i]` ran under `seeds[i]`.
    pub reports: Vec<SuiteReport>,
    /// The suite's frame rate.
    pub fps: u32,
    /// Warnings from compiling the project.
    pub warnings: Vec<String>,
}

/// Runs `job.suite` on `job.project` under each seed of the job (or the suite's own seed),
/// keeping every seed's verdicts.
pub fn judge_runs(job: &TestJob<'_>) -> Result<Runs, TestError> {
    // A Scratch 2 project's facts come from its conversion.
    let files = crate::project::scratch3_files(job.project);
    let project =
        std::str::from_utf8(&files.project_json).map_err(|_| TestError::ProjectNotUtf8)?;
    let (suite, facts) = load_suite(job.suite, project).map_err(TestError::Suite)?;
    if let Some(name) = job.traces.keys().find(|n| !suite.cases.iter().any(|c| &c.name == *n)) {
        return Err(TestError::UnknownTraceCase(name.clone()));
    }
    let used = Cell::new(0u64);
    let limit = job.max_frames.unwrap_or(u64::MAX);
    let mut warnings = Vec::new();
    let image = if job.traces.is_empty() {
        let compiled = compile_files(job.project).map_err(TestError::Project)?;
        warnings = compiled.warnings;
        Some(compiled.image)
    } else {
        None
    };
    let run_once = |seed: u64| -> Result<SuiteReport, TestError> {
        let Some(image) = &image else {
            let mut cases = Vec::new();
            for case in &suite.cases {
                let Some(trace) = job.traces.get(&case.name) else { continue };
                let mut subject = TraceSubject::new(trace, true)
                    .map_err(|message| TestError::Trace { case: case.name.clone(), message })?;
                cases.push(run_case(case, suite.fps, &facts, &mut subject));
            }
            return Ok(SuiteReport { cases });
        };
        let cases = run_suite(&suite, &facts, seed, |seed| {
            let inner = VmSubject::new(image.clone(), suite.fps, seed)?;
            Ok(Budgeted { inner, used: &used, limit })
        });
        if used.get() > limit {
            return Err(TestError::FrameBudget { limit });
        }
        Ok(SuiteReport { cases })
    };
    let seeds = job.seeds.map_or_else(|| vec![suite.seed], <[u64]>::to_vec);
    let reports = seeds.iter().map(|&s| run_once(s)).collect::<Result<Vec<_>, _>>()?;
    Ok(Runs { seeds, reports, fps: suite.fps, warnings })
}

/// A program given to [`check_suite`].
#[derive(Debug, Clone, Copy)]
pub struct NamedProject<'a> {
    /// How the verdict names it (its path, usually).
    pub name: &'a str,
    /// Its files.
    pub files: &'a ProjectFiles,
}

/// Why [`check_suite`] could not judge a program.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckError {
    /// The program's name.
    pub program: String,
    /// What went wrong.
    pub error: TestError,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.program, self.error)
    }
}

impl std::error::Error for CheckError {}

/// Suite adequacy (`gobo suite-check`): runs `suite` on every gold and every negative under
/// `seeds` (the suite's own seed when `None`), within `max_frames` per program, and reads the
/// verdicts ([`Adequacy`]). Warnings from compiling each program come back by name.
pub fn check_suite(
    suite: &str,
    golds: &[NamedProject<'_>],
    negatives: &[NamedProject<'_>],
    seeds: Option<&[u64]>,
    max_frames: Option<u64>,
) -> Result<(Adequacy, Vec<(String, String)>), CheckError> {
    let no_traces = BTreeMap::new();
    let mut warnings = Vec::new();
    let mut run = |p: &NamedProject<'_>| -> Result<Runs, CheckError> {
        let job = TestJob {
            project: p.files,
            suite,
            seeds,
            stability: Stability::default(),
            traces: &no_traces,
            max_frames,
        };
        let runs =
            judge_runs(&job).map_err(|error| CheckError { program: p.name.to_string(), error })?;
        warnings.extend(runs.warnings.iter().map(|w| (p.name.to_string(), w.clone())));
        Ok(runs)
    };
    let gold_runs = golds.iter().map(&mut run).collect::<Result<Vec<_>, _>>()?;
    let negative_runs = negatives.iter().map(&mut run).collect::<Result<Vec<_>, _>>()?;
    let seeds = gold_runs.iter().chain(&negative_runs).map(|r| r.seeds.clone()).next();
    let adequacy = Adequacy::new(
        &seeds.unwrap_or_default(),
        &named(golds, &gold_runs),
        &named(negatives, &negative_runs),
    );
    Ok((adequacy, warnings))
}

fn named<'a>(ps: &'a [NamedProject<'_>], rs: &'a [Runs]) -> Vec<ProgramRuns<'a>> {
    ps.iter().zip(rs).map(|(p, r)| ProgramRuns { name: p.name, runs: &r.reports }).collect()
}

/// A subject that stops every case once the frames of all runs pass a shared budget; the
/// verdicts of such a run are discarded ([`TestError::FrameBudget`]), never reported.
struct Budgeted<'a, S> {
    inner: S,
    used: &'a Cell<u64>,
    limit: u64,
}

impl<S: Subject> Subject for Budgeted<'_, S> {
    fn act(&mut self, action: &gobo::scratch::suite::Action) -> Result<(), String> {
        self.inner.act(action)
    }

    fn block_ops(&self) -> u64 {
        self.inner.block_ops()
    }

    fn initial(&self) -> Option<Snapshot> {
        self.inner.initial()
    }

    fn step(&mut self, out: &mut Snapshot) -> Result<(), String> {
        let n = self.used.get() + 1;
        self.used.set(n);
        if n > self.limit {
            return Err(String::from("work budget exhausted"));
        }
        self.inner.step(out)
    }
}

/// Why a seed range could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedsError {
    /// The range as given.
    pub spec: String,
}

impl fmt::Display for SeedsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seeds take R or A..B (at most 100,000 seeds), got '{}'", self.spec)
    }
}

impl std::error::Error for SeedsError {}

/// Reads a seed range: `R` → 1..=R, `A..B` (or `A..=B`) → A..=B.
pub fn parse_seeds(spec: &str) -> Result<Vec<u64>, SeedsError> {
    let bad = || SeedsError { spec: spec.to_string() };
    let (a, b) = match spec.split_once("..") {
        Some((a, b)) => (
            a.trim().parse::<u64>().map_err(|_| bad())?,
            b.trim().trim_start_matches('=').parse::<u64>().map_err(|_| bad())?,
        ),
        None => (1, spec.trim().parse::<u64>().map_err(|_| bad())?),
    };
    if a > b || b - a >= 100_000 {
        return Err(bad());
    }
    Ok((a..=b).collect())
}

#[cfg(test)]
mod tests {
    use super::parse_seeds;

    #[test]
    fn seeds_specs() {
        assert_eq!(parse_seeds("3"), Ok(vec![1, 2, 3]));
        assert_eq!(parse_seeds("5..7"), Ok(vec![5, 6, 7]));
        assert_eq!(parse_seeds("5..=6"), Ok(vec![5, 6]));
        assert!(parse_seeds("7..5").is_err());
        assert!(parse_seeds("x").is_err());
    }
}
