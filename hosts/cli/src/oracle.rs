//! `gobo oracle GOLD BUGGY`: differential oracle synthesis (`gobo::scratch::oracle`,
//! docs/oracles.md): a test suite that passes on the gold program and fails on the buggy one,
//! with the report of every discriminating feature. Exit 0 when a separating suite was found,
//! 1 when none was, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo_host::repair::{self, Loaded, OracleParams};
use serde_json::Value as Json;

/// The oracle's flags, shared with `gobo forge`.
#[derive(Debug, Clone, Args)]
pub struct OracleFlags {
    /// R: rerun every case under seeds 1..=R.
    #[arg(long, default_value_t = 5)]
    pub reruns: u32,
    /// H: the tick budget (frames per case).
    #[arg(long, default_value_t = 2000)]
    pub ticks: u64,
    /// Checkpoint spacing in frames.
    #[arg(long, default_value_t = 10)]
    pub every: u64,
    /// θ_pass: least hold rate on gold.
    #[arg(long, default_value_t = 0.9)]
    pub theta_pass: f64,
    /// θ_fail: most hold rate on the buggy program.
    #[arg(long, default_value_t = 0.1)]
    pub theta_fail: f64,
    /// Most assertions in the suite.
    #[arg(long, default_value_t = 5)]
    pub max_assertions: usize,
    /// Templates to use, comma-separated (default: all).
    #[arg(long)]
    pub templates: Option<String>,
}

impl OracleFlags {
    /// The parameters `gobo_host::repair` takes (the server's and Python's names).
    pub fn params(&self) -> OracleParams {
        OracleParams {
            reruns: self.reruns,
            ticks: self.ticks,
            every: self.every,
            theta_pass: self.theta_pass,
            theta_fail: self.theta_fail,
            max_assertions: self.max_assertions,
            templates: self.templates.clone(),
            ..OracleParams::default()
        }
    }
}

#[derive(Debug, Args)]
pub struct OracleArgs {
    /// The gold project.
    gold: PathBuf,
    /// The buggy project.
    buggy: PathBuf,
    /// Scenario cases (a suite document, e.g. from `gobo scenarios -o`); default: the templates
    /// instantiated on the gold project.
    #[arg(long)]
    scenarios: Option<PathBuf>,
    #[command(flatten)]
    flags: OracleFlags,
    /// Write the suite here.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print the synthesis report as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

/// A project read and loaded, with its files (for compiling edited variants).
pub fn load_project(path: &std::path::Path) -> Result<Loaded, String> {
    let files = crate::project_input::load_files(path)?;
    Loaded::new(&files).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn run(args: OracleArgs) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("oracle", why);
    let watch = gobo_host::cost::Stopwatch::start();
    let (gold, buggy) = match (load_project(&args.gold), load_project(&args.buggy)) {
        (Ok(g), Ok(b)) => (g, b),
        (Err(e), _) | (_, Err(e)) => return bad(e),
    };
    let scenarios: Option<Json> = match &args.scenarios {
        Some(p) => match std::fs::read(p)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        {
            Ok(v) => Some(v),
            Err(e) => return bad(format!("{}: {e}", p.display())),
        },
        None => None,
    };
    let syn = match repair::oracle(&gold, &buggy, scenarios.as_ref(), &args.flags.params()) {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    if let Some(out) = &args.output {
        let text = serde_json::to_string_pretty(&syn.suite).unwrap_or_default();
        if let Err(e) = std::fs::write(out, text + "\n") {
            return bad(format!("{}: {e}", out.display()));
        }
    }
    if args.json || args.pretty {
        let mut v = serde_json::to_value(&syn).unwrap_or_default();
        v["time"] = serde_json::to_value(watch.timing()).unwrap_or_default();
        crate::json_out::print(&v, args.pretty);
    } else {
        for a in &syn.assertions {
            println!(
                "assert {} {} = {} (buggy: {}) in '{}'",
                a.feature.kind, a.feature.signal, a.feature.value, a.observed, a.feature.case
            );
        }
        for [case, why] in &syn.dropped_cases {
            println!("dropped '{case}': {why}");
        }
        match &syn.reason {
            Some(r) => println!("no suite: {r}"),
            None => println!(
                "{} assertions; {} candidate features",
                syn.assertions.len(),
                syn.candidates
            ),
        }
    }
    crate::exit::verdict(usize::from(!syn.accepted))
}
