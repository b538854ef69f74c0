//! [`World`]: a task compiled for fast evaluation. Cell flags and item counts in row-major
//! arrays, the target drawing as an edge-colour array, every goal spec reduced to a bitset of
//! the cells it matches, and the reference's goal-assembly quirks resolved once, up front.

use alloc::vec;
use alloc::vec::Vec;

use super::ast::PenColor;
use super::task::{Atom, Constraints, Item, LineColor, ObjectiveKind, Spec, Task, Tile, Turtle};

/// Cell flag: the tile is allowed (not a forbidden area).
pub(crate) const ALLOWED: u8 = 16;
/// Cell flag: the tile exists.
pub(crate) const EXIST: u8 = 32;
/// Edge colour of a target line the pen can never match (a colour given by name).
pub(crate) const UNMATCHABLE: u8 = 7;

/// A set of cells, one bit per row-major cell index.
pub(crate) type Bits = Vec<u64>;

pub(crate) fn bit(bits: &[u64], cell: usize) -> bool {
    bits.get(cell / 64).is_some_and(|w| w & (1u64 << (cell % 64)) != 0)
}

fn set_bit(bits: &mut [u64], cell: usize) {
    if let Some(w) = bits.get_mut(cell / 64) {
        *w |= 1u64 << (cell % 64);
    }
}

/// The item-goal target the reference keeps: only the last of find/findonly/collectall/sum/concat
/// (objectives are grouped by name in order of first appearance, then taken in order).
#[derive(Debug, Clone)]
pub(crate) enum Target {
    Find(Bits),
    CollectAll(Bits),
    Sum(Bits, i64),
    Concat(Vec<Bits>),
}

/// How the goal is checked.
#[derive(Debug, Clone)]
pub(crate) enum GoalCheck {
    /// Drawn edges must equal the target edges.
    Draw,
    /// Item goals over the visited cells.
    Items {
        /// Every item fits the reference's item model; if not, every item goal fails.
        items_ok: bool,
        target: Option<Target>,
        /// Cells no visited position may match.
        forbids: Vec<Bits>,
    },
}

/// A task compiled for evaluation.
#[derive(Debug, Clone)]
pub struct World {
    pub(crate) rows: i32,
    pub(crate) cols: i32,
    /// Per cell: wall bits (`Walls::*`) | `ALLOWED` | `EXIST`.
    pub(crate) cells: Vec<u8>,
    /// Per cell: item count, 0 for an empty cell.
    pub(crate) counts: Vec<u8>,
    /// Per cell two edges (to the right, downwards): 0 = none, else a `PenColor` code.
    pub(crate) target_edges: Vec<u8>,
    pub(crate) start: Turtle,
    pub(crate) goal: GoalCheck,
    pub(crate) constraints: Constraints,
}

impl World {
    /// Compiles a loaded task.
    pub fn new(task: &Task) -> World {
        let n = task.tiles.len();
        let cells: Vec<u8> = task.tiles.iter().map(cell_flags).collect();
        let mut items: Vec<Option<Item>> = vec![None; n];
        for item in &task.items {
            if let Some(slot) = items.get_mut(cell_index(task.cols, item.x, item.y)) {
                *slot = Some(*item);
            }
        }
        let counts = items.iter().map(|i| i.map_or(0, |i| i.count)).collect();
        let mut target_edges = vec![0u8; 2 * n];
        for line in &task.lines {
            let code = match &line.color {
                LineColor::Pen(c) => c.code(),
                LineColor::Unmatchable(_) => UNMATCHABLE,
            };
            for (x, y, down) in unit_edges(line.x1, line.y1, line.x2, line.y2) {
                if let Some(e) = target_edges.get_mut(edge_index(task.cols, x, y, down)) {
                    *e = code;
                }
            }
        }
        let goal = compile_goal(task, &items);
        World {
            rows: task.rows,
            cols: task.cols,
            cells,
            counts,
            target_edges,
            start: task.turtle,
            goal,
            constraints: task.constraints.clone(),
        }
    }

    /// Rows of the grid.
    pub fn rows(&self) -> i32 {
        self.rows
    }

    /// Columns of the grid.
    pub fn cols(&self) -> i32 {
        self.cols
    }

    /// The turtle's start.
    pub fn start(&self) -> Turtle {
        self.start
    }

    /// Whether the goal looks at visited cells (item goals) rather than drawn edges.
    pub(crate) fn goal_reads_trace(&self) -> bool {
        matches!(self.goal, GoalCheck::Items { .. })
    }

    pub(crate) fn words(&self) -> usize {
        self.cells.len().div_ceil(64)
    }
}

fn cell_flags(tile: &Tile) -> u8 {
    let mut f = tile.walls.0 & 0x0f;
    if tile.allowed {
        f |= ALLOWED;
    }
    if tile.exist {
        f |= EXIST;
    }
    f
}

pub(crate) fn cell_index(cols: i32, x: i32, y: i32) -> usize {
    (y * cols + x) as usize
}

/// Index of the unit edge leaving (x, y) to the right (`down == false`) or downwards.
pub(crate) fn edge_index(cols: i32, x: i32, y: i32, down: bool) -> usize {
    2 * cell_index(cols, x, y) + usize::from(down)
}

/// Unit edges of an axis-aligned segment as (x, y, down) of their top-left cell.
fn unit_edges(x1: i32, y1: i32, x2: i32, y2: i32) -> impl Iterator<Item = (i32, i32, bool)> {
    let (xa, xb) = (x1.min(x2), x1.max(x2));
    let (ya, yb) = (y1.min(y2), y1.max(y2));
    let horizontal = (xa..xb).map(move |x| (x, ya, false));
    let vertical = (ya..yb).map(move |y| (xa, y, true));
    let is_h = y1 == y2;
    let is_v = x1 == x2;
    horizontal.filter(move |_| is_h).chain(vertical.filter(move |_| is_v))
}

/// Whether a cell's item (or emptiness) satisfies a spec.
fn spec_matches(spec: &Spec, item: Option<&Item>) -> bool {
    spec.clauses.iter().all(|clause| {
        clause.iter().any(|lit| {
            let v = match lit.atom {
                Atom::Name(n) => item.map(|i| i.name) == n,
                Atom::Color(c) => match item {
                    None => c.is_none(),
                    Some(i) => i.color.is_some() && i.color == c,
                },
                Atom::Count(k) => u32::from(item.map_or(0, |i| i.count)) == k,
            };
            v != lit.neg
        })
    })
}

fn spec_bits(spec: &Spec, items: &[Option<Item>]) -> Bits {
    let mut bits = vec![0u64; items.len().div_ceil(64)];
    for (cell, item) in items.iter().enumerate() {
        if spec_matches(spec, item.as_ref()) {
            set_bit(&mut bits, cell);
        }
    }
    bits
}

/// Cells holding an item that does not match the spec: what `findonly` forbids.
fn findonly_forbid_bits(spec: &Spec, items: &[Option<Item>]) -> Bits {
    let mut bits = vec![0u64; items.len().div_ceil(64)];
    for (cell, item) in items.iter().enumerate() {
        if item.is_some() && !spec_matches(spec, item.as_ref()) {
            set_bit(&mut bits, cell);
        }
    }
    bits
}

fn compile_goal(task: &Task, items: &[Option<Item>]) -> GoalCheck {
    if task.goal.is_draw() {
        return GoalCheck::Draw;
    }
    let items_ok = task.items.iter().all(Item::is_consistent);
    // The reference groups objectives by name (first appearance order) before assembling them.
    let mut kinds: Vec<ObjectiveKind> = Vec::new();
    for o in &task.goal.objectives {
        if !kinds.contains(&o.kind) {
            kinds.push(o.kind);
        }
    }
    let mut target = None;
    let mut forbids = Vec::new();
    for kind in kinds {
        for o in task.goal.objectives.iter().filter(|o| o.kind == kind) {
            let first = || o.specs.first().map(|s| spec_bits(s, items)).unwrap_or_default();
            match kind {
                ObjectiveKind::Find => target = Some(Target::Find(first())),
                ObjectiveKind::FindOnly => {
                    target = Some(Target::Find(first()));
                    // findonly replaces every forbid assembled so far.
                    forbids = o
                        .specs
                        .first()
                        .map(|s| vec![findonly_forbid_bits(s, items)])
                        .unwrap_or_default();
                }
                ObjectiveKind::Forbid => forbids.push(first()),
                ObjectiveKind::CollectAll => target = Some(Target::CollectAll(first())),
                ObjectiveKind::Sum => {
                    target = Some(Target::Sum(first(), o.total_cnt.unwrap_or(0)));
                }
                ObjectiveKind::Concat => {
                    target =
                        Some(Target::Concat(o.specs.iter().map(|s| spec_bits(s, items)).collect()));
                }
                ObjectiveKind::Draw => {}
            }
        }
    }
    GoalCheck::Items { items_ok, target, forbids }
}

/// The hex colour of an edge code, for reports.
pub(crate) fn edge_color(code: u8) -> Option<PenColor> {
    PenColor::from_code(code)
}
