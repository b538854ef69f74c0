//! The composite actions that do not join blocks: `select_sprite`, `select_stage`,
//! `add_variable`, `add_list`, `add_block`, `detach_blocks`, `delete_block`, with the
//! argument checks, data and error messages of ScratchWorld's server and page scripts; and
//! resolving a block argument (an index of the last observation, or an id) to a block.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value};

use super::args::{index_arg, py_str, ActError, Code};
use super::catalog::VarKind;
use super::jsval;
use super::menus;
use super::observe::{IndexMode, Observation, ObserveMode};
use super::session::{Done, Failed, Outcome, Session};
use super::shape;
use super::toolbox::{self, MessageRef};
use super::view;
use crate::scratch::project::edit::{NewBlock, RemoveMode};
use crate::scratch::project::{BlockIdx, Blocks, Broadcast, Field, List, Literal, Num, Variable};
use crate::scratch::value::case::to_lower;
use crate::scratch::value::number::js_trim;

/// A block argument: the block id, and the argument as echoed in `executed_action`.
pub(crate) struct BlockArg {
    pub id: String,
    pub echo: Value,
}

/// Reads block argument `what` (`source`, `target` or the single block): `<what>BlockIndex`
/// against the index map, or `<what>BlockId` in id mode. `missing` words ScratchWorld's
/// NOT_FOUND message for an index with no block.
pub(crate) fn block_arg(
    s: &mut Session,
    args: &Map<String, Value>,
    index_key: &str,
    id_key: &str,
) -> Result<(Option<super::args::IndexArg>, Option<String>), ActError> {
    match s.config.index {
        IndexMode::Index => match index_arg(args.get(index_key)) {
            Some(i) => Ok((Some(i), None)),
            None => Err(ActError::new(
                Code::InvalidArg,
                alloc::format!("'{index_key}' must be a positive integer"),
            )),
        },
        IndexMode::Id => match args.get(id_key) {
            Some(Value::String(id)) if !id.is_empty() => Ok((None, Some(id.clone()))),
            _ => Err(ActError::new(
                Code::InvalidArg,
                alloc::format!("'{id_key}' must be a block id"),
            )),
        },
    }
}

/// Resolves a read block argument against `map`: the block id, or the NOT_FOUND message
/// `missing(key)` gives.
pub(crate) fn resolve(
    map: &Observation,
    arg: &(Option<super::args::IndexArg>, Option<String>),
    missing: impl Fn(&str) -> String,
) -> Result<BlockArg, ActError> {
    match arg {
        (Some(i), _) => {
            let id = i.value.and_then(|v| i64::try_from(v).ok()).and_then(|v| map.id_at(v));
            match id {
                Some(id) => Ok(BlockArg { id: id.into(), echo: json!(i.value) }),
                None => Err(ActError::new(Code::NotFound, missing(&i.key))),
            }
        }
        (None, Some(id)) => {
            if map.blocks.iter().any(|e| &e.id == id) {
                Ok(BlockArg { id: id.clone(), echo: Value::String(id.clone()) })
            } else {
                Err(ActError::new(Code::NotFound, missing(id)))
            }
        }
        (None, None) => Err(ActError::new(Code::InvalidArg, "no block given")),
    }
}

/// Moves block `id` (and everything below it) out to a new script, listed last, as the
/// editor does when it disconnects a block; nothing happens to a script's first block.
pub(crate) fn pop_to_top(blocks: &mut Blocks, id: &str) {
    let Some(i) = blocks.index_of(id) else { return };
    if blocks.owner(i) == crate::scratch::project::edit::Owner::Root {
        return;
    }
    let pos = blocks.free_spot();
    if blocks.detach(i, pos).is_ok() {
        if let Some(i) = blocks.index_of(id) {
            let last = blocks.len().saturating_sub(1);
            blocks.reorder(i, last);
        }
    }
}

/// `select_sprite {name}`.
pub(crate) fn select_sprite(s: &mut Session, args: &Map<String, Value>) -> Outcome {
    let name = py_str(args, "name", "select_sprite")?;
    if name.is_empty() {
        return Err(ActError::new(Code::InvalidArg, "'name' is required").into());
    }
    let mut executed = Map::new();
    executed.insert("name".into(), Value::String(name.clone()));
    let fail = |error: ActError| Failed { error, executed: Some(executed.clone()) };
    // The name is pasted into the page script between single quotes.
    let Some(name) = jsval::single_quoted(&name) else {
        return Err(fail(ActError::new(
            Code::JavascriptError,
            "Failed to execute JavaScript: SyntaxError: the name breaks the page script's string literal",
        )));
    };
    if name.is_empty() {
        return Err(fail(ActError::new(Code::InvalidArg, "Sprite name is required")));
    }
    let lower = to_lower(&name);
    let found = s.project.targets.iter().position(|t| !t.is_stage && to_lower(&t.name) == lower);
    let Some(t) = found else {
        return Err(fail(ActError::new(
            Code::NotFound,
            alloc::format!("Sprite not found: {name}"),
        )));
    };
    select(s, t);
    let mut data = Map::new();
    data.insert("selected".into(), Value::String(s.project.targets[t].name.clone()));
    data.insert("targetId".into(), Value::String(view::target_id(t)));
    Ok(Done { data, executed, structural: false })
}

fn select(s: &mut Session, t: usize) {
    if s.editing != t {
        s.editing = t;
        s.workspace_update();
    }
}

/// `select_stage {}`.
pub(crate) fn select_stage(s: &mut Session) -> Outcome {
    let t = s.project.stage_index();
    select(s, t);
    let mut data = Map::new();
    data.insert("selected".into(), Value::String(s.project.targets[t].name.clone()));
    data.insert("targetId".into(), Value::String(view::target_id(t)));
    Ok(Done { data, executed: Map::new(), structural: false })
}

/// `add_variable {name, scope}` and `add_list {name, scope}`.
pub(crate) fn add_variable(s: &mut Session, args: &Map<String, Value>, list: bool) -> Outcome {
    let api = if list { "add_list" } else { "add_variable" };
    let name = py_str(args, "name", api)?;
    let scope = py_str(args, "scope", api)?;
    if name.is_empty() {
        return Err(ActError::new(Code::InvalidArg, "'name' is required").into());
    }
    if scope != "sprite" && scope != "all" {
        return Err(ActError::new(Code::InvalidArg, "'scope' must be 'sprite' or 'all'").into());
    }
    let cloud = !list && args.get("cloud").is_some_and(super::args::truthy);
    let mut executed = Map::new();
    executed.insert("name".into(), Value::String(name.clone()));
    executed.insert("scope".into(), Value::String(scope.clone()));
    if !list {
        executed.insert("cloud".into(), Value::Bool(cloud));
    }
    let name = String::from(js_trim(&name));
    if name.is_empty() {
        return Err(Failed {
            error: ActError::new(Code::InvalidName, "Invalid name"),
            executed: Some(executed),
        });
    }
    let local = scope == "sprite";
    let stage = s.project.stage_index();
    let owner = if local { s.editing } else { stage };
    // scratch-vm's lookupVariableByNameAndType: the target's own, then the stage's.
    let mut look = alloc::vec![owner];
    if owner != stage {
        look.push(stage);
    }
    let existing = look.iter().find_map(|&t| {
        let target = &s.project.targets[t];
        if list {
            target.lists.iter().find(|l| l.name == name).map(|l| l.id.clone())
        } else {
            target.variables.iter().find(|v| v.name == name).map(|v| v.id.clone())
        }
    });
    let (id, created) = match existing {
        Some(id) => (id, false),
        None => {
            let id = fresh_decl_id(s);
            let target = &mut s.project.targets[owner];
            if list {
                target.lists.push(List { id: id.clone(), name: name.clone(), items: Vec::new() });
            } else {
                let is_cloud = (cloud && target.is_stage).then_some(true);
                target.variables.push(Variable {
                    id: id.clone(),
                    name: name.clone(),
                    value: Literal::Number(Num::Int(0)),
                    is_cloud,
                });
            }
            (id, true)
        }
    };
    s.workspace_update();
    let mut data = Map::new();
    data.insert(
        "created".into(),
        json!({"name": name, "id": id, "scope": if local { "sprite" } else { "all" }, "created": created}),
    );
    Ok(Done { data, executed, structural: false })
}

/// A fresh id for a variable, list or message, unused in every target.
pub(crate) fn fresh_decl_id(s: &mut Session) -> String {
    let project = &s.project;
    s.ids.next_id(|c| {
        project.targets.iter().any(|t| {
            t.variables.iter().any(|v| v.id == c)
                || t.lists.iter().any(|l| l.id == c)
                || t.broadcasts.iter().any(|b| b.id == c)
        })
    })
}

/// The message a new broadcast menu selects: `message1` (any case), or a new one.
fn default_message(s: &mut Session) -> MessageRef {
    let found = {
        let ctx = s.ctx();
        let vars = menus::workspace_vars(&ctx, VarKind::Broadcast);
        vars.iter().find(|(_, n)| to_lower(n) == toolbox::DEFAULT_MESSAGE).map(|(id, n)| {
            MessageRef { id: String::from(*id), name: String::from(*n), create: false }
        })
    };
    found.unwrap_or_else(|| MessageRef {
        id: fresh_decl_id(s),
        name: toolbox::DEFAULT_MESSAGE.into(),
        create: true,
    })
}

/// `add_block {blockType, creation?}`.
pub(crate) fn add_block(s: &mut Session, args: &Map<String, Value>) -> Outcome {
    let block_type = py_str(args, "blockType", "add_block")?;
    if block_type.is_empty() {
        return Err(ActError::new(Code::InvalidArg, "'blockType' is required").into());
    }
    let creation = args.get("creation").cloned().unwrap_or(Value::Null);
    let mut executed = Map::new();
    executed.insert("blockType".into(), Value::String(block_type.clone()));
    executed.insert("creation".into(), creation.clone());
    let fail = |code, message: String| Failed {
        error: ActError::new(code, message),
        executed: Some(executed.clone()),
    };
    let mut opcode = String::from(js_trim(&block_type));
    if opcode.is_empty() {
        return Err(fail(Code::InvalidType, "Invalid blockType".into()));
    }
    // ScratchWorld's paper spells this opcode without the `t`; gobo's full mode takes both.
    if s.config.mode == ObserveMode::Full && opcode == "event_whenhisspriteclicked" {
        opcode = "event_whenthisspriteclicked".into();
    }
    let wanted = |key: &str| match creation.get(key) {
        Some(Value::String(n)) if !n.is_empty() => Some(n.clone()),
        _ => None,
    };
    let block = if opcode == "data_variable" || opcode == "data_listcontents" {
        let list = opcode == "data_listcontents";
        let (kind, key, field) = if list {
            (VarKind::List, "listName", "LIST")
        } else {
            (VarKind::Scalar, "variableName", "VARIABLE")
        };
        let model = {
            let ctx = s.ctx();
            pick_model(&ctx, kind, wanted(key).as_deref())
        };
        let Some((id, name, is_broadcast)) = model else {
            let label = wanted(key)
                .unwrap_or_else(|| String::from(if list { "any list" } else { "any variable" }));
            let what = if list { "list" } else { "variable" };
            return Err(fail(Code::NotFound, alloc::format!("No {what} found: {label}")));
        };
        if is_broadcast {
            // The reporter's field refuses a message: building it from XML throws.
            return Err(fail(
                Code::XmlError,
                alloc::format!("Serialized variable type with id '{id}' had type broadcast_msg, and does not match variable field that references it"),
            ));
        }
        let mut b = NewBlock::new(&opcode);
        b.fields.push(Field {
            name: field.into(),
            value: Literal::Text(name),
            id: Some(id),
            has_id_slot: true,
        });
        Some(b)
    } else if opcode == "procedures_call" {
        toolbox::first_procedure(&s.ctx()).map(|m| {
            let mut b = NewBlock::new("procedures_call");
            b.mutation = Some(call_mutation(&m));
            b
        })
    } else {
        let message = default_message(s);
        let built = {
            let ctx = s.ctx();
            toolbox::build(&ctx, &opcode, &message)
        };
        built.map(|built| {
            if let Some(m) = built.message.filter(|m| m.create) {
                let stage = s.project.stage_index();
                s.project.targets[stage].broadcasts.push(Broadcast { id: m.id, name: m.name });
            }
            let mut b = built.block;
            bind_variable(s, &mut b, &creation);
            b
        })
    };
    let block_id = match block {
        None => Value::Null,
        Some(b) => {
            let t = s.editing;
            let blocks = &mut s.project.targets[t].blocks;
            let pos = blocks.free_spot();
            match blocks.create(&b, pos, &mut s.ids) {
                Ok(i) => Value::String(blocks.id_of(i)),
                Err(e) => return Err(fail(Code::XmlError, alloc::format!("{e}"))),
            }
        }
    };
    let mut data = Map::new();
    data.insert("blockId".into(), block_id);
    data.insert("connected".into(), Value::Bool(false));
    Ok(Done { data, executed, structural: true })
}

/// The variable or list ScratchWorld binds a new block to: the named one, else the first
/// (`getAllVariables()` without lists, which puts messages among variables, or the lists).
/// The flag says the pick is a broadcast message.
fn pick_model(
    ctx: &super::Ctx<'_>,
    kind: VarKind,
    wanted: Option<&str>,
) -> Option<(String, String, bool)> {
    let all = ctx.workspace_vars();
    let candidates: Vec<(&str, &str, bool)> = match kind {
        VarKind::List => all
            .iter()
            .filter(|e| e.kind == view::VarType::List)
            .map(|e| (e.id, e.name, false))
            .collect(),
        _ => {
            // The workspace groups variables by type, types in order of first appearance.
            let mut order: Vec<view::VarType> = Vec::new();
            for e in &all {
                if e.kind != view::VarType::List && !order.contains(&e.kind) {
                    order.push(e.kind);
                }
            }
            order
                .iter()
                .flat_map(|k| all.iter().filter(move |e| e.kind == *k))
                .map(|e| (e.id, e.name, e.kind == view::VarType::Broadcast))
                .collect()
        }
    };
    let named = wanted.and_then(|w| candidates.iter().find(|c| c.1 == w));
    named.or(candidates.first()).map(|c| (String::from(c.0), String::from(c.1), c.2))
}

/// Binds a new variable or list block's field to `creation`'s name or the first one; a
/// message cannot be bound (the field keeps the template's variable).
fn bind_variable(s: &Session, b: &mut NewBlock, creation: &Value) {
    const LIST_BLOCKS: [&str; 9] = [
        "data_showlist",
        "data_hidelist",
        "data_addtolist",
        "data_deleteoflist",
        "data_insertatlist",
        "data_replaceitemoflist",
        "data_itemoflist",
        "data_itemnumoflist",
        "data_listcontainsitem",
    ];
    const VAR_BLOCKS: [&str; 4] =
        ["data_changevariableby", "data_setvariableto", "data_showvariable", "data_hidevariable"];
    let list = LIST_BLOCKS.contains(&b.opcode.as_str());
    if !list && !VAR_BLOCKS.contains(&b.opcode.as_str()) {
        return;
    }
    let key = if list { "listName" } else { "variableName" };
    let wanted = match creation.get(key) {
        Some(Value::String(n)) if !n.is_empty() => Some(n.as_str()),
        _ => None,
    };
    let ctx = s.ctx();
    let kind = if list { VarKind::List } else { VarKind::Scalar };
    let Some((id, name, is_broadcast)) = pick_model(&ctx, kind, wanted) else { return };
    if is_broadcast {
        return;
    }
    let field = if list { "LIST" } else { "VARIABLE" };
    if let Some(f) = b.fields.iter_mut().find(|f| f.name == field) {
        *f = Field {
            name: field.into(),
            value: Literal::Text(name),
            id: Some(id),
            has_id_slot: true,
        };
    }
}

/// The mutation of a call offered for a prototype: its signature, argument ids and warp.
fn call_mutation(proto: &crate::scratch::project::Mutation) -> crate::scratch::project::Mutation {
    use crate::scratch::project::Json;
    let keep = ["tagName", "children", "proccode", "argumentids", "warp"];
    let raw: Vec<(String, Json)> =
        proto.raw.iter().filter(|(k, _)| keep.contains(&k.as_str())).cloned().collect();
    crate::scratch::project::Mutation {
        proccode: proto.proccode.clone(),
        argument_ids: proto.argument_ids.clone(),
        argument_names: None,
        argument_defaults: None,
        warp: proto.warp,
        has_next: None,
        raw,
    }
}

/// Reads the block argument of `detach_blocks`/`delete_block` and the editing target's index
/// of that block (`None`: not in the workspace, e.g. after a sprite change).
fn single_block(
    s: &mut Session,
    args: &Map<String, Value>,
    index_key: &str,
    missing: impl Fn(&str) -> String,
) -> Result<(BlockArg, Option<BlockIdx>), Failed> {
    let arg = block_arg(s, args, index_key, "blockId")?;
    let map = s.index_map()?;
    let b = resolve(&map, &arg, missing)?;
    let idx = s.project.targets[s.editing].blocks.index_of(&b.id);
    Ok((b, idx))
}

/// `detach_blocks {blockIndex}`: the block and everything below it become a new script; a
/// reporter in an input and a script's first block stay where they are.
pub(crate) fn detach_blocks(s: &mut Session, args: &Map<String, Value>) -> Outcome {
    let (b, idx) =
        single_block(s, args, "blockIndex", |k| alloc::format!("Block not found at index: {k}"))?;
    let key = if s.config.index == IndexMode::Id { "blockId" } else { "blockIndex" };
    let mut executed = Map::new();
    executed.insert(key.into(), b.echo.clone());
    let Some(idx) = idx else {
        let error = ActError::new(Code::NotFound, alloc::format!("Block not found: {}", b.id));
        return Err(Failed { error, executed: Some(executed) });
    };
    let blocks = &mut s.project.targets[s.editing].blocks;
    if shape::conns(blocks, idx).previous {
        pop_to_top(blocks, &b.id);
    }
    let mut data = Map::new();
    data.insert("detached".into(), Value::Bool(true));
    data.insert("blockId".into(), Value::String(b.id.clone()));
    data.insert("topId".into(), Value::String(b.id));
    Ok(Done { data, executed, structural: true })
}

/// `delete_block {blockIndex}`: the block, its inputs and every block below it go (no
/// healing); a reporter's input gets its shadow back, or is left empty.
pub(crate) fn delete_block(s: &mut Session, args: &Map<String, Value>) -> Outcome {
    let key = if args.contains_key("blockIndex") || s.config.index == IndexMode::Id {
        "blockIndex"
    } else {
        "index"
    };
    let (b, idx) = single_block(s, args, key, |k| alloc::format!("Block not found at index {k}"))?;
    let echo_key = if s.config.index == IndexMode::Id { "blockId" } else { "blockIndex" };
    let mut executed = Map::new();
    executed.insert(echo_key.into(), b.echo.clone());
    let Some(idx) = idx else {
        let error = ActError::new(Code::NotFound, "Visual block not found in workspace");
        return Err(Failed { error, executed: Some(executed) });
    };
    let target = &mut s.project.targets[s.editing];
    let opcode = target.blocks.get(idx).map(|blk| blk.opcode.clone()).unwrap_or_default();
    let removed = match target.blocks.delete(idx, RemoveMode::Stack) {
        Ok(r) => r,
        Err(e) => {
            return Err(Failed {
                error: ActError::new(Code::Error, alloc::format!("{e}")),
                executed: Some(executed),
            })
        }
    };
    // The editor deletes the comments attached to deleted blocks.
    let gone: Vec<&str> = removed.iter().map(|r| r.id.as_str()).collect();
    target.comments.retain(|c| !c.block_id.as_deref().is_some_and(|id| gone.contains(&id)));
    let mut data = Map::new();
    data.insert("deleted".into(), Value::Bool(true));
    data.insert("index".into(), b.echo);
    data.insert("blockId".into(), Value::String(b.id.clone()));
    data.insert("blockInfo".into(), json!({"id": b.id, "opcode": opcode}));
    Ok(Done { data, executed, structural: true })
}
