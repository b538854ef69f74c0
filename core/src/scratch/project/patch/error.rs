//! [`PatchError`]: why a patch was refused, naming the edit (its index) and the place in the
//! patch (a JSON Pointer) and, for a result that fails validation, the findings.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;

use super::super::validate::Finding;

/// The failure classes of block-edit patches (`docs/patches.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The patch is not JSON of the patch schema.
    #[serde(rename = "SCHEMA")]
    Schema,
    /// More edits than the budget allows.
    #[serde(rename = "BUDGET")]
    Budget,
    /// `sprite_id` names no target.
    #[serde(rename = "UNKNOWN_TARGET")]
    UnknownTarget,
    /// A block id that is not in the target.
    #[serde(rename = "UNKNOWN_BLOCK")]
    UnknownBlock,
    /// A modify path the block does not have.
    #[serde(rename = "UNKNOWN_PATH")]
    UnknownPath,
    /// An opcode the catalog does not know.
    #[serde(rename = "UNKNOWN_OPCODE")]
    UnknownOpcode,
    /// A new opcode whose inputs, fields or shape do not fit the block.
    #[serde(rename = "INCOMPATIBLE_OPCODE")]
    IncompatibleOpcode,
    /// The link does not fit the blocks' shapes or places.
    #[serde(rename = "BAD_LINK")]
    BadLink,
    /// The edit would put a block inside itself.
    #[serde(rename = "CYCLE")]
    Cycle,
    /// A variable, list or broadcast that is not visible from the target.
    #[serde(rename = "UNRESOLVED_REFERENCE")]
    UnresolvedReference,
    /// A name that resolves to more than one declaration.
    #[serde(rename = "AMBIGUOUS_REFERENCE")]
    AmbiguousReference,
    /// A block or declaration id that is already used.
    #[serde(rename = "DUPLICATE_ID")]
    DuplicateId,
    /// A declaration name that is already used where it would be visible.
    #[serde(rename = "NAME_TAKEN")]
    NameTaken,
    /// A declaration that blocks still use.
    #[serde(rename = "IN_USE")]
    InUse,
    /// The patched project fails structural validation (new errors).
    #[serde(rename = "INVALID_RESULT")]
    InvalidResult,
    /// The edit would nest a block deeper than
    /// [`MAX_NESTING`](crate::scratch::project::MAX_NESTING) inputs.
    #[serde(rename = "TOO_DEEP")]
    TooDeep,
}

impl ErrorCode {
    /// The code as written in JSON, e.g. `"BAD_LINK"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Schema => "SCHEMA",
            ErrorCode::Budget => "BUDGET",
            ErrorCode::UnknownTarget => "UNKNOWN_TARGET",
            ErrorCode::UnknownBlock => "UNKNOWN_BLOCK",
            ErrorCode::UnknownPath => "UNKNOWN_PATH",
            ErrorCode::UnknownOpcode => "UNKNOWN_OPCODE",
            ErrorCode::IncompatibleOpcode => "INCOMPATIBLE_OPCODE",
            ErrorCode::BadLink => "BAD_LINK",
            ErrorCode::Cycle => "CYCLE",
            ErrorCode::UnresolvedReference => "UNRESOLVED_REFERENCE",
            ErrorCode::AmbiguousReference => "AMBIGUOUS_REFERENCE",
            ErrorCode::DuplicateId => "DUPLICATE_ID",
            ErrorCode::NameTaken => "NAME_TAKEN",
            ErrorCode::InUse => "IN_USE",
            ErrorCode::InvalidResult => "INVALID_RESULT",
            ErrorCode::TooDeep => "TOO_DEEP",
        }
    }
}

/// Why a patch was refused; the project is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PatchError {
    /// The failure class.
    pub code: ErrorCode,
    /// Index of the failing edit in the patch (`None` for the patch as a whole).
    pub edit: Option<usize>,
    /// JSON Pointer into the patch document, e.g. `/3/link/after`.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// For `INVALID_RESULT`: the new error findings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
}

impl PatchError {
    pub(crate) fn new(
        code: ErrorCode,
        edit: Option<usize>,
        path: String,
        message: String,
    ) -> PatchError {
        PatchError { code, edit, path, message, findings: Vec::new() }
    }
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.edit {
            write!(f, "edit {i}: ")?;
        }
        write!(f, "{}", self.code.as_str())?;
        if !self.path.is_empty() {
            write!(f, " at {}", self.path)?;
        }
        write!(f, ": {}", self.message)?;
        for finding in self.findings.iter().take(3) {
            write!(f, "; {finding}")?;
        }
        if self.findings.len() > 3 {
            write!(f, "; {} more", self.findings.len() - 3)?;
        }
        Ok(())
    }
}

impl core::error::Error for PatchError {}

/// A message with the offending value's text, shortened.
pub(crate) fn short(text: &str) -> String {
    let mut out: String = text.chars().take(60).collect();
    if text.chars().count() > 60 {
        out.push('…');
    }
    out
}
