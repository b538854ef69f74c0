//! Block specs → the model: a [`BlockSpec`] becomes a [`NewBlock`] for the edit API (opcodes
//! checked against the catalog, missing value inputs and fields filled with the editor
//! toolbox's defaults, variable/list/broadcast names resolved to ids). Existing blocks
//! become exact specs again in `exact.rs`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{Field, InputKind, Mutation, Primitive, PrimitiveKind};
use super::super::edit::{flat_chain, DeclKind, NewBlock, NewChild, NewInput};
use super::super::model::{Literal, Project, Target};
use super::super::validate::Pointer;
use super::error::{ErrorCode, PatchError};
use super::model::{BlockSpec, Child, FieldSpec, InputSpec};
use crate::scratch::catalog::{self, Slot};

type Res<T> = Result<T, PatchError>;

/// Where a spec is being built: the project, the target and the edit (for errors).
pub(crate) struct Scope<'a> {
    pub(crate) project: &'a Project,
    pub(crate) t: usize,
    pub(crate) edit: usize,
}

fn lit_text(l: &Literal) -> String {
    match l {
        Literal::Text(s) => s.clone(),
        Literal::Number(n) => match n {
            super::super::json::Num::Int(i) => format!("{i}"),
            super::super::json::Num::Float(f) => format!("{f}"),
        },
        Literal::Bool(b) => format!("{b}"),
        Literal::Null => String::new(),
    }
}

/// The compressed primitive kind of a literal shadow opcode.
fn primitive_kind(shadow: &str) -> Option<PrimitiveKind> {
    Some(match shadow {
        "math_number" => PrimitiveKind::Number,
        "math_positive_number" => PrimitiveKind::PositiveNumber,
        "math_whole_number" => PrimitiveKind::WholeNumber,
        "math_integer" => PrimitiveKind::Integer,
        "math_angle" => PrimitiveKind::Angle,
        "colour_picker" => PrimitiveKind::Color,
        "text" => PrimitiveKind::Text,
        _ => return None,
    })
}

fn decl_kind_of_field(name: &str) -> Option<DeclKind> {
    match name {
        "VARIABLE" => Some(DeclKind::Variable),
        "LIST" => Some(DeclKind::List),
        "BROADCAST_OPTION" => Some(DeclKind::Broadcast),
        _ => None,
    }
}

impl Scope<'_> {
    fn target(&self) -> Option<&Target> {
        self.project.targets.get(self.t)
    }

    fn err(&self, code: ErrorCode, at: &Pointer, message: String) -> PatchError {
        PatchError::new(code, Some(self.edit), at.clone().into_string(), message)
    }

    /// The id of the declaration of `kind` named `name` visible from the target: its own
    /// first, then the stage's (broadcasts: the stage's, exact name first, then ignoring case).
    pub(crate) fn resolve(&self, kind: DeclKind, name: &str, at: &Pointer) -> Res<String> {
        let stage = self.project.stage_index();
        let scopes: Vec<usize> = match kind {
            DeclKind::Broadcast => alloc::vec![stage],
            _ if self.t == stage => alloc::vec![stage],
            _ => alloc::vec![self.t, stage],
        };
        for s in scopes {
            let ids: Vec<(&str, &str)> = super::super::edit::decls(self.project, s, kind);
            let mut hits: Vec<&str> =
                ids.iter().filter(|(_, n)| *n == name).map(|(i, _)| *i).collect();
            if hits.is_empty() && kind == DeclKind::Broadcast {
                let lower = name.to_lowercase();
                hits = ids
                    .iter()
                    .filter(|(_, n)| n.to_lowercase() == lower)
                    .map(|(i, _)| *i)
                    .collect();
            }
            match hits.as_slice() {
                [] => continue,
                [one] => return Ok(String::from(*one)),
                _ => {
                    return Err(self.err(
                        ErrorCode::AmbiguousReference,
                        at,
                        format!("{} {name:?} names {} declarations", kind.name(), hits.len()),
                    ));
                }
            }
        }
        Err(self.err(
            ErrorCode::UnresolvedReference,
            at,
            format!("no {} named {name:?} is visible here", kind.name()),
        ))
    }

    /// Whether declaration `id` of `kind` is visible from the target.
    fn visible(&self, kind: DeclKind, id: &str) -> bool {
        let stage = self.project.stage_index();
        [self.t, stage].iter().any(|s| {
            super::super::edit::decls(self.project, *s, kind).iter().any(|(i, _)| *i == id)
        })
    }

    /// A field of a new block.
    pub(crate) fn field(&self, name: &str, f: &FieldSpec, at: &Pointer) -> Res<Field> {
        match f {
            FieldSpec::Exact(value, id) => {
                if let (Some(kind), Some(Some(id))) = (decl_kind_of_field(name), id) {
                    if !self.visible(kind, id) {
                        return Err(self.err(
                            ErrorCode::UnresolvedReference,
                            at,
                            format!("no {} with id {id:?} is visible here", kind.name()),
                        ));
                    }
                }
                Ok(Field {
                    name: name.into(),
                    value: value.clone(),
                    id: id.clone().flatten(),
                    has_id_slot: id.is_some(),
                })
            }
            FieldSpec::Value(value) => match decl_kind_of_field(name) {
                Some(kind) => {
                    let text = lit_text(value);
                    let id = self.resolve(kind, &text, at)?;
                    Ok(Field {
                        name: name.into(),
                        value: Literal::Text(text),
                        id: Some(id),
                        has_id_slot: true,
                    })
                }
                None => Ok(Field {
                    name: name.into(),
                    value: value.clone(),
                    id: None,
                    has_id_slot: true,
                }),
            },
        }
    }

    /// The default value of a field the spec leaves out (`None`: none can be chosen).
    fn default_field(
        &self,
        opcode: &str,
        name: &str,
        default: &str,
        at: &Pointer,
    ) -> Res<Option<Field>> {
        if let Some(kind) = decl_kind_of_field(name) {
            let what = kind.name();
            return Err(self.err(
                ErrorCode::UnresolvedReference,
                at,
                format!("{opcode} needs its {what} field {name}"),
            ));
        }
        let value = if !default.is_empty() {
            String::from(default)
        } else {
            match self.project_default(opcode, name) {
                Some(v) => v,
                None => return Ok(None),
            }
        };
        Ok(Some(Field {
            name: name.into(),
            value: Literal::Text(value),
            id: None,
            has_id_slot: true,
        }))
    }

    /// Menu defaults that depend on the project, as the editor's toolbox chooses them: the
    /// target's last costume and sound, the stage's last backdrop, the first broadcast.
    fn project_default(&self, opcode: &str, field: &str) -> Option<String> {
        let target = self.target()?;
        let stage = self.project.stage();
        match (opcode, field) {
            ("looks_costume", _) => target.costumes.last().map(|c| c.name.clone()),
            ("looks_backdrops", _) => stage.and_then(|s| s.costumes.last()).map(|c| c.name.clone()),
            ("event_whenbackdropswitchesto", _) => {
                stage.and_then(|s| s.costumes.first()).map(|c| c.name.clone())
            }
            ("sound_sounds_menu", _) => target.sounds.last().map(|s| s.name.clone()),
            _ => None,
        }
    }

    /// A shadow of opcode `shadow` holding `value` (a compressed primitive when Scratch writes
    /// one, else a shadow block with the menu's field).
    fn shadow_with(&self, shadow: &str, value: &Literal, at: &Pointer) -> Res<NewChild> {
        if let Some(kind) = primitive_kind(shadow) {
            return Ok(NewChild::Primitive(Primitive::Literal { kind, value: value.clone() }));
        }
        if shadow == "event_broadcast_menu" {
            let name = lit_text(value);
            let id = self.resolve(DeclKind::Broadcast, &name, at)?;
            return Ok(NewChild::Primitive(Primitive::Reference {
                kind: PrimitiveKind::Broadcast,
                name,
                id,
            }));
        }
        let mut b = NewBlock::new(shadow);
        b.shadow = true;
        if let Some(f) = catalog::lookup(shadow).and_then(|i| i.fields.first()) {
            b.fields.push(Field {
                name: f.name.into(),
                value: value.clone(),
                id: None,
                has_id_slot: true,
            });
        }
        Ok(NewChild::Block(b))
    }

    /// The default shadow of a value input: the toolbox's literal, or the menu's default.
    fn default_shadow(&self, shadow: &str, default: &str, at: &Pointer) -> Res<Option<NewChild>> {
        if primitive_kind(shadow).is_some() {
            return self.shadow_with(shadow, &Literal::Text(default.into()), at).map(Some);
        }
        if shadow == "event_broadcast_menu" {
            let stage = self.project.stage();
            let Some(first) = stage.and_then(|s| s.broadcasts.first()) else {
                return Err(self.err(
                    ErrorCode::UnresolvedReference,
                    at,
                    "a broadcast menu needs a broadcast message: give its name".into(),
                ));
            };
            let p = Primitive::Reference {
                kind: PrimitiveKind::Broadcast,
                name: first.name.clone(),
                id: first.id.clone(),
            };
            return Ok(Some(NewChild::Primitive(p)));
        }
        let info = catalog::lookup(shadow);
        let field = info.and_then(|i| i.fields.first());
        let value = match field {
            Some(f) if !f.default.is_empty() => Some(String::from(f.default)),
            Some(f) => self.project_default(shadow, f.name),
            None => None,
        };
        let mut b = NewBlock::new(shadow);
        b.shadow = true;
        if let (Some(f), Some(v)) = (field, value) {
            b.fields.push(Field {
                name: f.name.into(),
                value: Literal::Text(v),
                id: None,
                has_id_slot: true,
            });
        }
        Ok(Some(NewChild::Block(b)))
    }

    /// The slot a (non-exact) input of `spec` takes: from the catalog, or from a
    /// `procedures_call`'s proccode.
    fn slot_of(&self, spec: &BlockSpec, name: &str) -> Option<Slot> {
        if let Some(i) = catalog::lookup(&spec.opcode).and_then(|b| b.input(name)) {
            return Some(i.slot);
        }
        if spec.opcode != "procedures_call" {
            return None;
        }
        let m = Mutation::from_raw(spec.mutation.clone()?).ok()?;
        let pos = m.argument_ids?.iter().position(|i| i == name)?;
        let code = m.proccode?;
        let kinds: Vec<u8> = code
            .as_bytes()
            .windows(2)
            .filter(|w| w[0] == b'%' && matches!(w[1], b's' | b'n' | b'b'))
            .map(|w| w[1])
            .collect();
        Some(match kinds.get(pos)? {
            b'b' => Slot::Boolean,
            b'n' => Slot::Value { shadow: "math_number", default: "1" },
            _ => Slot::Value { shadow: "text", default: "" },
        })
    }

    /// Converts a spec into a block tree for [`Blocks::create`](super::super::Blocks::create):
    /// the block and, as a flat list, the blocks after it. The walk keeps its own stack on
    /// the heap (one [`Frame`] per spec being converted), so a spec nested
    /// [`MAX_NESTING`](super::super::MAX_NESTING) deep costs the thread's stack nothing;
    /// errors come in the order a depth-first walk meets them (a block's own checks, then
    /// its inputs in order with the blocks in them, then its defaults, then the blocks
    /// after it).
    pub(crate) fn new_block<'s>(&self, spec: &'s BlockSpec, at: &Pointer) -> Res<NewBlock> {
        let mut cur = self.frame(spec, at.clone(), true)?;
        let mut parents: Vec<Frame<'s>> = Vec::new();
        loop {
            match self.step(&mut cur)? {
                Step::Need(child, at, head) => {
                    let f = self.frame(child, at, head)?;
                    parents.push(core::mem::replace(&mut cur, f));
                }
                Step::Done(block) => match parents.pop() {
                    None => return Ok(block),
                    Some(p) => {
                        cur = p;
                        cur.deliver(block);
                    }
                },
            }
        }
    }

    /// The frame of one spec: its own checks, mutation and fields (`head`: the spec a
    /// `new_block` walk starts from, whose `next` blocks the frame converts last).
    fn frame<'s>(&self, spec: &'s BlockSpec, at: Pointer, head: bool) -> Res<Frame<'s>> {
        let info = catalog::lookup(&spec.opcode);
        let exact = spec.inputs.iter().any(|(_, i)| matches!(i, InputSpec::Exact { .. }))
            || spec.fields.iter().any(|(_, f)| matches!(f, FieldSpec::Exact(..)));
        if info.is_none() && !(exact || spec.inputs.is_empty() && spec.fields.is_empty()) {
            let msg = format!(
                "unknown opcode {:?} (give every input and field exactly to add it anyway)",
                spec.opcode
            );
            return Err(self.err(ErrorCode::UnknownOpcode, &at.clone().key("opcode"), msg));
        }
        if info.is_none()
            && !exact
            && spec.inputs.is_empty()
            && spec.fields.is_empty()
            && spec.mutation.is_none()
        {
            let msg = format!("unknown opcode {:?}", spec.opcode);
            return Err(self.err(ErrorCode::UnknownOpcode, &at.clone().key("opcode"), msg));
        }
        let mut b = NewBlock::new(&spec.opcode);
        b.id = spec.id.clone();
        b.shadow = spec.shadow;
        b.at = spec.at;
        if let Some(raw) = &spec.mutation {
            b.mutation = Some(Mutation::from_raw(raw.clone()).map_err(|e| {
                self.err(ErrorCode::Schema, &at.clone().key("mutation"), format!("{e}"))
            })?);
        }
        for (name, f) in &spec.fields {
            let fp = at.clone().key("fields").key(name);
            if !exact && info.is_some_and(|i| i.field(name).is_none()) {
                return Err(self.err(
                    ErrorCode::UnknownPath,
                    &fp,
                    format!("{} has no field {name:?}", spec.opcode),
                ));
            }
            b.fields.push(self.field(name, f, &fp)?);
        }
        let chain = if head { Some(Vec::new()) } else { None };
        Ok(Frame { spec, at, info, exact, block: b, input: 0, part: None, chain, defaults: false })
    }

    /// Converts what needs no other spec, up to the next spec needed or the end.
    fn step<'s>(&self, f: &mut Frame<'s>) -> Res<Step<'s>> {
        loop {
            if let Some(part) = &mut f.part {
                match part.todo.pop() {
                    Some(Want::Ready(c)) => part.got.push(c),
                    Some(Want::Build(s, p)) => return Ok(Step::Need(s, p, true)),
                    None => {
                        if let Some(part) = f.part.take() {
                            f.block.inputs.push(self.finish_input(part)?);
                        }
                    }
                }
                continue;
            }
            if let Some((name, input)) = f.spec.inputs.get(f.input) {
                f.input += 1;
                let ip = f.at.clone().key("inputs").key(name);
                match self.begin_input(f.spec, name, input, ip)? {
                    Begun::Done(i) => f.block.inputs.push(i),
                    Begun::Part(p) => f.part = Some(p),
                }
                continue;
            }
            if !f.defaults {
                f.defaults = true;
                self.defaults(f)?;
            }
            let Some(chain) = &mut f.chain else { break };
            if chain.is_empty() && !f.spec.next.is_empty() {
                *chain = flat_chain(&f.spec.next, |n| &n.next);
                f.block.next.reserve_exact(chain.len());
            }
            let k = f.block.next.len();
            if let Some(n) = chain.get(k) {
                return Ok(Step::Need(n, f.at.clone().key("next").index(k), false));
            }
            break;
        }
        Ok(Step::Done(core::mem::take(&mut f.block)))
    }

    /// The fields and value inputs a (non-exact) spec leaves out, with the toolbox's
    /// defaults.
    fn defaults(&self, f: &mut Frame<'_>) -> Res<()> {
        let (spec, at) = (f.spec, &f.at);
        let Some(info) = f.info.filter(|_| !f.exact) else { return Ok(()) };
        for field in info.fields {
            if spec.fields.iter().all(|(n, _)| n != field.name) {
                if let Some(field) = self.default_field(
                    &spec.opcode,
                    field.name,
                    field.default,
                    &at.clone().key("fields"),
                )? {
                    f.block.fields.push(field);
                }
            }
        }
        for i in info.inputs {
            let Slot::Value { shadow, default } = i.slot else { continue };
            if spec.inputs.iter().any(|(n, _)| n == i.name) {
                continue;
            }
            let ip = at.clone().key("inputs").key(i.name);
            f.block.inputs.push(NewInput {
                name: i.name.into(),
                value: None,
                shadow: self.default_shadow(shadow, default, &ip)?,
            });
        }
        Ok(())
    }

    /// Starts input `name` of `parent`: done at once, or waiting for the specs in it.
    fn begin_input<'s>(
        &self,
        parent: &BlockSpec,
        name: &'s str,
        input: &'s InputSpec,
        at: Pointer,
    ) -> Res<Begun<'s>> {
        let want = |c: &'s Option<Child>, p: Pointer| match c {
            None => Want::Ready(None),
            Some(Child::Primitive(prim)) => Want::Ready(Some(NewChild::Primitive(prim.clone()))),
            Some(Child::Block(b)) => Want::Build(b, p),
        };
        let (kind, todo) = match input {
            InputSpec::Exact { kind, value, shadow } => {
                // Popped from the end: the value first, then the shadow.
                let todo = alloc::vec![
                    want(shadow, at.clone().index(2)),
                    want(value, at.clone().index(1))
                ];
                (PartKind::Exact(*kind), todo)
            }
            InputSpec::Literal(l) => {
                return match self.slot_of(parent, name) {
                    Some(Slot::Value { shadow, .. }) => Ok(Begun::Done(NewInput {
                        name: name.into(),
                        value: None,
                        shadow: Some(self.shadow_with(shadow, l, &at)?),
                    })),
                    Some(_) => Err(self.err(
                        ErrorCode::BadLink,
                        &at,
                        format!("input {name:?} takes a block, not a literal"),
                    )),
                    None => Err(self.err(
                        ErrorCode::UnknownPath,
                        &at,
                        format!("{} has no input {name:?}", parent.opcode),
                    )),
                };
            }
            InputSpec::Block(spec) => {
                let slot = self.slot_of(parent, name);
                if slot.is_none() {
                    return Err(self.err(
                        ErrorCode::UnknownPath,
                        &at,
                        format!("{} has no input {name:?}", parent.opcode),
                    ));
                }
                (PartKind::Block { spec, slot }, alloc::vec![Want::Build(spec, at.clone())])
            }
        };
        Ok(Begun::Part(Part { name, at, kind, todo, got: Vec::with_capacity(2) }))
    }

    /// Finishes an input once the specs in it are converted.
    fn finish_input(&self, part: Part<'_>) -> Res<NewInput> {
        let Part { name, at, kind, got, .. } = part;
        let mut got = got.into_iter();
        let value = got.next().flatten();
        match kind {
            PartKind::Exact(kind) => {
                let shadow = got.next().flatten();
                // `[1, s]` has its shadow in the value position; `[3, v, s]` has both.
                Ok(match kind {
                    InputKind::Shadow if shadow.is_none() => {
                        NewInput { name: name.into(), value: None, shadow: value }
                    }
                    _ => NewInput { name: name.into(), value, shadow },
                })
            }
            PartKind::Block { spec, slot } => {
                if spec.shadow {
                    return Ok(NewInput { name: name.into(), value: None, shadow: value });
                }
                check_fits(spec, slot).map_err(|m| self.err(ErrorCode::BadLink, &at, m))?;
                let shadow = match slot {
                    Some(Slot::Value { shadow, default }) => {
                        self.default_shadow(shadow, default, &at)?
                    }
                    _ => None,
                };
                Ok(NewInput { name: name.into(), value, shadow })
            }
        }
    }
}

/// What a [`Frame`] needs next.
// Returned once per step and consumed at once (as with `NewChild`).
#[allow(clippy::large_enum_variant)]
enum Step<'s> {
    /// This spec converted, at this pointer (`true`: for an input, with the blocks after
    /// it; `false`: the next block of the frame's chain, alone).
    Need(&'s BlockSpec, Pointer, bool),
    /// The converted block.
    Done(NewBlock),
}

/// One spec being converted: its block so far, the input being built, the chain after it.
struct Frame<'s> {
    spec: &'s BlockSpec,
    at: Pointer,
    info: Option<&'static catalog::BlockInfo>,
    /// Whether some input or field is exact (then no defaults are added).
    exact: bool,
    block: NewBlock,
    /// The next input of `spec` to start.
    input: usize,
    /// The input waiting for the specs in it.
    part: Option<Part<'s>>,
    /// For the spec a walk starts from: the blocks after it (flattened once its defaults
    /// are in), converted into `block.next` one by one.
    chain: Option<Vec<&'s BlockSpec>>,
    /// Whether the defaults are in.
    defaults: bool,
}

impl Frame<'_> {
    /// Takes the converted block the frame asked for.
    fn deliver(&mut self, block: NewBlock) {
        match &mut self.part {
            Some(part) => part.got.push(Some(NewChild::Block(block))),
            None => self.block.next.push(block),
        }
    }
}

/// An input waiting for the specs in it.
struct Part<'s> {
    name: &'s str,
    at: Pointer,
    kind: PartKind<'s>,
    /// What fills it, last first.
    todo: Vec<Want<'s>>,
    /// What is converted, in order.
    got: Vec<Option<NewChild>>,
}

enum PartKind<'s> {
    /// `[kind, value, shadow]`.
    Exact(InputKind),
    /// A block (with the catalog's default shadow under it unless it is a shadow itself).
    Block { spec: &'s BlockSpec, slot: Option<Slot> },
}

/// One thing filling an input.
// Held for one input while it is built: boxing the ready child would cost an allocation for
// no saving.
#[allow(clippy::large_enum_variant)]
enum Want<'s> {
    /// Nothing to convert.
    Ready(Option<NewChild>),
    /// A spec to convert (with the blocks after it).
    Build(&'s BlockSpec, Pointer),
}

/// An input started.
// Returned once per input and consumed at once (as with `NewChild`).
#[allow(clippy::large_enum_variant)]
enum Begun<'s> {
    Done(NewInput),
    Part(Part<'s>),
}

/// Whether a block of `spec`'s shape fits a slot (by the catalog; unknown opcodes fit).
fn check_fits(spec: &BlockSpec, slot: Option<Slot>) -> Result<(), String> {
    let Some(info) = catalog::lookup(&spec.opcode) else { return Ok(()) };
    match slot {
        Some(Slot::Statement) if !info.has_previous() => {
            Err(format!("{} is not a stack block: it cannot go in a C-slot", spec.opcode))
        }
        Some(Slot::Value { .. } | Slot::Boolean) if !info.has_output() => {
            Err(format!("{} reports nothing: it cannot fill a value input", spec.opcode))
        }
        _ => Ok(()),
    }
}
