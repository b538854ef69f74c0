//! Block specs ⇄ the model: a [`BlockSpec`] becomes a [`NewBlock`] for the edit API (opcodes
//! checked against the catalog, missing value inputs and fields filled with the editor
//! toolbox's defaults, variable/list/broadcast names resolved to ids); existing blocks become
//! exact specs again (for inverses).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{
    BlockIdx, Blocks, Field, InputValue, Mutation, Primitive, PrimitiveKind,
};
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
    /// the block and, as a flat list, the blocks after it (a loop, not a recursion).
    pub(crate) fn new_block(&self, spec: &BlockSpec, at: &Pointer) -> Res<NewBlock> {
        let mut b = self.new_node(spec, at)?;
        let chain = flat_chain(&spec.next, |n| &n.next);
        b.next.reserve_exact(chain.len());
        for (k, n) in chain.into_iter().enumerate() {
            b.next.push(self.new_node(n, &at.clone().key("next").index(k))?);
        }
        Ok(b)
    }

    /// One block of a spec with its inputs, without the blocks after it.
    fn new_node(&self, spec: &BlockSpec, at: &Pointer) -> Res<NewBlock> {
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
        for (name, input) in &spec.inputs {
            let ip = at.clone().key("inputs").key(name);
            b.inputs.push(self.input(spec, name, input, &ip)?);
        }
        if !exact {
            if let Some(info) = info {
                for f in info.fields {
                    if spec.fields.iter().all(|(n, _)| n != f.name) {
                        if let Some(field) = self.default_field(
                            &spec.opcode,
                            f.name,
                            f.default,
                            &at.clone().key("fields"),
                        )? {
                            b.fields.push(field);
                        }
                    }
                }
                for i in info.inputs {
                    let Slot::Value { shadow, default } = i.slot else { continue };
                    if spec.inputs.iter().any(|(n, _)| n == i.name) {
                        continue;
                    }
                    let ip = at.clone().key("inputs").key(i.name);
                    b.inputs.push(NewInput {
                        name: i.name.into(),
                        value: None,
                        shadow: self.default_shadow(shadow, default, &ip)?,
                    });
                }
            }
        }
        Ok(b)
    }

    fn input(
        &self,
        parent: &BlockSpec,
        name: &str,
        input: &InputSpec,
        at: &Pointer,
    ) -> Res<NewInput> {
        let child = |c: &Option<Child>, p: Pointer| -> Res<Option<NewChild>> {
            Ok(match c {
                None => None,
                Some(Child::Primitive(prim)) => Some(NewChild::Primitive(prim.clone())),
                Some(Child::Block(b)) => Some(NewChild::Block(self.new_block(b, &p)?)),
            })
        };
        match input {
            InputSpec::Exact { kind, value, shadow } => {
                let value = child(value, at.clone().index(1))?;
                let shadow = child(shadow, at.clone().index(2))?;
                // `[1, s]` has its shadow in the value position; `[3, v, s]` has both.
                Ok(match kind {
                    super::super::blocks::InputKind::Shadow if shadow.is_none() => {
                        NewInput { name: name.into(), value: None, shadow: value }
                    }
                    _ => NewInput { name: name.into(), value, shadow },
                })
            }
            InputSpec::Literal(l) => match self.slot_of(parent, name) {
                Some(Slot::Value { shadow, .. }) => Ok(NewInput {
                    name: name.into(),
                    value: None,
                    shadow: Some(self.shadow_with(shadow, l, at)?),
                }),
                Some(_) => Err(self.err(
                    ErrorCode::BadLink,
                    at,
                    format!("input {name:?} takes a block, not a literal"),
                )),
                None => Err(self.err(
                    ErrorCode::UnknownPath,
                    at,
                    format!("{} has no input {name:?}", parent.opcode),
                )),
            },
            InputSpec::Block(spec) => {
                let slot = self.slot_of(parent, name);
                if slot.is_none() {
                    return Err(self.err(
                        ErrorCode::UnknownPath,
                        at,
                        format!("{} has no input {name:?}", parent.opcode),
                    ));
                }
                let block = self.new_block(spec, at)?;
                if spec.shadow {
                    return Ok(NewInput {
                        name: name.into(),
                        value: None,
                        shadow: Some(NewChild::Block(block)),
                    });
                }
                check_fits(&self.project.targets[self.t].blocks, spec, slot, at)
                    .map_err(|m| self.err(ErrorCode::BadLink, at, m))?;
                let shadow = match slot {
                    Some(Slot::Value { shadow, default }) => {
                        self.default_shadow(shadow, default, at)?
                    }
                    _ => None,
                };
                Ok(NewInput { name: name.into(), value: Some(NewChild::Block(block)), shadow })
            }
        }
    }
}

/// Whether a block of `spec`'s shape fits a slot (by the catalog; unknown opcodes fit).
fn check_fits(
    _blocks: &Blocks,
    spec: &BlockSpec,
    slot: Option<Slot>,
    _at: &Pointer,
) -> Result<(), String> {
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

/// An existing block (with its inputs, and with `with_next` the blocks after it) as an exact
/// spec with ids and file positions, so that adding it back recreates the same records.
pub(crate) fn exact_spec(blocks: &Blocks, idx: BlockIdx, with_next: bool) -> Option<BlockSpec> {
    let mut spec = exact_node(blocks, idx)?;
    if with_next {
        let mut cur = blocks.get(idx)?.next;
        while let Some(n) = cur {
            let Some(node) = exact_node(blocks, n) else { break };
            spec.next.push(node);
            cur = blocks.get(n).and_then(|b| b.next);
        }
    }
    Some(spec)
}

/// One existing block with its inputs (their chains included), without the blocks after it.
fn exact_node(blocks: &Blocks, idx: BlockIdx) -> Option<BlockSpec> {
    let b = blocks.get(idx)?;
    let mut spec = BlockSpec {
        id: Some(b.id.clone()),
        opcode: b.opcode.clone(),
        shadow: b.shadow,
        fields: Vec::new(),
        inputs: Vec::new(),
        mutation: b.mutation.as_ref().map(|m| m.raw.clone()),
        next: Vec::new(),
        at: Some(idx.get()),
    };
    for f in &b.fields {
        let id = if f.has_id_slot || f.id.is_some() { Some(f.id.clone()) } else { None };
        spec.fields.push((f.name.clone(), FieldSpec::Exact(f.value.clone(), id)));
    }
    for i in &b.inputs {
        let child = |v: &Option<InputValue>| -> Option<Child> {
            match v {
                None => None,
                Some(InputValue::Primitive(p)) => Some(Child::Primitive(p.clone())),
                Some(InputValue::Block(c)) => exact_spec(blocks, *c, true).map(Child::Block),
            }
        };
        spec.inputs.push((
            i.name.clone(),
            InputSpec::Exact { kind: i.kind, value: child(&i.value), shadow: child(&i.shadow) },
        ));
    }
    Some(spec)
}
