//! `gobo test PROJECT SUITE`: run a Scratch test suite (docs/test-suite.md) and print its
//! verdicts; `gobo test --batch MANIFEST.jsonl --out RESULTS.jsonl` judges many (project, suite)
//! pairs through the resumable batch runner. Exit 0 when the suite passes, 1 when it fails,
//! 2 when the project, suite or a trace cannot be read. The jobs are `gobo_host::suite`'s.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::suite::{run_case, Stability, TraceSubject};
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::suite::{batch_row, judge, TestJob};
use serde_json::Value as Json;

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
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
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
    let stability = Stability { theta_pass: args.theta_pass, theta_fail: args.theta_fail };
    if let (Some(manifest), Some(out)) = (&args.batch, &args.out) {
        let opts = BatchOptions { jobs: args.jobs, progress: true };
        let base = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
        return match run_batch(manifest, out, &opts, |row| batch_row(row, &base, stability)) {
            Ok(report) => {
                let failed = report
                    .rows
                    .iter()
                    .filter(|r| r.get("success") != Some(&Json::Bool(true)))
                    .count();
                eprintln!(
                    "gobo test: {} rows ({} run, {} already done), {failed} not passing",
                    report.rows.len(),
                    report.ran,
                    report.skipped
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("gobo test: {e}");
                ExitCode::from(2)
            }
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
    let job = match TestJob::read(project, suite, args.seeds.as_deref(), &traces, stability) {
        Ok(job) => job,
        Err(e) => {
            eprintln!("gobo test: {e}");
            return ExitCode::from(2);
        }
    };
    if args.print_scenario {
        return print_scenario(&job);
    }
    match judge(&job) {
        Ok(outcome) => {
            for warning in &outcome.warnings {
                eprintln!("gobo: warning: {}: {warning}", project.display());
            }
            if args.json {
                println!("{}", outcome.json);
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

fn print_scenario(job: &TestJob) -> ExitCode {
    let result = (|| {
        let (suite, facts) = job.load()?;
        let (name, trace) = match job.traces.iter().next() {
            Some(t) if job.traces.len() == 1 => t,
            _ => return Err(String::from("--print-scenario needs exactly one --trace CASE=FILE")),
        };
        let case = suite.cases.iter().find(|c| &c.name == name).ok_or("no such case")?;
        let mut subject = TraceSubject::new(&trace.text, false)?;
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
