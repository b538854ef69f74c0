//! The block forest of one target: every reference in range and owned once, no cycles,
//! `parent` naming the owner, `topLevel`/`x`/`y` on roots only, shadows only where shadows
//! go, input kinds matching their contents, and the id index matching the list.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::super::blocks::{Block, BlockForm, BlockIdx, Blocks, InputKind, InputValue};
use super::{Pointer, Report};

/// Which slot of its owner a block fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Next,
    Value(usize),
    Shadow(usize),
}

fn slot_ptr(t: usize, owner: &Block, slot: Slot) -> Pointer {
    let p = Pointer::block(t, &owner.id);
    match slot {
        Slot::Next => p.key("next"),
        Slot::Value(n) => {
            p.key("inputs").key(owner.inputs.get(n).map_or("", |i| i.name.as_str())).index(1)
        }
        Slot::Shadow(n) => {
            p.key("inputs").key(owner.inputs.get(n).map_or("", |i| i.name.as_str())).index(2)
        }
    }
}

fn refs(b: &Block) -> impl Iterator<Item = (Slot, BlockIdx)> + '_ {
    let inputs = b.inputs.iter().enumerate().flat_map(|(n, i)| {
        let v = match i.value {
            Some(InputValue::Block(c)) => Some((Slot::Value(n), c)),
            _ => None,
        };
        let s = match i.shadow {
            Some(InputValue::Block(c)) => Some((Slot::Shadow(n), c)),
            _ => None,
        };
        v.into_iter().chain(s)
    });
    b.next.map(|c| (Slot::Next, c)).into_iter().chain(inputs)
}

pub(super) fn check(blocks: &Blocks, t: usize, report: &mut Report) {
    let list = blocks.as_slice();
    let n = list.len();
    // The id index.
    for (i, b) in list.iter().enumerate() {
        if blocks.index_of(&b.id) != Some(BlockIdx(i as u32)) {
            report.error(
                "ID_INDEX",
                Pointer::block(t, &b.id).into_string(),
                format!("block id {:?} is listed twice or not indexed", b.id),
            );
        }
    }
    // Owners: each block is the child of at most one slot.
    let mut owner: Vec<Option<(usize, Slot)>> = vec![None; n];
    for (i, b) in list.iter().enumerate() {
        for (slot, c) in refs(b) {
            let Some(o) = owner.get_mut(c.get()) else {
                report.error(
                    "DANGLING_REFERENCE",
                    slot_ptr(t, b, slot).into_string(),
                    format!("refers to block #{} which does not exist", c.0),
                );
                continue;
            };
            if let Some((first, _)) = *o {
                let first_id = list.get(first).map_or("", |f| f.id.as_str());
                let msg =
                    format!("block {:?} is already the child of {:?}", list[c.get()].id, first_id);
                report.error("SHARED_BLOCK", slot_ptr(t, b, slot).into_string(), msg);
            } else {
                *o = Some((i, slot));
            }
        }
    }
    check_cycles(list, &owner, t, report);
    for (i, b) in list.iter().enumerate() {
        let ptr = || Pointer::block(t, &b.id);
        match owner[i] {
            None => {
                if b.parent.is_some() {
                    let p = b.parent.map_or(0, |p| p.0);
                    let msg = format!(
                        "parent is {:?} but no block refers to this one",
                        list.get(p as usize).map_or("?", |x| x.id.as_str())
                    );
                    report.warn("PARENT_MISMATCH", ptr().key("parent").into_string(), msg);
                }
                if b.shadow {
                    report.warn(
                        "ORPHAN_SHADOW",
                        ptr().into_string(),
                        "a shadow block that no input holds".into(),
                    );
                } else if !b.top_level {
                    report.warn(
                        "ORPHAN_BLOCK",
                        ptr().key("topLevel").into_string(),
                        "no block refers to it but topLevel is false: it never runs".into(),
                    );
                } else if b.x.is_none() || b.y.is_none() {
                    report.warn(
                        "MISSING_POSITION",
                        ptr().into_string(),
                        "a top-level block without x and y".into(),
                    );
                }
            }
            Some((o, slot)) => {
                let owner_block = &list[o];
                if b.parent != Some(BlockIdx(o as u32)) && b.form == BlockForm::Object {
                    let msg =
                        format!("parent should be {:?}, the block referring to it", owner_block.id);
                    report.warn("PARENT_MISMATCH", ptr().key("parent").into_string(), msg);
                }
                if b.top_level {
                    report.error(
                        "TOP_LEVEL_CHILD",
                        ptr().key("topLevel").into_string(),
                        format!(
                            "topLevel is true but {:?} refers to it: it would also run as a script",
                            owner_block.id
                        ),
                    );
                }
                match slot {
                    Slot::Next if b.shadow => report.error(
                        "SHADOW_MISUSE",
                        slot_ptr(t, owner_block, slot).into_string(),
                        "a shadow block in a stack".into(),
                    ),
                    Slot::Shadow(_) if !b.shadow => report.error(
                        "SHADOW_MISUSE",
                        slot_ptr(t, owner_block, slot).into_string(),
                        format!("{:?} is in a shadow slot but is not a shadow", b.id),
                    ),
                    _ => {}
                }
            }
        }
        if b.shadow && b.next.is_some() {
            report.error(
                "SHADOW_MISUSE",
                ptr().key("next").into_string(),
                "a shadow block with a next block".into(),
            );
        }
        check_input_kinds(list, b, t, report);
    }
}

/// Reports each cycle once: climbs owners from an unreachable block to a block on the cycle.
fn check_cycles(list: &[Block], owner: &[Option<(usize, Slot)>], t: usize, report: &mut Report) {
    let n = list.len();
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| owner[i].is_none()).collect();
    let walk = |stack: &mut Vec<usize>, seen: &mut [bool]| {
        while let Some(i) = stack.pop() {
            match seen.get_mut(i) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            stack.extend(refs(&list[i]).map(|(_, c)| c.get()).filter(|&c| c < n));
        }
    };
    walk(&mut stack, &mut seen);
    let mut climbed = vec![false; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        let mut at = start;
        while !climbed[at] {
            climbed[at] = true;
            match owner[at] {
                Some((o, _)) => at = o,
                None => break,
            }
        }
        report.error(
            "CYCLE",
            Pointer::block(t, &list[at].id).into_string(),
            format!("block {:?} is on a reference cycle", list[at].id),
        );
        stack.push(at);
        walk(&mut stack, &mut seen);
    }
}

fn check_input_kinds(list: &[Block], b: &Block, t: usize, report: &mut Report) {
    let is_shadow = |v: &InputValue| match v {
        InputValue::Primitive(_) => true,
        InputValue::Block(c) => list.get(c.get()).is_some_and(|x| x.shadow),
    };
    for input in &b.inputs {
        let bad = match (input.kind, &input.value, &input.shadow) {
            (InputKind::Shadow, Some(v), None) => {
                (!is_shadow(v)).then_some("[1, x] holds a non-shadow block")
            }
            (InputKind::Shadow, _, Some(_)) | (InputKind::NoShadow, _, Some(_)) => {
                Some("a third element needs kind 3")
            }
            (InputKind::NoShadow, Some(v), None) if is_shadow(v) => Some("[2, x] holds a shadow"),
            (InputKind::Obscured, _, None) => Some("[3, x, null] has no shadow"),
            (InputKind::Obscured, Some(v), Some(_))
                if is_shadow(v) && matches!(v, InputValue::Block(_)) =>
            {
                Some("[3, x, s] with x itself a shadow")
            }
            _ => None,
        };
        if let Some(why) = bad {
            let ptr = Pointer::block(t, &b.id).key("inputs").key(&input.name).into_string();
            report.warn("INPUT_KIND", ptr, why.into());
        }
    }
}
