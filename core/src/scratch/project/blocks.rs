//! Blocks of one target, stored index-based: a `Vec<Block>` in file order plus an id → index
//! map. `next`, `parent` and input references are resolved to [`BlockIdx`] at load time, and
//! the loader guarantees they form a forest (no dangling reference, no block with two parents,
//! no cycle), so a compiler can walk them with an explicit stack and never loop.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::json::{Json, Num};
use super::model::{Extra, Literal};

/// Index of a block in its target's [`Blocks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockIdx(pub u32);

impl BlockIdx {
    /// The index as `usize`.
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

/// The blocks of one target, in file order (the order scripts start in).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Blocks {
    pub(crate) list: Vec<Block>,
    pub(crate) by_id: BTreeMap<String, BlockIdx>,
}

impl Blocks {
    /// All blocks in file order; `BlockIdx(i)` is `as_slice()[i]`.
    pub fn as_slice(&self) -> &[Block] {
        &self.list
    }

    /// The block at `idx`.
    pub fn get(&self, idx: BlockIdx) -> Option<&Block> {
        self.list.get(idx.get())
    }

    /// The index of the block with this id.
    pub fn index_of(&self, id: &str) -> Option<BlockIdx> {
        self.by_id.get(id).copied()
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the target has no blocks.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Blocks with their indices, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (BlockIdx, &Block)> {
        // The loader refuses more than u32::MAX blocks, so the cast is exact.
        self.list.iter().enumerate().map(|(i, b)| (BlockIdx(i as u32), b))
    }

    /// Compressed primitive arrays written in this map, top-level or inside an input (scratch-vm
    /// gives each a fresh id when it deserializes them).
    pub fn primitive_arrays(&self) -> u64 {
        let mut n = 0;
        for b in &self.list {
            n += u64::from(matches!(b.form, BlockForm::Primitive(_)));
            for i in &b.inputs {
                n += u64::from(matches!(i.value, Some(InputValue::Primitive(_))));
                n += u64::from(matches!(i.shadow, Some(InputValue::Primitive(_))));
            }
        }
        n
    }

    /// Top-level blocks (script heads and loose reporters), in file order.
    pub fn top_level(&self) -> impl Iterator<Item = (BlockIdx, &Block)> {
        self.iter().filter(|(_, b)| b.top_level)
    }
}

/// How a block was written in the `blocks` map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockForm {
    /// A block object `{"opcode": ...}`.
    Object,
    /// A compressed primitive array (`[12, name, id, x, y]`...). The loader expands it the way
    /// scratch-vm does: opcode `data_variable` with field `VARIABLE`, `data_listcontents` with
    /// `LIST`, `math_number` with `NUM`, `text` with `TEXT`, and so on.
    Primitive(PrimitiveKind),
}

/// One block.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The block id (its key in the `blocks` map).
    pub id: String,
    /// The opcode, e.g. `"motion_movesteps"` (not validated by the loader).
    pub opcode: String,
    /// The next block in the stack.
    pub next: Option<BlockIdx>,
    /// The enclosing block (informational: the compiler walks `next` and inputs).
    pub parent: Option<BlockIdx>,
    /// Inputs by name, in file order.
    pub inputs: Vec<Input>,
    /// Fields by name, in file order.
    pub fields: Vec<Field>,
    /// Whether this is a shadow block (a menu or literal slot).
    pub shadow: bool,
    /// Whether this block heads a script (or is a loose top-level reporter).
    pub top_level: bool,
    /// Workspace x of a top-level block.
    pub x: Option<Num>,
    /// Workspace y of a top-level block.
    pub y: Option<Num>,
    /// Id of the comment attached to this block.
    pub comment: Option<String>,
    /// The mutation (custom block prototypes and calls, some extension blocks).
    pub mutation: Option<Mutation>,
    /// How the block was written.
    pub form: BlockForm,
    /// Unknown keys of the block object.
    pub extra: Extra,
}

impl Block {
    /// The input with this name.
    pub fn input(&self, name: &str) -> Option<&Input> {
        self.inputs.iter().find(|i| i.name == name)
    }

    /// The field with this name.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The first element of an input array: whether it has a shadow and whether a block covers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// `[1, shadow]`: only the shadow (a literal or menu) fills the slot.
    Shadow = 1,
    /// `[2, block]`: a block with no shadow behind it (e.g. a C-block's substack).
    NoShadow = 2,
    /// `[3, block, shadow]`: a block obscuring a shadow.
    Obscured = 3,
}

/// One input of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// Input name, e.g. `"STEPS"` or `"SUBSTACK"`.
    pub name: String,
    /// The input array's kind.
    pub kind: InputKind,
    /// Second array element: what fills the slot (`None` for `null`, an empty slot).
    pub value: Option<InputValue>,
    /// Third array element, only for [`InputKind::Obscured`]: the shadow under the block.
    pub shadow: Option<InputValue>,
}

/// What an input refers to: a block, or a primitive written inline.
#[derive(Debug, Clone, PartialEq)]
pub enum InputValue {
    /// A block of the same target.
    Block(BlockIdx),
    /// A compressed primitive (`[4, "10"]`, `[12, "score", "id"]`...).
    Primitive(Primitive),
}

/// The type code of a compressed primitive array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimitiveKind {
    /// 4: `math_number`.
    Number = 4,
    /// 5: `math_positive_number`.
    PositiveNumber = 5,
    /// 6: `math_whole_number`.
    WholeNumber = 6,
    /// 7: `math_integer`.
    Integer = 7,
    /// 8: `math_angle`.
    Angle = 8,
    /// 9: `colour_picker`.
    Color = 9,
    /// 10: `text`.
    Text = 10,
    /// 11: `event_broadcast_menu`.
    Broadcast = 11,
    /// 12: `data_variable`.
    Variable = 12,
    /// 13: `data_listcontents`.
    List = 13,
}

impl PrimitiveKind {
    /// The kind for a type code, if it is one of 4..=13.
    pub fn from_code(code: i64) -> Option<PrimitiveKind> {
        Some(match code {
            4 => PrimitiveKind::Number,
            5 => PrimitiveKind::PositiveNumber,
            6 => PrimitiveKind::WholeNumber,
            7 => PrimitiveKind::Integer,
            8 => PrimitiveKind::Angle,
            9 => PrimitiveKind::Color,
            10 => PrimitiveKind::Text,
            11 => PrimitiveKind::Broadcast,
            12 => PrimitiveKind::Variable,
            13 => PrimitiveKind::List,
            _ => return None,
        })
    }

    /// The type code.
    pub fn code(self) -> i64 {
        self as i64
    }

    /// The opcode scratch-vm gives the expanded block.
    pub fn opcode(self) -> &'static str {
        match self {
            PrimitiveKind::Number => "math_number",
            PrimitiveKind::PositiveNumber => "math_positive_number",
            PrimitiveKind::WholeNumber => "math_whole_number",
            PrimitiveKind::Integer => "math_integer",
            PrimitiveKind::Angle => "math_angle",
            PrimitiveKind::Color => "colour_picker",
            PrimitiveKind::Text => "text",
            PrimitiveKind::Broadcast => "event_broadcast_menu",
            PrimitiveKind::Variable => "data_variable",
            PrimitiveKind::List => "data_listcontents",
        }
    }

    /// The field name scratch-vm gives the expanded block.
    pub fn field_name(self) -> &'static str {
        match self {
            PrimitiveKind::Number
            | PrimitiveKind::PositiveNumber
            | PrimitiveKind::WholeNumber
            | PrimitiveKind::Integer
            | PrimitiveKind::Angle => "NUM",
            PrimitiveKind::Color => "COLOUR",
            PrimitiveKind::Text => "TEXT",
            PrimitiveKind::Broadcast => "BROADCAST_OPTION",
            PrimitiveKind::Variable => "VARIABLE",
            PrimitiveKind::List => "LIST",
        }
    }

    /// Whether the primitive names something by `[code, name, id]` (broadcast, variable, list).
    pub fn is_reference(self) -> bool {
        matches!(self, PrimitiveKind::Broadcast | PrimitiveKind::Variable | PrimitiveKind::List)
    }
}

/// A compressed primitive array.
#[derive(Debug, Clone, PartialEq)]
pub enum Primitive {
    /// `[4..=10, value]`: a literal (number, colour `"#rrggbb"` or text), as written.
    Literal {
        /// The type code (4 to 10).
        kind: PrimitiveKind,
        /// The value, number or string as in the file.
        value: Literal,
    },
    /// `[11..=13, name, id]`: a broadcast, variable or list named by id.
    Reference {
        /// The type code (11 to 13).
        kind: PrimitiveKind,
        /// Display name.
        name: String,
        /// The broadcast, variable or list id.
        id: String,
    },
}

impl Primitive {
    /// The type code.
    pub fn kind(&self) -> PrimitiveKind {
        match self {
            Primitive::Literal { kind, .. } | Primitive::Reference { kind, .. } => *kind,
        }
    }
}

/// One field: `"NAME": [value]` or `[value, id]` (the id names a variable, list or broadcast).
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Field name, e.g. `"VARIABLE"`.
    pub name: String,
    /// The value, as written.
    pub value: Literal,
    /// The referenced id, if any.
    pub id: Option<String>,
    /// Whether the array had a second element (`[value, null]` keeps its `null`).
    pub has_id_slot: bool,
}

/// A block mutation (custom blocks: `procedures_prototype`, `procedures_call`...).
///
/// `argumentids`, `argumentnames` and `argumentdefaults` are JSON *strings* holding JSON arrays
/// in the file; the loader parses them into the fields below. The saver writes `raw`, the
/// object exactly as loaded, so edit `raw` to change what is saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Mutation {
    /// The custom block's signature, e.g. `"jump %n times %b"`.
    pub proccode: Option<String>,
    /// Argument ids, parsed from `argumentids`.
    pub argument_ids: Option<Vec<String>>,
    /// Argument names, parsed from `argumentnames`.
    pub argument_names: Option<Vec<String>>,
    /// Argument defaults, parsed from `argumentdefaults`.
    pub argument_defaults: Option<Vec<Literal>>,
    /// Run without screen refresh: `warp` is `true` or `"true"`.
    pub warp: bool,
    /// `hasnext`, when present: `true` or `"true"`.
    pub has_next: Option<bool>,
    /// The mutation object as loaded (`tagName`, `children` and all attributes).
    pub raw: Vec<(String, Json)>,
}
