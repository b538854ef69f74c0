//! The Scratch 3 project model ([`Project`]) with its `project.json` loader ([`load`]) and
//! writer ([`save`]).
//!
//! The model keeps everything a file holds: unknown keys land in `extra` lists and are saved
//! back, numbers stay numbers and strings stay strings ([`Literal`], [`Num`]), and object key
//! order is kept (it decides the order scripts start in). Variables, lists and broadcasts are
//! keyed by id. Blocks are stored index-based ([`Blocks`]) with `next`/`parent`/input
//! references resolved to [`BlockIdx`] and checked to form a forest, so the compiler can walk
//! them without recursion or cycle checks. Opcodes are not validated here.
//!
//! Editing the model in place keeps these invariants: [`edit`]. Scratch 2 projects are
//! converted into the same model by [`sb2`]; [`load_any`] takes either format.
//!
//! What does not live here: reading `.sb3`/`.sb2` archives and assets (the `gobo-host`
//! crate), compiling blocks (the compiler), running them (the VM).

mod blocks;
pub mod diff;
pub mod edit;
mod error;
mod json;
pub mod json_patch;
mod load;
mod load_blocks;
mod model;
pub mod nesting;
pub mod patch;
mod read;
mod refs;
mod save;
pub mod sb2;
pub mod validate;

pub use blocks::{
    Block, BlockForm, BlockIdx, Blocks, Field, Input, InputKind, InputValue, Mutation, Primitive,
    PrimitiveKind,
};
pub use error::LoadError;
pub use json::{strip_backspace_escapes, Json, Num};
pub use load::{load, load_any, load_json, load_json_with, load_with, LoadOptions};
pub use model::{
    Broadcast, Comment, Costume, Extra, List, Literal, Meta, Monitor, Project, Sound, SourceFormat,
    Target, Variable,
};
pub use nesting::MAX_NESTING;
pub use save::{project_json, save};
