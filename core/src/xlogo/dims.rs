//! Task dimensions for capability analysis (XLogoMiniProg §5.4, Fig. 3): the task type, code
//! constraints, code concepts, code length and grid size of a task and its reference code. The
//! paper leaves the rules unspecified; gobo's are in `docs/xlogo.md` §9. Aggregation over rows
//! lives in [`super::report`], not here.

use alloc::format;
use alloc::string::{String, ToString};

use serde::Serialize;
use serde_json::Value;

use super::ast::{BlockCounts, Program, Stmt};
use super::task::{ObjectiveKind, Task};
use super::{code_json, load, python};

/// What the goal asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TaskType {
    /// Reach an item (`find` only).
    Find,
    /// Draw the target lines.
    Draw,
    /// Collect items by count (`sum`).
    Math,
    /// A logical goal: `forbid`, `findonly`, `collectall`, `concat` or a negated literal.
    Logic,
}

/// Which code constraints the task has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ConstraintKind {
    /// No constraint.
    None,
    /// Only `at_most` limits.
    AtMost,
    /// Only `exactly` limits.
    Exactly,
    /// Only a `start_by` sequence.
    StartBy,
    /// More than one of the above.
    Hybrid,
}

/// Programming concepts the reference code uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Concepts {
    /// Moves and turns only.
    #[serde(rename = "Basic Actions")]
    BasicActions,
    /// A `repeat`, no `setpc`.
    Loops,
    /// A `setpc` (the pen colour variable), no `repeat`.
    Variables,
    /// Both.
    #[serde(rename = "Loops and Variables")]
    LoopsAndVariables,
}

/// The reference code's length in blocks (the count `at_most`/`exactly` limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Length {
    /// 0..=5 blocks.
    Short,
    /// 6..=10 blocks.
    Medium,
    /// 11 or more blocks.
    Long,
}

/// The grid's larger side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum GridSize {
    /// At most 3.
    #[serde(rename = "<=3")]
    UpTo3,
    /// 4.
    #[serde(rename = "4")]
    Four,
    /// 5.
    #[serde(rename = "5")]
    Five,
    /// 6.
    #[serde(rename = "6")]
    Six,
    /// 7 or more.
    #[serde(rename = ">=7")]
    AtLeast7,
}

/// A task's dimensions. `concepts`, `length` and `n_blocks` come from the reference code and are
/// `None` without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Dimensions {
    /// Task type.
    pub task_type: TaskType,
    /// Code constraints.
    pub constraints: ConstraintKind,
    /// Concepts of the reference code.
    pub concepts: Option<Concepts>,
    /// Length class of the reference code.
    pub length: Option<Length>,
    /// Blocks in the reference code.
    pub n_blocks: Option<u32>,
    /// Grid size class.
    pub grid_size: GridSize,
    /// `max(rows, cols)`.
    pub grid_side: i32,
}

/// The five dimensions, in the paper's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    TaskType,
    Constraints,
    Concepts,
    Length,
    GridSize,
}

impl Dimension {
    /// All five, in the paper's order.
    pub const ALL: [Dimension; 5] = [
        Dimension::TaskType,
        Dimension::Constraints,
        Dimension::Concepts,
        Dimension::Length,
        Dimension::GridSize,
    ];

    /// The JSON field name.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::TaskType => "task_type",
            Dimension::Constraints => "constraints",
            Dimension::Concepts => "concepts",
            Dimension::Length => "length",
            Dimension::GridSize => "grid_size",
        }
    }

    /// Every aspect of the dimension in the paper's order (Fig. 3); reports list them so.
    pub fn aspects(self) -> &'static [&'static str] {
        match self {
            Dimension::TaskType => &["Find", "Draw", "Math", "Logic"],
            Dimension::Constraints => &["None", "AtMost", "Exactly", "StartBy", "Hybrid"],
            Dimension::Concepts => &["Basic Actions", "Loops", "Variables", "Loops and Variables"],
            Dimension::Length => &["Short", "Medium", "Long"],
            Dimension::GridSize => &["<=3", "4", "5", "6", ">=7"],
        }
    }
}

impl Dimensions {
    /// The aspect of `dim` (as [`Dimension::aspects`] spells it), `None` when unknown.
    pub fn aspect(&self, dim: Dimension) -> Option<&'static str> {
        let i = match dim {
            Dimension::TaskType => self.task_type as usize,
            Dimension::Constraints => self.constraints as usize,
            Dimension::Concepts => self.concepts? as usize,
            Dimension::Length => self.length? as usize,
            Dimension::GridSize => self.grid_size as usize,
        };
        dim.aspects().get(i).copied()
    }

    /// The dimensions as JSON (the shape `gobo xlogo classify --json` prints).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Classifies a task and (optionally) its reference code.
pub fn classify(task: &Task, reference: Option<&Program>) -> Dimensions {
    let grid_side = task.rows.max(task.cols);
    let (concepts, length, n_blocks) = match reference {
        None => (None, None, None),
        Some(p) => {
            let n = BlockCounts::of(p).total();
            (Some(concepts(p)), Some(length(n)), Some(n))
        }
    };
    Dimensions {
        task_type: task_type(task),
        constraints: constraint_kind(task),
        concepts,
        length,
        n_blocks,
        grid_size: match grid_side {
            ..=3 => GridSize::UpTo3,
            4 => GridSize::Four,
            5 => GridSize::Five,
            6 => GridSize::Six,
            _ => GridSize::AtLeast7,
        },
        grid_side,
    }
}

fn task_type(task: &Task) -> TaskType {
    let goal = &task.goal;
    if goal.is_draw() {
        return TaskType::Draw;
    }
    let has = |k: ObjectiveKind| goal.objectives.iter().any(|o| o.kind == k);
    if has(ObjectiveKind::Sum) {
        return TaskType::Math;
    }
    let logical = [
        ObjectiveKind::Forbid,
        ObjectiveKind::FindOnly,
        ObjectiveKind::CollectAll,
        ObjectiveKind::Concat,
    ];
    let negated = goal
        .objectives
        .iter()
        .flat_map(|o| &o.specs)
        .flat_map(|s| &s.clauses)
        .flatten()
        .any(|l| l.neg);
    if logical.into_iter().any(has) || negated {
        TaskType::Logic
    } else {
        TaskType::Find
    }
}

fn constraint_kind(task: &Task) -> ConstraintKind {
    let c = &task.constraints;
    let kinds = [
        (c.at_most.iter().any(Option::is_some), ConstraintKind::AtMost),
        (c.exactly.iter().any(Option::is_some), ConstraintKind::Exactly),
        (!c.start_by.is_empty(), ConstraintKind::StartBy),
    ];
    let mut present = kinds.iter().filter(|(on, _)| *on).map(|(_, k)| *k);
    match (present.next(), present.next()) {
        (None, _) => ConstraintKind::None,
        (Some(k), None) => k,
        (Some(_), Some(_)) => ConstraintKind::Hybrid,
    }
}

fn concepts(program: &Program) -> Concepts {
    fn scan(stmts: &[Stmt], loops: &mut bool, vars: &mut bool) {
        for s in stmts {
            match s {
                Stmt::Repeat { body, .. } => {
                    *loops = true;
                    scan(body, loops, vars);
                }
                Stmt::SetPc(_) => *vars = true,
                _ => {}
            }
        }
    }
    let (mut loops, mut vars) = (false, false);
    scan(&program.run, &mut loops, &mut vars);
    match (loops, vars) {
        (false, false) => Concepts::BasicActions,
        (true, false) => Concepts::Loops,
        (false, true) => Concepts::Variables,
        (true, true) => Concepts::LoopsAndVariables,
    }
}

fn length(n_blocks: u32) -> Length {
    match n_blocks {
        ..=5 => Length::Short,
        6..=10 => Length::Medium,
        _ => Length::Long,
    }
}

/// The key a row's `id` (or a data row's `task_id`) is matched by: a string as it is, anything
/// else as its JSON text (so `7` and `"7"` match, as task ids load).
pub fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A task row as the data files and batch inputs hold it: `{"task_id" | "id", "task",
/// "reference_code"?}` (the task an object or its JSON text; the code an AST object or Python
/// text), or a bare task object (its `id` is the key).
#[derive(Debug, Clone)]
pub struct TaskRow {
    /// The row's key ([`id_key`] of `task_id`, else `id`, else the task's own `id`).
    pub key: Option<String>,
    /// The task.
    pub task: Task,
    /// The reference code, if the row has one.
    pub reference: Option<Program>,
}

/// Reads a task row; the error names the field that is wrong.
pub fn task_row(row: &Value) -> Result<TaskRow, String> {
    let task = match row.get("task") {
        Some(Value::String(text)) => load::task_from_slice(text.as_bytes()),
        _ => load::task_from_value(row),
    }
    .map_err(|e| e.to_string())?;
    let reference = match row.get("reference_code") {
        None | Some(Value::Null) => None,
        Some(Value::String(src)) => Some(python::parse(src.as_bytes())),
        Some(ast) => Some(code_json::parse_value(ast)),
    }
    .transpose()
    .map_err(|e| format!("reference_code: {e}"))?;
    let key = row
        .get("task_id")
        .or_else(|| row.get("id"))
        .filter(|v| !v.is_null())
        .map(id_key)
        .or_else(|| task.id.clone());
    Ok(TaskRow { key, task, reference })
}
