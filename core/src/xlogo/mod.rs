//! XLogo-Mini: the task model and its loader, the code in two forms (JSON AST and Python style),
//! the emulator and goal/constraint checker that reproduce the reference emulator's verdicts,
//! prompts (natural language and ASCII grid) and a renderer over `embedded-graphics`.
//!
//! Data flows one way: bytes → [`load`] → [`Task`] → [`World`] (precomputed grid arrays) and
//! bytes → [`code_json`] / [`python`] → [`Program`]; then [`Emulator::evaluate`] runs a program in
//! a world without allocating and [`Verdict`] turns the outcome into the oracle's JSON fields.
//!
//! ```
//! use gobo::xlogo::{evaluate_bytes, CodeInput, ErrorType};
//! let task = br#"{"turtle":{"x":0,"y":1,"direction":0},
//!   "tiles":[{"x":0,"y":0,"allowed":true,"walls":{}},{"x":0,"y":1,"allowed":true,"walls":{}}],
//!   "items":[{"x":0,"y":0,"name":"strawberry","color":"red","count":1}],"lines":[],
//!   "goal":[{"name":"find","specs":[[[{"name":"strawberry","neg":0}]]]}],"constraints":[]}"#;
//! let verdict = evaluate_bytes(task, CodeInput::Python(b"def run():\n    move_forward()\n")).unwrap();
//! assert_eq!(verdict.error_type, ErrorType::Ok);
//! ```

mod ast;
pub mod batch;
pub mod code_json;
mod constraints;
pub mod dims;
mod emulator;
mod error;
mod goal;
mod limits;
pub mod load;
mod path;
pub mod perturb;
pub mod print;
pub mod prompt;
pub mod python;
pub mod render;
pub mod report;
pub mod resample;
mod task;
mod verdict;
mod world;

pub use ast::{BlockCounts, BlockKind, PenColor, Program, Stmt};
pub use emulator::{Crash, CrashKind, Emulator, Outcome, RunState};
pub use error::{CodeError, TaskError, TaskErrorKind};
pub use limits::{MAX_ACTIONS, MAX_CODE_DEPTH, MAX_GRID_SIDE, MAX_PROGRAM_NODES, MAX_TASK_BYTES};
pub use task::{
    Atom, Constraints, Dir, Goal, Item, ItemColor, ItemName, Line, LineColor, Literal, Objective,
    ObjectiveKind, Spec, Task, Tile, Turtle, Walls,
};
pub use verdict::{DrawnLine, ErrorType, RunReport, Verdict};
pub use world::World;

/// Code as a caller hands it over: a JSON AST document or Python-style source text.
#[derive(Debug, Clone, Copy)]
pub enum CodeInput<'a> {
    /// `{"run": [...]}` as JSON text.
    Json(&'a [u8]),
    /// `def run(): ...` source text (any bytes; non-UTF-8 is a format error).
    Python(&'a [u8]),
}

/// Parses code in either form. A Python syntax error is [`CodeError::Format`]; a well-formed
/// program outside the reference's vocabulary (unknown block, `times` outside 1..12, a pen colour
/// outside the six) is [`CodeError::Invalid`].
pub fn parse_code(code: CodeInput<'_>) -> Result<Program, CodeError> {
    match code {
        CodeInput::Json(bytes) => code_json::parse_bytes(bytes),
        CodeInput::Python(src) => python::parse(src),
    }
}

/// Loads a task, parses the code and evaluates it: the one-call path for hosts. Task errors are
/// returned as `Err`; code errors become `INVALID_CODE` / `FORMAT_ERROR` verdicts.
///
/// ```
/// use gobo::xlogo::{evaluate_bytes, CodeInput};
///
/// // A 1 x 2 grid: the turtle at (0, 1) facing up (direction 0) must find the strawberry
/// // at (0, 0).
/// let task = br#"{"turtle": {"x": 0, "y": 1, "direction": 0},
///   "tiles": [{"x": 0, "y": 0, "allowed": true, "walls": {}},
///             {"x": 0, "y": 1, "allowed": true, "walls": {}}],
///   "items": [{"x": 0, "y": 0, "name": "strawberry", "color": "red", "count": 1}],
///   "lines": [], "constraints": [],
///   "goal": [{"name": "find", "specs": [[[{"name": "strawberry", "neg": 0}]]]}]}"#;
/// let code = b"def run():\n    move_forward()\n";
/// let verdict = evaluate_bytes(task, CodeInput::Python(code))?;
/// assert!(verdict.success());
/// println!("{}", verdict.to_json());
/// # Ok::<(), gobo::xlogo::TaskError>(())
/// ```
pub fn evaluate_bytes(task: &[u8], code: CodeInput<'_>) -> Result<Verdict, TaskError> {
    let task = load::task_from_slice(task)?;
    let world = World::new(&task);
    Ok(evaluate_code(&world, code))
}

/// Evaluates code (either form) in a compiled world and returns the full verdict.
pub fn evaluate_code(world: &World, code: CodeInput<'_>) -> Verdict {
    match parse_code(code) {
        Ok(program) => evaluate_program(world, &program),
        Err(err) => Verdict::code_error(&err),
    }
}

/// Evaluates a parsed program in a compiled world and returns the full verdict.
pub fn evaluate_program(world: &World, program: &Program) -> Verdict {
    let mut emulator = Emulator::new();
    let outcome = emulator.evaluate(world, program);
    Verdict::from_run(world, &outcome, &emulator)
}
