//! Reading a block-edit patch: JSON text → [`BlockEdit`]s, every shape problem a `SCHEMA`
//! error naming the edit and the JSON Pointer inside the patch.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{InputKind, Primitive, PrimitiveKind};
use super::super::edit::{DeclKind, RemoveMode};
use super::super::json::{Json, Num};
use super::super::model::Literal;
use super::super::validate::Pointer;
use super::error::{short, ErrorCode, PatchError};
use super::model::{
    BlockEdit, BlockSpec, Child, DeclPath, DeclRef, DeclSpec, EditKind, FieldSpec, InputSpec, Link,
    ModPath, TargetRef,
};

/// Parser state: which edit, for error messages.
struct Ctx {
    edit: usize,
}

type Res<T> = Result<T, PatchError>;

impl Ctx {
    fn err(&self, at: Pointer, message: String) -> PatchError {
        PatchError::new(ErrorCode::Schema, Some(self.edit), at.into_string(), message)
    }
}

/// Parses a block-edit patch (a JSON array of edits) from bytes; at most `max_edits` edits.
pub fn parse_block_edits(bytes: &[u8], max_edits: usize) -> Res<Vec<BlockEdit>> {
    let root = match Json::parse(bytes) {
        Ok(j) => j,
        Err(e) => {
            let msg = format!("not JSON (line {}, column {}): {e}", e.line(), e.column());
            return Err(PatchError::new(ErrorCode::Schema, None, String::new(), msg));
        }
    };
    edits_from_json(root, max_edits)
}

/// Converts a parsed patch (a JSON array of edits, or one edit object) to edits.
pub fn edits_from_json(root: Json, max_edits: usize) -> Res<Vec<BlockEdit>> {
    let items = match root {
        Json::Array(items) => items,
        obj @ Json::Object(_) => alloc::vec![obj],
        other => {
            let msg = format!("a patch is an array of edits, not {}", other.type_name());
            return Err(PatchError::new(ErrorCode::Schema, None, String::new(), msg));
        }
    };
    if items.len() > max_edits {
        let msg = format!("{} edits, more than the budget of {max_edits}", items.len());
        return Err(PatchError::new(ErrorCode::Budget, None, String::new(), msg));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        out.push(edit(&Ctx { edit: i }, item)?);
    }
    Ok(out)
}

fn here(cx: &Ctx) -> Pointer {
    Pointer::root().index(cx.edit)
}

fn take(pairs: &mut Vec<(String, Json)>, key: &str) -> Option<Json> {
    let i = pairs.iter().position(|(k, _)| k == key)?;
    Some(pairs.remove(i).1)
}

fn string(cx: &Ctx, v: Json, at: Pointer) -> Res<String> {
    match v {
        Json::String(s) => Ok(s),
        other => Err(cx.err(at, format!("expected a string, found {}", other.type_name()))),
    }
}

fn literal(cx: &Ctx, v: Json, at: Pointer) -> Res<Literal> {
    match v {
        Json::String(s) => Ok(Literal::Text(s)),
        Json::Number(n) => Ok(Literal::Number(n)),
        Json::Bool(b) => Ok(Literal::Bool(b)),
        Json::Null => Ok(Literal::Null),
        other => {
            Err(cx.err(at, format!("expected a string or number, found {}", other.type_name())))
        }
    }
}

fn index(cx: &Ctx, v: Json, at: Pointer) -> Res<usize> {
    match v {
        Json::Number(Num::Int(i)) if i >= 0 => Ok(i as usize),
        other => {
            Err(cx.err(at, format!("expected a non-negative integer, found {}", other.type_name())))
        }
    }
}

fn edit(cx: &Ctx, item: Json) -> Res<BlockEdit> {
    let at = here(cx);
    let Json::Object(mut o) = item else {
        return Err(cx.err(at, format!("an edit is an object, not {}", item.type_name())));
    };
    let op = match take(&mut o, "op") {
        Some(v) => string(cx, v, at.clone().key("op"))?,
        None => return Err(cx.err(at, "missing \"op\"".into())),
    };
    let target = match take(&mut o, "sprite_id") {
        Some(Json::String(s)) => match s.strip_prefix('#').map(str::parse::<usize>) {
            Some(Ok(i)) => TargetRef::Index(i),
            _ => TargetRef::Name(s),
        },
        Some(other) => {
            return Err(cx.err(
                at.key("sprite_id"),
                format!("expected a string, found {}", other.type_name()),
            ))
        }
        None => return Err(cx.err(at, "missing \"sprite_id\"".into())),
    };
    for (kind, key) in [
        (DeclKind::Variable, "variable"),
        (DeclKind::List, "list"),
        (DeclKind::Broadcast, "broadcast"),
    ] {
        if let Some(spec) = take(&mut o, key) {
            let kind = decl_edit(cx, &op, kind, spec, &mut o, at.clone().key(key))?;
            return Ok(BlockEdit { target, kind });
        }
    }
    let kind = match op.as_str() {
        "remove" => {
            let block = required_string(cx, &mut o, "block_id")?;
            let mode = match take(&mut o, "mode") {
                None => RemoveMode::Heal,
                Some(v) => match string(cx, v, at.clone().key("mode"))?.as_str() {
                    "heal" => RemoveMode::Heal,
                    "stack" => RemoveMode::Stack,
                    "unwrap" => RemoveMode::Unwrap,
                    other => {
                        return Err(cx.err(
                            at.key("mode"),
                            format!("mode is heal, stack or unwrap, not {:?}", short(other)),
                        ))
                    }
                },
            };
            EditKind::Remove { block, mode }
        }
        "add" => {
            let block = match take(&mut o, "block") {
                Some(b) => block_spec(cx, b, at.clone().key("block"))?,
                None => return Err(cx.err(at, "an add needs \"block\"".into())),
            };
            if let Some(id) = take(&mut o, "block_id") {
                // The id may also be given at the edit level.
                let id = string(cx, id, at.clone().key("block_id"))?;
                if block.id.as_ref().is_some_and(|b| *b != id) {
                    return Err(cx.err(at.key("block_id"), "block_id and block.id differ".into()));
                }
            }
            let link = match take(&mut o, "link") {
                Some(l) => link(cx, l, at.clone().key("link"))?,
                None => return Err(cx.err(at, "an add needs \"link\"".into())),
            };
            EditKind::Add { block, link }
        }
        "modify" => {
            let path = required_string(cx, &mut o, "path")?;
            let value = take(&mut o, "value")
                .ok_or_else(|| cx.err(at.clone(), "a modify needs \"value\"".into()))?;
            if path == "blocks" {
                return Ok(BlockEdit {
                    target,
                    kind: records(cx, value, take(&mut o, "order"), at)?,
                });
            }
            let block = required_string(cx, &mut o, "block_id")?;
            let path = mod_path(cx, &path, at.key("path"))?;
            EditKind::Modify { block, path, value }
        }
        other => {
            return Err(cx
                .err(at.key("op"), format!("op is remove, add or modify, not {:?}", short(other))))
        }
    };
    Ok(BlockEdit { target, kind })
}

fn required_string(cx: &Ctx, o: &mut Vec<(String, Json)>, key: &str) -> Res<String> {
    match take(o, key) {
        Some(v) => string(cx, v, here(cx).key(key)),
        None => Err(cx.err(here(cx), format!("missing \"{key}\""))),
    }
}

fn mod_path(cx: &Ctx, path: &str, at: Pointer) -> Res<ModPath> {
    let parts: Vec<&str> = path.split('/').collect();
    Ok(match parts.as_slice() {
        ["opcode"] => ModPath::Opcode,
        ["position"] => ModPath::Position,
        ["fields", name] => ModPath::Field((*name).into()),
        ["inputs", name] => ModPath::InputLiteral((*name).into()),
        ["inputs", name, "block"] => ModPath::InputBlock((*name).into()),
        ["inputs", name, "shadow"] => ModPath::InputShadow((*name).into()),
        ["mutation", attr] => ModPath::Mutation((*attr).into()),
        _ => {
            let msg = format!("unknown path {:?} (opcode, fields/N, inputs/N, inputs/N/block, inputs/N/shadow, mutation/A, position, blocks)", short(path));
            return Err(PatchError::new(
                ErrorCode::UnknownPath,
                Some(cx.edit),
                at.into_string(),
                msg,
            ));
        }
    })
}

fn records(cx: &Ctx, value: Json, order: Option<Json>, at: Pointer) -> Res<EditKind> {
    let Json::Object(pairs) = value else {
        return Err(
            cx.err(at.key("value"), "path \"blocks\" takes an object of block records".into())
        );
    };
    let records = pairs
        .into_iter()
        .map(|(id, v)| (id, if v == Json::Null { None } else { Some(v) }))
        .collect();
    let order = match order {
        None | Some(Json::Null) => None,
        Some(Json::Array(ids)) => {
            let mut out = Vec::with_capacity(ids.len());
            for (i, id) in ids.into_iter().enumerate() {
                out.push(string(cx, id, at.clone().key("order").index(i))?);
            }
            Some(out)
        }
        Some(other) => {
            return Err(cx.err(
                at.key("order"),
                format!("order is an array of ids, not {}", other.type_name()),
            ))
        }
    };
    Ok(EditKind::Records { records, order })
}

fn decl_edit(
    cx: &Ctx,
    op: &str,
    kind: DeclKind,
    spec: Json,
    rest: &mut Vec<(String, Json)>,
    at: Pointer,
) -> Res<EditKind> {
    let Json::Object(mut o) = spec else {
        return Err(cx.err(at, format!("a {} is an object {{name, id?}}", kind.name())));
    };
    let name = take(&mut o, "name").map(|v| string(cx, v, at.clone().key("name"))).transpose()?;
    let id = take(&mut o, "id").map(|v| string(cx, v, at.clone().key("id"))).transpose()?;
    let which = || match (&id, &name) {
        (Some(id), _) => Ok(DeclRef::Id(id.clone())),
        (None, Some(n)) => Ok(DeclRef::Name(n.clone())),
        (None, None) => {
            Err(cx.err(at.clone(), "name the declaration by \"id\" or \"name\"".into()))
        }
    };
    match op {
        "add" => {
            let Some(name) = name.clone() else {
                return Err(cx.err(at, format!("a new {} needs a name", kind.name())));
            };
            let value = take(&mut o, "value");
            let cloud = match take(&mut o, "cloud") {
                Some(Json::Bool(b)) => Some(b),
                None => None,
                Some(other) => {
                    return Err(cx.err(
                        at.key("cloud"),
                        format!("cloud is a boolean, not {}", other.type_name()),
                    ))
                }
            };
            let at_pos =
                take(&mut o, "at").map(|v| index(cx, v, at.clone().key("at"))).transpose()?;
            let mut monitors = Vec::new();
            if let Some(ms) = take(&mut o, "monitors") {
                let Json::Array(ms) = ms else {
                    return Err(cx.err(
                        at.key("monitors"),
                        "monitors is an array of [position, monitor]".into(),
                    ));
                };
                for (i, m) in ms.into_iter().enumerate() {
                    let mp = at.clone().key("monitors").index(i);
                    match m {
                        Json::Array(pair) if pair.len() == 2 => {
                            let mut pair = pair.into_iter();
                            let (Some(p), Some(m)) = (pair.next(), pair.next()) else { continue };
                            monitors.push((index(cx, p, mp.clone().index(0))?, m));
                        }
                        _ => {
                            return Err(
                                cx.err(mp, "a monitor entry is [position, monitor object]".into())
                            )
                        }
                    }
                }
            }
            Ok(EditKind::AddDecl(DeclSpec { kind, name, id, value, cloud, at: at_pos, monitors }))
        }
        "remove" => Ok(EditKind::RemoveDecl { kind, which: which()? }),
        "modify" => {
            let path = match take(rest, "path") {
                Some(p) => string(cx, p, here(cx).key("path"))?,
                None => return Err(cx.err(here(cx), "missing \"path\" (name or value)".into())),
            };
            let path = match path.as_str() {
                "name" => DeclPath::Name,
                "value" if kind != DeclKind::Broadcast => DeclPath::Value,
                other => {
                    return Err(PatchError::new(
                        ErrorCode::UnknownPath,
                        Some(cx.edit),
                        here(cx).key("path").into_string(),
                        format!("a {} has no path {:?}", kind.name(), short(other)),
                    ))
                }
            };
            let value = take(rest, "value")
                .ok_or_else(|| cx.err(here(cx), "a modify needs \"value\"".into()))?;
            Ok(EditKind::ModifyDecl { kind, which: which()?, path, value })
        }
        other => Err(cx.err(
            here(cx).key("op"),
            format!("op is remove, add or modify, not {:?}", short(other)),
        )),
    }
}

fn link(cx: &Ctx, v: Json, at: Pointer) -> Res<Link> {
    let Json::Object(mut o) = v else {
        return Err(cx.err(at, "a link is an object: after, before, input, top or wrap".into()));
    };
    if let Some(id) = take(&mut o, "after") {
        return Ok(Link::After(string(cx, id, at.key("after"))?));
    }
    if let Some(id) = take(&mut o, "before") {
        return Ok(Link::Before(string(cx, id, at.key("before"))?));
    }
    if let Some(wrap) = take(&mut o, "wrap") {
        let wp = at.clone().key("wrap");
        let Json::Array(ids) = wrap else {
            return Err(cx.err(wp, "wrap is [first_id, last_id]".into()));
        };
        let mut ids = ids.into_iter();
        let (Some(first), Some(last), None) = (ids.next(), ids.next(), ids.next()) else {
            return Err(cx.err(wp, "wrap is [first_id, last_id]".into()));
        };
        let input =
            take(&mut o, "input").map(|v| string(cx, v, at.clone().key("input"))).transpose()?;
        return Ok(Link::Wrap {
            first: string(cx, first, wp.clone().index(0))?,
            last: string(cx, last, wp.index(1))?,
            input,
        });
    }
    if let Some(input) = take(&mut o, "input") {
        let ip = at.clone().key("input");
        let Json::Array(parts) = input else {
            return Err(cx.err(ip, "input is [parent_id, INPUT_NAME]".into()));
        };
        let mut parts = parts.into_iter();
        let (Some(p), Some(n), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(cx.err(ip, "input is [parent_id, INPUT_NAME]".into()));
        };
        return Ok(Link::Input(string(cx, p, ip.clone().index(0))?, string(cx, n, ip.index(1))?));
    }
    if let Some(top) = take(&mut o, "top") {
        let tp = at.key("top");
        return match top {
            Json::Null => Ok(Link::Top(None)),
            Json::Object(mut xy) => {
                let x = take(&mut xy, "x");
                let y = take(&mut xy, "y");
                match (x, y) {
                    (Some(Json::Number(x)), Some(Json::Number(y))) => Ok(Link::Top(Some((x, y)))),
                    (None, None) => Ok(Link::Top(None)),
                    _ => Err(cx.err(tp, "top is {\"x\": number, \"y\": number} or {}".into())),
                }
            }
            _ => Err(cx.err(tp, "top is {\"x\": number, \"y\": number} or {}".into())),
        };
    }
    Err(cx.err(at, "a link names one of after, before, input, top, wrap".into()))
}

/// A block spec object.
pub(crate) fn block_spec_json(edit: usize, v: Json, at: Pointer) -> Res<BlockSpec> {
    block_spec(&Ctx { edit }, v, at)
}

fn block_spec(cx: &Ctx, v: Json, at: Pointer) -> Res<BlockSpec> {
    let Json::Object(mut o) = v else {
        return Err(
            cx.err(at, format!("a block is an object with an opcode, not {}", v.type_name()))
        );
    };
    let opcode = match take(&mut o, "opcode") {
        Some(op) => string(cx, op, at.clone().key("opcode"))?,
        None => return Err(cx.err(at, "a block needs an opcode".into())),
    };
    let mut spec = BlockSpec { opcode, ..BlockSpec::default() };
    if let Some(id) = take(&mut o, "id") {
        spec.id = Some(string(cx, id, at.clone().key("id"))?);
    }
    if let Some(s) = take(&mut o, "shadow") {
        spec.shadow = matches!(s, Json::Bool(true));
    }
    if let Some(a) = take(&mut o, "at") {
        spec.at = Some(index(cx, a, at.clone().key("at"))?);
    }
    if let Some(fields) = take(&mut o, "fields") {
        let fp = at.clone().key("fields");
        let Json::Object(pairs) = fields else {
            return Err(cx.err(fp, "fields is an object".into()));
        };
        for (name, value) in pairs {
            let p = fp.clone().key(&name);
            let f = match value {
                Json::Array(items) => {
                    let mut items = items.into_iter();
                    let (Some(v), id, None) = (items.next(), items.next(), items.next()) else {
                        return Err(cx.err(p, "a field is a value, [value] or [value, id]".into()));
                    };
                    let id = match id {
                        None => None,
                        Some(Json::Null) => Some(None),
                        Some(Json::String(s)) => Some(Some(s)),
                        Some(other) => {
                            return Err(cx.err(
                                p.index(1),
                                format!(
                                    "a field id is a string or null, not {}",
                                    other.type_name()
                                ),
                            ))
                        }
                    };
                    FieldSpec::Exact(literal(cx, v, p.index(0))?, id)
                }
                other => FieldSpec::Value(literal(cx, other, p)?),
            };
            spec.fields.push((name, f));
        }
    }
    if let Some(inputs) = take(&mut o, "inputs") {
        let ip = at.clone().key("inputs");
        let Json::Object(pairs) = inputs else {
            return Err(cx.err(ip, "inputs is an object".into()));
        };
        for (name, value) in pairs {
            let p = ip.clone().key(&name);
            let input = match value {
                Json::Object(_) => InputSpec::Block(block_spec(cx, value, p)?),
                Json::Array(items) => exact_input(cx, items, p)?,
                other => InputSpec::Literal(literal(cx, other, p)?),
            };
            spec.inputs.push((name, input));
        }
    }
    if let Some(m) = take(&mut o, "mutation") {
        match m {
            Json::Object(pairs) => spec.mutation = Some(pairs),
            Json::Null => {}
            other => {
                return Err(cx.err(
                    at.key("mutation"),
                    format!("mutation is an object, not {}", other.type_name()),
                ))
            }
        }
    }
    // `next`: a list of the blocks after it, or one nested block (whose own chain follows
    // it); kept flat either way.
    match take(&mut o, "next") {
        None | Some(Json::Null) => {}
        Some(Json::Array(items)) => {
            for (k, item) in items.into_iter().enumerate() {
                let mut n = block_spec(cx, item, at.clone().key("next").index(k))?;
                let rest = core::mem::take(&mut n.next);
                spec.next.push(n);
                spec.next.extend(rest);
            }
        }
        Some(n) => {
            let mut n = block_spec(cx, n, at.clone().key("next"))?;
            let rest = core::mem::take(&mut n.next);
            spec.next.push(n);
            spec.next.extend(rest);
        }
    }
    if let Some((key, _)) = o.first() {
        return Err(cx.err(at.key(key), format!("unknown key {:?} in a block", short(key))));
    }
    Ok(spec)
}

fn exact_input(cx: &Ctx, items: Vec<Json>, at: Pointer) -> Res<InputSpec> {
    let len = items.len();
    let mut items = items.into_iter();
    let kind = match items.next() {
        Some(Json::Number(Num::Int(1))) => InputKind::Shadow,
        Some(Json::Number(Num::Int(2))) => InputKind::NoShadow,
        Some(Json::Number(Num::Int(3))) => InputKind::Obscured,
        _ => return Err(cx.err(at.index(0), "an exact input starts with 1, 2 or 3".into())),
    };
    if !(2..=3).contains(&len) {
        return Err(cx.err(at, "an exact input is [kind, value] or [kind, value, shadow]".into()));
    }
    let value = child(cx, items.next(), at.clone().index(1))?;
    let shadow = child(cx, items.next(), at.index(2))?;
    Ok(InputSpec::Exact { kind, value, shadow })
}

fn child(cx: &Ctx, v: Option<Json>, at: Pointer) -> Res<Option<Child>> {
    Ok(match v {
        None | Some(Json::Null) => None,
        Some(obj @ Json::Object(_)) => Some(Child::Block(block_spec(cx, obj, at)?)),
        Some(Json::Array(items)) => Some(Child::Primitive(primitive(cx, items, at)?)),
        Some(other) => {
            return Err(cx.err(
                at,
                format!("expected a block, a primitive array or null, not {}", other.type_name()),
            ))
        }
    })
}

/// `[4..=10, value]` or `[11..=13, name, id]`.
pub(crate) fn primitive_json(edit: usize, items: Vec<Json>, at: Pointer) -> Res<Primitive> {
    primitive(&Ctx { edit }, items, at)
}

fn primitive(cx: &Ctx, items: Vec<Json>, at: Pointer) -> Res<Primitive> {
    let mut items = items.into_iter();
    let kind = match items.next() {
        Some(Json::Number(Num::Int(c))) => PrimitiveKind::from_code(c),
        _ => None,
    };
    let Some(kind) = kind else {
        return Err(cx.err(at.index(0), "a primitive starts with a type code 4 to 13".into()));
    };
    if kind.is_reference() {
        let (Some(name), Some(id), None) = (items.next(), items.next(), items.next()) else {
            return Err(cx.err(at, "a reference primitive is [code, name, id]".into()));
        };
        Ok(Primitive::Reference {
            kind,
            name: string(cx, name, at.clone().index(1))?,
            id: string(cx, id, at.index(2))?,
        })
    } else {
        let (Some(value), None) = (items.next(), items.next()) else {
            return Err(cx.err(at, "a literal primitive is [code, value]".into()));
        };
        Ok(Primitive::Literal { kind, value: literal(cx, value, at.index(1))? })
    }
}
