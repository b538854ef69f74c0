//! `set_block_field {blockIndex, fieldName, value}` as ScratchWorld does it: the server first
//! translates names to ids (variables, lists, sounds, sprites, special menu entries); the page
//! script then takes `fieldName` as a field of the block, or as one of its inputs (setting the
//! primary field of the block in it, or giving an empty input a new shadow whose kind it
//! guesses from the name), creates a broadcast message that does not exist yet, turns a
//! dropdown's display text into its value, and sets the field as scratch-blocks would
//! (variable fields take ids only; angles wrap into (-180, 180]).

use alloc::string::String;

use serde_json::{Map, Value};

use super::actions::{block_arg, fresh_decl_id, resolve};
use super::args::{truthy, ActError, Code};
use super::catalog::{self, FieldKind, VarKind};
use super::jsval::value_string;
use super::menus;
use super::observe::{IndexMode, ObserveMode};
use super::session::{Done, Failed, Outcome, Session};
use super::shape::{self, InputConn};
use super::view::{self, Node, VarType};
use crate::scratch::project::edit::{IdGen, NewBlock, NewChild};
use crate::scratch::project::{BlockIdx, Broadcast, Field, InputValue, Literal};
use crate::scratch::value::number::js_number_to_string;

/// ScratchWorld's fixed display-text table (`valueToIdMappings.specialOptions`).
fn special(value: &str) -> Option<&'static str> {
    Some(match value {
        "mouse-pointer" => "_mouse_",
        "random position" => "_random_",
        "edge" => "_edge_",
        "Stage" => "_stage_",
        "myself" => "_myself_",
        "space" => "space",
        "up arrow" => "up arrow",
        "down arrow" => "down arrow",
        "right arrow" => "right arrow",
        "left arrow" => "left arrow",
        "enter" => "enter",
        "any" => "any",
        "year" => "YEAR",
        "month" => "MONTH",
        "date" => "DATE",
        "day of week" => "DAYOFWEEK",
        "hour" => "HOUR",
        "minute" => "MINUTE",
        "second" => "SECOND",
        "x position" => "x position",
        "y position" => "y position",
        "direction" => "direction",
        "costume #" => "costume #",
        "costume name" => "costume name",
        "size" => "size",
        "volume" => "volume",
        "backdrop #" => "backdrop #",
        "backdrop name" => "backdrop name",
        _ => return None,
    })
}

/// The server's `_translate_value_to_id`: names to ids by field name (upper-cased).
fn translate(s: &Session, value: &Value, field: &Value) -> Value {
    let Value::String(v) = value else { return value.clone() };
    let key = match field {
        Value::String(f) => crate::scratch::value::case::to_upper(f),
        _ => return value.clone(),
    };
    let ctx = s.ctx();
    let stage = s.project.stage_index();
    let own = |t: usize, kind: VarType| -> Option<String> {
        let vars = ctx.vars_of(t);
        // getVariableId: the first entry with that name that is not a list (or is one).
        let hit = vars.iter().find(|e| {
            e.name == v.as_str()
                && if kind == VarType::List {
                    e.kind == VarType::List
                } else {
                    e.kind != VarType::List
                }
        })?;
        // Only names the observation listed (that target's own names of that type) map.
        vars.iter().any(|e| e.name == v.as_str() && e.kind == kind).then(|| String::from(hit.id))
    };
    let full = s.config.mode == ObserveMode::Full;
    let hit = match key.as_str() {
        "VARIABLE" => own(s.editing, VarType::Scalar).or_else(|| own(stage, VarType::Scalar)),
        "LIST" => own(s.editing, VarType::List).or_else(|| own(stage, VarType::List)),
        "SOUND_MENU" if !full => {
            s.project.targets[s.editing].sounds.iter().find(|x| x.name == *v).map(|x| {
                x.asset_id
                    .clone()
                    .filter(|a| !a.is_empty())
                    .or_else(|| x.md5ext.clone().filter(|m| !m.is_empty()))
                    .unwrap_or_else(|| x.name.clone())
            })
        }
        "DISTANCETOMENU" | "OBJECT" => {
            let sprite = (!full)
                .then(|| {
                    s.project
                        .targets
                        .iter()
                        .enumerate()
                        .find(|(i, t)| !t.is_stage && *i != s.editing && t.name == *v)
                })
                .flatten()
                .map(|(i, _)| view::target_id(i));
            sprite.or_else(|| special(v).map(String::from))
        }
        "CURRENTMENU" | "PROPERTY" => special(v).map(String::from),
        _ => None,
    };
    hit.map_or_else(|| value.clone(), Value::String)
}

/// The field ScratchWorld edits on a block found in an input (`getPrimaryFieldForShadowBlock`).
fn primary_field(blocks: &crate::scratch::project::Blocks, b: BlockIdx) -> String {
    let Some(block) = blocks.get(b) else { return "NUM".into() };
    let mapped = match block.opcode.as_str() {
        "math_number" | "math_positive_number" | "math_angle" => "NUM",
        "text" => "TEXT",
        "colour_picker" => "COLOUR",
        "event_broadcast_menu" => "BROADCAST_OPTION",
        "control_create_clone_of_menu" => "CLONE_OPTION",
        "event_whenkeypressed_menu" | "sensing_keyoptions" => "KEY_OPTION",
        "sensing_touchingobjectmenu" => "TOUCHINGOBJECTMENU",
        "sensing_distancetomenu" => "DISTANCETOMENU",
        "sound_sounds_menu" => "SOUND_MENU",
        "looks_costume" => "COSTUME",
        "looks_backdrops" => "BACKDROP",
        "motion_pointtowards_menu" => "TOWARDS",
        "motion_goto_menu" | "motion_glideto_menu" => "TO",
        "sensing_of_object_menu" => "OBJECT",
        "operator_mathop_menu" => "MATHOP",
        "looks_effectmenu" => "EFFECT",
        "data_variable" => "VARIABLE",
        "data_listcontents" => "LIST",
        _ => "",
    };
    if !mapped.is_empty() {
        return mapped.into();
    }
    match catalog::spec(&block.opcode) {
        Some(spec) => spec.first_field().map(String::from),
        None => block.fields.first().map(|f| f.name.clone()),
    }
    .unwrap_or_else(|| "NUM".into())
}

/// Whether the editor's block has field `name`.
fn has_field(blocks: &crate::scratch::project::Blocks, b: BlockIdx, name: &str) -> bool {
    let Some(block) = blocks.get(b) else { return false };
    match catalog::spec(&block.opcode) {
        Some(spec) => spec.field(name).is_some(),
        None => block.field(name).is_some(),
    }
}

/// scratch-blocks' angle validator: the number wrapped into (-180, 180], or the text as typed
/// when it is not a number.
fn angle_text(text: &str) -> String {
    let n = if text.is_empty() { 0.0 } else { js_parse_float(text) };
    if n.is_nan() {
        return text.into();
    }
    let mut n = n % 360.0;
    if n < 0.0 {
        n += 360.0;
    }
    if n > 180.0 {
        n -= 360.0;
    }
    js_number_to_string(n)
}

/// JavaScript `parseFloat`: the longest numeric prefix after leading white space.
fn js_parse_float(s: &str) -> f64 {
    let t = s.trim_start_matches(crate::scratch::value::number::is_js_space);
    for (prefix, v) in [
        ("Infinity", f64::INFINITY),
        ("+Infinity", f64::INFINITY),
        ("-Infinity", f64::NEG_INFINITY),
    ] {
        if t.starts_with(prefix) {
            return v;
        }
    }
    let b = t.as_bytes();
    let mut end = 0;
    if end < b.len() && (b[end] == b'+' || b[end] == b'-') {
        end += 1;
    }
    let digits_start = end;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    let mut frac = false;
    if end < b.len() && b[end] == b'.' {
        end += 1;
        frac = true;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
    }
    let mantissa = &t[digits_start..end];
    if mantissa.is_empty() || mantissa == "." || (frac && mantissa.len() == 1) {
        return f64::NAN;
    }
    if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
        let mut e = end + 1;
        if e < b.len() && (b[e] == b'+' || b[e] == b'-') {
            e += 1;
        }
        let exp_start = e;
        while e < b.len() && b[e].is_ascii_digit() {
            e += 1;
        }
        if e > exp_start {
            end = e;
        }
    }
    t[..end].parse::<f64>().unwrap_or(f64::NAN)
}

/// The message named `name` (exact, else any case), or a new one on the stage.
fn ensure_message(s: &mut Session, name: &str) -> String {
    let found = {
        let ctx = s.ctx();
        let vars = menus::workspace_vars(&ctx, VarKind::Broadcast);
        let exact = vars.iter().find(|(_, n)| *n == name);
        let lower = crate::scratch::value::case::to_lower(name);
        exact
            .or_else(|| {
                vars.iter().find(|(_, n)| crate::scratch::value::case::to_lower(n) == lower)
            })
            .map(|(id, _)| String::from(*id))
    };
    found.unwrap_or_else(|| {
        let id = fresh_decl_id(s);
        let stage = s.project.stage_index();
        s.project.targets[stage].broadcasts.push(Broadcast { id: id.clone(), name: name.into() });
        id
    })
}

/// Sets field `name` of block `b` to `text` as scratch-blocks' field would, and scratch-vm's
/// block after it. `Err` is the message scratch-blocks throws.
fn set_field(s: &mut Session, b: BlockIdx, name: &str, text: &str) -> Result<(), String> {
    let t = s.editing;
    let (opcode, old) = {
        let blk = s.project.targets[t].blocks.get(b).ok_or("block is gone")?;
        (blk.opcode.clone(), blk.field(name).map(|f| super::jsval::literal_string(&f.value)))
    };
    let kind = catalog::spec(&opcode).and_then(|sp| sp.field(name)).unwrap_or(FieldKind::Text);
    let field = match kind {
        FieldKind::Variable(_) | FieldKind::Getter(_) => {
            let ctx = s.ctx();
            let entry = ctx.workspace_vars().into_iter().find(|e| e.id == text);
            let Some(entry) = entry else {
                return Err(alloc::format!(
                    "Variable id doesn't point to a real variable!  ID was {text}"
                ));
            };
            if let FieldKind::Variable(want) = kind {
                let (ok, ty) = match (want, entry.kind) {
                    (VarKind::Scalar, VarType::Scalar) | (VarKind::List, VarType::List) => {
                        (true, "")
                    }
                    (VarKind::Broadcast, VarType::Broadcast) => (true, ""),
                    (_, VarType::Scalar) => (false, ""),
                    (_, VarType::List) => (false, "list"),
                    (_, VarType::Broadcast) => (false, "broadcast_msg"),
                };
                if !ok {
                    return Err(alloc::format!(
                        "Variable type doesn't match this field!  Type was {ty}"
                    ));
                }
            }
            // scratch-vm names it after the variable it finds from the editing target.
            let Some(vm_name) = ctx.var_name(text) else { return Ok(()) };
            Field {
                name: name.into(),
                value: Literal::Text(vm_name.into()),
                id: Some(text.into()),
                has_id_slot: true,
            }
        }
        FieldKind::Angle => {
            let v = angle_text(text);
            Field { name: name.into(), value: Literal::Text(v), id: None, has_id_slot: true }
        }
        _ => Field {
            name: name.into(),
            value: Literal::Text(text.into()),
            id: None,
            has_id_slot: true,
        },
    };
    if old.as_deref() == Some(super::jsval::literal_string(&field.value).as_str())
        && !matches!(kind, FieldKind::Variable(_) | FieldKind::Getter(_))
    {
        return Ok(());
    }
    let blocks = &mut s.project.targets[t].blocks;
    if blocks.get(b).and_then(|blk| blk.field(name)).is_none() {
        // scratch-vm ignores changes to fields its block does not have.
        return Ok(());
    }
    let new_value = super::jsval::literal_string(&field.value);
    blocks.set_field(b, field).map_err(|e| alloc::format!("{e}"))?;
    // Choosing another object in an `of` block's menu resets the property beside it.
    if opcode == "sensing_of_object_menu" && name == "OBJECT" {
        if let Some(p) = blocks.get(b).and_then(|blk| blk.parent) {
            let prop = if new_value == "_stage_" { "backdrop #" } else { "x position" };
            if blocks.get(p).and_then(|pb| pb.field("PROPERTY")).is_some() {
                let f = Field {
                    name: "PROPERTY".into(),
                    value: Literal::Text(prop.into()),
                    id: None,
                    has_id_slot: true,
                };
                let _ = blocks.set_field(p, f);
            }
        }
    }
    Ok(())
}

/// The value a dropdown's display text stands for (`options.find(o => o[0] === text)`).
fn dropdown_value(s: &Session, b: BlockIdx, name: &str, text: &str) -> Option<String> {
    let ctx = s.ctx();
    let opts = menus::options(&ctx, Node::Block(b), name)?;
    opts.into_iter().find(|(d, _)| d == text).and_then(|(_, v)| v)
}

/// `set_block_field`.
pub(crate) fn set_block_field(s: &mut Session, args: &Map<String, Value>) -> Outcome {
    let arg = block_arg(s, args, "blockIndex", "blockId")?;
    let field_name = args.get("fieldName").cloned().unwrap_or(Value::Null);
    if !truthy(&field_name) {
        return Err(ActError::new(
            Code::InvalidArg,
            "'fieldName' is required (legacy 'target' is no longer supported)",
        )
        .into());
    }
    let Some(value) = args.get("value").cloned() else {
        return Err(ActError::new(Code::InvalidArg, "'value' is required").into());
    };
    let map = s.index_map()?;
    let blk = resolve(&map, &arg, |k| alloc::format!("Block not found at index: {k}"))?;
    let translated = translate(s, &value, &field_name);
    let key = if s.config.index == IndexMode::Id { "blockId" } else { "blockIndex" };
    let mut executed = Map::new();
    executed.insert(key.into(), blk.echo.clone());
    executed.insert("fieldName".into(), field_name.clone());
    executed.insert("value".into(), value.clone());
    let fail = |code, message: String| Failed {
        error: ActError::new(code, message),
        executed: Some(executed.clone()),
    };
    let t = s.editing;
    let Some(b) = s.project.targets[t].blocks.index_of(&blk.id) else {
        return Err(fail(Code::NotFound, alloc::format!("Block not found: {}", blk.id)));
    };
    let name = value_string(&field_name);
    let text = value_string(&translated);
    let blocks = &s.project.targets[t].blocks;
    let opcode = blocks.get(b).map(|x| x.opcode.clone()).unwrap_or_default();
    // Where the value goes: a field of the block, the primary field of the block in an
    // input, or a new shadow for an empty input.
    let (target, field, input) = if has_field(blocks, b, &name) {
        (Some(b), name.clone(), None)
    } else {
        let conns = shape::conns(blocks, b);
        let Some(slot) = conns.input(&name) else {
            let names: alloc::vec::Vec<&str> =
                conns.inputs.iter().map(|(n, _)| n.as_str()).collect();
            let list = if names.is_empty() { String::from("none") } else { names.join(", ") };
            return Err(fail(
                Code::InputNotFound,
                alloc::format!(
                    "Input '{name}' not found on block {opcode}. Available inputs: {list}"
                ),
            ));
        };
        let occupant = blocks.get(b).and_then(|x| x.input(&name)).and_then(|i| match &i.value {
            Some(InputValue::Block(c)) => Some(*c),
            _ => None,
        });
        match occupant {
            Some(c) => (Some(c), primary_field(blocks, c), Some(name.clone())),
            None => return new_shadow(s, b, &name, slot, &value, &translated, &blk.id, executed),
        }
    };
    let target = target.unwrap_or(b);
    let tb = &s.project.targets[t].blocks;
    if !has_field(tb, target, &field) {
        let ty = tb.get(target).map(|x| x.opcode.clone()).unwrap_or_default();
        return Err(fail(
            Code::InvalidField,
            alloc::format!("Field '{field}' not found on shadow block {ty}"),
        ));
    }
    let mut chosen = text.clone();
    if field == "BROADCAST_OPTION" || input.as_deref() == Some("BROADCAST_INPUT") {
        chosen = ensure_message(s, &text);
    }
    if let Some(v) = dropdown_value(s, target, &field, &text) {
        chosen = v;
    }
    if let Err(m) = set_field(s, target, &field, &chosen) {
        return Err(fail(Code::SetFailed, m));
    }
    Ok(Done {
        data: success_data(args, &blk, &field_name, &text, &value, &translated),
        executed,
        structural: false,
    })
}

fn success_data(
    _args: &Map<String, Value>,
    blk: &super::actions::BlockArg,
    field_name: &Value,
    text: &str,
    value: &Value,
    translated: &Value,
) -> Map<String, Value> {
    let mut data = Map::new();
    data.insert("updated".into(), Value::from(1));
    data.insert("blockIndex".into(), blk.echo.clone());
    data.insert("blockId".into(), Value::String(blk.id.clone()));
    data.insert("fieldName".into(), field_name.clone());
    data.insert("value".into(), Value::String(text.into()));
    data.insert("originalValue".into(), value.clone());
    data.insert("translatedValue".into(), translated.clone());
    data
}

/// An empty input gets a new shadow: a colour picker for `COLOR`/`COLOUR` names, an angle for
/// `ANGLE`/`DEGREES`, else a number (even for text inputs); then the value is set in it.
#[allow(clippy::too_many_arguments)]
fn new_shadow(
    s: &mut Session,
    b: BlockIdx,
    name: &str,
    slot: InputConn,
    value: &Value,
    translated: &Value,
    block_id: &str,
    executed: Map<String, Value>,
) -> Outcome {
    let upper = crate::scratch::value::case::to_upper(name);
    let (opcode, field) = if upper.contains("COLOUR") || upper.contains("COLOR") {
        ("colour_picker", "COLOUR")
    } else if upper.contains("ANGLE") || upper.contains("DEGREES") {
        ("math_angle", "NUM")
    } else {
        ("math_number", "NUM")
    };
    let fits = match slot {
        InputConn::Value(boolean) => !boolean,
        InputConn::Statement => false,
    };
    if !fits {
        let error =
            ActError::new(Code::ConnectionFailed, "Failed to connect shadow block: undefined");
        return Err(Failed { error, executed: Some(executed) });
    }
    let mut text = value_string(translated);
    if name == "BROADCAST_INPUT" {
        text = ensure_message(s, &text);
    }
    let text = if opcode == "math_angle" { angle_text(&text) } else { text };
    let mut spec = NewBlock::new(opcode);
    spec.shadow = true;
    spec.fields.push(Field {
        name: field.into(),
        value: Literal::Text(text.clone()),
        id: None,
        has_id_slot: true,
    });
    let t = s.editing;
    let mut ids: IdGen = s.ids;
    let done = s.project.targets[t].blocks.set_input_shadow(
        b,
        name,
        Some(&NewChild::Block(spec)),
        &mut ids,
    );
    s.ids = ids;
    if let Err(e) = done {
        let error = ActError::new(Code::ShadowCreateFailed, alloc::format!("{e}"));
        return Err(Failed { error, executed: Some(executed) });
    }
    let echo = match s.config.index {
        IndexMode::Index => executed.get("blockIndex").cloned().unwrap_or(Value::Null),
        IndexMode::Id => executed.get("blockId").cloned().unwrap_or(Value::Null),
    };
    let arg = super::actions::BlockArg { id: block_id.into(), echo };
    let field_name = executed.get("fieldName").cloned().unwrap_or(Value::Null);
    let data =
        success_data(&Map::new(), &arg, &field_name, &value_string(translated), value, translated);
    Ok(Done { data, executed, structural: false })
}
