//! `gobo diff-trace A.jsonl B.jsonl`: compare two traces (first divergence, per-signal
//! discrepancy, drift) and print a report as text or JSON. Exit 0 when identical, 1 when they
//! differ, 2 when a trace cannot be read.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::diff::{diff_traces, DiffOptions, DiffReport, Signal};

#[derive(Debug, Args)]
pub struct DiffTraceArgs {
    /// First trace (JSON lines, docs/trace.md).
    a: PathBuf,
    /// Second trace.
    b: PathBuf,
    /// Comma-separated signals to score (vars, lists, pose, costume, visibility, backdrop,
    /// broadcasts, says) or sets (all, scratcheval = all but says); the first divergence is
    /// then searched only in their fields.
    #[arg(long, value_delimiter = ',')]
    signals: Option<Vec<String>>,
    /// Score every N-th frame number plus the last checkpoint (SPEC §2.8 drift: 10); 0 scores
    /// every frame.
    #[arg(long, default_value_t = 0)]
    every: u64,
    /// Numbers closer than this compare equal.
    #[arg(long, default_value_t = 0.0)]
    tolerance: f64,
    /// Print the report as one JSON object on one line.
    #[arg(long)]
    json: bool,
    /// Print the JSON report indented (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: DiffTraceArgs) -> ExitCode {
    let read =
        |p: &PathBuf| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let (a, b) = match (read(&args.a), read(&args.b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("gobo diff-trace: {e}");
            return ExitCode::from(2);
        }
    };
    let mut opts =
        DiffOptions { tolerance: args.tolerance, every: args.every, ..DiffOptions::default() };
    if let Some(names) = args.signals {
        match Signal::parse_list(&names) {
            Ok(signals) => opts.signals = signals,
            Err(e) => return crate::exit::bad_input("diff-trace", e),
        }
        opts.restrict_first = true;
    }
    let report = match diff_traces(&a, &b, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("gobo diff-trace: {e}");
            return ExitCode::from(2);
        }
    };
    if args.json || args.pretty {
        crate::json_out::print(&report.to_json(), args.pretty);
    } else {
        print_text(&report);
    }
    if report.identical() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn print_text(r: &DiffReport) {
    println!("frames: A {}, B {} ({} checkpoints)", r.frames_a, r.frames_b, r.checkpoints);
    match &r.first {
        Some(d) => println!("first divergence: {d}"),
        None => println!("first divergence: none"),
    }
    for s in &r.signals {
        let first = s.first_frame.map_or_else(|| "-".to_string(), |f| f.to_string());
        println!(
            "  {:<11} discrepancy {:.6}  frames differing {:>6}  first {}",
            s.signal.name(),
            s.discrepancy,
            s.frames_differing,
            first
        );
    }
    println!("drift: {:.6}", r.drift);
}
