//! `gobo edit-distance --base BUGGY --gold GOLD --candidate CAND`: ScratchEval's `d_edit`
//! (SPEC §2.8) from project differences, `|diff(base, gold) Δ diff(base, candidate)|`
//! (`gobo::scratch::project::diff::project_edit_distance`; docs/patches.md). Prints the
//! distance and the atoms each side has alone; exit 0 when it was computed (any distance: a
//! metric, not a verdict), 2 bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::project::diff::project_edit_distance;
use gobo::scratch::project::{load_with, LoadOptions, Project};
use gobo_host::sb3;

use crate::json_out;

#[derive(Debug, Args)]
pub struct EditDistanceArgs {
    /// The buggy project both fixes start from (.sb3, a folder or project.json).
    #[arg(long)]
    base: PathBuf,
    /// The gold fix.
    #[arg(long)]
    gold: PathBuf,
    /// The candidate (the base with the model's patch applied).
    #[arg(long)]
    candidate: PathBuf,
    /// Print one JSON document: `{d_edit, matched, missing, extra}`.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

fn load(path: &Path) -> Result<Project, ExitCode> {
    let bad = |why: String| {
        eprintln!("gobo: {}: {why}", path.display());
        ExitCode::from(2)
    };
    let files = sb3::load_path(path).map_err(|e| bad(e.to_string()))?;
    load_with(&files.project_json, &LoadOptions { repair_references: true })
        .map_err(|e| bad(e.to_string()))
}

pub fn run(a: EditDistanceArgs) -> ExitCode {
    let loaded = load(&a.base).and_then(|b| Ok((b, load(&a.gold)?, load(&a.candidate)?)));
    let (base, gold, candidate) = match loaded {
        Ok(p) => p,
        Err(code) => return code,
    };
    let d = project_edit_distance(&base, &gold, &candidate);
    if a.json || a.pretty {
        json_out::print(&serde_json::to_value(&d).unwrap_or_default(), a.pretty);
    } else {
        println!(
            "d_edit {} ({} gold edits, {} matched, {} missing, {} extra)",
            d.d_edit,
            d.matched.len() + d.missing.len(),
            d.matched.len(),
            d.missing.len(),
            d.extra.len()
        );
        for (sign, atoms) in [("-", &d.missing), ("+", &d.extra)] {
            for atom in atoms {
                println!("  {sign} {}", atom.join(" "));
            }
        }
    }
    ExitCode::SUCCESS
}
