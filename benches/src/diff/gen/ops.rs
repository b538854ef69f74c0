//! The block tables of the generator: every stack block, reporter and hat it writes, with
//! their inputs and fields, and which profile may use them. The geometry-free profile leaves
//! out what depends on costume silhouettes (edges, touching, bouncing, picking by mouse),
//! which the Node reference only approximates.

/// What fills an input.
#[derive(Clone, Copy, Debug)]
pub enum In {
    /// A number slot (`math_number` shadow).
    Num(&'static str),
    /// A whole-number slot (`math_whole_number`), e.g. repeat counts.
    Whole(&'static str),
    /// A text slot.
    Text(&'static str),
    /// A boolean slot (no shadow).
    Bool(&'static str),
    /// A colour slot (`colour_picker`).
    Colour(&'static str),
    /// A menu shadow: input name, shadow opcode, field name, which values.
    Menu(&'static str, &'static str, &'static str, Menu),
}

/// The values a menu offers.
#[derive(Clone, Copy, Debug)]
pub enum Menu {
    /// Other sprites, and the given special targets.
    Targets(&'static [&'static str]),
    /// Costume names of the target.
    Costume,
    /// Backdrop names, plus `next`/`previous`/`random backdrop`.
    Backdrop,
    /// Keys.
    Key,
    /// Sprites and the stage for `sensing_of`.
    OfObject,
    /// Pen colour parameters.
    PenParam,
    /// A fixed list.
    Fixed(&'static [&'static str]),
}

/// What a field holds.
#[derive(Clone, Copy, Debug)]
pub enum Fld {
    Var,
    List,
    Fixed(&'static str, &'static [&'static str]),
    /// `sensing_of`'s PROPERTY, chosen for the object (sprite or stage).
    OfProperty,
}

/// Where a block may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Anywhere.
    Any,
    /// Only in sprites.
    Sprite,
    /// Only on the stage.
    Stage,
}

/// A stack block.
#[derive(Clone, Copy, Debug)]
pub struct Stack {
    pub opcode: &'static str,
    pub inputs: &'static [In],
    pub fields: &'static [Fld],
    /// Number of C-block branches.
    pub branches: u8,
    pub scope: Scope,
    /// Whether the Node reference runs it exactly (no silhouette geometry).
    pub geometry_free: bool,
}

/// A reporter.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    pub opcode: &'static str,
    pub inputs: &'static [In],
    pub fields: &'static [Fld],
    pub boolean: bool,
    pub scope: Scope,
    pub geometry_free: bool,
}

const fn s(opcode: &'static str, inputs: &'static [In], fields: &'static [Fld]) -> Stack {
    Stack { opcode, inputs, fields, branches: 0, scope: Scope::Any, geometry_free: true }
}

const fn sprite(mut st: Stack) -> Stack {
    st.scope = Scope::Sprite;
    st
}

const fn stage_only(mut st: Stack) -> Stack {
    st.scope = Scope::Stage;
    st
}

const fn geometric(mut st: Stack) -> Stack {
    st.geometry_free = false;
    st
}

const fn c(opcode: &'static str, inputs: &'static [In], branches: u8) -> Stack {
    Stack { opcode, inputs, fields: &[], branches, scope: Scope::Any, geometry_free: true }
}

const fn r(opcode: &'static str, inputs: &'static [In], fields: &'static [Fld]) -> Reporter {
    Reporter { opcode, inputs, fields, boolean: false, scope: Scope::Any, geometry_free: true }
}

const fn b(opcode: &'static str, inputs: &'static [In], fields: &'static [Fld]) -> Reporter {
    Reporter { opcode, inputs, fields, boolean: true, scope: Scope::Any, geometry_free: true }
}

const fn rs(mut rep: Reporter) -> Reporter {
    rep.scope = Scope::Sprite;
    rep
}

const fn rg(mut rep: Reporter) -> Reporter {
    rep.geometry_free = false;
    rep
}

const GOTO: &[&str] = &["_random_", "_mouse_"];
const EFFECTS: &[&str] =
    &["COLOR", "FISHEYE", "WHIRL", "PIXELATE", "MOSAIC", "BRIGHTNESS", "GHOST"];
const MATHOPS: &[&str] = &[
    "abs", "floor", "ceiling", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "ln", "log",
    "e ^", "10 ^",
];
const CURRENT: &[&str] = &["YEAR", "MONTH", "DATE", "DAYOFWEEK", "HOUR", "MINUTE", "SECOND"];
pub const STOPS: &[&str] = &["all", "this script", "other scripts in sprite"];

/// Stack blocks. C-blocks and `stop` are handled by the writer through `branches`/opcode.
pub const STACK: &[Stack] = &[
    sprite(s("motion_movesteps", &[In::Num("STEPS")], &[])),
    sprite(s("motion_turnright", &[In::Num("DEGREES")], &[])),
    sprite(s("motion_turnleft", &[In::Num("DEGREES")], &[])),
    sprite(s("motion_gotoxy", &[In::Num("X"), In::Num("Y")], &[])),
    sprite(s("motion_goto", &[In::Menu("TO", "motion_goto_menu", "TO", Menu::Targets(GOTO))], &[])),
    sprite(s("motion_changexby", &[In::Num("DX")], &[])),
    sprite(s("motion_setx", &[In::Num("X")], &[])),
    sprite(s("motion_changeyby", &[In::Num("DY")], &[])),
    sprite(s("motion_sety", &[In::Num("Y")], &[])),
    sprite(s("motion_pointindirection", &[In::Num("DIRECTION")], &[])),
    sprite(s(
        "motion_pointtowards",
        &[In::Menu("TOWARDS", "motion_pointtowards_menu", "TOWARDS", Menu::Targets(GOTO))],
        &[],
    )),
    sprite(s("motion_glidesecstoxy", &[In::Num("SECS"), In::Num("X"), In::Num("Y")], &[])),
    sprite(s(
        "motion_glideto",
        &[In::Num("SECS"), In::Menu("TO", "motion_glideto_menu", "TO", Menu::Targets(GOTO))],
        &[],
    )),
    sprite(s(
        "motion_setrotationstyle",
        &[],
        &[Fld::Fixed("STYLE", &["left-right", "don't rotate", "all around"])],
    )),
    sprite(geometric(s("motion_ifonedgebounce", &[], &[]))),
    sprite(s("looks_say", &[In::Text("MESSAGE")], &[])),
    sprite(s("looks_sayforsecs", &[In::Text("MESSAGE"), In::Num("SECS")], &[])),
    sprite(s("looks_think", &[In::Text("MESSAGE")], &[])),
    sprite(s("looks_thinkforsecs", &[In::Text("MESSAGE"), In::Num("SECS")], &[])),
    sprite(s("looks_show", &[], &[])),
    sprite(s("looks_hide", &[], &[])),
    sprite(s(
        "looks_switchcostumeto",
        &[In::Menu("COSTUME", "looks_costume", "COSTUME", Menu::Costume)],
        &[],
    )),
    sprite(s("looks_nextcostume", &[], &[])),
    s(
        "looks_switchbackdropto",
        &[In::Menu("BACKDROP", "looks_backdrops", "BACKDROP", Menu::Backdrop)],
        &[],
    ),
    stage_only(s(
        "looks_switchbackdroptoandwait",
        &[In::Menu("BACKDROP", "looks_backdrops", "BACKDROP", Menu::Backdrop)],
        &[],
    )),
    s("looks_nextbackdrop", &[], &[]),
    sprite(s("looks_changesizeby", &[In::Num("CHANGE")], &[])),
    sprite(s("looks_setsizeto", &[In::Num("SIZE")], &[])),
    s("looks_changeeffectby", &[In::Num("CHANGE")], &[Fld::Fixed("EFFECT", EFFECTS)]),
    s("looks_seteffectto", &[In::Num("VALUE")], &[Fld::Fixed("EFFECT", EFFECTS)]),
    s("looks_cleargraphiceffects", &[], &[]),
    sprite(s("looks_gotofrontback", &[], &[Fld::Fixed("FRONT_BACK", &["front", "back"])])),
    sprite(s(
        "looks_goforwardbackwardlayers",
        &[In::Num("NUM")],
        &[Fld::Fixed("FORWARD_BACKWARD", &["forward", "backward"])],
    )),
    s("sound_setvolumeto", &[In::Num("VOLUME")], &[]),
    s("sound_changevolumeby", &[In::Num("VOLUME")], &[]),
    s("data_setvariableto", &[In::Text("VALUE")], &[Fld::Var]),
    s("data_changevariableby", &[In::Num("VALUE")], &[Fld::Var]),
    s("data_addtolist", &[In::Text("ITEM")], &[Fld::List]),
    s("data_deleteoflist", &[In::Num("INDEX")], &[Fld::List]),
    s("data_deletealloflist", &[], &[Fld::List]),
    s("data_insertatlist", &[In::Text("ITEM"), In::Num("INDEX")], &[Fld::List]),
    s("data_replaceitemoflist", &[In::Num("INDEX"), In::Text("ITEM")], &[Fld::List]),
    s("control_wait", &[In::Num("DURATION")], &[]),
    c("control_repeat", &[In::Whole("TIMES")], 1),
    c("control_forever", &[], 1),
    c("control_if", &[In::Bool("CONDITION")], 1),
    c("control_if_else", &[In::Bool("CONDITION")], 2),
    c("control_repeat_until", &[In::Bool("CONDITION")], 1),
    c("control_while", &[In::Bool("CONDITION")], 1),
    s("control_wait_until", &[In::Bool("CONDITION")], &[]),
    s("control_stop", &[], &[Fld::Fixed("STOP_OPTION", STOPS)]),
    s(
        "control_create_clone_of",
        &[In::Menu(
            "CLONE_OPTION",
            "control_create_clone_of_menu",
            "CLONE_OPTION",
            Menu::Targets(&["_myself_"]),
        )],
        &[],
    ),
    sprite(s("control_delete_this_clone", &[], &[])),
    s("control_incr_counter", &[], &[]),
    s("control_clear_counter", &[], &[]),
    s("event_broadcast", &[], &[]),
    s("event_broadcastandwait", &[], &[]),
    s("sensing_askandwait", &[In::Text("QUESTION")], &[]),
    s("sensing_resettimer", &[], &[]),
    sprite(s(
        "sensing_setdragmode",
        &[],
        &[Fld::Fixed("DRAG_MODE", &["draggable", "not draggable"])],
    )),
    s("pen_clear", &[], &[]),
    sprite(s("pen_penDown", &[], &[])),
    sprite(s("pen_penUp", &[], &[])),
    sprite(s("pen_stamp", &[], &[])),
    sprite(s("pen_setPenColorToColor", &[In::Colour("COLOR")], &[])),
    sprite(s(
        "pen_changePenColorParamBy",
        &[
            In::Menu("COLOR_PARAM", "pen_menu_colorParam", "colorParam", Menu::PenParam),
            In::Num("VALUE"),
        ],
        &[],
    )),
    sprite(s("pen_changePenSizeBy", &[In::Num("SIZE")], &[])),
    s("music_setTempo", &[In::Num("TEMPO")], &[]),
    s("music_changeTempo", &[In::Num("TEMPO")], &[]),
    s("music_restForBeats", &[In::Num("BEATS")], &[]),
    s("procedures_call", &[], &[]),
];

/// Reporters and booleans.
pub const REPORTERS: &[Reporter] = &[
    r("operator_add", &[In::Num("NUM1"), In::Num("NUM2")], &[]),
    r("operator_subtract", &[In::Num("NUM1"), In::Num("NUM2")], &[]),
    r("operator_multiply", &[In::Num("NUM1"), In::Num("NUM2")], &[]),
    r("operator_divide", &[In::Num("NUM1"), In::Num("NUM2")], &[]),
    r("operator_mod", &[In::Num("NUM1"), In::Num("NUM2")], &[]),
    r("operator_random", &[In::Num("FROM"), In::Num("TO")], &[]),
    r("operator_round", &[In::Num("NUM")], &[]),
    r("operator_mathop", &[In::Num("NUM")], &[Fld::Fixed("OPERATOR", MATHOPS)]),
    b("operator_lt", &[In::Text("OPERAND1"), In::Text("OPERAND2")], &[]),
    b("operator_gt", &[In::Text("OPERAND1"), In::Text("OPERAND2")], &[]),
    b("operator_equals", &[In::Text("OPERAND1"), In::Text("OPERAND2")], &[]),
    b("operator_and", &[In::Bool("OPERAND1"), In::Bool("OPERAND2")], &[]),
    b("operator_or", &[In::Bool("OPERAND1"), In::Bool("OPERAND2")], &[]),
    b("operator_not", &[In::Bool("OPERAND")], &[]),
    r("operator_join", &[In::Text("STRING1"), In::Text("STRING2")], &[]),
    r("operator_letter_of", &[In::Whole("LETTER"), In::Text("STRING")], &[]),
    r("operator_length", &[In::Text("STRING")], &[]),
    b("operator_contains", &[In::Text("STRING1"), In::Text("STRING2")], &[]),
    r("data_itemoflist", &[In::Num("INDEX")], &[Fld::List]),
    r("data_itemnumoflist", &[In::Text("ITEM")], &[Fld::List]),
    r("data_lengthoflist", &[], &[Fld::List]),
    b("data_listcontainsitem", &[In::Text("ITEM")], &[Fld::List]),
    r("data_listcontents", &[], &[Fld::List]),
    rs(r("motion_xposition", &[], &[])),
    rs(r("motion_yposition", &[], &[])),
    rs(r("motion_direction", &[], &[])),
    rs(r("looks_size", &[], &[])),
    rs(r("looks_costumenumbername", &[], &[Fld::Fixed("NUMBER_NAME", &["number", "name"])])),
    r("looks_backdropnumbername", &[], &[Fld::Fixed("NUMBER_NAME", &["number", "name"])]),
    r("sound_volume", &[], &[]),
    r("sensing_timer", &[], &[]),
    r("sensing_answer", &[], &[]),
    r("sensing_mousex", &[], &[]),
    r("sensing_mousey", &[], &[]),
    b("sensing_mousedown", &[], &[]),
    b(
        "sensing_keypressed",
        &[In::Menu("KEY_OPTION", "sensing_keyoptions", "KEY_OPTION", Menu::Key)],
        &[],
    ),
    r("sensing_current", &[], &[Fld::Fixed("CURRENTMENU", CURRENT)]),
    r("sensing_dayssince2000", &[], &[]),
    r("sensing_username", &[], &[]),
    r("sensing_loudness", &[], &[]),
    r(
        "sensing_of",
        &[In::Menu("OBJECT", "sensing_of_object_menu", "OBJECT", Menu::OfObject)],
        &[Fld::OfProperty],
    ),
    rs(r(
        "sensing_distanceto",
        &[In::Menu(
            "DISTANCETOMENU",
            "sensing_distancetomenu",
            "DISTANCETOMENU",
            Menu::Targets(&["_mouse_"]),
        )],
        &[],
    )),
    r("control_get_counter", &[], &[]),
    r("music_getTempo", &[], &[]),
    rs(rg(b(
        "sensing_touchingobject",
        &[In::Menu(
            "TOUCHINGOBJECTMENU",
            "sensing_touchingobjectmenu",
            "TOUCHINGOBJECTMENU",
            Menu::Targets(&["_edge_", "_mouse_"]),
        )],
        &[],
    ))),
    rs(rg(b("sensing_touchingcolor", &[In::Colour("COLOR")], &[]))),
    rs(rg(b("sensing_coloristouchingcolor", &[In::Colour("COLOR"), In::Colour("COLOR2")], &[]))),
];

/// Hats: opcode and its field (name, values) if any. Menus are written by the generator.
pub const SPRITE_HATS: &[&str] = &[
    "event_whenflagclicked",
    "event_whenbroadcastreceived",
    "event_whenkeypressed",
    "control_start_as_clone",
    "event_whenthisspriteclicked",
    "event_whenbackdropswitchesto",
    "event_whengreaterthan",
];

/// Stage hats.
pub const STAGE_HATS: &[&str] = &[
    "event_whenflagclicked",
    "event_whenbroadcastreceived",
    "event_whenkeypressed",
    "event_whenstageclicked",
    "event_whenbackdropswitchesto",
    "event_whengreaterthan",
];

/// Math operators (for tests and the minimizer's descriptions).
pub const MATH: &[&str] = MATHOPS;
