//! [`EditError`]: why an edit of the project model was refused. Every variant names the
//! block, input, field or declaration it is about; the model is unchanged when an edit fails.

use alloc::string::String;
use core::fmt;

/// Which kind of declaration an edit is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeclKind {
    /// A variable (`targets[i].variables`).
    Variable,
    /// A list (`targets[i].lists`).
    List,
    /// A broadcast message (`targets[i].broadcasts`, normally on the stage).
    Broadcast,
}

impl DeclKind {
    /// `"variable"`, `"list"` or `"broadcast"`.
    pub fn name(self) -> &'static str {
        match self {
            DeclKind::Variable => "variable",
            DeclKind::List => "list",
            DeclKind::Broadcast => "broadcast",
        }
    }
}

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// No block with this id (or index) in the target.
    UnknownBlock {
        /// The id asked for (for a bad index, `#<index>`).
        id: String,
    },
    /// A block id is already used in the target.
    DuplicateId {
        /// The id.
        id: String,
    },
    /// The block must head a script (be a root) for this edit: detach it first.
    NotRoot {
        /// The block.
        id: String,
    },
    /// The edit would put a block inside its own stack or subtree.
    Cycle {
        /// The block being moved.
        id: String,
        /// Where it would go.
        anchor: String,
    },
    /// The anchor cannot take the block there (e.g. "before" a reporter in an input, a run
    /// that is not one chain, a shadow block moved into a statement).
    BadLink {
        /// The anchor block.
        id: String,
        /// Why.
        reason: &'static str,
    },
    /// The block has no input with this name (and the edit cannot create one).
    UnknownInput {
        /// The block.
        id: String,
        /// The input name.
        input: String,
    },
    /// A non-shadow block already fills this value input: detach or remove it first.
    Occupied {
        /// The block owning the input.
        id: String,
        /// The input name.
        input: String,
    },
    /// The input has no shadow holding a literal to set.
    NoShadow {
        /// The block owning the input.
        id: String,
        /// The input name.
        input: String,
    },
    /// The block has no field with this name.
    UnknownField {
        /// The block.
        id: String,
        /// The field name.
        field: String,
    },
    /// The mutation attribute value is malformed (e.g. `argumentids` not a JSON array).
    BadMutation {
        /// The block.
        id: String,
        /// Why.
        reason: &'static str,
    },
    /// No declaration with this id in the target.
    UnknownDecl {
        /// Variable, list or broadcast.
        kind: DeclKind,
        /// The id.
        id: String,
    },
    /// A declaration id or name is already taken where the new one would be visible.
    NameTaken {
        /// Variable, list or broadcast.
        kind: DeclKind,
        /// The clashing name or id.
        name: String,
    },
    /// The declaration is still referenced by a block; remove or change the block first.
    InUse {
        /// Variable, list or broadcast.
        kind: DeclKind,
        /// The declaration id.
        id: String,
        /// The target holding the referring block.
        target: String,
        /// The referring block.
        block: String,
    },
    /// The target would exceed the model's size limit (`u32::MAX - 1` blocks).
    TooLarge,
    /// The edit would nest a block more inputs deep than the limit
    /// ([`MAX_NESTING`](crate::scratch::project::MAX_NESTING)).
    TooDeep {
        /// The block being placed or created.
        id: String,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::UnknownBlock { id } => write!(f, "no block {id:?}"),
            EditError::DuplicateId { id } => write!(f, "block id {id:?} is already used"),
            EditError::NotRoot { id } => {
                write!(f, "block {id:?} does not head a script (detach it first)")
            }
            EditError::Cycle { id, anchor } => {
                write!(f, "block {anchor:?} is inside the stack of {id:?}: that would make a cycle")
            }
            EditError::BadLink { id, reason } => write!(f, "block {id:?}: {reason}"),
            EditError::UnknownInput { id, input } => {
                write!(f, "block {id:?} has no input {input:?}")
            }
            EditError::Occupied { id, input } => {
                write!(f, "input {input:?} of block {id:?} is already filled by a block")
            }
            EditError::NoShadow { id, input } => {
                write!(f, "input {input:?} of block {id:?} has no shadow holding a literal")
            }
            EditError::UnknownField { id, field } => {
                write!(f, "block {id:?} has no field {field:?}")
            }
            EditError::BadMutation { id, reason } => write!(f, "block {id:?} mutation: {reason}"),
            EditError::UnknownDecl { kind, id } => write!(f, "no {} with id {id:?}", kind.name()),
            EditError::NameTaken { kind, name } => {
                write!(f, "a {} named {name:?} already exists here", kind.name())
            }
            EditError::InUse { kind, id, target, block } => {
                write!(f, "{} {id:?} is still used by block {block:?} of {target:?}", kind.name())
            }
            EditError::TooLarge => write!(f, "too many blocks in one target"),
            EditError::TooDeep { id, limit } => {
                write!(f, "block {id:?} would be nested more than {limit} inputs deep")
            }
        }
    }
}

impl core::error::Error for EditError {}
