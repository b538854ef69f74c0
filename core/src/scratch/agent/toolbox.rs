//! What `add_block` creates: the editor's toolbox template of each block (scratch-gui 5.1.104
//! `src/lib/make-toolbox-xml.js` for the fixed categories, scratch-blocks' data category for
//! variable and list blocks), written here as data: which inputs get which shadow with which
//! value, which blocks a sprite's or the stage's toolbox offers. Fields the template leaves
//! out start at the editor's default (a dropdown's first option; `message1` for broadcast
//! menus; the first variable or list by name for data blocks).

use alloc::string::String;
use alloc::vec::Vec;

use super::catalog::{self, Arg, FieldKind, Menu, VarKind};
use super::collate;
use super::menus;
use super::Ctx;
use crate::scratch::project::edit::{NewBlock, NewChild, NewInput};
use crate::scratch::project::{Field, Literal};

/// A shadow's starting value in a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    /// This text.
    Text(&'static str),
    /// The menu's first option.
    First,
    /// The editing target's last costume.
    LastCostume,
    /// The stage's last backdrop.
    LastBackdrop,
    /// The editing target's last sound (or nothing).
    LastSound,
}

/// Which toolboxes offer a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Where {
    Both,
    Sprite,
    Stage,
}

/// One toolbox entry: the block, where it is offered, its input shadows.
struct Template {
    opcode: &'static str,
    offered: Where,
    inputs: &'static [(&'static str, &'static str, Val)],
}

macro_rules! t {
    ($op:literal, $w:ident $(, ($i:literal, $s:literal, $v:expr))* $(,)?) => {
        Template { opcode: $op, offered: Where::$w, inputs: &[$(($i, $s, $v)),*] }
    };
}

use Val::{First, LastBackdrop, LastCostume, LastSound, Text as T};

/// The fixed toolbox categories, in toolbox order (the first entry of an opcode wins).
const TOOLBOX: &[Template] = &[
    // Motion (sprites only)
    t!("motion_movesteps", Sprite, ("STEPS", "math_number", T("10"))),
    t!("motion_turnright", Sprite, ("DEGREES", "math_number", T("15"))),
    t!("motion_turnleft", Sprite, ("DEGREES", "math_number", T("15"))),
    t!("motion_goto", Sprite, ("TO", "motion_goto_menu", First)),
    t!("motion_gotoxy", Sprite, ("X", "math_number", T("0")), ("Y", "math_number", T("0"))),
    t!(
        "motion_glideto",
        Sprite,
        ("SECS", "math_number", T("1")),
        ("TO", "motion_glideto_menu", First)
    ),
    t!(
        "motion_glidesecstoxy",
        Sprite,
        ("SECS", "math_number", T("1")),
        ("X", "math_number", T("0")),
        ("Y", "math_number", T("0"))
    ),
    t!("motion_pointindirection", Sprite, ("DIRECTION", "math_angle", T("90"))),
    t!("motion_pointtowards", Sprite, ("TOWARDS", "motion_pointtowards_menu", First)),
    t!("motion_changexby", Sprite, ("DX", "math_number", T("10"))),
    t!("motion_setx", Sprite, ("X", "math_number", T("0"))),
    t!("motion_changeyby", Sprite, ("DY", "math_number", T("10"))),
    t!("motion_sety", Sprite, ("Y", "math_number", T("0"))),
    t!("motion_ifonedgebounce", Sprite),
    t!("motion_setrotationstyle", Sprite),
    t!("motion_xposition", Sprite),
    t!("motion_yposition", Sprite),
    t!("motion_direction", Sprite),
    // Looks
    t!(
        "looks_sayforsecs",
        Sprite,
        ("MESSAGE", "text", T("Hello!")),
        ("SECS", "math_number", T("2"))
    ),
    t!("looks_say", Sprite, ("MESSAGE", "text", T("Hello!"))),
    t!(
        "looks_thinkforsecs",
        Sprite,
        ("MESSAGE", "text", T("Hmm...")),
        ("SECS", "math_number", T("2"))
    ),
    t!("looks_think", Sprite, ("MESSAGE", "text", T("Hmm..."))),
    t!("looks_switchbackdropto", Stage, ("BACKDROP", "looks_backdrops", LastBackdrop)),
    t!("looks_switchbackdroptoandwait", Stage, ("BACKDROP", "looks_backdrops", LastBackdrop)),
    t!("looks_nextbackdrop", Stage),
    t!("looks_switchcostumeto", Sprite, ("COSTUME", "looks_costume", LastCostume)),
    t!("looks_nextcostume", Sprite),
    t!("looks_switchbackdropto", Sprite, ("BACKDROP", "looks_backdrops", LastBackdrop)),
    t!("looks_nextbackdrop", Sprite),
    t!("looks_changesizeby", Sprite, ("CHANGE", "math_number", T("10"))),
    t!("looks_setsizeto", Sprite, ("SIZE", "math_number", T("100"))),
    t!("looks_changeeffectby", Both, ("CHANGE", "math_number", T("25"))),
    t!("looks_seteffectto", Both, ("VALUE", "math_number", T("0"))),
    t!("looks_cleargraphiceffects", Both),
    t!("looks_show", Sprite),
    t!("looks_hide", Sprite),
    t!("looks_gotofrontback", Sprite),
    t!("looks_goforwardbackwardlayers", Sprite, ("NUM", "math_integer", T("1"))),
    t!("looks_backdropnumbername", Stage),
    t!("looks_costumenumbername", Sprite),
    t!("looks_backdropnumbername", Sprite),
    t!("looks_size", Sprite),
    // Sound
    t!("sound_playuntildone", Both, ("SOUND_MENU", "sound_sounds_menu", LastSound)),
    t!("sound_play", Both, ("SOUND_MENU", "sound_sounds_menu", LastSound)),
    t!("sound_stopallsounds", Both),
    t!("sound_changeeffectby", Both, ("VALUE", "math_number", T("10"))),
    t!("sound_seteffectto", Both, ("VALUE", "math_number", T("100"))),
    t!("sound_cleareffects", Both),
    t!("sound_changevolumeby", Both, ("VOLUME", "math_number", T("-10"))),
    t!("sound_setvolumeto", Both, ("VOLUME", "math_number", T("100"))),
    t!("sound_volume", Both),
    // Events
    t!("event_whenflagclicked", Both),
    t!("event_whenkeypressed", Both),
    t!("event_whenstageclicked", Stage),
    t!("event_whenthisspriteclicked", Sprite),
    t!("event_whenbackdropswitchesto", Both),
    t!("event_whengreaterthan", Both, ("VALUE", "math_number", T("10"))),
    t!("event_whenbroadcastreceived", Both),
    t!("event_broadcast", Both, ("BROADCAST_INPUT", "event_broadcast_menu", First)),
    t!("event_broadcastandwait", Both, ("BROADCAST_INPUT", "event_broadcast_menu", First)),
    // Control
    t!("control_wait", Both, ("DURATION", "math_positive_number", T("1"))),
    t!("control_repeat", Both, ("TIMES", "math_whole_number", T("10"))),
    t!("control_forever", Both),
    t!("control_if", Both),
    t!("control_if_else", Both),
    t!("control_wait_until", Both),
    t!("control_repeat_until", Both),
    t!("control_stop", Both),
    t!("control_create_clone_of", Stage, ("CLONE_OPTION", "control_create_clone_of_menu", First)),
    t!("control_start_as_clone", Sprite),
    t!("control_create_clone_of", Sprite, ("CLONE_OPTION", "control_create_clone_of_menu", First)),
    t!("control_delete_this_clone", Sprite),
    // Sensing
    t!(
        "sensing_touchingobject",
        Sprite,
        ("TOUCHINGOBJECTMENU", "sensing_touchingobjectmenu", First)
    ),
    t!("sensing_touchingcolor", Sprite, ("COLOR", "colour_picker", T("#34de20"))),
    t!(
        "sensing_coloristouchingcolor",
        Sprite,
        ("COLOR", "colour_picker", T("#34de20")),
        ("COLOR2", "colour_picker", T("#fefb24"))
    ),
    t!("sensing_distanceto", Sprite, ("DISTANCETOMENU", "sensing_distancetomenu", First)),
    t!("sensing_askandwait", Both, ("QUESTION", "text", T("What's your name?"))),
    t!("sensing_answer", Both),
    t!("sensing_keypressed", Both, ("KEY_OPTION", "sensing_keyoptions", First)),
    t!("sensing_mousedown", Both),
    t!("sensing_mousex", Both),
    t!("sensing_mousey", Both),
    t!("sensing_setdragmode", Sprite),
    t!("sensing_loudness", Both),
    t!("sensing_timer", Both),
    t!("sensing_resettimer", Both),
    t!("sensing_of", Both, ("OBJECT", "sensing_of_object_menu", First)),
    t!("sensing_current", Both),
    t!("sensing_dayssince2000", Both),
    t!("sensing_username", Both),
    // Operators
    t!("operator_add", Both, ("NUM1", "math_number", T("")), ("NUM2", "math_number", T(""))),
    t!("operator_subtract", Both, ("NUM1", "math_number", T("")), ("NUM2", "math_number", T(""))),
    t!("operator_multiply", Both, ("NUM1", "math_number", T("")), ("NUM2", "math_number", T(""))),
    t!("operator_divide", Both, ("NUM1", "math_number", T("")), ("NUM2", "math_number", T(""))),
    t!("operator_random", Both, ("FROM", "math_number", T("1")), ("TO", "math_number", T("10"))),
    t!("operator_gt", Both, ("OPERAND1", "text", T("")), ("OPERAND2", "text", T("50"))),
    t!("operator_lt", Both, ("OPERAND1", "text", T("")), ("OPERAND2", "text", T("50"))),
    t!("operator_equals", Both, ("OPERAND1", "text", T("")), ("OPERAND2", "text", T("50"))),
    t!("operator_and", Both),
    t!("operator_or", Both),
    t!("operator_not", Both),
    t!("operator_join", Both, ("STRING1", "text", T("apple ")), ("STRING2", "text", T("banana"))),
    t!(
        "operator_letter_of",
        Both,
        ("LETTER", "math_whole_number", T("1")),
        ("STRING", "text", T("apple"))
    ),
    t!("operator_length", Both, ("STRING", "text", T("apple"))),
    t!("operator_contains", Both, ("STRING1", "text", T("apple")), ("STRING2", "text", T("a"))),
    t!("operator_mod", Both, ("NUM1", "math_number", T("")), ("NUM2", "math_number", T(""))),
    t!("operator_round", Both, ("NUM", "math_number", T(""))),
    t!("operator_mathop", Both, ("NUM", "math_number", T(""))),
];

/// The variable category's blocks (offered while the workspace has a variable; the field
/// names the first variable by name) and the list category's (while it has a list).
const DATA: &[Template] = &[
    t!("data_setvariableto", Both, ("VALUE", "text", T("0"))),
    t!("data_changevariableby", Both, ("VALUE", "math_number", T("1"))),
    t!("data_showvariable", Both),
    t!("data_hidevariable", Both),
    t!("data_addtolist", Both, ("ITEM", "text", T("thing"))),
    t!("data_deleteoflist", Both, ("INDEX", "math_integer", T("1"))),
    t!("data_deletealloflist", Both),
    t!("data_insertatlist", Both, ("INDEX", "math_integer", T("1")), ("ITEM", "text", T("thing"))),
    t!(
        "data_replaceitemoflist",
        Both,
        ("INDEX", "math_integer", T("1")),
        ("ITEM", "text", T("thing"))
    ),
    t!("data_itemoflist", Both, ("INDEX", "math_integer", T("1"))),
    t!("data_itemnumoflist", Both, ("ITEM", "text", T("thing"))),
    t!("data_lengthoflist", Both),
    t!("data_listcontainsitem", Both, ("ITEM", "text", T("thing"))),
    t!("data_showlist", Both),
    t!("data_hidelist", Both),
];

/// The name of the broadcast message a new broadcast menu selects.
pub const DEFAULT_MESSAGE: &str = "message1";

/// What creating a block needs from the session besides the project: a message to select
/// (found case-insensitively, or to be created with a fresh id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageRef {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Whether it must be created on the stage.
    pub create: bool,
}

fn find_template(
    list: &'static [Template],
    opcode: &str,
    stage: bool,
) -> Option<&'static Template> {
    list.iter().find(|t| {
        t.opcode == opcode
            && match t.offered {
                Where::Both => true,
                Where::Sprite => !stage,
                Where::Stage => stage,
            }
    })
}

fn text_field(name: &str, value: &str) -> Field {
    Field { name: name.into(), value: Literal::Text(value.into()), id: None, has_id_slot: true }
}

fn var_field(name: &str, id: &str, value: &str) -> Field {
    Field {
        name: name.into(),
        value: Literal::Text(value.into()),
        id: Some(id.into()),
        has_id_slot: true,
    }
}

/// A block built from a template, and the message it names (if it has a broadcast menu).
#[derive(Debug, Clone, PartialEq)]
pub struct Built {
    /// The block tree.
    pub block: NewBlock,
    /// The broadcast message its menu selects.
    pub message: Option<MessageRef>,
}

/// Builds the block the editing target's toolbox offers for `opcode`, or `None` when it offers
/// none (`add_block` then succeeds without creating anything, as ScratchWorld does).
/// `message` is the broadcast message a broadcast menu selects.
pub fn build(ctx: &Ctx<'_>, opcode: &str, message: &MessageRef) -> Option<Built> {
    let stage = ctx.target().is_stage;
    let (template, data) = match find_template(TOOLBOX, opcode, stage) {
        Some(t) => (t, None),
        None => {
            let t = find_template(DATA, opcode, stage)?;
            let spec = catalog::catalog(opcode)?;
            let (field, kind) = spec.args.iter().find_map(|a| match a {
                Arg::Field(n, FieldKind::Variable(k)) => Some((*n, *k)),
                _ => None,
            })?;
            let mut vars = menus::workspace_vars(ctx, kind);
            vars.sort_by(|a, b| collate::base_numeric(a.1, b.1));
            let (id, name) = *vars.first()?;
            (t, Some(var_field(field, id, name)))
        }
    };
    let mut used_message = false;
    let mut block = NewBlock::new(opcode);
    // Blocks outside the catalog (the stage's hat, "switch backdrop and wait") take their
    // template's inputs as they are.
    let args: Vec<Arg> = match catalog::spec(opcode) {
        Some(spec) => spec.args.to_vec(),
        None => template.inputs.iter().map(|(n, _, _)| Arg::Value(n, false)).collect(),
    };
    for arg in &args {
        match arg {
            Arg::Field(name, kind) => {
                let field = match (kind, &data) {
                    (FieldKind::Variable(VarKind::Scalar | VarKind::List), Some(f)) => f.clone(),
                    (FieldKind::Variable(VarKind::Broadcast), _) => {
                        used_message = true;
                        var_field(name, &message.id, &message.name)
                    }
                    _ => text_field(name, &first_value(ctx, *kind)),
                };
                block.fields.push(field);
            }
            Arg::Value(name, _) => {
                let Some((_, shadow, val)) = template.inputs.iter().find(|(i, _, _)| i == name)
                else {
                    continue;
                };
                let (child, msg) = shadow_block(ctx, shadow, *val, message);
                used_message |= msg;
                block.inputs.push(NewInput {
                    name: (*name).into(),
                    value: None,
                    shadow: Some(NewChild::Block(child)),
                });
            }
            Arg::Statement(_) => {}
        }
    }
    if opcode == "control_stop" {
        block.mutation = Some(stop_mutation());
    }
    Some(Built { block, message: used_message.then(|| message.clone()) })
}

/// `control_stop`'s mutation as the editor writes it (no block below).
fn stop_mutation() -> crate::scratch::project::Mutation {
    use crate::scratch::project::Json;
    crate::scratch::project::Mutation {
        proccode: None,
        argument_ids: None,
        argument_names: None,
        argument_defaults: None,
        warp: false,
        has_next: Some(false),
        raw: alloc::vec![
            (String::from("tagName"), Json::String("mutation".into())),
            (String::from("children"), Json::Array(Vec::new())),
            (String::from("hasnext"), Json::String("false".into())),
        ],
    }
}

fn shadow_block(ctx: &Ctx<'_>, opcode: &str, val: Val, message: &MessageRef) -> (NewBlock, bool) {
    let mut b = NewBlock::new(opcode);
    b.shadow = true;
    let Some(spec) = catalog::spec(opcode) else { return (b, false) };
    let Some((field, kind)) = spec.args.iter().find_map(|a| match a {
        Arg::Field(n, k) => Some((*n, *k)),
        _ => None,
    }) else {
        return (b, false);
    };
    if kind == FieldKind::Variable(VarKind::Broadcast) {
        b.fields.push(var_field(field, &message.id, &message.name));
        return (b, true);
    }
    let value = match val {
        Val::Text(t) => String::from(t),
        Val::First => first_value(ctx, kind),
        Val::LastCostume => {
            ctx.target().costumes.last().map(|c| c.name.clone()).unwrap_or_default()
        }
        Val::LastBackdrop => ctx
            .project
            .stage()
            .and_then(|s| s.costumes.last())
            .map(|c| c.name.clone())
            .unwrap_or_default(),
        Val::LastSound => ctx.target().sounds.last().map(|s| s.name.clone()).unwrap_or_default(),
    };
    b.fields.push(text_field(field, &value));
    (b, false)
}

/// A dropdown's value when the template does not set it: its first option.
fn first_value(ctx: &Ctx<'_>, kind: FieldKind) -> String {
    match kind {
        FieldKind::Options(opts) => opts.first().map(|(_, v)| String::from(*v)).unwrap_or_default(),
        // The `of` block reads its object menu, which starts at the stage.
        FieldKind::Menu(Menu::OfProperty) => String::from("backdrop #"),
        FieldKind::Menu(Menu::Stop) => String::from("all"),
        FieldKind::Menu(m) => menu_first(ctx, m),
        _ => String::new(),
    }
}

fn menu_first(ctx: &Ctx<'_>, m: Menu) -> String {
    let sprites = super::view::other_sprites(ctx.project, ctx.editing);
    let first_sprite = || sprites.first().map(|s| String::from(*s)).unwrap_or_default();
    match m {
        Menu::GoTo => String::from("_random_"),
        Menu::Pointer | Menu::Touching => String::from("_mouse_"),
        Menu::OfObject => String::from("_stage_"),
        Menu::Clone if ctx.target().is_stage => first_sprite(),
        Menu::Clone => String::from("_myself_"),
        Menu::Costumes => ctx.target().costumes.first().map(|c| c.name.clone()).unwrap_or_default(),
        Menu::Sounds => ctx.target().sounds.first().map(|s| s.name.clone()).unwrap_or_default(),
        Menu::Backdrops | Menu::BackdropNames => ctx
            .project
            .stage()
            .and_then(|s| s.costumes.first())
            .map(|c| c.name.clone())
            .unwrap_or_default(),
        Menu::OfProperty => String::from("backdrop #"),
        Menu::Stop => String::from("all"),
    }
}

/// The procedure a new `procedures_call` calls (the editor's "My Blocks" category offers one
/// call per custom block, sorted by signature): the first prototype's mutation.
pub fn first_procedure(ctx: &Ctx<'_>) -> Option<crate::scratch::project::Mutation> {
    let mut protos: Vec<&crate::scratch::project::Mutation> = ctx
        .target()
        .blocks
        .as_slice()
        .iter()
        .filter(|b| b.opcode == "procedures_prototype")
        .filter_map(|b| b.mutation.as_ref())
        .collect();
    protos.sort_by(|a, b| {
        collate::locale_compare(
            a.proccode.as_deref().unwrap_or(""),
            b.proccode.as_deref().unwrap_or(""),
        )
    });
    protos.first().map(|m| (*m).clone())
}
