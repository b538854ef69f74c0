//! Low-level bookkeeping of [`Blocks`] under edits: where a block hangs ([`Owner`]), chains
//! and subtrees, inserting blocks at a position and removing a set of blocks with compaction.
//!
//! Removal compacts the block list (no tombstones): the remaining blocks keep their relative
//! (file) order, every `BlockIdx` inside the target is renumbered, and `by_id` is rebuilt, so
//! the rest of gobo (compiler, saver) keeps seeing a dense forest. A `BlockIdx` held by a
//! caller is valid until the next insertion or removal; block ids are stable.

use alloc::vec;
use alloc::vec::Vec;

use super::super::blocks::{Block, BlockIdx, Blocks, InputValue};

/// Where a block hangs in its target's forest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// Nobody refers to it: a script head or a loose block.
    Root,
    /// It is the `next` of this block.
    Next(BlockIdx),
    /// It fills (second element) input number `.1` of block `.0` (`Block::inputs[.1]`).
    Input(BlockIdx, usize),
    /// It is the obscured shadow (third element) of input number `.1` of block `.0`.
    Shadow(BlockIdx, usize),
}

impl Owner {
    /// The owning block, if any.
    pub fn block(self) -> Option<BlockIdx> {
        match self {
            Owner::Root => None,
            Owner::Next(b) | Owner::Input(b, _) | Owner::Shadow(b, _) => Some(b),
        }
    }
}

impl Blocks {
    /// Mutable access to one block.
    pub(crate) fn get_mut(&mut self, idx: BlockIdx) -> Option<&mut Block> {
        self.list.get_mut(idx.get())
    }

    /// Where `idx` hangs. Uses `parent` as a hint and checks it; if `parent` is wrong (a
    /// hand-written file), finds the owner by scanning the target.
    pub fn owner(&self, idx: BlockIdx) -> Owner {
        if let Some(p) = self.get(idx).and_then(|b| b.parent) {
            if let Some(o) = self.slot_in(p, idx) {
                return o;
            }
        }
        for (p, _) in self.iter() {
            if let Some(o) = self.slot_in(p, idx) {
                return o;
            }
        }
        Owner::Root
    }

    /// The slot of block `p` that holds `child`, if any.
    fn slot_in(&self, p: BlockIdx, child: BlockIdx) -> Option<Owner> {
        let b = self.get(p)?;
        if b.next == Some(child) {
            return Some(Owner::Next(p));
        }
        for (n, input) in b.inputs.iter().enumerate() {
            if input.value == Some(InputValue::Block(child)) {
                return Some(Owner::Input(p, n));
            }
            if input.shadow == Some(InputValue::Block(child)) {
                return Some(Owner::Shadow(p, n));
            }
        }
        None
    }

    /// The last block of the chain starting at `idx` (following `next`).
    pub fn chain_end(&self, idx: BlockIdx) -> BlockIdx {
        let mut at = idx;
        // The model is a forest, so the walk ends; the bound guards a damaged one.
        for _ in 0..self.len() {
            match self.get(at).and_then(|b| b.next) {
                Some(n) => at = n,
                None => break,
            }
        }
        at
    }

    /// The blocks of the chain starting at `idx`, in order.
    pub fn chain(&self, idx: BlockIdx) -> Vec<BlockIdx> {
        let mut out = Vec::new();
        let mut at = Some(idx);
        while let Some(i) = at {
            if out.len() > self.len() {
                break;
            }
            out.push(i);
            at = self.get(i).and_then(|b| b.next);
        }
        out
    }

    /// The first block of the stack holding `idx`: climbs `next` links backwards (a block in
    /// a C-slot stops at the first block of that slot; a reporter is its own top).
    pub fn stack_top(&self, idx: BlockIdx) -> BlockIdx {
        let mut at = idx;
        for _ in 0..self.len() {
            match self.owner(at) {
                Owner::Next(p) => at = p,
                _ => break,
            }
        }
        at
    }

    /// The root of the script holding `idx` (climbs every kind of owner).
    pub fn script_root(&self, idx: BlockIdx) -> BlockIdx {
        let mut at = idx;
        for _ in 0..self.len() {
            match self.owner(at).block() {
                Some(p) => at = p,
                None => break,
            }
        }
        at
    }

    /// `idx` and every block below it in the forest: its inputs (values and shadows,
    /// recursively), and, with `with_next`, the blocks after it and theirs. Pre-order:
    /// a block, its inputs in order, then its `next`.
    pub fn subtree(&self, idx: BlockIdx, with_next: bool) -> Vec<BlockIdx> {
        let mut out = Vec::new();
        let mut seen = vec![false; self.len()];
        let mut stack = vec![idx];
        let mut first = true;
        while let Some(i) = stack.pop() {
            match seen.get_mut(i.get()) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            out.push(i);
            let Some(b) = self.get(i) else { continue };
            if let Some(n) = b.next {
                if with_next || !first {
                    stack.push(n);
                }
            }
            first = false;
            let before = stack.len();
            for input in &b.inputs {
                for v in [&input.value, &input.shadow] {
                    if let Some(InputValue::Block(c)) = v {
                        stack.push(*c);
                    }
                }
            }
            stack[before..].reverse();
        }
        out
    }

    /// Whether `inner` lies in the subtree of `outer` (its inputs and, with `with_next`, the
    /// blocks after it).
    pub fn contains(&self, outer: BlockIdx, inner: BlockIdx, with_next: bool) -> bool {
        let mut at = inner;
        for _ in 0..=self.len() {
            if at == outer {
                return true;
            }
            match self.owner(at) {
                Owner::Root => return false,
                Owner::Next(p) => {
                    // Climbing a `next` link from a block reached through inputs is fine;
                    // the chain below `outer` itself only counts with `with_next`.
                    if p == outer && !with_next {
                        return false;
                    }
                    at = p;
                }
                Owner::Input(p, _) | Owner::Shadow(p, _) => at = p,
            }
        }
        false
    }

    /// Moves block `idx` to position `to` of the file order (clamped to the last position),
    /// keeping the others in order and renumbering every reference. Returns its new index.
    /// The order of top-level blocks is the order scripts start in, so this is observable.
    pub fn reorder(&mut self, idx: BlockIdx, to: usize) -> BlockIdx {
        let n = self.list.len();
        let from = idx.get();
        if from >= n {
            return idx;
        }
        let to = to.min(n - 1);
        if from == to {
            return idx;
        }
        // New index of every old index.
        let map = |i: usize| -> usize {
            if i == from {
                to
            } else if from < to && i > from && i <= to {
                i - 1
            } else if to < from && i >= to && i < from {
                i + 1
            } else {
                i
            }
        };
        let block = self.list.remove(from);
        self.list.insert(to, block);
        let shift = |i: &mut BlockIdx| *i = BlockIdx(map(i.get()) as u32);
        for b in &mut self.list {
            for_each_ref(b, shift);
        }
        for v in self.by_id.values_mut() {
            shift(v);
        }
        BlockIdx(to as u32)
    }

    /// Appends `block` at the end of the file order.
    pub(crate) fn push_block(&mut self, block: Block) -> BlockIdx {
        let idx = BlockIdx(self.list.len() as u32);
        self.by_id.insert(block.id.clone(), idx);
        self.list.push(block);
        idx
    }

    /// Removes the marked blocks, keeping the others in order and renumbering every
    /// reference. A reference to a removed block from a kept one becomes `None` (callers
    /// unlink first; this only guards against leaving an index dangling). Returns the removed
    /// blocks in their former order.
    pub(crate) fn remove_marked(&mut self, marked: &[bool]) -> Vec<Block> {
        let mut map: Vec<Option<BlockIdx>> = Vec::with_capacity(self.list.len());
        let mut kept = 0u32;
        for i in 0..self.list.len() {
            if marked.get(i).copied().unwrap_or(false) {
                map.push(None);
            } else {
                map.push(Some(BlockIdx(kept)));
                kept += 1;
            }
        }
        let old = core::mem::take(&mut self.list);
        let mut removed = Vec::new();
        for (i, b) in old.into_iter().enumerate() {
            if map[i].is_some() {
                self.list.push(b);
            } else {
                removed.push(b);
            }
        }
        let remap = |i: BlockIdx| map.get(i.get()).copied().flatten();
        for b in &mut self.list {
            b.next = b.next.and_then(remap);
            b.parent = b.parent.and_then(remap);
            for input in &mut b.inputs {
                for v in [&mut input.value, &mut input.shadow] {
                    if let Some(InputValue::Block(c)) = *v {
                        *v = remap(c).map(InputValue::Block);
                    }
                }
            }
        }
        self.by_id.retain(|_, v| match remap(*v) {
            Some(n) => {
                *v = n;
                true
            }
            None => false,
        });
        removed
    }
}

/// Applies `f` to every block reference a block holds (`next`, `parent`, inputs).
fn for_each_ref(b: &mut Block, mut f: impl FnMut(&mut BlockIdx)) {
    if let Some(n) = &mut b.next {
        f(n);
    }
    if let Some(p) = &mut b.parent {
        f(p);
    }
    for input in &mut b.inputs {
        for v in [&mut input.value, &mut input.shadow] {
            if let Some(InputValue::Block(c)) = v {
                f(c);
            }
        }
    }
}
