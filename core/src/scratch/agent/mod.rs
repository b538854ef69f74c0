//! What an agent sees of a Scratch project and how it edits it, the way ScratchWorld's
//! composite mode does: the indexed pseudocode observation ([`observe()`]), the scratchblocks
//! text form, and the 11 composite actions over a project held in memory ([`Session`]).
//!
//! `compat` mode reproduces ScratchWorld's browser implementation (scratch-gui 5.1,
//! scratch-blocks 1.1, scratch-vm 5) as read from its code; `full` mode also shows the blocks
//! compat hides. `docs/observation.md` and `docs/composite.md` describe both and list where
//! gobo deliberately differs. Running the project is not here (the VM), nor are files (hosts).

mod actions;
pub mod args;
pub mod catalog;
mod check;
pub mod collate;
mod connect;
mod fields;
pub mod jsval;
pub mod menus;
pub mod observe;
mod pseudo;
pub mod scratchblocks;
pub mod session;
pub mod shape;
pub mod toolbox;
pub mod view;

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

pub use args::{ActError, Code};
pub use observe::{
    find_target, observe, observe_ctx, IndexEntry, IndexMode, Observation, ObserveError,
    ObserveMode, Scoped, TargetEntry,
};
pub use session::{ActResult, Feedback, Finish, Session, SessionConfig, SessionError};

use crate::scratch::project::{Project, Target};
use view::{TargetBlocks, VarEntry, VarType};

/// The editing context an observation or action is computed in.
#[derive(Debug, Clone)]
pub struct Ctx<'p> {
    /// The project.
    pub project: &'p Project,
    /// The editing target's index in `project.targets`.
    pub editing: usize,
    /// The stage's broadcast messages scratch-vm keeps (those some block names) right after
    /// loading; `None` once a session applies that clean-up to the project itself.
    pub live: Option<BTreeSet<&'p str>>,
}

impl<'p> Ctx<'p> {
    /// The context for editing target `editing` of `project`.
    pub fn new(project: &'p Project, editing: usize) -> Self {
        Ctx { project, editing, live: Some(view::live_broadcasts(project)) }
    }

    /// The context of a project held by a session (every message it has is live).
    pub fn live(project: &'p Project, editing: usize) -> Self {
        Ctx { project, editing, live: None }
    }

    /// The editing target.
    pub fn target(&self) -> &'p Target {
        &self.project.targets[self.editing]
    }

    /// The editing target's blocks.
    pub fn tb(&self) -> TargetBlocks<'p> {
        TargetBlocks::new(&self.target().blocks)
    }

    /// A target's variable map.
    pub fn vars_of(&self, target: usize) -> Vec<VarEntry<'p>> {
        match self.project.targets.get(target) {
            Some(t) => view::variables(t, self.live.as_ref()),
            None => Vec::new(),
        }
    }

    /// The variables the editor's workspace holds: the stage's, then the editing sprite's.
    pub fn workspace_vars(&self) -> Vec<VarEntry<'p>> {
        let stage = self.project.stage_index();
        let mut out = self.vars_of(stage);
        if self.editing != stage {
            out.extend(self.vars_of(self.editing));
        }
        out
    }

    /// The name of the variable, list or message with this id, looked up on the editing
    /// target and then on the stage (scratch-vm's `lookupVariableById`).
    pub fn var_name(&self, id: &str) -> Option<&'p str> {
        let stage = self.project.stage_index();
        [self.editing, stage]
            .into_iter()
            .find_map(|t| self.vars_of(t).into_iter().find(|e| e.id == id).map(|e| e.name))
    }

    /// scratch-vm's `getAllVariableNamesInScopeByType(kind, own_only)` for a target.
    pub fn names_of(&self, target: usize, kind: VarType, own_only: bool) -> Vec<&'p str> {
        let mut out: Vec<&'p str> =
            self.vars_of(target).into_iter().filter(|e| e.kind == kind).map(|e| e.name).collect();
        let is_stage = self.project.targets.get(target).is_some_and(|t| t.is_stage);
        if !own_only && !is_stage {
            out.extend(
                self.vars_of(self.project.stage_index())
                    .into_iter()
                    .filter(|e| e.kind == kind)
                    .map(|e| e.name),
            );
        }
        out
    }

    /// Scalar variable names in scope of a target (`own_only`: its own only).
    pub fn scalar_names(&self, target: usize, own_only: bool) -> Vec<&'p str> {
        self.names_of(target, VarType::Scalar, own_only)
    }
}
