//! The block shapes, inputs, fields and dropdown options of the blocks an agent can see and
//! create, written from scratch-blocks 1.1 (`blocks_vertical/`, `msg/messages.js`, English) and
//! the menus scratch-gui 5.1 installs over some of them (`src/lib/blocks.js`).
//!
//! [`CATALOG`] is ScratchWorld's 119-opcode composite-mode catalog (its paper's Fig. 15; the
//! pseudocode renderer's allow list). [`SHADOWS`] are the shadow blocks that fill their inputs.
//! [`extra_shape`] gives the shapes of the blocks outside the catalog that the `full`
//! observation shows. What a new block starts with (the toolbox) lives in
//! the toolbox module; the options of the dynamic menus are computed in [`super::menus`].

/// What a block connects with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// No previous connection; a next connection (a script's first block).
    Hat,
    /// Previous and next connections.
    Stack,
    /// A previous connection only (`forever`, `delete this clone`).
    Cap,
    /// An output connection with this type check.
    Reporter(Output),
}

/// The type check on a reporter's output (scratch-blocks `output_number` and so on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// No check (`item of list`, `of`): fits any input.
    Any,
    /// `["Number"]`.
    Number,
    /// `["String"]`.
    String,
    /// `["Boolean"]`: the only output a Boolean input accepts.
    Boolean,
}

/// A dropdown whose options the editor computes from the project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Menu {
    /// The editing target's sounds, then `record...`.
    Sounds,
    /// The editing target's costumes.
    Costumes,
    /// The stage's backdrops, then `next backdrop`, `previous backdrop`, `random backdrop`.
    Backdrops,
    /// The stage's backdrops only (`when backdrop switches to`).
    BackdropNames,
    /// `random position`, `mouse-pointer`, the other sprites.
    GoTo,
    /// `mouse-pointer`, the other sprites.
    Pointer,
    /// `mouse-pointer`, `edge`, the other sprites.
    Touching,
    /// `Stage`, the other sprites.
    OfObject,
    /// `myself`, the other sprites (on the stage: the sprites).
    Clone,
    /// The properties of the object chosen in the `of` block's menu, with its variables.
    OfProperty,
    /// `all`, `this script`, `other scripts in sprite` (only the last with a block below).
    Stop,
}

/// The kinds of variable a variable field names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    /// A scalar variable (type `""`).
    Scalar,
    /// A list.
    List,
    /// A broadcast message.
    Broadcast,
}

/// How a field edits its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A fixed dropdown: `(display text, value)` pairs.
    Options(&'static [(&'static str, &'static str)]),
    /// A dropdown computed from the project.
    Menu(Menu),
    /// A variable dropdown (`field_variable`): names sorted, then rename/delete entries.
    Variable(VarKind),
    /// The name on a variable or list reporter (`field_variable_getter`): not a dropdown.
    Getter(VarKind),
    /// Free text (`text`).
    Text,
    /// A number typed in (`math_number` and friends): not validated.
    Number,
    /// An angle: the text is read as a number and wrapped into (-180, 180].
    Angle,
    /// A colour picker.
    Colour,
}

/// One argument of a block, in the editor's order (its `inputList`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A value input; `true` when it only takes Boolean reporters.
    Value(&'static str, bool),
    /// A statement input (a C-slot).
    Statement(&'static str),
    /// A field.
    Field(&'static str, FieldKind),
}

/// The editor's definition of one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockSpec {
    /// The opcode.
    pub opcode: &'static str,
    /// How it connects.
    pub shape: Shape,
    /// Its inputs and fields in the editor's order.
    pub args: &'static [Arg],
}

impl BlockSpec {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<FieldKind> {
        self.args.iter().find_map(|a| match a {
            Arg::Field(n, k) if *n == name => Some(*k),
            _ => None,
        })
    }

    /// The input (value or statement) named `name`: `Some(true)` for a statement input.
    pub fn input(&self, name: &str) -> Option<InputSlot> {
        self.args.iter().find_map(|a| match a {
            Arg::Value(n, boolean) if *n == name => Some(InputSlot::Value { boolean: *boolean }),
            Arg::Statement(n) if *n == name => Some(InputSlot::Statement),
            _ => None,
        })
    }

    /// The input names in the editor's order (what `INPUT_NOT_FOUND` lists).
    pub fn input_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.args.iter().filter_map(|a| match a {
            Arg::Value(n, _) | Arg::Statement(n) => Some(*n),
            Arg::Field(..) => None,
        })
    }

    /// The first field (what ScratchWorld edits when a shadow has no known primary field).
    pub fn first_field(&self) -> Option<&'static str> {
        self.args.iter().find_map(|a| match a {
            Arg::Field(n, _) => Some(*n),
            _ => None,
        })
    }

    /// The first statement input (`SUBSTACK` of a C-block).
    pub fn first_statement(&self) -> Option<&'static str> {
        self.args.iter().find_map(|a| match a {
            Arg::Statement(n) => Some(*n),
            _ => None,
        })
    }
}

/// A value or statement input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputSlot {
    /// A value input (`true`: Boolean only).
    Value {
        /// Whether the input only takes Boolean reporters.
        boolean: bool,
    },
    /// A C-slot.
    Statement,
}

use Arg::{Field as F, Statement as S, Value as V};
use FieldKind::{Menu as M, Options as O};
use Output::{Any, Boolean, Number, String as Str};
use Shape::{Cap, Hat, Reporter as R, Stack};

const KEYS: &[(&str, &str)] = &[
    ("space", "space"),
    ("up arrow", "up arrow"),
    ("down arrow", "down arrow"),
    ("right arrow", "right arrow"),
    ("left arrow", "left arrow"),
    ("any", "any"),
    ("a", "a"),
    ("b", "b"),
    ("c", "c"),
    ("d", "d"),
    ("e", "e"),
    ("f", "f"),
    ("g", "g"),
    ("h", "h"),
    ("i", "i"),
    ("j", "j"),
    ("k", "k"),
    ("l", "l"),
    ("m", "m"),
    ("n", "n"),
    ("o", "o"),
    ("p", "p"),
    ("q", "q"),
    ("r", "r"),
    ("s", "s"),
    ("t", "t"),
    ("u", "u"),
    ("v", "v"),
    ("w", "w"),
    ("x", "x"),
    ("y", "y"),
    ("z", "z"),
    ("0", "0"),
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("4", "4"),
    ("5", "5"),
    ("6", "6"),
    ("7", "7"),
    ("8", "8"),
    ("9", "9"),
];
const LOOKS_EFFECTS: &[(&str, &str)] = &[
    ("color", "COLOR"),
    ("fisheye", "FISHEYE"),
    ("whirl", "WHIRL"),
    ("pixelate", "PIXELATE"),
    ("mosaic", "MOSAIC"),
    ("brightness", "BRIGHTNESS"),
    ("ghost", "GHOST"),
];
const SOUND_EFFECTS: &[(&str, &str)] = &[("pitch", "PITCH"), ("pan left/right", "PAN")];
const NUMBER_NAME: &[(&str, &str)] = &[("number", "number"), ("name", "name")];
const ROTATION: &[(&str, &str)] =
    &[("left-right", "left-right"), ("don't rotate", "don't rotate"), ("all around", "all around")];
const MATHOP: &[(&str, &str)] = &[
    ("abs", "abs"),
    ("floor", "floor"),
    ("ceiling", "ceiling"),
    ("sqrt", "sqrt"),
    ("sin", "sin"),
    ("cos", "cos"),
    ("tan", "tan"),
    ("asin", "asin"),
    ("acos", "acos"),
    ("atan", "atan"),
    ("ln", "ln"),
    ("log", "log"),
    ("e ^", "e ^"),
    ("10 ^", "10 ^"),
];
const CURRENT: &[(&str, &str)] = &[
    ("year", "YEAR"),
    ("month", "MONTH"),
    ("date", "DATE"),
    ("day of week", "DAYOFWEEK"),
    ("hour", "HOUR"),
    ("minute", "MINUTE"),
    ("second", "SECOND"),
];
const VAR: FieldKind = FieldKind::Variable(VarKind::Scalar);
const LIST: FieldKind = FieldKind::Variable(VarKind::List);

macro_rules! spec {
    ($op:literal, $shape:expr $(, $arg:expr)* $(,)?) => {
        BlockSpec { opcode: $op, shape: $shape, args: &[$($arg),*] }
    };
}

/// ScratchWorld's composite-mode catalog: 119 opcodes, in its category order (Control 11,
/// Variables 17, Events 8, Looks 20, Motion 18, Operators 18, Sensing 18, Sound 9).
pub const CATALOG: &[BlockSpec] = &[
    // Control
    spec!("control_start_as_clone", Hat),
    spec!("control_repeat", Stack, V("TIMES", false), S("SUBSTACK")),
    spec!("control_repeat_until", Stack, V("CONDITION", true), S("SUBSTACK")),
    spec!("control_forever", Cap, S("SUBSTACK")),
    spec!("control_wait", Stack, V("DURATION", false)),
    spec!("control_wait_until", Stack, V("CONDITION", true)),
    spec!("control_if", Stack, V("CONDITION", true), S("SUBSTACK")),
    spec!("control_if_else", Stack, V("CONDITION", true), S("SUBSTACK"), S("SUBSTACK2")),
    // The next connection follows the `hasnext` mutation (see `has_next`).
    spec!("control_stop", Cap, F("STOP_OPTION", M(Menu::Stop))),
    spec!("control_create_clone_of", Stack, V("CLONE_OPTION", false)),
    spec!("control_delete_this_clone", Cap),
    // Variables
    spec!("data_variable", R(Str), F("VARIABLE", FieldKind::Getter(VarKind::Scalar))),
    spec!("data_setvariableto", Stack, F("VARIABLE", VAR), V("VALUE", false)),
    spec!("data_changevariableby", Stack, F("VARIABLE", VAR), V("VALUE", false)),
    spec!("data_showvariable", Stack, F("VARIABLE", VAR)),
    spec!("data_hidevariable", Stack, F("VARIABLE", VAR)),
    spec!("data_listcontents", R(Str), F("LIST", FieldKind::Getter(VarKind::List))),
    spec!("data_addtolist", Stack, V("ITEM", false), F("LIST", LIST)),
    spec!("data_deleteoflist", Stack, V("INDEX", false), F("LIST", LIST)),
    spec!("data_deletealloflist", Stack, F("LIST", LIST)),
    spec!("data_insertatlist", Stack, V("ITEM", false), V("INDEX", false), F("LIST", LIST)),
    spec!("data_replaceitemoflist", Stack, V("INDEX", false), F("LIST", LIST), V("ITEM", false)),
    spec!("data_itemoflist", R(Any), V("INDEX", false), F("LIST", LIST)),
    spec!("data_itemnumoflist", R(Any), V("ITEM", false), F("LIST", LIST)),
    spec!("data_lengthoflist", R(Number), F("LIST", LIST)),
    spec!("data_listcontainsitem", R(Boolean), F("LIST", LIST), V("ITEM", false)),
    spec!("data_showlist", Stack, F("LIST", LIST)),
    spec!("data_hidelist", Stack, F("LIST", LIST)),
    // Events
    spec!("event_whenflagclicked", Hat),
    spec!("event_whenkeypressed", Hat, F("KEY_OPTION", O(KEYS))),
    spec!("event_whenthisspriteclicked", Hat),
    spec!("event_whenbackdropswitchesto", Hat, F("BACKDROP", M(Menu::BackdropNames))),
    spec!(
        "event_whengreaterthan",
        Hat,
        F("WHENGREATERTHANMENU", O(&[("loudness", "LOUDNESS"), ("timer", "TIMER")])),
        V("VALUE", false)
    ),
    spec!(
        "event_whenbroadcastreceived",
        Hat,
        F("BROADCAST_OPTION", FieldKind::Variable(VarKind::Broadcast))
    ),
    spec!("event_broadcast", Stack, V("BROADCAST_INPUT", false)),
    spec!("event_broadcastandwait", Stack, V("BROADCAST_INPUT", false)),
    // Looks
    spec!("looks_say", Stack, V("MESSAGE", false)),
    spec!("looks_sayforsecs", Stack, V("MESSAGE", false), V("SECS", false)),
    spec!("looks_think", Stack, V("MESSAGE", false)),
    spec!("looks_thinkforsecs", Stack, V("MESSAGE", false), V("SECS", false)),
    spec!("looks_show", Stack),
    spec!("looks_hide", Stack),
    spec!("looks_switchcostumeto", Stack, V("COSTUME", false)),
    spec!("looks_nextcostume", Stack),
    spec!("looks_switchbackdropto", Stack, V("BACKDROP", false)),
    spec!("looks_nextbackdrop", Stack),
    spec!("looks_changeeffectby", Stack, F("EFFECT", O(LOOKS_EFFECTS)), V("CHANGE", false)),
    spec!("looks_seteffectto", Stack, F("EFFECT", O(LOOKS_EFFECTS)), V("VALUE", false)),
    spec!("looks_cleargraphiceffects", Stack),
    spec!("looks_changesizeby", Stack, V("CHANGE", false)),
    spec!("looks_setsizeto", Stack, V("SIZE", false)),
    spec!(
        "looks_gotofrontback",
        Stack,
        F("FRONT_BACK", O(&[("front", "front"), ("back", "back")]))
    ),
    spec!(
        "looks_goforwardbackwardlayers",
        Stack,
        F("FORWARD_BACKWARD", O(&[("forward", "forward"), ("backward", "backward")])),
        V("NUM", false)
    ),
    spec!("looks_size", R(Number)),
    spec!("looks_costumenumbername", R(Number), F("NUMBER_NAME", O(NUMBER_NAME))),
    spec!("looks_backdropnumbername", R(Number), F("NUMBER_NAME", O(NUMBER_NAME))),
    // Motion
    spec!("motion_movesteps", Stack, V("STEPS", false)),
    spec!("motion_gotoxy", Stack, V("X", false), V("Y", false)),
    spec!("motion_goto", Stack, V("TO", false)),
    spec!("motion_turnright", Stack, V("DEGREES", false)),
    spec!("motion_turnleft", Stack, V("DEGREES", false)),
    spec!("motion_pointindirection", Stack, V("DIRECTION", false)),
    spec!("motion_pointtowards", Stack, V("TOWARDS", false)),
    spec!("motion_glidesecstoxy", Stack, V("SECS", false), V("X", false), V("Y", false)),
    spec!("motion_glideto", Stack, V("SECS", false), V("TO", false)),
    spec!("motion_ifonedgebounce", Stack),
    spec!("motion_setrotationstyle", Stack, F("STYLE", O(ROTATION))),
    spec!("motion_changexby", Stack, V("DX", false)),
    spec!("motion_setx", Stack, V("X", false)),
    spec!("motion_changeyby", Stack, V("DY", false)),
    spec!("motion_sety", Stack, V("Y", false)),
    spec!("motion_xposition", R(Number)),
    spec!("motion_yposition", R(Number)),
    spec!("motion_direction", R(Number)),
    // Operators
    spec!("operator_add", R(Number), V("NUM1", false), V("NUM2", false)),
    spec!("operator_subtract", R(Number), V("NUM1", false), V("NUM2", false)),
    spec!("operator_multiply", R(Number), V("NUM1", false), V("NUM2", false)),
    spec!("operator_divide", R(Number), V("NUM1", false), V("NUM2", false)),
    spec!("operator_random", R(Number), V("FROM", false), V("TO", false)),
    spec!("operator_mod", R(Number), V("NUM1", false), V("NUM2", false)),
    spec!("operator_round", R(Number), V("NUM", false)),
    spec!("operator_mathop", R(Number), F("OPERATOR", O(MATHOP)), V("NUM", false)),
    spec!("operator_join", R(Str), V("STRING1", false), V("STRING2", false)),
    spec!("operator_letter_of", R(Str), V("LETTER", false), V("STRING", false)),
    spec!("operator_length", R(Str), V("STRING", false)),
    spec!("operator_lt", R(Boolean), V("OPERAND1", false), V("OPERAND2", false)),
    spec!("operator_equals", R(Boolean), V("OPERAND1", false), V("OPERAND2", false)),
    spec!("operator_gt", R(Boolean), V("OPERAND1", false), V("OPERAND2", false)),
    spec!("operator_and", R(Boolean), V("OPERAND1", true), V("OPERAND2", true)),
    spec!("operator_or", R(Boolean), V("OPERAND1", true), V("OPERAND2", true)),
    spec!("operator_not", R(Boolean), V("OPERAND", true)),
    spec!("operator_contains", R(Boolean), V("STRING1", false), V("STRING2", false)),
    // Sensing
    spec!("sensing_resettimer", Stack),
    spec!(
        "sensing_setdragmode",
        Stack,
        F("DRAG_MODE", O(&[("draggable", "draggable"), ("not draggable", "not draggable")]))
    ),
    spec!("sensing_askandwait", Stack, V("QUESTION", false)),
    spec!("sensing_timer", R(Number)),
    spec!("sensing_mousex", R(Number)),
    spec!("sensing_mousey", R(Number)),
    spec!("sensing_dayssince2000", R(Number)),
    spec!("sensing_current", R(Number), F("CURRENTMENU", O(CURRENT))),
    spec!("sensing_mousedown", R(Boolean)),
    spec!("sensing_keypressed", R(Boolean), V("KEY_OPTION", false)),
    spec!("sensing_touchingobject", R(Boolean), V("TOUCHINGOBJECTMENU", false)),
    spec!("sensing_touchingcolor", R(Boolean), V("COLOR", false)),
    spec!("sensing_coloristouchingcolor", R(Boolean), V("COLOR", false), V("COLOR2", false)),
    spec!("sensing_distanceto", R(Number), V("DISTANCETOMENU", false)),
    spec!("sensing_of", R(Any), F("PROPERTY", M(Menu::OfProperty)), V("OBJECT", false)),
    spec!("sensing_loudness", R(Number)),
    spec!("sensing_answer", R(Number)),
    spec!("sensing_username", R(Number)),
    // Sound
    spec!("sound_play", Stack, V("SOUND_MENU", false)),
    spec!("sound_playuntildone", Stack, V("SOUND_MENU", false)),
    spec!("sound_stopallsounds", Stack),
    spec!("sound_seteffectto", Stack, F("EFFECT", O(SOUND_EFFECTS)), V("VALUE", false)),
    spec!("sound_changeeffectby", Stack, F("EFFECT", O(SOUND_EFFECTS)), V("VALUE", false)),
    spec!("sound_cleareffects", Stack),
    spec!("sound_setvolumeto", Stack, V("VOLUME", false)),
    spec!("sound_changevolumeby", Stack, V("VOLUME", false)),
    spec!("sound_volume", R(Number)),
];

/// The shadow blocks that fill the catalog's inputs (never indexed).
pub const SHADOWS: &[BlockSpec] = &[
    spec!("math_number", R(Number), F("NUM", FieldKind::Number)),
    spec!("math_positive_number", R(Number), F("NUM", FieldKind::Number)),
    spec!("math_whole_number", R(Number), F("NUM", FieldKind::Number)),
    spec!("math_integer", R(Number), F("NUM", FieldKind::Number)),
    spec!("math_angle", R(Number), F("NUM", FieldKind::Angle)),
    spec!("text", R(Str), F("TEXT", FieldKind::Text)),
    spec!("colour_picker", R(Str), F("COLOUR", FieldKind::Colour)),
    spec!("motion_goto_menu", R(Str), F("TO", M(Menu::GoTo))),
    spec!("motion_glideto_menu", R(Str), F("TO", M(Menu::GoTo))),
    spec!("motion_pointtowards_menu", R(Str), F("TOWARDS", M(Menu::Pointer))),
    spec!("looks_costume", R(Str), F("COSTUME", M(Menu::Costumes))),
    spec!("looks_backdrops", R(Str), F("BACKDROP", M(Menu::Backdrops))),
    spec!("sound_sounds_menu", R(Str), F("SOUND_MENU", M(Menu::Sounds))),
    spec!(
        "event_broadcast_menu",
        R(Str),
        F("BROADCAST_OPTION", FieldKind::Variable(VarKind::Broadcast))
    ),
    spec!("control_create_clone_of_menu", R(Str), F("CLONE_OPTION", M(Menu::Clone))),
    spec!("sensing_touchingobjectmenu", R(Str), F("TOUCHINGOBJECTMENU", M(Menu::Touching))),
    spec!("sensing_distancetomenu", R(Str), F("DISTANCETOMENU", M(Menu::Pointer))),
    spec!("sensing_of_object_menu", R(Str), F("OBJECT", M(Menu::OfObject))),
    spec!("sensing_keyoptions", R(Str), F("KEY_OPTION", O(KEYS))),
];

/// The catalog entry for `opcode` (ScratchWorld also accepts its paper's misspelling
/// `event_whenhisspriteclicked`; that is handled where block types are read).
pub fn catalog(opcode: &str) -> Option<&'static BlockSpec> {
    find(CATALOG, &CATALOG_ORDER, opcode)
}

/// The catalog or shadow entry for `opcode`.
pub fn spec(opcode: &str) -> Option<&'static BlockSpec> {
    catalog(opcode).or_else(|| find(SHADOWS, &SHADOWS_ORDER, opcode))
}

/// Positions of [`CATALOG`] sorted by opcode length, then bytes (computed at compile time,
/// which also proves the opcodes distinct); comparing lengths first spares most byte
/// comparisons.
static CATALOG_ORDER: [u8; CATALOG.len()] = sorted_order(CATALOG);
/// Positions of [`SHADOWS`] sorted by opcode.
static SHADOWS_ORDER: [u8; SHADOWS.len()] = sorted_order(SHADOWS);

/// Binary search of `table` through its sorted positions `order`.
fn find(table: &'static [BlockSpec], order: &[u8], opcode: &str) -> Option<&'static BlockSpec> {
    let k = order.binary_search_by(|&i| by_length(table[usize::from(i)].opcode, opcode)).ok()?;
    Some(&table[usize::from(order[k])])
}

/// The index's order: by length, then by bytes.
fn by_length(a: &str, b: &str) -> core::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// [`by_length`]'s `a < b`, in a `const` context.
const fn str_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return a.len() < b.len();
    }
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// The positions of `table` sorted by opcode (an insertion sort run by the compiler); a
/// repeated opcode fails the build.
const fn sorted_order<const N: usize>(table: &[BlockSpec]) -> [u8; N] {
    assert!(N == table.len() && N <= 256);
    let mut order = [0u8; N];
    let mut i = 0;
    while i < N {
        order[i] = i as u8;
        let mut j = i;
        while j > 0 && str_less(table[i].opcode, table[order[j - 1] as usize].opcode) {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = i as u8;
        i += 1;
    }
    let mut k = 1;
    while k < N {
        assert!(
            str_less(table[order[k - 1] as usize].opcode, table[order[k] as usize].opcode),
            "an opcode is listed twice"
        );
        k += 1;
    }
    order
}

/// Whether `opcode` is in the 119-opcode catalog (what compat observations index).
pub fn in_catalog(opcode: &str) -> bool {
    catalog(opcode).is_some()
}

/// Shapes of blocks outside the catalog that the `full` observation shows and id-mode
/// actions can address: custom blocks, the stage's hat, hidden and extension blocks. `None`
/// when gobo does not know the opcode (its shape is then read from where it sits).
pub fn extra_shape(opcode: &str) -> Option<Shape> {
    Some(match opcode {
        "procedures_definition" | "event_whenstageclicked" | "event_whentouchingobject" => Hat,
        "procedures_call"
        | "looks_changestretchby"
        | "looks_setstretchto"
        | "looks_switchbackdroptoandwait"
        | "looks_hideallsprites"
        | "control_for_each"
        | "control_while"
        | "control_incr_counter"
        | "control_clear_counter" => Stack,
        "argument_reporter_string_number" | "control_get_counter" => R(Any),
        "argument_reporter_boolean" => R(Boolean),
        o if o.starts_with("pen_") && !o.starts_with("pen_menu_") => Stack,
        o if o.starts_with("music_") && !o.starts_with("music_menu_") => {
            if o == "music_getTempo" {
                R(Number)
            } else {
                Stack
            }
        }
        _ => return None,
    })
}

/// Inputs outside the catalog that are C-slots (for `full` observations and id-mode edits).
pub fn extra_statement(opcode: &str, input: &str) -> bool {
    matches!((opcode, input), ("control_for_each" | "control_while", "SUBSTACK"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sorted_index_finds_every_entry_and_nothing_else() {
        for s in CATALOG {
            assert_eq!(catalog(s.opcode), Some(s), "{}", s.opcode);
            assert_eq!(spec(s.opcode), Some(s));
        }
        for s in SHADOWS {
            assert!(catalog(s.opcode).is_none(), "{}", s.opcode);
            assert_eq!(spec(s.opcode), Some(s), "{}", s.opcode);
        }
        for o in ["", "a", "zzz", "motion_", "motion_movesteps ", "procedures_call", "Text"] {
            assert!(spec(o).is_none(), "{o:?}");
        }
    }
}
