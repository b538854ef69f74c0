//! The signals a drift score is made of, and each one's discrepancy at one checkpoint, in [0, 1].

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use serde_json::{Map, Value};

use super::deep::{keyed_sprites, values_equal, Difference};

/// An observable signal of a trace frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// Variable values: the stage's (`globals.vars`) and every sprite's (`vars`).
    Vars,
    /// List contents: `globals.lists` and every sprite's `lists`.
    Lists,
    /// Sprite `x`, `y`, `dir` and `size`.
    Pose,
    /// Sprite `costume`.
    Costume,
    /// Sprite `visible`.
    Visibility,
    /// The stage's `costume`.
    Backdrop,
    /// Broadcasts started in the frame (`broadcasts`, a multiset).
    Broadcasts,
    /// Say/think/ask events of the frame (`says`, a multiset of target, type and text).
    Says,
}

impl Signal {
    /// Every signal, in report order.
    pub const ALL: [Signal; 8] = [
        Signal::Vars,
        Signal::Lists,
        Signal::Pose,
        Signal::Costume,
        Signal::Visibility,
        Signal::Backdrop,
        Signal::Broadcasts,
        Signal::Says,
    ];

    /// The `scratcheval` set (SPEC §2.8): the signals ScratchEval's semantic drift logs
    /// (variables and lists, sprite pose, costume and visibility, the backdrop, broadcasts),
    /// that is every signal but `says`.
    pub const SCRATCHEVAL: [Signal; 7] = [
        Signal::Vars,
        Signal::Lists,
        Signal::Pose,
        Signal::Costume,
        Signal::Visibility,
        Signal::Backdrop,
        Signal::Broadcasts,
    ];

    /// A named signal set: `all` or `scratcheval`.
    pub fn set(name: &str) -> Option<&'static [Signal]> {
        match name {
            "all" => Some(&Signal::ALL),
            "scratcheval" => Some(&Signal::SCRATCHEVAL),
            _ => None,
        }
    }

    /// Signal and set names (`vars`, `scratcheval`...) to signals: sets expanded, each signal
    /// once, in first-mention order.
    pub fn parse_list<S: AsRef<str>>(names: &[S]) -> Result<Vec<Signal>, String> {
        let mut out: Vec<Signal> = Vec::new();
        for name in names {
            let name = name.as_ref().trim();
            let found: Vec<Signal> = match Signal::set(name) {
                Some(set) => set.to_vec(),
                None => alloc::vec![name.parse::<Signal>()?],
            };
            for s in found {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        if out.is_empty() {
            return Err(String::from("no signal named"));
        }
        Ok(out)
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Vars => "vars",
            Signal::Lists => "lists",
            Signal::Pose => "pose",
            Signal::Costume => "costume",
            Signal::Visibility => "visibility",
            Signal::Backdrop => "backdrop",
            Signal::Broadcasts => "broadcasts",
            Signal::Says => "says",
        }
    }

    /// Discrepancy of this signal between two frames of the same number.
    pub(super) fn discrepancy(
        self,
        a: &Map<String, Value>,
        b: &Map<String, Value>,
        tol: f64,
    ) -> f64 {
        match self {
            Signal::Vars => keyed_fraction(&named_values(a, "vars"), &named_values(b, "vars"), tol),
            Signal::Lists => {
                keyed_fraction(&named_values(a, "lists"), &named_values(b, "lists"), tol)
            }
            Signal::Pose => keyed_fraction(&sprite_fields(a, POSE), &sprite_fields(b, POSE), tol),
            Signal::Costume => {
                keyed_fraction(&sprite_fields(a, COSTUME), &sprite_fields(b, COSTUME), tol)
            }
            Signal::Visibility => {
                keyed_fraction(&sprite_fields(a, VISIBLE), &sprite_fields(b, VISIBLE), tol)
            }
            Signal::Backdrop => {
                let (x, y) = (backdrop(a), backdrop(b));
                if x == y {
                    0.0
                } else {
                    1.0
                }
            }
            Signal::Broadcasts => multiset_distance(list(a, "broadcasts"), list(b, "broadcasts")),
            Signal::Says => multiset_distance(list(a, "says"), list(b, "says")),
        }
    }

    /// The first field of this signal that differs, for `--signals`-restricted reports.
    pub(super) fn first_difference(
        self,
        a: &Map<String, Value>,
        b: &Map<String, Value>,
        tol: f64,
    ) -> Option<Difference> {
        let (ka, kb) = match self {
            Signal::Vars => (named_values(a, "vars"), named_values(b, "vars")),
            Signal::Lists => (named_values(a, "lists"), named_values(b, "lists")),
            Signal::Pose => (sprite_fields(a, POSE), sprite_fields(b, POSE)),
            Signal::Costume => (sprite_fields(a, COSTUME), sprite_fields(b, COSTUME)),
            Signal::Visibility => (sprite_fields(a, VISIBLE), sprite_fields(b, VISIBLE)),
            Signal::Backdrop => (keyed_backdrop(a), keyed_backdrop(b)),
            Signal::Broadcasts | Signal::Says => {
                let key = self.name();
                let (x, y) = (a.get(key), b.get(key));
                if x.zip(y).is_some_and(|(x, y)| values_equal(x, y, tol)) {
                    return None;
                }
                return Some((key.into(), show(x), show(y)));
            }
        };
        let (ia, ib) = (index(&ka), index(&kb));
        let only_b = kb.iter().filter(|(k, _)| !ia.contains_key(k.as_str()));
        for (key, _) in ka.iter().chain(only_b) {
            let x = ia.get(key.as_str()).copied().flatten();
            let y = ib.get(key.as_str()).copied().flatten();
            if !x.zip(y).is_some_and(|(x, y)| values_equal(x, y, tol)) {
                return Some((key.clone(), show(x), show(y)));
            }
        }
        None
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Signal {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Signal::ALL.into_iter().find(|sig| sig.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Signal::ALL.iter().map(|s| s.name()).collect();
            format!(
                "unknown signal '{s}' (expected one of {}, or a set: all, scratcheval)",
                names.join(", ")
            )
        })
    }
}

const POSE: &[&str] = &["x", "y", "dir", "size"];
const COSTUME: &[&str] = &["costume"];
const VISIBLE: &[&str] = &["visible"];

type Keyed<'a> = Vec<(String, Option<&'a Value>)>;

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| String::from("(absent)"), |v| v.to_string())
}

fn index<'k, 'a>(keyed: &'k Keyed<'a>) -> BTreeMap<&'k str, Option<&'a Value>> {
    keyed.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

/// `globals.<kind>.<name>` and `sprites[<key>].<kind>.<name>` for every variable or list.
fn named_values<'a>(frame: &'a Map<String, Value>, kind: &str) -> Keyed<'a> {
    let mut out = Vec::new();
    if let Some(Value::Object(map)) = frame.get("globals").and_then(|g| g.get(kind)) {
        out.extend(map.iter().map(|(k, v)| (format!("globals.{kind}.{k}"), Some(v))));
    }
    for (key, sprite) in keyed_sprites(frame.get("sprites")) {
        if let Some(Value::Object(map)) = sprite.get(kind) {
            out.extend(map.iter().map(|(k, v)| (format!("sprites[{key}].{kind}.{k}"), Some(v))));
        }
    }
    out
}

/// `sprites[<key>].<field>` for each sprite and field (`None` when the sprite lacks it).
fn sprite_fields<'a>(frame: &'a Map<String, Value>, fields: &[&str]) -> Keyed<'a> {
    let mut out = Vec::new();
    for (key, sprite) in keyed_sprites(frame.get("sprites")) {
        for field in fields {
            out.push((format!("sprites[{key}].{field}"), sprite.get(*field)));
        }
    }
    out
}

fn backdrop(frame: &Map<String, Value>) -> Option<&Value> {
    frame.get("stage").and_then(|s| s.get("costume"))
}

fn keyed_backdrop(frame: &Map<String, Value>) -> Keyed<'_> {
    alloc::vec![(String::from("stage.costume"), backdrop(frame))]
}

/// Fraction of keys (union of both sides) whose values differ; a key on one side only differs.
fn keyed_fraction(a: &Keyed<'_>, b: &Keyed<'_>, tol: f64) -> f64 {
    let (ia, ib) = (index(a), index(b));
    let only_b = ib.keys().filter(|k| !ia.contains_key(*k)).count();
    let total = ia.len() + only_b;
    if total == 0 {
        return 0.0;
    }
    let differing = ia
        .iter()
        .filter(|(k, x)| {
            let y = ib.get(*k).copied().flatten();
            !x.zip(y).is_some_and(|(x, y)| values_equal(x, y, tol))
        })
        .count()
        + only_b;
    differing as f64 / total as f64
}

fn list<'a>(frame: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    frame.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// `1 - |A ∩ B| / |A ∪ B|` over multisets; 0 when both are empty.
fn multiset_distance(a: &[Value], b: &[Value]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let mut unmatched: Vec<&Value> = b.iter().collect();
    let mut common = 0usize;
    for x in a {
        if let Some(i) = unmatched.iter().position(|y| *y == x) {
            unmatched.swap_remove(i);
            common += 1;
        }
    }
    let union = a.len() + b.len() - common;
    1.0 - common as f64 / union as f64
}
