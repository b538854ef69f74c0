//! `gobo patch apply|invert|diff`: block-edit and JSON patches on Scratch projects
//! (docs/patches.md). `apply` writes the patched project (`-o OUT.sb3` repacks every asset
//! deterministically; another name gets `project.json` bytes) and prints the outcome; `invert`
//! prints a block-edit patch's exact inverse; `diff` prints the block-edit patch from one
//! project to another. Exit 0 done, 1 the patch does not apply (or no patch can express the
//! difference), 2 bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use gobo::scratch::project::diff::{diff_atoms, diff_patch};
use gobo::scratch::project::patch::{edits_to_json, invert, parse_block_edits, PatchOptions};
use gobo::scratch::project::{load_with, LoadOptions};
use gobo_host::edit::{self, Format, Request};
use gobo_host::sb3::{self, ProjectFiles};

#[derive(Debug, Args)]
pub struct PatchArgs {
    #[command(subcommand)]
    command: PatchCommand,
}

#[derive(Debug, Subcommand)]
enum PatchCommand {
    /// Apply a patch; write the result with -o (OUT.sb3: an archive with every asset).
    Apply(ApplyArgs),
    /// Print the exact inverse of a block-edit patch on a project.
    Invert(InvertArgs),
    /// Print the block-edit patch that turns project A into project B (scripts, variables,
    /// lists, broadcasts).
    Diff(DiffArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
    /// Block-edit patch v1.
    BlockEdits,
    /// RFC 6902 JSON Patch over project.json (raw model text accepted).
    JsonPatch,
}

#[derive(Debug, Args)]
struct ApplyArgs {
    /// The project: an .sb3, a folder holding project.json, or a project.json file.
    project: PathBuf,
    /// The patch file (for json-patch, a model's raw reply with a fenced block is accepted).
    patch: PathBuf,
    /// The patch format.
    #[arg(long, value_enum, default_value = "block-edits")]
    format: FormatArg,
    /// Most edits or operations (default 10000 block edits, 100 JSON Patch operations).
    #[arg(long)]
    budget: Option<usize>,
    /// Seed of the ids given to new blocks without one.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where to write the result: an .sb3 archive, or project.json bytes for any other name.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Do not check that every costume and sound asset is present.
    #[arg(long)]
    no_assets: bool,
    /// Print the outcome as one JSON document.
    #[arg(long)]
    json: bool,
    /// With --json: indent it.
    #[arg(long)]
    pretty: bool,
}

#[derive(Debug, Args)]
struct InvertArgs {
    /// The project the patch applies to.
    project: PathBuf,
    /// The block-edit patch.
    patch: PathBuf,
    /// Seed of fresh ids (as given to apply).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Indent the printed patch.
    #[arg(long)]
    pretty: bool,
}

#[derive(Debug, Args)]
struct DiffArgs {
    /// The project before.
    a: PathBuf,
    /// The project after.
    b: PathBuf,
    /// Print the normalized atoms (ScratchEval's edit-distance units) instead of the patch.
    #[arg(long)]
    atoms: bool,
    /// Indent the printed JSON.
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: PatchArgs) -> ExitCode {
    match args.command {
        PatchCommand::Apply(a) => apply(a),
        PatchCommand::Invert(a) => invert_cmd(a),
        PatchCommand::Diff(a) => diff_cmd(a),
    }
}

fn bad_input(what: &Path, why: impl std::fmt::Display) -> ExitCode {
    eprintln!("gobo: {}: {why}", what.display());
    ExitCode::from(2)
}

fn read(path: &Path) -> Result<Vec<u8>, ExitCode> {
    std::fs::read(path).map_err(|e| bad_input(path, e))
}

fn load_files(path: &Path) -> Result<ProjectFiles, ExitCode> {
    sb3::load_path(path).map_err(|e| bad_input(path, e))
}

pub fn print_json(value: &serde_json::Value, pretty: bool) {
    let text =
        if pretty { serde_json::to_string_pretty(value) } else { serde_json::to_string(value) };
    println!("{}", text.unwrap_or_default());
}

fn apply(a: ApplyArgs) -> ExitCode {
    let files = match load_files(&a.project) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let patch = match read(&a.patch) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let format = match a.format {
        FormatArg::BlockEdits => Format::BlockEdits,
        FormatArg::JsonPatch => Format::JsonPatch,
    };
    let req = Request { format, budget: a.budget, seed: a.seed, check_assets: !a.no_assets };
    let (report, json) = match edit::apply(&files, &patch, &req) {
        Ok(r) => r,
        Err(why) => return bad_input(&a.project, why),
    };
    let mut value = serde_json::to_value(&report).unwrap_or_default();
    if let (Some(json), Some(out)) = (json, &a.output) {
        let is_sb3 = out.extension().is_some_and(|e| e.eq_ignore_ascii_case("sb3"));
        let bytes = if is_sb3 {
            match sb3::repack(&files, json) {
                Ok((bytes, _)) => bytes,
                Err(e) => return bad_input(out, e),
            }
        } else {
            json
        };
        if let Err(e) = std::fs::write(out, &bytes) {
            return bad_input(out, e);
        }
        value["output"] = serde_json::json!({
            "path": out.display().to_string(),
            "bytes": bytes.len(),
            "sha256": sb3::sha256_hex(&bytes),
        });
    }
    if a.json {
        print_json(&value, a.pretty);
    } else if report.ok {
        let what = if report.format == Format::BlockEdits { "edits" } else { "operations" };
        println!("applied {} {what}", report.edits);
        for f in &report.findings {
            println!("  {f}");
        }
        if let Some(o) = value.get("output") {
            let path = o["path"].as_str().unwrap_or("");
            let sha = o["sha256"].as_str().unwrap_or("");
            println!("wrote {path} ({} bytes, sha256 {sha})", o["bytes"]);
        }
    } else if let (Some(stage), Some(e)) = (value["stage"].as_str(), &report.error) {
        let edit = match e.index {
            Some(i) if report.format == Format::BlockEdits => format!(", edit {i}"),
            Some(i) => format!(", operation {i}"),
            None => String::new(),
        };
        let at = if e.path.is_empty() { String::new() } else { format!(" at {}", e.path) };
        eprintln!(
            "gobo: {}: failed at {stage}{edit}: {}{at}: {}",
            a.patch.display(),
            e.code,
            e.message
        );
        for f in &report.findings {
            println!("  {f}");
        }
    }
    if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn invert_cmd(a: InvertArgs) -> ExitCode {
    let files = match load_files(&a.project) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let patch = match read(&a.patch) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let project = match load_with(&files.project_json, &LoadOptions { repair_references: true }) {
        Ok(p) => p,
        Err(e) => return bad_input(&a.project, e),
    };
    let opts = PatchOptions { seed: a.seed, ..PatchOptions::default() };
    let inverse =
        parse_block_edits(&patch, opts.max_edits).and_then(|edits| invert(&project, &edits, &opts));
    match inverse {
        Ok(inv) => {
            let text = edits_to_json(&inv).to_bytes();
            let value: serde_json::Value = serde_json::from_slice(&text).unwrap_or_default();
            if a.pretty {
                print_json(&value, true);
            } else {
                println!("{}", String::from_utf8_lossy(&text));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gobo: {}: {e}", a.patch.display());
            ExitCode::from(1)
        }
    }
}

fn load_project(path: &Path) -> Result<gobo::scratch::project::Project, ExitCode> {
    let files = load_files(path)?;
    load_with(&files.project_json, &LoadOptions { repair_references: true })
        .map_err(|e| bad_input(path, e))
}

fn diff_cmd(a: DiffArgs) -> ExitCode {
    let before = match load_project(&a.a) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let after = match load_project(&a.b) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if a.atoms {
        let atoms = diff_atoms(&before, &after);
        print_json(&serde_json::to_value(&atoms).unwrap_or_default(), a.pretty);
        return ExitCode::SUCCESS;
    }
    match diff_patch(&before, &after) {
        Ok(edits) => {
            let text = edits_to_json(&edits).to_bytes();
            if a.pretty {
                let value: serde_json::Value = serde_json::from_slice(&text).unwrap_or_default();
                print_json(&value, true);
            } else {
                println!("{}", String::from_utf8_lossy(&text));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gobo: {}: {e}", a.b.display());
            ExitCode::from(1)
        }
    }
}
