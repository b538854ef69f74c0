//! Binding findings: references that do not resolve (`binding.dangling`), whose shown name is
//! not the declaration's (`binding.name_mismatch`), that sit between a sprite-local and a global
//! of one name (`binding.shadowed`), and patches that rebind a variable in part of a script
//! (`binding.partial_rebind`).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::refs::{by_id, by_name, decls, refs_of, resolve, scopes, Decl, Kind};
use super::{finding, Code, Finding};
use crate::scratch::forge::walk::script_tops;
use crate::scratch::project::{Block, Blocks, Project, Target};

/// The id a finding names for `b`: its own, or its parent's when `b` is a shadow (a menu).
pub(super) fn owner_id<'a>(blocks: &'a Blocks, b: &'a Block) -> &'a str {
    if b.shadow {
        if let Some(p) = b.parent.and_then(|p| blocks.get(p)) {
            return &p.id;
        }
    }
    &b.id
}

fn scope_word(d: &Decl<'_>) -> &'static str {
    if d.global {
        "global"
    } else {
        "sprite-local"
    }
}

/// `binding.dangling` and `binding.name_mismatch` over every block of every target.
pub(super) fn dangling_and_names(project: &Project, out: &mut Vec<Finding>) {
    for t in &project.targets {
        let scope = scopes(project, t);
        for b in t.blocks.as_slice() {
            for r in refs_of(b) {
                let block = Some(owner_id(&t.blocks, b));
                let noun = r.kind.noun();
                match r.id.and_then(|id| by_id(&scope, r.kind, id)) {
                    Some(d) if d.name != r.name => out.push(finding(
                        Code::BindingNameMismatch,
                        &t.name,
                        block,
                        format!(
                            "{} shows {noun} {:?} but its id {:?} is the {} {noun} {:?}, which \
                             the program uses (ids win over names)",
                            r.slot,
                            r.name,
                            d.id,
                            scope_word(&d),
                            d.name
                        ),
                    )),
                    Some(_) => {}
                    None => {
                        let id = r.id.map_or_else(|| String::from("(none)"), |i| format!("{i:?}"));
                        let elsewhere =
                            r.id.and_then(|id| owner_elsewhere(project, t, r.kind, id))
                                .map(|o| format!(" (it is a {noun} of {o:?}, not visible here)"))
                                .unwrap_or_default();
                        let fallback = match by_name(&scope, r.kind, &r.name) {
                            Some(d) => format!(
                                "scratch-vm binds it by name to the {} {noun} {:?} (id {:?})",
                                scope_word(&d),
                                d.name,
                                d.id
                            ),
                            None if r.kind == Kind::Broadcast => {
                                format!(
                                    "scratch-vm creates a new message {:?} when it runs",
                                    r.name
                                )
                            }
                            None => format!(
                                "scratch-vm creates a new empty {noun} {:?} in {:?} when it runs",
                                r.name, t.name
                            ),
                        };
                        out.push(finding(
                            Code::BindingDangling,
                            &t.name,
                            block,
                            format!(
                                "{} names {noun} {:?} by id {id}, which no {noun} visible from \
                                 {:?} has{elsewhere}; {fallback}",
                                r.slot, r.name, t.name
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// The target (other than `t` and the stage) that declares `id`.
fn owner_elsewhere<'a>(project: &'a Project, t: &Target, kind: Kind, id: &str) -> Option<&'a str> {
    project
        .targets
        .iter()
        .filter(|o| !core::ptr::eq(*o, t) && !o.is_stage)
        .find(|o| decls(o, kind).iter().any(|d| d.id == id))
        .map(|o| o.name.as_str())
}

/// `binding.shadowed`: in a sprite with a local variable or list named like a global one,
/// every reference to either says which it binds; a pair nothing uses is reported once.
pub(super) fn shadowed(project: &Project, out: &mut Vec<Finding>) {
    let Some(stage) = project.stage() else { return };
    for t in project.targets.iter().filter(|t| !t.is_stage) {
        let scope = scopes(project, t);
        for kind in [Kind::Variable, Kind::List] {
            let globals = decls(stage, kind);
            for local in decls(t, kind) {
                let Some(global) =
                    globals.iter().find(|g| g.name == local.name && g.id != local.id)
                else {
                    continue;
                };
                let noun = kind.noun();
                let mut used = false;
                for b in t.blocks.as_slice() {
                    for r in refs_of(b).iter().filter(|r| r.kind == kind) {
                        let Some(d) = resolve(&scope, r) else { continue };
                        let (bound, other) = if d.id == local.id {
                            (&local, global)
                        } else if d.id == global.id {
                            (global, &local)
                        } else {
                            continue;
                        };
                        used = true;
                        out.push(finding(
                            Code::BindingShadowed,
                            &t.name,
                            Some(owner_id(&t.blocks, b)),
                            format!(
                                "{} binds the {} {noun} {:?} (id {:?}); the {} {noun} (id {:?}) \
                                 has the same name, so an edit that rebinds by name alone \
                                 cannot tell them apart",
                                r.slot,
                                scope_word(bound),
                                bound.name,
                                bound.id,
                                scope_word(other),
                                other.id
                            ),
                        ));
                    }
                }
                if !used {
                    out.push(finding(
                        Code::BindingShadowed,
                        &t.name,
                        None,
                        format!(
                            "the sprite-local {noun} {:?} (id {:?}) has the name of the global \
                             {noun} (id {:?}); no block of {:?} uses either",
                            local.name, local.id, global.id, t.name
                        ),
                    ));
                }
            }
        }
    }
}

/// A reference's resolved declaration id and name (the raw id and shown name when it does not
/// resolve).
fn bound(scope: &[&Target], r: &super::refs::Ref<'_>) -> (String, String) {
    match resolve(scope, r) {
        Some(d) => (d.id.into(), d.name.into()),
        None => (String::from(r.id.unwrap_or("")), r.name.clone()),
    }
}

/// The target of `base` that `t` continues (same name and kind).
pub(super) fn base_target<'a>(base: &'a Project, t: &Target) -> Option<&'a Target> {
    base.targets.iter().find(|b| b.name == t.name && b.is_stage == t.is_stage)
}

/// `binding.partial_rebind`: in a script of the patched project, blocks kept from the base
/// whose reference moved from declaration V to W, while other kept blocks of the script that
/// used V in the base still do.
pub(super) fn partial_rebind(base: &Project, project: &Project, out: &mut Vec<Finding>) {
    type Key = (usize, Kind, String);
    for t in &project.targets {
        let Some(bt) = base_target(base, t) else { continue };
        let (scope, bscope) = (scopes(project, t), scopes(base, bt));
        let tops = script_tops(&t.blocks);
        // (script top, kind, old id) -> (old name, [(new name, block id)]) and kept block ids.
        let mut moved: BTreeMap<Key, (String, Vec<(String, String)>)> = BTreeMap::new();
        let mut kept: BTreeMap<Key, Vec<String>> = BTreeMap::new();
        for (idx, b) in t.blocks.iter() {
            let Some(ob) = bt.blocks.index_of(&b.id).and_then(|i| bt.blocks.get(i)) else {
                continue;
            };
            let top = tops.get(idx.get()).map_or(idx.get(), |t| t.get());
            let old_refs = refs_of(ob);
            for r in refs_of(b) {
                let Some(o) = old_refs.iter().find(|o| o.slot == r.slot && o.kind == r.kind) else {
                    continue;
                };
                let ((oid, oname), (nid, nname)) = (bound(&bscope, o), bound(&scope, &r));
                let owner = String::from(owner_id(&t.blocks, b));
                let key = (top, r.kind, oid);
                if nid == key.2 {
                    kept.entry(key).or_default().push(owner);
                } else {
                    moved.entry(key).or_insert_with(|| (oname, Vec::new())).1.push((nname, owner));
                }
            }
        }
        for (key, (oname, to)) in &moved {
            let Some(still) = kept.get(key) else { continue };
            let noun = key.1.noun();
            let targets: Vec<String> =
                to.iter().map(|(n, b)| format!("{n:?} (block {b})")).collect();
            for block in still {
                out.push(finding(
                    Code::BindingPartialRebind,
                    &t.name,
                    Some(block),
                    format!(
                        "the patch rebinds {} use(s) of {noun} {oname:?} in this script to {}, \
                         but this block still uses {oname:?}",
                        to.len(),
                        targets.join(", ")
                    ),
                ));
            }
        }
    }
}
