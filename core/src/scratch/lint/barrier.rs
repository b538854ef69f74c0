//! Barrier findings of a patch (base project → patched project): a `broadcast and wait`
//! replaced by `broadcast` and a literal `wait` or followed by a polling loop
//! (`barrier.delay_substitute`), and one removed while its receivers write state that the
//! script reads after it (`barrier.removed`).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::binding::base_target;
use super::refs::{refs_of, Kind};
use super::{finding, Code, Finding};
use crate::scratch::forge::hooks::hooks;
use crate::scratch::forge::walk::{broadcast_name, input_block, input_number};
use crate::scratch::project::{Block, BlockIdx, Blocks, InputValue, Project, Target};

const AND_WAIT: &str = "event_broadcastandwait";

/// How many `broadcast and wait` blocks of each message (lower-cased) a target holds.
fn and_waits(t: &Target) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for b in t.blocks.as_slice().iter().filter(|b| b.opcode == AND_WAIT) {
        let m = broadcast_name(&t.blocks, b).unwrap_or_default().to_lowercase();
        *out.entry(m).or_insert(0) += 1;
    }
    out
}

/// Whether `b` (a block of `blocks`) or anything plugged into it reads a variable or list.
fn reads_state(blocks: &Blocks, b: &Block) -> bool {
    let mut names = BTreeSet::new();
    subtree_reads(blocks, b, &mut names, blocks.len());
    !names.is_empty()
}

/// `barrier.delay_substitute`: a `broadcast` of the patched project directly followed by a
/// literal `wait` where the base had a `broadcast and wait` of that message the patch removed,
/// or directly followed by a `wait until` / `repeat until` polling state, when that pair is new.
pub(super) fn delay_substitute(base: &Project, project: &Project, out: &mut Vec<Finding>) {
    for t in &project.targets {
        let Some(bt) = base_target(base, t) else { continue };
        let (before, after) = (and_waits(bt), and_waits(t));
        for b in t.blocks.as_slice().iter().filter(|b| b.opcode == "event_broadcast") {
            let Some(next) = b.next.and_then(|n| t.blocks.get(n)) else { continue };
            let was_pair =
                bt.blocks.index_of(&b.id).and_then(|i| bt.blocks.get(i)).is_some_and(|ob| {
                    ob.opcode == b.opcode
                        && ob.next.and_then(|n| bt.blocks.get(n)).is_some_and(|n| n.id == next.id)
                });
            if was_pair {
                continue;
            }
            let message = broadcast_name(&t.blocks, b).unwrap_or_else(|| String::from("?"));
            let key = message.to_lowercase();
            let lost =
                before.get(&key).copied().unwrap_or(0) > after.get(&key).copied().unwrap_or(0);
            let why = match next.opcode.as_str() {
                "control_wait" if lost => match input_number(&t.blocks, next, "DURATION") {
                    Some(secs) => format!(
                        "the patch replaced 'broadcast [{message}] and wait' by 'broadcast' and \
                         a literal 'wait {secs}' (block {}): the receivers may take longer",
                        next.id
                    ),
                    None => continue,
                },
                "control_wait_until" | "control_repeat_until"
                    if input_block(next, "CONDITION")
                        .and_then(|c| t.blocks.get(c))
                        .is_some_and(|c| reads_state(&t.blocks, c)) =>
                {
                    format!(
                        "the patch polls a flag ({} block {}) right after 'broadcast [{message}]' \
                         instead of 'broadcast [{message}] and wait'",
                        next.opcode, next.id
                    )
                }
                _ => continue,
            };
            out.push(finding(Code::BarrierDelaySubstitute, &t.name, Some(&b.id), why));
        }
    }
}

/// `barrier.removed`: a `broadcast and wait` of the base that the patch removed (or turned into
/// another block), when the receivers of its message write a variable or list that its script
/// reads after it.
pub(super) fn removed(base: &Project, project: &Project, out: &mut Vec<Finding>) {
    let mut written: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for h in hooks(base) {
        if let Some(m) = h.trigger.strip_prefix("broadcast:") {
            let w = written.entry(m.to_lowercase()).or_default();
            w.extend(h.writes.iter().filter_map(|s| {
                s.strip_prefix("vars:").or_else(|| s.strip_prefix("lists:")).map(String::from)
            }));
        }
    }
    for bt in &base.targets {
        let now = project.targets.iter().find(|t| t.name == bt.name && t.is_stage == bt.is_stage);
        let after = now.map(and_waits).unwrap_or_default();
        let before = and_waits(bt);
        for (idx, x) in bt.blocks.iter().filter(|(_, b)| b.opcode == AND_WAIT) {
            let kept = now.is_some_and(|t| {
                t.blocks
                    .index_of(&x.id)
                    .and_then(|i| t.blocks.get(i))
                    .is_some_and(|b| b.opcode == AND_WAIT)
            });
            let message = broadcast_name(&bt.blocks, x).unwrap_or_else(|| String::from("?"));
            let key = message.to_lowercase();
            if kept
                || after.get(&key).copied().unwrap_or(0) >= before.get(&key).copied().unwrap_or(0)
            {
                continue;
            }
            let Some(writes) = written.get(&key) else { continue };
            let reads = reads_after(&bt.blocks, idx);
            let shared: Vec<&str> = writes.intersection(&reads).map(String::as_str).collect();
            if shared.is_empty() {
                continue;
            }
            let what = match now.and_then(|t| t.blocks.index_of(&x.id)) {
                Some(_) => "replaced",
                None => "removed",
            };
            out.push(finding(
                Code::BarrierRemoved,
                &bt.name,
                Some(&x.id),
                format!(
                    "the patch {what} 'broadcast [{message}] and wait'; the receivers of \
                     {message:?} write {}, which the script reads after it, so the read may now \
                     happen before the write",
                    shared.join(", ")
                ),
            ));
        }
    }
}

/// Variable and list names read by `b` and everything plugged into it (inputs, substacks).
fn subtree_reads(blocks: &Blocks, b: &Block, out: &mut BTreeSet<String>, budget: usize) {
    let mut stack: Vec<&Block> = alloc::vec![b];
    let mut steps = 0usize;
    while let Some(b) = stack.pop() {
        steps += 1;
        if steps > budget + 1 {
            return;
        }
        out.extend(
            refs_of(b)
                .into_iter()
                .filter(|r| matches!(r.kind, Kind::Variable | Kind::List))
                .map(|r| r.name),
        );
        for input in &b.inputs {
            for v in [&input.value, &input.shadow] {
                if let Some(InputValue::Block(i)) = v {
                    if let Some(c) = blocks.get(*i) {
                        stack.push(c);
                        // A substack's following blocks are part of it.
                        let mut n = c.next;
                        let mut guard = 0usize;
                        while let Some(k) = n.and_then(|k| blocks.get(k)) {
                            guard += 1;
                            if guard > budget {
                                break;
                            }
                            stack.push(k);
                            n = k.next;
                        }
                    }
                }
            }
        }
    }
}

/// What runs after block `x` in its script: the rest of its stack, then, for each enclosing
/// C-block, its condition (a loop evaluates it again) and the rest of the enclosing stack.
fn reads_after(blocks: &Blocks, x: BlockIdx) -> BTreeSet<String> {
    let budget = blocks.len();
    let mut out = BTreeSet::new();
    let mut cur = x;
    for _ in 0..=budget {
        let mut n = blocks.get(cur).and_then(|b| b.next);
        let mut guard = 0usize;
        while let Some(b) = n.and_then(|i| blocks.get(i)) {
            guard += 1;
            if guard > budget {
                break;
            }
            subtree_reads(blocks, b, &mut out, budget);
            n = b.next;
        }
        // The head of cur's stack, then the block that holds the stack.
        let mut head = cur;
        let mut guard = 0usize;
        let container = loop {
            let Some(p) = blocks.get(head).and_then(|b| b.parent) else { break None };
            guard += 1;
            if guard > budget {
                break None;
            }
            match blocks.get(p) {
                Some(pb) if pb.next == Some(head) => head = p,
                Some(_) => break Some(p),
                None => break None,
            }
        };
        let Some(c) = container else { break };
        if let Some(cb) = blocks.get(c) {
            if let Some(cond) = input_block(cb, "CONDITION").and_then(|i| blocks.get(i)) {
                subtree_reads(blocks, cond, &mut out, budget);
            }
        }
        cur = c;
    }
    out
}
