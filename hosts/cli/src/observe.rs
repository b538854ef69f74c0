//! `gobo observe PROJECT`: what a ScratchWorld composite-mode agent sees of a project
//! (docs/observation.md): the per-turn prompt text, the same as JSON with its index map, or
//! the scripts in scratchblocks syntax. Exit 0, or 2 when the project or target cannot be read.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use gobo::scratch::agent::{self, IndexMode, ObserveMode};
use gobo::scratch::project::{load_with, LoadOptions, Project};

/// `--mode`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// ScratchWorld's observation exactly (catalog blocks only).
    Compat,
    /// Also custom blocks, extensions, the stage's hat and every C-slot.
    Full,
}

impl From<ModeArg> for ObserveMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Compat => ObserveMode::Compat,
            ModeArg::Full => ObserveMode::Full,
        }
    }
}

/// `--index`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum IndexArg {
    /// `#n`, renumbered by structural edits.
    Index,
    /// `@id`, stable block ids.
    Id,
}

impl From<IndexArg> for IndexMode {
    fn from(m: IndexArg) -> Self {
        match m {
            IndexArg::Index => IndexMode::Index,
            IndexArg::Id => IndexMode::Id,
        }
    }
}

/// `--format`.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum FormatArg {
    /// The per-turn prompt text.
    Text,
    /// The observation as one JSON object.
    Json,
    /// The scripts in scratchblocks 3 syntax.
    Scratchblocks,
}

#[derive(Debug, Args)]
pub struct ObserveArgs {
    /// The project: an .sb3 archive, a folder holding project.json, or a project.json file.
    project: PathBuf,
    /// The editing target (default: the one ScratchWorld's editor opens, the first sprite).
    #[arg(long)]
    target: Option<String>,
    /// What the pseudocode shows.
    #[arg(long, value_enum, default_value = "compat")]
    mode: ModeArg,
    /// How blocks are named.
    #[arg(long, value_enum, default_value = "index")]
    index: IndexArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: FormatArg,
    /// Same as --format json.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

/// Load a project argument (warnings about repaired references go to stderr).
pub fn load_project(path: &Path) -> Result<(Project, gobo_host::sb3::ProjectFiles), String> {
    let files = gobo_host::sb3::load_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let options = LoadOptions { repair_references: true };
    let project =
        load_with(&files.project_json, &options).map_err(|e| format!("{}: {e}", path.display()))?;
    for warning in &project.warnings {
        eprintln!("gobo: warning: {}: {warning}", path.display());
    }
    Ok((project, files))
}

pub fn run(args: ObserveArgs) -> ExitCode {
    let (project, _) = match load_project(&args.project) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("gobo: observe: {e}");
            return ExitCode::from(2);
        }
    };
    let format = if args.json || args.pretty { FormatArg::Json } else { args.format };
    let editing = match agent::find_target(&project, args.target.as_deref()) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("gobo: observe: {}: {e}", args.project.display());
            return ExitCode::from(2);
        }
    };
    let ctx = agent::Ctx::new(&project, editing);
    match format {
        FormatArg::Scratchblocks => print!("{}", agent::scratchblocks::render(&ctx)),
        FormatArg::Text => {
            let obs = agent::observe_ctx(&ctx, args.mode.into(), args.index.into());
            print!("{}", obs.text);
        }
        FormatArg::Json => {
            let obs = agent::observe_ctx(&ctx, args.mode.into(), args.index.into());
            let out = if args.pretty {
                serde_json::to_string_pretty(&obs)
            } else {
                serde_json::to_string(&obs)
            };
            match out {
                Ok(s) => println!("{s}"),
                Err(e) => {
                    eprintln!("gobo: observe: {e}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    ExitCode::SUCCESS
}
