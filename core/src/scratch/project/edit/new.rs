//! Creating blocks: a [`NewBlock`] tree (a block with its inputs, shadows and the blocks after
//! it) becomes blocks of a target with fresh or given ids, as one new script.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{
    Block, BlockForm, BlockIdx, Blocks, Field, Input, InputKind, InputValue, Mutation, Primitive,
};
use super::super::model::Extra;
use super::error::EditError;
use super::ids::IdGen;
use super::structure::Pos;

/// A block to create, with everything under it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewBlock {
    /// The id to give it (`None`: a fresh id from the [`IdGen`]).
    pub id: Option<String>,
    /// The opcode.
    pub opcode: String,
    /// Whether it is a shadow (a menu or literal slot filler).
    pub shadow: bool,
    /// Fields, in order.
    pub fields: Vec<Field>,
    /// Inputs, in order.
    pub inputs: Vec<NewInput>,
    /// The mutation, if any.
    pub mutation: Option<Mutation>,
    /// The blocks after it, in order, as a flat list (a listed block's own `next` comes right
    /// after it, before the rest; see [`flat_chain`]). A list, not a nesting: creating and
    /// dropping a long script never recurse along it.
    pub next: Vec<NewBlock>,
    /// Its position in the target's file order (`None`: after the existing blocks). The
    /// order of top-level blocks is the order scripts start in; restoring removed blocks at
    /// their old positions gives back the same file.
    pub at: Option<usize>,
}

/// An input of a [`NewBlock`]: what fills the slot and the shadow under it. `(None, None)` is
/// an empty slot (`[1, null]`), `(None, Some(s))` a slot showing its shadow (`[1, s]`),
/// `(Some(v), None)` a block without shadow (`[2, v]`, or `[1, v]` if `v` is itself a
/// shadow), `(Some(v), Some(s))` a block over a shadow (`[3, v, s]`).
#[derive(Debug, Clone, PartialEq)]
pub struct NewInput {
    /// The input name.
    pub name: String,
    /// The block filling the slot.
    pub value: Option<NewChild>,
    /// The shadow.
    pub shadow: Option<NewChild>,
}

/// A block or an inline compressed primitive (`[4, "10"]`, `[12, name, id]`...).
#[derive(Debug, Clone, PartialEq)]
// A spec built once per edit and consumed at once: boxing the block would cost an allocation
// per child for no saving.
#[allow(clippy::large_enum_variant)]
pub enum NewChild {
    /// A block.
    Block(NewBlock),
    /// An inline primitive.
    Primitive(Primitive),
}

/// The blocks of a chain list in order, each one's own `next` list spliced in right after it,
/// without recursion (an explicit stack of slices).
pub fn flat_chain<T>(chain: &[T], next: impl Fn(&T) -> &[T]) -> Vec<&T> {
    let mut out = Vec::new();
    let mut todo: Vec<&[T]> = alloc::vec![chain];
    while let Some(s) = todo.pop() {
        if let Some((first, rest)) = s.split_first() {
            out.push(first);
            todo.push(rest);
            todo.push(next(first));
        }
    }
    out
}

impl NewBlock {
    /// A block with this opcode and nothing else.
    pub fn new(opcode: &str) -> NewBlock {
        NewBlock { opcode: opcode.into(), ..NewBlock::default() }
    }

    /// The deepest nesting in the tree (0: nothing in its inputs), walked without recursion.
    pub fn nesting(&self) -> usize {
        let mut max = 0;
        let mut stack: Vec<(&NewBlock, usize)> = alloc::vec![(self, 0)];
        while let Some((b, d)) = stack.pop() {
            max = max.max(d);
            stack.extend(b.next.iter().map(|n| (n, d)));
            for i in &b.inputs {
                for c in [&i.value, &i.shadow] {
                    if let Some(NewChild::Block(c)) = c {
                        stack.push((c, d + 1));
                    }
                }
            }
        }
        max
    }
}

/// Where a created block hangs, by position in the creation order.
#[derive(Clone, Copy)]
enum Link {
    Next(usize),
    Value(usize, usize),
    Shadow(usize, usize),
}

/// A block waiting to be created: how it hangs, and where it sits in a flattened chain.
type Pending<'a> = (&'a NewBlock, Option<Link>, Option<(usize, usize)>);

impl Blocks {
    /// Creates the blocks of `spec` (pre-order: a block, its inputs in order, then the block
    /// after it) at the end of the file order (or at their `at` positions), as a new script at
    /// `pos`. Ids are taken from
    /// the spec or drawn from `ids`; a given id already used fails with
    /// [`EditError::DuplicateId`]. Returns the new root.
    pub fn create(
        &mut self,
        spec: &NewBlock,
        pos: Pos,
        ids: &mut IdGen,
    ) -> Result<BlockIdx, EditError> {
        if spec.nesting() > super::super::MAX_NESTING {
            let id = spec.id.clone().unwrap_or_else(|| spec.opcode.clone());
            return Err(EditError::TooDeep { id, limit: super::super::MAX_NESTING });
        }
        let mut order: Vec<(&NewBlock, Option<Link>)> = Vec::new();
        // The flattened chains under chain heads; a stacked block that is element `k` of
        // chain `c` carries `Some((c, k))`, and its `next` is already in that chain.
        let mut chains: Vec<Vec<&NewBlock>> = Vec::new();
        let mut stack: Vec<Pending<'_>> = alloc::vec![(spec, None, None)];
        while let Some((b, link, in_chain)) = stack.pop() {
            let me = order.len();
            order.push((b, link));
            let follower = match in_chain {
                Some((c, k)) => chains[c].get(k + 1).map(|n| (*n, (c, k + 1))),
                None if !b.next.is_empty() => {
                    chains.push(flat_chain(&b.next, |n| &n.next));
                    let c = chains.len() - 1;
                    chains[c].first().map(|n| (*n, (c, 0)))
                }
                None => None,
            };
            if let Some((n, at)) = follower {
                stack.push((n, Some(Link::Next(me)), Some(at)));
            }
            for (k, input) in b.inputs.iter().enumerate().rev() {
                if let Some(NewChild::Block(s)) = &input.shadow {
                    stack.push((s, Some(Link::Shadow(me, k)), None));
                }
                if let Some(NewChild::Block(v)) = &input.value {
                    stack.push((v, Some(Link::Value(me, k)), None));
                }
            }
        }
        let base = self.len();
        if base + order.len() >= u32::MAX as usize {
            return Err(EditError::TooLarge);
        }
        // Ids: given ones must be new and distinct; fresh ones avoid both (sets: a long
        // script is not quadratic).
        let mut given: BTreeSet<&str> = BTreeSet::new();
        for (b, _) in &order {
            if let Some(id) = &b.id {
                if self.index_of(id).is_some() || !given.insert(id.as_str()) {
                    return Err(EditError::DuplicateId { id: id.clone() });
                }
            }
        }
        let mut new_ids: Vec<String> = Vec::with_capacity(order.len());
        let mut fresh: BTreeSet<String> = BTreeSet::new();
        for (b, _) in &order {
            let id = match &b.id {
                Some(id) => id.clone(),
                None => {
                    let id = ids.next_id(|c| {
                        self.index_of(c).is_some() || given.contains(c) || fresh.contains(c)
                    });
                    fresh.insert(id.clone());
                    id
                }
            };
            new_ids.push(id);
        }
        let mut blocks: Vec<Block> = Vec::with_capacity(order.len());
        for ((b, _), id) in order.iter().zip(new_ids) {
            blocks.push(Block {
                id,
                opcode: b.opcode.clone(),
                next: None,
                parent: None,
                inputs: b.inputs.iter().map(shell_input).collect(),
                fields: b.fields.clone(),
                shadow: b.shadow,
                top_level: false,
                x: None,
                y: None,
                comment: None,
                mutation: b.mutation.clone(),
                form: BlockForm::Object,
                extra: Extra::new(),
            });
        }
        let at = |i: usize| BlockIdx((base + i) as u32);
        for (i, (_, link)) in order.iter().enumerate() {
            let p = match *link {
                None => continue,
                Some(Link::Next(p)) => {
                    blocks[p].next = Some(at(i));
                    p
                }
                Some(Link::Value(p, k)) => {
                    blocks[p].inputs[k].value = Some(InputValue::Block(at(i)));
                    p
                }
                Some(Link::Shadow(p, k)) => {
                    blocks[p].inputs[k].shadow = Some(InputValue::Block(at(i)));
                    p
                }
            };
            blocks[i].parent = Some(at(p));
        }
        // Input kinds, now that the slots are filled.
        for (i, (b, _)) in order.iter().enumerate() {
            for (k, spec_input) in b.inputs.iter().enumerate() {
                let kind = input_kind(spec_input);
                let input = &mut blocks[i].inputs[k];
                input.kind = kind;
                if spec_input.value.is_none() {
                    // `[1, s]`: the shadow fills the slot.
                    input.value = input.shadow.take();
                }
            }
        }
        if let Some(root) = blocks.first_mut() {
            root.top_level = true;
            root.x = Some(pos.0);
            root.y = Some(pos.1);
        }
        let mut placed: Vec<(usize, String)> = Vec::new();
        for ((spec, _), b) in order.iter().zip(&blocks) {
            if let Some(pos) = spec.at {
                placed.push((pos, b.id.clone()));
            }
        }
        let root_id = blocks.first().map(|b| b.id.clone()).unwrap_or_default();
        for b in blocks {
            self.push_block(b);
        }
        // Ascending positions: inserting each at its place keeps the earlier ones in place.
        placed.sort_by_key(|(pos, _)| *pos);
        for (pos, id) in placed {
            if let Some(i) = self.index_of(&id) {
                self.reorder(i, pos);
            }
        }
        Ok(self.index_of(&root_id).unwrap_or(at(0)))
    }
}

/// The input with its primitive children in place and block children still empty.
fn shell_input(i: &NewInput) -> Input {
    let prim = |c: &Option<NewChild>| match c {
        Some(NewChild::Primitive(p)) => Some(InputValue::Primitive(p.clone())),
        _ => None,
    };
    Input {
        name: i.name.clone(),
        kind: InputKind::Shadow,
        value: prim(&i.value),
        shadow: prim(&i.shadow),
    }
}

fn is_shadow(c: &NewChild) -> bool {
    match c {
        NewChild::Primitive(_) => true,
        NewChild::Block(b) => b.shadow,
    }
}

fn input_kind(i: &NewInput) -> InputKind {
    match (&i.value, &i.shadow) {
        (Some(_), Some(_)) => InputKind::Obscured,
        (Some(v), None) if !is_shadow(v) => InputKind::NoShadow,
        _ => InputKind::Shadow,
    }
}
