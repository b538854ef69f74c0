//! `gobo scenarios PROJECT`: the project's metadata (keys, clickable sprites, messages,
//! questions, mouse use, life counters) and the scenario templates instantiated into test-suite
//! cases without expectations (`gobo::scratch::forge::templates`, docs/bug-forge.md). `-o`
//! writes the cases as a runnable suite document. Exit 0, or 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::forge::{extract, instantiate, parse_templates, ScenarioConfig};
use gobo::scratch::project::{load_with, LoadOptions};

#[derive(Debug, Args)]
pub struct ScenariosArgs {
    /// The project: an .sb3, a folder holding project.json, or a project.json file.
    project: PathBuf,
    /// Templates to use, comma-separated (default: all).
    #[arg(long)]
    templates: Option<String>,
    /// The tick budget H: frames every case runs.
    #[arg(long, default_value_t = 2000)]
    ticks: u64,
    /// Most cases kept.
    #[arg(long, default_value_t = 12)]
    max_cases: usize,
    /// Write the cases as a suite document (docs/test-suite.md) to this file.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print {meta, fps, frames, cases} as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: ScenariosArgs) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("scenarios", why);
    let files = match crate::project_input::load_files(&args.project) {
        Ok(f) => f,
        Err(e) => return bad(e),
    };
    let files = gobo_host::project::scratch3_files(&files);
    let project = match load_with(&files.project_json, &LoadOptions { repair_references: true }) {
        Ok(p) => p,
        Err(e) => return bad(format!("{}: {e}", args.project.display())),
    };
    let mut cfg = ScenarioConfig {
        frames: args.ticks,
        max_cases: args.max_cases,
        ..ScenarioConfig::default()
    };
    if let Some(t) = &args.templates {
        match parse_templates(t) {
            Ok(t) => cfg.templates = t,
            Err(e) => return bad(e),
        }
    }
    let scenarios = instantiate(&extract(&project), &cfg);
    if let Some(out) = &args.output {
        let text = serde_json::to_string_pretty(&scenarios.suite("scenarios")).unwrap_or_default();
        if let Err(e) = std::fs::write(out, text + "\n") {
            return bad(format!("{}: {e}", out.display()));
        }
    }
    if args.json || args.pretty {
        crate::json_out::print(&serde_json::to_value(&scenarios).unwrap_or_default(), args.pretty);
    } else {
        let m = &scenarios.meta;
        println!("keys: {}", m.keys.join(", "));
        println!("clickable: {}", m.clickable.join(", "));
        println!("messages: {}", m.messages.join(", "));
        println!("asks: {}, mouse: {}", m.asks, m.mouse);
        for c in &scenarios.cases {
            println!("case {}", c["name"].as_str().unwrap_or(""));
        }
    }
    ExitCode::SUCCESS
}
