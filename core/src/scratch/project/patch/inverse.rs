//! Inverting a patch: each edit's exact inverse, computed by applying the patch step by step
//! to a copy. A readable inverse is tried first (modify back, remove what was added, add back
//! what was removed with its ids and file positions, move a block back) and checked by
//! applying it: when it does not restore the project exactly (a record with keys the patch
//! format does not name, an input entry that did not exist before...), the inverse of that
//! edit is the exact-restore form (`modify` `blocks`: the changed records and the order).

use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{BlockIdx, Blocks, InputValue};
use super::super::edit::{decls, DeclKind, IdGen, Owner, RemoveMode};
use super::super::json::{Json, Num};
use super::super::model::{Literal, Project};
use super::super::save;
use super::apply::{apply_one, target_index};
use super::error::{ErrorCode, PatchError};
use super::exact::exact_spec;
use super::model::{
    BlockEdit, BlockSpec, DeclPath, DeclRef, DeclSpec, EditKind, InputSpec, Link, ModPath,
    TargetRef,
};
use super::raw::records_of;
use super::write::{primitive_to_json, spec_to_json};

fn lit_json(l: &Literal) -> Json {
    match l {
        Literal::Number(n) => Json::Number(*n),
        Literal::Text(s) => Json::String(s.clone()),
        Literal::Bool(b) => Json::Bool(*b),
        Literal::Null => Json::Null,
    }
}

/// The inverse of applying `edits` to `project`: applying `project` + `edits` + the result
/// gives back `project` exactly (the same `project.json` bytes). Fails as applying would.
pub(crate) fn invert_edits(
    project: &Project,
    edits: &[BlockEdit],
    seed: u64,
) -> Result<Vec<BlockEdit>, PatchError> {
    let mut cur = project.clone();
    let mut ids = IdGen::new(seed);
    let mut inverses: Vec<Vec<BlockEdit>> = Vec::with_capacity(edits.len());
    for (i, e) in edits.iter().enumerate() {
        let pre = cur.clone();
        let created = apply_one(&mut cur, e, i, &mut ids)?;
        let t = target_index(&pre, &e.target, i)?;
        let target = TargetRef::Name(pre.targets[t].name.clone());
        let target =
            if pre.targets[t].is_stage { TargetRef::Name("_stage_".into()) } else { target };
        let candidate = readable(&pre, &cur, t, &target, e, created.as_deref());
        let exact = candidate.filter(|inv| restores(&cur, inv, &pre));
        let inv = match exact {
            Some(inv) => inv,
            None => {
                let restore = alloc::vec![restore_blocks(&pre, &cur, t, &target)];
                if !restores(&cur, &restore, &pre) {
                    let msg = "this edit changes more than block records: no exact inverse".into();
                    return Err(PatchError::new(ErrorCode::Schema, Some(i), String::new(), msg));
                }
                restore
            }
        };
        inverses.push(inv);
    }
    Ok(inverses.into_iter().rev().flatten().collect())
}

/// Whether applying `inv` to `post` gives exactly `pre`.
fn restores(post: &Project, inv: &[BlockEdit], pre: &Project) -> bool {
    let mut probe = post.clone();
    let mut ids = IdGen::new(0);
    for (i, e) in inv.iter().enumerate() {
        if apply_one(&mut probe, e, i, &mut ids).is_err() {
            return false;
        }
    }
    probe == *pre
}

/// The exact-restore inverse: the records of target `t` that differ, and the order.
fn restore_blocks(pre: &Project, post: &Project, t: usize, target: &TargetRef) -> BlockEdit {
    let before = records_of(pre, t);
    let after = records_of(post, t);
    let mut records: Vec<(String, Option<Json>)> = Vec::new();
    for (id, r) in &before {
        if !after.iter().any(|(k, v)| k == id && v == r) {
            records.push((id.clone(), Some(r.clone())));
        }
    }
    for (id, _) in &after {
        if !before.iter().any(|(k, _)| k == id) {
            records.push((id.clone(), None));
        }
    }
    // The order the records alone would give: kept ids in place, re-added ones at the end.
    let mut order: Vec<&str> = after
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| before.iter().any(|(b, _)| b == k))
        .collect();
    for (id, _) in &before {
        if !order.contains(&id.as_str()) {
            order.push(id);
        }
    }
    let wanted: Vec<&str> = before.iter().map(|(k, _)| k.as_str()).collect();
    let order = (order != wanted).then(|| wanted.iter().map(|s| String::from(*s)).collect());
    BlockEdit { target: target.clone(), kind: EditKind::Records { records, order } }
}

fn edit(target: &TargetRef, kind: EditKind) -> BlockEdit {
    BlockEdit { target: target.clone(), kind }
}

/// A readable inverse of edit `e` (applied to `pre`, giving `post`), or `None`.
fn readable(
    pre: &Project,
    post: &Project,
    t: usize,
    target: &TargetRef,
    e: &BlockEdit,
    created: Option<&str>,
) -> Option<Vec<BlockEdit>> {
    let pb = &pre.targets[t].blocks;
    let qb = &post.targets[t].blocks;
    match &e.kind {
        EditKind::Remove { block, mode } => {
            let idx = pb.index_of(block)?;
            Some(alloc::vec![readd(pb, idx, *mode, target)?])
        }
        EditKind::Add { link, .. } => {
            let root = qb.index_of(created?)?;
            if let Link::Wrap { .. } = link {
                return Some(alloc::vec![edit(
                    target,
                    EditKind::Remove { block: created?.into(), mode: RemoveMode::Unwrap }
                )]);
            }
            if let Link::Top(_) = link {
                return Some(alloc::vec![edit(
                    target,
                    EditKind::Remove { block: created?.into(), mode: RemoveMode::Stack }
                )]);
            }
            // The added chain: its blocks, last first, each removed healing the gap; one
            // `stack` remove when nothing follows it (a long chain in one edit).
            let all = qb.chain(root);
            let new = all.iter().take_while(|i| pb.index_of(&qb.id_of(**i)).is_none()).count();
            if new == all.len() && new > 1 {
                return Some(alloc::vec![edit(
                    target,
                    EditKind::Remove { block: created?.into(), mode: RemoveMode::Stack }
                )]);
            }
            let chain: Vec<BlockIdx> = all.into_iter().take(new).collect();
            Some(
                chain
                    .iter()
                    .rev()
                    .map(|i| {
                        edit(
                            target,
                            EditKind::Remove { block: qb.id_of(*i), mode: RemoveMode::Heal },
                        )
                    })
                    .collect(),
            )
        }
        EditKind::Modify { block, path, .. } => {
            let idx = pb.index_of(block)?;
            let b = pb.get(idx)?;
            let back = |path: ModPath, value: Json| {
                alloc::vec![edit(target, EditKind::Modify { block: block.clone(), path, value })]
            };
            match path {
                ModPath::Opcode => Some(back(ModPath::Opcode, Json::String(b.opcode.clone()))),
                ModPath::Field(name) => {
                    let f = b.field(name)?;
                    let mut items = alloc::vec![lit_json(&f.value)];
                    if f.has_id_slot || f.id.is_some() {
                        items.push(f.id.clone().map_or(Json::Null, Json::String));
                    }
                    Some(back(ModPath::Field(name.clone()), Json::Array(items)))
                }
                ModPath::InputLiteral(name) => {
                    let lit = match pb.input_shadow(idx, name).ok()?? {
                        InputValue::Primitive(super::super::blocks::Primitive::Literal {
                            value,
                            ..
                        }) => value,
                        InputValue::Primitive(super::super::blocks::Primitive::Reference {
                            name,
                            ..
                        }) => Literal::Text(name),
                        InputValue::Block(s) => pb.get(s)?.fields.first()?.value.clone(),
                    };
                    Some(back(ModPath::InputLiteral(name.clone()), lit_json(&lit)))
                }
                ModPath::InputShadow(name) => {
                    let value = match pb.input_shadow(idx, name).ok()? {
                        None => Json::Null,
                        Some(InputValue::Primitive(p)) => primitive_to_json(&p),
                        Some(InputValue::Block(s)) => spec_to_json(&exact_spec(pb, s, true)?),
                    };
                    Some(back(ModPath::InputShadow(name.clone()), value))
                }
                ModPath::InputBlock(name) => input_block_back(pb, qb, idx, block, name, target),
                ModPath::Mutation(attr) => {
                    let old = b
                        .mutation
                        .as_ref()
                        .and_then(|m| m.raw.iter().find(|(k, _)| k == attr))
                        .map(|(_, v)| v.clone());
                    Some(back(ModPath::Mutation(attr.clone()), old.unwrap_or(Json::Null)))
                }
                ModPath::Position => Some(back(ModPath::Position, position(b.x?, b.y?))),
            }
        }
        EditKind::Records { records, .. } => {
            let before = records_of(pre, t);
            let mut back: Vec<(String, Option<Json>)> = Vec::new();
            for (id, _) in records {
                let old = before.iter().find(|(k, _)| k == id).map(|(_, r)| r.clone());
                back.push((id.clone(), old));
            }
            let order = Some(before.iter().map(|(k, _)| k.clone()).collect());
            Some(alloc::vec![edit(target, EditKind::Records { records: back, order })])
        }
        EditKind::AddDecl(spec) => {
            let id = created?;
            Some(alloc::vec![edit(
                target,
                EditKind::RemoveDecl { kind: spec.kind, which: DeclRef::Id(id.into()) }
            )])
        }
        EditKind::RemoveDecl { kind, which } => {
            let owner = if *kind == DeclKind::Broadcast { pre.stage_index() } else { t };
            let list = decls(pre, owner, *kind);
            let (pos, (id, name)) = list.iter().enumerate().find(|(_, (i, n))| match which {
                DeclRef::Id(x) => i == x,
                DeclRef::Name(x) => n == x,
            })?;
            let tgt = &pre.targets[owner];
            let (value, cloud) = match kind {
                DeclKind::Variable => {
                    let v = tgt.variables.iter().find(|v| v.id == *id)?;
                    (Some(lit_json(&v.value)), v.is_cloud)
                }
                DeclKind::List => {
                    let l = tgt.lists.iter().find(|l| l.id == *id)?;
                    (Some(Json::Array(l.items.iter().map(lit_json).collect())), None)
                }
                DeclKind::Broadcast => (None, None),
            };
            let monitors = pre
                .monitors
                .iter()
                .enumerate()
                .filter(|(_, m)| {
                    m.id == *id && m.params.iter().any(|(k, _)| k == kind.field_name())
                })
                .map(|(i, m)| (i, save::monitor(m)))
                .collect();
            let spec = DeclSpec {
                kind: *kind,
                name: String::from(*name),
                id: Some(String::from(*id)),
                value,
                cloud,
                at: Some(pos),
                monitors,
            };
            Some(alloc::vec![edit(target, EditKind::AddDecl(spec))])
        }
        EditKind::ModifyDecl { kind, which, path, .. } => {
            let owner = if *kind == DeclKind::Broadcast { pre.stage_index() } else { t };
            let list = decls(pre, owner, *kind);
            let (id, name) = list.iter().find(|(i, n)| match which {
                DeclRef::Id(x) => i == x,
                DeclRef::Name(x) => n == x,
            })?;
            let tgt = &pre.targets[owner];
            let value = match (path, kind) {
                (DeclPath::Name, _) => Json::String(String::from(*name)),
                (DeclPath::Value, DeclKind::Variable) => {
                    lit_json(&tgt.variables.iter().find(|v| v.id == *id)?.value)
                }
                (DeclPath::Value, _) => Json::Array(
                    tgt.lists.iter().find(|l| l.id == *id)?.items.iter().map(lit_json).collect(),
                ),
            };
            Some(alloc::vec![edit(
                target,
                EditKind::ModifyDecl {
                    kind: *kind,
                    which: DeclRef::Id(String::from(*id)),
                    path: *path,
                    value
                }
            )])
        }
    }
}

fn position(x: Num, y: Num) -> Json {
    Json::Object(alloc::vec![
        (String::from("x"), Json::Number(x)),
        (String::from("y"), Json::Number(y))
    ])
}

/// The edit that adds back block `idx` of `pb` (removed with `mode`) where it was.
fn readd(pb: &Blocks, idx: BlockIdx, mode: RemoveMode, target: &TargetRef) -> Option<BlockEdit> {
    let b = pb.get(idx)?;
    let body = b.input("SUBSTACK").and_then(|i| match (&i.value, &i.shadow) {
        (Some(InputValue::Block(s)), None) => Some(*s),
        _ => None,
    });
    let mut spec: BlockSpec = exact_spec(pb, idx, mode == RemoveMode::Stack)?;
    let link = match (mode, body) {
        (RemoveMode::Unwrap, Some(s)) => {
            // The C-block goes back around its former contents.
            for (name, input) in &mut spec.inputs {
                if name == "SUBSTACK" {
                    if let InputSpec::Exact { value, .. } = input {
                        *value = None;
                    }
                }
            }
            let last = pb.chain_end(s);
            Link::Wrap { first: pb.id_of(s), last: pb.id_of(last), input: Some("SUBSTACK".into()) }
        }
        _ => match pb.owner(idx) {
            Owner::Next(p) => Link::After(pb.id_of(p)),
            Owner::Input(p, n) => Link::Input(pb.id_of(p), pb.get(p)?.inputs.get(n)?.name.clone()),
            Owner::Shadow(..) => return None,
            Owner::Root => match (mode, b.next) {
                (RemoveMode::Heal | RemoveMode::Unwrap, Some(n)) => Link::Before(pb.id_of(n)),
                _ => Link::Top(Some((b.x?, b.y?))),
            },
        },
    };
    Some(BlockEdit { target: target.clone(), kind: EditKind::Add { block: spec, link } })
}

/// Undoing `inputs/NAME/block`: put back what was in the slot and where the moved block was.
fn input_block_back(
    pb: &Blocks,
    qb: &Blocks,
    idx: BlockIdx,
    block: &str,
    name: &str,
    target: &TargetRef,
) -> Option<Vec<BlockEdit>> {
    let slot_block = |blocks: &Blocks, i: BlockIdx| -> Option<String> {
        match blocks.get(i)?.input(name)?.value {
            Some(InputValue::Block(c)) if blocks.get(c).is_some_and(|x| !x.shadow) => {
                Some(blocks.id_of(c))
            }
            _ => None,
        }
    };
    let before = slot_block(pb, idx);
    let after = slot_block(qb, qb.index_of(block)?);
    let modify = |path: ModPath, value: Json, on: &str| {
        edit(target, EditKind::Modify { block: on.into(), path, value })
    };
    match (before, after) {
        // Unplugged: plug it back.
        (Some(old), None) => {
            Some(alloc::vec![modify(ModPath::InputBlock(name.into()), Json::String(old), block)])
        }
        // Plugged in: unplug it, then put it back where it was.
        (None, Some(new)) | (Some(_), Some(new)) => {
            let r = pb.index_of(&new)?;
            let mut out = alloc::vec![modify(ModPath::InputBlock(name.into()), Json::Null, block)];
            match pb.owner(r) {
                Owner::Root => {
                    let rb = pb.get(r)?;
                    out.push(modify(ModPath::Position, position(rb.x?, rb.y?), &new));
                }
                Owner::Input(p, n) => {
                    let pname = pb.get(p)?.inputs.get(n)?.name.clone();
                    out.push(modify(
                        ModPath::InputBlock(pname),
                        Json::String(new.clone()),
                        &pb.id_of(p),
                    ));
                }
                _ => return None,
            }
            Some(out)
        }
        (None, None) => None,
    }
}
