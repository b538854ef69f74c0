//! `gobo test PROJECT SUITE`: run a Scratch test suite (docs/test-suite.md) and print its
//! verdicts; `gobo test --batch MANIFEST.jsonl --out RESULTS.jsonl` judges many (project, suite)
//! pairs through the resumable batch runner. Exit 0 when the suite passes, 1 when it fails,
//! 2 when the project, suite or a trace cannot be read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::suite::{
    load_suite, model::Suite, run_case, ProjectFacts, SeedReport, Stability, SuiteReport,
    TraceSubject,
};
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::judge::{parse_seeds, Report, TestError, TestJob};
use serde_json::{json, Value as Json};

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The project: an .sb3 archive, a folder holding project.json, or a project.json file.
    #[arg(required_unless_present = "batch")]
    project: Option<PathBuf>,
    /// The test suite (JSON, docs/test-suite.md).
    #[arg(required_unless_present = "batch")]
    suite: Option<PathBuf>,
    /// Rerun under seeds: `R` (1..=R) or `A..B` (inclusive).
    #[arg(long)]
    seeds: Option<String>,
    /// Pass-rate threshold of a passing case with --seeds.
    #[arg(long, default_value_t = 0.9)]
    theta_pass: f64,
    /// Pass-rate threshold of a stable failure with --seeds.
    #[arg(long, default_value_t = 0.1)]
    theta_fail: f64,
    /// Print the report as one JSON object on one line.
    #[arg(long)]
    json: bool,
    /// Print the JSON report indented (implies --json).
    #[arg(long)]
    pretty: bool,
    /// Judge a recorded trace instead of running the VM: `CASE=TRACE.jsonl` (repeatable; only
    /// the cases named are judged).
    #[arg(long = "trace", value_name = "CASE=FILE")]
    traces: Vec<String>,
    /// With one --trace: accept inputs the trace did not record, and print the refvm scenario of
    /// the inputs the case sent (used to record traces).
    #[arg(long)]
    print_scenario: bool,
    /// A JSON-lines manifest of {id, project, suite, seeds?, traces?} rows.
    #[arg(long, requires = "out", conflicts_with_all = ["project", "suite"])]
    batch: Option<PathBuf>,
    /// Results file of --batch (resumable).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads of --batch (0: one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
}

pub fn run(args: TestArgs) -> ExitCode {
    if let (Some(manifest), Some(out)) = (&args.batch, &args.out) {
        let opts = BatchOptions { jobs: args.jobs, ..BatchOptions::default() };
        let base = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
        let stability = Stability { theta_pass: args.theta_pass, theta_fail: args.theta_fail };
        let mut failed = 0;
        let eval = |row: &Json| batch_row(row, &base, stability);
        let visit =
            |row: &Json| failed += usize::from(row.get("success") != Some(&Json::Bool(true)));
        return match run_batch(manifest, out, &opts, eval, visit) {
            Ok(report) => {
                crate::exit::batch_summary("test", &report, failed);
                crate::exit::verdict(failed)
            }
            Err(e) => crate::exit::bad_input("test", e),
        };
    }
    let (Some(project), Some(suite)) = (&args.project, &args.suite) else {
        eprintln!("gobo test: PROJECT and SUITE are required");
        return ExitCode::from(2);
    };
    let mut traces = BTreeMap::new();
    for t in &args.traces {
        match t.split_once('=') {
            Some((case, file)) => {
                traces.insert(case.to_string(), PathBuf::from(file));
            }
            None => {
                eprintln!("gobo test: --trace takes CASE=FILE, got '{t}'");
                return ExitCode::from(2);
            }
        }
    }
    let job = Job {
        project: project.clone(),
        suite: suite.clone(),
        seeds: args.seeds.clone(),
        traces,
        stability: Stability { theta_pass: args.theta_pass, theta_fail: args.theta_fail },
    };
    if args.print_scenario {
        return print_scenario(&job);
    }
    match judge(&job) {
        Ok(outcome) => {
            if args.json || args.pretty {
                crate::json_out::print(&outcome.json, args.pretty);
            } else {
                print!("{}", outcome.text);
            }
            if outcome.success {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("gobo test: {e}");
            ExitCode::from(2)
        }
    }
}

/// One (project, suite) pair to judge, by file.
struct Job {
    project: PathBuf,
    suite: PathBuf,
    seeds: Option<String>,
    traces: BTreeMap<String, PathBuf>,
    stability: Stability,
}

struct Outcome {
    success: bool,
    json: Json,
    text: String,
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn load(job: &Job) -> Result<(Suite, ProjectFacts), String> {
    let files = crate::project_input::load_files(&job.project)?;
    let project = String::from_utf8(files.project_json)
        .map_err(|_| format!("{}: project.json is not UTF-8", job.project.display()))?;
    let suite = read(&job.suite)?;
    let (suite, facts) =
        load_suite(&suite, &project).map_err(|e| format!("{}: {e}", job.suite.display()))?;
    for name in job.traces.keys() {
        if !suite.cases.iter().any(|c| &c.name == name) {
            return Err(format!("--trace names no case of the suite: '{name}'"));
        }
    }
    Ok((suite, facts))
}

/// Reads the job's files and judges them (`gobo_host::judge`).
fn judge(job: &Job) -> Result<Outcome, String> {
    let files = crate::project_input::load_files(&job.project)?;
    let suite = read(&job.suite)?;
    let mut traces = BTreeMap::new();
    for (case, path) in &job.traces {
        traces.insert(case.clone(), read(path)?);
    }
    let seeds = job.seeds.as_deref().map(parse_seeds).transpose().map_err(|e| e.to_string())?;
    let test = TestJob {
        project: &files,
        suite: &suite,
        seeds: seeds.as_deref(),
        stability: job.stability,
        traces: &traces,
        max_frames: None,
    };
    let judged = gobo_host::judge::judge(&test).map_err(|e| match e {
        TestError::Suite(e) => format!("{}: {e}", job.suite.display()),
        TestError::Trace { case, message } => format!("{}: {message}", job.traces[&case].display()),
        TestError::UnknownTraceCase(name) => {
            format!("--trace names no case of the suite: '{name}'")
        }
        e => format!("{}: {e}", job.project.display()),
    })?;
    for warning in &judged.warnings {
        eprintln!("gobo: warning: {}: {warning}", job.project.display());
    }
    let text = match &judged.report {
        Report::Once { report, .. } => text_report(report),
        Report::Seeds(report) => text_seed_report(report),
    };
    Ok(Outcome { success: judged.report.success(), json: judged.report.to_json(), text })
}

fn text_report(r: &SuiteReport) -> String {
    let mut out = String::new();
    for c in &r.cases {
        match &c.reason {
            None => out.push_str(&format!("PASS  {}\n", c.name)),
            Some(reason) => out.push_str(&format!("FAIL  {}\n      {reason}\n", c.name)),
        }
    }
    out.push_str(&format!("{}/{} cases passed\n", r.passed_tests(), r.total_tests()));
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
        out.push_str(&format!("{verdict} {} (passed {}/{} seeds)\n", c.name, c.passes, c.runs));
        if let Some((seed, reason)) = &c.first_failure {
            out.push_str(&format!("      seed {seed}: {reason}\n"));
        }
    }
    out.push_str(&format!("{}/{} cases passed\n", r.passed_tests(), r.cases.len()));
    out
}

fn print_scenario(job: &Job) -> ExitCode {
    let result = (|| {
        let (suite, facts) = load(job)?;
        let (name, path) = match job.traces.iter().next() {
            Some(t) if job.traces.len() == 1 => t,
            _ => return Err(String::from("--print-scenario needs exactly one --trace CASE=FILE")),
        };
        let case = suite.cases.iter().find(|c| &c.name == name).ok_or("no such case")?;
        let mut subject = TraceSubject::new(&read(path)?, false)?;
        let verdict = run_case(case, suite.fps, &facts, &mut subject);
        eprintln!("{}: {}", case.name, verdict.reason.as_deref().unwrap_or("passed"));
        Ok::<Json, String>(subject.scenario(suite.seed))
    })();
    match result {
        Ok(s) => {
            println!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gobo test: {e}");
            ExitCode::from(2)
        }
    }
}

/// One manifest row → one result row (the suite report, or an error).
fn batch_row(row: &Json, base: &Path, stability: Stability) -> Json {
    let path = |key: &str| -> Result<PathBuf, String> {
        let p = row
            .get(key)
            .and_then(Json::as_str)
            .ok_or_else(|| format!("row needs a string \"{key}\""))?;
        Ok(base.join(p))
    };
    let job = (|| {
        let mut traces = BTreeMap::new();
        if let Some(map) = row.get("traces").and_then(Json::as_object) {
            for (case, file) in map {
                let file = file.as_str().ok_or("traces values are file paths")?;
                traces.insert(case.clone(), base.join(file));
            }
        }
        let seeds = match row.get("seeds") {
            None | Some(Json::Null) => None,
            Some(Json::Number(n)) => Some(n.to_string()),
            Some(Json::String(s)) => Some(s.clone()),
            Some(_) => return Err(String::from("seeds is R or \"A..B\"")),
        };
        Ok::<Job, String>(Job {
            project: path("project")?,
            suite: path("suite")?,
            seeds,
            traces,
            stability,
        })
    })();
    match job.and_then(|job| judge(&job)) {
        Ok(outcome) => outcome.json,
        Err(e) => json!({ "error": e }),
    }
}
