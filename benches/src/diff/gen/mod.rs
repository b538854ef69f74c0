//! Random valid Scratch 3 projects for differential testing and fuzzing: a structured
//! description ([`ProjectDef`], built by `arbitrary` from any bytes) written out as
//! `project.json` text with its costume assets and a scenario ([`Program`]).
//!
//! The description has a stage and up to three sprites; globals and sprite-local variables and
//! lists; broadcasts; up to two custom blocks per sprite (number, text and boolean arguments,
//! with or without screen refresh); scripts under every hat kind; every implemented block family
//! ([`ops`]) with reporters nested up to four deep; clones; strings and numbers chosen for their
//! edge cases (NaN-making text, `Infinity`, `0x` literals, `-0`, huge and tiny numbers, Unicode
//! that changes length when its case changes). The scenario starts with a mouse move and the
//! green flag, then presses keys, broadcasts, answers questions, clicks targets and moves the
//! mouse.
//!
//! Two profiles: [`Profile::GeometryFree`] leaves out what depends on costume silhouettes
//! (edges, touching, bouncing, mouse clicks), which the Node reference only approximates;
//! [`Profile::Full`] keeps them, for the reference that runs the real renderer.
//!
//! Strings cannot grow without bound: a value stored into a variable, a list or a custom
//! block argument never joins stored text with stored text (so a loop cannot double a string
//! each turn), which keeps every program within both implementations' memory.

pub mod ops;
mod write;

use arbitrary::Arbitrary;

pub use write::Program;

/// Sprites at most.
pub const MAX_SPRITES: usize = 3;
/// Scripts per target at most.
pub const MAX_SCRIPTS: usize = 4;
/// Blocks per stack at most.
pub const MAX_STACK: usize = 8;
/// C-block and reporter nesting at most.
pub const MAX_DEPTH: u32 = 4;
/// Scenario events at most (besides the opening mouse move and green flag).
pub const MAX_EVENTS: usize = 12;

/// Broadcast messages (mixed case: matching is case-insensitive).
pub const MESSAGES: [&str; 3] = ["go", "Stop", "ping"];
/// Text literals.
pub const STRINGS: [&str; 24] = [
    "",
    "0",
    "1.5",
    "-7",
    "abc",
    "Infinity",
    "-Infinity",
    "0x1f",
    " 3 ",
    "1e3",
    "NaN",
    "true",
    "false",
    "-0",
    ".5",
    "5.",
    "ß",
    "İ",
    "\u{1F600}x",
    "a b",
    "ABC",
    "0b101",
    "  ",
    "1,000",
];
/// Number literals.
pub const NUMBERS: [f64; 16] = [
    0.0,
    1.0,
    -1.0,
    2.5,
    10.0,
    100.0,
    1e6,
    -0.5,
    0.1,
    3.0,
    360.0,
    -90.0,
    1e21,
    1e-7,
    0.30000000000000004,
    9007199254740993.0,
];
/// Keys the scenario presses and the menus name.
pub const KEYS: [&str; 4] = ["space", "a", "up arrow", "any"];
/// Answers the scenario gives.
pub const ANSWERS: [&str; 6] = ["", "42", "Hello", "-3.5", "true", " x "];

/// Which blocks a program may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// No block whose result depends on costume silhouettes or picking (the Node reference's
    /// stub renderer only has rectangles).
    GeometryFree,
    /// Every block (the browser reference has the real renderer).
    Full,
}

/// A whole program: targets, scenario and run parameters.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub struct ProjectDef {
    pub stage: Vec<ScriptDef>,
    pub sprites: Vec<SpriteDef>,
    pub events: Vec<EventDef>,
    /// Frames to run: 10 + this % 31.
    pub frames: u8,
    /// Seed of block randomness.
    pub seed: u16,
    /// Chooses the work budgets (passes per frame, warp checks) and turbo mode.
    pub budget: u8,
}

/// A sprite.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub struct SpriteDef {
    pub x: i8,
    pub y: i8,
    /// Chooses costumes, direction, size, visibility, rotation style.
    pub look: u8,
    pub scripts: Vec<ScriptDef>,
    /// Custom blocks (at most two are written).
    pub procs: Vec<ProcDef>,
}

/// A custom block: `p<k>` with up to two arguments.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub struct ProcDef {
    /// Run without screen refresh.
    pub warp: bool,
    /// Argument kinds: bits 0-1 the count (0..=2), bits 2 and 3 whether each is boolean.
    pub kinds: u8,
    pub body: Vec<Block>,
}

/// A script under a hat.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub struct ScriptDef {
    pub hat: u8,
    /// The hat's option (message, key, backdrop, threshold).
    pub arg: u8,
    pub body: Vec<Block>,
}

/// A stack block.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub struct Block {
    pub op: u8,
    pub args: Vec<Expr>,
    /// Chooses fields and menus.
    pub field: u8,
    pub branches: Vec<Vec<Block>>,
}

/// What fills an input.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub enum Expr {
    Num(u8),
    Str(u8),
    Int(i16),
    /// A variable (of those visible to the target).
    Var(u8),
    /// A list's contents.
    List(u8),
    /// A custom block argument.
    Param(u8),
    /// A reporter with a field choice and its inputs.
    Rep(u8, u8, Vec<Expr>),
}

/// A scenario event at frame `frame % frames`.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub struct EventDef {
    pub frame: u8,
    pub kind: u8,
    pub arg: u8,
}

impl ProjectDef {
    /// Frames the scenario runs.
    pub fn frames(&self) -> u64 {
        10 + u64::from(self.frames % 31)
    }

    /// The program in `profile`.
    pub fn program(&self, profile: Profile) -> Program {
        write::program(self, profile)
    }

    /// Stack blocks and reporters in the whole program (a size for the minimizer).
    pub fn size(&self) -> usize {
        fn expr(e: &Expr) -> usize {
            match e {
                Expr::Rep(_, _, args) => 1 + args.iter().map(expr).sum::<usize>(),
                _ => 1,
            }
        }
        fn stack(blocks: &[Block]) -> usize {
            blocks
                .iter()
                .map(|b| {
                    1 + b.args.iter().map(expr).sum::<usize>()
                        + b.branches.iter().map(|s| stack(s)).sum::<usize>()
                })
                .sum()
        }
        let scripts = |s: &[ScriptDef]| s.iter().map(|s| 1 + stack(&s.body)).sum::<usize>();
        scripts(&self.stage)
            + self
                .sprites
                .iter()
                .map(|s| {
                    1 + scripts(&s.scripts)
                        + s.procs.iter().map(|p| 1 + stack(&p.body)).sum::<usize>()
                })
                .sum::<usize>()
            + self.events.len()
    }
}
