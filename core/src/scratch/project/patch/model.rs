//! The block-edit patch format v1 as Rust values: [`BlockEdit`]s with their target, block
//! specs, links, modify paths and declaration edits. Parsing is `parse.rs`, writing back to
//! JSON `write.rs`; `docs/patches.md` is the specification.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{InputKind, Primitive};
use super::super::edit::{DeclKind, RemoveMode};
use super::super::json::{Json, Num};
use super::super::model::Literal;

/// Which target an edit addresses (`sprite_id`).
#[derive(Debug, Clone, PartialEq)]
pub enum TargetRef {
    /// By name (sprite names are unique; `"Stage"` and `"_stage_"` name the stage).
    Name(String),
    /// `"#<index>"`: by position in `targets`.
    Index(usize),
}

/// One edit of a patch.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockEdit {
    /// The target it applies to.
    pub target: TargetRef,
    /// What it does.
    pub kind: EditKind,
}

/// What an edit does.
#[derive(Debug, Clone, PartialEq)]
pub enum EditKind {
    /// `remove`: delete a block (with its inputs) as `mode` says.
    Remove {
        /// The block id.
        block: String,
        /// Heal (default), stack or unwrap.
        mode: RemoveMode,
    },
    /// `add`: create a block (with its inputs and the blocks after it) and link it.
    Add {
        /// The new block.
        block: BlockSpec,
        /// Where it goes.
        link: Link,
    },
    /// `modify`: change one thing of an existing block.
    Modify {
        /// The block id.
        block: String,
        /// What to change.
        path: ModPath,
        /// The new value.
        value: Json,
    },
    /// `modify` with `path: "blocks"`: set (or with `null` delete) block records verbatim, in
    /// `project.json` form, then optionally put the whole map in `order`. The exact-restore
    /// form `invert` falls back to; references between records resolve after all are set.
    Records {
        /// `(id, record or None to delete)`, in order.
        records: Vec<(String, Option<Json>)>,
        /// Every block id of the target, in the wanted file order.
        order: Option<Vec<String>>,
    },
    /// `add` of a variable, list or broadcast.
    AddDecl(DeclSpec),
    /// `remove` of a variable, list or broadcast.
    RemoveDecl {
        /// Which kind.
        kind: DeclKind,
        /// Which one.
        which: DeclRef,
    },
    /// `modify` of a variable, list or broadcast: `path` `"name"` renames (and every
    /// reference), `"value"` sets a variable's initial value or a list's initial items.
    ModifyDecl {
        /// Which kind.
        kind: DeclKind,
        /// Which one.
        which: DeclRef,
        /// `name` or `value`.
        path: DeclPath,
        /// The new value.
        value: Json,
    },
}

/// A declaration addressed by id or by name (resolved in the edit's target).
#[derive(Debug, Clone, PartialEq)]
pub enum DeclRef {
    /// By id.
    Id(String),
    /// By name.
    Name(String),
}

/// What a declaration modify changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclPath {
    /// The name (references follow).
    Name,
    /// A variable's value or a list's items.
    Value,
}

/// A declaration to add.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclSpec {
    /// Variable, list or broadcast.
    pub kind: DeclKind,
    /// Its name.
    pub name: String,
    /// Its id (fresh when absent).
    pub id: Option<String>,
    /// A variable's value (default `0`), a list's items (default `[]`).
    pub value: Option<Json>,
    /// A variable's cloud flag, when written.
    pub cloud: Option<bool>,
    /// Position in the target's list (default: the end).
    pub at: Option<usize>,
    /// Monitors to put back with it: `(position in monitors, monitor object)`.
    pub monitors: Vec<(usize, Json)>,
}

/// A block to create.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BlockSpec {
    /// Its id (fresh when absent).
    pub id: Option<String>,
    /// The opcode.
    pub opcode: String,
    /// Whether it is a shadow.
    pub shadow: bool,
    /// Fields, in order.
    pub fields: Vec<(String, FieldSpec)>,
    /// Inputs, in order.
    pub inputs: Vec<(String, InputSpec)>,
    /// The mutation object, attributes in order.
    pub mutation: Option<Vec<(String, Json)>>,
    /// The blocks after it, in order, as a flat list (JSON: `"next": [...]`, or one nested
    /// object). A listed block's own `next` comes right after it, before the rest, but parsing
    /// and exact specs keep them empty: a long script is a list, not a nesting, so
    /// building, consuming and dropping it never recurse along the chain.
    pub next: Vec<BlockSpec>,
    /// Its position in the target's block order (default: after the existing blocks).
    pub at: Option<usize>,
}

impl BlockSpec {
    /// The deepest nesting in the spec (0: nothing in its inputs), walked without recursion.
    pub fn nesting(&self) -> usize {
        let mut max = 0;
        let mut stack: Vec<(&BlockSpec, usize)> = alloc::vec![(self, 0)];
        while let Some((b, d)) = stack.pop() {
            max = max.max(d);
            stack.extend(b.next.iter().map(|n| (n, d)));
            for (_, i) in &b.inputs {
                match i {
                    InputSpec::Block(c) => stack.push((c, d + 1)),
                    InputSpec::Exact { value, shadow, .. } => {
                        for c in [value, shadow] {
                            if let Some(Child::Block(c)) = c {
                                stack.push((c, d + 1));
                            }
                        }
                    }
                    InputSpec::Literal(_) => {}
                }
            }
        }
        max
    }
}

/// A field value.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldSpec {
    /// `value`: a literal, written `[value, null]` as the editor does; on a variable, list or
    /// broadcast field, a name resolved to its id.
    Value(Literal),
    /// `[value]` (`None`) or `[value, id]` (`Some`, the id may be `null`) exactly.
    Exact(Literal, Option<Option<String>>),
}

/// An input.
#[derive(Debug, Clone, PartialEq)]
pub enum InputSpec {
    /// A literal for the input's shadow (the catalog's shadow opcode).
    Literal(Literal),
    /// A block filling the input (a shadow if its `shadow` is true); a non-shadow block gets
    /// the catalog's default shadow under it.
    Block(BlockSpec),
    /// `[kind, value, shadow?]` exactly as `project.json` writes it, blocks as specs.
    Exact {
        /// The first element.
        kind: InputKind,
        /// The second element.
        value: Option<Child>,
        /// The third element.
        shadow: Option<Child>,
    },
}

/// A block or an inline primitive in an exact input.
#[derive(Debug, Clone, PartialEq)]
pub enum Child {
    /// A block.
    Block(BlockSpec),
    /// `[4, "10"]`, `[12, name, id]`...
    Primitive(Primitive),
}

/// Where an added block goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    /// After this stack block (what followed it follows the new chain).
    After(String),
    /// Before this stack block (or first in the C-slot it starts, or as its script's head).
    Before(String),
    /// Into input `NAME` of this block: a reporter into a value input, a stack into a C-slot
    /// (old content after the new chain).
    Input(String, String),
    /// A new script at this position (a free spot below the others when absent).
    Top(Option<(Num, Num)>),
    /// Around the run `first..=last` of one stack (the new block must be a C-block), into
    /// its slot `input` (default `SUBSTACK`).
    Wrap {
        /// First block of the run.
        first: String,
        /// Last block of the run.
        last: String,
        /// The C-slot.
        input: Option<String>,
    },
}

/// What a block modify changes.
#[derive(Debug, Clone, PartialEq)]
pub enum ModPath {
    /// `opcode`.
    Opcode,
    /// `fields/<NAME>`.
    Field(String),
    /// `inputs/<NAME>`: the literal of the input's shadow.
    InputLiteral(String),
    /// `inputs/<NAME>/block`: an existing reporter id to move in, or `null` to unplug.
    InputBlock(String),
    /// `inputs/<NAME>/shadow`: a new shadow (block spec or primitive array), or `null`.
    InputShadow(String),
    /// `mutation/<attr>`: an attribute value, or `null` to remove it.
    Mutation(String),
    /// `position`: `{"x": n, "y": n}` of a top-level block.
    Position,
}
