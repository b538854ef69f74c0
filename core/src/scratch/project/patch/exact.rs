//! Existing blocks as exact specs again (for inverses, diffs and the Bug Forge): every
//! record with its id, fields, inputs (the blocks in them too) and file position, so that
//! adding the spec back recreates the same records.
//!
//! The walk keeps its own stack on the heap (one frame per block being converted), so a
//! script nested [`MAX_NESTING`](super::super::MAX_NESTING) deep costs the thread's stack
//! nothing.

use alloc::vec::Vec;

use super::super::blocks::{BlockIdx, Blocks, InputValue};
use super::model::{BlockSpec, Child, FieldSpec, InputSpec};

/// An existing block (with its inputs, and with `with_next` the blocks after it) as an exact
/// spec with ids and file positions, so that adding it back recreates the same records.
/// `None` when `idx` is not a block.
pub(crate) fn exact_spec(blocks: &Blocks, idx: BlockIdx, with_next: bool) -> Option<BlockSpec> {
    let mut cur = Frame::new(blocks, idx, with_next)?;
    let mut parents: Vec<Frame> = Vec::new();
    loop {
        match cur.step(blocks) {
            Step::Need(child, with_next) => match Frame::new(blocks, child, with_next) {
                // A path of inputs longer than the target has blocks repeats one: a cycle,
                // which a loaded model cannot have; the bound only guards the walk.
                Some(f) if parents.len() < blocks.len() => {
                    parents.push(core::mem::replace(&mut cur, f));
                }
                Some(_) => return None,
                // A missing block in an input: the input shows nothing there.
                None => cur.deliver(blocks, None),
            },
            Step::Done(spec) => match parents.pop() {
                None => return Some(spec),
                Some(p) => {
                    cur = p;
                    cur.deliver(blocks, Some(Child::Block(spec)));
                }
            },
        }
    }
}

/// What a frame needs next.
enum Step {
    /// The spec of this block (`true`: with the blocks after it) for an input, or (`false`)
    /// of the next block of the chain.
    Need(BlockIdx, bool),
    /// The finished spec.
    Done(BlockSpec),
}

/// One block being converted: its record's shell, then its inputs one by one (value, then
/// shadow), then (for the head of a `with_next` walk) the blocks after it.
struct Frame {
    spec: BlockSpec,
    idx: BlockIdx,
    /// The input being converted.
    input: usize,
    /// Its value, once converted (the shadow comes next).
    value: Option<Option<Child>>,
    /// The next block of the chain to convert (`None`: none, or not a `with_next` walk).
    next: Option<BlockIdx>,
    /// Whether the inputs are done and the frame is converting the chain.
    chain: bool,
}

impl Frame {
    /// The frame of block `idx` with its record's id, opcode, fields, mutation and position.
    fn new(blocks: &Blocks, idx: BlockIdx, with_next: bool) -> Option<Frame> {
        let b = blocks.get(idx)?;
        let fields = b.fields.iter().map(|f| {
            let id = if f.has_id_slot || f.id.is_some() { Some(f.id.clone()) } else { None };
            (f.name.clone(), FieldSpec::Exact(f.value.clone(), id))
        });
        let spec = BlockSpec {
            id: Some(b.id.clone()),
            opcode: b.opcode.clone(),
            shadow: b.shadow,
            fields: fields.collect(),
            inputs: Vec::with_capacity(b.inputs.len()),
            mutation: b.mutation.as_ref().map(|m| m.raw.clone()),
            next: Vec::new(),
            at: Some(idx.get()),
        };
        let next = if with_next { b.next } else { None };
        Some(Frame { spec, idx, input: 0, value: None, next, chain: false })
    }

    /// Converts what needs no other block, up to the next block needed or the end.
    fn step(&mut self, blocks: &Blocks) -> Step {
        let inputs = blocks.get(self.idx).map_or(&[][..], |b| &b.inputs[..]);
        while let Some(i) = inputs.get(self.input) {
            let slot = if self.value.is_none() { &i.value } else { &i.shadow };
            match slot {
                Some(InputValue::Block(c)) => return Step::Need(*c, true),
                Some(InputValue::Primitive(p)) => {
                    self.deliver(blocks, Some(Child::Primitive(p.clone())))
                }
                None => self.deliver(blocks, None),
            }
        }
        self.chain = true;
        // The chain ends at the first block that is not in the model (or, in a model with a
        // cycle along `next`, after as many blocks as there are).
        let room = self.spec.next.len() < blocks.len();
        if let Some(n) = self.next.take().filter(|n| room && blocks.get(*n).is_some()) {
            self.next = blocks.get(n).and_then(|b| b.next);
            return Step::Need(n, false);
        }
        Step::Done(core::mem::take(&mut self.spec))
    }

    /// Takes what the frame asked for: an input's value or shadow, or the next chain block.
    fn deliver(&mut self, blocks: &Blocks, child: Option<Child>) {
        if self.chain {
            if let Some(Child::Block(s)) = child {
                self.spec.next.push(s);
            }
            return;
        }
        let Some(i) = blocks.get(self.idx).and_then(|b| b.inputs.get(self.input)) else { return };
        match self.value.take() {
            None => self.value = Some(child),
            Some(value) => {
                let input = InputSpec::Exact { kind: i.kind, value, shadow: child };
                self.spec.inputs.push((i.name.clone(), input));
                self.input += 1;
            }
        }
    }
}
