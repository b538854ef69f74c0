//! `gobo validate PROJECT [--json]`: structural validation of a Scratch project
//! (`gobo::scratch::project::validate`, codes in docs/patches.md). Exit 0 when there are no
//! errors (warnings allowed), 1 when there are, 2 when the project cannot be read.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::project::validate::{validate_with, Context, Severity, Validation};
use gobo::scratch::project::{load_with, LoadOptions};

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The project: an .sb3, a folder holding project.json, or a project.json file.
    project: PathBuf,
    /// Do not check that every costume and sound asset is present.
    #[arg(long)]
    no_assets: bool,
    /// Print one JSON document: {valid, errors, warnings, findings: [{code, path, severity, message}]}.
    #[arg(long)]
    json: bool,
    /// Indent the JSON document (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: ValidateArgs) -> ExitCode {
    let path = &args.project;
    let files = match gobo_host::sb3::load_path(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("gobo: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    // Dropped references are reported as findings, not refused, so a damaged file is listed.
    let project = match load_with(&files.project_json, &LoadOptions { repair_references: true }) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("gobo: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let present = |name: &str| files.assets.contains_key(name);
    let cx = Context {
        asset_present: (!args.no_assets).then_some(&present as &dyn Fn(&str) -> bool),
        max_findings: 0,
    };
    let result = Validation::new(validate_with(&project, &cx));
    if args.json || args.pretty {
        let text = if args.pretty {
            serde_json::to_string_pretty(&result)
        } else {
            serde_json::to_string(&result)
        };
        println!("{}", text.unwrap_or_default());
    } else {
        for f in &result.findings {
            let sev = if f.severity == Severity::Error { "error" } else { "warning" };
            println!("{sev} {} {}: {}", f.code, f.path, f.message);
        }
        println!("{}: {} errors, {} warnings", path.display(), result.errors, result.warnings);
    }
    if result.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
