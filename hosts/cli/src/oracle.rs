//! `gobo oracle GOLD BUGGY`: differential oracle synthesis (`gobo::scratch::oracle`,
//! docs/oracles.md): a test suite that passes on the gold program and fails on the buggy one,
//! with the report of every discriminating feature. Exit 0 when a separating suite was found,
//! 1 when none was, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::forge::{extract, instantiate, parse_templates, ScenarioConfig};
use gobo::scratch::oracle::{prepare, record_gold, synthesize, OracleConfig};
use gobo::scratch::project::{load_with, save, LoadOptions, Project};
use gobo_host::sb3::ProjectFiles;
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
    pub fn config(&self) -> OracleConfig {
        OracleConfig {
            reruns: self.reruns,
            ticks: self.ticks,
            every: self.every,
            theta_pass: self.theta_pass,
            theta_fail: self.theta_fail,
            max_assertions: self.max_assertions,
            ..OracleConfig::default()
        }
    }

    pub fn scenarios(&self) -> Result<ScenarioConfig, String> {
        let mut cfg = ScenarioConfig { frames: self.ticks, ..ScenarioConfig::default() };
        if let Some(t) = &self.templates {
            cfg.templates = parse_templates(t)?;
        }
        Ok(cfg)
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
pub fn load_project(path: &std::path::Path) -> Result<(Project, ProjectFiles), String> {
    let files = crate::project_input::load_files(path)?;
    let files = gobo_host::project::scratch3_files(&files).into_owned();
    let project = load_with(&files.project_json, &LoadOptions { repair_references: true })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((project, files))
}

pub fn run(args: OracleArgs) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("oracle", why);
    let watch = gobo_host::cost::Stopwatch::start();
    let ((gold, gold_files), (buggy, buggy_files)) =
        match (load_project(&args.gold), load_project(&args.buggy)) {
            (Ok(g), Ok(b)) => (g, b),
            (Err(e), _) | (_, Err(e)) => return bad(e),
        };
    let cfg = args.flags.config();
    let scenarios: Json = match &args.scenarios {
        Some(p) => match std::fs::read(p)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        {
            Ok(v) => v,
            Err(e) => return bad(format!("{}: {e}", p.display())),
        },
        None => match args.flags.scenarios() {
            Ok(sc) => instantiate(&extract(&gold), &sc).suite("scenarios"),
            Err(e) => return bad(e),
        },
    };
    let gold_text = String::from_utf8(save(&gold)).unwrap_or_default();
    let prep = match prepare(&scenarios, &gold_text, &cfg) {
        Ok(p) => p,
        Err(e) => return bad(e.to_string()),
    };
    let compile = |p: &Project, f: &ProjectFiles| {
        gobo_host::project::compile_project(p, f).map_err(|e| e.to_string())
    };
    let (gold_image, buggy_image) =
        match (compile(&gold, &gold_files), compile(&buggy, &buggy_files)) {
            (Ok(g), Ok(b)) => (g, b),
            (Err(e), _) => return bad(format!("{}: {e}", args.gold.display())),
            (_, Err(e)) => return bad(format!("{}: {e}", args.buggy.display())),
        };
    let rec = record_gold(&prep, &gold_image, &cfg);
    let mut syn = synthesize(&prep, &rec, &gold_image, &buggy_image, &cfg);
    syn.work.add(&rec.work);
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
