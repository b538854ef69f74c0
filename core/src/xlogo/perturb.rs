//! `xlogo perturb`: the three simplifications of XLogoMiniProg's perturbation analysis (§5.3,
//! Fig. 7b): (A) remove the code constraints, (B) remove the grid constraints (walls and
//! forbidden cells), (C) move the turtle closer to its target, and their 8 subsets. Works on
//! the task JSON (so the output keeps the input's format) and checks the reference code
//! against the perturbed task. Rules: `docs/xlogo.md` §10.

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{Map, Value};

use super::ast::Program;
use super::error::{TaskError, TaskErrorKind};
use super::task::{Task, Walls};
use super::world::{bit, cell_index, GoalCheck, Target, World, ALLOWED, EXIST};
use super::{evaluate_program, load, Dir};

/// A subset of the three perturbations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Subset {
    /// (A) remove code constraints.
    pub a: bool,
    /// (B) remove walls and forbidden cells.
    pub b: bool,
    /// (C) move the turtle halfway towards its nearest target.
    pub c: bool,
}

impl Subset {
    /// The paper's 8 subsets in its order: T, T_A, T_B, T_C, T_AB, T_BC, T_AC, T_ABC.
    pub const ALL: [Subset; 8] = [
        Subset { a: false, b: false, c: false },
        Subset { a: true, b: false, c: false },
        Subset { a: false, b: true, c: false },
        Subset { a: false, b: false, c: true },
        Subset { a: true, b: true, c: false },
        Subset { a: false, b: true, c: true },
        Subset { a: true, b: false, c: true },
        Subset { a: true, b: true, c: true },
    ];

    /// `T`, `T_A`, ..., `T_ABC`.
    pub fn label(self) -> &'static str {
        match (self.a, self.b, self.c) {
            (false, false, false) => "T",
            (true, false, false) => "T_A",
            (false, true, false) => "T_B",
            (false, false, true) => "T_C",
            (true, true, false) => "T_AB",
            (false, true, true) => "T_BC",
            (true, false, true) => "T_AC",
            (true, true, true) => "T_ABC",
        }
    }

    /// Parses `T`, `T_AB`, `AB`, `ba`, `c` ... (letters A, B, C in any order and case, each at
    /// most once, optionally after `T_`); `None` for anything else.
    pub fn parse(s: &str) -> Option<Subset> {
        if s == "T" {
            return Some(Subset::default());
        }
        let letters = s.strip_prefix("T_").unwrap_or(s);
        if letters.is_empty() {
            return None;
        }
        let mut set = Subset::default();
        for ch in letters.chars() {
            let flag = match ch.to_ascii_uppercase() {
                'A' => &mut set.a,
                'B' => &mut set.b,
                'C' => &mut set.c,
                _ => return None,
            };
            if *flag {
                return None;
            }
            *flag = true;
        }
        Some(set)
    }
}

/// Which applied perturbations changed the task (a perturbation that does not apply, such as
/// removing constraints from a task without any, leaves it unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Changed {
    /// Constraints removed.
    #[serde(rename = "A")]
    pub a: bool,
    /// Walls or forbidden cells removed.
    #[serde(rename = "B")]
    pub b: bool,
    /// Turtle moved.
    #[serde(rename = "C")]
    pub c: bool,
}

/// Where (C) moved the turtle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Move {
    /// The start before, `[x, y]`.
    pub from: [i32; 2],
    /// The start after.
    pub to: [i32; 2],
    /// Steps of the shortest path from the old start to the nearest target.
    pub path_len: usize,
}

/// The reference code's verdict on the perturbed task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReferenceCheck {
    /// The verdict class (`OK`, `GOAL_FAIL`, `CRASH_WALL`, ...).
    pub error_type: &'static str,
    /// Whether it still solves the task.
    pub success: bool,
}

/// One perturbed task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Perturbed {
    /// `T`, `T_A`, ... `T_ABC`.
    pub subset: &'static str,
    /// What changed.
    pub changed: Changed,
    /// The turtle's move, when (C) moved it.
    #[serde(rename = "move")]
    pub moved: Option<Move>,
    /// The reference code's verdict, when a reference was given.
    pub reference: Option<ReferenceCheck>,
    /// The perturbed task JSON.
    pub task: Value,
}

/// Applies `subset` to a task (a task object or a data row wrapping one in `"task"`) and, when
/// given, runs the reference code on the result.
pub fn perturb(
    task: &Value,
    reference: Option<&Program>,
    subset: Subset,
) -> Result<Perturbed, TaskError> {
    let inner = match task.get("task") {
        Some(t) if task.get("tiles").is_none() => t,
        _ => task,
    };
    let original = load::task_from_value(inner)?;
    let mut doc = inner.clone();
    let mut changed = Changed::default();
    if subset.a && !original.constraints.is_empty() {
        if let Some(obj) = doc.as_object_mut() {
            obj.insert("constraints".into(), Value::Array(Vec::new()));
            changed.a = true;
        }
    }
    if subset.b {
        changed.b = open_grid(&mut doc);
    }
    let mut loaded = load::task_from_value(&doc)?;
    let mut moved = None;
    if subset.c {
        if let Some(m) = move_closer(&loaded) {
            set_start(&mut doc, m.to)?;
            loaded.turtle.x = m.to[0];
            loaded.turtle.y = m.to[1];
            changed.c = true;
            moved = Some(m);
        }
    }
    let reference = reference.map(|program| {
        let verdict = evaluate_program(&World::new(&loaded), program);
        ReferenceCheck { error_type: verdict.error_type.as_str(), success: verdict.success() }
    });
    Ok(Perturbed { subset: subset.label(), changed, moved, reference, task: doc })
}

/// (B): every wall removed and every existing listed cell allowed. Returns whether anything
/// changed.
fn open_grid(doc: &mut Value) -> bool {
    let Some(tiles) = doc.get_mut("tiles").and_then(Value::as_array_mut) else { return false };
    let mut changed = false;
    for tile in tiles.iter_mut().filter_map(Value::as_object_mut) {
        let walled = match tile.get("walls") {
            Some(Value::Object(w)) => w.values().any(|v| v == &Value::Bool(true)),
            _ => false,
        };
        if walled {
            tile.insert("walls".into(), Value::Object(Map::new()));
            changed = true;
        }
        let exists = tile.get("exist") != Some(&Value::Bool(false));
        if exists && tile.get("allowed") == Some(&Value::Bool(false)) {
            tile.insert("allowed".into(), Value::Bool(true));
            changed = true;
        }
    }
    changed
}

fn set_start(doc: &mut Value, to: [i32; 2]) -> Result<(), TaskError> {
    let turtle = doc.get_mut("turtle").and_then(Value::as_object_mut).ok_or(TaskError {
        path: "$.turtle".into(),
        kind: TaskErrorKind::Type { expected: "an object" },
    })?;
    turtle.insert("x".into(), Value::from(to[0]));
    turtle.insert("y".into(), Value::from(to[1]));
    Ok(())
}

/// Target cells of (C): for a draw task the endpoints of the target lines; for an item task the
/// cells matching the target the reference keeps (the first spec of a `concat`).
fn targets(task: &Task, world: &World) -> Vec<bool> {
    let n = world.cells.len();
    let mut out = vec![false; n];
    let mut mark = |x: i32, y: i32| {
        if x >= 0 && y >= 0 && x < world.cols && y < world.rows {
            if let Some(t) = out.get_mut(cell_index(world.cols, x, y)) {
                *t = true;
            }
        }
    };
    match &world.goal {
        GoalCheck::Draw => {
            for l in &task.lines {
                mark(l.x1, l.y1);
                mark(l.x2, l.y2);
            }
        }
        GoalCheck::Items { target, .. } => {
            let bits = match target {
                Some(Target::Find(s) | Target::CollectAll(s) | Target::Sum(s, _)) => Some(s),
                Some(Target::Concat(specs)) => specs.first(),
                None => None,
            };
            if let Some(bits) = bits {
                for (cell, t) in out.iter_mut().enumerate() {
                    *t = bit(bits, cell);
                }
            }
        }
    }
    out
}

/// (C): a breadth-first search (moves N, E, S, W; walls on the cell left block; destinations
/// must exist and be allowed) from the start to the nearest target; the turtle moves to the cell
/// `path_len / 2` steps along it, keeping its heading. `None` when no target is reachable or the
/// halfway cell is the start.
fn move_closer(task: &Task) -> Option<Move> {
    let world = World::new(task);
    let goal = targets(task, &world);
    let (cols, rows) = (world.cols, world.rows);
    let start = world.start;
    let s = cell_index(cols, start.x, start.y);
    let mut parent: Vec<Option<usize>> = vec![None; world.cells.len()];
    let mut seen = vec![false; world.cells.len()];
    *seen.get_mut(s)? = true;
    let mut queue = VecDeque::from([s]);
    let mut found = None;
    while let Some(cell) = queue.pop_front() {
        if goal.get(cell).copied().unwrap_or(false) {
            found = Some(cell);
            break;
        }
        let (x, y) = ((cell as i32) % cols, (cell as i32) / cols);
        let flags = world.cells.get(cell).copied().unwrap_or(0);
        for dir in [Dir::North, Dir::East, Dir::South, Dir::West] {
            if flags & Walls::bit_for(dir) != 0 {
                continue;
            }
            let (dx, dy) = dir.delta();
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= cols || ny >= rows {
                continue;
            }
            let next = cell_index(cols, nx, ny);
            let open =
                world.cells.get(next).is_some_and(|f| f & (ALLOWED | EXIST) == ALLOWED | EXIST);
            if open && !seen.get(next).copied().unwrap_or(true) {
                seen[next] = true;
                parent[next] = Some(cell);
                queue.push_back(next);
            }
        }
    }
    let mut path = vec![found?];
    while let Some(p) = path.last().and_then(|c| parent.get(*c).copied().flatten()) {
        path.push(p);
    }
    path.reverse();
    let path_len = path.len() - 1;
    let to = *path.get(path_len / 2)?;
    if to == s {
        return None;
    }
    let xy = |c: usize| [(c as i32) % cols, (c as i32) / cols];
    Some(Move { from: xy(s), to: xy(to), path_len })
}
