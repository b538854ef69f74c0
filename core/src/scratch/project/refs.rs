//! Links a target's blocks: resolves the `next`, `parent` and input ids the loader collected to
//! [`BlockIdx`], then checks that `next` and inputs form a forest (no block with two owners, no
//! cycle) and that `parent` never loops. Every walk is iterative and linear, so a million-deep
//! script costs constant Rust stack.
//!
//! In repair mode ([`super::LoadOptions::repair_references`]) each problem is recorded as a
//! warning and the offending reference dropped, which is what scratch-vm's execution amounts
//! to (a missing block ends the script or reads as an empty input).

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::blocks::{Block, BlockIdx, Blocks, InputValue};
use super::error::{LoadError, Path};
use super::load_blocks::{Pending, Slot};

/// Fails on a problem, or records it and lets the caller repair it.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) repair: bool,
    pub(crate) warnings: Vec<LoadError>,
}

impl Report {
    fn problem(&mut self, e: LoadError) -> Result<(), LoadError> {
        if self.repair {
            self.warnings.push(e);
            Ok(())
        } else {
            Err(e)
        }
    }
}

pub(crate) fn link(
    blocks: &mut Blocks,
    pending: Vec<Pending>,
    path: &Path,
    report: &mut Report,
) -> Result<(), LoadError> {
    resolve(blocks, pending, path, report)?;
    check_forest(blocks, path, report)?;
    check_parents(blocks, path, report)
}

/// Renders the path of a reference slot for an error message.
fn slot_path(blocks: &Blocks, path: &Path, block: usize, slot: Slot) -> String {
    let Some(b) = blocks.list.get(block) else {
        return path.render();
    };
    let bp = path.key(&b.id);
    let input_path = |n: usize, at: usize| match b.inputs.get(n) {
        Some(input) => bp.key("inputs").key(&input.name).index(at).render(),
        None => bp.key("inputs").render(),
    };
    match slot {
        Slot::Next => bp.key("next").render(),
        Slot::Parent => bp.key("parent").render(),
        Slot::InputValue(n) => input_path(n, 1),
        Slot::InputShadow(n) => input_path(n, 2),
    }
}

/// Sets a reference slot of block `block` to `to`.
fn set_slot(blocks: &mut Blocks, block: usize, slot: Slot, to: Option<BlockIdx>) {
    let Some(b) = blocks.list.get_mut(block) else {
        return;
    };
    match slot {
        Slot::Next => b.next = to,
        Slot::Parent => b.parent = to,
        Slot::InputValue(n) => {
            if let Some(i) = b.inputs.get_mut(n) {
                i.value = to.map(InputValue::Block);
            }
        }
        Slot::InputShadow(n) => {
            if let Some(i) = b.inputs.get_mut(n) {
                i.shadow = to.map(InputValue::Block);
            }
        }
    }
}

fn resolve(
    blocks: &mut Blocks,
    pending: Vec<Pending>,
    path: &Path,
    report: &mut Report,
) -> Result<(), LoadError> {
    for p in pending {
        let target = blocks.by_id.get(&p.id).copied();
        if target.is_none() {
            report.problem(LoadError::DanglingBlock {
                path: slot_path(blocks, path, p.block, p.slot),
                id: p.id,
            })?;
        }
        set_slot(blocks, p.block, p.slot, target);
    }
    Ok(())
}

/// The child edges of a block (`next`, then input values and shadows), with their slots.
fn children(b: &Block) -> impl Iterator<Item = (Slot, BlockIdx)> + '_ {
    let next = b.next.map(|n| (Slot::Next, n));
    let inputs = b.inputs.iter().enumerate().flat_map(|(n, input)| {
        let value = match input.value {
            Some(InputValue::Block(i)) => Some((Slot::InputValue(n), i)),
            _ => None,
        };
        let shadow = match input.shadow {
            Some(InputValue::Block(i)) => Some((Slot::InputShadow(n), i)),
            _ => None,
        };
        value.into_iter().chain(shadow)
    });
    next.into_iter().chain(inputs)
}

fn block_id(blocks: &Blocks, i: usize) -> String {
    blocks.list.get(i).map(|b| b.id.clone()).unwrap_or_default()
}

/// Marks every block reachable from the stack's blocks as seen (explicit stack).
fn walk(blocks: &Blocks, stack: &mut Vec<usize>, seen: &mut [bool]) {
    while let Some(i) = stack.pop() {
        match seen.get_mut(i) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        if let Some(b) = blocks.list.get(i) {
            stack.extend(children(b).map(|(_, c)| c.get()));
        }
    }
}

/// Checks that `next` and input references form a forest: no block is the child of two
/// places, and every block is reachable from a block that is nobody's child.
fn check_forest(blocks: &mut Blocks, path: &Path, report: &mut Report) -> Result<(), LoadError> {
    let n = blocks.list.len();
    // The unique (block, slot) holding each block.
    let mut owner: Vec<Option<(usize, Slot)>> = vec![None; n];
    let mut kids = Vec::new();
    for i in 0..n {
        kids.clear();
        if let Some(b) = blocks.list.get(i) {
            kids.extend(children(b));
        }
        for &(slot, child) in &kids {
            let Some(o) = owner.get_mut(child.get()) else {
                continue;
            };
            if o.is_none() {
                *o = Some((i, slot));
                continue;
            }
            report.problem(LoadError::SharedBlock {
                path: slot_path(blocks, path, i, slot),
                id: block_id(blocks, child.get()),
            })?;
            set_slot(blocks, i, slot, None);
        }
    }
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| owner[i].is_none()).collect();
    walk(blocks, &mut stack, &mut seen);
    // Every unseen block hangs below a cycle: climb owners to a block on it, cut the edge
    // into that block, and walk from there. Each block is climbed at most once.
    let mut climbed = vec![false; n];
    let mut from = 0;
    while let Some(start) = (from..n).find(|&i| !seen[i]) {
        from = start;
        let mut at = start;
        while let Some(false) = climbed.get(at).copied() {
            climbed[at] = true;
            match owner.get(at).copied().flatten() {
                Some((o, _)) => at = o,
                None => break,
            }
        }
        report.problem(LoadError::Cycle { path: path.render(), id: block_id(blocks, at) })?;
        if let Some((o, slot)) = owner.get_mut(at).and_then(Option::take) {
            set_slot(blocks, o, slot, None);
        }
        stack.push(at);
        walk(blocks, &mut stack, &mut seen);
    }
    Ok(())
}

/// Checks that following `parent` never loops.
fn check_parents(blocks: &mut Blocks, path: &Path, report: &mut Report) -> Result<(), LoadError> {
    const UNVISITED: usize = usize::MAX;
    const DONE: usize = usize::MAX - 1;
    let parent = |blocks: &Blocks, i: usize| blocks.list.get(i).and_then(|b| b.parent);
    // For each block: UNVISITED, DONE, or the start index of the walk now visiting it.
    let mut state = vec![UNVISITED; blocks.list.len()];
    for start in 0..blocks.list.len() {
        let mut at = Some(start);
        while let Some(i) = at {
            match state.get(i).copied() {
                Some(UNVISITED) => {
                    state[i] = start;
                    at = parent(blocks, i).map(BlockIdx::get);
                }
                Some(s) if s == start => {
                    report.problem(LoadError::Cycle {
                        path: path.render(),
                        id: block_id(blocks, i),
                    })?;
                    set_slot(blocks, i, Slot::Parent, None);
                    break;
                }
                _ => break,
            }
        }
        // Mark this walk's blocks done.
        let mut at = Some(start);
        while let Some(i) = at {
            if state.get(i).copied() != Some(start) {
                break;
            }
            state[i] = DONE;
            at = parent(blocks, i).map(BlockIdx::get);
        }
    }
    Ok(())
}
