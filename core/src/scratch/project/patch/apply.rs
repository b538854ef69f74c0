//! Applying one block edit to a project through the edit API, with the shape checks that make
//! a link `BAD_LINK` (what may follow what, reporters in value inputs, stacks in C-slots,
//! C-blocks around runs) and every edit-API error mapped to a patch error code.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{BlockIdx, Blocks, InputValue, Primitive, PrimitiveKind};
use super::super::edit::{Decl, DeclKind, EditError, IdGen, NewChild, Owner, ShadowPolicy};
use super::super::error::Path;
use super::super::json::Json;
use super::super::model::{List, Literal, Project, Variable};
use super::super::nesting::MAX_NESTING;
use super::super::validate::Pointer;
use super::build::Scope;
use super::error::{ErrorCode, PatchError};
use super::model::{
    BlockEdit, DeclPath, DeclRef, DeclSpec, EditKind, FieldSpec, Link, ModPath, TargetRef,
};
use super::parse::{block_spec_json, primitive_json};
use crate::scratch::catalog::{self, Slot};

type Res<T> = Result<T, PatchError>;

/// The index of the target an edit names.
pub(crate) fn target_index(project: &Project, t: &TargetRef, edit: usize) -> Res<usize> {
    let found = match t {
        TargetRef::Index(i) => (*i < project.targets.len()).then_some(*i),
        TargetRef::Name(n) if n == "_stage_" => Some(project.stage_index()),
        TargetRef::Name(n) => {
            let sprite = project.targets.iter().position(|x| !x.is_stage && x.name == *n);
            sprite.or_else(|| (n == "Stage").then(|| project.stage_index()))
        }
    };
    found.ok_or_else(|| {
        let name = match t {
            TargetRef::Index(i) => format!("#{i}"),
            TargetRef::Name(n) => n.clone(),
        };
        let p = Pointer::root().index(edit).key("sprite_id").into_string();
        PatchError::new(ErrorCode::UnknownTarget, Some(edit), p, format!("no target {name:?}"))
    })
}

/// Maps an edit-API error to a patch error at `at`.
fn api(edit: usize, at: &Pointer, e: EditError) -> PatchError {
    let code = match &e {
        EditError::UnknownBlock { .. } => ErrorCode::UnknownBlock,
        EditError::DuplicateId { .. } => ErrorCode::DuplicateId,
        EditError::Cycle { .. } => ErrorCode::Cycle,
        EditError::NotRoot { .. } | EditError::BadLink { .. } | EditError::Occupied { .. } => {
            ErrorCode::BadLink
        }
        EditError::UnknownInput { .. }
        | EditError::NoShadow { .. }
        | EditError::UnknownField { .. } => ErrorCode::UnknownPath,
        EditError::BadMutation { .. } => ErrorCode::Schema,
        EditError::UnknownDecl { .. } => ErrorCode::UnresolvedReference,
        EditError::NameTaken { .. } => ErrorCode::NameTaken,
        EditError::InUse { .. } => ErrorCode::InUse,
        EditError::TooDeep { .. } => ErrorCode::TooDeep,
        _ => ErrorCode::Budget,
    };
    PatchError::new(code, Some(edit), at.clone().into_string(), format!("{e}"))
}

/// One edit's context.
struct Cx<'p> {
    edit: usize,
    t: usize,
    project: &'p mut Project,
}

impl Cx<'_> {
    fn at(&self) -> Pointer {
        Pointer::root().index(self.edit)
    }

    fn err(&self, code: ErrorCode, at: Pointer, msg: String) -> PatchError {
        PatchError::new(code, Some(self.edit), at.into_string(), msg)
    }

    fn blocks(&mut self) -> &mut Blocks {
        &mut self.project.targets[self.t].blocks
    }

    fn find(&self, id: &str, at: Pointer) -> Res<BlockIdx> {
        let target = &self.project.targets[self.t];
        target.blocks.index_of(id).ok_or_else(|| {
            self.err(ErrorCode::UnknownBlock, at, format!("no block {id:?} in {:?}", target.name))
        })
    }
}

/// Applies one edit (no validation); returns the id of the block an `add` created.
pub(crate) fn apply_one(
    project: &mut Project,
    e: &BlockEdit,
    edit: usize,
    ids: &mut IdGen,
) -> Res<Option<String>> {
    let t = target_index(project, &e.target, edit)?;
    let mut cx = Cx { edit, t, project };
    match &e.kind {
        EditKind::Remove { block, mode } => {
            let idx = cx.find(block, cx.at().key("block_id"))?;
            let at = cx.at();
            cx.blocks().delete(idx, *mode).map_err(|e| api(edit, &at, e))?;
            Ok(None)
        }
        EditKind::Add { block, link } => add(&mut cx, block, link, ids).map(Some),
        EditKind::Modify { block, path, value } => {
            modify(&mut cx, block, path, value, ids).map(|()| None)
        }
        EditKind::Records { records, order } => {
            super::raw::apply_records(cx.project, t, edit, records, order.as_deref()).map(|()| None)
        }
        EditKind::AddDecl(spec) => add_decl(&mut cx, spec, ids).map(Some),
        EditKind::RemoveDecl { kind, which } => {
            let (owner, id) = find_decl(&cx, *kind, which)?;
            let at = cx.at();
            cx.project.remove_decl(owner, *kind, &id).map_err(|e| api(edit, &at, e))?;
            Ok(None)
        }
        EditKind::ModifyDecl { kind, which, path, value } => {
            let (owner, id) = find_decl(&cx, *kind, which)?;
            let at = cx.at().key("value");
            match path {
                DeclPath::Name => {
                    let Json::String(name) = value else {
                        return Err(cx.err(ErrorCode::Schema, at, "a name is a string".into()));
                    };
                    cx.project
                        .rename_decl(owner, *kind, &id, name)
                        .map_err(|e| api(edit, &at, e))?;
                }
                DeclPath::Value => set_decl_value(&mut cx, owner, *kind, &id, value.clone())?,
            }
            Ok(None)
        }
    }
}

/// `(target holding it, id)` of a declaration named in target `cx.t` (broadcasts: the stage).
fn find_decl(cx: &Cx<'_>, kind: DeclKind, which: &DeclRef) -> Res<(usize, String)> {
    let owner = if kind == DeclKind::Broadcast { cx.project.stage_index() } else { cx.t };
    let list = super::super::edit::decls(cx.project, owner, kind);
    let hit = match which {
        DeclRef::Id(id) => list.iter().find(|(i, _)| i == id),
        DeclRef::Name(n) => list.iter().find(|(_, name)| name == n),
    };
    match hit {
        Some((id, _)) => Ok((owner, String::from(*id))),
        None => {
            let what = match which {
                DeclRef::Id(i) => format!("id {i:?}"),
                DeclRef::Name(n) => format!("name {n:?}"),
            };
            let at = cx.at().key(match kind {
                DeclKind::Variable => "variable",
                DeclKind::List => "list",
                DeclKind::Broadcast => "broadcast",
            });
            Err(cx.err(
                ErrorCode::UnresolvedReference,
                at,
                format!("no {} with {what} here", kind.name()),
            ))
        }
    }
}

fn literal_of(v: &Json) -> Option<Literal> {
    Some(match v {
        Json::Number(n) => Literal::Number(*n),
        Json::String(s) => Literal::Text(s.clone()),
        Json::Bool(b) => Literal::Bool(*b),
        Json::Null => Literal::Null,
        _ => return None,
    })
}

fn list_items(v: &Json) -> Option<Vec<Literal>> {
    match v {
        Json::Array(items) => items.iter().map(literal_of).collect(),
        _ => None,
    }
}

fn set_decl_value(cx: &mut Cx<'_>, owner: usize, kind: DeclKind, id: &str, value: Json) -> Res<()> {
    let at = cx.at().key("value");
    let target = &mut cx.project.targets[owner];
    match kind {
        DeclKind::Variable => {
            let lit = literal_of(&value).ok_or_else(|| {
                PatchError::new(
                    ErrorCode::Schema,
                    Some(cx.edit),
                    at.clone().into_string(),
                    "a variable value is a number or a string".into(),
                )
            })?;
            if let Some(v) = target.variables.iter_mut().find(|v| v.id == id) {
                v.value = lit;
            }
        }
        DeclKind::List => {
            let items = list_items(&value).ok_or_else(|| {
                PatchError::new(
                    ErrorCode::Schema,
                    Some(cx.edit),
                    at.clone().into_string(),
                    "list items are an array of numbers and strings".into(),
                )
            })?;
            if let Some(l) = target.lists.iter_mut().find(|l| l.id == id) {
                l.items = items;
            }
        }
        DeclKind::Broadcast => {}
    }
    Ok(())
}

fn add_decl(cx: &mut Cx<'_>, spec: &DeclSpec, ids: &mut IdGen) -> Res<String> {
    let at = cx.at();
    let owner = if spec.kind == DeclKind::Broadcast { cx.project.stage_index() } else { cx.t };
    let id = match &spec.id {
        Some(id) => id.clone(),
        None => {
            let project = &*cx.project;
            ids.next_id(|c| {
                project.targets.iter().any(|t| {
                    t.variables.iter().any(|v| v.id == c)
                        || t.lists.iter().any(|l| l.id == c)
                        || t.broadcasts.iter().any(|b| b.id == c)
                })
            })
        }
    };
    let schema = |msg: &str| {
        PatchError::new(
            ErrorCode::Schema,
            Some(cx.edit),
            at.clone().key("value").into_string(),
            msg.into(),
        )
    };
    let decl = match spec.kind {
        DeclKind::Variable => {
            let value = match &spec.value {
                None => Literal::Number(super::super::json::Num::Int(0)),
                Some(v) => literal_of(v)
                    .ok_or_else(|| schema("a variable value is a number or a string"))?,
            };
            Decl::Variable(Variable {
                id: id.clone(),
                name: spec.name.clone(),
                value,
                is_cloud: spec.cloud,
            })
        }
        DeclKind::List => {
            let items = match &spec.value {
                None => Vec::new(),
                Some(v) => list_items(v)
                    .ok_or_else(|| schema("list items are an array of numbers and strings"))?,
            };
            Decl::List(List { id: id.clone(), name: spec.name.clone(), items })
        }
        DeclKind::Broadcast => Decl::Broadcast(super::super::model::Broadcast {
            id: id.clone(),
            name: spec.name.clone(),
        }),
    };
    cx.project.add_decl(owner, decl, spec.at).map_err(|e| api(cx.edit, &at, e))?;
    let mut monitors = spec.monitors.clone();
    monitors.sort_by_key(|(p, _)| *p);
    for (i, (pos, m)) in monitors.into_iter().enumerate() {
        let mp = at.clone().key("monitors").index(i);
        let root = Path::ROOT;
        let monitor = super::super::load::load_monitor(m, &root).map_err(|e| {
            PatchError::new(ErrorCode::Schema, Some(cx.edit), mp.into_string(), format!("{e}"))
        })?;
        let len = cx.project.monitors.len();
        cx.project.monitors.insert(pos.min(len), monitor);
    }
    Ok(id)
}

/// The catalog info of a block, if known.
fn info_of(blocks: &Blocks, idx: BlockIdx) -> Option<&'static catalog::BlockInfo> {
    blocks.get(idx).and_then(|b| catalog::lookup(&b.opcode))
}

/// Whether a block may have a block after it.
fn takes_next(blocks: &Blocks, idx: BlockIdx) -> bool {
    let Some(b) = blocks.get(idx) else { return false };
    if b.opcode == "control_stop" {
        if let Some(h) = b.mutation.as_ref().and_then(|m| m.has_next) {
            return h;
        }
        return b
            .field("STOP_OPTION")
            .is_some_and(|f| matches!(&f.value, Literal::Text(s) if catalog::stop_has_next(s)));
    }
    info_of(blocks, idx).is_none_or(|i| i.has_next())
}

fn has_previous(blocks: &Blocks, idx: BlockIdx) -> bool {
    info_of(blocks, idx).is_none_or(|i| i.has_previous())
}

fn has_output(blocks: &Blocks, idx: BlockIdx) -> bool {
    info_of(blocks, idx).is_none_or(|i| i.has_output())
}

/// The kind of input `name` of block `p`: statement or value; `None` when the block has no
/// such input (a known opcode that does not declare it, a custom block call or prototype
/// without that argument id, and no input entry of that name in the record).
fn slot_kind(blocks: &Blocks, p: BlockIdx, name: &str) -> Option<Slot> {
    let b = blocks.get(p)?;
    let info = catalog::lookup(&b.opcode);
    if let Some(i) = info.and_then(|i| i.input(name)) {
        return Some(i.slot);
    }
    let existing = b.input(name);
    let argument = matches!(b.opcode.as_str(), "procedures_call" | "procedures_prototype")
        && b.mutation
            .as_ref()
            .and_then(|m| m.argument_ids.as_ref())
            .is_some_and(|ids| ids.iter().any(|i| i == name));
    if info.is_some() && existing.is_none() && !argument {
        return None;
    }
    let holds_shadow = existing
        .is_some_and(|i| i.shadow.is_some() || matches!(i.value, Some(InputValue::Primitive(_))));
    Some(if name.starts_with("SUBSTACK") && !holds_shadow {
        Slot::Statement
    } else {
        Slot::Value { shadow: "", default: "" }
    })
}

/// `UNKNOWN_PATH`: block `p` has no input `name`.
fn no_input(edit: usize, blocks: &Blocks, p: BlockIdx, name: &str, at: &Pointer) -> PatchError {
    let (id, opcode) =
        blocks.get(p).map_or((String::new(), String::new()), |b| (b.id.clone(), b.opcode.clone()));
    let msg = format!("block {id:?} ({opcode}) has no input {name:?}");
    PatchError::new(ErrorCode::UnknownPath, Some(edit), at.clone().into_string(), msg)
}

fn add(
    cx: &mut Cx<'_>,
    spec: &super::model::BlockSpec,
    link: &Link,
    ids: &mut IdGen,
) -> Res<String> {
    link_new(cx, spec, link, ids)
}

fn link_new(
    cx: &mut Cx<'_>,
    spec: &super::model::BlockSpec,
    link: &Link,
    ids: &mut IdGen,
) -> Res<String> {
    let edit = cx.edit;
    let at = cx.at();
    // Specs read from JSON are shallow (serde_json nests 128 deep at most); one built in code
    // may not be, and building it follows its inputs by recursion.
    if spec.nesting() > MAX_NESTING {
        let msg = format!("the block is nested more than {MAX_NESTING} inputs deep");
        return Err(PatchError::new(ErrorCode::TooDeep, Some(edit), at.into_string(), msg));
    }
    let nb = {
        let scope = Scope { project: cx.project, t: cx.t, edit };
        scope.new_block(spec, &at.clone().key("block"))?
    };
    let pos = match link {
        Link::Top(Some(p)) => *p,
        _ => cx.project.targets[cx.t].blocks.free_spot(),
    };
    let lp = at.clone().key("link");
    let root =
        cx.blocks().create(&nb, pos, ids).map_err(|e| api(edit, &at.clone().key("block"), e))?;
    let root_id = cx.project.targets[cx.t].blocks.id_of(root);
    let b = &cx.project.targets[cx.t].blocks;
    let end = b.chain_end(root);
    let bad = |m: &str| {
        PatchError::new(ErrorCode::BadLink, Some(edit), lp.clone().into_string(), m.into())
    };
    let linked: Res<()> = match link {
        Link::Top(_) => Ok(()),
        Link::After(anchor) => {
            let a = cx.find(anchor, lp.clone().key("after"))?;
            let b = &cx.project.targets[cx.t].blocks;
            if !has_previous(b, root) {
                return Err(bad("the new block has no top notch: it cannot go after a block"));
            }
            if !takes_next(b, a) {
                return Err(bad("nothing can go after the anchor (a cap, a reporter or a shadow)"));
            }
            let follower = b.get(a).and_then(|x| x.next);
            if follower.is_some() && !takes_next(b, end) {
                return Err(bad(
                    "the new chain ends in a cap: the blocks after the anchor would be cut off",
                ));
            }
            let (root, a) = (ix(cx, &root_id), a);
            cx.blocks().attach_after(root, a).map_err(|e| api(edit, &lp, e))
        }
        Link::Before(anchor) => {
            let a = cx.find(anchor, lp.clone().key("before"))?;
            let b = &cx.project.targets[cx.t].blocks;
            if !has_previous(b, a) {
                return Err(bad("nothing can go before a hat or a reporter"));
            }
            if !takes_next(b, end) {
                return Err(bad("the new chain ends in a cap: it cannot go before a block"));
            }
            if b.owner(a) != Owner::Root && !has_previous(b, root) {
                return Err(bad("a hat can only head a script"));
            }
            cx.blocks().attach_before(root, a).map_err(|e| api(edit, &lp, e))
        }
        Link::Input(parent, name) => {
            let p = cx.find(parent, lp.clone().key("input").index(0))?;
            let b = &cx.project.targets[cx.t].blocks;
            let Some(slot) = slot_kind(b, p, name) else {
                return Err(no_input(edit, b, p, name, &lp.clone().key("input").index(1)));
            };
            match slot {
                Slot::Statement => {
                    if !has_previous(b, root) {
                        return Err(bad("a C-slot takes stack blocks"));
                    }
                    let occupied = b
                        .get(p)
                        .and_then(|x| x.input(name))
                        .and_then(|i| i.value.clone())
                        .is_some();
                    if occupied && !takes_next(b, end) {
                        return Err(bad(
                            "the new chain ends in a cap: the slot's blocks would be cut off",
                        ));
                    }
                    cx.blocks().put_statement(root, p, name).map_err(|e| api(edit, &lp, e))
                }
                Slot::Value { .. } | Slot::Boolean => {
                    if !has_output(b, root) {
                        return Err(bad("a value input takes a reporter"));
                    }
                    if b.get(root).is_some_and(|x| x.next.is_some()) {
                        return Err(bad("a reporter has no blocks after it"));
                    }
                    cx.blocks()
                        .put_value(root, p, name, ShadowPolicy::Keep)
                        .map_err(|e| api(edit, &lp, e))
                }
            }
        }
        Link::Wrap { first, last, input } => {
            let f = cx.find(first, lp.clone().key("wrap").index(0))?;
            let l = cx.find(last, lp.clone().key("wrap").index(1))?;
            let slot = input.clone().unwrap_or_else(|| "SUBSTACK".into());
            let b = &cx.project.targets[cx.t].blocks;
            let c_ok = info_of(b, root)
                .is_none_or(|i| i.input(&slot).is_some_and(|s| s.slot == Slot::Statement));
            if !c_ok {
                return Err(bad("only a C-block wraps blocks (and only in its C-slot)"));
            }
            if !has_previous(b, f) {
                return Err(bad("a hat cannot be wrapped"));
            }
            if b.get(l).is_some_and(|x| x.next.is_some()) && !takes_next(b, end) {
                return Err(bad(
                    "the C-block ends its stack: the blocks after the run would be cut off",
                ));
            }
            cx.blocks().wrap(root, &slot, f, l).map_err(|e| api(edit, &lp, e))
        }
    };
    linked.map(|()| root_id)
}

fn ix(cx: &Cx<'_>, id: &str) -> BlockIdx {
    cx.project.targets[cx.t].blocks.index_of(id).unwrap_or(BlockIdx(u32::MAX))
}

fn modify(cx: &mut Cx<'_>, id: &str, path: &ModPath, value: &Json, ids: &mut IdGen) -> Res<()> {
    let edit = cx.edit;
    let at = cx.at();
    let vp = at.clone().key("value");
    let idx = cx.find(id, at.clone().key("block_id"))?;
    let schema = |m: &str| {
        PatchError::new(ErrorCode::Schema, Some(edit), vp.clone().into_string(), m.into())
    };
    match path {
        ModPath::Opcode => {
            let Json::String(op) = value else { return Err(schema("an opcode is a string")) };
            let block = cx.project.targets[cx.t].blocks.get(idx).ok_or_else(|| schema("gone"))?;
            let Some(new) = catalog::lookup(op) else {
                return Err(PatchError::new(
                    ErrorCode::UnknownOpcode,
                    Some(edit),
                    vp.into_string(),
                    format!("unknown opcode {op:?}"),
                ));
            };
            let old_shape = catalog::lookup(&block.opcode).map(|i| i.shape);
            let shape_ok = old_shape.is_none_or(|s| s == new.shape);
            let missing_input =
                block.inputs.iter().find(|i| new.input(&i.name).is_none()).map(|i| i.name.clone());
            let missing_field =
                block.fields.iter().find(|f| new.field(&f.name).is_none()).map(|f| f.name.clone());
            let why = if !shape_ok {
                Some(String::from("it has another shape"))
            } else if let Some(n) = missing_input {
                Some(format!("it has no input {n:?}"))
            } else {
                missing_field.map(|n| format!("it has no field {n:?}"))
            };
            if let Some(why) = why {
                let msg = format!("{:?} cannot become {op:?}: {why}", block.opcode);
                return Err(PatchError::new(
                    ErrorCode::IncompatibleOpcode,
                    Some(edit),
                    vp.into_string(),
                    msg,
                ));
            }
            cx.blocks().set_opcode(idx, op).map_err(|e| api(edit, &at, e))?;
        }
        ModPath::Field(name) => {
            let b = cx.project.targets[cx.t].blocks.get(idx).ok_or_else(|| schema("gone"))?;
            let known = b.field(name).is_some()
                || catalog::lookup(&b.opcode).is_some_and(|i| i.field(name).is_some());
            if !known {
                let msg = format!("block {id:?} ({}) has no field {name:?}", b.opcode);
                return Err(PatchError::new(
                    ErrorCode::UnknownPath,
                    Some(edit),
                    at.key("path").into_string(),
                    msg,
                ));
            }
            let spec = match value {
                Json::Array(items) => {
                    let wrapped = Json::Object(alloc::vec![
                        (String::from("opcode"), Json::String("x".into())),
                        (
                            String::from("fields"),
                            Json::Object(alloc::vec![(name.clone(), Json::Array(items.clone()))])
                        )
                    ]);
                    let s = block_spec_json(edit, wrapped, vp.clone())?;
                    s.fields
                        .into_iter()
                        .next()
                        .map(|(_, f)| f)
                        .ok_or_else(|| schema("a field value"))?
                }
                other => {
                    FieldSpec::Value(literal_of(other).ok_or_else(|| {
                        schema("a field value is a literal, [value] or [value, id]")
                    })?)
                }
            };
            let field = Scope { project: cx.project, t: cx.t, edit }.field(name, &spec, &vp)?;
            cx.blocks().set_field(idx, field).map_err(|e| api(edit, &at, e))?;
        }
        ModPath::InputLiteral(name) => {
            let lit = literal_of(value)
                .filter(|_| !matches!(value, Json::Null))
                .ok_or_else(|| schema("an input literal is a number or a string"))?;
            let shadow = cx.project.targets[cx.t]
                .blocks
                .input_shadow(idx, name)
                .map_err(|e| api(edit, &at.clone().key("path"), e))?;
            if let Some(InputValue::Primitive(Primitive::Reference {
                kind: PrimitiveKind::Broadcast,
                ..
            })) = shadow
            {
                let text = match &lit {
                    Literal::Text(s) => s.clone(),
                    _ => return Err(schema("a broadcast is named by a string")),
                };
                let bid = Scope { project: cx.project, t: cx.t, edit }.resolve(
                    DeclKind::Broadcast,
                    &text,
                    &vp,
                )?;
                let p =
                    Primitive::Reference { kind: PrimitiveKind::Broadcast, name: text, id: bid };
                cx.blocks()
                    .set_input_shadow(idx, name, Some(&NewChild::Primitive(p)), ids)
                    .map_err(|e| api(edit, &at, e))?;
            } else {
                cx.blocks()
                    .set_input_literal(idx, name, lit)
                    .map_err(|e| api(edit, &at.clone().key("path"), e))?;
            }
        }
        ModPath::InputBlock(name) => input_block(cx, idx, name, value)?,
        ModPath::InputShadow(name) => {
            let child = match value {
                Json::Null => None,
                Json::Array(items) => {
                    Some(NewChild::Primitive(primitive_json(edit, items.clone(), vp.clone())?))
                }
                obj @ Json::Object(_) => {
                    let mut spec = block_spec_json(edit, obj.clone(), vp.clone())?;
                    spec.shadow = true;
                    let nb = Scope { project: cx.project, t: cx.t, edit }.new_block(&spec, &vp)?;
                    Some(NewChild::Block(nb))
                }
                _ => return Err(schema("a shadow is a block, a primitive array or null")),
            };
            cx.blocks()
                .set_input_shadow(idx, name, child.as_ref(), ids)
                .map_err(|e| api(edit, &vp, e))?;
        }
        ModPath::Mutation(attr) => {
            let v = if *value == Json::Null { None } else { Some(value.clone()) };
            cx.blocks().set_mutation_attr(idx, attr, v).map_err(|e| api(edit, &vp, e))?;
        }
        ModPath::Position => {
            let (Some(Json::Number(x)), Some(Json::Number(y))) = (value.get("x"), value.get("y"))
            else {
                return Err(schema("a position is {\"x\": number, \"y\": number}"));
            };
            cx.blocks().set_position(idx, (*x, *y)).map_err(|e| api(edit, &vp, e))?;
        }
    }
    Ok(())
}

/// `inputs/NAME/block`: move an existing block into the input, or unplug what is there.
fn input_block(cx: &mut Cx<'_>, p: BlockIdx, name: &str, value: &Json) -> Res<()> {
    let edit = cx.edit;
    let vp = cx.at().key("value");
    let b = &cx.project.targets[cx.t].blocks;
    let Some(slot) = slot_kind(b, p, name) else {
        return Err(no_input(edit, b, p, name, &cx.at().key("path")));
    };
    let current = b.get(p).and_then(|x| x.input(name)).and_then(|i| match i.value {
        Some(InputValue::Block(c)) if b.get(c).is_some_and(|x| !x.shadow) => Some(c),
        _ => None,
    });
    let bad = |m: &str| {
        PatchError::new(ErrorCode::BadLink, Some(edit), vp.clone().into_string(), m.into())
    };
    match value {
        Json::Null => {
            let Some(c) = current else { return Err(bad("no block fills the input")) };
            let pos = b.free_spot();
            cx.blocks().detach(c, pos).map_err(|e| api(edit, &vp, e))
        }
        Json::String(id) => {
            let r = cx.find(id, vp.clone())?;
            let b = &cx.project.targets[cx.t].blocks;
            if current.is_some() && slot != Slot::Statement {
                return Err(bad("a block already fills the input: unplug it first"));
            }
            match slot {
                Slot::Statement if !has_previous(b, r) => {
                    return Err(bad("a C-slot takes stack blocks"))
                }
                Slot::Value { .. } | Slot::Boolean if !has_output(b, r) => {
                    return Err(bad("a value input takes a reporter"))
                }
                _ => {}
            }
            if r == p || b.contains(r, p, true) {
                let msg = format!("block {id:?} contains the input's block");
                return Err(PatchError::new(ErrorCode::Cycle, Some(edit), vp.into_string(), msg));
            }
            let pos = b.free_spot();
            cx.blocks().detach(r, pos).map_err(|e| api(edit, &vp, e))?;
            let (r, p) = (cx.find(id, vp.clone())?, p);
            match slot {
                Slot::Statement => cx.blocks().put_statement(r, p, name),
                _ => cx.blocks().put_value(r, p, name, ShadowPolicy::Keep),
            }
            .map_err(|e| api(edit, &vp, e))
        }
        _ => Err(PatchError::new(
            ErrorCode::Schema,
            Some(edit),
            vp.clone().into_string(),
            "a block id or null".into(),
        )),
    }
}
