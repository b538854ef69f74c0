//! ScratchWorld (astarforbae/ScratchWorld) as gobo suites: the manifest of its 83 tasks
//! (`benchmarks/scratchworld/manifest.json`, [`Manifest`]) and the paper's metrics over
//! per-task verdicts ([`metrics`]: SR, the share of tasks whose every case passes, and PSR,
//! the mean share of cases passing). Plain data in, report out; no files are read here.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

/// The four task categories, in the paper's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Build a program from a description.
    Create,
    /// Fix a broken program.
    Debug,
    /// Add a feature to a working program.
    Extend,
    /// Compute an answer from input read with `ask`.
    Compute,
}

impl Category {
    /// Every category, in report order.
    pub const ALL: [Category; 4] =
        [Category::Create, Category::Debug, Category::Extend, Category::Compute];

    /// The lower-case name used in the manifest and the rows.
    pub fn name(self) -> &'static str {
        match self {
            Category::Create => "create",
            Category::Debug => "debug",
            Category::Extend => "extend",
            Category::Compute => "compute",
        }
    }

    /// Parses a lower-case category name.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The two ways a task is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavour {
    /// The original evaluation script's behaviour, quirks included.
    Compat,
    /// The task's stated intent.
    Strict,
}

impl Flavour {
    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Compat => "compat",
            Flavour::Strict => "strict",
        }
    }
}

/// How much of a script a flavour's suite expresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Coverage {
    /// Every check of the script.
    Complete,
    /// Some checks; `lacks` names the others.
    Partial,
    /// No suite yet.
    Missing,
}

/// One flavour's suite of a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlavourEntry {
    /// How much of the script the suite expresses.
    pub status: Coverage,
    /// The suite file, relative to the manifest's folder (absent when missing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<String>,
    /// The script's checks the suite cannot express yet, in words (partial only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lacks: Vec<String>,
}

/// The flavours of a task; `strict` is given only where it differs from `compat`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flavours {
    /// The scripts' behaviour.
    pub compat: FlavourEntry,
    /// The stated intent (absent: the compat suite serves both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<FlavourEntry>,
}

/// One task of the benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// The task's name (its evaluation script's name); agent outputs are `<name>.sb3`.
    pub name: String,
    /// Its category.
    pub category: Category,
    /// The starter project the task names (a file of ScratchWorld's `scratch-gui/static/`).
    pub initial_project: String,
    /// Its suites.
    pub flavours: Flavours,
}

impl Task {
    /// The suite entry judging this task in `flavour` (strict falls back to compat).
    pub fn entry(&self, flavour: Flavour) -> &FlavourEntry {
        match (flavour, &self.flavours.strict) {
            (Flavour::Strict, Some(strict)) => strict,
            _ => &self.flavours.compat,
        }
    }
}

/// `benchmarks/scratchworld/manifest.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Format version; only 1 exists.
    pub version: u32,
    /// Where the tasks come from (repository and commit).
    pub source: String,
    /// The tasks, in the manifest's order.
    pub tasks: Vec<Task>,
}

impl Manifest {
    /// The task called `name`.
    pub fn task(&self, name: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.name == name)
    }
}

/// Why a manifest is not valid; each variant names where.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ManifestError {
    /// Not JSON of the manifest's shape.
    Json(String),
    /// A version other than 1.
    Version(u32),
    /// A field's value is not allowed (`at` is a JSON path).
    Invalid {
        /// Where, e.g. `tasks[3].flavours.compat.suite`.
        at: String,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::Json(e) => write!(f, "manifest: {e}"),
            ManifestError::Version(v) => write!(f, "manifest: version {v} (only 1 exists)"),
            ManifestError::Invalid { at, why } => write!(f, "manifest: {at}: {why}"),
        }
    }
}

impl core::error::Error for ManifestError {}

fn invalid(at: String, why: &str) -> ManifestError {
    ManifestError::Invalid { at, why: String::from(why) }
}

/// A task name or file name: non-empty ASCII letters, digits, `_`, `-`, `.`, no leading dot.
fn plain_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('.')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// A relative path of plain names separated by `/` (no `..`, no absolute path).
fn relative_path(s: &str) -> bool {
    s.split('/').all(plain_name)
}

/// Parses and validates a manifest: version 1; unique task names made of letters, digits,
/// `_`, `-`, `.`; an `.sb3` initial project; per flavour a relative `.json` suite path unless
/// missing, `lacks` non-empty exactly when partial.
pub fn parse_manifest(text: &str) -> Result<Manifest, ManifestError> {
    let manifest: Manifest =
        serde_json::from_str(text).map_err(|e| ManifestError::Json(format!("{e}")))?;
    if manifest.version != 1 {
        return Err(ManifestError::Version(manifest.version));
    }
    if manifest.tasks.is_empty() {
        return Err(invalid(String::from("tasks"), "no tasks"));
    }
    let mut seen = BTreeSet::new();
    for (i, task) in manifest.tasks.iter().enumerate() {
        let at = |field: &str| format!("tasks[{i}].{field}");
        if !plain_name(&task.name) {
            return Err(invalid(at("name"), "not a plain name (letters, digits, _ - .)"));
        }
        if !seen.insert(task.name.as_str()) {
            return Err(invalid(at("name"), "repeats an earlier task's name"));
        }
        if !plain_name(&task.initial_project) || !task.initial_project.ends_with(".sb3") {
            return Err(invalid(at("initial_project"), "not an .sb3 file name"));
        }
        let mut entries = alloc::vec![("compat", &task.flavours.compat)];
        if let Some(strict) = &task.flavours.strict {
            entries.push(("strict", strict));
        }
        for (flavour, entry) in entries {
            let at = |field: &str| format!("tasks[{i}].flavours.{flavour}.{field}");
            match (&entry.suite, entry.status) {
                (Some(_), Coverage::Missing) => {
                    return Err(invalid(at("suite"), "a missing suite names no file"))
                }
                (None, Coverage::Complete | Coverage::Partial) => {
                    return Err(invalid(at("suite"), "required unless the status is missing"))
                }
                (Some(path), _) if !relative_path(path) || !path.ends_with(".json") => {
                    return Err(invalid(at("suite"), "not a relative .json path"))
                }
                _ => {}
            }
            if (entry.status == Coverage::Partial) == entry.lacks.is_empty() {
                return Err(invalid(at("lacks"), "given (non-empty) exactly when partial"));
            }
            if entry.lacks.iter().any(|l| l.trim().is_empty()) {
                return Err(invalid(at("lacks"), "an empty description"));
            }
        }
    }
    Ok(manifest)
}

/// What became of one task in a benchmark run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// The suite ran: `passed` of `total` cases passed.
    Judged {
        /// Cases passing.
        passed: u32,
        /// Cases in the suite.
        total: u32,
    },
    /// No project for the task in the folder: scored as a failure.
    Missing,
    /// The project (or its suite) could not be judged: scored as a failure.
    Broken {
        /// Why.
        error: String,
    },
    /// The task has no suite in this flavour: left out of the metrics.
    NoSuite,
}

/// One task's result, the input of [`metrics`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskResult {
    /// The task.
    pub task: String,
    /// Its category.
    pub category: Category,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The metrics of one category, or of all tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// `create`, `debug`, `extend`, `compute` or `overall`.
    pub category: String,
    /// Tasks scored (judged, missing or broken; tasks without a suite are left out).
    pub tasks: u32,
    /// Tasks whose every case passed.
    pub solved: u32,
    /// Success rate: `solved / tasks` (0 when no task is scored).
    pub sr: f64,
    /// Partial success rate: the mean over scored tasks of the share of cases passing
    /// (missing and broken tasks count 0).
    pub psr: f64,
    /// Tasks judged.
    pub judged: u32,
    /// Tasks without a project.
    pub missing: u32,
    /// Tasks whose project or suite could not be judged.
    pub broken: u32,
    /// Tasks without a suite in the flavour (not scored).
    pub no_suite: u32,
}

/// The benchmark's table: one row per category, then the overall row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// Per category, in [`Category::ALL`] order.
    pub categories: Vec<Metrics>,
    /// Over every task.
    pub overall: Metrics,
}

fn metrics_of<'a>(name: &str, results: impl Iterator<Item = &'a TaskResult>) -> Metrics {
    let mut m = Metrics {
        category: String::from(name),
        tasks: 0,
        solved: 0,
        sr: 0.0,
        psr: 0.0,
        judged: 0,
        missing: 0,
        broken: 0,
        no_suite: 0,
    };
    let mut share_sum = 0.0;
    for r in results {
        match &r.outcome {
            Outcome::Judged { passed, total } => {
                m.judged += 1;
                if *total > 0 {
                    share_sum += f64::from((*passed).min(*total)) / f64::from(*total);
                    if passed >= total {
                        m.solved += 1;
                    }
                }
            }
            Outcome::Missing => m.missing += 1,
            Outcome::Broken { .. } => m.broken += 1,
            Outcome::NoSuite => {
                m.no_suite += 1;
                continue;
            }
        }
        m.tasks += 1;
    }
    if m.tasks > 0 {
        m.sr = f64::from(m.solved) / f64::from(m.tasks);
        m.psr = share_sum / f64::from(m.tasks);
    }
    m
}

/// The paper's metrics over per-task results: SR and PSR per category and overall. A suite
/// with no case counts as not solved (PSR share 0).
pub fn metrics(results: &[TaskResult]) -> BenchReport {
    let categories = Category::ALL
        .iter()
        .map(|c| metrics_of(c.name(), results.iter().filter(|r| r.category == *c)))
        .collect();
    BenchReport { categories, overall: metrics_of("overall", results.iter()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    const ONE: &str = r#"{"version": 1, "source": "test", "tasks": [
        {"name": "a_task", "category": "compute", "initial_project": "a.sb3",
         "flavours": {"compat": {"status": "complete", "suite": "compute/a_task.json"}}}]}"#;

    fn with(task: &str) -> String {
        format!(r#"{{"version": 1, "source": "test", "tasks": [{task}]}}"#)
    }

    #[test]
    fn parses_a_valid_manifest_and_falls_back_to_compat() {
        let m = parse_manifest(ONE).unwrap();
        let t = m.task("a_task").unwrap();
        assert_eq!(t.category, Category::Compute);
        assert_eq!(t.entry(Flavour::Strict).suite.as_deref(), Some("compute/a_task.json"));
        let back = serde_json::to_string(&m).unwrap();
        assert_eq!(parse_manifest(&back).unwrap(), m);
    }

    #[test]
    fn rejects_bad_manifests_naming_where() {
        let cases = [
            (
                with(
                    r#"{"name": "x", "category": "compute", "initial_project": "a.sb3",
                "flavours": {"compat": {"status": "partial", "suite": "x.json"}}}"#,
                ),
                "tasks[0].flavours.compat.lacks",
            ),
            (
                with(
                    r#"{"name": "x", "category": "compute", "initial_project": "a.sb3",
                "flavours": {"compat": {"status": "complete"}}}"#,
                ),
                "tasks[0].flavours.compat.suite",
            ),
            (
                with(
                    r#"{"name": "x", "category": "compute", "initial_project": "a.sb3",
                "flavours": {"compat": {"status": "missing"},
                             "strict": {"status": "complete", "suite": "../x.json"}}}"#,
                ),
                "tasks[0].flavours.strict.suite",
            ),
            (
                with(
                    r#"{"name": "x/y", "category": "compute", "initial_project": "a.sb3",
                "flavours": {"compat": {"status": "missing"}}}"#,
                ),
                "tasks[0].name",
            ),
            (
                with(
                    r#"{"name": "x", "category": "compute", "initial_project": "a.json",
                "flavours": {"compat": {"status": "missing"}}}"#,
                ),
                "tasks[0].initial_project",
            ),
        ];
        for (text, at) in cases {
            match parse_manifest(&text) {
                Err(ManifestError::Invalid { at: got, .. }) => assert_eq!(got, at, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        let dup = ONE.replace("}}}]}", "}}}, {\"name\": \"a_task\", \"category\": \"debug\", \"initial_project\": \"a.sb3\", \"flavours\": {\"compat\": {\"status\": \"missing\"}}}]}");
        let err = parse_manifest(&dup).unwrap_err().to_string();
        assert!(err.contains("tasks[1].name: repeats"), "{err}");
        assert!(matches!(
            parse_manifest(&ONE.replace("\"version\": 1", "\"version\": 2")),
            Err(ManifestError::Version(2))
        ));
        assert!(matches!(
            parse_manifest(&ONE.replace("\"source\"", "\"sauce\"")),
            Err(ManifestError::Json(_))
        ));
        assert!(matches!(parse_manifest("[1"), Err(ManifestError::Json(_))));
    }

    fn r(task: &str, category: Category, outcome: Outcome) -> TaskResult {
        TaskResult { task: task.to_string(), category, outcome }
    }

    #[test]
    fn metrics_score_missing_and_broken_as_failures_and_skip_unsuited_tasks() {
        let results = vec![
            r("a", Category::Compute, Outcome::Judged { passed: 3, total: 3 }),
            r("b", Category::Compute, Outcome::Judged { passed: 1, total: 4 }),
            r("c", Category::Compute, Outcome::Missing),
            r("d", Category::Compute, Outcome::Broken { error: "zip".to_string() }),
            r("e", Category::Create, Outcome::Judged { passed: 2, total: 2 }),
            r("f", Category::Create, Outcome::NoSuite),
            r("g", Category::Debug, Outcome::Judged { passed: 0, total: 0 }),
        ];
        let report = metrics(&results);
        let compute = &report.categories[3];
        assert_eq!((compute.tasks, compute.solved, compute.judged), (4, 1, 2));
        assert_eq!((compute.missing, compute.broken), (1, 1));
        assert_eq!(compute.sr, 0.25);
        assert_eq!(compute.psr, (1.0 + 0.25) / 4.0);
        let create = &report.categories[0];
        assert_eq!((create.tasks, create.solved, create.no_suite), (1, 1, 1));
        assert_eq!((create.sr, create.psr), (1.0, 1.0));
        let debug = &report.categories[1];
        assert_eq!((debug.tasks, debug.solved, debug.psr), (1, 0, 0.0));
        let extend = &report.categories[2];
        assert_eq!((extend.tasks, extend.sr, extend.psr), (0, 0.0, 0.0));
        let all = &report.overall;
        assert_eq!((all.tasks, all.solved, all.no_suite), (6, 2, 1));
        assert_eq!(all.sr, 2.0 / 6.0);
        assert_eq!(all.psr, (1.0 + 0.25 + 1.0) / 6.0);
    }

    #[test]
    fn outcomes_read_from_rows() {
        let row: TaskResult = serde_json::from_str(
            r#"{"task": "a", "category": "extend", "status": "judged", "passed": 1, "total": 2}"#,
        )
        .unwrap();
        assert_eq!(row.outcome, Outcome::Judged { passed: 1, total: 2 });
        let row: TaskResult =
            serde_json::from_str(r#"{"task": "a", "category": "debug", "status": "missing"}"#)
                .unwrap();
        assert_eq!(row.outcome, Outcome::Missing);
    }
}
