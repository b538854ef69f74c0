//! Structural validation of a project model: [`validate`] lists [`Finding`]s, each with a code,
//! a JSON Pointer (RFC 6901) into `project.json`, a severity and a message. Errors are what
//! scratch-vm would load wrongly or a patch must never produce; warnings are what real
//! projects carry and Scratch tolerates (orphan shadows, unknown opcodes, menus naming missing
//! costumes). The same checks run after every patch (`INVALID_RESULT`).
//!
//! What is checked, by module: `structure` (the block forest: owners, cycles, `parent`,
//! `topLevel`/`x`/`y`, shadows, input kinds, the id index), `refs` (variable, list and
//! broadcast references, declaration names), `shapes` (opcodes and extensions against
//! [`catalog`](crate::scratch::catalog), what connects where), `procs` (custom-block
//! prototypes, calls and argument reporters), `menus` (costume, backdrop, sound and sprite
//! names in menus) and `targets` (sprite names, layers, costumes, sounds and their assets,
//! comments, monitors). Finding codes are listed in `docs/patches.md`.

mod menus;
mod pointer;
mod procs;
mod refs;
mod shapes;
mod structure;
mod targets;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;

use super::error::LoadError;
use super::model::Project;

pub use pointer::Pointer;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Scratch would load or run it wrongly, or an edit broke an invariant.
    Error,
    /// Unusual but tolerated by Scratch.
    Warning,
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// A stable code, e.g. `"SHARED_BLOCK"` (see `docs/patches.md`).
    pub code: &'static str,
    /// JSON Pointer into `project.json`, e.g. `/targets/1/blocks/a~1b/next`.
    pub path: String,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, for a person.
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{sev} {} at {}: {}", self.code, self.path, self.message)
    }
}

/// What the core cannot know by itself: which asset files exist.
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    /// Whether an asset file (`md5ext`, e.g. `"abc.png"`) is present; `None` skips the check.
    pub asset_present: Option<&'a dyn Fn(&str) -> bool>,
    /// Most findings to report; further ones are counted in a final `TOO_MANY_FINDINGS`.
    /// `0` means the default, 1000.
    pub max_findings: usize,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("asset_present", &self.asset_present.is_some())
            .field("max_findings", &self.max_findings)
            .finish()
    }
}

/// Collects findings up to a cap.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) findings: Vec<Finding>,
    cap: usize,
    dropped: usize,
}

impl Report {
    pub(crate) fn push(
        &mut self,
        code: &'static str,
        path: String,
        severity: Severity,
        message: String,
    ) {
        if self.findings.len() < self.cap {
            self.findings.push(Finding { code, path, severity, message });
        } else {
            self.dropped += 1;
        }
    }

    pub(crate) fn error(&mut self, code: &'static str, path: String, message: String) {
        self.push(code, path, Severity::Error, message);
    }

    pub(crate) fn warn(&mut self, code: &'static str, path: String, message: String) {
        self.push(code, path, Severity::Warning, message);
    }
}

/// Which targets the block checks cover.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scope<'a> {
    /// Every target.
    All,
    /// These target indices (in any order; out-of-range ones are ignored).
    Only(&'a [usize]),
}

impl<'a> Scope<'a> {
    /// The targets in scope, with their indices, in document order.
    pub(crate) fn targets<'p>(
        self,
        project: &'p Project,
    ) -> impl Iterator<Item = (usize, &'p super::model::Target)> + use<'p, 'a> {
        project.targets.iter().enumerate().filter(move |(t, _)| match self {
            Scope::All => true,
            Scope::Only(list) => list.contains(t),
        })
    }
}

/// Validates a project without asset information.
pub fn validate(project: &Project) -> Vec<Finding> {
    validate_with(project, &Context::default())
}

/// Validates a project; errors first, then warnings, each in document order.
pub fn validate_with(project: &Project, cx: &Context<'_>) -> Vec<Finding> {
    let cap = if cx.max_findings == 0 { 1000 } else { cx.max_findings };
    let mut report = Report { findings: Vec::new(), cap, dropped: 0 };
    for w in &project.warnings {
        repaired(w, &mut report);
    }
    check_blocks(project, Scope::All, &mut report);
    targets::check(project, cx, &mut report);
    finish(report)
}

/// Validates only what an edit of the blocks and declarations of targets `only` (indices
/// into `project.targets`) can break: the block checks of those targets (structure,
/// references, shapes, custom blocks, menus), as [`validate`] makes them. The project-wide
/// checks (sprite names, layers, costumes, sounds, comments, monitors, load repairs) are left
/// out. A composite session runs it after every action (`docs/composite.md`).
pub fn validate_targets(project: &Project, only: &[usize]) -> Vec<Finding> {
    let mut report = Report { findings: Vec::new(), cap: 1000, dropped: 0 };
    check_blocks(project, Scope::Only(only), &mut report);
    finish(report)
}

fn check_blocks(project: &Project, scope: Scope<'_>, report: &mut Report) {
    for (t, target) in scope.targets(project) {
        structure::check(&target.blocks, t, report);
    }
    refs::check(project, scope, report);
    shapes::check(project, scope, report);
    procs::check(project, scope, report);
    menus::check(project, scope, report);
}

fn finish(mut report: Report) -> Vec<Finding> {
    if report.dropped > 0 {
        let message = alloc::format!("{} more findings not listed", report.dropped);
        report.findings.push(Finding {
            code: "TOO_MANY_FINDINGS",
            path: String::new(),
            severity: Severity::Warning,
            message,
        });
    }
    // Stable: errors first, document order kept within each severity.
    report.findings.sort_by_key(|f| f.severity);
    report.findings
}

/// A reference the loader dropped in repair mode ([`super::LoadOptions`]): an error, since
/// saving the model would lose it.
fn repaired(w: &LoadError, report: &mut Report) {
    let (code, path) = match w {
        LoadError::DanglingBlock { path, .. } => ("DANGLING_REFERENCE", path),
        LoadError::SharedBlock { path, .. } => ("SHARED_BLOCK", path),
        LoadError::Cycle { path, .. } => ("CYCLE", path),
        _ => ("LOAD_REPAIR", &String::new()),
    };
    report.error(code, pointer::from_load_path(path), alloc::format!("{w} (dropped when loading)"));
}

/// A validation result as the CLI (`gobo validate --json`) and the server return it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Validation {
    /// No errors (warnings allowed).
    pub valid: bool,
    /// Number of errors.
    pub errors: usize,
    /// Number of warnings.
    pub warnings: usize,
    /// Every finding, errors first.
    pub findings: Vec<Finding>,
}

impl Validation {
    /// Summarizes findings.
    pub fn new(findings: Vec<Finding>) -> Validation {
        let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
        Validation { valid: errors == 0, errors, warnings: findings.len() - errors, findings }
    }
}

/// The findings of `after` with severity `severity` that `before` does not have (the same
/// code at the same path): what an edit introduced. Patches and composite actions refuse a
/// result with new errors.
pub fn introduced(before: &[Finding], after: &[Finding], severity: Severity) -> Vec<Finding> {
    after
        .iter()
        .filter(|f| {
            f.severity == severity
                && !before
                    .iter()
                    .any(|b| b.severity == severity && b.code == f.code && b.path == f.path)
        })
        .cloned()
        .collect()
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}
