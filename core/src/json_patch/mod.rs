//! RFC 6902 JSON Patch over an order-preserving JSON tree ([`Json`]): the six operations
//! (`add`, `remove`, `replace`, `move`, `copy`, `test`), RFC 6901 pointers with `~0`/`~1`
//! escapes and `-` for the end of an array, applied atomically (a failing operation leaves the
//! document unchanged), with limits on the number of operations, the nesting depth and the
//! size of the result so that no patch can exhaust memory (a chain of `copy` operations
//! doubles a document each time).
//!
//! Written here rather than taken from the `json-patch` crate, which needs `std` and
//! `serde_json::Value` (whose objects lose key order in `no_std`: the order of a Scratch
//! target's `blocks` decides the order its scripts start in).
//!
//! The Scratch profile (extraction from model text, normalization, budgets, validation of the
//! result) is `scratch::project::json_patch`.

pub mod pointer;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::scratch::project::{Json, Num};

/// One operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// `add`: insert or replace a member, insert into an array (`-` appends).
    Add {
        /// Target pointer.
        path: String,
        /// The value.
        value: Json,
    },
    /// `remove` the target.
    Remove {
        /// Target pointer.
        path: String,
    },
    /// `replace` an existing target.
    Replace {
        /// Target pointer.
        path: String,
        /// The value.
        value: Json,
    },
    /// `move` a value (remove at `from`, add at `path`).
    Move {
        /// Source pointer.
        from: String,
        /// Target pointer.
        path: String,
    },
    /// `copy` a value.
    Copy {
        /// Source pointer.
        from: String,
        /// Target pointer.
        path: String,
    },
    /// `test` that the target equals the value.
    Test {
        /// Target pointer.
        path: String,
        /// The expected value.
        value: Json,
    },
}

impl Op {
    /// The operation's name.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Add { .. } => "add",
            Op::Remove { .. } => "remove",
            Op::Replace { .. } => "replace",
            Op::Move { .. } => "move",
            Op::Copy { .. } => "copy",
            Op::Test { .. } => "test",
        }
    }

    /// The target pointer.
    pub fn path(&self) -> &str {
        match self {
            Op::Add { path, .. }
            | Op::Remove { path }
            | Op::Replace { path, .. }
            | Op::Move { path, .. }
            | Op::Copy { path, .. }
            | Op::Test { path, .. } => path,
        }
    }
}

/// Limits on a patch and its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most operations (default 100,000).
    pub max_ops: usize,
    /// Deepest nesting of the result (default 128, what the parser accepts).
    pub max_depth: usize,
    /// Most JSON values (nodes) in the result (default 4 × the document's, at least 1,000,000).
    pub max_nodes: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_ops: 100_000, max_depth: 128, max_nodes: None }
    }
}

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The patch is not an array of operation objects.
    NotAPatch,
    /// An operation lacks `op`, `path`, `value` or `from`, or one has the wrong type.
    MissingMember(&'static str),
    /// `op` is not one of the six.
    UnknownOp,
    /// A pointer is malformed.
    BadPointer,
    /// The pointer's parent (or the `from` location) does not exist.
    NoSuchPath,
    /// An array index that is not `0`, digits without leading zero, or `-` for add.
    BadIndex,
    /// An array index past the end.
    OutOfBounds,
    /// The pointer goes through a number, string, boolean or null.
    NotAContainer,
    /// `test` found a different value.
    TestFailed,
    /// `move` into its own child.
    MoveIntoChild,
    /// More operations, depth or size than the limits allow.
    Limit,
}

impl ErrorKind {
    /// A short code, e.g. `"no_such_path"`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::NotAPatch => "not_a_patch",
            ErrorKind::MissingMember(_) => "missing_member",
            ErrorKind::UnknownOp => "unknown_op",
            ErrorKind::BadPointer => "bad_pointer",
            ErrorKind::NoSuchPath => "no_such_path",
            ErrorKind::BadIndex => "bad_index",
            ErrorKind::OutOfBounds => "out_of_bounds",
            ErrorKind::NotAContainer => "not_a_container",
            ErrorKind::TestFailed => "test_failed",
            ErrorKind::MoveIntoChild => "move_into_child",
            ErrorKind::Limit => "limit",
        }
    }
}

/// Why a patch failed: the operation's index, its pointer and the reason. The document is
/// unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// Index of the operation (`None`: the patch as a whole).
    pub index: Option<usize>,
    /// The pointer involved.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.index {
            write!(f, "operation {i}")?;
            if !self.path.is_empty() {
                write!(f, " ({})", self.path)?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl core::error::Error for Error {}

fn err(kind: ErrorKind, index: Option<usize>, path: &str, message: String) -> Error {
    Error { kind, index, path: path.into(), message }
}

/// Parses a patch document (an array of operation objects). Unknown members of an operation
/// are ignored (RFC 6902 §4).
pub fn parse_ops(patch: &Json, limits: &Limits) -> Result<Vec<Op>, Error> {
    let Json::Array(items) = patch else {
        return Err(err(
            ErrorKind::NotAPatch,
            None,
            "",
            format!("a patch is an array of operations, not {}", patch.type_name()),
        ));
    };
    if items.len() > limits.max_ops {
        return Err(err(
            ErrorKind::Limit,
            None,
            "",
            format!("{} operations, more than the limit of {}", items.len(), limits.max_ops),
        ));
    }
    let mut ops = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        ops.push(parse_op(item, i)?);
    }
    Ok(ops)
}

fn parse_op(item: &Json, i: usize) -> Result<Op, Error> {
    let Json::Object(_) = item else {
        return Err(err(
            ErrorKind::NotAPatch,
            Some(i),
            "",
            format!("an operation is an object, not {}", item.type_name()),
        ));
    };
    let text = |key: &'static str| -> Result<String, Error> {
        match item.get(key) {
            Some(Json::String(s)) => Ok(s.clone()),
            Some(other) => Err(err(
                ErrorKind::MissingMember(key),
                Some(i),
                "",
                format!("{key:?} must be a string, not {}", other.type_name()),
            )),
            None => {
                Err(err(ErrorKind::MissingMember(key), Some(i), "", format!("missing {key:?}")))
            }
        }
    };
    let value = || -> Result<Json, Error> {
        item.get("value").cloned().ok_or_else(|| {
            err(ErrorKind::MissingMember("value"), Some(i), "", "missing \"value\"".into())
        })
    };
    let op = text("op")?;
    let path = text("path")?;
    Ok(match op.as_str() {
        "add" => Op::Add { path, value: value()? },
        "remove" => Op::Remove { path },
        "replace" => Op::Replace { path, value: value()? },
        "move" => Op::Move { from: text("from")?, path },
        "copy" => Op::Copy { from: text("from")?, path },
        "test" => Op::Test { path, value: value()? },
        other => {
            return Err(err(ErrorKind::UnknownOp, Some(i), &path, format!("unknown op {other:?}")))
        }
    })
}

/// JSON equality as RFC 6902 `test` defines it: objects equal as sets of members (order
/// ignored), arrays element-wise, numbers by value.
pub fn json_eq(a: &Json, b: &Json) -> bool {
    // Iterative, so depth costs no Rust stack.
    let mut stack: Vec<(&Json, &Json)> = alloc::vec![(a, b)];
    while let Some((x, y)) = stack.pop() {
        match (x, y) {
            (Json::Null, Json::Null) => {}
            (Json::Bool(p), Json::Bool(q)) if p == q => {}
            (Json::Number(p), Json::Number(q)) if num_eq(*p, *q) => {}
            (Json::String(p), Json::String(q)) if p == q => {}
            (Json::Array(p), Json::Array(q)) if p.len() == q.len() => stack.extend(p.iter().zip(q)),
            (Json::Object(p), Json::Object(q)) if p.len() == q.len() => {
                for (k, v) in p {
                    match y.get(k) {
                        Some(w) => stack.push((v, w)),
                        None => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

fn num_eq(a: Num, b: Num) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

/// Number of values in `v` and its nesting depth (a scalar is 1 deep).
pub fn measure(v: &Json) -> (usize, usize) {
    let mut nodes = 0;
    let mut depth = 0;
    let mut stack: Vec<(&Json, usize)> = alloc::vec![(v, 1)];
    while let Some((x, d)) = stack.pop() {
        nodes += 1;
        depth = depth.max(d);
        match x {
            Json::Array(items) => stack.extend(items.iter().map(|c| (c, d + 1))),
            Json::Object(pairs) => stack.extend(pairs.iter().map(|(_, c)| (c, d + 1))),
            _ => {}
        }
    }
    (nodes, depth)
}

/// Applies operations atomically: all of them, or none (the document is restored).
pub fn apply(doc: &mut Json, ops: &[Op], limits: &Limits) -> Result<(), Error> {
    if ops.len() > limits.max_ops {
        return Err(err(
            ErrorKind::Limit,
            None,
            "",
            format!("{} operations, more than the limit of {}", ops.len(), limits.max_ops),
        ));
    }
    let backup = doc.clone();
    let (mut nodes, _) = measure(doc);
    let max_nodes = limits.max_nodes.unwrap_or_else(|| nodes.saturating_mul(4).max(1_000_000));
    for (i, op) in ops.iter().enumerate() {
        if let Err(e) = apply_op(doc, op, i, limits, &mut nodes, max_nodes) {
            *doc = backup;
            return Err(e);
        }
    }
    Ok(())
}

/// Parses and applies a patch document to a document: the generic entry point
/// (`gobo json-patch DOC PATCH`).
pub fn apply_json(doc: &mut Json, patch: &Json, limits: &Limits) -> Result<(), Error> {
    let ops = parse_ops(patch, limits)?;
    apply(doc, &ops, limits)
}

fn tokens(path: &str, i: usize) -> Result<Vec<String>, Error> {
    pointer::parse(path).map_err(|e| {
        let why = match e {
            pointer::PointerError::NoLeadingSlash => "a pointer starts with \"/\"",
            pointer::PointerError::BadEscape => "\"~\" must be followed by 0 or 1",
        };
        err(ErrorKind::BadPointer, Some(i), path, why.into())
    })
}

fn apply_op(
    doc: &mut Json,
    op: &Op,
    i: usize,
    limits: &Limits,
    nodes: &mut usize,
    max_nodes: usize,
) -> Result<(), Error> {
    let grow =
        |nodes: &mut usize, value: &Json, at_depth: usize, path: &str| -> Result<(), Error> {
            let (n, d) = measure(value);
            if at_depth + d > limits.max_depth {
                return Err(err(
                    ErrorKind::Limit,
                    Some(i),
                    path,
                    format!("the result would nest deeper than {}", limits.max_depth),
                ));
            }
            *nodes = nodes.saturating_add(n);
            if *nodes > max_nodes {
                return Err(err(
                    ErrorKind::Limit,
                    Some(i),
                    path,
                    format!("the result would hold more than {max_nodes} values"),
                ));
            }
            Ok(())
        };
    match op {
        Op::Add { path, value } => {
            let t = tokens(path, i)?;
            grow(nodes, value, t.len(), path)?;
            add(doc, &t, value.clone(), i, path, nodes)
        }
        Op::Remove { path } => {
            let t = tokens(path, i)?;
            let old = remove(doc, &t, i, path)?;
            *nodes = nodes.saturating_sub(measure(&old).0);
            Ok(())
        }
        Op::Replace { path, value } => {
            let t = tokens(path, i)?;
            grow(nodes, value, t.len(), path)?;
            let slot = get_mut(doc, &t, i, path)?;
            let old = core::mem::replace(slot, value.clone());
            *nodes = nodes.saturating_sub(measure(&old).0);
            Ok(())
        }
        Op::Move { from, path } => {
            let f = tokens(from, i)?;
            let t = tokens(path, i)?;
            if f == t {
                // Moving to the same place is a no-op once the source is known to exist.
                get_mut(doc, &f, i, from)?;
                return Ok(());
            }
            if t.len() > f.len() && t[..f.len()] == f[..] {
                return Err(err(
                    ErrorKind::MoveIntoChild,
                    Some(i),
                    path,
                    "cannot move a value into its own child".into(),
                ));
            }
            let value = get_mut(doc, &f, i, from).map(|v| v.clone())?;
            let (_, d) = measure(&value);
            if t.len() + d > limits.max_depth {
                return Err(err(
                    ErrorKind::Limit,
                    Some(i),
                    path,
                    format!("the result would nest deeper than {}", limits.max_depth),
                ));
            }
            let value = remove(doc, &f, i, from)?;
            let mut unchanged = 0;
            add(doc, &t, value, i, path, &mut unchanged)
        }
        Op::Copy { from, path } => {
            let f = tokens(from, i)?;
            let t = tokens(path, i)?;
            let value = get_mut(doc, &f, i, from).map(|v| v.clone())?;
            grow(nodes, &value, t.len(), path)?;
            add(doc, &t, value, i, path, nodes)
        }
        Op::Test { path, value } => {
            let t = tokens(path, i)?;
            let found = get_mut(doc, &t, i, path)?;
            if json_eq(found, value) {
                Ok(())
            } else {
                Err(err(ErrorKind::TestFailed, Some(i), path, "the value differs".into()))
            }
        }
    }
}

/// The value a pointer names.
fn get_mut<'a>(
    doc: &'a mut Json,
    t: &[String],
    i: usize,
    path: &str,
) -> Result<&'a mut Json, Error> {
    let mut at = doc;
    for token in t {
        at = step(at, token, i, path)?;
    }
    Ok(at)
}

fn step<'a>(at: &'a mut Json, token: &str, i: usize, path: &str) -> Result<&'a mut Json, Error> {
    match at {
        Json::Object(pairs) => match pairs.iter_mut().find(|(k, _)| k == token) {
            Some((_, v)) => Ok(v),
            None => Err(err(ErrorKind::NoSuchPath, Some(i), path, format!("no member {token:?}"))),
        },
        Json::Array(items) => {
            let Some(n) = pointer::array_index(token) else {
                return Err(err(
                    ErrorKind::BadIndex,
                    Some(i),
                    path,
                    format!("{token:?} is not an array index"),
                ));
            };
            let len = items.len();
            items.get_mut(n).ok_or_else(|| {
                err(
                    ErrorKind::OutOfBounds,
                    Some(i),
                    path,
                    format!("index {n} is past the end ({len} items)"),
                )
            })
        }
        other => Err(err(
            ErrorKind::NotAContainer,
            Some(i),
            path,
            format!("{token:?} goes into a {}", other.type_name()),
        )),
    }
}

fn add(
    doc: &mut Json,
    t: &[String],
    value: Json,
    i: usize,
    path: &str,
    nodes: &mut usize,
) -> Result<(), Error> {
    let Some((last, parent)) = t.split_last() else {
        let old = core::mem::replace(doc, value);
        *nodes = nodes.saturating_sub(measure(&old).0);
        return Ok(());
    };
    match get_mut(doc, parent, i, path)? {
        Json::Object(pairs) => {
            match pairs.iter_mut().find(|(k, _)| k == last) {
                Some((_, v)) => {
                    let old = core::mem::replace(v, value);
                    *nodes = nodes.saturating_sub(measure(&old).0);
                }
                None => pairs.push((last.clone(), value)),
            }
            Ok(())
        }
        Json::Array(items) => {
            let n = if last == "-" {
                items.len()
            } else {
                pointer::array_index(last).ok_or_else(|| {
                    err(
                        ErrorKind::BadIndex,
                        Some(i),
                        path,
                        format!("{last:?} is not an array index"),
                    )
                })?
            };
            if n > items.len() {
                return Err(err(
                    ErrorKind::OutOfBounds,
                    Some(i),
                    path,
                    format!("index {n} is past the end ({} items)", items.len()),
                ));
            }
            items.insert(n, value);
            Ok(())
        }
        other => Err(err(
            ErrorKind::NotAContainer,
            Some(i),
            path,
            format!("cannot add into a {}", other.type_name()),
        )),
    }
}

fn remove(doc: &mut Json, t: &[String], i: usize, path: &str) -> Result<Json, Error> {
    let Some((last, parent)) = t.split_last() else {
        return Ok(core::mem::replace(doc, Json::Null));
    };
    match get_mut(doc, parent, i, path)? {
        Json::Object(pairs) => match pairs.iter().position(|(k, _)| k == last) {
            Some(p) => Ok(pairs.remove(p).1),
            None => Err(err(ErrorKind::NoSuchPath, Some(i), path, format!("no member {last:?}"))),
        },
        Json::Array(items) => {
            let n = pointer::array_index(last).ok_or_else(|| {
                err(ErrorKind::BadIndex, Some(i), path, format!("{last:?} is not an array index"))
            })?;
            if n >= items.len() {
                return Err(err(
                    ErrorKind::OutOfBounds,
                    Some(i),
                    path,
                    format!("index {n} is past the end ({} items)", items.len()),
                ));
            }
            Ok(items.remove(n))
        }
        other => Err(err(
            ErrorKind::NotAContainer,
            Some(i),
            path,
            format!("cannot remove from a {}", other.type_name()),
        )),
    }
}
