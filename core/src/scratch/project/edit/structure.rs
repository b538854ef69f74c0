//! Structural edits of one target's blocks: detach, attach after/before, fill a value input,
//! push a stack into a C-slot, wrap a run in a C-block, delete (heal, stack, unwrap).
//!
//! Every edit keeps the model's invariants: the blocks form a forest, `parent` names the
//! owner, roots have `topLevel: true` with `x`/`y` and children have neither, an input holding
//! a reporter over a shadow is `[3, reporter, shadow]`, and `by_id` matches the list. Edits
//! check their arguments first and change nothing when they fail. They know nothing about
//! block shapes (which opcode is a reporter or a C-block): that is the caller's check (the
//! patch and agent layers use the opcode catalog).

use alloc::vec::Vec;

use super::super::blocks::{Block, BlockForm, BlockIdx, Blocks, Input, InputKind, InputValue};
use super::super::json::Num;
use super::super::nesting::{self, MAX_NESTING};
use super::error::EditError;
use super::store::Owner;

/// A workspace position `(x, y)` (y grows downwards, as in Scratch's workspace).
pub type Pos = (Num, Num);

/// What happens to an input's shadow when a reporter is put over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShadowPolicy {
    /// Keep it as the obscured shadow (`[3, reporter, shadow]`), as the Scratch editor does:
    /// removing the reporter later brings the shadow back.
    Keep,
    /// Delete it (`[2, reporter]`), as ScratchWorld's `value_into` does: removing the
    /// reporter later leaves the input empty.
    Dispose,
}

/// How [`Blocks::delete`] treats what hangs off the deleted block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RemoveMode {
    /// The block, its inputs and its C-slots go; the block after it takes its place.
    #[default]
    Heal,
    /// The block and every block below it go (ScratchWorld's `delete_block`).
    Stack,
    /// A C-block goes with its other inputs; the contents of its first slot (`SUBSTACK`) take
    /// its place, followed by what came after it. Without a `SUBSTACK` block this is `Heal`.
    Unwrap,
}

/// Vertical room given to each block of a script when finding a free spot below it.
const BLOCK_HEIGHT: i64 = 48;

impl Blocks {
    /// The id of a block, for messages (`#<index>` when the index is out of range).
    pub fn id_of(&self, idx: BlockIdx) -> alloc::string::String {
        match self.get(idx) {
            Some(b) => b.id.clone(),
            None => alloc::format!("#{}", idx.0),
        }
    }

    pub(crate) fn check(&self, idx: BlockIdx) -> Result<&Block, EditError> {
        self.get(idx).ok_or_else(|| EditError::UnknownBlock { id: self.id_of(idx) })
    }

    /// A script head that is not a shadow: what attach and fill edits move.
    fn check_movable_root(&self, src: BlockIdx) -> Result<(), EditError> {
        let b = self.check(src)?;
        if b.shadow {
            return Err(EditError::BadLink {
                id: b.id.clone(),
                reason: "a shadow block cannot be moved",
            });
        }
        if self.owner(src) != Owner::Root {
            return Err(EditError::NotRoot { id: b.id.clone() });
        }
        Ok(())
    }

    /// Fails with [`EditError::Cycle`] if `anchor` lies in `src`'s script (src and below).
    fn check_no_cycle(&self, src: BlockIdx, anchor: BlockIdx) -> Result<(), EditError> {
        if src == anchor || self.contains(src, anchor, true) {
            return Err(EditError::Cycle { id: self.id_of(src), anchor: self.id_of(anchor) });
        }
        Ok(())
    }

    /// The input of `parent` named `name`: its position, created empty (`[1, null]`) at the
    /// end when absent and `create` is set.
    fn input_slot(
        &mut self,
        parent: BlockIdx,
        name: &str,
        create: bool,
    ) -> Result<usize, EditError> {
        let b = self.check(parent)?;
        if let Some(n) = b.inputs.iter().position(|i| i.name == name) {
            return Ok(n);
        }
        if !create {
            return Err(EditError::UnknownInput { id: b.id.clone(), input: name.into() });
        }
        let b = self.get_mut(parent).ok_or(EditError::TooLarge)?;
        b.inputs.push(Input {
            name: name.into(),
            kind: InputKind::Shadow,
            value: None,
            shadow: None,
        });
        Ok(b.inputs.len() - 1)
    }

    fn is_shadow_value(&self, v: &InputValue) -> bool {
        match v {
            InputValue::Primitive(_) => true,
            InputValue::Block(b) => self.get(*b).is_some_and(|b| b.shadow),
        }
    }

    /// Takes `idx` out of its owner's slot; what follows `idx` stays attached to it. An input
    /// it filled gets its obscured shadow back (`[1, shadow]`) or becomes empty (`[1, null]`).
    pub(crate) fn unlink(&mut self, idx: BlockIdx) -> Owner {
        let owner = self.owner(idx);
        match owner {
            Owner::Root => {}
            Owner::Next(p) => {
                if let Some(b) = self.get_mut(p) {
                    b.next = None;
                }
            }
            Owner::Input(p, n) => {
                if let Some(input) = self.get_mut(p).and_then(|b| b.inputs.get_mut(n)) {
                    input.value = input.shadow.take();
                    input.kind = InputKind::Shadow;
                }
            }
            Owner::Shadow(p, n) => {
                let value = self.get(p).and_then(|b| b.inputs.get(n)).and_then(|i| i.value.clone());
                let kind = match &value {
                    Some(v) if !self.is_shadow_value(v) => InputKind::NoShadow,
                    _ => InputKind::Shadow,
                };
                if let Some(input) = self.get_mut(p).and_then(|b| b.inputs.get_mut(n)) {
                    input.shadow = None;
                    input.kind = kind;
                }
            }
        }
        if let Some(b) = self.get_mut(idx) {
            b.parent = None;
        }
        owner
    }

    /// Makes `idx` a script head at `pos`.
    pub(crate) fn set_root(&mut self, idx: BlockIdx, pos: Pos) {
        if let Some(b) = self.get_mut(idx) {
            b.top_level = true;
            b.parent = None;
            b.x = Some(pos.0);
            b.y = Some(pos.1);
            // A compressed literal at the top level cannot carry x/y; references can.
            if matches!(b.form, BlockForm::Primitive(k) if !k.is_reference()) {
                b.form = BlockForm::Object;
            }
        }
    }

    /// Makes `idx` a child of `parent` (the caller has set the slot).
    pub(crate) fn set_child(&mut self, idx: BlockIdx, parent: BlockIdx) {
        if let Some(b) = self.get_mut(idx) {
            b.top_level = false;
            b.parent = Some(parent);
            b.x = None;
            b.y = None;
            // A compressed array carries no parent: write the block out as an object.
            b.form = BlockForm::Object;
        }
    }

    /// Puts `child` in input `n` of `parent` over whatever shadow it holds (which becomes the
    /// obscured shadow). The slot must not hold a non-shadow block.
    fn fill_input(&mut self, parent: BlockIdx, n: usize, child: BlockIdx) {
        let child_is_shadow = self.get(child).is_some_and(|b| b.shadow);
        let Some(input) = self.get(parent).and_then(|b| b.inputs.get(n)) else { return };
        let (value, shadow) = (input.value.clone(), input.shadow.clone());
        let (kind, shadow) = match (value, shadow) {
            (_, Some(s)) => (InputKind::Obscured, Some(s)),
            (Some(v), None) => (InputKind::Obscured, Some(v)),
            (None, None) if child_is_shadow => (InputKind::Shadow, None),
            (None, None) => (InputKind::NoShadow, None),
        };
        if let Some(input) = self.get_mut(parent).and_then(|b| b.inputs.get_mut(n)) {
            input.kind = kind;
            input.value = Some(InputValue::Block(child));
            input.shadow = shadow;
        }
        self.set_child(child, parent);
    }

    /// Hangs `idx` where `owner` says (a slot freed by [`Blocks::unlink`]); a root goes to `pos`.
    fn place(&mut self, idx: BlockIdx, owner: Owner, pos: Pos) {
        match owner {
            Owner::Root | Owner::Shadow(..) => self.set_root(idx, pos),
            Owner::Next(p) => {
                if let Some(b) = self.get_mut(p) {
                    b.next = Some(idx);
                }
                self.set_child(idx, p);
            }
            Owner::Input(p, n) => self.fill_input(p, n, idx),
        }
    }

    /// Appends the chain `tail` after the last block of the chain starting at `head`.
    fn append_chain(&mut self, head: BlockIdx, tail: Option<BlockIdx>) {
        let Some(tail) = tail else { return };
        let end = self.chain_end(head);
        if let Some(b) = self.get_mut(end) {
            b.next = Some(tail);
        }
        self.set_child(tail, end);
    }

    fn pos_of(&self, idx: BlockIdx) -> Pos {
        match self.get(idx) {
            Some(Block { x: Some(x), y: Some(y), .. }) => (*x, *y),
            _ => self.free_spot(),
        }
    }

    /// A deterministic spot for a new script: left-aligned with the leftmost script, below the
    /// lowest one (48 workspace units per block of that script, plus a gap); `(0, 0)` in an
    /// empty workspace.
    pub fn free_spot(&self) -> Pos {
        let mut x: Option<f64> = None;
        let mut bottom: Option<f64> = None;
        for (i, b) in self.top_level() {
            let (Some(bx), Some(by)) = (b.x, b.y) else { continue };
            x = Some(x.map_or(bx.as_f64(), |m| m.min(bx.as_f64())));
            let height = (self.subtree(i, true).len() as i64 + 1) * BLOCK_HEIGHT;
            let low = by.as_f64() + height as f64;
            bottom = Some(bottom.map_or(low, |m| m.max(low)));
        }
        let num = |v: f64| {
            let r = libm::round(v);
            if r.abs() < 9.0e15 {
                Num::Int(r as i64)
            } else {
                Num::Float(v)
            }
        };
        (num(x.unwrap_or(0.0)), num(bottom.unwrap_or(0.0)))
    }

    /// Moves a top-level block to `pos`.
    pub fn set_position(&mut self, idx: BlockIdx, pos: Pos) -> Result<(), EditError> {
        self.check(idx)?;
        if self.owner(idx) != Owner::Root {
            return Err(EditError::NotRoot { id: self.id_of(idx) });
        }
        self.set_root(idx, pos);
        Ok(())
    }

    /// Detaches `idx` and every block after it into a new script at `pos` (ScratchWorld's
    /// `detach_blocks`). A reporter leaves its input with the obscured shadow back, or empty.
    /// A script head stays where it is.
    pub fn detach(&mut self, idx: BlockIdx, pos: Pos) -> Result<(), EditError> {
        let b = self.check(idx)?;
        if b.shadow {
            return Err(EditError::BadLink {
                id: b.id.clone(),
                reason: "a shadow block cannot be detached",
            });
        }
        if self.owner(idx) == Owner::Root {
            return Ok(());
        }
        self.unlink(idx);
        self.set_root(idx, pos);
        Ok(())
    }

    /// Takes only `idx` (with its inputs and C-slots) out into a new script at `pos`; the
    /// block after it takes its place.
    pub fn extract(&mut self, idx: BlockIdx, pos: Pos) -> Result<(), EditError> {
        let b = self.check(idx)?;
        if b.shadow {
            return Err(EditError::BadLink {
                id: b.id.clone(),
                reason: "a shadow block cannot be detached",
            });
        }
        let next = b.next;
        let old_pos = self.pos_of(idx);
        let owner = self.unlink(idx);
        if let Some(n) = next {
            if let Some(b) = self.get_mut(idx) {
                b.next = None;
            }
            self.place(n, owner, old_pos);
        }
        self.set_root(idx, pos);
        Ok(())
    }

    /// Attaches the script headed by `src` (which must be a root) after `anchor`; what
    /// followed `anchor` follows the end of `src`'s chain.
    pub fn attach_after(&mut self, src: BlockIdx, anchor: BlockIdx) -> Result<(), EditError> {
        self.check_movable_root(src)?;
        let a = self.check(anchor)?;
        if a.shadow {
            return Err(EditError::BadLink {
                id: a.id.clone(),
                reason: "nothing attaches after a shadow block",
            });
        }
        self.check_no_cycle(src, anchor)?;
        self.check_nesting(src, anchor, 0, true)?;
        let old = a.next;
        if let Some(b) = self.get_mut(anchor) {
            b.next = Some(src);
        }
        self.set_child(src, anchor);
        self.append_chain(src, old);
        Ok(())
    }

    /// Attaches the script headed by `src` (a root) before `anchor`: between `anchor` and the
    /// block before it, first in the C-slot `anchor` starts, or as the new head of `anchor`'s
    /// script (taking its position).
    pub fn attach_before(&mut self, src: BlockIdx, anchor: BlockIdx) -> Result<(), EditError> {
        self.check_movable_root(src)?;
        let a = self.check(anchor)?;
        if a.shadow {
            return Err(EditError::BadLink {
                id: a.id.clone(),
                reason: "nothing attaches before a shadow block",
            });
        }
        self.check_no_cycle(src, anchor)?;
        self.check_nesting(src, anchor, 0, true)?;
        let pos = self.pos_of(anchor);
        let owner = self.owner(anchor);
        if let Owner::Shadow(..) = owner {
            return Err(EditError::BadLink {
                id: self.id_of(anchor),
                reason: "the anchor is a shadow",
            });
        }
        self.unlink(anchor);
        self.place(src, owner, pos);
        self.append_chain(src, Some(anchor));
        Ok(())
    }

    /// Puts the reporter `src` (a root without blocks after it) into value input `input` of
    /// `parent`, keeping or deleting the shadow there. An input the block lacks is created.
    /// A slot already holding a non-shadow block is refused ([`EditError::Occupied`]).
    pub fn put_value(
        &mut self,
        src: BlockIdx,
        parent: BlockIdx,
        input: &str,
        policy: ShadowPolicy,
    ) -> Result<(), EditError> {
        self.check_movable_root(src)?;
        self.check(parent)?;
        if self.get(src).is_some_and(|b| b.next.is_some()) {
            return Err(EditError::BadLink {
                id: self.id_of(src),
                reason: "a block with blocks after it cannot fill a value input",
            });
        }
        self.check_no_cycle(src, parent)?;
        self.check_nesting(src, parent, 1, true)?;
        self.check_slot_free(parent, input)?;
        let n = self.input_slot(parent, input, true)?;
        self.fill_input(parent, n, src);
        if policy == ShadowPolicy::Dispose {
            self.drop_shadow(parent, n);
        }
        Ok(())
    }

    /// Fails if placing `src` (with the blocks after it when `with_next`) `extra` inputs below
    /// the level of `anchor` would nest a block deeper than [`MAX_NESTING`].
    fn check_nesting(
        &self,
        src: BlockIdx,
        anchor: BlockIdx,
        extra: usize,
        with_next: bool,
    ) -> Result<(), EditError> {
        let depth = nesting::depth_of(self, anchor) + extra + nesting::height(self, src, with_next);
        if depth > MAX_NESTING {
            return Err(EditError::TooDeep { id: self.id_of(src), limit: MAX_NESTING });
        }
        Ok(())
    }

    /// Fails if input `name` of `parent` holds a non-shadow block.
    fn check_slot_free(&self, parent: BlockIdx, name: &str) -> Result<(), EditError> {
        let b = self.check(parent)?;
        if let Some(v) = b.input(name).and_then(|i| i.value.as_ref()) {
            if !self.is_shadow_value(v) {
                return Err(EditError::Occupied { id: b.id.clone(), input: name.into() });
            }
        }
        Ok(())
    }

    /// Deletes the shadow of input `n` of `parent` (its block subtree too), leaving any
    /// non-shadow value in place; returns the removed blocks. Removal renumbers blocks, so
    /// callers do this last.
    pub(crate) fn drop_shadow(&mut self, parent: BlockIdx, n: usize) -> Vec<Block> {
        let Some(input) = self.get(parent).and_then(|b| b.inputs.get(n)) else { return Vec::new() };
        let shadow = match (&input.value, &input.shadow) {
            (_, Some(s)) => s.clone(),
            (Some(v), None) if self.is_shadow_value(v) => v.clone(),
            _ => return Vec::new(),
        };
        match shadow {
            InputValue::Block(s) => {
                let doomed = self.subtree(s, true);
                self.unlink(s);
                self.remove_set(&doomed)
            }
            InputValue::Primitive(_) => {
                let value =
                    self.get(parent).and_then(|b| b.inputs.get(n)).and_then(|i| i.value.clone());
                let lone_value = value.is_some_and(|v| !self.is_shadow_value(&v));
                if let Some(input) = self.get_mut(parent).and_then(|b| b.inputs.get_mut(n)) {
                    if input.shadow.take().is_none() {
                        input.value = None;
                    }
                    input.kind = if lone_value { InputKind::NoShadow } else { InputKind::Shadow };
                }
                Vec::new()
            }
        }
    }

    /// Puts the script headed by `src` (a root) first in C-slot `input` of `parent`; what was
    /// in the slot follows the end of `src`'s chain. An input the block lacks is created.
    pub fn put_statement(
        &mut self,
        src: BlockIdx,
        parent: BlockIdx,
        input: &str,
    ) -> Result<(), EditError> {
        self.check_movable_root(src)?;
        self.check(parent)?;
        self.check_no_cycle(src, parent)?;
        self.check_nesting(src, parent, 1, true)?;
        let old = self.statement_content(parent, input)?;
        let n = self.input_slot(parent, input, true)?;
        if let Some(old) = old {
            self.unlink(old);
        }
        self.fill_input(parent, n, src);
        self.append_chain(src, old);
        Ok(())
    }

    /// The block in statement input `name` of `parent` (`None` if empty or absent); an input
    /// holding a shadow is not a statement input.
    fn statement_content(
        &self,
        parent: BlockIdx,
        name: &str,
    ) -> Result<Option<BlockIdx>, EditError> {
        let b = self.check(parent)?;
        let Some(input) = b.input(name) else { return Ok(None) };
        if input.shadow.is_some() {
            return Err(EditError::BadLink {
                id: b.id.clone(),
                reason: "the input holds a shadow: not a C-slot",
            });
        }
        match &input.value {
            None => Ok(None),
            Some(v) if self.is_shadow_value(v) => Err(EditError::BadLink {
                id: b.id.clone(),
                reason: "the input holds a shadow: not a C-slot",
            }),
            Some(InputValue::Block(c)) => Ok(Some(*c)),
            Some(InputValue::Primitive(_)) => Ok(None),
        }
    }

    /// Wraps the run `first..=last` of one chain in the C-block script headed by `c` (a
    /// root): the run goes first into `c`'s slot `input` (old slot content after it), `c`'s
    /// chain takes the run's place, and what followed `last` follows `c`'s chain.
    pub fn wrap(
        &mut self,
        c: BlockIdx,
        input: &str,
        first: BlockIdx,
        last: BlockIdx,
    ) -> Result<(), EditError> {
        self.check_movable_root(c)?;
        let f = self.check(first)?;
        if f.shadow {
            return Err(EditError::BadLink {
                id: f.id.clone(),
                reason: "a shadow block cannot be wrapped",
            });
        }
        self.check(last)?;
        if !self.chain(first).contains(&last) {
            return Err(EditError::BadLink {
                id: self.id_of(last),
                reason: "the run's last block does not follow its first",
            });
        }
        if self.script_root(first) == c {
            return Err(EditError::Cycle { id: self.id_of(c), anchor: self.id_of(first) });
        }
        if let Owner::Shadow(..) = self.owner(first) {
            return Err(EditError::BadLink {
                id: self.id_of(first),
                reason: "the run is a shadow",
            });
        }
        // The run goes one level deeper, `c` (with its own inputs) takes its place.
        let at = nesting::depth_of(self, first);
        let deepest = nesting::height(self, c, false).max(1 + nesting::height(self, first, true));
        if at + deepest > MAX_NESTING {
            return Err(EditError::TooDeep { id: self.id_of(c), limit: MAX_NESTING });
        }
        let old = self.statement_content(c, input)?;
        let n = self.input_slot(c, input, true)?;
        let pos = self.pos_of(first);
        let after = self.get(last).and_then(|b| b.next);
        if let Some(b) = self.get_mut(last) {
            b.next = None;
        }
        if let Some(a) = after {
            if let Some(b) = self.get_mut(a) {
                b.parent = None;
            }
        }
        let owner = self.unlink(first);
        if let Some(old) = old {
            self.unlink(old);
        }
        self.fill_input(c, n, first);
        self.append_chain(first, old);
        self.append_chain(c, after);
        self.place(c, owner, pos);
        Ok(())
    }

    /// Deletes `idx` as `mode` says; returns the removed blocks (former file order). Deleting
    /// a reporter gives its input the obscured shadow back; deleting a shadow empties its
    /// input.
    pub fn delete(&mut self, idx: BlockIdx, mode: RemoveMode) -> Result<Vec<Block>, EditError> {
        let b = self.check(idx)?;
        let next = b.next;
        let body = b.input("SUBSTACK").and_then(|i| match (&i.value, &i.shadow) {
            (Some(InputValue::Block(s)), None) => Some(*s),
            _ => None,
        });
        let pos = self.pos_of(idx);
        let owner = self.owner(idx);
        let heir = match (mode, body) {
            (RemoveMode::Stack, _) => None,
            (RemoveMode::Unwrap, Some(s)) => {
                self.unlink(s);
                self.append_chain(s, next);
                Some(s)
            }
            _ => next,
        };
        if mode != RemoveMode::Stack {
            if let Some(b) = self.get_mut(idx) {
                b.next = None;
            }
            if let Some(n) = next {
                if let Some(b) = self.get_mut(n) {
                    if b.parent == Some(idx) {
                        b.parent = None;
                    }
                }
            }
        }
        let doomed = self.subtree(idx, mode == RemoveMode::Stack);
        self.unlink(idx);
        if let Some(h) = heir {
            self.place(h, owner, pos);
        }
        Ok(self.remove_set(&doomed))
    }

    /// Removes the listed blocks (already unlinked from the kept ones).
    pub(crate) fn remove_set(&mut self, doomed: &[BlockIdx]) -> Vec<Block> {
        let mut marked = alloc::vec![false; self.len()];
        for d in doomed {
            if let Some(m) = marked.get_mut(d.get()) {
                *m = true;
            }
        }
        self.remove_marked(&marked)
    }
}
