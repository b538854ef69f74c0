//! Reading a suite document (`docs/test-suite.md`) into the model: the suite, its cases, their
//! steps, inputs, waits and answer rules. Checks are read by [`super::parse_check`].

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::error::{SuiteError, SuiteErrorKind};
use super::json::{array, bad, index, non_negative, number, scalar, wrong, Obj, Result};
use super::model::{
    AnswerFn, AnswerRule, Case, Input, Missing, Reply, Span, SpriteRef, Step, StepKind, Suite, Wait,
};
use super::parse_check::{parse_check, parse_text_match};

/// The format version this parser reads.
pub const FORMAT_VERSION: u64 = 1;

/// Longest case budget accepted, in virtual seconds (one virtual day).
const MAX_TIMEOUT: f64 = 86_400.0;

/// Parses a suite from JSON text.
pub fn parse_suite(text: &str) -> Result<Suite> {
    let json: Json = serde_json::from_str(text).map_err(|e| {
        SuiteError::new("", SuiteErrorKind::InvalidJson(alloc::string::ToString::to_string(&e)))
    })?;
    parse_suite_json(&json)
}

/// Parses a suite from a JSON value.
pub fn parse_suite_json(json: &Json) -> Result<Suite> {
    let mut o = Obj::new(json, "")?;
    let _ = o.get("$schema");
    if let Some(v) = o.u64("version")? {
        if v != FORMAT_VERSION {
            return Err(bad("version", "unsupported version (this gobo reads version 1)"));
        }
    }
    let name = o.str("name")?;
    let fps = match o.u64("fps")? {
        None => 30,
        Some(f @ 1..=1000) => f as u32,
        Some(_) => return Err(bad("fps", "must be between 1 and 1000")),
    };
    let seed = o.u64("seed")?.unwrap_or(0);
    let missing = match o.str("missing")?.as_deref() {
        None | Some("error") => Missing::Error,
        Some("fail") => Missing::Fail,
        Some(_) => {
            return Err(SuiteError::new(
                "missing",
                SuiteErrorKind::UnknownKind { expected: "error, fail" },
            ))
        }
    };
    let tests_path = o.path_of("tests");
    let tests = array(o.req("tests")?, &tests_path)?;
    o.finish()?;
    let mut cases: Vec<Case> = Vec::with_capacity(tests.len());
    for (i, t) in tests.iter().enumerate() {
        let path = index(&tests_path, i);
        let case = parse_case(t, &path)?;
        if cases.iter().any(|c| c.name == case.name) {
            return Err(SuiteError::new(
                &o_child(&path, "name"),
                SuiteErrorKind::DuplicateCase(case.name),
            ));
        }
        cases.push(case);
    }
    Ok(Suite { name, fps, seed, missing, cases })
}

fn o_child(path: &str, key: &str) -> String {
    super::json::child(path, key)
}

fn parse_case(v: &Json, path: &str) -> Result<Case> {
    let mut o = Obj::new(v, path)?;
    let name = o.req_str("name")?;
    if name.is_empty() {
        return Err(bad(&o.path_of("name"), "must not be empty"));
    }
    let timeout = match o.get("timeout") {
        None => 60.0,
        Some(t) => {
            let p = o.path_of("timeout");
            let t = non_negative(t, &p)?;
            if t == 0.0 || t > MAX_TIMEOUT {
                return Err(bad(&p, "must be above 0 and at most 86400 seconds"));
            }
            t
        }
    };
    let mut answers = Vec::new();
    if let Some(a) = o.get("answers") {
        let p = o.path_of("answers");
        for (i, rule) in array(a, &p)?.iter().enumerate() {
            answers.push(parse_answer(rule, &index(&p, i))?);
        }
    }
    let steps_path = o.path_of("steps");
    let steps_json = array(o.req("steps")?, &steps_path)?;
    o.finish()?;
    let mut steps = Vec::with_capacity(steps_json.len());
    for (i, s) in steps_json.iter().enumerate() {
        steps.push(parse_step(s, &index(&steps_path, i))?);
    }
    Ok(Case { name, timeout, answers, steps, missing: None })
}

fn parse_answer(v: &Json, path: &str) -> Result<AnswerRule> {
    if let Json::String(s) = v {
        return Ok(AnswerRule {
            nth: None,
            when: None,
            reply: Reply::Text(s.clone()),
            delay: Span::Frames(0),
        });
    }
    let mut o = Obj::new(v, path)?;
    let reply = match (o.get("text"), o.get("compute")) {
        (Some(Json::String(s)), None) => Reply::Text(s.clone()),
        (Some(_), None) => return Err(wrong(&o.path_of("text"), "a string")),
        (None, Some(Json::String(f))) => match AnswerFn::ALL.iter().find(|(n, _)| n == f) {
            Some((_, f)) => Reply::Compute(*f),
            None => {
                return Err(SuiteError::new(
                    &o.path_of("compute"),
                    SuiteErrorKind::UnknownKind {
                        expected: "echo, sum, difference, product, quotient, max, min, count, \
                                   reverse, upper, lower, length",
                    },
                ))
            }
        },
        (None, Some(_)) => return Err(wrong(&o.path_of("compute"), "a string")),
        (None, None) => {
            return Err(SuiteError::new(&o.path_of("text"), SuiteErrorKind::Missing));
        }
        (Some(_), Some(_)) => {
            return Err(bad(&o.path_of("compute"), "give either text or compute, not both"))
        }
    };
    let nth = match o.u64("nth")? {
        None => None,
        Some(n @ 1..=1_000_000) => Some(n as u32),
        Some(_) => return Err(bad(&o.path_of("nth"), "must be between 1 and 1000000")),
    };
    let when = match o.get("when") {
        None => None,
        Some(w) => Some(parse_text_match(w, &o.path_of("when"))?),
    };
    let delay = match o.get("delay") {
        None => Span::Frames(0),
        Some(d) => Span::Seconds(non_negative(d, &o.path_of("delay"))?),
    };
    o.finish()?;
    Ok(AnswerRule { nth, when, reply, delay })
}

const STEP_KINDS: &str = "do, wait, expect, mark, repeat";

/// Most rounds a `repeat` step may ask for.
const MAX_ROUNDS: u64 = 1_000_000;

fn parse_step(v: &Json, path: &str) -> Result<Step> {
    let mut o = Obj::new(v, path)?;
    let at = match (o.get("at"), o.u64("at_frame")?) {
        (Some(_), Some(_)) => {
            return Err(bad(&o.path_of("at_frame"), "give at or at_frame, not both"))
        }
        (Some(s), None) => Some(Span::Seconds(non_negative(s, &o.path_of("at"))?)),
        (None, Some(f)) => Some(Span::Frames(f)),
        (None, None) => None,
    };
    let kind = if let Some(d) = o.get("do") {
        let name = d.as_str().ok_or_else(|| wrong(&o.path_of("do"), "a string"))?;
        StepKind::Do(parse_input(name, &mut o)?)
    } else if let Some(w) = o.get("wait") {
        StepKind::Wait(parse_wait(w, &o.path_of("wait"))?)
    } else if let Some(c) = o.get("expect") {
        StepKind::Expect(parse_check(c, &o.path_of("expect"))?)
    } else if let Some(m) = o.get("mark") {
        let m = m.as_str().ok_or_else(|| wrong(&o.path_of("mark"), "a string"))?;
        StepKind::Mark(String::from(m))
    } else if let Some(r) = o.get("repeat") {
        let rp = o.path_of("repeat");
        let items = array(r, &rp)?;
        if items.is_empty() {
            return Err(bad(&rp, "needs at least one step"));
        }
        let mut steps = Vec::with_capacity(items.len());
        for (i, s) in items.iter().enumerate() {
            steps.push(parse_step(s, &index(&rp, i))?);
        }
        let until = parse_check(o.req("until")?, &o.path_of("until"))?;
        let max = match o.u64("max")? {
            None => return Err(SuiteError::new(&o.path_of("max"), SuiteErrorKind::Missing)),
            Some(m @ 1..=MAX_ROUNDS) => m as u32,
            Some(_) => return Err(bad(&o.path_of("max"), "must be between 1 and 1000000")),
        };
        let required = o.bool("required")?.unwrap_or(true);
        StepKind::Repeat { steps, until: alloc::boxed::Box::new(until), max, required }
    } else {
        return Err(SuiteError::new(path, SuiteErrorKind::UnknownKind { expected: STEP_KINDS }));
    };
    o.finish()?;
    Ok(Step { at, kind })
}

/// A sprite name or a list of alternative names.
pub(crate) fn sprite_ref(v: &Json, path: &str) -> Result<SpriteRef> {
    let names: Vec<String> = match v {
        Json::String(s) => alloc::vec![s.clone()],
        Json::Array(items) => {
            let mut names = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let s = item.as_str().ok_or_else(|| wrong(&index(path, i), "a string"))?;
                names.push(String::from(s));
            }
            names
        }
        _ => return Err(wrong(path, "a sprite name or an array of alternative names")),
    };
    let Some(first) = names.first().cloned() else {
        return Err(bad(path, "needs at least one name"));
    };
    Ok(SpriteRef { names, resolved: first })
}

pub(crate) fn opt_sprite(o: &mut Obj<'_>, key: &str) -> Result<Option<SpriteRef>> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => sprite_ref(v, &o.path_of(key)).map(Some),
    }
}

fn req_sprite(o: &mut Obj<'_>, key: &str) -> Result<SpriteRef> {
    let v = o.req(key)?;
    sprite_ref(v, &o.path_of(key))
}

fn key_name(o: &mut Obj<'_>) -> Result<String> {
    let key = o.req_str("key")?;
    if key.is_empty() {
        return Err(bad(&o.path_of("key"), "must not be empty"));
    }
    Ok(key)
}

fn opt_pos(o: &mut Obj<'_>) -> Result<Option<(f64, f64)>> {
    match (o.num("x")?, o.num("y")?) {
        (Some(x), Some(y)) => Ok(Some((x, y))),
        (None, None) => Ok(None),
        (Some(_), None) => Err(SuiteError::new(&o.path_of("y"), SuiteErrorKind::Missing)),
        (None, Some(_)) => Err(SuiteError::new(&o.path_of("x"), SuiteErrorKind::Missing)),
    }
}

/// The `dx`, `dy` offset of an `onto` input (each 0 when absent).
fn offset(o: &mut Obj<'_>) -> Result<(f64, f64)> {
    Ok((o.num("dx")?.unwrap_or(0.0), o.num("dy")?.unwrap_or(0.0)))
}

const INPUTS: &str = "green_flag, stop_all, key_press, key_down, key_up, mouse_move, mouse_down, \
                      mouse_up, click, broadcast, answer, set_variable, set_list, set_sprite";

fn parse_input(name: &str, o: &mut Obj<'_>) -> Result<Input> {
    Ok(match name {
        "green_flag" => match o.get("sprite") {
            Some(_) => Input::FlagSprite(req_sprite(o, "sprite")?),
            None => Input::GreenFlag,
        },
        "stop_all" => Input::StopAll,
        "key_press" => {
            let key = key_name(o)?;
            let hold = match (o.get("hold"), o.u64("hold_frames")?) {
                (Some(_), Some(_)) => {
                    return Err(bad(
                        &o.path_of("hold_frames"),
                        "give hold or hold_frames, not both",
                    ))
                }
                (Some(h), None) => Span::Seconds(non_negative(h, &o.path_of("hold"))?),
                (None, Some(f)) => Span::Frames(f),
                (None, None) => Span::Seconds(0.1),
            };
            Input::KeyPress { key, hold }
        }
        "key_down" => Input::KeyDown(key_name(o)?),
        "key_up" => Input::KeyUp(key_name(o)?),
        "mouse_move" => match o.get("onto") {
            Some(v) => Input::MouseOnto {
                sprite: sprite_ref(v, &o.path_of("onto"))?,
                x: o.num("x")?,
                y: o.num("y")?,
                offset: offset(o)?,
            },
            None => Input::MouseMove { x: o.req_num("x")?, y: o.req_num("y")? },
        },
        "mouse_down" | "mouse_up" if o.bool("event")? == Some(false) => {
            Input::MouseFlag { down: name == "mouse_down", pos: opt_pos(o)? }
        }
        "mouse_down" => Input::MouseDown { pos: opt_pos(o)? },
        "mouse_up" => Input::MouseUp { pos: opt_pos(o)? },
        "click" => Input::Click(req_sprite(o, "sprite")?),
        "broadcast" => Input::Broadcast(o.req_str("message")?),
        "answer" => Input::Answer(o.req_str("text")?),
        "set_variable" => {
            let name = o.req_str("variable")?;
            let sprite = opt_sprite(o, "sprite")?;
            let value = o.req("value")?;
            let value = scalar(value, &o.path_of("value"))?;
            Input::SetVariable { sprite, name, value }
        }
        "set_list" => {
            let name = o.req_str("list")?;
            let sprite = opt_sprite(o, "sprite")?;
            let path = o.path_of("items");
            let items = array(o.req("items")?, &path)?;
            let mut values = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                values.push(scalar(item, &index(&path, i))?);
            }
            Input::SetList { sprite, name, items: values }
        }
        "set_sprite" => {
            let sprite = req_sprite(o, "sprite")?;
            let (x, y, direction) = (o.num("x")?, o.num("y")?, o.num("direction")?);
            let onto = opt_sprite(o, "onto")?;
            if x.is_none() && y.is_none() && direction.is_none() && onto.is_none() {
                return Err(SuiteError::new(&o.path_of("x"), SuiteErrorKind::Missing));
            }
            // Without `onto`, `dx` and `dy` stay unread: unknown fields.
            let offset = if onto.is_some() { offset(o)? } else { (0.0, 0.0) };
            Input::SetSprite { sprite, x, y, direction, onto, offset }
        }
        _ => {
            return Err(SuiteError::new(
                &o.path_of("do"),
                SuiteErrorKind::UnknownKind { expected: INPUTS },
            ))
        }
    })
}

/// Default timeout of `wait until`, in virtual seconds.
const DEFAULT_UNTIL_TIMEOUT: f64 = 10.0;

fn parse_wait(v: &Json, path: &str) -> Result<Wait> {
    if v.is_number() {
        return Ok(Wait::For(Span::Seconds(non_negative(v, path)?)));
    }
    let mut o = Obj::new(v, path)?;
    let wait = if let Some(f) = o.u64("frames")? {
        Wait::For(Span::Frames(f))
    } else if let Some(s) = o.get("seconds") {
        Wait::For(Span::Seconds(non_negative(s, &o.path_of("seconds"))?))
    } else if let Some(c) = o.get("until") {
        let check = parse_check(c, &o.path_of("until"))?;
        let timeout = match o.get("timeout") {
            None => DEFAULT_UNTIL_TIMEOUT,
            Some(t) => {
                let p = o.path_of("timeout");
                let t = number(t, &p)?;
                if !(0.0..=MAX_TIMEOUT).contains(&t) {
                    return Err(bad(&p, "must be between 0 and 86400 seconds"));
                }
                t
            }
        };
        let required = o.bool("required")?.unwrap_or(true);
        Wait::Until {
            check: alloc::boxed::Box::new(check),
            timeout: Span::Seconds(timeout),
            required,
        }
    } else {
        return Err(SuiteError::new(
            path,
            SuiteErrorKind::UnknownKind { expected: "a number of seconds, frames, seconds, until" },
        ));
    };
    o.finish()?;
    Ok(wait)
}
