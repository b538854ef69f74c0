//! `gobo act PROJECT ACTIONS.jsonl -o OUT.sb3`: replays a ScratchWorld composite-mode
//! trajectory (one `{"api", "args"}` object per line) in a session (docs/composite.md), prints
//! each response as one JSON line, and writes the edited project (its assets kept) as a
//! deterministic `.sb3`. Exit 0 when every action succeeded, 1 when one failed (the project is
//! written either way, as ScratchWorld evaluates whatever the agent left), 2 when an input
//! cannot be read or the output written.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::agent::{Feedback, Session, SessionConfig};
use gobo_host::sb3::{save_path, ProjectFiles};

use crate::observe::{load_project, IndexArg, ModeArg};

#[derive(Debug, Args)]
pub struct ActArgs {
    /// The starting project: an .sb3 archive, a folder holding project.json, or a project.json.
    project: PathBuf,
    /// The actions, one JSON object per line (`-` for standard input). Blank lines are skipped.
    actions: PathBuf,
    /// Where to write the edited project (.sb3).
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
    /// Add the observation after each action to its response.
    #[arg(long)]
    observe_each: bool,
    /// Actions before the episode ends (0: no limit).
    #[arg(long, default_value_t = 50)]
    max_steps: u32,
    /// Observation and action semantics.
    #[arg(long, value_enum, default_value = "compat")]
    mode: ModeArg,
    /// How actions name blocks.
    #[arg(long, value_enum, default_value = "index")]
    index: IndexArg,
    /// Seed of new block, variable and message ids.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print only what ScratchWorld's agents see (step counters and observation).
    #[arg(long)]
    observation_only: bool,
    /// Resolve indices against the last observation instead of a fresh one per action
    /// (ScratchWorld's server without its client's per-turn observation).
    #[arg(long)]
    no_auto_observe: bool,
    /// Indent each response.
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: ActArgs) -> ExitCode {
    match act(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("gobo: act: {e}");
            ExitCode::from(2)
        }
    }
}

fn act(args: &ActArgs) -> Result<bool, String> {
    let (project, files) = load_project(&args.project)?;
    let lines = if args.actions.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("standard input: {e}"))?
    } else {
        std::fs::read_to_string(&args.actions)
            .map_err(|e| format!("{}: {e}", args.actions.display()))?
    };
    let config = SessionConfig {
        mode: args.mode.into(),
        index: args.index.into(),
        seed: args.seed,
        max_steps: args.max_steps,
        observe_each: args.observe_each,
        feedback: if args.observation_only { Feedback::ObservationOnly } else { Feedback::Full },
        auto_observe: !args.no_auto_observe,
        ..SessionConfig::default()
    };
    let mut session =
        Session::new(project, config).map_err(|e| format!("{}: {e}", args.project.display()))?;
    let mut all_ok = true;
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let r = session.act_text(line);
        all_ok &= r.ok() || (args.observation_only && r.error.is_none());
        let text =
            if args.pretty { serde_json::to_string_pretty(&r) } else { serde_json::to_string(&r) };
        println!("{}", text.map_err(|e| e.to_string())?);
    }
    if let Some(out) = &args.out {
        let project_json = gobo::scratch::project::save(session.project());
        let files = ProjectFiles { project_json, assets: files.assets };
        save_path(out, &files).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(all_ok)
}
