//! `gobo json-patch DOC PATCH [-o OUT]`: RFC 6902 JSON Patch on any JSON document
//! (`gobo::json_patch`, docs/patches.md), with key order kept. Prints the patched document
//! (or writes it to OUT). Exit 0 applied, 1 the patch does not apply (the operation and the
//! RFC 6902 reason on stderr), 2 bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::json_patch::{self, Limits};
use gobo::scratch::project::Json;

#[derive(Debug, Args)]
pub struct JsonPatchArgs {
    /// The JSON document.
    doc: PathBuf,
    /// The patch: a JSON array of operations.
    patch: PathBuf,
    /// Write the patched document here instead of printing it.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Most operations (default 100,000).
    #[arg(long)]
    max_ops: Option<usize>,
}

fn read_json(path: &Path) -> Result<Json, ExitCode> {
    let bad = |why: String| {
        eprintln!("gobo: {}: {why}", path.display());
        ExitCode::from(2)
    };
    let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    Json::parse(&bytes).map_err(|e| bad(format!("not JSON: {e}")))
}

pub fn run(args: JsonPatchArgs) -> ExitCode {
    let mut doc = match read_json(&args.doc) {
        Ok(d) => d,
        Err(code) => return code,
    };
    let patch = match read_json(&args.patch) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut limits = Limits::default();
    if let Some(n) = args.max_ops {
        limits.max_ops = n;
    }
    if let Err(e) = json_patch::apply_json(&mut doc, &patch, &limits) {
        eprintln!("gobo: {}: {}: {e}", args.patch.display(), e.kind.code());
        return ExitCode::from(1);
    }
    let bytes = doc.to_bytes();
    match &args.output {
        Some(out) => {
            if let Err(e) = std::fs::write(out, &bytes) {
                eprintln!("gobo: {}: {e}", out.display());
                return ExitCode::from(2);
            }
        }
        None => println!("{}", String::from_utf8_lossy(&bytes)),
    }
    ExitCode::SUCCESS
}
