//! Loads a target's `blocks` map into [`Blocks`]: block objects and top-level primitive arrays,
//! inputs, fields and mutations. Linking the ids they name is [`super::refs`]'s job.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::blocks::{
    Block, BlockForm, BlockIdx, Blocks, Field, Input, InputKind, InputValue, Mutation, Primitive,
    PrimitiveKind,
};
use super::error::{LoadError, Path};
use super::json::{Json, Num};
use super::model::{Extra, Literal};
use super::read::{array, boolean, literal, loose_bool, number, object, opt_string, string};
use super::refs::{link, Report};

/// Where an unresolved block id was written.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Slot {
    Next,
    Parent,
    /// Second element of input `n`.
    InputValue(usize),
    /// Third element of input `n`.
    InputShadow(usize),
}

/// A block id awaiting resolution.
#[derive(Debug)]
pub(crate) struct Pending {
    pub(crate) block: usize,
    pub(crate) slot: Slot,
    pub(crate) id: String,
}

/// Placeholder index until references are resolved.
pub(crate) const UNRESOLVED: BlockIdx = BlockIdx(u32::MAX);

pub(crate) fn load_blocks(
    node: Json,
    path: &Path,
    report: &mut Report,
) -> Result<Blocks, LoadError> {
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
    link(&mut blocks, pending, path, report)?;
    if let Some(b) = super::nesting::too_deep(&blocks, super::MAX_NESTING) {
        let id = blocks.get(b).map(|b| b.id.clone()).unwrap_or_default();
        return Err(LoadError::TooDeep { path: path.render(), id, limit: super::MAX_NESTING });
    }
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

impl Mutation {
    /// A mutation from its attributes as `project.json` holds them (`tagName`, `proccode`,
    /// `argumentids` as a string holding a JSON array, ...), parsed as the loader does.
    pub fn from_raw(raw: Vec<(String, Json)>) -> Result<Mutation, LoadError> {
        mutation_from_raw(raw, &Path::ROOT.key("mutation"))
    }
}

fn load_mutation(node: Json, path: &Path) -> Result<Mutation, LoadError> {
    mutation_from_raw(object(node, path)?, path)
}

fn mutation_from_raw(raw: Vec<(String, Json)>, path: &Path) -> Result<Mutation, LoadError> {
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
