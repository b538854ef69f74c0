//! The nesting limit: how many inputs deep a block may sit below its script's first block
//! (a reporter in an input, a stack in a C-slot: one level each; `next` adds none).
//!
//! The loader refuses a target nested deeper than [`MAX_NESTING`] ([`super::LoadError::TooDeep`])
//! and every structural edit that would nest deeper is refused
//! ([`super::edit::EditError::TooDeep`]), so the walks that follow inputs by recursion (the
//! observation renderers, the validator, diffs, patch specs, the compiler) stay within a
//! bounded stack. The walks here are iterative.

use alloc::vec::Vec;

use super::blocks::{BlockIdx, Blocks, InputValue};

/// The deepest nesting gobo accepts: 128 inputs below a script's first block. scratch-vm
/// projects stay far below it (hand-built scripts nest a few dozen deep), and every recursive
/// walk over a target this deep runs on a 256 KiB thread stack in a debug build
/// (`core/tests/scratch_nesting.rs`).
pub const MAX_NESTING: usize = 128;

/// The blocks directly below `b` in its inputs (values and obscured shadows).
fn input_children(blocks: &Blocks, b: BlockIdx) -> impl Iterator<Item = BlockIdx> + '_ {
    blocks.get(b).into_iter().flat_map(|b| {
        b.inputs.iter().flat_map(|i| [&i.value, &i.shadow]).filter_map(|v| match v {
            Some(InputValue::Block(c)) => Some(*c),
            _ => None,
        })
    })
}

/// How many inputs deep `idx` sits below its script's first block (climbing `parent`).
pub fn depth_of(blocks: &Blocks, idx: BlockIdx) -> usize {
    let mut depth = 0;
    let mut at = idx;
    // A parent loop is impossible in a loaded model; the bound only guards the walk.
    for _ in 0..blocks.len() {
        let Some(p) = blocks.get(at).and_then(|b| b.parent) else { break };
        if blocks.get(p).is_none_or(|pb| pb.next != Some(at)) {
            depth += 1;
        }
        at = p;
    }
    depth
}

/// The deepest nesting below `idx` (0: nothing in its inputs), counting the blocks after it
/// when `with_next`.
pub fn height(blocks: &Blocks, idx: BlockIdx, with_next: bool) -> usize {
    let mut max = 0;
    let mut stack: Vec<(BlockIdx, usize)> = alloc::vec![(idx, 0)];
    let mut first = true;
    while let Some((b, d)) = stack.pop() {
        max = max.max(d);
        if !first || with_next {
            if let Some(n) = blocks.get(b).and_then(|b| b.next) {
                stack.push((n, d));
            }
        }
        first = false;
        stack.extend(input_children(blocks, b).map(|c| (c, d + 1)));
        if stack.len() > blocks.len() {
            break; // Only a broken forest gets here.
        }
    }
    max
}

/// The first block (in walk order) nested deeper than `limit`, if any.
pub fn too_deep(blocks: &Blocks, limit: usize) -> Option<BlockIdx> {
    let mut owned = alloc::vec![false; blocks.len()];
    for (i, b) in blocks.iter() {
        if let Some(n) = b.next {
            if let Some(o) = owned.get_mut(n.get()) {
                *o = true;
            }
        }
        for c in input_children(blocks, i) {
            if let Some(o) = owned.get_mut(c.get()) {
                *o = true;
            }
        }
    }
    let mut stack: Vec<(BlockIdx, usize)> = Vec::new();
    for (i, _) in blocks.iter().filter(|(i, _)| !owned[i.get()]) {
        stack.push((i, 0));
        while let Some((b, d)) = stack.pop() {
            if d > limit {
                return Some(b);
            }
            if let Some(n) = blocks.get(b).and_then(|b| b.next) {
                stack.push((n, d));
            }
            stack.extend(input_children(blocks, b).map(|c| (c, d + 1)));
            if stack.len() > blocks.len() {
                return None; // Only a broken forest gets here.
            }
        }
    }
    None
}
