//! Applying a patch (block edits or JSON Patch) to a project's files and reporting the outcome
//! as one JSON shape shared by the CLI (`gobo patch apply`) and the server; the semantics are
//! the core's (`gobo::scratch::project::patch`, `gobo::scratch::project::json_patch`).

use serde::Serialize;

use gobo::scratch::project::diff::{diff_atoms, diff_patch};
use gobo::scratch::project::json_patch::{self as profile, Profile, Stage, Step};
use gobo::scratch::project::patch::{
    apply_block_edits, edits_to_json, invert, parse_block_edits, BlockEdit, Created, ErrorCode,
    PatchOptions,
};
use gobo::scratch::project::validate::Finding;
use gobo::scratch::project::{load_with, save, LoadOptions, Project};

use crate::sb3::ProjectFiles;

/// The patch format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Block-edit patch v1 (docs/patches.md).
    BlockEdits,
    /// RFC 6902 JSON Patch over project.json, gobo's profile.
    JsonPatch,
}

/// How to apply.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// The format.
    pub format: Format,
    /// Most edits/operations (default: 10,000 block edits, 100 JSON Patch operations).
    pub budget: Option<usize>,
    /// Seed of fresh ids (block edits).
    pub seed: u64,
    /// Check that every costume and sound asset is present.
    pub check_assets: bool,
}

/// Why it failed, in the patch's terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// A code: block-edit codes (`BAD_LINK`...) or JSON Patch reasons (`no_such_path`...).
    pub code: String,
    /// The failing edit or operation.
    pub index: Option<usize>,
    /// JSON Pointer into the patch (block edits) or the document (JSON Patch).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// The outcome, as `gobo patch apply --json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The patch applied and the result validates.
    pub ok: bool,
    /// The format.
    pub format: Format,
    /// On failure: extract, schema, budget, apply or validate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<Stage>,
    /// On failure: the problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Problem>,
    /// Edits or operations applied.
    pub edits: usize,
    /// Blocks and declarations created by block edits.
    pub created: Vec<Created>,
    /// JSON Patch normalizations made.
    pub normalized: Vec<Step>,
    /// Validation findings of the result (on a validate failure: the new errors).
    pub findings: Vec<Finding>,
}

fn stage_of(code: ErrorCode) -> Stage {
    match code {
        ErrorCode::Schema => Stage::Schema,
        ErrorCode::Budget => Stage::Budget,
        ErrorCode::InvalidResult => Stage::Validate,
        _ => Stage::Apply,
    }
}

/// Applies `patch` to `files`. `Err` is bad input (the project itself does not load); a patch
/// that fails is an `Ok` report with `ok: false`. On success, the new `project.json` bytes.
pub fn apply(
    files: &ProjectFiles,
    patch: &[u8],
    req: &Request,
) -> Result<(Report, Option<Vec<u8>>), String> {
    let present = |name: &str| files.assets.contains_key(name);
    let assets: Option<&dyn Fn(&str) -> bool> =
        if req.check_assets { Some(&present) } else { None };
    let mut report = Report {
        ok: false,
        format: req.format,
        stage: None,
        error: None,
        edits: 0,
        created: Vec::new(),
        normalized: Vec::new(),
        findings: Vec::new(),
    };
    match req.format {
        Format::BlockEdits => {
            let mut project =
                load_with(&files.project_json, &LoadOptions { repair_references: true })
                    .map_err(|e| format!("{e}"))?;
            let opts = PatchOptions {
                max_edits: req.budget.unwrap_or(10_000),
                seed: req.seed,
                asset_present: assets,
                ..PatchOptions::default()
            };
            let result = parse_block_edits(patch, opts.max_edits)
                .and_then(|edits| apply_block_edits(&mut project, &edits, &opts));
            match result {
                Ok(r) => {
                    report.ok = true;
                    report.edits = r.edits;
                    report.created = r.created;
                    report.findings = r.findings;
                    Ok((report, Some(save(&project))))
                }
                Err(e) => {
                    report.stage = Some(stage_of(e.code));
                    report.error = Some(Problem {
                        code: e.code.as_str().into(),
                        index: e.edit,
                        path: e.path,
                        message: e.message,
                    });
                    report.findings = e.findings;
                    Ok((report, None))
                }
            }
        }
        Format::JsonPatch => {
            // A project that does not load is bad input, not a failed patch.
            load_with(&files.project_json, &LoadOptions { repair_references: true })
                .map_err(|e| format!("{e}"))?;
            let prof = Profile {
                budget: req.budget.unwrap_or(100),
                asset_present: assets,
                ..Profile::default()
            };
            match profile::apply_text(&files.project_json, patch, &prof) {
                Ok(out) => {
                    report.ok = true;
                    report.edits = out.ops;
                    report.normalized = out.normalized;
                    report.findings = out.findings;
                    Ok((report, Some(out.project_json)))
                }
                Err(f) => {
                    report.stage = Some(f.stage);
                    report.error = Some(Problem {
                        code: f.code,
                        index: f.index,
                        path: f.path,
                        message: f.message,
                    });
                    report.findings = f.findings;
                    Ok((report, None))
                }
            }
        }
    }
}

/// A block-edit patch as JSON (the CLI's printed form).
fn edits_value(edits: &[BlockEdit]) -> Result<serde_json::Value, String> {
    serde_json::from_slice(&edits_to_json(edits).to_bytes()).map_err(|e| e.to_string())
}

/// The document of `gobo patch invert` for the server and Python: `{ok: true, inverse}`, the
/// exact inverse of block-edit `patch` on `project`, or `{ok: false, error}` when it does not
/// apply. `Err` only if the patch cannot be written as JSON (a bug).
pub fn invert_doc(project: &Project, patch: &[u8], seed: u64) -> Result<serde_json::Value, String> {
    let opts = PatchOptions { seed, ..PatchOptions::default() };
    let inverse =
        parse_block_edits(patch, opts.max_edits).and_then(|edits| invert(project, &edits, &opts));
    Ok(match inverse {
        Ok(inv) => serde_json::json!({"ok": true, "inverse": edits_value(&inv)?}),
        Err(e) => serde_json::json!({"ok": false, "error": e.to_string()}),
    })
}

/// The document of `gobo patch diff`: `{ok: true, patch}` turning `a` into `b`, with `atoms`
/// `{ok: true, atoms}` (ScratchEval's edit-distance units), or `{ok: false, error}` when no
/// block-edit patch expresses the difference. `Err` only on a serialization bug.
pub fn diff_doc(a: &Project, b: &Project, atoms: bool) -> Result<serde_json::Value, String> {
    if atoms {
        let atoms = serde_json::to_value(diff_atoms(a, b)).map_err(|e| e.to_string())?;
        return Ok(serde_json::json!({"ok": true, "atoms": atoms}));
    }
    Ok(match diff_patch(a, b) {
        Ok(edits) => serde_json::json!({"ok": true, "patch": edits_value(&edits)?}),
        Err(e) => serde_json::json!({"ok": false, "error": e.to_string()}),
    })
}
