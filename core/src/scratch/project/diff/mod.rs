//! Differences between two versions of a project: the normalized atomic edits ScratchEval's
//! edit distance counts ([`diff_atoms`], [`edit_distance`]), and a block-edit patch that turns
//! one into the other ([`diff_patch`]).

mod atoms;
mod patch;

pub use atoms::{canonical, diff_atoms, edit_distance, project_edit_distance, Atom, EditDistance};
pub use patch::{diff_patch, DiffError};
