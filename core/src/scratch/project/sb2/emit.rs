//! Converted targets → Scratch 3 `project.json` (as a [`Json`] tree), written the way
//! scratch-vm's Scratch 3 serializer writes its runtime state: primitive shadows compressed
//! into the inputs that use them (`[4, 10]`, `[12, name, id]`...), inputs as `[1, shadow]`,
//! `[2, block]` or `[3, block, shadow]`, and target keys in the serializer's order.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::jsval::num_json;
use super::{AssetFile, CommentBlock, Loader, Parent, VmBlock, VmTarget};
use crate::scratch::project::json::{Json, Num};

fn s(v: &str) -> Json {
    Json::String(String::from(v))
}

fn key(k: &str, v: Json) -> (String, Json) {
    (String::from(k), v)
}

/// The whole project, and the asset files the converted names come from.
pub(super) fn project(
    l: &mut Loader<'_>,
    targets: Vec<(VmTarget, usize)>,
) -> (Json, Vec<AssetFile>) {
    let targets: Vec<Json> = targets.iter().map(|(t, layer)| target(l, t, *layer)).collect();
    let monitors = l.monitors.iter().map(|m| Json::Object(m.pairs.clone())).collect();
    let extensions = l.extensions.iter().map(|e| s(e)).collect();
    let root = Json::Object(alloc::vec![
        key("targets", Json::Array(targets)),
        key("monitors", Json::Array(monitors)),
        key("extensions", Json::Array(extensions)),
        key(
            "meta",
            Json::Object(alloc::vec![
                key("semver", s("3.0.0")),
                key("vm", s("5.0.300")),
                key("agent", s("gobo: converted from Scratch 2")),
            ]),
        ),
    ]);
    (root, core::mem::take(&mut l.assets))
}

fn target(l: &Loader<'_>, t: &VmTarget, layer: usize) -> Json {
    let variables = t
        .variables
        .iter()
        .map(|(id, name, value, cloud)| {
            let mut v = alloc::vec![s(name), value.clone()];
            if *cloud {
                v.push(Json::Bool(true));
            }
            (id.clone(), Json::Array(v))
        })
        .collect();
    let lists = t
        .lists
        .iter()
        .map(|(id, name, items)| (id.clone(), Json::Array(alloc::vec![s(name), items.clone()])))
        .collect();
    let broadcasts = t.broadcasts.iter().map(|(id, name)| (id.clone(), s(name))).collect();
    let comments = t
        .comments
        .iter()
        .map(|c| {
            let block = match c.block {
                CommentBlock::Block(b) => s(&l.blocks[b].id),
                CommentBlock::None | CommentBlock::Index(_) => Json::Null,
            };
            let o = alloc::vec![
                key("blockId", block),
                key("x", c.x.clone()),
                key("y", c.y.clone()),
                key("width", c.width.clone()),
                key("height", c.height.clone()),
                key("minimized", Json::Bool(c.minimized)),
                key("text", c.text.clone()),
            ];
            (c.id.clone(), Json::Object(o))
        })
        .collect();
    let mut o = alloc::vec![
        key("isStage", Json::Bool(t.is_stage)),
        key("name", s(&t.name)),
        key("variables", Json::Object(variables)),
        key("lists", Json::Object(lists)),
        key("broadcasts", Json::Object(broadcasts)),
        key("blocks", Json::Object(blocks(l, t))),
        key("comments", Json::Object(comments)),
        key("currentCostume", t.current_costume.clone()),
        key("costumes", Json::Array(t.costumes.clone())),
        key("sounds", Json::Array(t.sounds.clone())),
    ];
    let mut props = t.props.iter();
    // volume, then layerOrder, then the rest.
    if let Some((k, v)) = props.next() {
        o.push(key(k, v.clone()));
    }
    o.push(key("layerOrder", Json::Number(Num::Int(layer as i64))));
    o.extend(props.map(|(k, v)| key(k, v.clone())));
    Json::Object(o)
}

/// The type code of a primitive block and the field it holds.
fn primitive_code(opcode: &str) -> Option<(i64, &'static str)> {
    Some(match opcode {
        "math_number" => (4, "NUM"),
        "math_positive_number" => (5, "NUM"),
        "math_whole_number" => (6, "NUM"),
        "math_integer" => (7, "NUM"),
        "math_angle" => (8, "NUM"),
        "colour_picker" => (9, "COLOUR"),
        "text" => (10, "TEXT"),
        "event_broadcast_menu" => (11, "BROADCAST_OPTION"),
        "data_variable" => (12, "VARIABLE"),
        "data_listcontents" => (13, "LIST"),
        _ => return None,
    })
}

/// `serializePrimitiveBlock`, when the block's field has the shape the compressed form needs
/// (a scalar value; a string name and id for broadcasts, variables and lists).
fn primitive(b: &VmBlock) -> Option<Json> {
    let (code, field) = primitive_code(&b.opcode)?;
    let f = b.fields.iter().find(|f| f.name == field)?;
    let value = f.value.clone().unwrap_or(Json::Null);
    let mut out = alloc::vec![Json::Number(Num::Int(code)), value.clone()];
    if code >= 11 {
        let (Json::String(_), Some(id)) = (&value, &f.id) else { return None };
        out.push(s(id));
        if code >= 12 && b.top_level {
            let (x, y) = b.xy.unwrap_or((0.0, 0.0));
            out.push(round_xy(x));
            out.push(round_xy(y));
        }
    } else if matches!(value, Json::Array(_) | Json::Object(_)) {
        return None;
    }
    Some(Json::Array(out))
}

/// `block.x ? Math.round(block.x) : 0`.
fn round_xy(v: f64) -> Json {
    if v == 0.0 || v.is_nan() {
        return Json::Number(Num::Int(0));
    }
    let r = libm::floor(v);
    num_json(if v - r >= 0.5 { r + 1.0 } else { r })
}

/// A target's blocks map: objects for blocks, primitives inlined where an input uses them.
fn blocks(l: &Loader<'_>, t: &VmTarget) -> Vec<(String, Json)> {
    let prims: Vec<Option<Json>> = t.blocks.iter().map(|&b| primitive(&l.blocks[b])).collect();
    let position: BTreeMap<usize, usize> =
        t.blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let is_prim = |b: usize| position.get(&b).and_then(|&i| prims[i].clone());
    let id = |b: usize| s(&l.blocks[b].id);
    let mut inlined: BTreeSet<usize> = BTreeSet::new();
    let mut out: Vec<(usize, Json)> = Vec::new();
    for (i, &bi) in t.blocks.iter().enumerate() {
        let b = &l.blocks[bi];
        if let Some(p) = &prims[i] {
            out.push((bi, p.clone()));
            continue;
        }
        let mut inputs = Vec::new();
        for input in &b.inputs {
            let mut slot = |r: Option<usize>| match r {
                None => Json::Null,
                Some(r) => match is_prim(r) {
                    Some(p) => {
                        inlined.insert(r);
                        p
                    }
                    None => id(r),
                },
            };
            let arr = if input.block == input.shadow {
                alloc::vec![Json::Number(Num::Int(1)), slot(input.block)]
            } else if input.shadow.is_none() {
                alloc::vec![Json::Number(Num::Int(2)), slot(input.block)]
            } else {
                alloc::vec![Json::Number(Num::Int(3)), slot(input.block), slot(input.shadow)]
            };
            inputs.push((input.name.clone(), Json::Array(arr)));
        }
        let fields = b
            .fields
            .iter()
            .map(|f| {
                let mut v = alloc::vec![f.value.clone().unwrap_or(Json::Null)];
                if let Some(fid) = &f.id {
                    v.push(s(fid));
                }
                (f.name.clone(), Json::Array(v))
            })
            .collect();
        let mut o =
            alloc::vec![key("opcode", s(&b.opcode)), key("next", b.next.map_or(Json::Null, id)),];
        match b.parent {
            Parent::Undefined => {}
            Parent::Null => o.push(key("parent", Json::Null)),
            Parent::Block(p) => o.push(key("parent", id(p))),
        }
        o.push(key("inputs", Json::Object(inputs)));
        o.push(key("fields", Json::Object(fields)));
        o.push(key("shadow", Json::Bool(b.shadow)));
        o.push(key("topLevel", Json::Bool(b.top_level)));
        if b.top_level {
            let (x, y) = b.xy.unwrap_or((0.0, 0.0));
            o.push(key("x", round_xy(x)));
            o.push(key("y", round_xy(y)));
        }
        if let Some(m) = &b.mutation {
            o.push(key("mutation", m.clone()));
        }
        if let Some(c) = b.comment {
            o.push(key("comment", s(&t.comments[c].id)));
        }
        out.push((bi, Json::Object(o)));
    }
    // Inlined primitives leave the map; so do primitives nothing uses, except loose variable
    // and list reporters.
    out.into_iter()
        .filter(|(bi, v)| match v {
            Json::Array(a) => {
                !inlined.contains(bi) && matches!(a.first(), Some(Json::Number(Num::Int(12 | 13))))
            }
            _ => true,
        })
        .map(|(bi, v)| (l.blocks[bi].id.clone(), v))
        .collect()
}
