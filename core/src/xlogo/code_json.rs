//! The JSON AST form of code (`{"run": [{"type": "fd"}, {"type": "repeat", "times": 3,
//! "body": [...]}]}`): validation exactly as the reference's `Code(...)` asserts it, and the
//! inverse serialisation.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::ast::{PenColor, Program, Stmt};
use super::error::CodeError;
use super::limits::{MAX_CODE_DEPTH, MAX_PROGRAM_NODES};
use super::path::JsonPath;

fn invalid(path: &JsonPath<'_>, message: impl Into<String>) -> CodeError {
    CodeError::Invalid { path: path.render(), message: message.into() }
}

/// Parses JSON text holding a code AST. Text that is not JSON is `INVALID_CODE` too.
/// Nesting within [`MAX_CODE_DEPTH`] repeats is accepted, as in Python form: the text is
/// checked for depth first (a repeat nests two JSON levels, its object and its body list), then
/// parsed without serde_json's own 128-level limit.
pub fn parse_bytes(bytes: &[u8]) -> Result<Program, CodeError> {
    // `{"run": [` is 2 levels, each repeat 2 more, a plain block 1.
    let cap = 2 * MAX_CODE_DEPTH + 3;
    if crate::nesting::json_nesting(bytes, cap) > cap {
        return Err(CodeError::Invalid {
            path: "$".to_owned(),
            message: format!("JSON nested deeper than {MAX_CODE_DEPTH} repeats allow"),
        });
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de)
        .and_then(|v: Value| de.end().map(|()| v))
        .map_err(|e| CodeError::Invalid {
            path: "$".to_owned(),
            message: format!("not JSON: {e}"),
        })?;
    parse_value(&value)
}

/// Validates a parsed JSON value as a code AST.
pub fn parse_value(value: &Value) -> Result<Program, CodeError> {
    let root = JsonPath::Root;
    let obj = value.as_object().ok_or_else(|| invalid(&root, "code must be an object"))?;
    if obj.len() != 1 {
        return Err(invalid(&root, "code must have exactly one key, \"run\""));
    }
    let run_path = root.key("run");
    let run = obj.get("run").ok_or_else(|| invalid(&root, "code must have the key \"run\""))?;
    let mut nodes = 0usize;
    let run = parse_body(run, &run_path, 0, &mut nodes)?;
    Ok(Program { run })
}

fn parse_body(
    value: &Value,
    path: &JsonPath<'_>,
    depth: usize,
    nodes: &mut usize,
) -> Result<Vec<Stmt>, CodeError> {
    let list = value.as_array().ok_or_else(|| invalid(path, "a body must be a list"))?;
    let mut body = Vec::with_capacity(list.len());
    for (i, child) in list.iter().enumerate() {
        let p = path.index(i);
        *nodes += 1;
        if *nodes > MAX_PROGRAM_NODES {
            return Err(invalid(&p, format!("more than {MAX_PROGRAM_NODES} blocks")));
        }
        body.push(parse_stmt(child, &p, depth, nodes)?);
    }
    Ok(body)
}

fn unknown(obj: &Map<String, Value>, path: &JsonPath<'_>) -> CodeError {
    invalid(path, format!("unknown block {}", Value::Object(obj.clone())))
}

fn parse_stmt(
    value: &Value,
    path: &JsonPath<'_>,
    depth: usize,
    nodes: &mut usize,
) -> Result<Stmt, CodeError> {
    let obj = value.as_object().ok_or_else(|| invalid(path, "a block must be an object"))?;
    let ty = obj.get("type").and_then(Value::as_str).ok_or_else(|| unknown(obj, path))?;
    match ty {
        "repeat" => {
            if obj.len() != 3 {
                return Err(invalid(path, "repeat has exactly the keys type, times, body"));
            }
            let tpath = path.key("times");
            // Python's isinstance(x, int) admits booleans: `true` repeats once.
            let times = match obj.get("times") {
                Some(Value::Bool(true)) => 1,
                Some(Value::Number(n)) if n.is_i64() || n.is_u64() => {
                    n.as_i64().unwrap_or(i64::MAX)
                }
                Some(_) => return Err(invalid(&tpath, "times must be an integer")),
                None => return Err(invalid(path, "repeat has no times")),
            };
            if !(1..=12).contains(&times) {
                return Err(invalid(&tpath, format!("times {times} is not in 1..12")));
            }
            if depth + 1 > MAX_CODE_DEPTH {
                return Err(invalid(path, format!("repeat nested deeper than {MAX_CODE_DEPTH}")));
            }
            let bpath = path.key("body");
            let body_value = obj.get("body").ok_or_else(|| invalid(path, "repeat has no body"))?;
            let body = parse_body(body_value, &bpath, depth + 1, nodes)?;
            Ok(Stmt::Repeat { times: times as u8, body })
        }
        "setpc" => {
            if obj.len() != 2 {
                return Err(unknown(obj, path));
            }
            match obj.get("value") {
                Some(Value::Null) => Ok(Stmt::SetPc(None)),
                Some(Value::String(s)) => PenColor::parse(s)
                    .map(|c| Stmt::SetPc(Some(c)))
                    .ok_or_else(|| unknown(obj, path)),
                _ => Err(unknown(obj, path)),
            }
        }
        "fd" | "bk" | "lt" | "rt" if obj.len() == 1 => Ok(match ty {
            "fd" => Stmt::Fd,
            "bk" => Stmt::Bk,
            "lt" => Stmt::Lt,
            _ => Stmt::Rt,
        }),
        _ => Err(unknown(obj, path)),
    }
}

/// Serialises a program as the JSON AST (`{"run": [...]}`).
pub fn to_value(program: &Program) -> Value {
    let mut root = Map::new();
    root.insert("run".to_string(), body_to_value(&program.run));
    Value::Object(root)
}

fn body_to_value(body: &[Stmt]) -> Value {
    Value::Array(body.iter().map(stmt_to_value).collect())
}

fn stmt_to_value(stmt: &Stmt) -> Value {
    let mut o = Map::new();
    o.insert("type".to_string(), Value::from(stmt.kind().as_str()));
    match stmt {
        Stmt::SetPc(c) => {
            o.insert("value".to_string(), c.map_or(Value::Null, |c| Value::from(c.as_str())));
        }
        Stmt::Repeat { times, body } => {
            o.insert("times".to_string(), Value::from(*times));
            o.insert("body".to_string(), body_to_value(body));
        }
        _ => {}
    }
    Value::Object(o)
}
