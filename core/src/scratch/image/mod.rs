//! The program image: a compiled Scratch project the VM runs. Index-based and self-contained
//! (no block ids are looked up while running; variables and lists are slots, procedures and
//! broadcasts are indices), serializable with serde/postcard and versioned.
//!
//! Statements ([`Stmt`]) and reporters ([`Expr`]) live in two flat arenas addressed by
//! [`StmtId`] / [`ExprId`]; a statement's inputs are a range of [`Image::args`]. The operation
//! enums live in [`ops`]; costume pixels ([`Skin`]) in [`skin`].

pub mod ops;
pub mod skin;

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub use ops::{Hat, Rop, Sop};
pub use skin::{Skin, SkinBitmap, SkinFault};

/// Version of the image layout; bumped on every incompatible change.
pub const IMAGE_VERSION: u32 = 6;

/// Index of a statement in [`Image::stmts`].
pub type StmtId = u32;
/// Index of a reporter in [`Image::exprs`].
pub type ExprId = u32;

/// A literal value as stored in the image (converted to a runtime value when the VM starts).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Lit {
    /// A number.
    Num(f64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// JavaScript `undefined`.
    Undefined,
}

/// Where a variable or list lives: in the running target (sprite-local, copied into clones)
/// or on the stage (global).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    /// Index into the running target's own variables (or lists).
    Local(u32),
    /// Index into the stage's variables (or lists).
    Global(u32),
}

/// A compiled program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Image {
    /// [`IMAGE_VERSION`] when written.
    pub version: u32,
    /// Targets in `project.json` order (the order of `runtime.targets`).
    pub targets: Vec<TargetImage>,
    /// Index of the stage in [`Image::targets`].
    pub stage: u32,
    /// Initial execution (layer) order: indices into [`Image::targets`], stage first.
    pub layer_order: Vec<u32>,
    /// Statement arena.
    pub stmts: Vec<Stmt>,
    /// Reporter arena.
    pub exprs: Vec<Expr>,
    /// Inputs of statements and reporters, as ranges `start..start+len`.
    pub args: Vec<ExprId>,
    /// Literal pool used by [`Expr::Const`].
    pub consts: Vec<Lit>,
    /// Broadcast message names (the stage's), by index.
    pub broadcasts: Vec<String>,
    /// Procedures (custom blocks), by index.
    pub procs: Vec<Proc>,
    /// Opcodes without an implementation and other compile notes, deduplicated, sorted.
    pub warnings: Vec<String>,
    /// `uid()` calls scratch-vm makes before the first frame (see
    /// [`crate::scratch::project::Project::load_uid_calls`]); the trace's `end.uidCalls` adds
    /// the calls made while running.
    pub load_uid_calls: u64,
    /// Hoisted input evaluations, by index.
    pub hoists: Vec<Hoist>,
    /// Statements that run a hoist before their inputs are read: (statement, hoist), sorted.
    pub stmt_hoists: Vec<(StmtId, u32)>,
    /// Number of registers the hoists write.
    pub registers: u32,
    /// Visible monitors, in `project.json` order.
    pub monitors: Vec<MonitorImage>,
    /// Costume pixels, referred to by [`TargetImage::costume_skins`]. Empty when the project
    /// was compiled without its assets (the host fills it, e.g. `gobo_host::skins`).
    pub skins: Vec<Skin>,
}

/// A visible monitor: the reporter its monitor thread evaluates every frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MonitorImage {
    /// The monitor id from `project.json`.
    pub id: String,
    /// The target it runs on (index into [`Image::targets`]).
    pub target: u32,
    /// The reporter.
    pub expr: ExprId,
}

/// A target (stage or sprite) as loaded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetImage {
    /// Name.
    pub name: String,
    /// Whether this is the stage.
    pub is_stage: bool,
    /// Variables: (name, initial value), by slot.
    pub vars: Vec<(String, Lit)>,
    /// Lists: (name, initial items), by slot.
    pub lists: Vec<(String, Vec<Lit>)>,
    /// Costume names, in order.
    pub costumes: Vec<String>,
    /// Skin of each costume (parallel to `costumes`): an index into [`Image::skins`], or
    /// `None` when there are no pixels (asset missing or undecoded, or compiled without assets).
    pub costume_skins: Vec<Option<u32>>,
    /// Sound names, in order.
    pub sounds: Vec<String>,
    /// Duration of each sound at playback rate 1, in seconds (parallel to `sounds`):
    /// `sampleCount / rate` from the project, 0 when either is missing or zero.
    pub sound_secs: Vec<f64>,
    /// Initial state.
    pub x: f64,
    /// Initial y.
    pub y: f64,
    /// Initial size in percent.
    pub size: f64,
    /// Initial direction.
    pub direction: f64,
    /// Initial visibility.
    pub visible: bool,
    /// Initial draggable flag.
    pub draggable: bool,
    /// Initial rotation style as written ("all around", "left-right", "don't rotate").
    pub rotation_style: String,
    /// Initial costume index.
    pub costume: u32,
    /// Initial volume.
    pub volume: f64,
    /// Stage tempo.
    pub tempo: f64,
    /// Scripts in scratch-vm's script order.
    pub scripts: Vec<Script>,
}

/// A script: its hat statement (the thread's top block) and what starts it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Script {
    /// What starts the script.
    pub hat: Hat,
    /// The hat statement (threads start here).
    pub top: StmtId,
}

/// A custom block: its signature, parameters and definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Proc {
    /// Index of the owning target.
    pub target: u32,
    /// The signature (`proccode`).
    pub proccode: String,
    /// Parameter names, in order.
    pub param_names: Vec<String>,
    /// Default values (used when a call lacks the input).
    pub defaults: Vec<Lit>,
    /// The definition statement, if one exists.
    pub definition: Option<StmtId>,
    /// Run without screen refresh.
    pub warp: bool,
}

/// A statement (stack block).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stmt {
    /// What it does.
    pub op: Sop,
    /// First input in [`Image::args`].
    pub args: u32,
    /// Number of inputs.
    pub nargs: u16,
    /// The next block in the stack.
    pub next: Option<StmtId>,
    /// First and second branch (`SUBSTACK`, `SUBSTACK2`).
    pub branch: [Option<StmtId>; 2],
}

/// A reporter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    /// A literal from [`Image::consts`].
    Const(u32),
    /// A variable's value.
    Var(Slot),
    /// A procedure parameter of the innermost running call: (procedure, parameter index).
    Param(u32, u32),
    /// Any other reporter: operation, first input in [`Image::args`], input count.
    Op(Rop, u32, u16),
    /// The value last stored in a register by a [`Hoist`].
    Reg(u32),
    /// Run hoist `.0` (index into [`Image::hoists`]), then evaluate `.1`.
    Hoisted(u32, ExprId),
}

/// Inputs evaluated ahead of a block, in scratch-vm's order, each into a register that the
/// block's input slots then read ([`Expr::Reg`]). The compiler emits one only where that
/// order differs from the order gobo's block implementations read their inputs, or where an
/// input has no slot but runs anyway.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hoist {
    /// (reporter, register) in evaluation order.
    pub pre: Vec<(ExprId, u32)>,
}
