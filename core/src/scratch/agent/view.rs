//! The project as ScratchWorld's browser holds it once scratch-vm has loaded it: target ids and
//! the first editing target, each target's variables in JavaScript key order, which broadcast
//! messages survive the editor's clean-up, the order scripts run in, and blocks addressed as
//! [`Node`]s (a block of the model, or a compressed primitive that scratch-vm would have
//! expanded into a block of its own).
//!
//! Read-only: the observation and the session both look at projects through this module.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use crate::scratch::project::{
    Block, BlockForm, BlockIdx, Blocks, Field, Input, InputKind, InputValue, Literal, Primitive,
    PrimitiveKind, Project, Target,
};

/// The kind of a variable-like entry of a target (scratch-vm keeps all three in one map).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarType {
    /// A scalar variable.
    Scalar,
    /// A list.
    List,
    /// A broadcast message.
    Broadcast,
}

/// One entry of a target's variable map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarEntry<'p> {
    /// Its id.
    pub id: &'p str,
    /// Its name.
    pub name: &'p str,
    /// What it is.
    pub kind: VarType,
}

/// Array-index property names (`"0"` .. `"4294967294"`), which JavaScript enumerates first.
pub fn array_index(id: &str) -> Option<u32> {
    if id.is_empty()
        || (id.len() > 1 && id.starts_with('0'))
        || !id.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    id.parse::<u32>().ok().filter(|&n| n != u32::MAX)
}

/// Sorts `items` into JavaScript property order by `key`: array indices ascending, then the
/// rest in their current order.
pub fn js_order<T>(items: &mut [T], key: impl Fn(&T) -> &str) {
    items.sort_by_key(|t| match array_index(key(t)) {
        Some(n) => (0u8, n),
        None => (1, 0),
    });
}

/// The id scratch-vm's `runtime.targets[i]` carries in a gobo session (deterministic; the
/// browser draws a random one).
pub fn target_id(i: usize) -> String {
    alloc::format!("target-{i}")
}

/// The target ScratchWorld's browser edits after loading: the second target (normally the
/// first sprite), or the only one.
pub fn first_editing_target(project: &Project) -> usize {
    usize::from(project.targets.len() > 1)
}

/// The stage's broadcast messages that some block of some target names (scratch-vm deletes
/// the others whenever the editor reloads its workspace, which it does right after loading).
pub fn live_broadcasts(project: &Project) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    for t in &project.targets {
        for b in t.blocks.as_slice() {
            if let Some(f) = b.field("BROADCAST_OPTION") {
                if let Some(id) = &f.id {
                    out.insert(id.as_str());
                }
            }
            if let BlockForm::Primitive(PrimitiveKind::Broadcast) = b.form {
                if let Some(id) = b.field("BROADCAST_OPTION").and_then(|f| f.id.as_deref()) {
                    out.insert(id);
                }
            }
            for i in &b.inputs {
                for v in [&i.value, &i.shadow].into_iter().flatten() {
                    if let InputValue::Primitive(Primitive::Reference {
                        kind: PrimitiveKind::Broadcast,
                        id,
                        ..
                    }) = v
                    {
                        out.insert(id.as_str());
                    }
                }
            }
        }
    }
    out
}

/// A target's variables, lists and broadcast messages in scratch-vm's map order (loaded in
/// that order; array-index ids first). Stage broadcasts not in `live` are left out.
pub fn variables<'p>(target: &'p Target, live: Option<&BTreeSet<&str>>) -> Vec<VarEntry<'p>> {
    let mut out: Vec<VarEntry<'p>> = Vec::new();
    let mut push = |id: &'p str, name: &'p str, kind| {
        // A repeated id overwrites the earlier entry in place, as an object property does.
        match out.iter_mut().find(|e| e.id == id) {
            Some(e) => *e = VarEntry { id, name, kind },
            None => out.push(VarEntry { id, name, kind }),
        }
    };
    for v in &target.variables {
        push(&v.id, &v.name, VarType::Scalar);
    }
    for l in &target.lists {
        push(&l.id, &l.name, VarType::List);
    }
    for b in &target.broadcasts {
        if target.is_stage && live.is_some_and(|live| !live.contains(b.id.as_str())) {
            continue;
        }
        push(&b.id, &b.name, VarType::Broadcast);
    }
    js_order(&mut out, |e| e.id);
    out
}

/// A block as scratch-vm holds it: a block of the model, or a compressed primitive in input
/// `input` of `parent` (`shadow`: the obscured-shadow slot of a `[3, block, shadow]` input).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// A block of the model.
    Block(BlockIdx),
    /// A primitive written inline in an input.
    Prim {
        /// The block holding the input.
        parent: BlockIdx,
        /// The input's position in the parent's `inputs`.
        input: usize,
        /// Whether it is the obscured shadow (third array element).
        shadow: bool,
    },
}

/// One field as scratch-vm holds it.
#[derive(Debug, Clone, Copy)]
pub struct FieldView<'p> {
    /// The field name.
    pub name: &'p str,
    /// The value.
    pub value: FieldValue<'p>,
    /// The id of the variable, list or message it names.
    pub id: Option<&'p str>,
}

/// A field value: as written in the file, or a name.
#[derive(Debug, Clone, Copy)]
pub enum FieldValue<'p> {
    /// A literal from the file.
    Lit(&'p Literal),
    /// A name (a compressed variable, list or message reference).
    Name(&'p str),
}

impl FieldValue<'_> {
    /// JavaScript truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            FieldValue::Lit(l) => super::jsval::literal_truthy(l),
            FieldValue::Name(s) => !s.is_empty(),
        }
    }

    /// `String(value)`.
    pub fn string(&self) -> String {
        match self {
            FieldValue::Lit(l) => super::jsval::literal_string(l),
            FieldValue::Name(s) => String::from(*s),
        }
    }

    /// `JSON.stringify(value)`.
    pub fn json(&self) -> String {
        match self {
            FieldValue::Lit(l) => super::jsval::literal_json(l),
            FieldValue::Name(s) => super::jsval::json_string(s),
        }
    }

    /// [`Self::string`] appended to `out`.
    pub fn write_string(&self, out: &mut String) {
        match self {
            FieldValue::Lit(l) => super::jsval::write_literal_string(out, l),
            FieldValue::Name(s) => out.push_str(s),
        }
    }

    /// [`Self::json`] appended to `out`.
    pub fn write_json(&self, out: &mut String) {
        match self {
            FieldValue::Lit(l) => super::jsval::write_literal_json(out, l),
            FieldValue::Name(s) => super::jsval::write_json_string(out, s),
        }
    }
}

/// A node's fields in scratch-vm's order ([`TargetBlocks::fields_iter`]); allocates only when
/// a field name is an array index (which JavaScript enumerates first).
#[derive(Debug)]
pub enum FieldIter<'p> {
    /// In file order.
    Plain(core::slice::Iter<'p, Field>),
    /// Reordered.
    Sorted(alloc::vec::IntoIter<FieldView<'p>>),
    /// A primitive's one field (or none).
    One(Option<FieldView<'p>>),
}

impl<'p> Iterator for FieldIter<'p> {
    type Item = FieldView<'p>;

    fn next(&mut self) -> Option<FieldView<'p>> {
        match self {
            FieldIter::Plain(it) => it.next().map(field_view),
            FieldIter::Sorted(it) => it.next(),
            FieldIter::One(f) => f.take(),
        }
    }
}

fn field_view(f: &Field) -> FieldView<'_> {
    FieldView { name: &f.name, value: FieldValue::Lit(&f.value), id: f.id.as_deref() }
}

/// A block's inputs in scratch-vm's order ([`TargetBlocks::inputs_iter`]) with their
/// positions; allocates only when an input name is an array index.
#[derive(Debug)]
pub enum InputIter<'p> {
    /// In file order.
    Plain(core::iter::Enumerate<core::slice::Iter<'p, Input>>),
    /// Reordered.
    Sorted(alloc::vec::IntoIter<(usize, &'p Input)>),
}

impl<'p> Iterator for InputIter<'p> {
    type Item = (usize, &'p Input);

    fn next(&mut self) -> Option<(usize, &'p Input)> {
        match self {
            InputIter::Plain(it) => it.next(),
            InputIter::Sorted(it) => it.next(),
        }
    }
}

/// The blocks of one target seen as scratch-vm's block map.
#[derive(Debug, Clone, Copy)]
pub struct TargetBlocks<'p> {
    /// The model's blocks.
    pub blocks: &'p Blocks,
}

impl<'p> TargetBlocks<'p> {
    /// View `blocks`.
    pub fn new(blocks: &'p Blocks) -> Self {
        TargetBlocks { blocks }
    }

    fn block(&self, i: BlockIdx) -> Option<&'p Block> {
        self.blocks.get(i)
    }

    fn prim(
        &self,
        parent: BlockIdx,
        input: usize,
        shadow: bool,
    ) -> Option<(&'p Input, &'p Primitive)> {
        let inp = self.block(parent)?.inputs.get(input)?;
        let v = if shadow { inp.shadow.as_ref() } else { inp.value.as_ref() };
        match v {
            Some(InputValue::Primitive(p)) => Some((inp, p)),
            _ => None,
        }
    }

    /// The node's opcode (`""` if it does not exist).
    pub fn opcode(&self, n: Node) -> &'p str {
        match n {
            Node::Block(i) => self.block(i).map_or("", |b| b.opcode.as_str()),
            Node::Prim { parent, input, shadow } => {
                self.prim(parent, input, shadow).map_or("", |(_, p)| p.kind().opcode())
            }
        }
    }

    /// Whether the node is an inline literal primitive (`[4, "10"]`, `[9, "#ff0000"]`,
    /// `[10, "hello"]`...): a number, colour or text slot.
    pub fn is_literal(&self, n: Node) -> bool {
        match n {
            Node::Block(_) => false,
            Node::Prim { parent, input, shadow } => {
                matches!(self.prim(parent, input, shadow), Some((_, Primitive::Literal { .. })))
            }
        }
    }

    /// Whether scratch-vm marks the node as a shadow (a primitive in the block slot of a
    /// `[2, ..]` or `[3, ..]` input is a real block).
    pub fn is_shadow(&self, n: Node) -> bool {
        match n {
            Node::Block(i) => self.block(i).is_some_and(|b| b.shadow),
            Node::Prim { parent, input, shadow } => {
                shadow
                    || self
                        .prim(parent, input, shadow)
                        .is_some_and(|(i, _)| i.kind == InputKind::Shadow)
            }
        }
    }

    /// The node's fields, in scratch-vm's order.
    pub fn fields(&self, n: Node) -> Vec<FieldView<'p>> {
        self.fields_iter(n).collect()
    }

    /// The node's fields, in scratch-vm's order, without collecting them.
    pub fn fields_iter(&self, n: Node) -> FieldIter<'p> {
        match n {
            Node::Block(i) => {
                let Some(b) = self.block(i) else { return FieldIter::One(None) };
                if b.fields.iter().all(|f| array_index(&f.name).is_none()) {
                    return FieldIter::Plain(b.fields.iter());
                }
                let mut out: Vec<FieldView<'p>> = b.fields.iter().map(field_view).collect();
                js_order(&mut out, |f| f.name);
                FieldIter::Sorted(out.into_iter())
            }
            Node::Prim { parent, input, shadow } => {
                FieldIter::One(match self.prim(parent, input, shadow) {
                    Some((_, Primitive::Literal { kind, value })) => Some(FieldView {
                        name: kind.field_name(),
                        value: FieldValue::Lit(value),
                        id: None,
                    }),
                    Some((_, Primitive::Reference { kind, name, id })) => Some(FieldView {
                        name: kind.field_name(),
                        value: FieldValue::Name(name),
                        id: Some(id),
                    }),
                    None => None,
                })
            }
        }
    }

    /// The node's inputs in scratch-vm's order (primitives have none).
    pub fn inputs(&self, n: Node) -> Vec<(usize, &'p Input)> {
        self.inputs_iter(n).collect()
    }

    /// The node's inputs in scratch-vm's order, without collecting them.
    pub fn inputs_iter(&self, n: Node) -> InputIter<'p> {
        let b = match n {
            Node::Block(i) => self.block(i),
            Node::Prim { .. } => None,
        };
        let Some(b) = b else { return InputIter::Plain([].iter().enumerate()) };
        if b.inputs.iter().all(|i| array_index(&i.name).is_none()) {
            return InputIter::Plain(b.inputs.iter().enumerate());
        }
        let mut out: Vec<(usize, &'p Input)> = b.inputs.iter().enumerate().collect();
        js_order(&mut out, |(_, i)| i.name.as_str());
        InputIter::Sorted(out.into_iter())
    }

    /// What fills input `n` of `parent` (scratch-vm's `input.block`).
    pub fn input_child(&self, parent: BlockIdx, n: usize) -> Option<Node> {
        let inp = self.block(parent)?.inputs.get(n)?;
        match inp.value.as_ref()? {
            InputValue::Block(b) => Some(Node::Block(*b)),
            InputValue::Primitive(_) => Some(Node::Prim { parent, input: n, shadow: false }),
        }
    }

    /// The obscured shadow of input `n` of `parent` (scratch-vm's `input.shadow` when it
    /// differs from `input.block`).
    pub fn input_shadow(&self, parent: BlockIdx, n: usize) -> Option<Node> {
        let inp = self.block(parent)?.inputs.get(n)?;
        match inp.shadow.as_ref()? {
            InputValue::Block(b) => Some(Node::Block(*b)),
            InputValue::Primitive(_) => Some(Node::Prim { parent, input: n, shadow: true }),
        }
    }

    /// The block in C-slot `name` of `parent`.
    pub fn branch(&self, parent: BlockIdx, name: &str) -> Option<Node> {
        let b = self.block(parent)?;
        let n = b.inputs.iter().position(|i| i.name == name)?;
        self.input_child(parent, n)
    }

    /// The block after `n`.
    pub fn next(&self, n: Node) -> Option<Node> {
        match n {
            Node::Block(i) => self.block(i)?.next.map(Node::Block),
            Node::Prim { .. } => None,
        }
    }

    /// The node's id: its block id, or (for an inline primitive, which scratch-vm gives a
    /// fresh random id) `<parent id>-<input name>`, with `-shadow` for an obscured shadow and a
    /// `~n` suffix when that is taken.
    pub fn id(&self, n: Node) -> String {
        match n {
            Node::Block(i) => self.block(i).map(|b| b.id.clone()).unwrap_or_default(),
            Node::Prim { parent, input, shadow } => {
                let Some(b) = self.block(parent) else { return String::new() };
                let name = b.inputs.get(input).map_or("", |i| i.name.as_str());
                let base = if shadow {
                    alloc::format!("{}-{}-shadow", b.id, name)
                } else {
                    alloc::format!("{}-{}", b.id, name)
                };
                if self.blocks.index_of(&base).is_none() {
                    return base;
                }
                (1u32..)
                    .map(|k| alloc::format!("{base}~{k}"))
                    .find(|id| self.blocks.index_of(id).is_none())
                    .unwrap_or(base)
            }
        }
    }

    /// The mutation's custom-block signature, if any.
    pub fn proccode(&self, n: Node) -> Option<&'p str> {
        match n {
            Node::Block(i) => self.block(i)?.mutation.as_ref()?.proccode.as_deref(),
            Node::Prim { .. } => None,
        }
    }

    /// Top-level blocks in the order scratch-vm runs and lists scripts: JavaScript key order
    /// of the `blocks` object, with compressed top-level primitives last (scratch-vm re-adds
    /// them under fresh ids while loading).
    pub fn scripts(&self) -> Vec<BlockIdx> {
        let mut objects: Vec<(BlockIdx, &str)> = Vec::new();
        let mut prims: Vec<(BlockIdx, &str)> = Vec::new();
        for (i, b) in self.blocks.top_level() {
            match b.form {
                BlockForm::Object => objects.push((i, &b.id)),
                BlockForm::Primitive(_) => prims.push((i, &b.id)),
            }
        }
        js_order(&mut objects, |p| p.1);
        js_order(&mut prims, |p| p.1);
        objects.into_iter().chain(prims).map(|p| p.0).collect()
    }
}

/// The other original sprites' names in runtime order (scratch-gui's `spriteMenu`).
pub fn other_sprites(project: &Project, editing: usize) -> Vec<&str> {
    project
        .targets
        .iter()
        .enumerate()
        .filter(|(i, t)| !t.is_stage && *i != editing)
        .map(|(_, t)| t.name.as_str())
        .collect()
}
