//! The emulator: runs a [`Program`] in a [`World`] exactly as the reference does (checks on each
//! move in the reference's order, crash kinds and positions, the 100,000-action cap) and then
//! checks goal and constraints. An [`Emulator`] owns its buffers and reuses them, so evaluating
//! many programs allocates nothing once the buffers have grown.

use alloc::vec::Vec;

use super::ast::{BlockCounts, PenColor, Program, Stmt};
use super::limits::MAX_ACTIONS;
use super::task::{Dir, Walls};
use super::verdict::ErrorType;
use super::world::{cell_index, edge_index, World, ALLOWED, EXIST};
use super::{constraints, goal};

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrashKind {
    /// A wall on the side of the current cell the turtle leaves through.
    Wall,
    /// The destination is a forbidden cell (or a hole in the grid).
    ForbiddenArea,
    /// The destination is outside the grid.
    OutOfWorld,
    /// The destination tile is listed with `exist: false` (and `allowed: true`).
    GridNotExist,
    /// The 100,001st action.
    ExceedMaxCalls,
}

impl CrashKind {
    /// The reference's `crash_type` string.
    pub fn as_str(self) -> &'static str {
        match self {
            CrashKind::Wall => "WALL",
            CrashKind::ForbiddenArea => "FORBIDDEN_AREA",
            CrashKind::OutOfWorld => "OUT_OF_WORLD",
            CrashKind::GridNotExist => "GRID_NOT_EXIST",
            CrashKind::ExceedMaxCalls => "EXCEED_MAX_CALLS",
        }
    }
}

/// A crash and the position the reference reports (the source cell for a wall, the destination
/// otherwise, none for the action cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crash {
    /// What happened.
    pub kind: CrashKind,
    /// `pos_xy`.
    pub pos: Option<(i32, i32)>,
}

/// The turtle and counters when the run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunState {
    /// Final column (after a crash, the position the turtle moved to).
    pub x: i32,
    /// Final row.
    pub y: i32,
    /// Final heading.
    pub dir: Dir,
    /// Last `setpc` value (`None`: never set, or reset with `setpc(None)`).
    pub pen: Option<PenColor>,
    /// Primitive actions executed, the crashing one included.
    pub n_actions: u32,
    /// The crash, if the run stopped early.
    pub crash: Option<Crash>,
}

/// Everything an evaluation decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// How the run ended.
    pub state: RunState,
    /// `goal_ok` (None after a crash: the goal is not evaluated).
    pub goal_ok: Option<bool>,
    /// `cons_ok` (None after a crash).
    pub cons_ok: Option<bool>,
    /// Blocks per kind.
    pub counts: BlockCounts,
}

impl Outcome {
    /// The verdict class.
    pub fn error_type(&self) -> ErrorType {
        if let Some(crash) = self.state.crash {
            return match crash.kind {
                CrashKind::Wall => ErrorType::CrashWall,
                CrashKind::ForbiddenArea => ErrorType::CrashForbiddenArea,
                CrashKind::OutOfWorld => ErrorType::CrashOutOfWorld,
                CrashKind::GridNotExist => ErrorType::CrashGridNotExist,
                CrashKind::ExceedMaxCalls => ErrorType::CrashExceedMaxCalls,
            };
        }
        match (self.goal_ok == Some(true), self.cons_ok == Some(true)) {
            (true, true) => ErrorType::Ok,
            (false, true) => ErrorType::GoalFail,
            (true, false) => ErrorType::ConstraintFail,
            (false, false) => ErrorType::GoalAndConstraintFail,
        }
    }

    /// Not crashed, goal and constraints met.
    pub fn success(&self) -> bool {
        self.error_type() == ErrorType::Ok
    }
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Fd,
    Bk,
    Lt,
    Rt,
    SetPc(Option<PenColor>),
    /// Start of a loop body executed `times` times.
    Loop(u8),
    /// End of the innermost loop body.
    End,
}

/// Reusable evaluation buffers.
#[derive(Debug, Default, Clone)]
pub struct Emulator {
    ops: Vec<Op>,
    loops: Vec<(u32, u8)>,
    trace: Vec<(i32, i32)>,
    cells: Vec<u32>,
    edges: Vec<u8>,
    visited: Vec<u64>,
}

impl Emulator {
    /// Fresh buffers.
    pub fn new() -> Emulator {
        Emulator::default()
    }

    /// Runs `program` in `world` and checks goal and constraints.
    pub fn evaluate(&mut self, world: &World, program: &Program) -> Outcome {
        self.ops.clear();
        self.compile(&program.run);
        let state = self.run(world);
        let counts = BlockCounts::of(program);
        if state.crash.is_some() {
            return Outcome { state, goal_ok: None, cons_ok: None, counts };
        }
        self.cells.clear();
        self.visited.clear();
        self.visited.resize(world.words(), 0);
        // A draw goal reads only the edges: skip indexing the trace.
        let trace = if world.goal_reads_trace() { self.trace.as_slice() } else { &[] };
        for &(x, y) in trace {
            let cell = cell_index(world.cols, x, y);
            self.cells.push(cell as u32);
            if let Some(w) = self.visited.get_mut(cell / 64) {
                *w |= 1u64 << (cell % 64);
            }
        }
        let goal_ok = goal::check(world, &self.cells, &self.visited, &self.edges);
        let cons_ok = constraints::check(&world.constraints, &counts, program);
        Outcome { state, goal_ok: Some(goal_ok), cons_ok: Some(cons_ok), counts }
    }

    /// Every position of the last run: the start, then each destination entered (including the
    /// destination of a crashing move).
    pub fn trace(&self) -> &[(i32, i32)] {
        &self.trace
    }

    /// Drawn edge colours of the last run, two per cell (right, down), 0 = not drawn.
    pub fn drawn_edges(&self) -> &[u8] {
        &self.edges
    }

    /// Flattens the AST into ops. A repeat whose body executes no action is dropped: it has no
    /// observable effect, and dropping it bounds the work of a run by the action cap.
    fn compile(&mut self, body: &[Stmt]) {
        for stmt in body {
            match stmt {
                Stmt::Fd => self.ops.push(Op::Fd),
                Stmt::Bk => self.ops.push(Op::Bk),
                Stmt::Lt => self.ops.push(Op::Lt),
                Stmt::Rt => self.ops.push(Op::Rt),
                Stmt::SetPc(c) => self.ops.push(Op::SetPc(*c)),
                Stmt::Repeat { times, body } => {
                    let start = self.ops.len();
                    self.ops.push(Op::Loop(*times));
                    self.compile(body);
                    if self.ops.len() == start + 1 {
                        self.ops.pop();
                    } else {
                        self.ops.push(Op::End);
                    }
                }
            }
        }
    }

    fn run(&mut self, world: &World) -> RunState {
        let start = world.start;
        let mut st = RunState {
            x: start.x,
            y: start.y,
            dir: start.dir,
            pen: None,
            n_actions: 0,
            crash: None,
        };
        self.trace.clear();
        self.trace.push((st.x, st.y));
        self.edges.clear();
        self.edges.resize(world.target_edges.len(), 0);
        self.loops.clear();
        let mut pc = 0usize;
        while let Some(&op) = self.ops.get(pc) {
            pc += 1;
            match op {
                Op::Loop(times) => {
                    self.loops.push((pc as u32, times));
                    continue;
                }
                Op::End => {
                    if let Some(top) = self.loops.last_mut() {
                        top.1 = top.1.saturating_sub(1);
                        if top.1 > 0 {
                            pc = top.0 as usize;
                            continue;
                        }
                    }
                    self.loops.pop();
                    continue;
                }
                Op::Fd => {
                    let d = st.dir;
                    self.step(world, &mut st, d);
                }
                Op::Bk => {
                    let d = st.dir.back();
                    self.step(world, &mut st, d);
                }
                Op::Lt => st.dir = st.dir.left(),
                Op::Rt => st.dir = st.dir.right(),
                Op::SetPc(c) => st.pen = c,
            }
            st.n_actions += 1;
            if st.n_actions > MAX_ACTIONS {
                // The cap overrides whatever else this action did, as in the reference.
                st.crash = Some(Crash { kind: CrashKind::ExceedMaxCalls, pos: None });
            }
            if st.crash.is_some() {
                break;
            }
        }
        st
    }

    /// One move in direction `d`: wall on the source cell, then out of world, forbidden area,
    /// non-existent tile; otherwise draw the unit segment in the pen colour.
    fn step(&mut self, world: &World, st: &mut RunState, d: Dir) {
        let (x0, y0) = (st.x, st.y);
        let flags = world.cells.get(cell_index(world.cols, x0, y0)).copied().unwrap_or(0);
        let (dx, dy) = d.delta();
        st.x += dx;
        st.y += dy;
        self.trace.push((st.x, st.y));
        if flags & Walls::bit_for(d) != 0 {
            st.crash = Some(Crash { kind: CrashKind::Wall, pos: Some((x0, y0)) });
            return;
        }
        if st.x < 0 || st.y < 0 || st.x >= world.cols || st.y >= world.rows {
            st.crash = Some(Crash { kind: CrashKind::OutOfWorld, pos: Some((st.x, st.y)) });
            return;
        }
        let dest = world.cells.get(cell_index(world.cols, st.x, st.y)).copied().unwrap_or(0);
        if dest & ALLOWED == 0 {
            st.crash = Some(Crash { kind: CrashKind::ForbiddenArea, pos: Some((st.x, st.y)) });
            return;
        }
        if dest & EXIST == 0 {
            st.crash = Some(Crash { kind: CrashKind::GridNotExist, pos: Some((st.x, st.y)) });
            return;
        }
        let index = edge_index(world.cols, x0.min(st.x), y0.min(st.y), dx == 0);
        if let Some(e) = self.edges.get_mut(index) {
            *e = st.pen.unwrap_or(PenColor::Black).code();
        }
    }
}
