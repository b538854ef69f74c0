//! The first differing field of two frames, searched in a fixed order: A's keys in file order,
//! then keys only B has. Sprites are matched by name and clone serial, not by array position.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

/// `(path, value in A, value in B)`.
pub(super) type Difference = (String, String, String);

const ABSENT: &str = "(absent)";

pub(super) fn missing_frame(in_a: bool) -> Difference {
    let (a, b) = if in_a { ("present", ABSENT) } else { (ABSENT, "present") };
    (String::from("(frame)"), a.into(), b.into())
}

pub(super) fn first_difference(
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    tolerance: f64,
) -> Option<Difference> {
    object_difference("", a, b, tolerance)
}

/// Numbers closer than `tolerance` are equal; everything else compares structurally.
pub(super) fn values_equal(a: &Value, b: &Value, tolerance: f64) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => x == y || (x - y).abs() <= tolerance,
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| values_equal(x, y, tolerance))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| values_equal(v, w, tolerance)))
        }
        _ => a == b,
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| ABSENT.to_string(), |v| v.to_string())
}

fn object_difference(
    prefix: &str,
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    tolerance: f64,
) -> Option<Difference> {
    let only_b = b.keys().filter(|k| !a.contains_key(*k));
    for key in a.keys().chain(only_b) {
        let path = join(prefix, key);
        let (va, vb) = (a.get(key), b.get(key));
        let found = match (va, vb) {
            (Some(x), Some(y)) if key == "sprites" && prefix.is_empty() => {
                sprites_difference(x, y, tolerance)
            }
            (Some(x), Some(y)) => value_difference(&path, x, y, tolerance),
            _ => Some((path, show(va), show(vb))),
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

fn value_difference(path: &str, a: &Value, b: &Value, tolerance: f64) -> Option<Difference> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => object_difference(path, x, y, tolerance),
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let p = format!("{path}[{i}]");
                match (x.get(i), y.get(i)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = value_difference(&p, u, v, tolerance) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some((p, show(u), show(v))),
                }
            }
            None
        }
        _ if values_equal(a, b, tolerance) => None,
        _ => Some((path.to_string(), a.to_string(), b.to_string())),
    }
}

/// A sprite's identity in a trace: `name#clone`.
pub(super) fn sprite_key(sprite: &Value) -> String {
    let name = sprite.get("name").and_then(Value::as_str).unwrap_or("?");
    let clone = sprite.get("clone").map_or_else(|| "?".to_string(), Value::to_string);
    format!("{name}#{clone}")
}

/// Sprites of a frame with their keys, in trace order.
pub(super) fn keyed_sprites(sprites: Option<&Value>) -> Vec<(String, &Value)> {
    match sprites {
        Some(Value::Array(list)) => list.iter().map(|s| (sprite_key(s), s)).collect(),
        _ => Vec::new(),
    }
}

fn sprites_difference(a: &Value, b: &Value, tolerance: f64) -> Option<Difference> {
    let (sa, sb) = (keyed_sprites(Some(a)), keyed_sprites(Some(b)));
    if !matches!((a, b), (Value::Array(_), Value::Array(_))) {
        return value_difference("sprites", a, b, tolerance);
    }
    let ia: BTreeMap<&str, &Value> = sa.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let ib: BTreeMap<&str, &Value> = sb.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let only_b = sb.iter().filter(|(k, _)| !ia.contains_key(k.as_str()));
    for (key, _) in sa.iter().chain(only_b) {
        let path = format!("sprites[{key}]");
        let x = ia.get(key.as_str()).copied();
        let y = ib.get(key.as_str()).copied();
        let found = match (x, y) {
            (Some(x), Some(y)) => value_difference(&path, x, y, tolerance),
            (x, y) => Some((path, presence(x), presence(y))),
        };
        if found.is_some() {
            return found;
        }
    }
    // Same sprites, same fields: only the order differs.
    let order_a: Vec<&String> = sa.iter().map(|(k, _)| k).collect();
    let order_b: Vec<&String> = sb.iter().map(|(k, _)| k).collect();
    (order_a != order_b)
        .then(|| (String::from("sprites(order)"), format!("{order_a:?}"), format!("{order_b:?}")))
}

fn presence(v: Option<&Value>) -> String {
    String::from(if v.is_some() { "present" } else { ABSENT })
}
