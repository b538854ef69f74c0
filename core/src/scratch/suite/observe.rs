//! What the runner sees of one frame: a [`Snapshot`] with the fields of a trace line
//! (`/work/shared/refvm/README.md`, "Trace format"), and reading one from a trace frame object so
//! recorded traces (the reference VM's or gobo's) can be judged too.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::scratch::value::Value;

/// Say or think event of one frame (a bubble set, or cleared with empty text).
#[derive(Debug, Clone, PartialEq)]
pub struct SayEvent {
    pub target: String,
    pub think: bool,
    pub text: String,
}

/// One sprite instance (original or clone) at the end of a frame.
#[derive(Debug, Clone, Default)]
pub struct SpriteObs {
    pub name: String,
    /// 0 for the original, else the clone's per-sprite creation serial (1, 2, ...).
    pub clone: u32,
    pub x: f64,
    pub y: f64,
    pub dir: f64,
    pub size: f64,
    /// Costume index (from 0).
    pub costume: u32,
    pub costume_name: String,
    pub visible: bool,
    pub layer: f64,
    /// color, fisheye, whirl, pixelate, mosaic, brightness, ghost.
    pub effects: [f64; 7],
    pub vars: Vec<(String, Value)>,
    pub lists: Vec<(String, Vec<Value>)>,
}

/// The observable state of a project after one frame, plus that frame's events.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// Frame number since the case started (0 = the first frame).
    pub frame: u64,
    /// Threads still running (monitor threads excluded).
    pub threads: u32,
    /// Backdrop index (from 0) and name.
    pub backdrop: u32,
    pub backdrop_name: String,
    /// The stage's graphic effects (color, fisheye, whirl, pixelate, mosaic, brightness, ghost).
    pub stage_effects: [f64; 7],
    /// Per sprite, the highest clone serial seen in this frame or any earlier one of the case
    /// (how many clones were created), kept by the runner.
    pub clone_serials: Vec<(String, u32)>,
    pub vars: Vec<(String, Value)>,
    pub lists: Vec<(String, Vec<Value>)>,
    pub sprites: Vec<SpriteObs>,
    pub says: Vec<SayEvent>,
    /// `QUESTION` events: `Some(text)` when a question is shown (empty text when a sprite asks:
    /// its question is in its say bubble), `None` when the prompt is cleared.
    pub questions: Vec<Option<String>>,
    pub broadcasts: Vec<String>,
}

impl Snapshot {
    /// Instances of sprite `name`, original first.
    pub fn instances<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a SpriteObs> + 'a {
        self.sprites.iter().filter(move |s| s.name == name)
    }

    pub fn original(&self, name: &str) -> Option<&SpriteObs> {
        self.sprites.iter().find(|s| s.clone == 0 && s.name == name)
    }

    /// A variable as a script of `sprite` sees it (its own, else the stage's); without a
    /// sprite, the stage's, else the first sprite's that has one.
    pub fn variable(&self, sprite: Option<&str>, name: &str) -> Option<&Value> {
        let find = |vars: &'_ [(String, Value)]| -> Option<usize> {
            vars.iter().position(|(n, _)| n == name)
        };
        if let Some(s) = sprite.and_then(|s| self.original(s)) {
            if let Some(i) = find(&s.vars) {
                return s.vars.get(i).map(|(_, v)| v);
            }
        }
        if let Some(i) = find(&self.vars) {
            return self.vars.get(i).map(|(_, v)| v);
        }
        if sprite.is_none() {
            for s in self.sprites.iter().filter(|s| s.clone == 0) {
                if let Some(i) = find(&s.vars) {
                    return s.vars.get(i).map(|(_, v)| v);
                }
            }
        }
        None
    }

    /// Clones of sprite `name` created so far in the case (see [`Snapshot::clone_serials`]).
    pub fn clones_created(&self, name: &str) -> u32 {
        self.clone_serials.iter().find(|(n, _)| n == name).map_or(0, |(_, k)| *k)
    }

    /// Carries the highest clone serials of `prev` forward and raises them to this frame's.
    pub(crate) fn update_clone_serials(&mut self, prev: Option<&Snapshot>) {
        let mut serials = prev.map(|p| p.clone_serials.clone()).unwrap_or_default();
        for o in self.sprites.iter().filter(|o| o.clone != 0) {
            match serials.iter_mut().find(|(n, _)| *n == o.name) {
                Some((_, k)) => *k = (*k).max(o.clone),
                None => serials.push((o.name.clone(), o.clone)),
            }
        }
        self.clone_serials = serials;
    }

    /// A list, looked up like [`Snapshot::variable`].
    pub fn list(&self, sprite: Option<&str>, name: &str) -> Option<&[Value]> {
        let find = |lists: &'_ [(String, Vec<Value>)]| -> Option<usize> {
            lists.iter().position(|(n, _)| n == name)
        };
        if let Some(s) = sprite.and_then(|s| self.original(s)) {
            if let Some(i) = find(&s.lists) {
                return s.lists.get(i).map(|(_, v)| v.as_slice());
            }
        }
        if let Some(i) = find(&self.lists) {
            return self.lists.get(i).map(|(_, v)| v.as_slice());
        }
        if sprite.is_none() {
            for s in self.sprites.iter().filter(|s| s.clone == 0) {
                if let Some(i) = find(&s.lists) {
                    return s.lists.get(i).map(|(_, v)| v.as_slice());
                }
            }
        }
        None
    }

    /// Reads a trace frame object (refvm schema). Missing fields read as defaults.
    pub fn from_trace_frame(frame: &Map<String, Json>) -> Snapshot {
        let num = |v: Option<&Json>| v.and_then(Json::as_f64).unwrap_or(0.0);
        // A sprite coordinate may be tagged (`{"$u":1}`, `{"$n":"NaN"}`): not a number, as
        // a live run's snapshot has it.
        let coordinate = |v: Option<&Json>| match v.map(trace_value) {
            Some(Value::Num(n)) => n,
            Some(Value::Undefined) => f64::NAN,
            _ => 0.0,
        };
        let text = |v: Option<&Json>| String::from(v.and_then(Json::as_str).unwrap_or(""));
        let stage = frame.get("stage");
        let globals = frame.get("globals");
        let mut snap = Snapshot {
            frame: frame.get("f").and_then(Json::as_u64).unwrap_or(0),
            threads: num(frame.get("threads")) as u32,
            backdrop: num(stage.and_then(|s| s.get("costume"))) as u32,
            backdrop_name: text(stage.and_then(|s| s.get("costumeName"))),
            stage_effects: effects_of(stage.and_then(|s| s.get("effects")), num),
            vars: vars_of(globals.and_then(|g| g.get("vars"))),
            lists: lists_of(globals.and_then(|g| g.get("lists"))),
            ..Snapshot::default()
        };
        for s in frame.get("sprites").and_then(Json::as_array).into_iter().flatten() {
            let g = |k: &str| s.get(k);
            let effects = effects_of(g("effects"), num);
            snap.sprites.push(SpriteObs {
                name: text(g("name")),
                clone: num(g("clone")) as u32,
                x: coordinate(g("x")),
                y: coordinate(g("y")),
                dir: num(g("dir")),
                size: num(g("size")),
                costume: num(g("costume")) as u32,
                costume_name: text(g("costumeName")),
                visible: g("visible").and_then(Json::as_bool).unwrap_or(false),
                layer: num(g("layer")),
                effects,
                vars: vars_of(g("vars")),
                lists: lists_of(g("lists")),
            });
        }
        for e in frame.get("says").and_then(Json::as_array).into_iter().flatten() {
            snap.says.push(SayEvent {
                target: text(e.get("target")),
                think: e.get("type").and_then(Json::as_str) == Some("think"),
                text: json_text(e.get("text")),
            });
        }
        for q in frame.get("questions").and_then(Json::as_array).into_iter().flatten() {
            snap.questions.push(match q {
                Json::Null => None,
                other => Some(json_text(Some(other))),
            });
        }
        for b in frame.get("broadcasts").and_then(Json::as_array).into_iter().flatten() {
            snap.broadcasts.push(json_text(Some(b)));
        }
        snap
    }
}

fn effects_of(v: Option<&Json>, num: impl Fn(Option<&Json>) -> f64) -> [f64; 7] {
    let mut effects = [0.0; 7];
    for (i, (name, _)) in super::model::Effect::ALL.iter().enumerate() {
        effects[i] = num(v.and_then(|e| e.get(*name)));
    }
    effects
}

/// A trace value as a Scratch value (tagged specials included).
pub(crate) fn trace_value(v: &Json) -> Value {
    match v {
        Json::Number(n) => Value::Num(n.as_f64().unwrap_or(0.0)),
        Json::String(s) => Value::str(s),
        Json::Bool(b) => Value::Bool(*b),
        Json::Object(m) => match m.get("$n").and_then(Json::as_str) {
            Some("NaN") => Value::Num(f64::NAN),
            Some("Infinity") => Value::Num(f64::INFINITY),
            Some("-Infinity") => Value::Num(f64::NEG_INFINITY),
            Some("-0") => Value::Num(-0.0),
            _ => Value::Undefined,
        },
        _ => Value::Undefined,
    }
}

fn json_text(v: Option<&Json>) -> String {
    match v {
        Some(Json::String(s)) => s.clone(),
        Some(other) => alloc::format!("{}", trace_value(other)),
        None => String::new(),
    }
}

fn vars_of(v: Option<&Json>) -> Vec<(String, Value)> {
    let Some(map) = v.and_then(Json::as_object) else { return Vec::new() };
    map.iter().map(|(k, v)| (k.clone(), trace_value(v))).collect()
}

fn lists_of(v: Option<&Json>) -> Vec<(String, Vec<Value>)> {
    let Some(map) = v.and_then(Json::as_object) else { return Vec::new() };
    map.iter()
        .map(|(k, v)| {
            let items =
                v.as_array().map(|a| a.iter().map(trace_value).collect()).unwrap_or_default();
            (k.clone(), items)
        })
        .collect()
}
