//! The operations of compiled statements ([`Sop`]) and reporters ([`Rop`]) and the hats that
//! start scripts ([`Hat`]). Field values (menus that are fields, not inputs) are resolved into
//! the operation at compile time; inputs are expressions listed in the documented order.

use super::Slot;
use alloc::string::String;
use serde::{Deserialize, Serialize};

/// What starts a script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Hat {
    /// `event_whenflagclicked`.
    Flag,
    /// `event_whenkeypressed`, key name upper-cased.
    Key(String),
    /// `event_whenthisspriteclicked`.
    SpriteClicked,
    /// `event_whenstageclicked`.
    StageClicked,
    /// `event_whenbroadcastreceived`, message name upper-cased.
    Broadcast(String),
    /// `event_whenbackdropswitchesto`, backdrop name upper-cased.
    Backdrop(String),
    /// `event_whengreaterthan` (edge-activated; predicate in the hat statement).
    GreaterThan,
    /// `event_whentouchingobject` (edge-activated).
    Touching,
    /// `control_start_as_clone`.
    StartAsClone,
    /// `makeymakey_whenMakeyKeyPressed` (edge-activated; predicate in the hat statement).
    MakeyKey,
    /// `makeymakey_whenCodePressed` (edge-activated; predicate in the hat statement).
    MakeyCode,
    /// `videoSensing_whenMotionGreaterThan` (edge-activated; predicate in the hat statement).
    VideoMotion,
    /// `procedures_definition`: not started by events.
    Procedure,
    /// A hat with no implementation, or a loose top-level block: never started.
    None,
}

/// Graphic effects, in scratch-vm's `effects` key order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// color
    Color = 0,
    /// fisheye
    Fisheye,
    /// whirl
    Whirl,
    /// pixelate
    Pixelate,
    /// mosaic
    Mosaic,
    /// brightness
    Brightness,
    /// ghost
    Ghost,
}

/// Names of [`Effect`]s in key order.
pub const EFFECT_NAMES: [&str; 7] =
    ["color", "fisheye", "whirl", "pixelate", "mosaic", "brightness", "ghost"];

/// Sound effects (per-target state), in scratch-vm's `DEFAULT_SOUND_STATE` key order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SoundFx {
    /// pitch, -360..360 (tenths of a semitone)
    Pitch = 0,
    /// pan left/right, -100..100
    Pan = 1,
}

/// Options of `control_stop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopKind {
    /// "all"
    All,
    /// "this script"
    ThisScript,
    /// "other scripts in sprite" / "other scripts in stage"
    OtherScripts,
    /// anything else: does nothing
    Nothing,
}

/// Functions of `operator_mathop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MathFn {
    /// abs
    Abs,
    /// floor
    Floor,
    /// ceiling
    Ceiling,
    /// sqrt
    Sqrt,
    /// sin (degrees, rounded to 10 places)
    Sin,
    /// cos (degrees, rounded to 10 places)
    Cos,
    /// tan (degrees; ±Infinity at 90/270)
    Tan,
    /// asin (degrees)
    Asin,
    /// acos (degrees)
    Acos,
    /// atan (degrees)
    Atan,
    /// ln
    Ln,
    /// log10
    Log,
    /// e ^
    Exp,
    /// 10 ^
    Pow10,
    /// unknown option: 0
    Unknown,
}

/// Statement operations. Inputs are listed as `[A, B]` in the order they are stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Sop {
    /// A hat or definition reached as a block: does nothing.
    Hat,
    /// `event_whengreaterthan` predicate `[VALUE]` with the menu option (lower-cased).
    HatGreater(String),
    /// `event_whentouchingobject` predicate `[TOUCHINGOBJECTMENU]`.
    HatTouching,
    /// `makeymakey_whenMakeyKeyPressed` predicate `[KEY]`.
    HatMakeyKey,
    /// `makeymakey_whenCodePressed` predicate `[SEQUENCE]`.
    HatMakeyCode,
    /// `videoSensing_whenMotionGreaterThan` predicate `[REFERENCE]`.
    HatVideoMotion,
    /// A block with no implementation: its inputs are evaluated, nothing else happens.
    Unimplemented,
    /// An implemented block with no observable effect here (sounds, pen): inputs evaluated.
    Nop,
    // ---- motion
    /// `[STEPS]`
    MoveSteps,
    /// `[DEGREES]`
    TurnRight,
    /// `[DEGREES]`
    TurnLeft,
    /// `[TO]`
    GoTo,
    /// `[X, Y]`
    GoToXY,
    /// `[SECS, TO]`
    GlideTo,
    /// `[SECS, X, Y]`
    GlideSecsToXY,
    /// `[DIRECTION]`
    PointInDirection,
    /// `[TOWARDS]`
    PointTowards,
    /// `[DX]`
    ChangeX,
    /// `[X]`
    SetX,
    /// `[DY]`
    ChangeY,
    /// `[Y]`
    SetY,
    /// no inputs
    IfOnEdgeBounce,
    /// rotation style field
    SetRotationStyle(String),
    // ---- looks
    /// `[MESSAGE]`
    Say,
    /// `[MESSAGE, SECS]`
    SayForSecs,
    /// `[MESSAGE]`
    Think,
    /// `[MESSAGE, SECS]`
    ThinkForSecs,
    /// no inputs
    Show,
    /// no inputs
    Hide,
    /// `[COSTUME]`
    SwitchCostume,
    /// no inputs
    NextCostume,
    /// `[BACKDROP]`
    SwitchBackdrop,
    /// `[BACKDROP]`
    SwitchBackdropAndWait,
    /// no inputs
    NextBackdrop,
    /// effect field (lower-cased) `[CHANGE]`
    ChangeEffect(String),
    /// effect field (lower-cased) `[VALUE]`
    SetEffect(String),
    /// no inputs
    ClearEffects,
    /// `[CHANGE]`
    ChangeSize,
    /// `[SIZE]`
    SetSize,
    /// front/back field: true for front
    GoToFrontBack(bool),
    /// forward/backward field: true for forward `[NUM]`
    GoForwardBackward(bool),
    // ---- sound (state only)
    /// `[VOLUME]`
    SetVolume,
    /// `[VOLUME]`
    ChangeVolume,
    // ---- events
    /// `[BROADCAST_INPUT]` (a message name)
    Broadcast,
    /// `[BROADCAST_INPUT]`
    BroadcastAndWait,
    // ---- control
    /// `[DURATION]`
    Wait,
    /// `[TIMES]`
    Repeat,
    /// no inputs
    Forever,
    /// `[CONDITION]`
    If,
    /// `[CONDITION]`
    IfElse,
    /// `[CONDITION]`
    WaitUntil,
    /// `[CONDITION]`
    RepeatUntil,
    /// `[CONDITION]`
    While,
    /// variable `[VALUE]`
    ForEach(Slot),
    /// the option
    Stop(StopKind),
    /// `[CLONE_OPTION]`
    CreateClone,
    /// no inputs
    DeleteClone,
    /// no inputs
    AllAtOnce,
    /// no inputs
    IncrCounter,
    /// no inputs
    ClearCounter,
    // ---- sensing
    /// `[QUESTION]`
    AskAndWait,
    /// no inputs
    ResetTimer,
    /// `sound_play` (false) / `sound_playuntildone` (true): `[SOUND_MENU]`
    PlaySound(bool),
    /// `sound_stopallsounds`
    StopAllSounds,
    /// `sound_seteffectto` / `sound_changeeffectby` (`change`): `[VALUE]`, the effect field
    /// (`None`: not pitch or pan)
    SoundEffect {
        /// change by (true) or set to (false)
        change: bool,
        /// the effect
        fx: Option<SoundFx>,
    },
    /// `sound_cleareffects`
    ClearSoundEffects,
    /// drag mode field: true for draggable
    SetDragMode(bool),
    // ---- data
    /// variable `[VALUE]`
    SetVar(Slot),
    /// variable `[VALUE]`
    ChangeVar(Slot),
    /// list `[ITEM]`
    AddToList(Slot),
    /// list `[INDEX]`
    DeleteOfList(Slot),
    /// list
    DeleteAllOfList(Slot),
    /// list `[ITEM, INDEX]`
    InsertAtList(Slot),
    /// list `[INDEX, ITEM]`
    ReplaceItemOfList(Slot),
    // ---- procedures
    /// A call: the procedure (None when no prototype exists), then one input per parameter
    /// (`None` when the call lacks it: the default applies).
    Call {
        /// Index into [`super::Image::procs`].
        proc: Option<u32>,
        /// Interned signature for the recursion check (index into `procs` of the first
        /// procedure with this proccode in the target, or `u32::MAX`).
        code: u32,
        /// For each parameter, whether the call has that input (inputs are stored only for
        /// the parameters that have one, in parameter order).
        present: alloc::vec::Vec<bool>,
    },
    // ---- pen (extension `pen_*`)
    /// A pen block; inputs as listed on [`PenOp`].
    Pen(PenOp),
    // ---- music (extension `music_*`)
    /// A music block; inputs as listed on [`MusicOp`].
    Music(MusicOp),
    // ---- text to speech (extension `text2speech_*`)
    /// `text2speech_speakAndWait` `[WORDS]`: with no speech service, waits for the next frame.
    Speak,
}

impl Hat {
    /// Checked every frame by `runtime._step` (an edge-activated hat).
    pub fn is_edge_activated(&self) -> bool {
        matches!(
            self,
            Hat::GreaterThan | Hat::Touching | Hat::MakeyKey | Hat::MakeyCode | Hat::VideoMotion
        )
    }
}

impl Sop {
    /// A hat (its statement only evaluates the hat's predicate, if any).
    pub fn is_hat(&self) -> bool {
        matches!(
            self,
            Sop::Hat
                | Sop::HatGreater(_)
                | Sop::HatTouching
                | Sop::HatMakeyKey
                | Sop::HatMakeyCode
                | Sop::HatVideoMotion
        )
    }
}

/// Music blocks (scratch-vm's `scratch3_music`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MusicOp {
    /// `music_playDrumForBeats` `[DRUM, BEATS]`
    PlayDrum,
    /// `music_midiPlayDrumForBeats` `[DRUM, BEATS]` (Scratch 2 MIDI drum numbers)
    MidiPlayDrum,
    /// `music_restForBeats` `[BEATS]`
    Rest,
    /// `music_playNoteForBeats` `[NOTE, BEATS]`
    PlayNote,
    /// `music_setInstrument` `[INSTRUMENT]`
    SetInstrument,
    /// `music_midiSetInstrument` `[INSTRUMENT]` (Scratch 2 MIDI instrument numbers)
    MidiSetInstrument,
    /// `music_setTempo` `[TEMPO]`
    SetTempo,
    /// `music_changeTempo` `[TEMPO]`
    ChangeTempo,
}

/// Pen blocks (scratch-vm's `scratch3_pen`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PenOp {
    /// `pen_clear`
    Clear,
    /// `pen_stamp`
    Stamp,
    /// `pen_penDown`
    Down,
    /// `pen_penUp`
    Up,
    /// `pen_setPenColorToColor` `[COLOR]`
    SetColor,
    /// `pen_changePenColorParamBy` `[COLOR_PARAM, VALUE]`
    ChangeParam,
    /// `pen_setPenColorParamTo` `[COLOR_PARAM, VALUE]`
    SetParam,
    /// `pen_changePenSizeBy` `[SIZE]`
    ChangeSize,
    /// `pen_setPenSizeTo` `[SIZE]`
    SetSize,
    /// `pen_setPenShadeToNumber` `[SHADE]`
    SetShade,
    /// `pen_changePenShadeBy` `[SHADE]`
    ChangeShade,
    /// `pen_setPenHueToNumber` `[HUE]`
    SetHue,
    /// `pen_changePenHueBy` `[HUE]`
    ChangeHue,
}

/// Reporter operations. Inputs as `[A, B]`, in stored order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Rop {
    /// A reporter with no implementation: inputs evaluated, reports `undefined`.
    Unimplemented,
    /// `[NUM1, NUM2]`
    Add,
    /// `[NUM1, NUM2]`
    Sub,
    /// `[NUM1, NUM2]`
    Mul,
    /// `[NUM1, NUM2]`
    Div,
    /// `[FROM, TO]`
    Random,
    /// `[OPERAND1, OPERAND2]`
    Gt,
    /// `[OPERAND1, OPERAND2]`
    Lt,
    /// `[OPERAND1, OPERAND2]`
    Eq,
    /// `[OPERAND1, OPERAND2]`
    And,
    /// `[OPERAND1, OPERAND2]`
    Or,
    /// `[OPERAND]`
    Not,
    /// `[STRING1, STRING2]`
    Join,
    /// `[LETTER, STRING]`
    LetterOf,
    /// `[STRING]`
    Length,
    /// `[STRING1, STRING2]`
    Contains,
    /// `[NUM1, NUM2]`
    Mod,
    /// `[NUM]`
    Round,
    /// `[NUM]`
    MathOp(MathFn),
    /// x position
    XPos,
    /// y position
    YPos,
    /// direction
    Direction,
    /// costume number (true) or name
    CostumeNumberName(bool),
    /// backdrop number (true) or name
    BackdropNumberName(bool),
    /// size
    Size,
    /// volume
    Volume,
    /// answer
    Answer,
    /// `[KEY_OPTION]`
    KeyPressed,
    /// mouse down?
    MouseDown,
    /// mouse x
    MouseX,
    /// mouse y
    MouseY,
    /// timer
    Timer,
    /// current (field, lower-cased)
    Current(String),
    /// days since 2000
    DaysSince2000,
    /// username
    Username,
    /// loudness
    Loudness,
    /// loud? (loudness > 10)
    Loud,
    /// an implemented reporter that reports `undefined` (legacy blocks)
    Nothing,
    /// property field `[OBJECT]`
    Of(String),
    /// `[TOUCHINGOBJECTMENU]`
    TouchingObject,
    /// `[COLOR]`
    TouchingColor,
    /// `[COLOR, COLOR2]`
    ColorTouchingColor,
    /// `[DISTANCETOMENU]`
    DistanceTo,
    /// list contents
    ListContents(Slot),
    /// list `[INDEX]`
    ItemOfList(Slot),
    /// list `[ITEM]`
    ItemNumOfList(Slot),
    /// list
    LengthOfList(Slot),
    /// list `[ITEM]`
    ListContains(Slot),
    /// `control_get_counter`
    Counter,
    /// `music_getTempo`
    Tempo,
    /// `videoSensing_videoOn` `[ATTRIBUTE, SUBJECT]`: with no camera, -1.
    VideoOn,
    /// `translate_getTranslate` `[WORDS, LANGUAGE]`: with no translation service, the words
    /// when they are all digits, else the empty string.
    Translate,
    /// `translate_getViewerLanguage`: the viewer's language name (`English`).
    ViewerLanguage,
}
