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
    /// The top level is neither an array nor an object with `events`.
    Shape,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Json(e) => write!(f, "scenario is not valid JSON: {e}"),
            ScenarioError::Event { index, reason } => write!(f, "scenario event {index}: {reason}"),
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

    /// Parse scenario JSON.
    pub fn parse(bytes: &[u8]) -> Result<Scenario, ScenarioError> {
        let root: Json =
            serde_json::from_slice(bytes).map_err(|e| ScenarioError::Json(e.to_string()))?;
        let (list, frames, seed) = match &root {
            Json::Array(a) => (a, None, None),
            Json::Object(o) => {
                let empty = Vec::new();
                let list = match o.get("events") {
                    Some(Json::Array(a)) => a,
                    None => &empty,
                    Some(_) => return Err(ScenarioError::Shape),
                };
                let frames =
                    o.get("frames").and_then(Json::as_f64).filter(|f| *f >= 0.0).map(|f| f as u64);
                let seed = o.get("seed").and_then(Json::as_f64).map(|f| f as i64 as u32);
                return Ok(Scenario { frames, seed, events: parse_events(list)? });
            }
            _ => return Err(ScenarioError::Shape),
        };
        Ok(Scenario { frames, seed, events: parse_events(list)? })
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

fn parse_events(list: &[Json]) -> Result<Vec<(u64, String, Input)>, ScenarioError> {
    let mut out = Vec::with_capacity(list.len());
    for (index, e) in list.iter().enumerate() {
        let err = |reason: &str| ScenarioError::Event { index, reason: String::from(reason) };
        let Json::Object(o) = e else { return Err(err("not an object")) };
        let frame = match o.get("frame") {
            None | Some(Json::Null) => 0,
            Some(v) => match v.as_f64() {
                Some(f) if f >= 0.0 && f.is_finite() => f as u64,
                _ => return Err(err("frame must be a non-negative number")),
            },
        };
        let action = match o.get("action") {
            Some(Json::String(s)) => s.clone(),
            _ => return Err(err("missing action")),
        };
        let num = |k: &str| o.get(k).map(|v| v.as_f64().unwrap_or(f64::NAN));
        let input = match action.as_str() {
            "green_flag" => Input::GreenFlag,
            "stop_all" => Input::StopAll,
            "key_down" => Input::KeyDown(js_string(o.get("key"))),
            "key_up" => Input::KeyUp(js_string(o.get("key"))),
            "mouse_move" => {
                Input::MouseMove(num("x").unwrap_or(f64::NAN), num("y").unwrap_or(f64::NAN))
            }
            "mouse_down" => Input::MouseDown(num("x"), num("y")),
            "mouse_up" => Input::MouseUp(num("x"), num("y")),
            "click_sprite" => Input::Click(js_string(o.get("name"))),
            "broadcast" => Input::Broadcast(js_string(o.get("message"))),
            "answer" => Input::Answer(js_string(o.get("text"))),
            "turbo" => Input::Turbo(o.get("on").is_some_and(|v| match v {
                Json::Bool(b) => *b,
                Json::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
                Json::String(s) => !s.is_empty(),
                Json::Null => false,
                _ => true,
            })),
            _ => return Err(err("unknown action")),
        };
        out.push((frame, action, input));
    }
    Ok(out)
}
