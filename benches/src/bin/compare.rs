//! `compare`: runs the benchmark workloads in gobo and in every installed reference
//! implementation, in one run, and prints a Markdown table with each figure and the ratio.
//! Normally started through `benches/compare.sh`. References that are not installed are
//! skipped with the reason. The command fails (exit code 1, after the table) when gobo or a
//! reference missed a workload's expected end state (`check` in `workloads.json`) or its
//! oracle in any run, and with code 2 on bad arguments.

use std::path::PathBuf;

use clap::Parser;
use gobo_benches::evaluate::{DRAWINGBENCH_RECORDED, XLOGO_REAL};
use gobo_benches::gobo_side::{self, Figure, Outcome};
use gobo_benches::reference::{self, Locations, Run};
use gobo_benches::suite::Suite;
use gobo_benches::table::{self, Line};

#[derive(Debug, Parser)]
#[command(about = "Compare gobo's throughput with the reference implementations")]
struct Args {
    /// Timed runs per workload and implementation (the median is reported).
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Comma-separated workload names (default: all).
    #[arg(long)]
    only: Option<String>,
    /// refvm checkout with scratch-vm 5.0.300 installed (default: ../shared/refvm).
    #[arg(long)]
    refvm: Option<PathBuf>,
    /// Directory of the unpacked @turbowarp/scaffolding package
    /// (default: $XDG_CACHE_HOME/gobo-bench/turbowarp).
    #[arg(long)]
    turbowarp: Option<PathBuf>,
    /// Checkout of machine-teaching-group/aied2024-xlogo-tasksyn (the Python XLogo emulator).
    #[arg(long)]
    xlogo_repo: Option<PathBuf>,
    /// Checkout of hyunjun1121/DrawingBench (the Python evaluator).
    #[arg(long)]
    drawingbench_repo: Option<PathBuf>,
    /// Python interpreter for the Python references (default: $XDG_CACHE_HOME/gobo-bench/venv,
    /// else python3).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Timed runs of the Python references (each takes seconds per pass).
    #[arg(long, default_value_t = 3)]
    python_runs: usize,
    /// Only gobo's figures.
    #[arg(long)]
    no_references: bool,
}

fn default_turbowarp_dir() -> Option<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("gobo-bench").join("turbowarp"))
}

/// gobo's side of an evaluation workload: shared material, runs.
type Measure = fn(Option<&std::path::Path>, usize) -> Outcome;

fn report(name: &str, outcome: &Outcome) {
    match outcome {
        Outcome::Figure(f) => eprintln!("gobo {name}: {} {}", table::si(f.value), f.unit),
        Outcome::Unavailable(why) => eprintln!("gobo {name}: {why}"),
    }
}

fn main() {
    let args = Args::parse();
    let dir = gobo_benches::scratch_workloads_dir();
    let suite = match Suite::load(&dir) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("compare: {e}");
            std::process::exit(2);
        }
    };
    let wanted: Option<Vec<&str>> = args.only.as_deref().map(|s| s.split(',').collect());
    let selected: Vec<_> = suite
        .workloads
        .iter()
        .filter(|w| wanted.as_ref().is_none_or(|names| names.contains(&w.name.as_str())))
        .collect();
    let shared = gobo_benches::shared_dir();
    let loc = Locations {
        refvm: args.refvm.clone().or_else(|| shared.as_ref().map(|s| s.join("refvm"))),
        turbowarp: args.turbowarp.clone().or_else(default_turbowarp_dir),
        xlogo_repo: args.xlogo_repo.clone(),
        drawingbench_repo: args.drawingbench_repo.clone(),
        shared: shared.clone(),
    };

    eprintln!("== gobo ==");
    let mut lines = Vec::new();
    for w in &selected {
        let outcome = gobo_side::scratch(&suite, w, args.runs);
        report(&w.name, &outcome);
        lines.push(Line { workload: w.name.clone(), unit: w.unit.clone(), gobo: outcome });
    }

    let want = |name: &str| wanted.as_ref().is_none_or(|names| names.contains(&name));
    let evaluations: [(&str, Measure); 2] =
        [(XLOGO_REAL, gobo_side::xlogo), (DRAWINGBENCH_RECORDED, gobo_side::drawing)];
    for (name, measure) in evaluations {
        if want(name) {
            let outcome = measure(shared.as_deref(), args.runs);
            report(name, &outcome);
            lines.push(Line { workload: name.into(), unit: "evaluations/s".into(), gobo: outcome });
        }
    }

    let mut rows = Vec::new();
    let mut notes = Vec::new();
    if !args.no_references {
        let only: Vec<&str> = selected.iter().map(|w| w.name.as_str()).collect();
        let mut refs = Vec::new();
        if !only.is_empty() {
            refs.extend(reference::scratch_references(&loc, args.runs, &only.join(",")));
        }
        let python = reference::python_for_references(args.python.clone());
        for r in reference::python_references(&loc, args.python_runs, &python) {
            let evaluates =
                if r.name.starts_with("XLogo") { XLOGO_REAL } else { DRAWINGBENCH_RECORDED };
            if want(evaluates) {
                refs.push(r);
            }
        }
        for r in refs {
            match r.run() {
                Run::Rows(found) => rows.extend(found),
                Run::Skipped(why) => notes.push(format!("{}: skipped: {why}", r.name)),
                Run::Failed(why) => notes.push(format!("{}: failed: {why}", r.name)),
            }
        }
    }
    let mut columns: Vec<String> = Vec::new();
    for r in &rows {
        let c = table::column_of(r);
        if !columns.contains(&c) {
            columns.push(c);
        }
    }
    println!("{}", table::markdown(&lines, &columns, &rows));
    for line in &lines {
        if let Outcome::Figure(f) = &line.gobo {
            if let Some(note) = &f.note {
                println!("- gobo {}: {note}", line.workload);
            }
        }
    }
    let cpu: Vec<String> = lines
        .iter()
        .filter_map(|line| match &line.gobo {
            Outcome::Figure(Figure { cpu_value: Some(v), unit, .. }) => {
                Some(format!("{} {} {unit}", line.workload, table::si(*v)))
            }
            _ => None,
        })
        .collect();
    if !cpu.is_empty() {
        println!(
            "- gobo per CPU-second of the measuring thread (timed parts, ≥ 0.3 CPU-s): {}",
            cpu.join("; ")
        );
    }
    for r in rows.iter().filter(|r| r.note.is_some()) {
        println!("- {} {}: {}", r.implementation, r.workload, r.note.as_deref().unwrap_or(""));
    }
    for n in &notes {
        println!("- {n}");
    }
    println!(
        "\nMedian of {} runs after one warm-up; ratio = gobo / reference (higher is better). \
         How it is measured: docs/performance.md.",
        args.runs
    );
    let mut wrong: Vec<String> = lines
        .iter()
        .filter_map(|line| match &line.gobo {
            Outcome::Figure(Figure { note: Some(n), .. }) => {
                Some(format!("gobo {}: {n}", line.workload))
            }
            _ => None,
        })
        .collect();
    wrong.extend(rows.iter().filter(|r| !r.checked).map(|r| {
        let why = r.note.as_deref().unwrap_or("end state not as expected");
        format!("{} {}: {why}", r.implementation, r.workload)
    }));
    if !wrong.is_empty() {
        eprintln!("compare: {} result(s) wrong: {}", wrong.len(), wrong.join("; "));
        std::process::exit(1);
    }
}
