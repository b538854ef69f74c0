//! Injection sites (SPEC §2.4 `SELECTINJECTIONSITE`) and each operator's forward edit: where an
//! operator applies in a project, ranked (0: a script a scenario template can start — green
//! flag, key, click, broadcast, clone, custom block; 1: other hats), and the block-edit patch
//! (`docs/patches.md`) that injects the bug there. Blocks in scripts without a hat never run
//! and are no sites. Inverses are not built here: the patch layer inverts any patch exactly.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{json, Value as Json};

use super::catalog::Operator;
use super::walk::{
    broadcast_name, code_blocks, field_text, hat_at, input_block, input_number, input_primitive,
    script_tops,
};
use crate::scratch::project::{Block, BlockIdx, Blocks, Literal, Primitive, Project, Target};

/// One place an operator applies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Site {
    /// The operator.
    pub operator: Operator,
    /// The target's name (`Stage` for the stage).
    pub sprite: String,
    /// Id of the hat of the script holding the block.
    pub script_top: String,
    /// Id of the block the edit is about.
    pub block: String,
    /// 0: a script the templates can start; 1: other hats.
    pub rank: u8,
    /// The forward patch (block edits).
    #[serde(skip)]
    pub forward: Json,
}

const LOOPS: [&str; 4] =
    ["control_forever", "control_repeat", "control_repeat_until", "control_while"];
const STATE_SETTERS: [&str; 12] = [
    "motion_gotoxy",
    "motion_goto",
    "motion_setx",
    "motion_sety",
    "motion_pointindirection",
    "looks_show",
    "looks_hide",
    "looks_switchcostumeto",
    "looks_setsizeto",
    "looks_seteffectto",
    "data_setvariableto",
    "motion_glidesecstoxy",
];

fn rank_of(hat: &str) -> u8 {
    match hat {
        "event_whenflagclicked"
        | "event_whenkeypressed"
        | "event_whenthisspriteclicked"
        | "event_whenstageclicked"
        | "event_whenbroadcastreceived"
        | "control_start_as_clone"
        | "procedures_definition" => 0,
        _ => 1,
    }
}

/// The chain of stack blocks after `first` (itself included), bounded by the block count.
fn chain(blocks: &Blocks, first: Option<BlockIdx>) -> Vec<BlockIdx> {
    let mut out = Vec::new();
    let mut cur = first;
    while let Some(i) = cur {
        if out.len() > blocks.len() {
            break;
        }
        out.push(i);
        cur = blocks.get(i).and_then(|b| b.next);
    }
    out
}

fn target_name(t: &Target) -> String {
    if t.is_stage {
        String::from("Stage")
    } else {
        t.name.clone()
    }
}

fn remove(t: &Target, b: &Block) -> Json {
    json!([{"op": "remove", "sprite_id": target_name(t), "block_id": b.id}])
}

fn modify(t: &Target, id: &str, path: &str, value: Json) -> Json {
    json!({"op": "modify", "sprite_id": target_name(t), "block_id": id, "path": path, "value": value})
}

/// The block's spec with its ids and file positions (exact), as JSON.
fn exact_spec(blocks: &Blocks, idx: BlockIdx, with_next: bool) -> Option<Json> {
    let spec = crate::scratch::project::patch::exact_spec_public(blocks, idx, with_next)?;
    let bytes = crate::scratch::project::patch::spec_to_json(&spec).to_bytes();
    serde_json::from_slice(&bytes).ok()
}

fn strip_ids(v: &mut Json) {
    match v {
        Json::Object(m) => {
            m.remove("id");
            m.remove("at");
            for (_, x) in m.iter_mut() {
                strip_ids(x);
            }
        }
        Json::Array(a) => a.iter_mut().for_each(strip_ids),
        _ => {}
    }
}

fn literal_json(l: &Literal) -> Option<(Json, Option<f64>)> {
    match l {
        Literal::Number(n) => Some((json!(n.as_f64()), Some(n.as_f64()))),
        Literal::Text(s) => {
            let n = crate::scratch::value::number::parse_js_number(s);
            let numeric = !s.trim().is_empty() && n.is_finite();
            Some((json!(s), numeric.then_some(n)))
        }
        _ => None,
    }
}

fn num_json(n: f64) -> Json {
    if libm::trunc(n) == n && libm::fabs(n) < 9.0e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

fn swapped(op: &str) -> Option<&'static str> {
    Some(match op {
        "operator_lt" => "operator_gt",
        "operator_gt" => "operator_lt",
        "operator_and" => "operator_or",
        "operator_or" => "operator_and",
        _ => return None,
    })
}

/// Messages some `when I receive` hat listens to (lower-cased).
fn received(project: &Project) -> Vec<String> {
    let mut out = Vec::new();
    for t in &project.targets {
        for (_, b) in code_blocks(t) {
            if b.opcode == "event_whenbroadcastreceived" {
                if let Some(m) = field_text(b, "BROADCAST_OPTION") {
                    out.push(crate::scratch::value::case::to_lower(&m));
                }
            }
        }
    }
    out
}

fn fresh_message(project: &Project, base: &str) -> String {
    let taken = |name: &str| {
        project
            .targets
            .iter()
            .any(|t| t.broadcasts.iter().any(|b| b.name.eq_ignore_ascii_case(name)))
    };
    (2..1000)
        .map(|i| format!("{base} {i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| format!("{base} x"))
}

/// A condition block plugged into `CONDITION` of `b`.
fn condition<'a>(blocks: &'a Blocks, b: &Block) -> Option<(&'a Block, BlockIdx)> {
    let i = input_block(b, "CONDITION")?;
    Some((blocks.get(i)?, i))
}

fn guards_stop(blocks: &Blocks, b: &Block) -> bool {
    b.opcode == "control_if"
        && chain(blocks, input_block(b, "SUBSTACK"))
            .iter()
            .any(|&i| blocks.get(i).is_some_and(|x| x.opcode == "control_stop"))
}

/// Every site of `op` in `project`, in target and file order.
pub fn sites_of(project: &Project, op: Operator) -> Vec<Site> {
    let mut out = Vec::new();
    let messages = received(project);
    for t in &project.targets {
        let blocks = &t.blocks;
        let tops = script_tops(blocks);
        // The stack under each hat, computed once per script.
        let mut chains: BTreeMap<BlockIdx, Vec<BlockIdx>> = BTreeMap::new();
        for (idx, b) in code_blocks(t) {
            let Some(&top) = tops.get(idx.get()) else { continue };
            let Some(hat) = hat_at(blocks, top) else { continue };
            if core::ptr::eq(hat, b) {
                // Only handler.dup works on hats.
                if op == Operator::HandlerDup
                    && matches!(
                        b.opcode.as_str(),
                        "event_whenkeypressed"
                            | "event_whenthisspriteclicked"
                            | "event_whenbroadcastreceived"
                            | "event_whenflagclicked"
                    )
                    && b.next.is_some()
                {
                    if let Some(mut spec) = exact_spec(blocks, idx, true) {
                        strip_ids(&mut spec);
                        let fwd = json!([{"op": "add", "sprite_id": target_name(t), "block": spec, "link": {"top": {}}}]);
                        out.push(site(op, t, hat, b, fwd));
                    }
                }
                continue;
            }
            let needs_chain = matches!(
                op,
                Operator::InitRemove
                    | Operator::InitMove
                    | Operator::InitLiteral
                    | Operator::CloneNoinit
            );
            let top_chain: &[BlockIdx] = if needs_chain {
                chains.entry(top).or_insert_with(|| chain(blocks, hat.next))
            } else {
                &[]
            };
            let cx = Cx { project, t, messages: &messages, top: top_chain };
            let forwards = forward(&cx, idx, b, hat, op);
            for fwd in forwards {
                out.push(site(op, t, hat, b, fwd));
            }
        }
    }
    out
}

fn site(op: Operator, t: &Target, hat: &Block, b: &Block, forward: Json) -> Site {
    Site {
        operator: op,
        sprite: target_name(t),
        script_top: hat.id.clone(),
        block: b.id.clone(),
        rank: rank_of(&hat.opcode),
        forward,
    }
}

/// The forward patches of `op` at block `b` (none when it does not apply; several variants
/// for literal and name choices).
/// What `forward` reads around a block.
struct Cx<'a> {
    project: &'a Project,
    t: &'a Target,
    /// Messages some hat receives (lower-cased).
    messages: &'a [String],
    /// The stack under the block's hat (init and clone operators only).
    top: &'a [BlockIdx],
}

fn forward(cx: &Cx<'_>, idx: BlockIdx, b: &Block, hat: &Block, op: Operator) -> Vec<Json> {
    let (project, t, messages, top) = (cx.project, cx.t, cx.messages, cx.top);
    let blocks = &t.blocks;
    let mut out = Vec::new();
    match op {
        Operator::InitRemove | Operator::InitMove | Operator::InitLiteral => {
            let setter = b.opcode == "data_setvariableto"
                || (b.opcode == "data_deletealloflist" && op != Operator::InitLiteral);
            let start = matches!(
                hat.opcode.as_str(),
                "event_whenflagclicked" | "event_whenbroadcastreceived"
            );
            if !setter || !start {
                return out;
            }
            let first_loop = top
                .iter()
                .position(|&i| blocks.get(i).is_some_and(|x| LOOPS.contains(&x.opcode.as_str())));
            let prefix = &top[..first_loop.unwrap_or(top.len())];
            if !prefix.contains(&idx) {
                return out;
            }
            match op {
                Operator::InitRemove => out.push(remove(t, b)),
                Operator::InitMove => {
                    // After the first loop when it ends, else after the last block of the
                    // script when that is not a cap.
                    let after = match first_loop.map(|k| top[k]) {
                        Some(l) if blocks.get(l).is_some_and(|x| x.opcode != "control_forever") => {
                            Some(l)
                        }
                        Some(_) => None,
                        None => top.last().copied().filter(|&l| l != idx),
                    };
                    let after = after.and_then(|a| blocks.get(a)).filter(|a| {
                        !matches!(
                            a.opcode.as_str(),
                            "control_stop" | "control_delete_this_clone" | "control_forever"
                        )
                    });
                    if let (Some(a), Some(spec)) = (after, exact_spec(blocks, idx, false)) {
                        let name = target_name(t);
                        out.push(json!([
                            {"op": "remove", "sprite_id": name, "block_id": b.id},
                            {"op": "add", "sprite_id": name, "block": spec, "link": {"after": a.id}}
                        ]));
                    }
                }
                _ => {
                    let Some(Primitive::Literal { value, .. }) = input_primitive(b, "VALUE") else {
                        return out;
                    };
                    let new = match literal_json(value) {
                        Some((_, Some(0.0))) => json!(1),
                        Some((_, Some(n))) => num_json(n + 1.0),
                        Some((Json::String(s), None)) if !s.is_empty() => json!(""),
                        _ => return out,
                    };
                    out.push(json!([modify(t, &b.id, "inputs/VALUE", new)]));
                }
            }
        }
        Operator::SyncNowait if b.opcode == "event_broadcastandwait" => {
            out.push(json!([modify(t, &b.id, "opcode", json!("event_broadcast"))]));
        }
        Operator::SyncDropwait
            if b.opcode == "control_wait"
                && input_number(blocks, b, "DURATION").is_some_and(|d| d > 0.0 && d <= 1.0) =>
        {
            out.push(remove(t, b));
        }
        Operator::EventRename | Operator::EventDropemit
            if matches!(b.opcode.as_str(), "event_broadcast" | "event_broadcastandwait") =>
        {
            let Some(msg) = broadcast_name(blocks, b) else { return out };
            if !messages.contains(&crate::scratch::value::case::to_lower(&msg)) {
                return out;
            }
            if op == Operator::EventDropemit {
                out.push(remove(t, b));
            } else if matches!(
                input_primitive(b, "BROADCAST_INPUT"),
                Some(Primitive::Reference { .. })
            ) {
                let fresh = fresh_message(project, &msg);
                out.push(json!([
                    {"op": "add", "sprite_id": "Stage", "broadcast": {"name": fresh}},
                    modify(t, &b.id, "inputs/BROADCAST_INPUT", json!(fresh))
                ]));
            }
        }
        Operator::LoopFlip | Operator::LoopThreshold
            if matches!(b.opcode.as_str(), "control_repeat_until" | "control_wait_until")
                || guards_stop(blocks, b) =>
        {
            let Some((c, _)) = condition(blocks, b) else { return out };
            if op == Operator::LoopFlip {
                if let Some(new) = swapped(&c.opcode)
                    .filter(|_| matches!(c.opcode.as_str(), "operator_lt" | "operator_gt"))
                {
                    out.push(json!([modify(t, &c.id, "opcode", json!(new))]));
                }
            } else if matches!(c.opcode.as_str(), "operator_lt" | "operator_gt" | "operator_equals")
            {
                for name in ["OPERAND2", "OPERAND1"] {
                    let Some(n) = input_number(blocks, c, name) else { continue };
                    if input_block(c, name).is_some() {
                        continue;
                    }
                    let new = if c.opcode == "operator_equals" {
                        n + 1.0
                    } else if n == 0.0 {
                        10.0
                    } else {
                        n * 10.0
                    };
                    out.push(json!([modify(t, &c.id, &format!("inputs/{name}"), num_json(new))]));
                    break;
                }
            }
        }
        Operator::CondFlip | Operator::CondSwap
            if matches!(b.opcode.as_str(), "control_if" | "control_if_else") =>
        {
            let Some((c, _)) = condition(blocks, b) else { return out };
            if op == Operator::CondFlip {
                if let Some(new) = swapped(&c.opcode) {
                    out.push(json!([modify(t, &c.id, "opcode", json!(new))]));
                }
            } else if matches!(c.opcode.as_str(), "operator_lt" | "operator_gt" | "operator_equals")
            {
                let text = |n: &str| super::walk::input_text(blocks, c, n);
                let (b1, b2) = (input_block(c, "OPERAND1"), input_block(c, "OPERAND2"));
                let lit = |i: Option<BlockIdx>, n: &str| if i.is_none() { text(n) } else { None };
                match (b1, b2, lit(b1, "OPERAND1"), lit(b2, "OPERAND2")) {
                    (None, None, Some(x), Some(y)) if x != y => out.push(json!([
                        modify(t, &c.id, "inputs/OPERAND1", json!(y)),
                        modify(t, &c.id, "inputs/OPERAND2", json!(x))
                    ])),
                    (Some(r), None, None, Some(y)) => {
                        if let Some(rb) = blocks.get(r).filter(|r| !r.shadow) {
                            out.push(json!([
                                modify(t, &c.id, "inputs/OPERAND2/block", json!(rb.id)),
                                modify(t, &c.id, "inputs/OPERAND1", json!(y))
                            ]));
                        }
                    }
                    (None, Some(r), Some(x), None) => {
                        if let Some(rb) = blocks.get(r).filter(|r| !r.shadow) {
                            out.push(json!([
                                modify(t, &c.id, "inputs/OPERAND1/block", json!(rb.id)),
                                modify(t, &c.id, "inputs/OPERAND2", json!(x))
                            ]));
                        }
                    }
                    _ => {}
                }
            }
        }
        Operator::CondVar
            if matches!(b.opcode.as_str(), "data_setvariableto" | "data_changevariableby") =>
        {
            let Some(current) = b.field("VARIABLE").and_then(|f| f.id.clone()) else { return out };
            let stage = project.stage();
            let mut visible: Vec<(String, String)> =
                t.variables.iter().map(|v| (v.name.clone(), v.id.clone())).collect();
            if !t.is_stage {
                if let Some(s) = stage {
                    visible.extend(s.variables.iter().map(|v| (v.name.clone(), v.id.clone())));
                }
            }
            visible.sort();
            for (name, id) in visible.into_iter().filter(|(_, id)| *id != current) {
                out.push(json!([modify(t, &b.id, "fields/VARIABLE", json!([name, id]))]));
            }
        }
        Operator::LookRemove
            if matches!(
                b.opcode.as_str(),
                "looks_show"
                    | "looks_hide"
                    | "looks_switchcostumeto"
                    | "looks_switchbackdropto"
                    | "looks_nextcostume"
            ) =>
        {
            out.push(remove(t, b));
        }
        Operator::LookSwap
            if matches!(b.opcode.as_str(), "looks_switchcostumeto" | "looks_switchbackdropto") =>
        {
            let (input, field, owner) = if b.opcode == "looks_switchcostumeto" {
                ("COSTUME", "COSTUME", Some(t))
            } else {
                ("BACKDROP", "BACKDROP", project.stage())
            };
            let Some(menu) = input_block(b, input).and_then(|i| blocks.get(i)).filter(|m| m.shadow)
            else {
                return out;
            };
            let Some(now) = field_text(menu, field) else { return out };
            let Some(owner) = owner else { return out };
            for c in owner.costumes.iter().filter(|c| c.name != now) {
                out.push(json!([modify(t, &menu.id, &format!("fields/{field}"), json!(c.name))]));
            }
        }
        Operator::CloneNodelete if b.opcode == "control_delete_this_clone" => {
            out.push(remove(t, b))
        }
        Operator::CloneNoinit if hat.opcode == "control_start_as_clone" => {
            let first = top.iter().copied().find(|&i| {
                blocks.get(i).is_some_and(|x| STATE_SETTERS.contains(&x.opcode.as_str()))
            });
            if first == Some(idx) {
                out.push(remove(t, b));
            }
        }
        Operator::HandlerUngate
            if b.opcode == "control_if" && input_block(b, "SUBSTACK").is_some() =>
        {
            out.push(json!([{"op": "remove", "sprite_id": target_name(t), "block_id": b.id, "mode": "unwrap"}]));
        }
        _ => {}
    }
    out
}

/// Every site of every operator of `ops`, ordered by rank, then operator, then file order.
pub fn sites(project: &Project, ops: &[Operator]) -> Vec<Site> {
    let mut all: Vec<Site> = ops.iter().flat_map(|&op| sites_of(project, op)).collect();
    all.sort_by_key(|s| s.rank);
    all
}
