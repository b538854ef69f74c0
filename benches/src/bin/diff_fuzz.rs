//! `diff_fuzz`: differential fuzzing of gobo against scratch-vm 5.0.300 (`docs/conformance.md`).
//! Generates programs, runs each in gobo and in the reference (`--oracle node`: `../shared/refvm`,
//! geometry-free programs; `--oracle browser`: `../shared/refvm-browser`, every block), compares
//! the traces, minimizes every divergence, and writes `report.jsonl`, `summary.json` and one
//! folder per divergence under `--out`. Normally started through `scripts/diff-fuzz.sh`.
//! Exit code 0: no divergence; 1: divergences found; 2: bad arguments or no reference.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use gobo_benches::diff::campaign::{self, Options, Summary};
use gobo_benches::diff::gen::Profile;
use gobo_benches::diff::oracle::Oracle;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OracleArg {
    Node,
    Browser,
}

#[derive(Debug, Parser)]
#[command(about = "Differential fuzzing of gobo against scratch-vm 5.0.300")]
struct Args {
    /// Programs to run.
    #[arg(long, default_value_t = 100)]
    programs: u64,
    /// Campaign seed (programs are numbered within it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first program (to continue a campaign).
    #[arg(long, default_value_t = 0)]
    start: u64,
    /// The reference.
    #[arg(long, value_enum, default_value = "node")]
    oracle: OracleArg,
    /// Report folder.
    #[arg(long, default_value = "target/diff-fuzz")]
    out: PathBuf,
    /// Keep divergences as found (no minimizing).
    #[arg(long)]
    no_minimize: bool,
    /// Reference runs allowed per minimization.
    #[arg(long, default_value_t = gobo_benches::diff::minimize::MAX_RUNS)]
    minimize_runs: u64,
    /// Traces longer than this many bytes are not sent to the reference.
    #[arg(long, default_value_t = 8 << 20)]
    max_trace_bytes: usize,
    /// Enable the planted divergence of the self-test (`operator_mod` made a truncating
    /// remainder); only in builds with the core's `planted-divergence` feature.
    #[arg(long)]
    plant: bool,
}

fn print_summary(s: &Summary, oracle: &str) {
    let inconclusive: u64 = s.inconclusive.iter().map(|(_, n)| n).sum();
    println!(
        "{oracle}: {} programs, {} same, {} diverged, {inconclusive} inconclusive {:?}, {:.1} s ({:.1} programs/s), {} minimizer runs",
        s.tried,
        s.same,
        s.diverged,
        s.inconclusive,
        s.seconds,
        s.tried as f64 / s.seconds.max(1e-9),
        s.minimizer_runs
    );
}

fn main() -> ExitCode {
    let a = Args::parse();
    if a.plant && !gobo_benches::diff::plant(true) {
        eprintln!("diff_fuzz: --plant needs a build with the core feature planted-divergence");
        return ExitCode::from(2);
    }
    let Some(shared) = gobo_benches::shared_dir() else {
        eprintln!("diff_fuzz: ../shared not found (set GOBO_SHARED)");
        return ExitCode::from(2);
    };
    let (oracle, profile) = match a.oracle {
        OracleArg::Node => (Oracle::Node, Profile::GeometryFree),
        OracleArg::Browser => (Oracle::Browser, Profile::Full),
    };
    if let Some(why) = oracle.missing(&shared) {
        eprintln!("diff_fuzz: the {} reference cannot run: {why}", oracle.name());
        return ExitCode::from(2);
    }
    let opts = Options {
        seed: a.seed,
        start: a.start,
        count: a.programs,
        profile,
        oracle,
        shared,
        out: a.out.clone(),
        minimize: !a.no_minimize,
        minimize_runs: a.minimize_runs,
        max_trace_bytes: a.max_trace_bytes,
    };
    let mut last = 0u64;
    let result = campaign::run(&opts, |s| {
        if s.tried - last >= 500 || s.tried == opts.count {
            last = s.tried;
            eprintln!(
                "diff_fuzz: {}/{} programs, {} diverged, {:.0} s",
                s.tried, opts.count, s.diverged, s.seconds
            );
        }
    });
    let s = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("diff_fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    print_summary(&s, oracle.name());
    let summary = serde_json::json!({
        "oracle": oracle.name(), "seed": a.seed, "start": a.start, "programs": s.tried,
        "same": s.same, "diverged": s.diverged,
        "inconclusive": s.inconclusive.iter().map(|(k, n)| (k.clone(), serde_json::json!(n))).collect::<serde_json::Map<_, _>>(),
        "seconds": s.seconds, "minimizer_runs": s.minimizer_runs,
    });
    let path = a.out.join(format!("summary-{}-{}-{}.json", oracle.name(), a.seed, a.start));
    let _ = std::fs::write(&path, format!("{summary}\n"));
    if s.diverged == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
