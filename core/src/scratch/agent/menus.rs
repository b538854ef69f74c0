//! Dropdown options as the editor computes them for one field of one block, and the
//! `{choices: ...}` ScratchWorld prints after a field: the options' display texts under
//! `<field name lower-cased, without underscores>Options` when the editor's field has options,
//! else its static fallback table (`variables`, `lists`, `costumes`, `sounds`, `backdrops`,
//! `sprites` + `specialOptions`, `stageProperties` + `spriteProperties`, `timeOptions`,
//! `keyOptions`). The same options translate display text into values in `set_block_field`.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::catalog::{spec, FieldKind, Menu, VarKind};
use super::collate;
use super::view::{other_sprites, Node, VarType};
use super::Ctx;
use crate::scratch::project::InputKind;

/// `[display text, value]` pairs; `None` as a value when the editor's option value is not a
/// string (the sound menu's `record...` entry).
pub type Options = Vec<(String, Option<String>)>;

/// What ScratchWorld prints in `{choices: ...}`: named lists, in insertion order.
pub type Choices = Vec<(String, Vec<String>)>;

/// The value of scratch-blocks' `Blockly.RENAME_VARIABLE_ID`.
pub const RENAME_VARIABLE_ID: &str = "RENAME_VARIABLE_ID";
/// The value of `Blockly.DELETE_VARIABLE_ID`.
pub const DELETE_VARIABLE_ID: &str = "DELETE_VARIABLE_ID";
/// The value of `Blockly.NEW_BROADCAST_MESSAGE_ID`.
pub const NEW_BROADCAST_MESSAGE_ID: &str = "NEW_BROADCAST_MESSAGE_ID";

fn pairs(items: impl IntoIterator<Item = (String, String)>) -> Options {
    items.into_iter().map(|(d, v)| (d, Some(v))).collect()
}

fn same(names: impl IntoIterator<Item = impl ToString>) -> Options {
    pairs(names.into_iter().map(|n| {
        let s = n.to_string();
        (s.clone(), s)
    }))
}

fn empty_menu() -> Options {
    alloc::vec![(String::new(), Some(String::new()))]
}

/// The workspace's variables of `kind` (the stage's, then the editing sprite's).
pub fn workspace_vars<'p>(ctx: &Ctx<'p>, kind: VarKind) -> Vec<(&'p str, &'p str)> {
    let want = match kind {
        VarKind::Scalar => VarType::Scalar,
        VarKind::List => VarType::List,
        VarKind::Broadcast => VarType::Broadcast,
    };
    ctx.workspace_vars().into_iter().filter(|e| e.kind == want).map(|e| (e.id, e.name)).collect()
}

/// The options of a variable dropdown: names sorted as scratch-gui sorts them, then the
/// rename and delete entries (for messages: `New message` first). `selected` is the name
/// the field shows.
pub fn variable_options(ctx: &Ctx<'_>, kind: VarKind, selected: &str) -> Options {
    let mut vars = workspace_vars(ctx, kind);
    vars.sort_by(|a, b| collate::base_numeric(a.1, b.1));
    let mut out = pairs(vars.iter().map(|(id, name)| (String::from(*name), String::from(*id))));
    match kind {
        VarKind::Broadcast => {
            out.insert(
                0,
                (String::from("New message"), Some(String::from(NEW_BROADCAST_MESSAGE_ID))),
            );
        }
        VarKind::Scalar => {
            out.push((String::from("Rename variable"), Some(String::from(RENAME_VARIABLE_ID))));
            let delete = alloc::format!("Delete the \"{selected}\" variable");
            out.push((delete, Some(String::from(DELETE_VARIABLE_ID))));
        }
        VarKind::List => {
            out.push((String::from("Rename list"), Some(String::from(RENAME_VARIABLE_ID))));
            let delete = alloc::format!("Delete the \"{selected}\" list");
            out.push((delete, Some(String::from(DELETE_VARIABLE_ID))));
        }
    }
    out
}

/// The options of a menu the editor computes, or `None` where the editor's menu function
/// fails (ScratchWorld then uses its fallback table).
fn menu_options(ctx: &Ctx<'_>, node: Node, menu: Menu) -> Option<Options> {
    let target = ctx.target();
    let sprites = || other_sprites(ctx.project, ctx.editing);
    Some(match menu {
        Menu::Sounds => {
            let mut o = if target.sounds.is_empty() {
                empty_menu()
            } else {
                same(target.sounds.iter().map(|s| &s.name))
            };
            o.push((String::from("record..."), None));
            o
        }
        Menu::Costumes if target.costumes.is_empty() => empty_menu(),
        Menu::Costumes => same(target.costumes.iter().map(|c| &c.name)),
        Menu::Backdrops | Menu::BackdropNames => {
            let stage = ctx.project.targets.first()?;
            if stage.costumes.is_empty() {
                return Some(empty_menu());
            }
            let mut o = same(stage.costumes.iter().map(|c| &c.name));
            if menu == Menu::Backdrops {
                o.extend(same(["next backdrop", "previous backdrop", "random backdrop"]));
            }
            o
        }
        Menu::GoTo => {
            let mut o = pairs([
                (String::from("random position"), String::from("_random_")),
                (String::from("mouse-pointer"), String::from("_mouse_")),
            ]);
            o.extend(same(sprites()));
            o
        }
        Menu::Pointer => {
            let mut o = pairs([(String::from("mouse-pointer"), String::from("_mouse_"))]);
            o.extend(same(sprites()));
            o
        }
        Menu::Touching => {
            let mut o = pairs([
                (String::from("mouse-pointer"), String::from("_mouse_")),
                (String::from("edge"), String::from("_edge_")),
            ]);
            o.extend(same(sprites()));
            o
        }
        Menu::OfObject => {
            let mut o = pairs([(String::from("Stage"), String::from("_stage_"))]);
            o.extend(same(sprites()));
            o
        }
        Menu::Clone if target.is_stage => {
            let s = sprites();
            if s.is_empty() {
                empty_menu()
            } else {
                same(s)
            }
        }
        Menu::Clone => {
            let mut o = pairs([(String::from("myself"), String::from("_myself_"))]);
            o.extend(same(sprites()));
            o
        }
        Menu::OfProperty => of_properties(ctx, node)?,
        Menu::Stop => {
            let followed = match node {
                Node::Block(i) => ctx.tb().blocks.get(i).is_some_and(|b| b.next.is_some()),
                Node::Prim { .. } => false,
            };
            if followed {
                same(["other scripts in sprite"])
            } else {
                same(["all", "this script", "other scripts in sprite"])
            }
        }
    })
}

const STAGE_PROPERTIES: [&str; 3] = ["backdrop #", "backdrop name", "volume"];
const SPRITE_PROPERTIES: [&str; 7] =
    ["x position", "y position", "direction", "costume #", "costume name", "size", "volume"];

fn sorted_scalars<'p>(ctx: &Ctx<'p>, target: usize, own_only: bool) -> Vec<&'p str> {
    let mut names = ctx.scalar_names(target, own_only);
    names.sort_by(|a, b| collate::base_numeric(a, b));
    names
}

/// scratch-gui's `of` property menu: what the object menu next to it names decides.
fn of_properties(ctx: &Ctx<'_>, node: Node) -> Option<Options> {
    let tb = ctx.tb();
    let Node::Block(block) = node else { return None };
    let b = tb.blocks.get(block)?;
    let n = b.inputs.iter().position(|i| i.name == "OBJECT")?;
    let input = &b.inputs[n];
    let stage = ctx.project.stage_index();
    let stage_options = || {
        let mut o = same(STAGE_PROPERTIES);
        o.extend(same(sorted_scalars(ctx, stage, false)));
        o
    };
    // scratch-vm's input.block and input.shadow: equal for `[1, x]`; a reporter over the
    // menu (or no menu at all) makes them differ, and the editor then lists the stage's.
    let menu = match (input.kind, &input.value, &input.shadow) {
        (_, None, None) => return None,
        (InputKind::Shadow, Some(_), _) => tb.input_child(block, n)?,
        _ => return Some(stage_options()),
    };
    let selected = tb.fields(menu).into_iter().find(|f| f.name == "OBJECT")?.value.string();
    if selected == "_stage_" {
        return Some(stage_options());
    }
    let mut o = same(SPRITE_PROPERTIES);
    if let Some(t) = ctx.project.targets.iter().position(|t| !t.is_stage && t.name == selected) {
        o.extend(same(sorted_scalars(ctx, t, true)));
    }
    Some(o)
}

/// The options of field `name` of `node` as the editor's dropdown lists them, or `None` when
/// the field is not a dropdown (or its menu function fails).
pub fn options(ctx: &Ctx<'_>, node: Node, name: &str) -> Option<Options> {
    let tb = ctx.tb();
    let kind = spec(tb.opcode(node))?.field(name)?;
    match kind {
        FieldKind::Options(list) => {
            Some(list.iter().map(|(d, v)| (String::from(*d), Some(String::from(*v)))).collect())
        }
        FieldKind::Menu(m) => menu_options(ctx, node, m),
        FieldKind::Variable(k) => {
            let field = tb.fields(node).into_iter().find(|f| f.name == name)?;
            let shown = field
                .id
                .and_then(|id| ctx.var_name(id))
                .map_or_else(|| field.value.string(), String::from);
            Some(variable_options(ctx, k, &shown))
        }
        FieldKind::Getter(_)
        | FieldKind::Text
        | FieldKind::Number
        | FieldKind::Angle
        | FieldKind::Colour => None,
    }
}

/// The key ScratchWorld files a dropdown's options under.
fn options_key(field: &str) -> String {
    let mut key: String =
        field.chars().filter(|&c| c != '_').flat_map(char::to_lowercase).collect();
    key.push_str("Options");
    key
}

/// The `{choices: ...}` of field `name` of `node` (`None`: nothing printed).
pub fn choices(ctx: &Ctx<'_>, node: Node, name: &str) -> Option<Choices> {
    // The common case, answered without the lookups: a literal primitive's field (`NUM`,
    // `COLOUR`, `TEXT` of `math_number`, `colour_picker`, `text`...) is no dropdown and has
    // no fallback table (`literal_primitives_have_no_choices` checks that against the rest).
    if ctx.tb().is_literal(node) {
        return None;
    }
    choices_of(ctx, node, name)
}

/// [`choices`] without its shortcut.
fn choices_of(ctx: &Ctx<'_>, node: Node, name: &str) -> Option<Choices> {
    if let Some(opts) = options(ctx, node, name) {
        let shown: Vec<String> =
            opts.into_iter().map(|(d, _)| d).filter(|d| !d.is_empty()).collect();
        if !shown.is_empty() {
            return Some(alloc::vec![(options_key(name), shown)]);
        }
    }
    fallback(ctx, ctx.tb().opcode(node), name)
}

fn code_unit_sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort_by(|a, b| collate::code_units(a, b));
    v
}

fn dedup_keep_first(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(v.len());
    for s in v {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// ScratchWorld's table for fields whose editor dropdown gave nothing.
fn fallback(ctx: &Ctx<'_>, opcode: &str, field: &str) -> Option<Choices> {
    let owned = |v: Vec<&str>| v.into_iter().map(String::from).collect::<Vec<String>>();
    let stage = ctx.project.stage_index();
    let union = |kind: VarType| {
        let mut v = owned(ctx.names_of(ctx.editing, kind, true));
        v.extend(owned(ctx.names_of(stage, kind, false)));
        code_unit_sorted(dedup_keep_first(v))
    };
    let mut out: Choices = Vec::new();
    match (opcode, field) {
        ("data_variable" | "data_setvariableto" | "data_changevariableby", "VARIABLE") => {
            out.push((String::from("variables"), union(VarType::Scalar)));
        }
        (
            "data_listcontents"
            | "data_addtolist"
            | "data_deleteoflist"
            | "data_deletealloflist"
            | "data_insertatlist"
            | "data_replaceitemoflist"
            | "data_itemoflist"
            | "data_itemnumoflist"
            | "data_lengthoflist"
            | "data_listcontainsitem",
            "LIST",
        ) => out.push((String::from("lists"), union(VarType::List))),
        ("looks_costume" | "looks_switchcostumeto" | "looks_nextcostume", "COSTUME") => {
            out.push((
                String::from("costumes"),
                ctx.target().costumes.iter().map(|c| c.name.clone()).collect(),
            ));
        }
        ("sound_sounds_menu" | "sound_play" | "sound_playuntildone", "SOUND_MENU") => {
            out.push((
                String::from("sounds"),
                ctx.target().sounds.iter().map(|s| s.name.clone()).collect(),
            ));
        }
        (
            "looks_backdrops" | "looks_switchbackdropto" | "event_whenbackdropswitchesto",
            "BACKDROP",
        ) => {
            let first = ctx.project.targets.first()?;
            out.push((
                String::from("backdrops"),
                first.costumes.iter().map(|c| c.name.clone()).collect(),
            ));
        }
        (
            "motion_pointtowards_menu"
            | "motion_goto_menu"
            | "motion_glideto_menu"
            | "sensing_touchingobjectmenu"
            | "sensing_distancetomenu"
            | "sensing_of_object_menu"
            | "control_create_clone_of_menu",
            "TOWARDS" | "TO" | "TOUCHINGOBJECTMENU" | "DISTANCETOMENU" | "OBJECT" | "CLONE_OPTION",
        ) => {
            out.push((
                String::from("sprites"),
                code_unit_sorted(owned(other_sprites(ctx.project, ctx.editing))),
            ));
            let special: &[&str] = match field {
                "TO" => &["random position", "mouse-pointer"],
                "TOWARDS" | "DISTANCETOMENU" => &["mouse-pointer"],
                "TOUCHINGOBJECTMENU" => &["mouse-pointer", "edge"],
                "OBJECT" => &["Stage"],
                _ => &["myself"],
            };
            out.push((String::from("specialOptions"), owned(special.to_vec())));
        }
        ("sensing_of", "PROPERTY") => {
            let mut stage_props = owned(STAGE_PROPERTIES.to_vec());
            stage_props.extend(code_unit_sorted(owned(ctx.names_of(
                stage,
                VarType::Scalar,
                false,
            ))));
            let mut sprite_props = owned(SPRITE_PROPERTIES.to_vec());
            sprite_props.extend(code_unit_sorted(owned(ctx.names_of(
                ctx.editing,
                VarType::Scalar,
                true,
            ))));
            out.push((String::from("stageProperties"), stage_props));
            out.push((String::from("spriteProperties"), sprite_props));
        }
        ("sensing_current", "CURRENTMENU") => {
            let times = ["year", "month", "date", "day of week", "hour", "minute", "second"];
            out.push((String::from("timeOptions"), owned(times.to_vec())));
        }
        ("sensing_keyoptions", "KEY_OPTION") => {
            let mut keys = owned(alloc::vec![
                "space",
                "up arrow",
                "down arrow",
                "right arrow",
                "left arrow",
                "enter",
                "any"
            ]);
            keys.extend(('a'..='z').chain('0'..='9').map(String::from));
            out.push((String::from("keyOptions"), keys));
        }
        _ => return None,
    }
    Some(out)
}

/// `JSON.stringify(choices)`.
pub fn choices_json(c: &Choices) -> String {
    let mut s = String::new();
    write_choices_json(&mut s, c);
    s
}

/// [`choices_json`] appended to `out`.
pub fn write_choices_json(out: &mut String, c: &Choices) {
    out.push('{');
    for (k, (key, values)) in c.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        super::jsval::write_json_string(out, key);
        out.push_str(":[");
        for (j, v) in values.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            super::jsval::write_json_string(out, v);
        }
        out.push(']');
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::project::{load, PrimitiveKind};

    #[test]
    fn literal_primitives_have_no_choices() {
        let kinds = [
            PrimitiveKind::Number,
            PrimitiveKind::PositiveNumber,
            PrimitiveKind::WholeNumber,
            PrimitiveKind::Integer,
            PrimitiveKind::Angle,
            PrimitiveKind::Color,
            PrimitiveKind::Text,
        ];
        let inputs: Vec<String> = kinds
            .iter()
            .enumerate()
            .map(|(i, k)| alloc::format!(r#""I{i}":[1,[{},"1"]]"#, k.code()))
            .collect();
        let json = alloc::format!(
            r#"{{"targets":[{{"isStage":true,"name":"Stage","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{"b":{{"opcode":"looks_say","next":null,"parent":null,"inputs":{{{}}},"fields":{{}},"shadow":false,"topLevel":true,"x":0,"y":0}}}},"comments":{{}},"currentCostume":0,"costumes":[],"sounds":[],"volume":100,"layerOrder":0}}],"monitors":[],"extensions":[],"meta":{{"semver":"3.0.0"}}}}"#,
            inputs.join(",")
        );
        let project = load(json.as_bytes()).unwrap();
        let ctx = Ctx::new(&project, 0);
        let tb = ctx.tb();
        let (b, _) = tb.blocks.iter().next().unwrap();
        for (n, kind) in kinds.iter().enumerate() {
            let node = tb.input_child(b, n).unwrap();
            assert!(tb.is_literal(node));
            assert_eq!(tb.opcode(node), kind.opcode());
            assert_eq!(tb.fields_iter(node).count(), 1);
            for f in tb.fields_iter(node) {
                assert_eq!(choices_of(&ctx, node, f.name), None, "{kind:?}");
                assert_eq!(choices(&ctx, node, f.name), None, "{kind:?}");
            }
        }
    }
}
