//! How checks, matchers and observed values read in verdict messages ("expected Cat to say
//! '1 2 4 5 8' by 10 s; it said '12458' at 2.3 s").

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::model::{
    Check, CloneSel, CostumeRef, Existence, NumMatch, Order, Place, Probe, Prop, SayKind,
    TextMatch, TextMode, Track, ValueMatch,
};
use crate::scratch::value::number::js_number_to_string;
use crate::scratch::value::Value;

/// A number as JavaScript prints it, rounded to 4 decimals so float noise does not show.
pub(crate) fn num(n: f64) -> String {
    if !n.is_finite() {
        return js_number_to_string(n);
    }
    js_number_to_string(libm::round(n * 10_000.0) / 10_000.0)
}

/// Virtual time of frame `frame` at `fps`, e.g. `2.3 s`.
pub(crate) fn secs(frame: u64, fps: u32) -> String {
    let t = frame as f64 / f64::from(fps);
    format!("{} s", js_number_to_string(libm::round(t * 100.0) / 100.0))
}

pub(crate) fn value(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("'{s}'"),
        other => format!("{other}"),
    }
}

pub(crate) fn values(vs: &[Value]) -> String {
    let items: Vec<String> = vs.iter().map(value).collect();
    format!("[{}]", items.join(", "))
}

pub(crate) fn text_match(m: &TextMatch) -> String {
    let base = match &m.mode {
        TextMode::Equals(s) => format!("'{s}'"),
        TextMode::Contains(s) => format!("something containing '{s}'"),
        TextMode::Regex(r) => format!("something matching /{}/", r.as_str()),
        TextMode::Number { value, tolerance } if *tolerance > 0.0 => {
            format!("the number {} ± {}", num(*value), num(*tolerance))
        }
        TextMode::Number { value, .. } => format!("the number {}", num(*value)),
    };
    if m.case_insensitive {
        format!("{base} (ignoring case)")
    } else {
        base
    }
}

pub(crate) fn num_match(m: &NumMatch) -> String {
    let mut parts = Vec::new();
    if let Some(e) = m.equals {
        if m.tolerance > 0.0 {
            parts.push(format!("{} ± {}", num(e), num(m.tolerance)));
        } else {
            parts.push(num(e));
        }
    }
    match (m.min, m.max) {
        (Some(a), Some(b)) => parts.push(format!("between {} and {}", num(a), num(b))),
        (Some(a), None) => parts.push(format!("at least {}", num(a))),
        (None, Some(b)) => parts.push(format!("at most {}", num(b))),
        (None, None) => {}
    }
    parts.join(" and ")
}

pub(crate) fn value_match(m: &ValueMatch) -> String {
    let mut parts = Vec::new();
    if let Some(e) = &m.equals {
        match m.tolerance {
            Some(t) => parts.push(format!("{} ± {}", value(e), num(t))),
            None => parts.push(value(e)),
        }
    }
    match (m.min, m.max) {
        (Some(a), Some(b)) => parts.push(format!("between {} and {}", num(a), num(b))),
        (Some(a), None) => parts.push(format!("at least {}", num(a))),
        (None, Some(b)) => parts.push(format!("at most {}", num(b))),
        (None, None) => {}
    }
    if let Some(t) = &m.text {
        parts.push(text_match(t));
    }
    parts.join(" and ")
}

pub(crate) fn prop(p: Prop) -> String {
    match p {
        Prop::X => String::from("x"),
        Prop::Y => String::from("y"),
        Prop::Direction => String::from("direction"),
        Prop::Size => String::from("size"),
        Prop::Costume => String::from("costume number"),
        Prop::Layer => String::from("layer"),
        Prop::Visible => String::from("visibility"),
        Prop::Effect(e) => format!("{} effect", e.name()),
    }
}

pub(crate) fn costume(c: &CostumeRef) -> String {
    match c {
        CostumeRef::Name(n) => format!("'{n}'"),
        CostumeRef::Number(k) => format!("number {k}"),
    }
}

fn who(s: &Option<super::model::SpriteRef>) -> String {
    s.as_ref().map_or_else(|| String::from("some sprite"), |s| s.resolved.clone())
}

pub(crate) fn instances(name: &str, sel: CloneSel) -> String {
    match sel {
        CloneSel::Original => String::from(name),
        CloneSel::Serial(k) => format!("{name} clone {k}"),
        CloneSel::Any => format!("some instance of {name}"),
        CloneSel::All => format!("every instance of {name}"),
        CloneSel::AllClones => format!("every clone of {name}"),
    }
}

pub(crate) fn probe(p: &Probe) -> String {
    match p {
        Probe::Sprite { sprite, prop: pr, clone: 0 } => {
            format!("{}'s {}", sprite.resolved, prop(*pr))
        }
        Probe::Sprite { sprite, prop: pr, clone } => {
            format!("{} clone {clone}'s {}", sprite.resolved, prop(*pr))
        }
        Probe::Distance { sprite, to: Place::Sprite(b) } => {
            format!("the distance from {} to {}", sprite.resolved, b.resolved)
        }
        Probe::Distance { sprite, to: Place::Point(x, y) } => {
            format!("the distance from {} to ({}, {})", sprite.resolved, num(*x), num(*y))
        }
        Probe::StageEffect(e) => format!("the stage's {} effect", e.name()),
        Probe::ClonesCreated(s) => format!("the number of {} clones created", s.resolved),
        Probe::ClonesDeleted(s) => format!("the number of {} clones deleted", s.resolved),
        Probe::Variable { name, .. } => format!("variable {name}"),
        Probe::ListLength { name, .. } => format!("the length of list {name}"),
        Probe::Backdrop => String::from("the backdrop number"),
        Probe::Clones(s) => format!("the number of {} clones", s.resolved),
    }
}

fn verb(kind: SayKind) -> &'static str {
    match kind {
        SayKind::Say => "say",
        SayKind::Think => "think",
        SayKind::Any => "say or think",
    }
}

/// What a check expects, as the tail of "expected ...".
pub(crate) fn check(c: &Check) -> String {
    match c {
        Check::Variable { name, expect, .. } => {
            format!("variable {name} to be {}", value_match(expect))
        }
        Check::List { name, expect, .. } => {
            let mut parts = Vec::new();
            if let Some(e) = &expect.equals {
                parts.push(format!("to be {}", values(e)));
            }
            if let Some(l) = &expect.length {
                parts.push(format!("to have length {}", num_match(l)));
            }
            if let Some(v) = &expect.contains {
                parts.push(format!("to contain {}", value(v)));
            }
            format!("list {name} {}", parts.join(" and "))
        }
        Check::Sprite { sprite, clone, expect } => {
            let mut has = Vec::new();
            for (p, m) in &expect.nums {
                has.push(format!("{} {}", prop(*p), num_match(m)));
            }
            if let Some(c) = &expect.costume {
                has.push(format!("costume {}", costume(c)));
            }
            if let Some(t) = &expect.costume_name {
                has.push(format!("a costume named {}", text_match(t)));
            }
            let mut parts = Vec::new();
            if !has.is_empty() {
                parts.push(format!("have {}", has.join(", ")));
            }
            if let Some(v) = expect.visible {
                parts.push(String::from(if v { "be visible" } else { "be hidden" }));
            }
            format!("{} to {}", instances(&sprite.resolved, *clone), parts.join(" and "))
        }
        Check::Backdrop(b) => format!("backdrop {}", costume(b)),
        Check::CloneCount { sprite, count } => {
            format!("{} clones of {}", num_match(count), sprite.resolved)
        }
        Check::Running(true) => String::from("scripts to be running"),
        Check::Running(false) => String::from("no script to be running"),
        Check::Says { sprite, kind, text, .. } => {
            format!("{} to {} {}", who(sprite), verb(*kind), text_match(text))
        }
        Check::SaysInOrder { sprite, kind, texts, .. } => {
            let t: Vec<String> = texts.iter().map(text_match).collect();
            format!("{} to {} in order: {}", who(sprite), verb(*kind), t.join(", "))
        }
        Check::Asked { text, count, .. } => match (text, count) {
            (Some(t), Some(c)) => format!("{} questions {}", num_match(c), text_match(t)),
            (Some(t), None) => format!("the question {}", text_match(t)),
            (None, Some(c)) => format!("{} questions", num_match(c)),
            (None, None) => String::from("a question"),
        },
        Check::Broadcast { name, count, .. } => match count {
            Some(c) => format!("broadcast '{name}' sent {} times", num_match(c)),
            None => format!("broadcast '{name}' to be sent"),
        },
        Check::Moved { sprite, at_least, since } => format!(
            "{} to move at least {} since {}",
            sprite.resolved,
            num(*at_least),
            since.as_ref().map_or("the start", |s| s.mark.as_str())
        ),
        Check::Changed { probe: p, from, to, by } => {
            let to = to.as_ref().map_or_else(|| String::from("now"), |t| format!("mark '{t}'"));
            match by {
                None => format!("{} to change between mark '{from}' and {to}", probe(p)),
                Some(m) => {
                    format!(
                        "{} to change by {} between mark '{from}' and {to}",
                        probe(p),
                        num_match(m)
                    )
                }
            }
        }
        Check::Monotonic { probe: p, order, .. } => {
            let o = match order {
                Order::Increasing => "increase (never decreasing)",
                Order::Decreasing => "decrease (never increasing)",
                Order::NonDecreasing => "never decrease",
                Order::NonIncreasing => "never increase",
            };
            format!("{} to {o}", probe(p))
        }
        Check::Extent { probe: p, min, max, .. } => {
            let mut parts = Vec::new();
            if let Some(m) = min {
                parts.push(format!("a minimum {}", num_match(m)));
            }
            if let Some(m) = max {
                parts.push(format!("a maximum {}", num_match(m)));
            }
            format!("{} to reach {}", probe(p), parts.join(" and "))
        }
        Check::Interval { from, to, seconds, .. } => {
            format!("[{}] then [{}] {} s later", check(from), check(to), num_match(seconds))
        }
        Check::Opcode { opcode, sprite, present } => format!(
            "block {opcode} to be {} in {}",
            if *present { "present" } else { "absent" },
            sprite.as_ref().map_or("the project", |s| s.resolved.as_str())
        ),
        Check::BlockCount { sprite, opcode, count } => format!(
            "{} {} blocks in {}",
            num_match(count),
            opcode.as_deref().unwrap_or("(any)"),
            sprite.as_ref().map_or("the project", |s| s.resolved.as_str())
        ),
        Check::CostumeCount { sprite, count } => match sprite {
            Some(s) => format!("{} costumes in {}", num_match(count), s.resolved),
            None => format!("{} backdrops", num_match(count)),
        },
        Check::Ever { check: c, .. } => format!("at some frame: {}", check(c)),
        Check::Always { check: c, .. } => format!("at every frame: {}", check(c)),
        Check::Fraction { check: c, ratio, .. } => {
            format!("a fraction {} of frames with: {}", num_match(ratio), check(c))
        }
        Check::CountOf { checks, count } => {
            let t: Vec<String> = checks.iter().map(check).collect();
            format!("{} of {} to hold: {}", num_match(count), checks.len(), t.join("; "))
        }
        Check::Value { probe: p, expect } => format!("{} to be {}", probe(p), num_match(expect)),
        Check::Series { track, measure, expect, .. } => {
            let what = match track {
                Track::Number(p) => probe(p),
                Track::Position { sprite, clone: 0 } => format!("{}'s position", sprite.resolved),
                Track::Position { sprite, clone } => {
                    format!("{} clone {clone}'s position", sprite.resolved)
                }
            };
            format!("{what} to have {} {}", measure.name(), num_match(expect))
        }
        Check::AtMark { mark, check: c } => format!("at mark '{mark}': {}", check(c)),
        Check::Sequence { checks, .. } => {
            let t: Vec<String> = checks.iter().map(check).collect();
            format!("on consecutive frames: {}", t.join(", then "))
        }
        Check::Exists(Existence::Sprite(s)) => format!("sprite {} to exist", s.names.join(" / ")),
        Check::Exists(Existence::Variable { name, list, .. }) => {
            format!("{} {name} to exist", if *list { "list" } else { "variable" })
        }
        Check::Not(inner) => format!("not: {}", check(inner)),
        Check::All(list) => {
            let t: Vec<String> = list.iter().map(check).collect();
            format!("all of: {}", t.join("; "))
        }
        Check::Any(list) => {
            let t: Vec<String> = list.iter().map(check).collect();
            format!("any of: {}", t.join("; "))
        }
    }
}
