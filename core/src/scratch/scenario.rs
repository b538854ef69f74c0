//! Scenario files of the reference harness: `[{frame, action, ...}, ...]` or
//! `{"frames": N, "seed": S, "events": [...]}`, parsed into per-frame [`Input`]s.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde_json::Value as Json;

use super::vm::Input;

/// A parsed scenario.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    /// Frames to run, if the file says.
    pub frames: Option<u64>,
    /// Seed, if the file says.
    pub seed: Option<u32>,
    /// Events in file order: (frame, action name, input).
    pub events: Vec<(u64, String, Input)>,
}

/// Why a scenario could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScenarioError {
    /// Not JSON.
    Json(String),
    /// Wrong shape at an event index.
    Event {
        /// Index in the event list.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A top-level field (`frames`, `seed`) is of the wrong kind, or unknown.
    Field {
        /// The field's name.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// The top level is neither an array nor an object with `events`.
    Shape,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Json(e) => write!(f, "scenario is not valid JSON: {e}"),
            ScenarioError::Event { index, reason } => write!(f, "scenario event {index}: {reason}"),
            ScenarioError::Field { field, reason } => {
                write!(f, "scenario field {field:?}: {reason}")
            }
            ScenarioError::Shape => {
                f.write_str("scenario must be an array of events or an object with \"events\"")
            }
        }
    }
}

impl core::error::Error for ScenarioError {}

impl Scenario {
    /// The default scenario: the green flag at frame 0.
    pub fn green_flag() -> Scenario {
        Scenario {
            frames: None,
            seed: None,
            events: alloc::vec![(0, String::from("green_flag"), Input::GreenFlag)],
        }
    }

    /// Parse scenario JSON. A field with a value of the wrong kind (a fractional or negative
    /// frame, a seed that is not an integer, a key that is not text, ...) or a field the
    /// action does not take is an error naming it, never silently replaced.
    pub fn parse(bytes: &[u8]) -> Result<Scenario, ScenarioError> {
        let root: Json =
            serde_json::from_slice(bytes).map_err(|e| ScenarioError::Json(e.to_string()))?;
        match &root {
            Json::Array(a) => Ok(Scenario { frames: None, seed: None, events: parse_events(a)? }),
            Json::Object(o) => {
                if let Some(k) =
                    o.keys().find(|k| !["frames", "seed", "events"].contains(&k.as_str()))
                {
                    return Err(ScenarioError::Field {
                        field: k.clone(),
                        reason: String::from("unknown field (expected frames, seed, events)"),
                    });
                }
                let field = |name: &str, reason: &str| ScenarioError::Field {
                    field: String::from(name),
                    reason: String::from(reason),
                };
                let frames = match o.get("frames") {
                    None | Some(Json::Null) => None,
                    Some(v) => Some(
                        whole(v)
                            .filter(|f| *f >= 0)
                            .ok_or_else(|| field("frames", "must be a non-negative integer"))?
                            as u64,
                    ),
                };
                let seed = match o.get("seed") {
                    None | Some(Json::Null) => None,
                    Some(v) => Some(
                        whole(v)
                            .and_then(|s| u32::try_from(s).ok())
                            .ok_or_else(|| field("seed", "must be an integer in 0..=4294967295"))?,
                    ),
                };
                let events = match o.get("events") {
                    Some(Json::Array(a)) => parse_events(a)?,
                    None | Some(Json::Null) => Vec::new(),
                    Some(_) => return Err(ScenarioError::Shape),
                };
                Ok(Scenario { frames, seed, events })
            }
            _ => Err(ScenarioError::Shape),
        }
    }

    /// Inputs and action names of frame `f`, in file order.
    pub fn at(&self, f: u64) -> impl Iterator<Item = &(u64, String, Input)> {
        self.events.iter().filter(move |e| e.0 == f)
    }

    /// Whether any event comes after frame `f`.
    pub fn pending_after(&self, f: u64) -> bool {
        self.events.iter().any(|e| e.0 > f)
    }
}

fn js_string(v: Option<&Json>) -> String {
    match v {
        Some(Json::String(s)) => s.clone(),
        Some(Json::Number(n)) => {
            n.as_f64().map(super::value::number::js_number_to_string).unwrap_or_default()
        }
        Some(Json::Bool(b)) => b.to_string(),
        Some(Json::Null) => String::from("null"),
        None => String::from("undefined"),
        Some(_) => String::from("[object Object]"),
    }
}

/// A JSON number with no fraction that fits an `i64`.
fn whole(v: &Json) -> Option<i64> {
    if let Some(n) = v.as_i64() {
        return Some(n);
    }
    let f = v.as_f64()?;
    // `as` saturates; a whole number within the range converts back to itself (no_std: no
    // `f64::fract`).
    (f > -9.2e18 && f < 9.2e18 && (f as i64) as f64 == f).then_some(f as i64)
}

/// The fields an action takes besides `frame` and `action` (None: not an action).
fn action_fields(action: &str) -> Option<&'static [&'static str]> {
    Some(match action {
        "green_flag" | "stop_all" => &[],
        "key_down" | "key_up" => &["key"],
        "mouse_move" | "mouse_down" | "mouse_up" => &["x", "y"],
        "click_sprite" => &["name"],
        "broadcast" => &["message"],
        "answer" => &["text"],
        "turbo" => &["on"],
        _ => return None,
    })
}

fn parse_events(list: &[Json]) -> Result<Vec<(u64, String, Input)>, ScenarioError> {
    let mut out = Vec::with_capacity(list.len());
    for (index, e) in list.iter().enumerate() {
        let err = |reason: String| ScenarioError::Event { index, reason };
        let Json::Object(o) = e else { return Err(err(String::from("not an object"))) };
        let frame = match o.get("frame") {
            None | Some(Json::Null) => 0,
            Some(v) => match whole(v) {
                Some(f) if f >= 0 => f as u64,
                _ => {
                    return Err(err(alloc::format!(
                        "\"frame\" must be a non-negative integer, got {v}"
                    )))
                }
            },
        };
        let action = match o.get("action") {
            Some(Json::String(s)) => s.clone(),
            None => return Err(err(String::from("\"action\" is missing"))),
            Some(v) => return Err(err(alloc::format!("\"action\" must be text, got {v}"))),
        };
        let Some(fields) = action_fields(&action) else {
            return Err(err(alloc::format!("unknown action {action:?}")));
        };
        if let Some(k) = o
            .keys()
            .find(|k| !["frame", "action"].contains(&k.as_str()) && !fields.contains(&k.as_str()))
        {
            return Err(err(alloc::format!("{action} takes no field {k:?}")));
        }
        // A text field: a string, or a number as JavaScript prints it.
        let text = |k: &str| match o.get(k) {
            Some(v @ (Json::String(_) | Json::Number(_))) => Ok(js_string(Some(v))),
            None => Err(err(alloc::format!("{action} needs \"{k}\""))),
            Some(v) => Err(err(alloc::format!("\"{k}\" must be text, got {v}"))),
        };
        let num = |k: &str| match o.get(k) {
            None => Ok(None),
            Some(Json::Number(n)) => Ok(n.as_f64()),
            Some(v) => Err(err(alloc::format!("\"{k}\" must be a number, got {v}"))),
        };
        let input = match action.as_str() {
            "green_flag" => Input::GreenFlag,
            "stop_all" => Input::StopAll,
            "key_down" => Input::KeyDown(text("key")?),
            "key_up" => Input::KeyUp(text("key")?),
            "mouse_move" => match (num("x")?, num("y")?) {
                (Some(x), Some(y)) => Input::MouseMove(x, y),
                _ => return Err(err(String::from("mouse_move needs numbers \"x\" and \"y\""))),
            },
            "mouse_down" => Input::MouseDown(num("x")?, num("y")?),
            "mouse_up" => Input::MouseUp(num("x")?, num("y")?),
            "click_sprite" => Input::Click(text("name")?),
            "broadcast" => Input::Broadcast(text("message")?),
            "answer" => Input::Answer(text("text")?),
            _ => match o.get("on") {
                Some(Json::Bool(on)) => Input::Turbo(*on),
                v => {
                    return Err(err(alloc::format!(
                        "turbo needs \"on\": true or false, got {}",
                        v.map_or_else(|| String::from("nothing"), ToString::to_string)
                    )))
                }
            },
        };
        out.push((frame, action, input));
    }
    Ok(out)
}
