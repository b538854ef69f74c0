//! XLogo-Mini on a kit: the program-image payload (kind 2) that carries a task and the code to
//! run on it, and the player that shows the run one action at a time.
//!
//! The player loads the task and code with the XLogo loaders, evaluates the whole program once
//! for its verdict, and shows the state after the first `k` actions by evaluating the first `k`
//! actions of the unrolled program (the language has no conditionals, so that is exactly the
//! full run's state after `k` actions). Pictures come from the XLogo renderer, shrunk to fit.
//!
//! Timing (frames at 30 fps): the start is held for [`START_HOLD_FRAMES`], then one action
//! every [`FRAMES_PER_STEP`] until the last action or a crash; the keys are
//! [`super::playback`]'s.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use serde::{Deserialize, Serialize};

use super::input::Keys;
use super::pack::code_input;
use super::playback::Playback;
pub use super::playback::PlayerState;
use super::screen::{self, Shrunk};
use crate::xlogo::{
    self, load, render, CodeError, ErrorType, Program, RunReport, Stmt, Task, TaskError, World,
};

/// Frames the start position is shown before the first action.
pub const START_HOLD_FRAMES: u32 = 30;
/// Frames each action is shown while playing.
pub const FRAMES_PER_STEP: u32 = 10;
/// Actions the player shows at most (the verdict always covers the whole program).
pub const MAX_PLAYBACK_STEPS: usize = 500;

/// Payload of an XLogo program image: the task document and the code, both as text, so the kit
/// runs exactly the loader and emulator the hosts run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct XLogoProgram {
    /// The task JSON (the XLogo task format).
    pub task: String,
    /// The code: a JSON AST (`{"run":[...]}`) or the Python-style text.
    pub code: String,
}

/// Why an XLogo payload cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The task does not load.
    Task(TaskError),
    /// The code does not parse.
    Code(CodeError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Task(e) => write!(f, "task: {e}"),
            Self::Code(e) => write!(f, "code: {e}"),
        }
    }
}

/// Plays an XLogo run.
#[derive(Debug)]
pub struct Player {
    task: Task,
    world: World,
    actions: Vec<Stmt>,
    result: ErrorType,
    shown: Option<RunReport>,
    playback: Playback,
}

/// Primitive actions of `stmts` with repeats unrolled, at most `cap` of them.
fn unroll(stmts: &[Stmt], cap: usize, out: &mut Vec<Stmt>) {
    for stmt in stmts {
        if out.len() >= cap {
            return;
        }
        match stmt {
            Stmt::Repeat { times, body } => {
                for _ in 0..*times {
                    unroll(body, cap, out);
                }
            }
            other => out.push(other.clone()),
        }
    }
}

impl Player {
    /// Loads and evaluates a program; the player starts at the start position, playing.
    pub fn new(program: &XLogoProgram) -> Result<Self, PlayError> {
        let task = load::task_from_slice(program.task.as_bytes()).map_err(PlayError::Task)?;
        let code =
            xlogo::parse_code(code_input(program.code.as_bytes())).map_err(PlayError::Code)?;
        let world = World::new(&task);
        let result = xlogo::evaluate_program(&world, &code).error_type;
        let mut actions = Vec::new();
        unroll(&code.run, MAX_PLAYBACK_STEPS, &mut actions);
        drop(code);
        let shown = Self::report_after(&world, &actions, 0);
        let playback = Playback::new(actions.len(), START_HOLD_FRAMES, FRAMES_PER_STEP);
        Ok(Self { task, world, actions, result, shown, playback })
    }

    fn report_after(world: &World, actions: &[Stmt], k: usize) -> Option<RunReport> {
        let prefix = Program { run: actions.get(..k).unwrap_or(actions).to_vec() };
        xlogo::evaluate_program(world, &prefix).run
    }

    fn crashed(&self) -> bool {
        self.shown.as_ref().is_some_and(|r| r.crash.is_some())
    }

    /// The visible state.
    pub fn state(&self) -> PlayerState {
        self.playback.state(self.crashed())
    }

    /// The verdict of the whole program.
    pub fn result(&self) -> ErrorType {
        self.result
    }

    /// Advances one frame with this frame's keys.
    pub fn step_frame(&mut self, keys: Keys) {
        if self.playback.frame(keys, self.crashed()) {
            self.shown = Self::report_after(&self.world, &self.actions, self.playback.step());
        }
    }

    /// Draws the run so far and a status panel (step, play state, verdict at the end). Wide
    /// displays get the panel on the right of a square scene, others below the scene.
    pub fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>,
    {
        let size = target.bounding_box().size;
        target.clear(screen::BACKGROUND)?;
        let font = screen::font_for(size.width);
        let line_h = font.character_size.height;
        let (scene, panel) = if size.width >= 2 * size.height {
            (Size::new(size.height, size.height), Point::new(size.height as i32 + 2, 0))
        } else {
            let scene_h = size.height.saturating_sub(2 * line_h + 2);
            (Size::new(size.width, scene_h), Point::new(0, scene_h as i32 + 2))
        };
        let (w, h) = render::image_size(&self.task);
        let mut shrunk = Shrunk::fit(target, Size::new(w, h), scene, Point::zero());
        render::render(&self.task, self.shown.as_ref(), &mut shrunk)?;

        screen::draw_status(target, panel, self.state(), self.result.as_str())
    }
}
