//! Loads a target's `blocks` map into [`Blocks`]: block objects and top-level primitive arrays,
//! inputs, fields and mutations, then resolves `next`/`parent`/input ids to indices and checks
//! that the references form a forest. Every walk is iterative, so a million-deep script costs
//! linear time and constant Rust stack.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::blocks::{
    Block, BlockForm, BlockIdx, Blocks, Field, Input, InputKind, InputValue, Mutation, Primitive,
    PrimitiveKind,
};
use super::error::{LoadError, Path};
use super::json::{Json, Num};
use super::model::{Extra, Literal};
use super::read::{array, boolean, literal, loose_bool, number, object, opt_string, string};

/// Where an unresolved block id was written.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Next,
    Parent,
    /// Second element of input `n`.
    InputValue(usize),
    /// Third element of input `n`.
    InputShadow(usize),
}

/// A block id awaiting resolution.
#[derive(Debug)]
struct Pending {
    block: usize,
    slot: Slot,
    id: String,
}

/// Placeholder index until references are resolved.
const UNRESOLVED: BlockIdx = BlockIdx(u32::MAX);

pub(crate) fn load_blocks(node: Json, path: &Path) -> Result<Blocks, LoadError> {
    let pairs = object(node, path)?;
    if pairs.len() >= u32::MAX as usize {
        return Err(LoadError::TooLarge { path: path.render(), limit: u32::MAX as usize - 1 });
    }
    let mut list = Vec::with_capacity(pairs.len());
    let mut pending = Vec::new();
    for (id, value) in pairs {
        let index = list.len();
        let block = {
            let p = path.key(&id);
            match value {
                Json::Array(items) => top_level_primitive(items, &p)?,
                other => block_object(other, &p, index, &mut pending)?,
            }
        };
        list.push(Block { id, ..block });
    }
    let mut by_id = BTreeMap::new();
    for (i, b) in list.iter().enumerate() {
        by_id.insert(b.id.clone(), BlockIdx(i as u32));
    }
    let mut blocks = Blocks { list, by_id };
    resolve(&mut blocks, pending, path)?;
    check_forest(&blocks, path)?;
    check_parents(&blocks, path)?;
    Ok(blocks)
}

fn empty_block(opcode: &str, form: BlockForm) -> Block {
    Block {
        id: String::new(),
        opcode: String::from(opcode),
        next: None,
        parent: None,
        inputs: Vec::new(),
        fields: Vec::new(),
        shadow: false,
        top_level: false,
        x: None,
        y: None,
        comment: None,
        mutation: None,
        form,
        extra: Extra::new(),
    }
}

/// A `[12, name, id, x, y]`-style entry of the blocks map, expanded as scratch-vm does.
fn top_level_primitive(items: Vec<Json>, path: &Path) -> Result<Block, LoadError> {
    let len = items.len();
    let mut items = items.into_iter();
    let head: Vec<Json> = items.by_ref().take(len.min(3)).collect();
    let prim = primitive(head, path)?;
    let kind = prim.kind();
    let mut block = empty_block(kind.opcode(), BlockForm::Primitive(kind));
    match prim {
        Primitive::Literal { value, .. } => {
            if len != 2 {
                return Err(path.invalid("a top-level literal primitive is [code, value]"));
            }
            block.fields.push(Field {
                name: String::from(kind.field_name()),
                value,
                id: None,
                has_id_slot: false,
            });
        }
        Primitive::Reference { name, id, .. } => {
            if len == 5 {
                let (Some(x), Some(y)) = (items.next(), items.next()) else {
                    return Err(path.invalid("a top-level reference primitive lost its x, y"));
                };
                block.x = Some(number(x, &path.index(3))?);
                block.y = Some(number(y, &path.index(4))?);
                block.top_level = true;
            } else if len != 3 {
                return Err(path.invalid("a top-level reference is [code, name, id, x, y]"));
            }
            block.fields.push(Field {
                name: String::from(kind.field_name()),
                value: Literal::Text(name),
                id: Some(id),
                has_id_slot: true,
            });
        }
    }
    Ok(block)
}

/// A compressed primitive array: `[4..=10, value]` or `[11..=13, name, id]`.
fn primitive(items: Vec<Json>, path: &Path) -> Result<Primitive, LoadError> {
    let mut items = items.into_iter();
    let code = match items.next() {
        Some(Json::Number(Num::Int(c))) => c,
        Some(other) => return Err(path.index(0).type_err("a primitive type code", &other)),
        None => return Err(path.invalid("an empty primitive array")),
    };
    let Some(kind) = PrimitiveKind::from_code(code) else {
        return Err(path.index(0).invalid("primitive type code must be 4 to 13"));
    };
    if kind.is_reference() {
        let (Some(name), Some(id), None) = (items.next(), items.next(), items.next()) else {
            return Err(path.invalid("a broadcast/variable/list primitive is [code, name, id]"));
        };
        Ok(Primitive::Reference {
            kind,
            name: string(name, &path.index(1))?,
            id: string(id, &path.index(2))?,
        })
    } else {
        let (Some(value), None) = (items.next(), items.next()) else {
            return Err(path.invalid("a literal primitive is [code, value]"));
        };
        Ok(Primitive::Literal { kind, value: literal(value, &path.index(1))? })
    }
}

fn block_object(
    node: Json,
    path: &Path,
    index: usize,
    pending: &mut Vec<Pending>,
) -> Result<Block, LoadError> {
    let mut block = empty_block("", BlockForm::Object);
    let mut opcode = None;
    for (key, value) in object(node, path)? {
        let p = path.key(&key);
        match key.as_str() {
            "opcode" => opcode = Some(string(value, &p)?),
            "next" => {
                if let Some(id) = opt_string(value, &p)? {
                    pending.push(Pending { block: index, slot: Slot::Next, id });
                }
            }
            "parent" => {
                if let Some(id) = opt_string(value, &p)? {
                    pending.push(Pending { block: index, slot: Slot::Parent, id });
                }
            }
            "inputs" => {
                for (name, input) in object(value, &p)? {
                    let n = block.inputs.len();
                    let input = load_input(name, input, &p, index, n, pending)?;
                    block.inputs.push(input);
                }
            }
            "fields" => {
                for (name, field) in object(value, &p)? {
                    let field = load_field(name, field, &p)?;
                    block.fields.push(field);
                }
            }
            "shadow" => block.shadow = boolean(value, &p)?,
            "topLevel" => block.top_level = boolean(value, &p)?,
            "x" => block.x = Some(number(value, &p)?),
            "y" => block.y = Some(number(value, &p)?),
            "comment" => block.comment = opt_string(value, &p)?,
            "mutation" => block.mutation = Some(load_mutation(value, &p)?),
            _ => block.extra.push((key, value)),
        }
    }
    block.opcode = opcode.ok_or_else(|| path.missing("opcode"))?;
    Ok(block)
}

fn load_input(
    name: String,
    node: Json,
    parent: &Path,
    block: usize,
    n: usize,
    pending: &mut Vec<Pending>,
) -> Result<Input, LoadError> {
    let path = parent.key(&name);
    let items = array(node, &path)?;
    let len = items.len();
    let mut items = items.into_iter();
    let kind = match items.next() {
        Some(Json::Number(Num::Int(1))) => InputKind::Shadow,
        Some(Json::Number(Num::Int(2))) => InputKind::NoShadow,
        Some(Json::Number(Num::Int(3))) => InputKind::Obscured,
        Some(_) => return Err(path.index(0).invalid("input kind must be 1, 2 or 3")),
        None => return Err(path.invalid("an empty input array")),
    };
    if !(2..=3).contains(&len) {
        return Err(path.invalid("an input is [kind, value] or [kind, value, shadow]"));
    }
    let mut slot_value = |node: Option<Json>, at: usize, slot: Slot| match node {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(id)) => {
            pending.push(Pending { block, slot, id });
            Ok(Some(InputValue::Block(UNRESOLVED)))
        }
        Some(Json::Array(prim)) => {
            Ok(Some(InputValue::Primitive(primitive(prim, &path.index(at))?)))
        }
        Some(other) => {
            Err(path.index(at).type_err("a block id, a primitive array or null", &other))
        }
    };
    let value = slot_value(items.next(), 1, Slot::InputValue(n))?;
    let shadow = slot_value(items.next(), 2, Slot::InputShadow(n))?;
    Ok(Input { name, kind, value, shadow })
}

fn load_field(name: String, node: Json, parent: &Path) -> Result<Field, LoadError> {
    let path = parent.key(&name);
    let mut items = array(node, &path)?.into_iter();
    let (Some(value), id, None) = (items.next(), items.next(), items.next()) else {
        return Err(path.invalid("a field is [value] or [value, id]"));
    };
    let value = literal(value, &path.index(0))?;
    let has_id_slot = id.is_some();
    let id = match id {
        Some(id) => opt_string(id, &path.index(1))?,
        None => None,
    };
    Ok(Field { name, value, id, has_id_slot })
}

fn load_mutation(node: Json, path: &Path) -> Result<Mutation, LoadError> {
    let raw = object(node, path)?;
    let mut m = Mutation {
        proccode: None,
        argument_ids: None,
        argument_names: None,
        argument_defaults: None,
        warp: false,
        has_next: None,
        raw: Vec::new(),
    };
    for (key, value) in &raw {
        let p = path.key(key);
        match key.as_str() {
            "proccode" => m.proccode = Some(string(value.clone(), &p)?),
            "argumentids" => m.argument_ids = Some(string_list(value, &p)?),
            "argumentnames" => m.argument_names = Some(string_list(value, &p)?),
            "argumentdefaults" => {
                let mut defaults = Vec::new();
                for (i, item) in embedded_array(value, &p)?.into_iter().enumerate() {
                    defaults.push(literal(item, &p.index(i))?);
                }
                m.argument_defaults = Some(defaults);
            }
            "warp" => m.warp = loose_bool(value, &p)?,
            "hasnext" => m.has_next = Some(loose_bool(value, &p)?),
            _ => {}
        }
    }
    m.raw = raw;
    Ok(m)
}

/// A mutation attribute holding a JSON array inside a string (`"[\"a\",\"b\"]"`).
fn embedded_array(node: &Json, path: &Path) -> Result<Vec<Json>, LoadError> {
    let Json::String(text) = node else {
        return Err(path.type_err("a string holding a JSON array", node));
    };
    match Json::parse(text.as_bytes()) {
        Ok(Json::Array(items)) => Ok(items),
        _ => Err(path.invalid("not a JSON array inside the string")),
    }
}

fn string_list(node: &Json, path: &Path) -> Result<Vec<String>, LoadError> {
    let mut out = Vec::new();
    for (i, item) in embedded_array(node, path)?.into_iter().enumerate() {
        out.push(string(item, &path.index(i))?);
    }
    Ok(out)
}

/// Renders the path of a reference slot for an error message.
fn slot_path(blocks: &Blocks, path: &Path, block: usize, slot: Slot) -> String {
    let Some(b) = blocks.list.get(block) else {
        return path.render();
    };
    let bp = path.key(&b.id);
    let input_path = |n: usize, at: usize| match b.inputs.get(n) {
        Some(input) => bp.key("inputs").key(&input.name).index(at).render(),
        None => bp.key("inputs").render(),
    };
    match slot {
        Slot::Next => bp.key("next").render(),
        Slot::Parent => bp.key("parent").render(),
        Slot::InputValue(n) => input_path(n, 1),
        Slot::InputShadow(n) => input_path(n, 2),
    }
}

fn resolve(blocks: &mut Blocks, pending: Vec<Pending>, path: &Path) -> Result<(), LoadError> {
    for p in pending {
        let Some(target) = blocks.by_id.get(&p.id).copied() else {
            return Err(LoadError::DanglingBlock {
                path: slot_path(blocks, path, p.block, p.slot),
                id: p.id,
            });
        };
        let Some(b) = blocks.list.get_mut(p.block) else {
            continue;
        };
        let input_slot = |inputs: &mut Vec<Input>, n: usize, shadow: bool| {
            if let Some(input) = inputs.get_mut(n) {
                let value = if shadow { &mut input.shadow } else { &mut input.value };
                *value = Some(InputValue::Block(target));
            }
        };
        match p.slot {
            Slot::Next => b.next = Some(target),
            Slot::Parent => b.parent = Some(target),
            Slot::InputValue(n) => input_slot(&mut b.inputs, n, false),
            Slot::InputShadow(n) => input_slot(&mut b.inputs, n, true),
        }
    }
    Ok(())
}

/// The child edges of a block (`next`, then input values and shadows), with their slots.
fn children(b: &Block) -> impl Iterator<Item = (Slot, BlockIdx)> + '_ {
    let next = b.next.map(|n| (Slot::Next, n));
    let inputs = b.inputs.iter().enumerate().flat_map(|(n, input)| {
        let value = match input.value {
            Some(InputValue::Block(i)) => Some((Slot::InputValue(n), i)),
            _ => None,
        };
        let shadow = match input.shadow {
            Some(InputValue::Block(i)) => Some((Slot::InputShadow(n), i)),
            _ => None,
        };
        value.into_iter().chain(shadow)
    });
    next.into_iter().chain(inputs)
}

/// Checks that `next` and input references form a forest: no block is the child of two
/// places, and every block is reachable from a block that is nobody's child.
fn check_forest(blocks: &Blocks, path: &Path) -> Result<(), LoadError> {
    let n = blocks.list.len();
    // The unique block whose `next` or input holds each block.
    let mut owner: Vec<Option<u32>> = vec![None; n];
    for (i, b) in blocks.list.iter().enumerate() {
        for (slot, child) in children(b) {
            let Some(o) = owner.get_mut(child.get()) else {
                continue;
            };
            if o.is_some() {
                let id = blocks.list.get(child.get()).map(|c| c.id.clone());
                return Err(LoadError::SharedBlock {
                    path: slot_path(blocks, path, i, slot),
                    id: id.unwrap_or_default(),
                });
            }
            *o = Some(i as u32);
        }
    }
    // Walk down from the roots with an explicit stack.
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| owner[i].is_none()).collect();
    while let Some(i) = stack.pop() {
        let Some(b) = blocks.list.get(i) else {
            continue;
        };
        if let Some(s) = seen.get_mut(i) {
            *s = true;
        }
        stack.extend(children(b).map(|(_, c)| c.get()));
    }
    let Some(start) = seen.iter().position(|s| !s) else {
        return Ok(());
    };
    // Every unreachable block hangs below a cycle; climb owners to a block on it.
    let mut climbed = vec![false; n];
    let mut at = start;
    while let Some(false) = climbed.get(at).copied() {
        climbed[at] = true;
        match owner.get(at).copied().flatten() {
            Some(o) => at = o as usize,
            None => break,
        }
    }
    Err(LoadError::Cycle {
        path: path.render(),
        id: blocks.list.get(at).map(|b| b.id.clone()).unwrap_or_default(),
    })
}

/// Checks that following `parent` never loops.
fn check_parents(blocks: &Blocks, path: &Path) -> Result<(), LoadError> {
    const UNVISITED: u32 = u32::MAX;
    const DONE: u32 = u32::MAX - 1;
    // For each block: UNVISITED, DONE, or the start index of the walk now visiting it.
    let mut state = vec![UNVISITED; blocks.list.len()];
    for start in 0..blocks.list.len() {
        let mut at = Some(start);
        while let Some(i) = at {
            match state.get(i).copied() {
                Some(UNVISITED) => {
                    state[i] = start as u32;
                    at = blocks.list.get(i).and_then(|b| b.parent).map(|p| p.get());
                }
                Some(s) if s == start as u32 => {
                    return Err(LoadError::Cycle {
                        path: path.render(),
                        id: blocks.list.get(i).map(|b| b.id.clone()).unwrap_or_default(),
                    });
                }
                _ => break,
            }
        }
        // Mark this walk's blocks done.
        let mut at = Some(start);
        while let Some(i) = at {
            if state.get(i).copied() != Some(start as u32) {
                break;
            }
            state[i] = DONE;
            at = blocks.list.get(i).and_then(|b| b.parent).map(|p| p.get());
        }
    }
    Ok(())
}
