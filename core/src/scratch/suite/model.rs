//! The test-suite data model (`docs/test-suite.md`): suites, cases, steps, inputs, waits and
//! checks, as plain values. Parsing lives in `parse.rs`; meaning lives in the runner.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::regex::Regex;
use crate::scratch::value::Value;

/// A whole suite: named test cases, each run from a fresh project.
#[derive(Debug, Clone)]
pub struct Suite {
    pub name: Option<String>,
    /// Frames per virtual second (30, Scratch's rate).
    pub fps: u32,
    /// Seed of the project's random stream for a single run.
    pub seed: u64,
    /// What a sprite, variable or list the project lacks does to a case.
    pub missing: Missing,
    pub cases: Vec<Case>,
}

/// What validation does when a case names a sprite, variable or list the project lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Missing {
    /// The suite does not load (the default: a typo in a suite is an error).
    #[default]
    Error,
    /// That case fails, with the reason, and the other cases run.
    Fail,
}

/// One named test case with its own scenario.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    /// Budget of virtual seconds for the whole case.
    pub timeout: f64,
    /// How `ask` questions are answered while the case runs.
    pub answers: Vec<AnswerRule>,
    pub steps: Vec<Step>,
    /// Set by validation under [`Missing::Fail`]: what the project lacks, so the case fails
    /// without running.
    pub missing: Option<String>,
}

/// One step of a case, optionally pinned to an absolute frame or time since the case started.
#[derive(Debug, Clone)]
pub struct Step {
    pub at: Option<Span>,
    pub kind: StepKind,
}

/// A number of frames or virtual seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Span {
    Frames(u64),
    Seconds(f64),
}

impl Span {
    /// The span in frames at `fps`, rounded up.
    pub fn frames(self, fps: u32) -> u64 {
        match self {
            Span::Frames(n) => n,
            Span::Seconds(s) => {
                let f = libm::ceil(s * f64::from(fps) - 1e-9);
                if f <= 0.0 {
                    0
                } else if f >= 1e15 {
                    1_000_000_000_000_000
                } else {
                    f as u64
                }
            }
        }
    }
}

/// What a step does.
#[derive(Debug, Clone)]
pub enum StepKind {
    Do(Input),
    Wait(Wait),
    Expect(Check),
    /// Remember the current frame under a name, for `since`, `changed` and `moved`.
    Mark(String),
    /// Run `steps` again and again until `until` holds (tested before each round, on the
    /// frames since the repeat started), at most `max` rounds; if it never holds the case
    /// fails, unless `required` is false (then the case goes on).
    Repeat {
        steps: Vec<Step>,
        until: Box<Check>,
        max: u32,
        required: bool,
    },
}

/// An input sent to the project.
#[derive(Debug, Clone)]
pub enum Input {
    GreenFlag,
    /// Start only this sprite's green-flag scripts (`runtime.startHats` with a target).
    FlagSprite(SpriteRef),
    StopAll,
    /// Key down, hold for the span (frames pass), key up.
    KeyPress {
        key: String,
        hold: Span,
    },
    KeyDown(String),
    KeyUp(String),
    MouseMove {
        x: f64,
        y: f64,
    },
    /// Move the pointer onto a sprite's current position (computed when the step runs); a
    /// given `x` or `y` replaces that coordinate, then `offset` (`dx`, `dy`) is added.
    MouseOnto {
        sprite: SpriteRef,
        x: Option<f64>,
        y: Option<f64>,
        offset: (f64, f64),
    },
    MouseDown {
        pos: Option<(f64, f64)>,
    },
    MouseUp {
        pos: Option<(f64, f64)>,
    },
    /// Write the button flag without an event (`"event": false`), moving first if `pos`.
    MouseFlag {
        down: bool,
        pos: Option<(f64, f64)>,
    },
    /// Click a sprite, or the stage (`"Stage"`).
    Click(SpriteRef),
    Broadcast(String),
    /// Answer the pending question now.
    Answer(String),
    SetVariable {
        sprite: Option<SpriteRef>,
        name: String,
        value: Value,
    },
    /// Replace a list's items (`list.value = [...]`).
    SetList {
        sprite: Option<SpriteRef>,
        name: String,
        items: Vec<Value>,
    },
    SetSprite {
        sprite: SpriteRef,
        x: Option<f64>,
        y: Option<f64>,
        direction: Option<f64>,
        /// Move onto this sprite's current position (computed when the step runs); a given
        /// `x` or `y` replaces that coordinate, then `offset` (`dx`, `dy`) is added.
        onto: Option<SpriteRef>,
        /// Added to the `onto` position (zero without `onto`).
        offset: (f64, f64),
    },
}

/// A sprite named by one name or by alternatives (the first that exists in the project).
#[derive(Debug, Clone, PartialEq)]
pub struct SpriteRef {
    pub names: Vec<String>,
    /// The name chosen by validation; the first alternative until then.
    pub resolved: String,
}

impl SpriteRef {
    pub fn one(name: &str) -> SpriteRef {
        SpriteRef { names: alloc::vec![String::from(name)], resolved: String::from(name) }
    }
}

/// Waiting.
#[derive(Debug, Clone)]
pub enum Wait {
    For(Span),
    /// Until the check holds (tested after every frame, and once before the first), failing
    /// the case after `timeout` unless `required` is false.
    Until {
        check: Box<Check>,
        timeout: Span,
        required: bool,
    },
}

/// A rule choosing the answer to a question asked by the project.
#[derive(Debug, Clone)]
pub struct AnswerRule {
    /// Only the n-th question (from 1) of the case.
    pub nth: Option<u32>,
    /// Only questions whose text matches.
    pub when: Option<TextMatch>,
    pub reply: Reply,
    /// Virtual delay between the question and the answer.
    pub delay: Span,
}

/// The text of an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Text(String),
    Compute(AnswerFn),
}

/// Answers computed from the question's text: a closed set (no code in suites).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerFn {
    /// The question itself.
    Echo,
    /// Sum of the numbers in the question.
    Sum,
    /// First number minus the others.
    Difference,
    Product,
    /// First number divided by the others.
    Quotient,
    Max,
    Min,
    /// How many numbers the question holds.
    Count,
    /// The question's characters in reverse order.
    Reverse,
    Upper,
    Lower,
    /// Number of characters of the question.
    Length,
}

impl AnswerFn {
    pub const ALL: [(&'static str, AnswerFn); 12] = [
        ("echo", AnswerFn::Echo),
        ("sum", AnswerFn::Sum),
        ("difference", AnswerFn::Difference),
        ("product", AnswerFn::Product),
        ("quotient", AnswerFn::Quotient),
        ("max", AnswerFn::Max),
        ("min", AnswerFn::Min),
        ("count", AnswerFn::Count),
        ("reverse", AnswerFn::Reverse),
        ("upper", AnswerFn::Upper),
        ("lower", AnswerFn::Lower),
        ("length", AnswerFn::Length),
    ];
}

/// How a text is matched.
#[derive(Debug, Clone)]
pub struct TextMatch {
    pub mode: TextMode,
    pub case_insensitive: bool,
}

#[derive(Debug, Clone)]
pub enum TextMode {
    Equals(String),
    Contains(String),
    Regex(Regex),
    /// The text read as a number equals `value` within `tolerance`.
    Number {
        value: f64,
        tolerance: f64,
    },
}

/// Constraints on a number; every one given must hold.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct NumMatch {
    pub equals: Option<f64>,
    pub tolerance: f64,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// Constraints on a Scratch value (variables, list items); every one given must hold.
#[derive(Debug, Clone, Default)]
pub struct ValueMatch {
    /// Scratch equality (`=` block: numeric when both look numeric, else case-insensitive).
    pub equals: Option<Value>,
    /// With `equals`: compare as numbers within this tolerance.
    pub tolerance: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub text: Option<TextMatch>,
}

/// Say or think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SayKind {
    Say,
    Think,
    Any,
}

/// Which instances of a sprite a state check looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloneSel {
    Original,
    /// The clone with this creation serial (1, 2, ...).
    Serial(u32),
    /// At least one instance (original or clone).
    Any,
    /// Every instance, original included.
    All,
    /// Every clone (at least one must exist), original excluded.
    AllClones,
}

/// A sprite property a check or probe reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prop {
    X,
    Y,
    Direction,
    Size,
    /// Costume number (from 1, as the `costume number` reporter).
    Costume,
    Layer,
    Visible,
    Effect(Effect),
}

/// The graphic effects, in the trace's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Color,
    Fisheye,
    Whirl,
    Pixelate,
    Mosaic,
    Brightness,
    Ghost,
}

impl Effect {
    pub const ALL: [(&'static str, Effect); 7] = [
        ("color", Effect::Color),
        ("fisheye", Effect::Fisheye),
        ("whirl", Effect::Whirl),
        ("pixelate", Effect::Pixelate),
        ("mosaic", Effect::Mosaic),
        ("brightness", Effect::Brightness),
        ("ghost", Effect::Ghost),
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        Effect::ALL[self.index()].0
    }
}

/// A costume or backdrop, by name or by number (from 1).
#[derive(Debug, Clone, PartialEq)]
pub enum CostumeRef {
    Name(String),
    Number(u32),
}

/// The state expected of a sprite.
#[derive(Debug, Clone, Default)]
pub struct SpriteExpect {
    pub nums: Vec<(Prop, NumMatch)>,
    pub visible: Option<bool>,
    pub costume: Option<CostumeRef>,
    /// The current costume's name matches (a project may rename or add costumes).
    pub costume_name: Option<TextMatch>,
}

/// A number read each frame, for `changed`, `monotonic`, `extent`, `value` and `series`.
#[derive(Debug, Clone, PartialEq)]
pub enum Probe {
    Sprite {
        sprite: SpriteRef,
        prop: Prop,
        /// 0: the original; else the clone with this creation serial.
        clone: u32,
    },
    /// Distance from a sprite (its original) to another sprite or a point.
    Distance {
        sprite: SpriteRef,
        to: Place,
    },
    /// A graphic effect of the stage.
    StageEffect(Effect),
    /// Clones of the sprite created since the case started (its highest clone serial seen).
    ClonesCreated(SpriteRef),
    /// Clones of the sprite deleted since the case started (created minus live).
    ClonesDeleted(SpriteRef),
    Variable {
        sprite: Option<SpriteRef>,
        name: String,
    },
    /// A list's length.
    ListLength {
        sprite: Option<SpriteRef>,
        name: String,
    },
    /// Backdrop number (from 1).
    Backdrop,
    /// Number of live clones of a sprite.
    Clones(SpriteRef),
}

/// Where a distance is measured to.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    Sprite(SpriteRef),
    Point(f64, f64),
}

/// What `series` follows frame by frame: a number, or a sprite's position (x, y).
#[derive(Debug, Clone, PartialEq)]
pub enum Track {
    Number(Probe),
    Position { sprite: SpriteRef, clone: u32 },
}

/// What `series` measures over the window's frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The largest change between consecutive frames (distance for a position).
    MaxStep,
    /// The sum of the changes between consecutive frames (distance travelled).
    Path,
    /// How many different values (positions) were seen.
    Distinct,
    /// How many times the value (position) changed from one frame to the next.
    Changes,
    /// How many times a number turned from rising to falling or back.
    Reversals,
    /// How many times a number rose then fell (local maxima, plateaus counted once).
    Peaks,
    /// The highest value minus the lowest.
    Range,
    /// How far the last value is above the lowest (a bounce back up from a floor or edge).
    AboveMin,
    /// How far the last value is below the highest.
    BelowMax,
    /// The shortest time in seconds between two consecutive changes.
    ShortestGap,
    /// The longest time in seconds between two consecutive changes.
    LongestGap,
}

impl Measure {
    pub const ALL: [(&'static str, Measure); 11] = [
        ("max_step", Measure::MaxStep),
        ("path", Measure::Path),
        ("distinct", Measure::Distinct),
        ("changes", Measure::Changes),
        ("reversals", Measure::Reversals),
        ("peaks", Measure::Peaks),
        ("range", Measure::Range),
        ("above_min", Measure::AboveMin),
        ("below_max", Measure::BelowMax),
        ("shortest_gap", Measure::ShortestGap),
        ("longest_gap", Measure::LongestGap),
    ];

    pub fn name(self) -> &'static str {
        Measure::ALL.iter().find(|(_, m)| *m == self).map_or("", |(n, _)| n)
    }
}

/// Orders for `monotonic`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Increasing,
    Decreasing,
    NonDecreasing,
    NonIncreasing,
}

/// A list expectation.
#[derive(Debug, Clone, Default)]
pub struct ListExpect {
    pub equals: Option<Vec<Value>>,
    pub length: Option<NumMatch>,
    pub contains: Option<Value>,
}

/// Something that must hold: of the current frame (state), of the frames since a mark
/// (history), or of the program (static).
#[derive(Debug, Clone)]
pub enum Check {
    Variable {
        sprite: Option<SpriteRef>,
        name: String,
        expect: ValueMatch,
    },
    List {
        sprite: Option<SpriteRef>,
        name: String,
        expect: ListExpect,
    },
    Sprite {
        sprite: SpriteRef,
        clone: CloneSel,
        expect: SpriteExpect,
    },
    Backdrop(CostumeRef),
    CloneCount {
        sprite: SpriteRef,
        count: NumMatch,
    },
    /// Scripts are (or are not) still running.
    Running(bool),
    Says {
        sprite: Option<SpriteRef>,
        kind: SayKind,
        text: TextMatch,
        since: Option<Since>,
    },
    SaysInOrder {
        sprite: Option<SpriteRef>,
        kind: SayKind,
        texts: Vec<TextMatch>,
        since: Option<Since>,
    },
    Asked {
        text: Option<TextMatch>,
        count: Option<NumMatch>,
        since: Option<Since>,
    },
    Broadcast {
        name: String,
        count: Option<NumMatch>,
        since: Option<Since>,
    },
    Moved {
        sprite: SpriteRef,
        at_least: f64,
        since: Option<Since>,
    },
    /// The value at `to` (default now) differs from the value at `from`; with `by`, the
    /// numeric difference (to − from) matches instead.
    Changed {
        probe: Probe,
        from: String,
        to: Option<String>,
        by: Option<NumMatch>,
    },
    Monotonic {
        probe: Probe,
        order: Order,
        since: Option<Since>,
    },
    Extent {
        probe: Probe,
        min: Option<NumMatch>,
        max: Option<NumMatch>,
        since: Option<Since>,
    },
    /// The first frame where `from` holds, then the first later frame where `to` holds: the
    /// time between them lies in `seconds`.
    Interval {
        from: Box<Check>,
        to: Box<Check>,
        seconds: NumMatch,
        since: Option<Since>,
    },
    Opcode {
        opcode: String,
        sprite: Option<SpriteRef>,
        present: bool,
    },
    BlockCount {
        sprite: Option<SpriteRef>,
        opcode: Option<String>,
        count: NumMatch,
    },
    /// How many costumes the sprite has (backdrops of the stage without a sprite).
    CostumeCount {
        sprite: Option<SpriteRef>,
        count: NumMatch,
    },
    /// CHECK held at some frame of the window (each frame judged alone, as in `interval`).
    Ever {
        check: Box<Check>,
        since: Option<Since>,
    },
    /// CHECK held at every frame of the window (and the window is not empty).
    Always {
        check: Box<Check>,
        since: Option<Since>,
    },
    /// The fraction of the window's frames at which CHECK held matches `ratio`.
    Fraction {
        check: Box<Check>,
        ratio: NumMatch,
        since: Option<Since>,
    },
    /// How many of the checks hold matches `count` (k of n).
    CountOf {
        checks: Vec<Check>,
        count: NumMatch,
    },
    /// A sprite, variable or list exists in the project (never a validation error).
    Exists(Existence),
    /// CHECK as it was at a mark: state at the mark's frame, history up to it.
    AtMark {
        mark: String,
        check: Box<Check>,
    },
    /// A probe's value now matches.
    Value {
        probe: Probe,
        expect: NumMatch,
    },
    /// A measure of a probe's (or a position's) frame-to-frame series over the window matches.
    Series {
        track: Track,
        measure: Measure,
        expect: NumMatch,
        since: Option<Since>,
    },
    /// The checks hold on consecutive frames (the first at some frame of the window, the second
    /// at the next, ...), each frame judged alone.
    Sequence {
        checks: Vec<Check>,
        since: Option<Since>,
    },
    Not(Box<Check>),
    All(Vec<Check>),
    Any(Vec<Check>),
}

/// What `exists` looks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Existence {
    Sprite(SpriteRef),
    /// A variable (or a list, when `list`) visible from the sprite (its own or the stage's),
    /// or anywhere without a sprite.
    Variable {
        sprite: Option<SpriteRef>,
        name: String,
        list: bool,
    },
}

/// The start of a history check's window: the frames observed after a mark, or with
/// `include_mark` from the mark's own frame (the frame that was "now" when it was set).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Since {
    pub mark: String,
    pub include_mark: bool,
}
