//! Normalized atomic edits between two versions of a project (SPEC §2.8), computed from the
//! projects themselves, so two patches with the same effect give the same atoms. Blocks are
//! matched by id within targets matched by name; declarations by id, named by name.
//!
//! Atoms (each a list of strings):
//! - `["remove", target, block_id]`: a block of A that B lacks.
//! - `["add", target, anchor, slot, signature]`: a subtree of blocks new in B, hanging from the
//!   existing block `anchor` at `slot` (`next` or an input name), or `top`/`top`; the signature
//!   is its opcodes, fields and literals (new ids ignored).
//! - `["move", target, block_id, anchor, slot]`: a block of both whose place differs (places are
//!   compared skipping new and removed blocks, so inserting a block does not move its
//!   neighbours; a new anchor is named by opcode and place, `+control_forever.next<Cab1`, since
//!   its id is arbitrary).
//! - `["modify", target, block_id, path, value]`: `opcode`, `fields/N`, `inputs/N` (a shadow's
//!   literal), `mutation/A`; literals canonical as Scratch compares them (numeric text as a
//!   number), variable/list/broadcast fields by name (their ids are ignored: a new variable's
//!   id differs between two patches that make the same variable).
//! - `["add"|"remove", target, "variable"|"list"|"broadcast", name]`, and `["modify", target,
//!   "variable:<name>", "name"|"value", new]` for declarations.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::super::blocks::{Block, BlockIdx, Blocks, InputValue, Primitive};
use super::super::edit::Owner;
use super::super::model::{Literal, Project, Target};
use crate::scratch::value::number::{js_number_to_string, js_trim, parse_js_number};

/// One normalized atomic edit.
pub type Atom = Vec<String>;

/// A literal as Scratch compares it: numeric text becomes the number's text.
pub fn canonical(l: &Literal) -> String {
    match l {
        Literal::Number(n) => js_number_to_string(n.as_f64()),
        Literal::Text(s) => {
            let n = parse_js_number(s);
            if !js_trim(s).is_empty() && !n.is_nan() {
                js_number_to_string(n)
            } else {
                s.clone()
            }
        }
        Literal::Bool(b) => b.to_string(),
        Literal::Null => String::new(),
    }
}

fn atom(parts: &[&str]) -> Atom {
    parts.iter().map(|p| String::from(*p)).collect()
}

/// The literal a shadow holds (inline primitive or a one-field shadow block).
fn shadow_literal(blocks: &Blocks, b: &Block, name: &str) -> Option<String> {
    let input = b.input(name)?;
    let shadow = match (&input.value, &input.shadow) {
        (_, Some(s)) => s,
        (Some(v), None) => v,
        _ => return None,
    };
    match shadow {
        InputValue::Primitive(Primitive::Literal { value, .. }) => Some(canonical(value)),
        InputValue::Primitive(Primitive::Reference { name, .. }) => Some(name.clone()),
        InputValue::Block(s) => {
            let sb = blocks.get(*s)?;
            if !sb.shadow {
                return None;
            }
            match sb.fields.as_slice() {
                [f] => Some(canonical(&f.value)),
                _ => None,
            }
        }
    }
}

/// What fills a (non-shadow) input: the block's id.
fn input_block(blocks: &Blocks, b: &Block, name: &str) -> Option<BlockIdx> {
    match b.input(name)?.value {
        Some(InputValue::Block(c)) if blocks.get(c).is_some_and(|x| !x.shadow) => Some(c),
        _ => None,
    }
}

/// A subtree's signature: opcode, fields and literals, inputs and the blocks after it, for the
/// blocks `keep` accepts (new ones); others appear as `@id`.
fn signature(blocks: &Blocks, idx: BlockIdx, keep: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::new();
    // Explicit stack of (block, closing text to emit after it).
    let mut stack: Vec<Result<BlockIdx, &'static str>> = alloc::vec![Ok(idx)];
    let mut budget = blocks.len() * 4 + 4;
    while let Some(item) = stack.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
        let i = match item {
            Err(text) => {
                out.push_str(text);
                continue;
            }
            Ok(i) => i,
        };
        let Some(b) = blocks.get(i) else { continue };
        if !keep(&b.id) {
            out.push('@');
            out.push_str(&b.id);
            continue;
        }
        out.push_str(&b.opcode);
        out.push('{');
        let mut parts: Vec<String> = Vec::new();
        for f in &b.fields {
            parts.push(format!("{}:{}", f.name, canonical(&f.value)));
        }
        for input in &b.inputs {
            if let Some(l) = shadow_literal(blocks, b, &input.name) {
                if input_block(blocks, b, &input.name).is_none() {
                    parts.push(format!("{}:{}", input.name, l));
                }
            }
        }
        out.push_str(&parts.join(","));
        // Inputs holding blocks, then the next block, each in brackets.
        let mut children: Vec<Result<BlockIdx, &'static str>> = Vec::new();
        for input in &b.inputs {
            if let Some(c) = input_block(blocks, b, &input.name) {
                children.push(Err("("));
                children.push(Ok(c));
                children.push(Err(")"));
            }
        }
        children.push(Err("}"));
        if let Some(n) = b.next {
            children.push(Err(";"));
            children.push(Ok(n));
        }
        stack.extend(children.into_iter().rev());
    }
    out
}

/// Where a block hangs, described by the nearest block that `skip` does not skip (climbing
/// `next` links over skipped blocks): `(anchor, slot)`. An anchor that `fresh` accepts (a block
/// new in this version, whose id is arbitrary) is named without its id, by its opcode and where
/// it hangs in turn: `+control_forever.next<Cab1` (a new `forever` after `Cab1`), so two
/// patches that wrap the same blocks in the same new block give the same atom.
fn place(
    blocks: &Blocks,
    idx: BlockIdx,
    skip: &dyn Fn(&str) -> bool,
    fresh: &dyn Fn(&str) -> bool,
) -> (String, String) {
    let mut at = idx;
    // `+opcode.slot<` for each new anchor climbed, innermost first.
    let mut chain = String::new();
    let mut first: Option<String> = None;
    for _ in 0..=blocks.len() {
        let (anchor, here) = match blocks.owner(at) {
            Owner::Root => (String::from("top"), String::from("top")),
            Owner::Next(p) => {
                let pid = blocks.id_of(p);
                if skip(&pid) {
                    at = p;
                    continue;
                }
                (pid, String::from("next"))
            }
            Owner::Input(p, n) | Owner::Shadow(p, n) => {
                let name = blocks
                    .get(p)
                    .and_then(|b| b.inputs.get(n))
                    .map(|i| i.name.clone())
                    .unwrap_or_default();
                (blocks.id_of(p), name)
            }
        };
        if first.is_none() {
            first = Some(here);
        } else {
            chain.push_str(&here);
            chain.push('<');
        }
        let new_anchor = blocks.index_of(&anchor).filter(|_| fresh(&anchor));
        if let Some((i, b)) = new_anchor.and_then(|i| Some((i, blocks.get(i)?))) {
            chain.push('+');
            chain.push_str(&b.opcode);
            chain.push('.');
            at = i;
            continue;
        }
        chain.push_str(&anchor);
        return (chain, first.unwrap_or_default());
    }
    ("top".into(), "top".into())
}

/// The normalized atoms that take project `a` to project `b`, sorted.
pub fn diff_atoms(a: &Project, b: &Project) -> Vec<Atom> {
    let mut out: BTreeSet<Atom> = BTreeSet::new();
    for tb in &b.targets {
        let name = if tb.is_stage { "_stage_" } else { tb.name.as_str() };
        let ta = a
            .targets
            .iter()
            .find(|t| t.is_stage == tb.is_stage && (t.is_stage || t.name == tb.name));
        match ta {
            Some(ta) => target_atoms(ta, tb, name, &mut out),
            None => {
                out.insert(atom(&["add", name, "target", name]));
            }
        }
    }
    for ta in &a.targets {
        if !ta.is_stage && !b.targets.iter().any(|t| !t.is_stage && t.name == ta.name) {
            out.insert(atom(&["remove", &ta.name, "target", &ta.name]));
        }
    }
    out.into_iter().collect()
}

/// A target's declarations of one kind as `(id, name, canonical value)`.
type Decls = (&'static str, Vec<(String, String, String)>);

fn decl_atoms(ta: &Target, tb: &Target, t: &str, out: &mut BTreeSet<Atom>) {
    let lists = |x: &Target| -> [Decls; 3] {
        [
            (
                "variable",
                x.variables
                    .iter()
                    .map(|v| (v.id.clone(), v.name.clone(), canonical(&v.value)))
                    .collect(),
            ),
            (
                "list",
                x.lists
                    .iter()
                    .map(|l| {
                        (
                            l.id.clone(),
                            l.name.clone(),
                            l.items.iter().map(canonical).collect::<Vec<_>>().join("\u{1f}"),
                        )
                    })
                    .collect(),
            ),
            (
                "broadcast",
                x.broadcasts
                    .iter()
                    .map(|b| (b.id.clone(), b.name.clone(), String::new()))
                    .collect(),
            ),
        ]
    };
    for ((kind, la), (_, lb)) in lists(ta).into_iter().zip(lists(tb)) {
        for (id, name, value) in &lb {
            match la
                .iter()
                .find(|(i, _, _)| i == id)
                .or_else(|| la.iter().find(|(_, n, _)| n == name))
            {
                None => {
                    out.insert(atom(&["add", t, kind, name]));
                }
                Some((_, old_name, old_value)) => {
                    if old_name != name {
                        out.insert(atom(&[
                            "modify",
                            t,
                            &format!("{kind}:{old_name}"),
                            "name",
                            name,
                        ]));
                    }
                    if old_value != value {
                        out.insert(atom(&["modify", t, &format!("{kind}:{name}"), "value", value]));
                    }
                }
            }
        }
        for (id, name, _) in &la {
            if !lb.iter().any(|(i, n, _)| i == id || n == name) {
                out.insert(atom(&["remove", t, kind, name]));
            }
        }
    }
}

fn target_atoms(ta: &Target, tb: &Target, t: &str, out: &mut BTreeSet<Atom>) {
    decl_atoms(ta, tb, t, out);
    let (ba, bb) = (&ta.blocks, &tb.blocks);
    let new_in_b = |id: &str| ba.index_of(id).is_none();
    let gone_in_a = |id: &str| bb.index_of(id).is_none();
    for (_, blk) in ba.iter() {
        // One atom per removed block; shadows go with their block.
        if !blk.shadow && gone_in_a(&blk.id) {
            out.insert(atom(&["remove", t, &blk.id]));
        }
    }
    for (i, blk) in bb.iter() {
        if blk.shadow {
            continue;
        }
        if new_in_b(&blk.id) {
            // The head of a new region: its owner is not new (or it is a root).
            let owner_new = bb.owner(i).block().is_some_and(|p| new_in_b(&bb.id_of(p)));
            if !owner_new {
                let (anchor, slot) = place(bb, i, &|_| false, &|_| false);
                let sig = signature(bb, i, &new_in_b);
                out.insert(atom(&["add", t, &anchor, &slot, &sig]));
            }
            continue;
        }
        let Some(j) = ba.index_of(&blk.id) else { continue };
        let Some(old) = ba.get(j) else { continue };
        block_modifies(ba, old, bb, blk, t, out);
        let before = place(ba, j, &gone_in_a, &|_| false);
        let after = place(bb, i, &new_in_b, &new_in_b);
        if before != after {
            out.insert(atom(&["move", t, &blk.id, &after.0, &after.1]));
        }
    }
}

fn block_modifies(
    ba: &Blocks,
    old: &Block,
    bb: &Blocks,
    new: &Block,
    t: &str,
    out: &mut BTreeSet<Atom>,
) {
    let id = new.id.as_str();
    if old.opcode != new.opcode {
        out.insert(atom(&["modify", t, id, "opcode", &new.opcode]));
    }
    for f in &new.fields {
        let value = canonical(&f.value);
        let before = old.field(&f.name).map(|o| canonical(&o.value));
        if before.as_deref() != Some(value.as_str()) {
            out.insert(atom(&["modify", t, id, &format!("fields/{}", f.name), &value]));
        }
    }
    let mut names: Vec<&str> = new.inputs.iter().map(|i| i.name.as_str()).collect();
    for i in &old.inputs {
        if !names.contains(&i.name.as_str()) {
            names.push(&i.name);
        }
    }
    for name in names {
        let now = shadow_literal(bb, new, name);
        if now.is_some() && now != shadow_literal(ba, old, name) {
            out.insert(atom(&[
                "modify",
                t,
                id,
                &format!("inputs/{name}"),
                now.as_deref().unwrap_or(""),
            ]));
        }
    }
    let attrs = |b: &Block| -> Vec<(String, String)> {
        b.mutation.as_ref().map_or(Vec::new(), |m| {
            m.raw
                .iter()
                .filter(|(k, _)| k != "children" && k != "tagName")
                .map(|(k, v)| (k.clone(), String::from_utf8_lossy(&v.to_bytes()).into_owned()))
                .collect()
        })
    };
    let (ma, mb) = (attrs(old), attrs(new));
    for (k, v) in &mb {
        if !ma.iter().any(|(k2, v2)| k2 == k && v2 == v) {
            out.insert(atom(&["modify", t, id, &format!("mutation/{k}"), v]));
        }
    }
}

/// ScratchEval's edit distance: `d = |gold Δ model|`, with the atoms each side has alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EditDistance {
    /// The size of the symmetric difference.
    pub d_edit: usize,
    /// Atoms in both.
    pub matched: Vec<Atom>,
    /// Gold atoms the model lacks.
    pub missing: Vec<Atom>,
    /// Model atoms the gold lacks.
    pub extra: Vec<Atom>,
}

/// ScratchEval's `d_edit` from project differences (SPEC §2.8): `E_gold = diff(base, gold)`,
/// `E_model = diff(base, candidate)`, so two candidates with the same effect score the same,
/// the gold itself scores 0 and an unchanged base scores `|E_gold|`.
pub fn project_edit_distance(base: &Project, gold: &Project, candidate: &Project) -> EditDistance {
    edit_distance(&diff_atoms(base, gold), &diff_atoms(base, candidate))
}

/// `d_edit` between the gold fix's atoms and the model's (both from the same base).
pub fn edit_distance(gold: &[Atom], model: &[Atom]) -> EditDistance {
    let g: BTreeSet<&Atom> = gold.iter().collect();
    let m: BTreeSet<&Atom> = model.iter().collect();
    let matched: Vec<Atom> = g.intersection(&m).map(|a| (*a).clone()).collect();
    let missing: Vec<Atom> = g.difference(&m).map(|a| (*a).clone()).collect();
    let extra: Vec<Atom> = m.difference(&g).map(|a| (*a).clone()).collect();
    EditDistance { d_edit: missing.len() + extra.len(), matched, missing, extra }
}
