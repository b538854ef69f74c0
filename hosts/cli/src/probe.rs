//! `gobo probe BUGGY --gold GOLD --suite S`: the runtime probe (`gobo::scratch::signals::probe`,
//! docs/signals.md): pass rates, pass gap, mismatch rate, rerun instability, first divergence
//! and the escalation level of a buggy program against its gold reference. Exit 0 when the
//! probe ran (whatever it found), 2 on bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::signals::ProbeConfig;
use gobo_host::cost::Stopwatch;
use gobo_host::repair;
use serde_json::Value as Json;

use crate::oracle::load_project;

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The buggy project.
    buggy: PathBuf,
    /// The gold project.
    #[arg(long)]
    gold: PathBuf,
    /// The test suite (docs/test-suite.md), e.g. from `gobo oracle` or `gobo forge`.
    #[arg(long)]
    suite: PathBuf,
    /// H_p: most frames per case (1..=3600).
    #[arg(long, default_value_t = 300)]
    frames: u64,
    /// R_p: seeds 1..=R_p.
    #[arg(long, default_value_t = 2)]
    seeds: u32,
    /// Print the probe as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

/// A JSON document read from a file.
pub fn read_json(path: &Path) -> Result<Json, String> {
    std::fs::read(path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

pub fn run(args: ProbeArgs) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("probe", why);
    let watch = Stopwatch::start();
    let (gold, buggy) = match (load_project(&args.gold), load_project(&args.buggy)) {
        (Ok(g), Ok(b)) => (g, b),
        (Err(e), _) | (_, Err(e)) => return bad(e),
    };
    let suite = match read_json(&args.suite) {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    let cfg = ProbeConfig { frames: args.frames, seeds: args.seeds, ..ProbeConfig::default() };
    let p = match repair::probe(&gold, &buggy, &suite, &cfg) {
        Ok(p) => p,
        Err(e) => return bad(format!("{}: {e}", args.suite.display())),
    };
    if args.json || args.pretty {
        let timed = gobo_host::cost::Timed { result: &p, time: watch.timing() };
        crate::json_out::print(&serde_json::to_value(timed).unwrap_or_default(), args.pretty);
        return ExitCode::SUCCESS;
    }
    println!(
        "level {} ({}): pass gold {:.2} buggy {:.2} gap {:.2}; mismatch {:.3}; instability {:.2}",
        p.level,
        p.plan,
        p.gold_pass_rate,
        p.buggy_pass_rate,
        p.pass_gap,
        p.mismatch_rate,
        p.rerun_instability
    );
    match &p.first_divergence {
        Some(d) => println!(
            "first divergence: frame {} ({}) in '{}' seed {}",
            d.frame, d.signal, d.case, d.seed
        ),
        None => println!("no divergence within {} frames", cfg.frames),
    }
    // Cases that did not pass every seed, with the buggy program's first reason (a case cut by
    // the frame cap or waiting for what never comes says what it waited for).
    for c in
        p.cases.iter().filter(|c| c.gold_passes < p.config.seeds || c.buggy_passes < p.config.seeds)
    {
        println!(
            "case '{}': gold passes {}/{seeds}, buggy {}/{seeds}{}",
            c.name,
            c.gold_passes,
            c.buggy_passes,
            c.buggy_failure.as_deref().map_or_else(String::new, |r| format!(": {r}")),
            seeds = p.config.seeds
        );
    }
    ExitCode::SUCCESS
}
