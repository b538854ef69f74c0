//! `gobo lint` (SPEC §2.11): binding findings (a block's variable, list or broadcast reference
//! against the declarations it resolves to) and, when the project is compared with the project a
//! patch was applied to, barrier findings (a `broadcast and wait` removed or replaced by a delay).
//!
//! Static: nothing runs. The codes and their exact conditions are in `docs/lint.md`; structural
//! validity (`gobo validate`) is not repeated here.

mod barrier;
mod binding;
mod refs;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Serialize, Serializer};

use crate::scratch::project::Project;

/// A finding's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// A reference id names no declaration of its kind visible from the block's target.
    BindingDangling,
    /// A reference's display name differs from the name of the declaration its id names.
    BindingNameMismatch,
    /// A sprite-local variable or list has a global's name; says which one the field binds.
    BindingShadowed,
    /// A patch rebinds some but not all uses of one variable or list in a script.
    BindingPartialRebind,
    /// A patch replaced a `broadcast and wait` by `broadcast` and a literal `wait`, or put a
    /// polling loop right after a `broadcast`.
    BarrierDelaySubstitute,
    /// A patch removed a `broadcast and wait` whose receivers write state read after it.
    BarrierRemoved,
}

impl Code {
    /// Every code, in documentation order.
    pub const ALL: [Code; 6] = [
        Code::BindingDangling,
        Code::BindingNameMismatch,
        Code::BindingShadowed,
        Code::BindingPartialRebind,
        Code::BarrierDelaySubstitute,
        Code::BarrierRemoved,
    ];

    /// The code as reported, e.g. `binding.dangling`.
    pub fn name(self) -> &'static str {
        match self {
            Code::BindingDangling => "binding.dangling",
            Code::BindingNameMismatch => "binding.name_mismatch",
            Code::BindingShadowed => "binding.shadowed",
            Code::BindingPartialRebind => "binding.partial_rebind",
            Code::BarrierDelaySubstitute => "barrier.delay_substitute",
            Code::BarrierRemoved => "barrier.removed",
        }
    }

    /// The severity every finding of this code has.
    pub fn severity(self) -> Severity {
        match self {
            Code::BindingDangling => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// How bad a finding is: `Error` when the program does not do what its blocks show (a
/// reference that does not resolve), `Warning` when it is likely wrong but runs as written.
/// The validator's severity, so both kinds of finding sort and serialize alike.
pub use crate::scratch::project::validate::Severity;

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub code: Code,
    pub severity: Severity,
    /// The target (sprite name, or the stage's name) holding the block.
    pub target: String,
    /// The block the finding is about (`None` for a declaration-level finding).
    pub block: Option<String>,
    /// What is wrong, for a person (names ids, declarations and the other blocks involved).
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{sev} {} {}", self.code, self.target)?;
        if let Some(b) = &self.block {
            write!(f, " block {b}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// The result of [`lint`]: findings sorted by code, target and block, with their counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LintReport {
    pub findings: Vec<Finding>,
    pub errors: usize,
    pub warnings: usize,
    /// Whether the patch-relative rules (`binding.partial_rebind`, `barrier.*`) ran, i.e. a
    /// base project was given.
    pub patch_rules: bool,
}

impl LintReport {
    /// Whether there is no finding at all.
    pub fn clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// Lints `project`. With `base` (the project a patch was applied to, `project` being the
/// result), the patch-relative rules run too; blocks and targets are matched by id and name.
pub fn lint(project: &Project, base: Option<&Project>) -> LintReport {
    let mut findings = Vec::new();
    binding::dangling_and_names(project, &mut findings);
    binding::shadowed(project, &mut findings);
    if let Some(base) = base {
        binding::partial_rebind(base, project, &mut findings);
        barrier::delay_substitute(base, project, &mut findings);
        barrier::removed(base, project, &mut findings);
    }
    findings.sort_by(|a, b| {
        (a.code, &a.target, &a.block, &a.message).cmp(&(b.code, &b.target, &b.block, &b.message))
    });
    findings.dedup();
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    LintReport { warnings: findings.len() - errors, errors, findings, patch_rules: base.is_some() }
}

fn finding(code: Code, target: &str, block: Option<&str>, message: String) -> Finding {
    Finding {
        code,
        severity: code.severity(),
        target: target.into(),
        block: block.map(String::from),
        message,
    }
}
