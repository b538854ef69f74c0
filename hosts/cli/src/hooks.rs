//! `gobo hooks PROJECT`: every hat script with its canonical trigger and the state signals it
//! writes (`gobo::scratch::forge::hooks`, docs/signals.md). Exit 0, or 2 when the project
//! cannot be read.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::forge::hooks;

#[derive(Debug, Args)]
pub struct HooksArgs {
    /// The project: an .sb3, a folder holding project.json, or a project.json file.
    project: PathBuf,
    /// Print `{"hooks": [...]}` as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: HooksArgs) -> ExitCode {
    let project = match crate::oracle::load_project(&args.project) {
        Ok(p) => p.project,
        Err(e) => return crate::exit::bad_input("hooks", e),
    };
    let list = hooks(&project);
    if args.json || args.pretty {
        let v = serde_json::json!({ "hooks": list });
        crate::json_out::print(&v, args.pretty);
    } else {
        for h in &list {
            println!("{} {} ({}): writes {}", h.sprite, h.trigger, h.block, h.writes.join(", "));
        }
    }
    ExitCode::SUCCESS
}
