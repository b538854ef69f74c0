//! `gobo convert`: read a project in any format gobo reads (`.sb3`, `.sb2`, a folder or a bare
//! `project.json` of either) and write it as an `.sb3` archive. A Scratch 2 project is
//! converted as scratch-vm 5.0.300 loads it (`docs/scratch-project.md`); a Scratch 3 project is
//! written back through the model. The output is deterministic.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::project::{save, LoadOptions};
use gobo_host::project::load_files;
use gobo_host::sb3::{save_path, ProjectFiles};

/// Arguments of `gobo convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// `.sb3`, `.sb2`, a folder holding `project.json`, or a `project.json` file.
    pub project: PathBuf,
    /// The `.sb3` file to write.
    #[arg(short = 'o', long)]
    pub output: PathBuf,
}

/// Run the subcommand.
pub fn run(a: ConvertArgs) -> ExitCode {
    let name = a.project.display();
    let files = match crate::project_input::load_files(&a.project) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("gobo: {e}");
            return ExitCode::from(2);
        }
    };
    let options = LoadOptions { repair_references: true };
    let (project, converted) = match load_files(&files, &options) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("gobo: {name}: {e}");
            return ExitCode::from(2);
        }
    };
    for warning in &project.warnings {
        eprintln!("gobo: warning: {name}: {warning}");
    }
    let out = ProjectFiles { project_json: save(&project), assets: converted.assets.clone() };
    match save_path(&a.output, &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gobo: {e}");
            ExitCode::from(2)
        }
    }
}
