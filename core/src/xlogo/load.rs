//! The task loader: JSON bytes or a `serde_json::Value` → [`Task`], checking everything the
//! emulator relies on and reporting the JSON path of anything malformed. Accepts the normalised
//! format, the synthetic-task variant (`rows`/`cols`, `exist`, `goal: null`, dict constraints)
//! and a wrapper object `{"task_id", "task": {...}}` as found in the data files.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::ast::{BlockKind, PenColor};
use super::error::{TaskError, TaskErrorKind};
use super::limits::{MAX_GRID_SIDE, MAX_TASK_BYTES};
use super::path::JsonPath;
use super::task::*;

type Result<T> = core::result::Result<T, TaskError>;

fn err(path: &JsonPath<'_>, kind: TaskErrorKind) -> TaskError {
    TaskError { path: path.render(), kind }
}

fn type_err(path: &JsonPath<'_>, expected: &'static str) -> TaskError {
    err(path, TaskErrorKind::Type { expected })
}

fn value_err(path: &JsonPath<'_>, reason: impl Into<String>) -> TaskError {
    err(path, TaskErrorKind::Value { reason: reason.into() })
}

/// Loads a task from JSON text.
pub fn task_from_slice(bytes: &[u8]) -> Result<Task> {
    if bytes.len() > MAX_TASK_BYTES {
        let kind = TaskErrorKind::TooLong { bytes: bytes.len(), limit: MAX_TASK_BYTES };
        return Err(TaskError { path: "$".to_owned(), kind });
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| TaskError {
        path: "$".to_owned(),
        kind: TaskErrorKind::Syntax { line: e.line(), column: e.column(), message: e.to_string() },
    })?;
    task_from_value(&value)
}

/// Loads a task from a parsed JSON value.
pub fn task_from_value(value: &Value) -> Result<Task> {
    let root = JsonPath::Root;
    let obj = value.as_object().ok_or_else(|| type_err(&root, "an object"))?;
    // A data-file row wraps the task: {"task_id": ..., "task": {...}}.
    if !obj.contains_key("tiles") {
        if let Some(inner) = obj.get("task") {
            let path = root.key("task");
            let inner = inner.as_object().ok_or_else(|| type_err(&path, "an object"))?;
            return load_task(inner, &path);
        }
    }
    load_task(obj, &root)
}

fn field<'v>(obj: &'v Map<String, Value>, key: &str, path: &JsonPath<'_>) -> Result<&'v Value> {
    obj.get(key).ok_or_else(|| err(&path.key(key), TaskErrorKind::Missing))
}

fn int(value: &Value, path: &JsonPath<'_>) -> Result<i64> {
    value.as_i64().ok_or_else(|| type_err(path, "an integer"))
}

fn coord(value: &Value, path: &JsonPath<'_>) -> Result<i32> {
    let v = int(value, path)?;
    if v < 0 {
        return Err(value_err(path, format!("negative coordinate {v}")));
    }
    if v >= MAX_GRID_SIDE {
        return Err(err(path, TaskErrorKind::TooLarge { limit: MAX_GRID_SIDE - 1 }));
    }
    Ok(v as i32)
}

fn boolean(value: &Value, path: &JsonPath<'_>) -> Result<bool> {
    value.as_bool().ok_or_else(|| type_err(path, "a boolean"))
}

fn array<'v>(value: &'v Value, path: &JsonPath<'_>) -> Result<&'v Vec<Value>> {
    value.as_array().ok_or_else(|| type_err(path, "an array"))
}

fn object<'v>(value: &'v Value, path: &JsonPath<'_>) -> Result<&'v Map<String, Value>> {
    value.as_object().ok_or_else(|| type_err(path, "an object"))
}

fn string<'v>(value: &'v Value, path: &JsonPath<'_>) -> Result<&'v str> {
    value.as_str().ok_or_else(|| type_err(path, "a string"))
}

/// An optional array field: absent or `null` is empty.
fn opt_array<'v>(
    obj: &'v Map<String, Value>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<&'v [Value]> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(v) => Ok(array(v, &path.key(key))?.as_slice()),
    }
}

fn load_task(obj: &Map<String, Value>, path: &JsonPath<'_>) -> Result<Task> {
    let id = match obj.get("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => Some(other.to_string()),
    };
    let description = match obj.get("description") {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };

    let (rows, cols, tiles) = load_tiles(obj, path)?;
    let turtle = load_turtle(field(obj, "turtle", path)?, &path.key("turtle"), rows, cols)?;
    let items = load_items(obj, path, rows, cols)?;
    let lines = load_lines(obj, path, rows, cols)?;
    let goal = match obj.get("goal") {
        None | Some(Value::Null) => Goal {
            objectives: alloc::vec![Objective {
                kind: ObjectiveKind::Draw,
                specs: Vec::new(),
                total_cnt: None,
            }],
        },
        Some(v) => load_goal(v, &path.key("goal"))?,
    };
    let constraints = match obj.get("constraints") {
        None | Some(Value::Null) => Constraints::default(),
        Some(v) => load_constraints(v, &path.key("constraints"))?,
    };
    Ok(Task { id, description, rows, cols, tiles, items, lines, turtle, goal, constraints })
}

fn load_tiles(obj: &Map<String, Value>, path: &JsonPath<'_>) -> Result<(i32, i32, Vec<Tile>)> {
    let tiles_path = path.key("tiles");
    let list = array(field(obj, "tiles", path)?, &tiles_path)?;
    if list.is_empty() {
        return Err(value_err(&tiles_path, "a task needs at least one tile"));
    }
    // First pass: coordinates, to size the grid as the reference does (max + 1).
    let mut placed = Vec::with_capacity(list.len());
    let (mut rows, mut cols) = (0i32, 0i32);
    for (i, tile) in list.iter().enumerate() {
        let tp = tiles_path.index(i);
        let t = object(tile, &tp)?;
        let x = coord(field(t, "x", &tp)?, &tp.key("x"))?;
        let y = coord(field(t, "y", &tp)?, &tp.key("y"))?;
        rows = rows.max(y + 1);
        cols = cols.max(x + 1);
        let allowed = boolean(field(t, "allowed", &tp)?, &tp.key("allowed"))?;
        let exist = match t.get("exist") {
            None | Some(Value::Null) => true,
            Some(v) => boolean(v, &tp.key("exist"))?,
        };
        let walls = match t.get("walls") {
            None | Some(Value::Null) => Walls(0),
            Some(v) => load_walls(v, &tp.key("walls"))?,
        };
        placed.push((x, y, Tile { listed: true, exist, allowed, walls }));
    }
    let mut tiles = alloc::vec![Tile::MISSING; (rows * cols) as usize];
    for (x, y, tile) in placed {
        if let Some(slot) = tiles.get_mut((y * cols + x) as usize) {
            *slot = tile;
        }
    }
    Ok((rows, cols, tiles))
}

fn load_walls(value: &Value, path: &JsonPath<'_>) -> Result<Walls> {
    let obj = object(value, path)?;
    let mut bits = 0u8;
    for (key, bit) in [
        ("top", Walls::TOP),
        ("right", Walls::RIGHT),
        ("bottom", Walls::BOTTOM),
        ("left", Walls::LEFT),
    ] {
        match obj.get(key) {
            None | Some(Value::Null) => {}
            Some(v) => {
                if boolean(v, &path.key(key))? {
                    bits |= bit;
                }
            }
        }
    }
    Ok(Walls(bits))
}

fn load_turtle(value: &Value, path: &JsonPath<'_>, rows: i32, cols: i32) -> Result<Turtle> {
    let t = object(value, path)?;
    let x = coord(field(t, "x", path)?, &path.key("x"))?;
    let y = coord(field(t, "y", path)?, &path.key("y"))?;
    if x >= cols || y >= rows {
        return Err(value_err(path, format!("start ({x}, {y}) is outside the {rows}x{cols} grid")));
    }
    let dpath = path.key("direction");
    let d = int(field(t, "direction", path)?, &dpath)?;
    if !(0..=3).contains(&d) {
        return Err(value_err(&dpath, format!("direction {d} is not 0..3")));
    }
    Ok(Turtle { x, y, dir: Dir::from_index(d as u8) })
}

fn in_grid(x: i32, y: i32, rows: i32, cols: i32, path: &JsonPath<'_>) -> Result<()> {
    if x >= cols || y >= rows {
        return Err(value_err(path, format!("({x}, {y}) is outside the {rows}x{cols} grid")));
    }
    Ok(())
}

fn load_items(
    obj: &Map<String, Value>,
    path: &JsonPath<'_>,
    rows: i32,
    cols: i32,
) -> Result<Vec<Item>> {
    let ipath = path.key("items");
    let list = opt_array(obj, "items", path)?;
    let mut items = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let p = ipath.index(i);
        let o = object(item, &p)?;
        let x = coord(field(o, "x", &p)?, &p.key("x"))?;
        let y = coord(field(o, "y", &p)?, &p.key("y"))?;
        in_grid(x, y, rows, cols, &p)?;
        let npath = p.key("name");
        let name_s = string(field(o, "name", &p)?, &npath)?;
        let name = ItemName::parse(name_s)
            .ok_or_else(|| value_err(&npath, format!("unknown item name {name_s:?}")))?;
        let cpath = p.key("color");
        let color = match o.get("color") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let s = string(v, &cpath)?;
                Some(
                    ItemColor::parse(s)
                        .ok_or_else(|| value_err(&cpath, format!("unknown item colour {s:?}")))?,
                )
            }
        };
        let kpath = p.key("count");
        let count = int(field(o, "count", &p)?, &kpath)?;
        if !(1..=4).contains(&count) {
            return Err(value_err(&kpath, format!("count {count} is not 1..4")));
        }
        // At most one item per cell: a later item replaces an earlier one, as in the reference.
        items.retain(|it: &Item| it.x != x || it.y != y);
        items.push(Item { x, y, name, color, count: count as u8 });
    }
    Ok(items)
}

fn load_lines(
    obj: &Map<String, Value>,
    path: &JsonPath<'_>,
    rows: i32,
    cols: i32,
) -> Result<Vec<Line>> {
    let lpath = path.key("lines");
    let list = opt_array(obj, "lines", path)?;
    let mut lines = Vec::with_capacity(list.len());
    for (i, line) in list.iter().enumerate() {
        let p = lpath.index(i);
        let o = object(line, &p)?;
        let x1 = coord(field(o, "x1", &p)?, &p.key("x1"))?;
        let y1 = coord(field(o, "y1", &p)?, &p.key("y1"))?;
        let x2 = coord(field(o, "x2", &p)?, &p.key("x2"))?;
        let y2 = coord(field(o, "y2", &p)?, &p.key("y2"))?;
        in_grid(x1, y1, rows, cols, &p)?;
        in_grid(x2, y2, rows, cols, &p)?;
        if x1 != x2 && y1 != y2 {
            return Err(value_err(&p, "a line must be horizontal or vertical"));
        }
        let cpath = p.key("color");
        let c = string(field(o, "color", &p)?, &cpath)?;
        let color = if let Some(pc) = PenColor::parse_hex(c) {
            LineColor::Pen(pc)
        } else if PenColor::parse(c).is_some() {
            LineColor::Unmatchable(c.to_owned())
        } else {
            return Err(value_err(&cpath, format!("unknown line colour {c:?}")));
        };
        lines.push(Line { x1, y1, x2, y2, color });
    }
    Ok(lines)
}

fn load_goal(value: &Value, path: &JsonPath<'_>) -> Result<Goal> {
    let list = array(value, path)?;
    let mut objectives = Vec::with_capacity(list.len());
    for (i, obj) in list.iter().enumerate() {
        objectives.push(load_objective(obj, &path.index(i))?);
    }
    Ok(Goal { objectives })
}

fn load_objective(value: &Value, path: &JsonPath<'_>) -> Result<Objective> {
    let o = object(value, path)?;
    let npath = path.key("name");
    let name = string(field(o, "name", path)?, &npath)?;
    let kind = ObjectiveKind::parse(name)
        .ok_or_else(|| value_err(&npath, format!("unknown objective {name:?}")))?;
    let spath = path.key("specs");
    let spec_list = array(field(o, "specs", path)?, &spath)?;
    let total_cnt = match o.get("total_cnt") {
        None | Some(Value::Null) => None,
        Some(v) => Some(int(v, &path.key("total_cnt"))?),
    };
    match (kind, total_cnt) {
        (ObjectiveKind::Sum, None) => {
            return Err(err(&path.key("total_cnt"), TaskErrorKind::Missing));
        }
        (ObjectiveKind::Sum, Some(_)) | (_, None) => {}
        (_, Some(_)) => {
            return Err(value_err(&path.key("total_cnt"), "only a sum objective has total_cnt"));
        }
    }
    match kind {
        ObjectiveKind::Concat if spec_list.len() < 2 => {
            return Err(value_err(&spath, "concat needs at least two specs"));
        }
        ObjectiveKind::Concat => {}
        _ if spec_list.len() != 1 => {
            return Err(value_err(&spath, format!("{name} needs exactly one spec")));
        }
        _ => {}
    }
    // The target of a draw objective is the task's lines; its specs are not consulted.
    let specs = if kind == ObjectiveKind::Draw {
        Vec::new()
    } else {
        let mut specs = Vec::with_capacity(spec_list.len());
        for (i, spec) in spec_list.iter().enumerate() {
            specs.push(load_spec(spec, &spath.index(i))?);
        }
        specs
    };
    Ok(Objective { kind, specs, total_cnt })
}

fn load_spec(value: &Value, path: &JsonPath<'_>) -> Result<Spec> {
    let clauses_json = array(value, path)?;
    let mut clauses = Vec::with_capacity(clauses_json.len());
    for (i, clause) in clauses_json.iter().enumerate() {
        let cpath = path.index(i);
        let lits_json = array(clause, &cpath)?;
        let mut lits = Vec::with_capacity(lits_json.len());
        for (j, lit) in lits_json.iter().enumerate() {
            lits.push(load_literal(lit, &cpath.index(j))?);
        }
        clauses.push(lits);
    }
    Ok(Spec { clauses })
}

/// A literal names one value; as in the reference, the value decides what is tested (so
/// `{"name": "red"}` tests the colour red). `noname`/`nocolor` test for an empty cell.
fn load_literal(value: &Value, path: &JsonPath<'_>) -> Result<Literal> {
    let o = object(value, path)?;
    let neg = match o.get("neg") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => int(v, &path.key("neg"))? != 0,
    };
    let keys: Vec<&String> = o.keys().filter(|k| k.as_str() != "neg").collect();
    let [key] = keys.as_slice() else {
        return Err(value_err(path, "a literal has exactly one of name, color, count (and neg)"));
    };
    let vpath = path.key(key);
    let atom = match (key.as_str(), &o[key.as_str()]) {
        ("count", v) => {
            let k = int(v, &vpath)?;
            Atom::Count(u32::try_from(k).map_err(|_| value_err(&vpath, "count out of range"))?)
        }
        (_, Value::String(s)) => atom_from_str(s)
            .ok_or_else(|| value_err(&vpath, format!("unknown literal value {s:?}")))?,
        _ => return Err(type_err(&vpath, "a string")),
    };
    Ok(Literal { atom, neg })
}

fn atom_from_str(s: &str) -> Option<Atom> {
    match s {
        "noname" => Some(Atom::Name(None)),
        "nocolor" => Some(Atom::Color(None)),
        _ => ItemName::parse(s)
            .map(|n| Atom::Name(Some(n)))
            .or_else(|| ItemColor::parse(s).map(|c| Atom::Color(Some(c)))),
    }
}

fn load_constraints(value: &Value, path: &JsonPath<'_>) -> Result<Constraints> {
    // A list holds 0 or 1 dicts; a list of two or more is treated as no constraints.
    let (obj, opath) = match value {
        Value::Object(o) => (o, *path),
        Value::Array(list) => match list.as_slice() {
            [single] => (object(single, &path.index(0))?, path.index(0)),
            _ => return Ok(Constraints::default()),
        },
        _ => return Err(type_err(path, "a list or an object")),
    };
    let opath = &opath;
    let mut cons = Constraints::default();
    for (key, slot) in [("at_most", &mut cons.at_most), ("exactly", &mut cons.exactly)] {
        let Some(v) = obj.get(key) else { continue };
        let kpath = opath.key(key);
        if v.is_null() {
            continue;
        }
        for (name, limit) in object(v, &kpath)? {
            let lpath = kpath.key(name);
            let n = int(limit, &lpath)?;
            // Keys naming no block (e.g. "while") are never consulted by the checker.
            if let Some(kind) = BlockKind::parse(name) {
                if let Some(s) = slot.get_mut(kind.index()) {
                    *s = Some(n);
                }
            }
        }
    }
    if let Some(v) = obj.get("start_by") {
        let spath = opath.key("start_by");
        if !v.is_null() {
            for (i, name) in array(v, &spath)?.iter().enumerate() {
                let s = string(name, &spath.index(i))?;
                cons.start_by
                    .push((BlockKind::parse(s).filter(|k| *k != BlockKind::All), s.to_owned()));
            }
        }
    }
    Ok(cons)
}
