//! A block-edit patch that turns project A into project B (scripts, variables, lists and
//! broadcasts; costumes, sounds and other target properties aside): declarations added,
//! renamed, revalued and removed; blocks removed and added as subtrees with their ids and
//! file positions, and modified in place (opcode, fields, literals, mutation). The patch is
//! checked by applying it to A: where the readable edits of a target do not reproduce B's
//! blocks exactly (a block moved, a record with keys the format does not name), that target's
//! block changes are given as exact records (`modify` `blocks`).

use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{BlockIdx, Blocks, InputValue};
use super::super::edit::{decls, DeclKind, IdGen, Owner, RemoveMode};
use super::super::json::Json;
use super::super::model::{Literal, Project};
use super::super::patch::{
    apply_block_edits, BlockEdit, BlockSpec, DeclPath, DeclRef, DeclSpec, EditKind, InputSpec,
    Link, ModPath, PatchOptions, PostCheck, TargetRef,
};
use super::super::save;

fn lit_json(l: &Literal) -> Json {
    match l {
        Literal::Number(n) => Json::Number(*n),
        Literal::Text(s) => Json::String(s.clone()),
        Literal::Bool(b) => Json::Bool(*b),
        Literal::Null => Json::Null,
    }
}

/// Why no patch could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffError {
    /// B has a sprite A lacks, or the other way round (targets are not patchable).
    Targets(String),
}

impl core::fmt::Display for DiffError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DiffError::Targets(n) => write!(f, "sprite {n:?} is in only one of the projects: block edits cannot add or remove sprites"),
        }
    }
}

fn target_ref(p: &Project, t: usize) -> TargetRef {
    if p.targets[t].is_stage {
        TargetRef::Name("_stage_".into())
    } else {
        TargetRef::Name(p.targets[t].name.clone())
    }
}

/// The patch from `a` to `b`.
pub fn diff_patch(a: &Project, b: &Project) -> Result<Vec<BlockEdit>, DiffError> {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (tb, target) in b.targets.iter().enumerate() {
        let ta = a
            .targets
            .iter()
            .position(|t| t.is_stage == target.is_stage && (t.is_stage || t.name == target.name));
        match ta {
            Some(ta) => pairs.push((ta, tb)),
            None => return Err(DiffError::Targets(target.name.clone())),
        }
    }
    if let Some(t) = a
        .targets
        .iter()
        .find(|t| !t.is_stage && !b.targets.iter().any(|x| !x.is_stage && x.name == t.name))
    {
        return Err(DiffError::Targets(t.name.clone()));
    }
    let mut first: Vec<BlockEdit> = Vec::new();
    let mut blocks: Vec<BlockEdit> = Vec::new();
    let mut last: Vec<BlockEdit> = Vec::new();
    for &(ta, tb) in &pairs {
        decl_edits(a, b, ta, tb, &mut first, &mut last);
    }
    // Declarations first, so block edits can name new variables.
    let mut staged = a.clone();
    let opts = PatchOptions { check: PostCheck::Off, ..PatchOptions::default() };
    if apply_block_edits(&mut staged, &first, &opts).is_err() {
        first.clear();
    }
    for &(ta, tb) in &pairs {
        let readable = block_edits(&staged, b, ta, tb);
        let mut probe = staged.clone();
        let fits = apply_block_edits(&mut probe, &readable, &opts).is_ok()
            && save::blocks(&probe.targets[ta].blocks) == save::blocks(&b.targets[tb].blocks);
        if fits {
            blocks.extend(readable);
        } else {
            blocks.push(records(&staged, b, ta, tb));
        }
    }
    first.extend(blocks);
    first.extend(last);
    Ok(first)
}

/// Declaration edits: additions and renames/values (before block edits), removals (after).
fn decl_edits(
    a: &Project,
    b: &Project,
    ta: usize,
    tb: usize,
    first: &mut Vec<BlockEdit>,
    last: &mut Vec<BlockEdit>,
) {
    let target = target_ref(b, tb);
    for kind in [DeclKind::Variable, DeclKind::List, DeclKind::Broadcast] {
        let la = decls(a, ta, kind);
        let lb = decls(b, tb, kind);
        let value_of = |p: &Project, t: usize, id: &str| -> Option<Json> {
            let x = &p.targets[t];
            match kind {
                DeclKind::Variable => {
                    x.variables.iter().find(|v| v.id == id).map(|v| lit_json(&v.value))
                }
                DeclKind::List => x
                    .lists
                    .iter()
                    .find(|l| l.id == id)
                    .map(|l| Json::Array(l.items.iter().map(lit_json).collect())),
                DeclKind::Broadcast => None,
            }
        };
        for (pos, (id, name)) in lb.iter().enumerate() {
            match la.iter().find(|(i, _)| i == id) {
                None => {
                    let cloud = match kind {
                        DeclKind::Variable => b.targets[tb]
                            .variables
                            .iter()
                            .find(|v| v.id == *id)
                            .and_then(|v| v.is_cloud),
                        _ => None,
                    };
                    let spec = DeclSpec {
                        kind,
                        name: String::from(*name),
                        id: Some(String::from(*id)),
                        value: value_of(b, tb, id),
                        cloud,
                        at: Some(pos),
                        monitors: Vec::new(),
                    };
                    first.push(BlockEdit { target: target.clone(), kind: EditKind::AddDecl(spec) });
                }
                Some((_, old)) => {
                    if old != name {
                        let kind = EditKind::ModifyDecl {
                            kind,
                            which: DeclRef::Id(String::from(*id)),
                            path: DeclPath::Name,
                            value: Json::String(String::from(*name)),
                        };
                        first.push(BlockEdit { target: target.clone(), kind });
                    }
                    let (va, vb) = (value_of(a, ta, id), value_of(b, tb, id));
                    if let (Some(va), Some(vb)) = (va, vb) {
                        if va != vb {
                            let kind = EditKind::ModifyDecl {
                                kind,
                                which: DeclRef::Id(String::from(*id)),
                                path: DeclPath::Value,
                                value: vb,
                            };
                            first.push(BlockEdit { target: target.clone(), kind });
                        }
                    }
                }
            }
        }
        for (id, _) in &la {
            if !lb.iter().any(|(i, _)| i == id) {
                last.push(BlockEdit {
                    target: target.clone(),
                    kind: EditKind::RemoveDecl { kind, which: DeclRef::Id(String::from(*id)) },
                });
            }
        }
    }
}

/// Readable block edits of one target: removals of regions B lacks, additions of regions A
/// lacks, modifications of values. (Checked by the caller.)
fn block_edits(a: &Project, b: &Project, ta: usize, tb: usize) -> Vec<BlockEdit> {
    let target = target_ref(b, tb);
    let (ba, bb) = (&a.targets[ta].blocks, &b.targets[tb].blocks);
    let mut out = Vec::new();
    // Removals: heads of removed regions.
    for (i, blk) in ba.iter() {
        if bb.index_of(&blk.id).is_some() || blk.shadow {
            continue;
        }
        let owner_gone = ba.owner(i).block().is_some_and(|p| bb.index_of(&ba.id_of(p)).is_none());
        if owner_gone {
            continue;
        }
        let whole_tail = ba.chain(i).iter().all(|c| bb.index_of(&ba.id_of(*c)).is_none());
        let mode = if whole_tail { RemoveMode::Stack } else { RemoveMode::Heal };
        out.push(BlockEdit {
            target: target.clone(),
            kind: EditKind::Remove { block: blk.id.clone(), mode },
        });
        // A heal removal of a region with more removed blocks after it: remove those too.
        if mode == RemoveMode::Heal {
            for c in ba.chain(i).into_iter().skip(1) {
                let id = ba.id_of(c);
                if bb.index_of(&id).is_none() {
                    out.push(BlockEdit {
                        target: target.clone(),
                        kind: EditKind::Remove { block: id, mode: RemoveMode::Heal },
                    });
                }
            }
        }
    }
    // Value changes of kept blocks.
    for (_, new) in bb.iter() {
        let Some(old) = ba.index_of(&new.id).and_then(|j| ba.get(j)) else { continue };
        let m = |path: ModPath, value: Json| BlockEdit {
            target: target.clone(),
            kind: EditKind::Modify { block: new.id.clone(), path, value },
        };
        if old.opcode != new.opcode {
            out.push(m(ModPath::Opcode, Json::String(new.opcode.clone())));
        }
        for f in &new.fields {
            if old.field(&f.name) != Some(f) {
                let mut items = alloc::vec![lit_json(&f.value)];
                if f.has_id_slot || f.id.is_some() {
                    items.push(f.id.clone().map_or(Json::Null, Json::String));
                }
                out.push(m(ModPath::Field(f.name.clone()), Json::Array(items)));
            }
        }
        for input in &new.inputs {
            let (Some(now), Some(before)) = (
                literal_in(bb, new.inputs.iter().position(|i| i.name == input.name), new),
                literal_in(ba, old.inputs.iter().position(|i| i.name == input.name), old),
            ) else {
                continue;
            };
            if now != before {
                out.push(m(ModPath::InputLiteral(input.name.clone()), lit_json(&now)));
            }
        }
        if old.mutation != new.mutation {
            let mb = new.mutation.as_ref().map(|x| x.raw.clone()).unwrap_or_default();
            let ma = old.mutation.as_ref().map(|x| x.raw.clone()).unwrap_or_default();
            for (k, v) in &mb {
                if !ma.iter().any(|(k2, v2)| k2 == k && v2 == v) {
                    out.push(m(ModPath::Mutation(k.clone()), v.clone()));
                }
            }
            for (k, _) in &ma {
                if !mb.iter().any(|(k2, _)| k2 == k) {
                    out.push(m(ModPath::Mutation(k.clone()), Json::Null));
                }
            }
        }
    }
    // Additions: heads of new regions, in B's file order.
    for (i, blk) in bb.iter() {
        if ba.index_of(&blk.id).is_some() || blk.shadow {
            continue;
        }
        let owner = bb.owner(i);
        if owner.block().is_some_and(|p| ba.index_of(&bb.id_of(p)).is_none()) {
            continue;
        }
        let Some(spec) = new_region(ba, bb, i) else { continue };
        let link = match owner {
            Owner::Next(p) => Link::After(bb.id_of(p)),
            Owner::Input(p, n) => Link::Input(
                bb.id_of(p),
                bb.get(p).and_then(|x| x.inputs.get(n)).map(|x| x.name.clone()).unwrap_or_default(),
            ),
            Owner::Shadow(..) => continue,
            Owner::Root => match last_kept_next(ba, bb, i) {
                Some(n) => Link::Before(n),
                None => Link::Top(blk.x.zip(blk.y)),
            },
        };
        out.push(BlockEdit { target: target.clone(), kind: EditKind::Add { block: spec, link } });
    }
    out
}

/// The literal of input `n`'s shadow.
fn literal_in(
    blocks: &Blocks,
    n: Option<usize>,
    b: &super::super::blocks::Block,
) -> Option<Literal> {
    let input = b.inputs.get(n?)?;
    let s = match (&input.value, &input.shadow) {
        (_, Some(s)) => s,
        (Some(v), None) => v,
        _ => return None,
    };
    match s {
        InputValue::Primitive(super::super::blocks::Primitive::Literal { value, .. }) => {
            Some(value.clone())
        }
        InputValue::Block(c) => {
            let sb = blocks.get(*c)?;
            match (sb.shadow, sb.fields.as_slice()) {
                (true, [f]) => Some(f.value.clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// For a new script head: the first kept block after it (it becomes that block's new head).
fn last_kept_next(ba: &Blocks, bb: &Blocks, i: BlockIdx) -> Option<String> {
    bb.chain(i).into_iter().map(|c| bb.id_of(c)).find(|id| ba.index_of(id).is_some())
}

/// The new blocks hanging from `i` (inputs and the chain, up to the first kept block) as an
/// exact spec with ids and B's file positions; `None` if a kept block sits inside it.
fn new_region(ba: &Blocks, bb: &Blocks, i: BlockIdx) -> Option<BlockSpec> {
    let mut spec = super::super::patch::exact_spec_public(bb, i, false)?;
    if spec_has_kept(&spec, ba) {
        return None;
    }
    let mut cur = bb.get(i)?.next;
    while let Some(n) = cur.filter(|n| ba.index_of(&bb.id_of(*n)).is_none()) {
        let node = super::super::patch::exact_spec_public(bb, n, false)?;
        if spec_has_kept(&node, ba) {
            return None;
        }
        spec.next.push(node);
        cur = bb.get(n)?.next;
    }
    Some(spec)
}

fn spec_has_kept(spec: &BlockSpec, ba: &Blocks) -> bool {
    let mut stack: Vec<&BlockSpec> = alloc::vec![spec];
    let mut first = true;
    while let Some(s) = stack.pop() {
        if !first && s.id.as_deref().is_some_and(|id| ba.index_of(id).is_some()) {
            return true;
        }
        first = false;
        for (_, input) in &s.inputs {
            if let InputSpec::Exact { value, shadow, .. } = input {
                for c in [value, shadow].into_iter().flatten() {
                    if let super::super::patch::Child::Block(b) = c {
                        stack.push(b);
                    }
                }
            }
        }
        stack.extend(s.next.iter());
    }
    false
}

/// The exact-records edit turning target `ta` of `a` into target `tb` of `b`.
fn records(a: &Project, b: &Project, ta: usize, tb: usize) -> BlockEdit {
    let before = super::super::patch::records_public(a, ta);
    let after = super::super::patch::records_public(b, tb);
    let mut recs: Vec<(String, Option<Json>)> = Vec::new();
    for (id, r) in &after {
        if !before.iter().any(|(k, v)| k == id && v == r) {
            recs.push((id.clone(), Some(r.clone())));
        }
    }
    for (id, _) in &before {
        if !after.iter().any(|(k, _)| k == id) {
            recs.push((id.clone(), None));
        }
    }
    let order = Some(after.iter().map(|(k, _)| k.clone()).collect());
    let _ = IdGen::new(0);
    BlockEdit { target: target_ref(b, tb), kind: EditKind::Records { records: recs, order } }
}
