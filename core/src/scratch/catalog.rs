//! The block catalog: every opcode of scratch-vm 5.0.300's core blocks (as scratch-blocks
//! defines them), their shadows and menus, and the blocks of the extensions gobo knows (pen,
//! music, makeymakey, videoSensing, text2speech, translate), each with its shape (hat, stack,
//! cap, reporter, boolean, menu), its inputs (value input with the shadow opcode and the
//! editor toolbox's default literal, boolean input, or C-slot) and its fields (with the first
//! dropdown option when the options are fixed).
//!
//! Editing and validation use it to know what connects where; it says nothing about what a
//! block does (that is `compile`'s table and `blocks/`). Defaults that depend on the project
//! (costume, backdrop, sound, sprite, variable and broadcast menus) are empty here.

/// How a block connects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Starts a script: a next connection, no previous one.
    Hat,
    /// A stack block: previous and next connections (a C-block when it has C-slots).
    Stack,
    /// Ends a stack: previous connection only (`forever`, `delete this clone`).
    Cap,
    /// Reports a value (round).
    Reporter,
    /// Reports a boolean (hexagonal).
    Boolean,
    /// A shadow-only menu or literal (`math_number`, `motion_goto_menu`...).
    Menu,
}

/// What an input takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A value input with a shadow: the shadow's opcode and the toolbox's default literal
    /// (empty when it depends on the project or the toolbox leaves it blank).
    Value {
        /// Shadow opcode, e.g. `"math_number"`.
        shadow: &'static str,
        /// Default literal of the shadow's field.
        default: &'static str,
    },
    /// A boolean input (no shadow).
    Boolean,
    /// A C-slot (`SUBSTACK`, `SUBSTACK2`).
    Statement,
}

/// One input of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputInfo {
    /// Input name.
    pub name: &'static str,
    /// What it takes.
    pub slot: Slot,
}

/// One field of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldInfo {
    /// Field name.
    pub name: &'static str,
    /// First option of a fixed dropdown, or empty.
    pub default: &'static str,
}

/// One opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInfo {
    /// The opcode.
    pub opcode: &'static str,
    /// How it connects.
    pub shape: Shape,
    /// Inputs in the editor's order (`procedures_call` and `procedures_prototype` have
    /// inputs named by their mutation instead).
    pub inputs: &'static [InputInfo],
    /// Fields.
    pub fields: &'static [FieldInfo],
}

impl BlockInfo {
    /// The input with this name.
    pub fn input(&self, name: &str) -> Option<&'static InputInfo> {
        self.inputs.iter().find(|i| i.name == name)
    }

    /// The field with this name.
    pub fn field(&self, name: &str) -> Option<&'static FieldInfo> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether it plugs into an input (reporters, booleans, menus).
    pub fn has_output(&self) -> bool {
        matches!(self.shape, Shape::Reporter | Shape::Boolean | Shape::Menu)
    }

    /// Whether something can come before it in a stack.
    pub fn has_previous(&self) -> bool {
        matches!(self.shape, Shape::Stack | Shape::Cap)
    }

    /// Whether something can come after it (`control_stop` depends on its option: see
    /// [`stop_has_next`]).
    pub fn has_next(&self) -> bool {
        matches!(self.shape, Shape::Hat | Shape::Stack)
    }

    /// Whether it has C-slots.
    pub fn is_c_block(&self) -> bool {
        self.inputs.iter().any(|i| i.slot == Slot::Statement)
    }

    /// The extension it belongs to (`"pen"`, `"music"`...), `None` for core blocks.
    pub fn extension(&self) -> Option<&'static str> {
        extension_of(self.opcode)
    }
}

/// Whether `control_stop` with this `STOP_OPTION` takes a block after it: only "other scripts
/// in sprite" (and "other scripts in stage") do.
pub fn stop_has_next(option: &str) -> bool {
    option.starts_with("other scripts")
}

/// Opcode prefixes of the core categories.
const CORE_PREFIXES: &[&str] = &[
    "argument",
    "colour",
    "control",
    "data",
    "event",
    "looks",
    "math",
    "motion",
    "note",
    "operator",
    "procedures",
    "sensing",
    "sound",
    "text",
];

/// The extension an opcode belongs to, by its prefix (`pen_clear` → `pen`), whether or not
/// gobo knows the opcode; `None` for core prefixes.
pub fn extension_of(opcode: &str) -> Option<&str> {
    let (prefix, _) = opcode.split_once('_')?;
    (!CORE_PREFIXES.contains(&prefix)).then_some(prefix)
}

/// The catalog entry for an opcode.
pub fn lookup(opcode: &str) -> Option<&'static BlockInfo> {
    BLOCKS.binary_search_by(|b| b.opcode.cmp(opcode)).ok().and_then(|i| BLOCKS.get(i))
}

/// Every catalog entry, sorted by opcode.
pub fn all() -> &'static [BlockInfo] {
    BLOCKS
}

const fn b(
    opcode: &'static str,
    shape: Shape,
    inputs: &'static [InputInfo],
    fields: &'static [FieldInfo],
) -> BlockInfo {
    BlockInfo { opcode, shape, inputs, fields }
}

const fn v(name: &'static str, shadow: &'static str, default: &'static str) -> InputInfo {
    InputInfo { name, slot: Slot::Value { shadow, default } }
}

const fn bo(name: &'static str) -> InputInfo {
    InputInfo { name, slot: Slot::Boolean }
}

const fn st(name: &'static str) -> InputInfo {
    InputInfo { name, slot: Slot::Statement }
}

const fn f(name: &'static str, default: &'static str) -> FieldInfo {
    FieldInfo { name, default }
}

use Shape::{Boolean, Cap, Hat, Menu, Reporter, Stack};

/// Sorted by opcode (byte order), for binary search; a test checks the order.
static BLOCKS: &[BlockInfo] = &[
    b("argument_reporter_boolean", Boolean, &[], &[f("VALUE", "")]),
    b("argument_reporter_string_number", Reporter, &[], &[f("VALUE", "")]),
    b("colour_picker", Menu, &[], &[f("COLOUR", "")]),
    b("control_all_at_once", Stack, &[st("SUBSTACK")], &[]),
    b("control_clear_counter", Stack, &[], &[]),
    b(
        "control_create_clone_of",
        Stack,
        &[v("CLONE_OPTION", "control_create_clone_of_menu", "")],
        &[],
    ),
    b("control_create_clone_of_menu", Menu, &[], &[f("CLONE_OPTION", "_myself_")]),
    b("control_delete_this_clone", Cap, &[], &[]),
    b(
        "control_for_each",
        Stack,
        &[v("VALUE", "math_whole_number", "10"), st("SUBSTACK")],
        &[f("VARIABLE", "")],
    ),
    b("control_forever", Cap, &[st("SUBSTACK")], &[]),
    b("control_get_counter", Reporter, &[], &[]),
    b("control_if", Stack, &[bo("CONDITION"), st("SUBSTACK")], &[]),
    b("control_if_else", Stack, &[bo("CONDITION"), st("SUBSTACK"), st("SUBSTACK2")], &[]),
    b("control_incr_counter", Stack, &[], &[]),
    b("control_repeat", Stack, &[v("TIMES", "math_whole_number", "10"), st("SUBSTACK")], &[]),
    b("control_repeat_until", Stack, &[bo("CONDITION"), st("SUBSTACK")], &[]),
    b("control_start_as_clone", Hat, &[], &[]),
    b("control_stop", Stack, &[], &[f("STOP_OPTION", "all")]),
    b("control_wait", Stack, &[v("DURATION", "math_positive_number", "1")], &[]),
    b("control_wait_until", Stack, &[bo("CONDITION")], &[]),
    b("control_while", Stack, &[bo("CONDITION"), st("SUBSTACK")], &[]),
    b("data_addtolist", Stack, &[v("ITEM", "text", "thing")], &[f("LIST", "")]),
    b("data_changevariableby", Stack, &[v("VALUE", "math_number", "1")], &[f("VARIABLE", "")]),
    b("data_deletealloflist", Stack, &[], &[f("LIST", "")]),
    b("data_deleteoflist", Stack, &[v("INDEX", "math_integer", "1")], &[f("LIST", "")]),
    b("data_hidelist", Stack, &[], &[f("LIST", "")]),
    b("data_hidevariable", Stack, &[], &[f("VARIABLE", "")]),
    b(
        "data_insertatlist",
        Stack,
        &[v("ITEM", "text", "thing"), v("INDEX", "math_integer", "1")],
        &[f("LIST", "")],
    ),
    b("data_itemnumoflist", Reporter, &[v("ITEM", "text", "thing")], &[f("LIST", "")]),
    b("data_itemoflist", Reporter, &[v("INDEX", "math_integer", "1")], &[f("LIST", "")]),
    b("data_lengthoflist", Reporter, &[], &[f("LIST", "")]),
    b("data_listcontainsitem", Boolean, &[v("ITEM", "text", "thing")], &[f("LIST", "")]),
    b("data_listcontents", Reporter, &[], &[f("LIST", "")]),
    b("data_listindexall", Menu, &[], &[f("INDEX", "all")]),
    b("data_listindexrandom", Menu, &[], &[f("INDEX", "random")]),
    b(
        "data_replaceitemoflist",
        Stack,
        &[v("INDEX", "math_integer", "1"), v("ITEM", "text", "thing")],
        &[f("LIST", "")],
    ),
    b("data_setvariableto", Stack, &[v("VALUE", "text", "0")], &[f("VARIABLE", "")]),
    b("data_showlist", Stack, &[], &[f("LIST", "")]),
    b("data_showvariable", Stack, &[], &[f("VARIABLE", "")]),
    b("data_variable", Reporter, &[], &[f("VARIABLE", "")]),
    b("event_broadcast", Stack, &[v("BROADCAST_INPUT", "event_broadcast_menu", "")], &[]),
    b("event_broadcast_menu", Menu, &[], &[f("BROADCAST_OPTION", "")]),
    b("event_broadcastandwait", Stack, &[v("BROADCAST_INPUT", "event_broadcast_menu", "")], &[]),
    b("event_touchingobjectmenu", Menu, &[], &[f("TOUCHINGOBJECTMENU", "_mouse_")]),
    b("event_whenbackdropswitchesto", Hat, &[], &[f("BACKDROP", "")]),
    b("event_whenbroadcastreceived", Hat, &[], &[f("BROADCAST_OPTION", "")]),
    b("event_whenflagclicked", Hat, &[], &[]),
    b(
        "event_whengreaterthan",
        Hat,
        &[v("VALUE", "math_number", "10")],
        &[f("WHENGREATERTHANMENU", "LOUDNESS")],
    ),
    b("event_whenkeypressed", Hat, &[], &[f("KEY_OPTION", "space")]),
    b("event_whenstageclicked", Hat, &[], &[]),
    b("event_whenthisspriteclicked", Hat, &[], &[]),
    b(
        "event_whentouchingobject",
        Hat,
        &[v("TOUCHINGOBJECTMENU", "event_touchingobjectmenu", "")],
        &[],
    ),
    b("looks_backdropnumbername", Reporter, &[], &[f("NUMBER_NAME", "number")]),
    b("looks_backdrops", Menu, &[], &[f("BACKDROP", "")]),
    b("looks_changeeffectby", Stack, &[v("CHANGE", "math_number", "25")], &[f("EFFECT", "COLOR")]),
    b("looks_changesizeby", Stack, &[v("CHANGE", "math_number", "10")], &[]),
    b("looks_changestretchby", Stack, &[v("CHANGE", "math_number", "10")], &[]),
    b("looks_cleargraphiceffects", Stack, &[], &[]),
    b("looks_costume", Menu, &[], &[f("COSTUME", "")]),
    b("looks_costumenumbername", Reporter, &[], &[f("NUMBER_NAME", "number")]),
    b(
        "looks_goforwardbackwardlayers",
        Stack,
        &[v("NUM", "math_integer", "1")],
        &[f("FORWARD_BACKWARD", "forward")],
    ),
    b("looks_gotofrontback", Stack, &[], &[f("FRONT_BACK", "front")]),
    b("looks_hide", Stack, &[], &[]),
    b("looks_hideallsprites", Stack, &[], &[]),
    b("looks_nextbackdrop", Stack, &[], &[]),
    b("looks_nextcostume", Stack, &[], &[]),
    b("looks_say", Stack, &[v("MESSAGE", "text", "Hello!")], &[]),
    b(
        "looks_sayforsecs",
        Stack,
        &[v("MESSAGE", "text", "Hello!"), v("SECS", "math_number", "2")],
        &[],
    ),
    b("looks_seteffectto", Stack, &[v("VALUE", "math_number", "0")], &[f("EFFECT", "COLOR")]),
    b("looks_setsizeto", Stack, &[v("SIZE", "math_number", "100")], &[]),
    b("looks_setstretchto", Stack, &[v("STRETCH", "math_number", "100")], &[]),
    b("looks_show", Stack, &[], &[]),
    b("looks_size", Reporter, &[], &[]),
    b("looks_switchbackdropto", Stack, &[v("BACKDROP", "looks_backdrops", "")], &[]),
    b("looks_switchbackdroptoandwait", Stack, &[v("BACKDROP", "looks_backdrops", "")], &[]),
    b("looks_switchcostumeto", Stack, &[v("COSTUME", "looks_costume", "")], &[]),
    b("looks_think", Stack, &[v("MESSAGE", "text", "Hmm...")], &[]),
    b(
        "looks_thinkforsecs",
        Stack,
        &[v("MESSAGE", "text", "Hmm..."), v("SECS", "math_number", "2")],
        &[],
    ),
    b("makeymakey_menu_KEY", Menu, &[], &[f("KEY", "SPACE")]),
    b("makeymakey_menu_SEQUENCE", Menu, &[], &[f("SEQUENCE", "LEFT UP RIGHT")]),
    b(
        "makeymakey_whenCodePressed",
        Hat,
        &[v("SEQUENCE", "makeymakey_menu_SEQUENCE", "LEFT UP RIGHT")],
        &[],
    ),
    b("makeymakey_whenMakeyKeyPressed", Hat, &[v("KEY", "makeymakey_menu_KEY", "SPACE")], &[]),
    b("math_angle", Menu, &[], &[f("NUM", "")]),
    b("math_integer", Menu, &[], &[f("NUM", "")]),
    b("math_number", Menu, &[], &[f("NUM", "")]),
    b("math_positive_number", Menu, &[], &[f("NUM", "")]),
    b("math_whole_number", Menu, &[], &[f("NUM", "")]),
    b("motion_align_scene", Stack, &[], &[f("ALIGNMENT", "bottom-left")]),
    b("motion_changexby", Stack, &[v("DX", "math_number", "10")], &[]),
    b("motion_changeyby", Stack, &[v("DY", "math_number", "10")], &[]),
    b("motion_direction", Reporter, &[], &[]),
    b(
        "motion_glidesecstoxy",
        Stack,
        &[v("SECS", "math_number", "1"), v("X", "math_number", "0"), v("Y", "math_number", "0")],
        &[],
    ),
    b(
        "motion_glideto",
        Stack,
        &[v("SECS", "math_number", "1"), v("TO", "motion_glideto_menu", "")],
        &[],
    ),
    b("motion_glideto_menu", Menu, &[], &[f("TO", "_random_")]),
    b("motion_goto", Stack, &[v("TO", "motion_goto_menu", "")], &[]),
    b("motion_goto_menu", Menu, &[], &[f("TO", "_random_")]),
    b("motion_gotoxy", Stack, &[v("X", "math_number", "0"), v("Y", "math_number", "0")], &[]),
    b("motion_ifonedgebounce", Stack, &[], &[]),
    b("motion_movesteps", Stack, &[v("STEPS", "math_number", "10")], &[]),
    b("motion_pointindirection", Stack, &[v("DIRECTION", "math_angle", "90")], &[]),
    b("motion_pointtowards", Stack, &[v("TOWARDS", "motion_pointtowards_menu", "")], &[]),
    b("motion_pointtowards_menu", Menu, &[], &[f("TOWARDS", "_mouse_")]),
    b("motion_scroll_right", Stack, &[v("DISTANCE", "math_number", "10")], &[]),
    b("motion_scroll_up", Stack, &[v("DISTANCE", "math_number", "10")], &[]),
    b("motion_setrotationstyle", Stack, &[], &[f("STYLE", "left-right")]),
    b("motion_setx", Stack, &[v("X", "math_number", "0")], &[]),
    b("motion_sety", Stack, &[v("Y", "math_number", "0")], &[]),
    b("motion_turnleft", Stack, &[v("DEGREES", "math_number", "15")], &[]),
    b("motion_turnright", Stack, &[v("DEGREES", "math_number", "15")], &[]),
    b("motion_xposition", Reporter, &[], &[]),
    b("motion_xscroll", Reporter, &[], &[]),
    b("motion_yposition", Reporter, &[], &[]),
    b("motion_yscroll", Reporter, &[], &[]),
    b("music_changeTempo", Stack, &[v("TEMPO", "math_number", "20")], &[]),
    b("music_getTempo", Reporter, &[], &[]),
    b("music_menu_DRUM", Menu, &[], &[f("DRUM", "1")]),
    b("music_menu_INSTRUMENT", Menu, &[], &[f("INSTRUMENT", "1")]),
    b(
        "music_midiPlayDrumForBeats",
        Stack,
        &[v("DRUM", "music_menu_DRUM", "1"), v("BEATS", "math_number", "0.25")],
        &[],
    ),
    b("music_midiSetInstrument", Stack, &[v("INSTRUMENT", "math_number", "1")], &[]),
    b(
        "music_playDrumForBeats",
        Stack,
        &[v("DRUM", "music_menu_DRUM", "1"), v("BEATS", "math_number", "0.25")],
        &[],
    ),
    b(
        "music_playNoteForBeats",
        Stack,
        &[v("NOTE", "note", "60"), v("BEATS", "math_number", "0.25")],
        &[],
    ),
    b("music_restForBeats", Stack, &[v("BEATS", "math_number", "0.25")], &[]),
    b("music_setInstrument", Stack, &[v("INSTRUMENT", "music_menu_INSTRUMENT", "1")], &[]),
    b("music_setTempo", Stack, &[v("TEMPO", "math_number", "60")], &[]),
    b("note", Menu, &[], &[f("NOTE", "60")]),
    b("operator_add", Reporter, &[v("NUM1", "math_number", ""), v("NUM2", "math_number", "")], &[]),
    b("operator_and", Boolean, &[bo("OPERAND1"), bo("OPERAND2")], &[]),
    b(
        "operator_contains",
        Boolean,
        &[v("STRING1", "text", "apple"), v("STRING2", "text", "a")],
        &[],
    ),
    b(
        "operator_divide",
        Reporter,
        &[v("NUM1", "math_number", ""), v("NUM2", "math_number", "")],
        &[],
    ),
    b("operator_equals", Boolean, &[v("OPERAND1", "text", ""), v("OPERAND2", "text", "50")], &[]),
    b("operator_gt", Boolean, &[v("OPERAND1", "text", ""), v("OPERAND2", "text", "50")], &[]),
    b(
        "operator_join",
        Reporter,
        &[v("STRING1", "text", "apple"), v("STRING2", "text", "banana")],
        &[],
    ),
    b("operator_length", Reporter, &[v("STRING", "text", "apple")], &[]),
    b(
        "operator_letter_of",
        Reporter,
        &[v("LETTER", "math_whole_number", "1"), v("STRING", "text", "apple")],
        &[],
    ),
    b("operator_lt", Boolean, &[v("OPERAND1", "text", ""), v("OPERAND2", "text", "50")], &[]),
    b("operator_mathop", Reporter, &[v("NUM", "math_number", "")], &[f("OPERATOR", "abs")]),
    b("operator_mod", Reporter, &[v("NUM1", "math_number", ""), v("NUM2", "math_number", "")], &[]),
    b(
        "operator_multiply",
        Reporter,
        &[v("NUM1", "math_number", ""), v("NUM2", "math_number", "")],
        &[],
    ),
    b("operator_not", Boolean, &[bo("OPERAND")], &[]),
    b("operator_or", Boolean, &[bo("OPERAND1"), bo("OPERAND2")], &[]),
    b(
        "operator_random",
        Reporter,
        &[v("FROM", "math_number", "1"), v("TO", "math_number", "10")],
        &[],
    ),
    b("operator_round", Reporter, &[v("NUM", "math_number", "")], &[]),
    b(
        "operator_subtract",
        Reporter,
        &[v("NUM1", "math_number", ""), v("NUM2", "math_number", "")],
        &[],
    ),
    b(
        "pen_changePenColorParamBy",
        Stack,
        &[v("COLOR_PARAM", "pen_menu_colorParam", "color"), v("VALUE", "math_number", "10")],
        &[],
    ),
    b("pen_changePenHueBy", Stack, &[v("HUE", "math_number", "1")], &[]),
    b("pen_changePenShadeBy", Stack, &[v("SHADE", "math_number", "1")], &[]),
    b("pen_changePenSizeBy", Stack, &[v("SIZE", "math_number", "1")], &[]),
    b("pen_clear", Stack, &[], &[]),
    b("pen_menu_colorParam", Menu, &[], &[f("colorParam", "color")]),
    b("pen_penDown", Stack, &[], &[]),
    b("pen_penUp", Stack, &[], &[]),
    b(
        "pen_setPenColorParamTo",
        Stack,
        &[v("COLOR_PARAM", "pen_menu_colorParam", "color"), v("VALUE", "math_number", "50")],
        &[],
    ),
    b("pen_setPenColorToColor", Stack, &[v("COLOR", "colour_picker", "")], &[]),
    b("pen_setPenHueToNumber", Stack, &[v("HUE", "math_number", "1")], &[]),
    b("pen_setPenShadeToNumber", Stack, &[v("SHADE", "math_number", "1")], &[]),
    b("pen_setPenSizeTo", Stack, &[v("SIZE", "math_number", "1")], &[]),
    b("pen_stamp", Stack, &[], &[]),
    b("procedures_call", Stack, &[], &[]),
    b("procedures_definition", Hat, &[v("custom_block", "procedures_prototype", "")], &[]),
    b("procedures_prototype", Menu, &[], &[]),
    b("sensing_answer", Reporter, &[], &[]),
    b("sensing_askandwait", Stack, &[v("QUESTION", "text", "What's your name?")], &[]),
    b(
        "sensing_coloristouchingcolor",
        Boolean,
        &[v("COLOR", "colour_picker", ""), v("COLOR2", "colour_picker", "")],
        &[],
    ),
    b("sensing_current", Reporter, &[], &[f("CURRENTMENU", "YEAR")]),
    b("sensing_dayssince2000", Reporter, &[], &[]),
    b("sensing_distanceto", Reporter, &[v("DISTANCETOMENU", "sensing_distancetomenu", "")], &[]),
    b("sensing_distancetomenu", Menu, &[], &[f("DISTANCETOMENU", "_mouse_")]),
    b("sensing_keyoptions", Menu, &[], &[f("KEY_OPTION", "space")]),
    b("sensing_keypressed", Boolean, &[v("KEY_OPTION", "sensing_keyoptions", "")], &[]),
    b("sensing_loud", Boolean, &[], &[]),
    b("sensing_loudness", Reporter, &[], &[]),
    b("sensing_mousedown", Boolean, &[], &[]),
    b("sensing_mousex", Reporter, &[], &[]),
    b("sensing_mousey", Reporter, &[], &[]),
    b(
        "sensing_of",
        Reporter,
        &[v("OBJECT", "sensing_of_object_menu", "")],
        &[f("PROPERTY", "backdrop #")],
    ),
    b("sensing_of_object_menu", Menu, &[], &[f("OBJECT", "_stage_")]),
    b("sensing_resettimer", Stack, &[], &[]),
    b("sensing_setdragmode", Stack, &[], &[f("DRAG_MODE", "draggable")]),
    b("sensing_timer", Reporter, &[], &[]),
    b("sensing_touchingcolor", Boolean, &[v("COLOR", "colour_picker", "")], &[]),
    b(
        "sensing_touchingobject",
        Boolean,
        &[v("TOUCHINGOBJECTMENU", "sensing_touchingobjectmenu", "")],
        &[],
    ),
    b("sensing_touchingobjectmenu", Menu, &[], &[f("TOUCHINGOBJECTMENU", "_mouse_")]),
    b("sensing_userid", Reporter, &[], &[]),
    b("sensing_username", Reporter, &[], &[]),
    b("sound_beats_menu", Menu, &[], &[f("BEATS", "")]),
    b("sound_changeeffectby", Stack, &[v("VALUE", "math_number", "10")], &[f("EFFECT", "PITCH")]),
    b("sound_changevolumeby", Stack, &[v("VOLUME", "math_number", "-10")], &[]),
    b("sound_cleareffects", Stack, &[], &[]),
    b("sound_effects_menu", Menu, &[], &[f("EFFECT", "")]),
    b("sound_play", Stack, &[v("SOUND_MENU", "sound_sounds_menu", "")], &[]),
    b("sound_playuntildone", Stack, &[v("SOUND_MENU", "sound_sounds_menu", "")], &[]),
    b("sound_seteffectto", Stack, &[v("VALUE", "math_number", "100")], &[f("EFFECT", "PITCH")]),
    b("sound_setvolumeto", Stack, &[v("VOLUME", "math_number", "100")], &[]),
    b("sound_sounds_menu", Menu, &[], &[f("SOUND_MENU", "")]),
    b("sound_stopallsounds", Stack, &[], &[]),
    b("sound_volume", Reporter, &[], &[]),
    b("text", Menu, &[], &[f("TEXT", "")]),
    b("text2speech_menu_languages", Menu, &[], &[f("languages", "en")]),
    b("text2speech_menu_voices", Menu, &[], &[f("voices", "ALTO")]),
    b("text2speech_setLanguage", Stack, &[v("LANGUAGE", "text2speech_menu_languages", "en")], &[]),
    b("text2speech_setVoice", Stack, &[v("VOICE", "text2speech_menu_voices", "ALTO")], &[]),
    b("text2speech_speakAndWait", Stack, &[v("WORDS", "text", "hello")], &[]),
    b(
        "translate_getTranslate",
        Reporter,
        &[v("WORDS", "text", "hello"), v("LANGUAGE", "translate_menu_languages", "")],
        &[],
    ),
    b("translate_getViewerLanguage", Reporter, &[], &[]),
    b("translate_menu_languages", Menu, &[], &[f("languages", "")]),
    b("videoSensing_menu_ATTRIBUTE", Menu, &[], &[f("ATTRIBUTE", "motion")]),
    b("videoSensing_menu_SUBJECT", Menu, &[], &[f("SUBJECT", "sprite")]),
    b("videoSensing_menu_VIDEO_STATE", Menu, &[], &[f("VIDEO_STATE", "on")]),
    b("videoSensing_setVideoTransparency", Stack, &[v("TRANSPARENCY", "math_number", "50")], &[]),
    b(
        "videoSensing_videoOn",
        Reporter,
        &[
            v("ATTRIBUTE", "videoSensing_menu_ATTRIBUTE", "motion"),
            v("SUBJECT", "videoSensing_menu_SUBJECT", "sprite"),
        ],
        &[],
    ),
    b(
        "videoSensing_videoToggle",
        Stack,
        &[v("VIDEO_STATE", "videoSensing_menu_VIDEO_STATE", "on")],
        &[],
    ),
    b("videoSensing_whenMotionGreaterThan", Hat, &[v("REFERENCE", "math_number", "10")], &[]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_unique() {
        for w in BLOCKS.windows(2) {
            assert!(w[0].opcode < w[1].opcode, "{} before {}", w[0].opcode, w[1].opcode);
        }
    }

    #[test]
    fn shadows_are_menus() {
        for b in BLOCKS {
            for i in b.inputs {
                if let Slot::Value { shadow, .. } = i.slot {
                    let s =
                        lookup(shadow).unwrap_or_else(|| panic!("{}: shadow {shadow}", b.opcode));
                    assert_eq!(s.shape, Shape::Menu, "{} {}", b.opcode, shadow);
                }
            }
        }
    }
}
