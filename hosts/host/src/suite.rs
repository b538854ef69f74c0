//! Test-suite jobs for a host (`gobo test`, its `--batch` rows, the Python `test`): one
//! (project, suite) pair with its seeds and recorded traces, judged on the VM or on the traces,
//! and the report as JSON (`docs/test-suite.md`) and as text. Files are read here; the suite
//! semantics are the core's (`gobo::scratch::suite`).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use gobo::scratch::suite::{
    load_suite, model::Suite, run_case, run_suite, Action, CaseVerdict, ProjectFacts, SeedReport,
    Snapshot, Stability, Subject, SuiteReport, TraceSubject, VmSubject,
};
use serde_json::{json, Value};

use crate::project::load_files;
use crate::sb3::{self, ProjectFiles};

/// A text and the name it is reported under in messages (its path, or a name given by the
/// caller).
#[derive(Debug, Clone)]
pub struct Named {
    /// Where the text came from.
    pub name: String,
    /// The text.
    pub text: String,
}

impl Named {
    /// Reads a UTF-8 file, named by its path.
    pub fn read(path: &Path) -> Result<Named, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Named { name: path.display().to_string(), text })
    }
}

/// One (project, suite) pair to judge.
#[derive(Debug, Clone)]
pub struct TestJob {
    /// The project's files.
    pub project: ProjectFiles,
    /// The project as named in messages.
    pub project_name: String,
    /// The suite (JSON text).
    pub suite: Named,
    /// Seeds to rerun the suite under (`None`: once, under the suite's seed).
    pub seeds: Option<Vec<u64>>,
    /// Recorded traces by case name: when any is given, only those cases are judged, on them.
    pub traces: BTreeMap<String, Named>,
    /// Pass-rate thresholds with seeds.
    pub stability: Stability,
}

/// A judged job.
#[derive(Debug, Clone)]
pub struct TestOutcome {
    /// Every case passed.
    pub success: bool,
    /// The report as JSON (`gobo test --json`).
    pub json: Value,
    /// The report as text (`gobo test`).
    pub text: String,
    /// Problems that did not stop the project from loading.
    pub warnings: Vec<String>,
}

impl TestJob {
    /// A job over files on disk (the CLI's arguments, a batch row).
    pub fn read(
        project: &Path,
        suite: &Path,
        seeds: Option<&str>,
        traces: &BTreeMap<String, PathBuf>,
        stability: Stability,
    ) -> Result<TestJob, String> {
        let files = sb3::load_path(project).map_err(|e| format!("{}: {e}", project.display()))?;
        let suite = Named::read(suite)?;
        let seeds = seeds.map(parse_seeds).transpose()?;
        let mut read_traces = BTreeMap::new();
        for (case, path) in traces {
            read_traces.insert(case.clone(), Named::read(path)?);
        }
        Ok(TestJob {
            project: files,
            project_name: project.display().to_string(),
            suite,
            seeds,
            traces: read_traces,
            stability,
        })
    }

    /// The suite, validated against the project.
    pub fn load(&self) -> Result<(Suite, ProjectFacts), String> {
        let project = std::str::from_utf8(&self.project.project_json)
            .map_err(|_| format!("{}: project.json is not UTF-8", self.project_name))?;
        let (suite, facts) = load_suite(&self.suite.text, project)
            .map_err(|e| format!("{}: {e}", self.suite.name))?;
        for name in self.traces.keys() {
            if !suite.cases.iter().any(|c| &c.name == name) {
                return Err(format!("--trace names no case of the suite: '{name}'"));
            }
        }
        Ok((suite, facts))
    }
}

/// `R` → 1..=R, `A..B` → A..=B (at most 100,000 seeds).
pub fn parse_seeds(spec: &str) -> Result<Vec<u64>, String> {
    let bad = || format!("--seeds takes R or A..B, got '{spec}'");
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

/// Why a job could not be judged; every message names the input it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JudgeError {
    /// The suite cannot be read or does not fit the project (or a trace names no case).
    Suite(String),
    /// The project cannot be loaded.
    Project(String),
    /// A recorded trace cannot be read.
    Trace(String),
    /// The VM needed more frames than the budget [`judge_within`] was given; the verdicts of
    /// the cut-off run are discarded, never reported.
    FrameBudget {
        /// The budget.
        limit: u64,
    },
}

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JudgeError::Suite(m) | JudgeError::Project(m) | JudgeError::Trace(m) => f.write_str(m),
            JudgeError::FrameBudget { limit } => {
                write!(f, "the suite needs more than the work budget of {limit} frames")
            }
        }
    }
}

impl std::error::Error for JudgeError {}

/// A subject that fails every case once the frames of all runs pass a shared budget.
struct Budgeted<'a, S> {
    inner: S,
    used: &'a Cell<u64>,
    limit: u64,
}

impl<S: Subject> Subject for Budgeted<'_, S> {
    fn act(&mut self, action: &Action) -> Result<(), String> {
        self.inner.act(action)
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

/// Runs every case once under `seed`: on the VM, or on the recorded traces when some are given
/// (then only the traced cases are judged). VM frames count against `used`.
fn run_once(
    job: &TestJob,
    suite: &Suite,
    facts: &ProjectFacts,
    image: Option<&gobo::scratch::image::Image>,
    seed: u64,
    (used, limit): (&Cell<u64>, u64),
) -> Result<SuiteReport, JudgeError> {
    if let Some(img) = image {
        let cases = run_suite(suite, facts, seed, |seed| {
            let inner = VmSubject::new(img.clone(), suite.fps, seed)?;
            Ok(Budgeted { inner, used, limit })
        });
        if used.get() > limit {
            return Err(JudgeError::FrameBudget { limit });
        }
        return Ok(SuiteReport { cases });
    }
    let mut cases: Vec<CaseVerdict> = Vec::new();
    for case in &suite.cases {
        let Some(trace) = job.traces.get(&case.name) else { continue };
        let mut subject = TraceSubject::new(&trace.text, true)
            .map_err(|e| JudgeError::Trace(format!("{}: {e}", trace.name)))?;
        cases.push(run_case(case, suite.fps, facts, &mut subject));
    }
    Ok(SuiteReport { cases })
}

/// Judges a job: the suite once (or under every seed) on the VM, or on the recorded traces.
pub fn judge(job: &TestJob) -> Result<TestOutcome, String> {
    judge_within(job, None).map_err(|e| e.to_string())
}

/// [`judge`] with at most `max_frames` VM frames over every case and seed (`None`: each
/// case's own timeout is the only bound).
pub fn judge_within(job: &TestJob, max_frames: Option<u64>) -> Result<TestOutcome, JudgeError> {
    let (suite, facts) = job.load().map_err(JudgeError::Suite)?;
    let (image, warnings) = if job.traces.is_empty() {
        let loaded = load_files(&job.project, None)
            .map_err(|e| JudgeError::Project(format!("{}: {e}", job.project_name)))?;
        (Some(loaded.image), loaded.warnings)
    } else {
        (None, Vec::new())
    };
    let used = Cell::new(0u64);
    let budget = (&used, max_frames.unwrap_or(u64::MAX));
    match &job.seeds {
        None => {
            let report = run_once(job, &suite, &facts, image.as_ref(), suite.seed, budget)?;
            Ok(TestOutcome {
                success: report.success(),
                json: report.to_json(suite.fps),
                text: text_report(&report),
                warnings,
            })
        }
        Some(seeds) => {
            let runs = seeds
                .iter()
                .map(|&s| run_once(job, &suite, &facts, image.as_ref(), s, budget))
                .collect::<Result<Vec<_>, _>>()?;
            let report = SeedReport::new(seeds, &runs, job.stability);
            Ok(TestOutcome {
                success: report.success(),
                json: report.to_json(),
                text: text_seed_report(&report),
                warnings,
            })
        }
    }
}

fn text_report(r: &SuiteReport) -> String {
    let mut out = String::new();
    for c in &r.cases {
        match &c.reason {
            None => {
                let _ = writeln!(out, "PASS  {}", c.name);
            }
            Some(reason) => {
                let _ = writeln!(out, "FAIL  {}\n      {reason}", c.name);
            }
        }
    }
    let _ = writeln!(out, "{}/{} cases passed", r.passed_tests(), r.total_tests());
    out
}

fn text_seed_report(r: &SeedReport) -> String {
    let mut out = String::new();
    for c in &r.cases {
        let verdict = if c.passed {
            "PASS "
        } else if c.stable {
            "FAIL "
        } else {
            "FLAKY"
        };
        let _ = writeln!(out, "{verdict} {} (passed {}/{} seeds)", c.name, c.passes, c.runs);
        if let Some((seed, reason)) = &c.first_failure {
            let _ = writeln!(out, "      seed {seed}: {reason}");
        }
    }
    let _ = writeln!(out, "{}/{} cases passed", r.passed_tests(), r.cases.len());
    out
}

/// One batch row `{project, suite, seeds?, traces?}` (paths relative to `base`) → the suite
/// report as JSON, or `{"error"}`.
pub fn batch_row(row: &Value, base: &Path, stability: Stability) -> Value {
    let path = |key: &str| -> Result<PathBuf, String> {
        let p = row
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("row needs a string \"{key}\""))?;
        Ok(base.join(p))
    };
    let job = (|| {
        let mut traces = BTreeMap::new();
        if let Some(map) = row.get("traces").and_then(Value::as_object) {
            for (case, file) in map {
                let file = file.as_str().ok_or("traces values are file paths")?;
                traces.insert(case.clone(), base.join(file));
            }
        }
        let seeds = match row.get("seeds") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(String::from("seeds is R or \"A..B\"")),
        };
        TestJob::read(&path("project")?, &path("suite")?, seeds.as_deref(), &traces, stability)
    })();
    match job.and_then(|job| judge(&job)) {
        Ok(outcome) => outcome.json,
        Err(e) => json!({ "error": e }),
    }
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
        assert!(parse_seeds("1..200000").is_err());
        assert!(parse_seeds("x").is_err());
    }
}
