//! `gobo lint PROJECT [--base BASE]`: binding findings, and with the project a patch was
//! applied to, the patch's binding and barrier findings (`gobo::scratch::lint`, docs/lint.md).
//! Exit 0 with no finding, 1 with findings, 2 when a project cannot be read.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::lint::lint;

#[derive(Debug, Args)]
pub struct LintArgs {
    /// The project: an .sb3, a folder holding project.json, or a project.json file.
    project: PathBuf,
    /// The project before the patch (then `binding.partial_rebind` and `barrier.*` run too).
    #[arg(long)]
    base: Option<PathBuf>,
    /// Print the report as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: LintArgs) -> ExitCode {
    let project = match crate::oracle::load_project(&args.project) {
        Ok(p) => p.project,
        Err(e) => return crate::exit::bad_input("lint", e),
    };
    let base = match args.base.as_deref().map(crate::oracle::load_project).transpose() {
        Ok(b) => b.map(|b| b.project),
        Err(e) => return crate::exit::bad_input("lint", e),
    };
    let report = lint(&project, base.as_ref());
    if args.json || args.pretty {
        let v = serde_json::to_value(&report).unwrap_or_default();
        crate::json_out::print(&v, args.pretty);
    } else {
        for f in &report.findings {
            println!("{f}");
        }
        println!("{} errors, {} warnings", report.errors, report.warnings);
    }
    crate::exit::verdict(report.findings.len())
}
