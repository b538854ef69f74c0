//! The observation an agent gets each turn: ScratchWorld's per-turn prompt (editing target,
//! variables and lists in scope, all targets, the indexed block pseudocode) as text, with the
//! same facts as data and the index map that actions are resolved against.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::collate;
use super::pseudo;
use super::view::{self, VarType};
use super::Ctx;
use crate::scratch::project::Project;

/// What the pseudocode shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObserveMode {
    /// ScratchWorld's observation exactly: only the 119 catalog opcodes get indices and lines.
    #[default]
    Compat,
    /// Every block: custom blocks, pen and other extensions, the stage's hat, every C-slot.
    Full,
}

/// How blocks are named in the pseudocode (and in action arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IndexMode {
    /// `#n`: 1-based pre-order indices, renumbered by every structural edit.
    #[default]
    Index,
    /// `@id`: the block ids, stable across edits.
    Id,
}

/// A target as the observation lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetEntry {
    /// Its id in the session.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Whether it is the stage.
    pub is_stage: bool,
}

/// A variable or list in scope, with ScratchWorld's scope label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoped {
    /// Its name.
    pub name: String,
    /// `sprite` (the editing target's own) or `all` (the stage's).
    pub scope: String,
}

/// One indexed block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexEntry {
    /// Its 1-based index.
    pub index: u32,
    /// Its block id.
    pub id: String,
    /// Its opcode (borrowed from the catalog when it is there).
    pub opcode: Cow<'static, str>,
    /// Whether it heads a script.
    pub top: bool,
    /// The index of the indexed block it is printed under (its script, C-block or the block
    /// whose input it fills), `None` for a script's first block.
    pub parent: Option<u32>,
    /// Its indentation level.
    pub depth: u32,
}

/// One observation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The whole per-turn prompt, as ScratchWorld sends it to the model.
    pub text: String,
    /// The block pseudocode alone.
    pub pseudocode: String,
    /// The editing target's name.
    pub target: String,
    /// The editing target's id.
    pub target_id: String,
    /// Whether the editing target is the stage.
    pub is_stage: bool,
    /// Every target, the stage first (file order).
    pub targets: Vec<TargetEntry>,
    /// Variables in scope, sorted as ScratchWorld sorts them.
    pub variables: Vec<Scoped>,
    /// Lists in scope.
    pub lists: Vec<Scoped>,
    /// The index map: every indexed block in printing order.
    pub blocks: Vec<IndexEntry>,
    /// The mode it was rendered in.
    pub mode: ObserveMode,
    /// How blocks are named.
    pub index: IndexMode,
}

impl Observation {
    /// The block id at a 1-based index.
    pub fn id_at(&self, index: i64) -> Option<&str> {
        let i = usize::try_from(index).ok()?.checked_sub(1)?;
        self.blocks.get(i).map(|e| e.id.as_str())
    }
}

/// Why there is nothing to observe.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ObserveError {
    /// The project has no targets.
    NoTargets,
    /// No target has this name.
    UnknownTarget(String),
}

impl fmt::Display for ObserveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObserveError::NoTargets => write!(f, "the project has no targets"),
            ObserveError::UnknownTarget(n) => write!(f, "no target is named {n:?}"),
        }
    }
}

impl core::error::Error for ObserveError {}

/// Which target `name` means: an exact name, else ScratchWorld's `select_sprite` match
/// (case-insensitive, sprites first), else `stage`/`Stage` for the stage. `None`: the target
/// ScratchWorld's browser edits after loading.
pub fn find_target(project: &Project, name: Option<&str>) -> Result<usize, ObserveError> {
    if project.targets.is_empty() {
        return Err(ObserveError::NoTargets);
    }
    let Some(name) = name else { return Ok(view::first_editing_target(project)) };
    if let Some(i) = project.targets.iter().position(|t| t.name == name) {
        return Ok(i);
    }
    let lower = crate::scratch::value::case::to_lower(name);
    if let Some(i) = project
        .targets
        .iter()
        .position(|t| !t.is_stage && crate::scratch::value::case::to_lower(&t.name) == lower)
    {
        return Ok(i);
    }
    if lower == "stage" {
        return Ok(project.stage_index());
    }
    Err(ObserveError::UnknownTarget(name.into()))
}

/// Observe `project` with target `target` (see [`find_target`]) being edited.
pub fn observe(
    project: &Project,
    target: Option<&str>,
    mode: ObserveMode,
    index: IndexMode,
) -> Result<Observation, ObserveError> {
    let editing = find_target(project, target)?;
    Ok(observe_ctx(&Ctx::new(project, editing), mode, index))
}

/// Observe in an editing context.
pub fn observe_ctx(ctx: &Ctx<'_>, mode: ObserveMode, index: IndexMode) -> Observation {
    let (pseudocode, blocks) = pseudo::render(ctx, mode, index);
    let target = ctx.target();
    let targets: Vec<TargetEntry> = ctx
        .project
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| TargetEntry {
            id: view::target_id(i),
            name: t.name.clone(),
            is_stage: t.is_stage,
        })
        .collect();
    let (variables, lists) = in_scope(ctx);
    let text = prompt(&target.name, &variables, &lists, &targets, &pseudocode);
    Observation {
        text,
        pseudocode,
        target: target.name.clone(),
        target_id: view::target_id(ctx.editing),
        is_stage: target.is_stage,
        targets,
        variables,
        lists,
        blocks,
        mode,
        index,
    }
}

/// The variables and lists ScratchWorld lists: the editing target's (`sprite`, even on the
/// stage), then the stage's not seen yet (`all`); broadcast messages count as variables;
/// each list sorted with `localeCompare`.
fn in_scope(ctx: &Ctx<'_>) -> (Vec<Scoped>, Vec<Scoped>) {
    let mut seen: Vec<&str> = Vec::new();
    let (mut vars, mut lists) = (Vec::new(), Vec::new());
    for (t, scope) in [(ctx.editing, "sprite"), (ctx.project.stage_index(), "all")] {
        for e in ctx.vars_of(t) {
            if seen.contains(&e.id) {
                continue;
            }
            seen.push(e.id);
            let entry = Scoped { name: e.name.into(), scope: scope.into() };
            if e.kind == VarType::List {
                lists.push(entry);
            } else {
                vars.push(entry);
            }
        }
    }
    vars.sort_by(|a: &Scoped, b: &Scoped| collate::locale_compare(&a.name, &b.name));
    lists.sort_by(|a: &Scoped, b: &Scoped| collate::locale_compare(&a.name, &b.name));
    (vars, lists)
}

fn scoped_line(items: &[Scoped]) -> String {
    if items.is_empty() {
        return String::from("None");
    }
    let parts: Vec<String> =
        items.iter().map(|s| alloc::format!("name: {}, scope: {}", s.name, s.scope)).collect();
    parts.join("; ")
}

/// ScratchWorld's per-turn prompt (`build_composite_turn_prompt`).
fn prompt(
    target: &str,
    vars: &[Scoped],
    lists: &[Scoped],
    targets: &[TargetEntry],
    pseudocode: &str,
) -> String {
    let names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
    let targets = if names.is_empty() { String::from("None") } else { names.join(", ") };
    alloc::format!(
        "\n## Current Editing Target\n{target}\n\n## Target Variables In Scope\n\n{}\n\n## Target Lists In Scope\n\n{}\n\n## All Available Targets\n\n{targets}\n\n## Blocks Pseudocode\n\n{pseudocode}\n",
        scoped_line(vars),
        scoped_line(lists),
    )
}
