//! Block-edit patches (format v1, `docs/patches.md`): ScratchEval's atomic `remove` / `add` /
//! `modify` edits addressed by target name and block id, with link kinds and remove modes,
//! extended to variables, lists and broadcasts, applied atomically with structural validation
//! of the result, and inverted exactly.
//!
//! - [`parse_block_edits`]: JSON text → [`BlockEdit`]s (`SCHEMA`, `BUDGET` errors).
//! - [`apply_block_edits`]: applies them in order; any failing edit fails the whole patch
//!   and the project is left as it was. The result must not have validation errors that the
//!   project did not have before (`INVALID_RESULT`).
//! - [`invert`]: the exact inverse: applying a patch and then its inverse gives back the same
//!   `project.json` bytes.
//! - [`edits_to_json`]: edits → JSON (what `invert` and `diff` print).
//!
//! Errors ([`PatchError`]) carry a code ([`ErrorCode`]), the failing edit's index and a JSON
//! Pointer into the patch.

mod apply;
mod build;
mod error;
mod exact;
mod inverse;
mod model;
mod parse;
mod raw;
mod write;

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::edit::IdGen;
use super::model::{Monitor, Project, Target};
use super::validate::{introduced, validate_with, Context, Finding, Severity};

pub use error::{ErrorCode, PatchError};
pub use model::{
    BlockEdit, BlockSpec, Child, DeclPath, DeclRef, DeclSpec, EditKind, FieldSpec, InputSpec, Link,
    ModPath, TargetRef,
};
pub use parse::{edits_from_json, parse_block_edits};
pub(crate) use write::spec_to_json;
pub use write::{edit_to_json, edits_to_json};

/// An existing block (with its inputs; with `with_next`, the blocks after it) as an exact
/// spec with its ids and file positions (for `diff`).
pub(crate) fn exact_spec_public(
    blocks: &super::Blocks,
    idx: super::BlockIdx,
    with_next: bool,
) -> Option<BlockSpec> {
    exact::exact_spec(blocks, idx, with_next)
}

/// A target's block records as `(id, record)` in file order (for `diff`).
pub(crate) fn records_public(project: &Project, t: usize) -> Vec<(String, super::Json)> {
    raw::records_of(project, t)
}

/// How the result of a patch is validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PostCheck {
    /// Fail on validation errors the project did not have before (default): a patch is not
    /// blamed for damage it did not make.
    #[default]
    NewErrors,
    /// Fail on any validation error.
    AllErrors,
    /// Do not validate.
    Off,
}

/// Options of [`apply_block_edits`] and [`invert`].
#[derive(Clone, Copy)]
pub struct PatchOptions<'a> {
    /// Most edits a patch may hold (`BUDGET`); default 10,000.
    pub max_edits: usize,
    /// Seed of the ids given to new blocks and declarations without one.
    pub seed: u64,
    /// Validation of the result.
    pub check: PostCheck,
    /// Which asset files exist, for the validation (`None`: not checked).
    pub asset_present: Option<&'a dyn Fn(&str) -> bool>,
}

impl Default for PatchOptions<'_> {
    fn default() -> Self {
        PatchOptions {
            max_edits: 10_000,
            seed: 0,
            check: PostCheck::NewErrors,
            asset_present: None,
        }
    }
}

impl core::fmt::Debug for PatchOptions<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PatchOptions")
            .field("max_edits", &self.max_edits)
            .field("seed", &self.seed)
            .field("check", &self.check)
            .finish()
    }
}

/// A block or declaration an `add` created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Created {
    /// The edit's index.
    pub edit: usize,
    /// Its id (given or fresh).
    pub id: String,
}

/// What applying a patch did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PatchReport {
    /// Edits applied.
    pub edits: usize,
    /// Ids of what the `add` edits created.
    pub created: Vec<Created>,
    /// Findings of the result's validation (warnings, and errors it had before).
    pub findings: Vec<Finding>,
}

/// Copies of what a patch touched, to put back when it fails.
#[derive(Default)]
struct Undo {
    targets: Vec<(usize, Target)>,
    monitors: Option<Vec<Monitor>>,
}

impl Undo {
    fn save(&mut self, project: &Project, e: &BlockEdit, i: usize) -> Result<(), PatchError> {
        let all = matches!(
            e.kind,
            EditKind::AddDecl(_) | EditKind::RemoveDecl { .. } | EditKind::ModifyDecl { .. }
        );
        let ts: Vec<usize> = if all {
            (0..project.targets.len()).collect()
        } else {
            alloc::vec![apply::target_index(project, &e.target, i)?]
        };
        for t in ts {
            if !self.targets.iter().any(|(s, _)| *s == t) {
                self.targets.push((t, project.targets[t].clone()));
            }
        }
        if all && self.monitors.is_none() {
            self.monitors = Some(project.monitors.clone());
        }
        Ok(())
    }

    fn restore(self, project: &mut Project) {
        for (t, target) in self.targets {
            project.targets[t] = target;
        }
        if let Some(m) = self.monitors {
            project.monitors = m;
        }
    }
}

fn errors(findings: &[Finding]) -> Vec<(&'static str, &str)> {
    findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| (f.code, f.path.as_str()))
        .collect()
}

/// Applies a patch atomically: all edits, then the validation `opts.check` asks for, or
/// nothing at all.
pub fn apply_block_edits(
    project: &mut Project,
    edits: &[BlockEdit],
    opts: &PatchOptions<'_>,
) -> Result<PatchReport, PatchError> {
    if edits.len() > opts.max_edits {
        let msg =
            alloc::format!("{} edits, more than the budget of {}", edits.len(), opts.max_edits);
        return Err(PatchError::new(ErrorCode::Budget, None, String::new(), msg));
    }
    let cx = Context { asset_present: opts.asset_present, max_findings: 0 };
    let before = match opts.check {
        PostCheck::NewErrors => Some(validate_with(project, &cx)),
        _ => None,
    };
    let mut undo = Undo::default();
    let mut ids = IdGen::new(opts.seed);
    let mut created = Vec::new();
    for (i, e) in edits.iter().enumerate() {
        let step =
            undo.save(project, e, i).and_then(|()| apply::apply_one(project, e, i, &mut ids));
        match step {
            Ok(Some(id)) => created.push(Created { edit: i, id }),
            Ok(None) => {}
            Err(err) => {
                undo.restore(project);
                return Err(err);
            }
        }
    }
    if opts.check == PostCheck::Off {
        return Ok(PatchReport { edits: edits.len(), created, findings: Vec::new() });
    }
    let after = validate_with(project, &cx);
    let new = introduced(before.as_deref().unwrap_or_default(), &after, Severity::Error);
    if new.is_empty() {
        return Ok(PatchReport { edits: edits.len(), created, findings: after });
    }
    undo.restore(project);
    let old = before.as_deref().map(errors).unwrap_or_default();
    let edit = first_breaking(project, edits, opts, &cx, &old);
    let mut err = PatchError::new(
        ErrorCode::InvalidResult,
        edit,
        String::new(),
        alloc::format!("the patched project has {} new validation errors", new.len()),
    );
    err.findings = new;
    Err(err)
}

/// The first edit after which the project has a new validation error (replayed on a copy).
fn first_breaking(
    project: &Project,
    edits: &[BlockEdit],
    opts: &PatchOptions<'_>,
    cx: &Context<'_>,
    old: &[(&str, &str)],
) -> Option<usize> {
    let mut probe = project.clone();
    let mut ids = IdGen::new(opts.seed);
    for (i, e) in edits.iter().enumerate() {
        apply::apply_one(&mut probe, e, i, &mut ids).ok()?;
        let now = validate_with(&probe, cx);
        if errors(&now).iter().any(|e| !old.contains(e)) {
            return Some(i);
        }
    }
    None
}

/// The exact inverse of a patch on `project`: applying the patch and then the result gives
/// back the same `project.json`. Fails with the error applying the patch would give.
pub fn invert(
    project: &Project,
    edits: &[BlockEdit],
    opts: &PatchOptions<'_>,
) -> Result<Vec<BlockEdit>, PatchError> {
    let mut check = project.clone();
    apply_block_edits(&mut check, edits, opts)?;
    inverse::invert_edits(project, edits, opts.seed)
}
