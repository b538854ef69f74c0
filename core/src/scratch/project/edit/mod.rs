//! Editing the project model in place: the mutation API that block-edit patches, JSON Patch
//! post-processing, project diffs and agent sessions are built on. What lives here is
//! structure and bookkeeping only; which opcode is a reporter or a C-block, and how a patch
//! or an agent action is written, live in the layers above.
//!
//! **Invariants kept by every edit** (and checked by [`validate`](super::validate)): the blocks of a
//! target form a forest (each block has at most one owner: a `next` or an input slot; no
//! cycles); `parent` names the owner (`None` for roots); roots have `topLevel: true` and
//! `x`/`y`, children have neither; an input holding a block over a shadow is
//! `[3, block, shadow]`, a slot showing its shadow `[1, shadow]`, an empty slot `[1, null]`,
//! a block without shadow `[2, block]`; `by_id` matches the list. An edit checks its
//! arguments before changing anything: when it returns an error the model is unchanged.
//!
//! **Indices and ids.** Blocks keep their ids for life. [`BlockIdx`](super::BlockIdx) is a
//! position in the target's file order: creating appends (file order = creation order, as in
//! scratch-vm), and deleting *compacts* the list (no tombstones), keeping the other blocks in
//! order, renumbering every reference and rebuilding `by_id`. So an index is valid until the
//! next create or delete; hold ids across edits. Saving stays deterministic: the `blocks` map
//! is written in list order.
//!
//! **The operations** (methods on [`Blocks`](super::Blocks) unless noted):
//! - create a block tree with fresh deterministic ids: [`Blocks::create`](super::Blocks::create)
//!   from a [`NewBlock`], ids from an [`IdGen`] (never colliding);
//! - move: [`detach`](super::Blocks::detach) (a block and everything below it into a new
//!   script), [`extract`](super::Blocks::extract) (one block, healing the gap),
//!   [`attach_after`](super::Blocks::attach_after), [`attach_before`](super::Blocks::attach_before),
//!   [`put_value`](super::Blocks::put_value) (a reporter into an input, keeping or disposing the
//!   shadow: [`ShadowPolicy`]), [`put_statement`](super::Blocks::put_statement) (a stack first
//!   in a C-slot, old content after it), [`wrap`](super::Blocks::wrap) (a C-block around a
//!   run), [`set_position`](super::Blocks::set_position);
//! - order: [`reorder`](super::Blocks::reorder) (a block's place in the file order);
//! - delete: [`delete`](super::Blocks::delete) with a [`RemoveMode`] (heal, stack, unwrap);
//! - values: [`set_field`](super::Blocks::set_field), [`remove_field`](super::Blocks::remove_field),
//!   [`set_input_literal`](super::Blocks::set_input_literal),
//!   [`set_input_shadow`](super::Blocks::set_input_shadow), [`set_opcode`](super::Blocks::set_opcode),
//!   [`set_mutation`](super::Blocks::set_mutation), [`set_mutation_attr`](super::Blocks::set_mutation_attr);
//! - inspect: [`owner`](super::Blocks::owner) ([`Owner`]), [`chain`](super::Blocks::chain),
//!   [`chain_end`](super::Blocks::chain_end), [`stack_top`](super::Blocks::stack_top),
//!   [`script_root`](super::Blocks::script_root), [`subtree`](super::Blocks::subtree),
//!   [`contains`](super::Blocks::contains), [`free_spot`](super::Blocks::free_spot);
//! - declarations (methods on [`Project`](super::Project)): [`add_decl`](super::Project::add_decl),
//!   [`rename_decl`](super::Project::rename_decl), [`remove_decl`](super::Project::remove_decl)
//!   for variables, lists and broadcasts ([`Decl`]).
//!
//! How ScratchWorld's composite actions map onto these: `stack_after` = `detach` the source
//! then `attach_after`; `stack_before` = `detach` + `attach_before`; `statement_into` =
//! `detach` + `put_statement`; `value_into` = `detach` the occupant and the source, then
//! `put_value(.., ShadowPolicy::Dispose)`; `wrap` = `detach` + `wrap(c, "SUBSTACK", top,
//! chain_end(top))`; `detach_blocks` = `detach`; `delete_block` = `delete(.., Stack)`;
//! `set_block_field` on an input = `set_input_literal` (or `set_input_shadow` for an
//! emptied input).

mod decls;
mod error;
mod expand;
mod ids;
mod new;
mod store;
mod structure;
mod values;

pub use decls::{block_uses, decls, Decl, RemovedDecl};
pub use error::{DeclKind, EditError};
pub use ids::IdGen;
pub use new::{flat_chain, NewBlock, NewChild, NewInput};
pub use store::Owner;
pub use structure::{Pos, RemoveMode, ShadowPolicy};
