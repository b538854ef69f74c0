//! Reading checks (`expect` and `wait until` bodies), text/number/value matchers and probes.

use alloc::boxed::Box;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::error::{SuiteError, SuiteErrorKind};
use super::json::{array, bad, index, non_negative, number, scalar, wrong, Obj, Result};
use super::model::{
    Check, CloneSel, CostumeRef, Effect, Existence, ListExpect, Measure, NumMatch, Order, Place,
    Probe, Prop, SayKind, Since, SpriteExpect, TextMatch, TextMode, Track, ValueMatch,
};
use super::parse::{opt_sprite, sprite_ref};
use super::regex::Regex;

/// The keys that say what a check is, in the order they are looked for (`sprite` last: it is
/// also a qualifier of other checks).
const CHECK_KINDS: &str = "not, all, any, count_of, exists, ever, always, fraction, at_mark, value, series, sequence, variable, list, says, says_in_order, asked, questions, \
                           broadcast, moved, changed, monotonic, extent, interval, block_count, costumes, \
                           opcode, backdrop, clones, running, sprite";

/// Parses a check object at `path`.
pub(crate) fn parse_check(v: &Json, path: &str) -> Result<Check> {
    let mut o = Obj::new(v, path)?;
    let check = if let Some(inner) = o.get("not") {
        Check::Not(Box::new(parse_check(inner, &o.path_of("not"))?))
    } else if let Some(list) = o.get("all") {
        Check::All(check_list(list, &o.path_of("all"))?)
    } else if let Some(list) = o.get("any") {
        Check::Any(check_list(list, &o.path_of("any"))?)
    } else if let Some(list) = o.get("count_of") {
        let checks = check_list(list, &o.path_of("count_of"))?;
        let count = num_match(o.req("count")?, &o.path_of("count"))?;
        Check::CountOf { checks, count }
    } else if let Some(e) = o.get("exists") {
        Check::Exists(existence(e, &o.path_of("exists"))?)
    } else if let Some(inner) = o.get("ever") {
        let check = Box::new(parse_check(inner, &o.path_of("ever"))?);
        Check::Ever { check, since: since(&mut o)? }
    } else if let Some(inner) = o.get("always") {
        let check = Box::new(parse_check(inner, &o.path_of("always"))?);
        Check::Always { check, since: since(&mut o)? }
    } else if let Some(inner) = o.get("fraction") {
        let check = Box::new(parse_check(inner, &o.path_of("fraction"))?);
        let ratio = inline_num(&mut o)?;
        Check::Fraction { check, ratio, since: since(&mut o)? }
    } else if o.has("at_mark") {
        let mark = o.req_str("at_mark")?;
        let check = Box::new(parse_check(o.req("check")?, &o.path_of("check"))?);
        Check::AtMark { mark, check }
    } else if let Some(p) = o.get("value") {
        let probe = parse_probe(p, &o.path_of("value"))?;
        Check::Value { probe, expect: inline_num(&mut o)? }
    } else if let Some(p) = o.get("series") {
        let track = parse_track(p, &o.path_of("series"))?;
        let mp = o.path_of("measure");
        let name = o.req_str("measure")?;
        let Some((_, measure)) = Measure::ALL.iter().find(|(n, _)| *n == name) else {
            return Err(SuiteError::new(
                &mp,
                SuiteErrorKind::UnknownKind {
                    expected: "max_step, path, distinct, changes, reversals, peaks, \
                               range, above_min, below_max, shortest_gap, longest_gap",
                },
            ));
        };
        if matches!(track, Track::Position { .. })
            && matches!(
                measure,
                Measure::Reversals
                    | Measure::Peaks
                    | Measure::Range
                    | Measure::AboveMin
                    | Measure::BelowMax
            )
        {
            return Err(bad(
                &mp,
                "reversals, peaks, range, above_min and below_max need a number, not a position",
            ));
        }
        let expect = inline_num(&mut o)?;
        Check::Series { track, measure: *measure, expect, since: since(&mut o)? }
    } else if let Some(list) = o.get("sequence") {
        let p = o.path_of("sequence");
        let checks = check_list(list, &p)?;
        if checks.len() < 2 {
            return Err(bad(&p, "needs at least two checks"));
        }
        Check::Sequence { checks, since: since(&mut o)? }
    } else if o.has("variable") {
        let name = o.req_str("variable")?;
        let sprite = opt_sprite(&mut o, "sprite")?;
        let expect = value_match(&mut o)?;
        Check::Variable { sprite, name, expect }
    } else if o.has("list") {
        let name = o.req_str("list")?;
        let sprite = opt_sprite(&mut o, "sprite")?;
        Check::List { sprite, name, expect: list_expect(&mut o)? }
    } else if let Some(t) = o.get("says") {
        let text = parse_text_match(t, &o.path_of("says"))?;
        let (sprite, kind, since) = speaker(&mut o)?;
        Check::Says { sprite, kind, text, since }
    } else if let Some(list) = o.get("says_in_order") {
        let p = o.path_of("says_in_order");
        let items = array(list, &p)?;
        if items.is_empty() {
            return Err(bad(&p, "needs at least one text"));
        }
        let mut texts = Vec::with_capacity(items.len());
        for (i, t) in items.iter().enumerate() {
            texts.push(parse_text_match(t, &index(&p, i))?);
        }
        let (sprite, kind, since) = speaker(&mut o)?;
        Check::SaysInOrder { sprite, kind, texts, since }
    } else if let Some(t) = o.get("asked") {
        let text = Some(parse_text_match(t, &o.path_of("asked"))?);
        let count = opt_num(&mut o, "count")?;
        Check::Asked { text, count, since: since(&mut o)? }
    } else if let Some(c) = o.get("questions") {
        let count = Some(num_match(c, &o.path_of("questions"))?);
        Check::Asked { text: None, count, since: since(&mut o)? }
    } else if o.has("broadcast") {
        let name = o.req_str("broadcast")?;
        let count = opt_num(&mut o, "count")?;
        Check::Broadcast { name, count, since: since(&mut o)? }
    } else if let Some(s) = o.get("moved") {
        let sprite = sprite_ref(s, &o.path_of("moved"))?;
        let v = o.req("at_least")?;
        let at_least = non_negative(v, &o.path_of("at_least"))?;
        Check::Moved { sprite, at_least, since: since(&mut o)? }
    } else if let Some(p) = o.get("changed") {
        let probe = parse_probe(p, &o.path_of("changed"))?;
        let (from, to, by) = (o.req_str("from")?, o.str("to")?, opt_num(&mut o, "by")?);
        Check::Changed { probe, from, to, by }
    } else if let Some(p) = o.get("monotonic") {
        let probe = parse_probe(p, &o.path_of("monotonic"))?;
        let order = match o.req_str("order")?.as_str() {
            "increasing" => Order::Increasing,
            "decreasing" => Order::Decreasing,
            "non_decreasing" => Order::NonDecreasing,
            "non_increasing" => Order::NonIncreasing,
            _ => {
                return Err(SuiteError::new(
                    &o.path_of("order"),
                    SuiteErrorKind::UnknownKind {
                        expected: "increasing, decreasing, non_decreasing, non_increasing",
                    },
                ))
            }
        };
        Check::Monotonic { probe, order, since: since(&mut o)? }
    } else if let Some(p) = o.get("extent") {
        let probe = parse_probe(p, &o.path_of("extent"))?;
        let (min, max) = (opt_num(&mut o, "min")?, opt_num(&mut o, "max")?);
        if min.is_none() && max.is_none() {
            return Err(SuiteError::new(&o.path_of("min"), SuiteErrorKind::Missing));
        }
        Check::Extent { probe, min, max, since: since(&mut o)? }
    } else if let Some(i) = o.get("interval") {
        let mut io = Obj::new(i, &o.path_of("interval"))?;
        let from = parse_check(io.req("from")?, &io.path_of("from"))?;
        let to = parse_check(io.req("to")?, &io.path_of("to"))?;
        io.finish()?;
        let seconds = num_match(o.req("seconds")?, &o.path_of("seconds"))?;
        Check::Interval { from: Box::new(from), to: Box::new(to), seconds, since: since(&mut o)? }
    } else if let Some(c) = o.get("block_count") {
        let count = num_match(c, &o.path_of("block_count"))?;
        let sprite = opt_sprite(&mut o, "sprite")?;
        Check::BlockCount { sprite, opcode: o.str("opcode")?, count }
    } else if let Some(c) = o.get("costumes") {
        let count = num_match(c, &o.path_of("costumes"))?;
        Check::CostumeCount { sprite: opt_sprite(&mut o, "sprite")?, count }
    } else if o.has("opcode") {
        let opcode = o.req_str("opcode")?;
        let sprite = opt_sprite(&mut o, "sprite")?;
        let present = o.bool("present")?.unwrap_or(true);
        Check::Opcode { opcode, sprite, present }
    } else if let Some(b) = o.get("backdrop") {
        Check::Backdrop(costume_ref(b, &o.path_of("backdrop"))?)
    } else if let Some(s) = o.get("clones") {
        let sprite = sprite_ref(s, &o.path_of("clones"))?;
        let c = o.req("count")?;
        Check::CloneCount { sprite, count: num_match(c, &o.path_of("count"))? }
    } else if o.has("running") {
        Check::Running(o.bool("running")?.unwrap_or(true))
    } else if let Some(s) = o.get("sprite") {
        let sprite = sprite_ref(s, &o.path_of("sprite"))?;
        let clone = clone_sel(&mut o)?;
        Check::Sprite { sprite, clone, expect: sprite_expect(&mut o)? }
    } else {
        return Err(SuiteError::new(path, SuiteErrorKind::UnknownKind { expected: CHECK_KINDS }));
    };
    o.finish()?;
    Ok(check)
}

fn check_list(v: &Json, path: &str) -> Result<Vec<Check>> {
    let items = array(v, path)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, c) in items.iter().enumerate() {
        out.push(parse_check(c, &index(path, i))?);
    }
    Ok(out)
}

type Speaker = (Option<super::model::SpriteRef>, SayKind, Option<Since>);

/// `exists`: `{"sprite": S}`, `{"variable": NAME, "sprite"?: S}` or `{"list": NAME, "sprite"?: S}`.
fn existence(v: &Json, path: &str) -> Result<Existence> {
    let mut o = Obj::new(v, path)?;
    let e = if o.has("variable") || o.has("list") {
        let list = o.has("list");
        let name = o.req_str(if list { "list" } else { "variable" })?;
        Existence::Variable { sprite: opt_sprite(&mut o, "sprite")?, name, list }
    } else if let Some(s) = o.get("sprite") {
        Existence::Sprite(sprite_ref(s, &o.path_of("sprite"))?)
    } else {
        return Err(SuiteError::new(
            path,
            SuiteErrorKind::UnknownKind { expected: "sprite, variable, list" },
        ));
    };
    o.finish()?;
    Ok(e)
}

/// `since`: a mark name, or `{"mark": NAME, "include_mark": BOOL}`.
fn since(o: &mut Obj<'_>) -> Result<Option<Since>> {
    let path = o.path_of("since");
    match o.get("since") {
        None => Ok(None),
        Some(Json::String(m)) => Ok(Some(Since { mark: m.clone(), include_mark: false })),
        Some(v) => {
            let mut so = Obj::new(v, &path)
                .map_err(|_| wrong(&path, "a mark name or {mark, include_mark}"))?;
            let mark = so.req_str("mark")?;
            let include_mark = so.bool("include_mark")?.unwrap_or(false);
            so.finish()?;
            Ok(Some(Since { mark, include_mark }))
        }
    }
}

/// The fields `equals`, `tolerance`, `min` and `max` of an object, none required.
fn num_fields(o: &mut Obj<'_>) -> Result<NumMatch> {
    Ok(NumMatch {
        equals: o.num("equals")?,
        tolerance: match o.get("tolerance") {
            None => 0.0,
            Some(t) => non_negative(t, &o.path_of("tolerance"))?,
        },
        min: o.num("min")?,
        max: o.num("max")?,
    })
}

/// The number matcher written on the check itself (`equals`, `tolerance`, `min`, `max`).
fn inline_num(o: &mut Obj<'_>) -> Result<NumMatch> {
    let m = num_fields(o)?;
    if m.equals.is_none() && m.min.is_none() && m.max.is_none() {
        return Err(SuiteError::new(&o.path_of("min"), SuiteErrorKind::Missing));
    }
    Ok(m)
}

fn speaker(o: &mut Obj<'_>) -> Result<Speaker> {
    let sprite = opt_sprite(o, "sprite")?;
    let kind = match o.str("kind")?.as_deref() {
        None | Some("any") => SayKind::Any,
        Some("say") => SayKind::Say,
        Some("think") => SayKind::Think,
        Some(_) => {
            return Err(SuiteError::new(
                &o.path_of("kind"),
                SuiteErrorKind::UnknownKind { expected: "say, think, any" },
            ))
        }
    };
    Ok((sprite, kind, since(o)?))
}

/// A text matcher: a string (exact) or `{equals|contains|regex|number, case_insensitive}`.
pub(crate) fn parse_text_match(v: &Json, path: &str) -> Result<TextMatch> {
    if let Json::String(s) = v {
        return Ok(TextMatch { mode: TextMode::Equals(s.clone()), case_insensitive: false });
    }
    if v.is_number() {
        let value = number(v, path)?;
        return Ok(TextMatch {
            mode: TextMode::Number { value, tolerance: 0.0 },
            case_insensitive: false,
        });
    }
    let mut o = Obj::new(v, path).map_err(|_| wrong(path, "a string or a text matcher object"))?;
    let ci = o.bool("case_insensitive")?.unwrap_or(false);
    let mode = if let Some(s) = o.str("equals")? {
        TextMode::Equals(s)
    } else if let Some(s) = o.str("contains")? {
        TextMode::Contains(s)
    } else if let Some(s) = o.str("regex")? {
        let regex = Regex::new(&s, ci)
            .map_err(|e| SuiteError::new(&o.path_of("regex"), SuiteErrorKind::BadRegex(e)))?;
        TextMode::Regex(regex)
    } else if let Some(n) = o.num("number")? {
        let tolerance = match o.get("tolerance") {
            None => 0.0,
            Some(t) => non_negative(t, &o.path_of("tolerance"))?,
        };
        TextMode::Number { value: n, tolerance }
    } else {
        return Err(SuiteError::new(
            path,
            SuiteErrorKind::UnknownKind { expected: "equals, contains, regex, number" },
        ));
    };
    o.finish()?;
    Ok(TextMatch { mode, case_insensitive: ci })
}

/// A number matcher: a number (exact) or `{equals, tolerance, min, max}`.
pub(crate) fn num_match(v: &Json, path: &str) -> Result<NumMatch> {
    if v.is_number() {
        return Ok(NumMatch { equals: Some(number(v, path)?), ..NumMatch::default() });
    }
    let mut o =
        Obj::new(v, path).map_err(|_| wrong(path, "a number or {equals, tolerance, min, max}"))?;
    let m = num_fields(&mut o)?;
    if m.equals.is_none() && m.min.is_none() && m.max.is_none() {
        return Err(SuiteError::new(
            path,
            SuiteErrorKind::UnknownKind { expected: "equals, min, max" },
        ));
    }
    if let (Some(a), Some(b)) = (m.min, m.max) {
        if a > b {
            return Err(bad(&o.path_of("max"), "max is below min"));
        }
    }
    o.finish()?;
    Ok(m)
}

fn opt_num(o: &mut Obj<'_>, key: &str) -> Result<Option<NumMatch>> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => num_match(v, &o.path_of(key)).map(Some),
    }
}

fn value_match(o: &mut Obj<'_>) -> Result<ValueMatch> {
    let equals = match o.get("equals") {
        None => None,
        Some(v) => Some(scalar(v, &o.path_of("equals"))?),
    };
    let tolerance = match o.get("tolerance") {
        None => None,
        Some(t) => Some(non_negative(t, &o.path_of("tolerance"))?),
    };
    let text = match o.get("text") {
        None => None,
        Some(t) => Some(parse_text_match(t, &o.path_of("text"))?),
    };
    let m = ValueMatch { equals, tolerance, min: o.num("min")?, max: o.num("max")?, text };
    if m.equals.is_none() && m.min.is_none() && m.max.is_none() && m.text.is_none() {
        return Err(SuiteError::new(&o.path_of("equals"), SuiteErrorKind::Missing));
    }
    if m.tolerance.is_some() && m.equals.is_none() {
        return Err(bad(&o.path_of("tolerance"), "tolerance needs equals"));
    }
    Ok(m)
}

fn list_expect(o: &mut Obj<'_>) -> Result<ListExpect> {
    let equals = match o.get("equals") {
        None => None,
        Some(v) => {
            let p = o.path_of("equals");
            let items = array(v, &p)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(scalar(item, &index(&p, i))?);
            }
            Some(out)
        }
    };
    let length = opt_num(o, "length")?;
    let contains = match o.get("contains") {
        None => None,
        Some(v) => Some(scalar(v, &o.path_of("contains"))?),
    };
    if equals.is_none() && length.is_none() && contains.is_none() {
        return Err(SuiteError::new(&o.path_of("equals"), SuiteErrorKind::Missing));
    }
    Ok(ListExpect { equals, length, contains })
}

fn costume_ref(v: &Json, path: &str) -> Result<CostumeRef> {
    match v {
        Json::String(s) => Ok(CostumeRef::Name(s.clone())),
        Json::Number(n) => match n.as_u64() {
            Some(k @ 1..=100_000) => Ok(CostumeRef::Number(k as u32)),
            _ => Err(bad(path, "a costume number counts from 1")),
        },
        _ => Err(wrong(path, "a costume name or number")),
    }
}

fn clone_sel(o: &mut Obj<'_>) -> Result<CloneSel> {
    let p = o.path_of("clone");
    Ok(match o.get("clone") {
        None => CloneSel::Original,
        Some(Json::String(s)) => match s.as_str() {
            "original" => CloneSel::Original,
            "any" => CloneSel::Any,
            "all" => CloneSel::All,
            "all_clones" => CloneSel::AllClones,
            _ => {
                return Err(SuiteError::new(
                    &p,
                    SuiteErrorKind::UnknownKind {
                        expected: "original, any, all, all_clones, or a clone number",
                    },
                ))
            }
        },
        Some(Json::Number(n)) => match n.as_u64() {
            Some(0) => CloneSel::Original,
            Some(k @ 1..=1_000_000) => CloneSel::Serial(k as u32),
            _ => return Err(bad(&p, "a clone number is a non-negative integer")),
        },
        Some(_) => return Err(wrong(&p, "a string or a clone number")),
    })
}

const NUM_PROPS: [(&str, Prop); 5] = [
    ("x", Prop::X),
    ("y", Prop::Y),
    ("direction", Prop::Direction),
    ("size", Prop::Size),
    ("layer", Prop::Layer),
];

fn sprite_expect(o: &mut Obj<'_>) -> Result<SpriteExpect> {
    let tolerance = match o.get("tolerance") {
        None => 0.0,
        Some(t) => non_negative(t, &o.path_of("tolerance"))?,
    };
    let with_tol = |mut m: NumMatch| {
        if m.tolerance == 0.0 {
            m.tolerance = tolerance;
        }
        m
    };
    let mut e = SpriteExpect::default();
    for (key, prop) in NUM_PROPS {
        if let Some(m) = opt_num(o, key)? {
            e.nums.push((prop, with_tol(m)));
        }
    }
    if let Some(fx) = o.get("effects") {
        let mut fo = Obj::new(fx, &o.path_of("effects"))?;
        for (name, effect) in Effect::ALL {
            if let Some(m) = opt_num(&mut fo, name)? {
                e.nums.push((Prop::Effect(effect), with_tol(m)));
            }
        }
        fo.finish()?;
    }
    e.visible = o.bool("visible")?;
    e.costume = match o.get("costume") {
        None => None,
        Some(c) => Some(costume_ref(c, &o.path_of("costume"))?),
    };
    e.costume_name = match o.get("costume_name") {
        None => None,
        Some(t) => Some(parse_text_match(t, &o.path_of("costume_name"))?),
    };
    if e.nums.is_empty() && e.visible.is_none() && e.costume.is_none() && e.costume_name.is_none() {
        return Err(bad(
            &o.path_of("sprite"),
            "a sprite check needs a property to compare (x, y, direction, size, layer, \
             costume, costume_name, visible or effects); to check that the sprite exists, write \
             {\"exists\": {\"sprite\": ...}}",
        ));
    }
    Ok(e)
}

const EFFECTS: &str = "color, fisheye, whirl, pixelate, mosaic, brightness, ghost";

/// `clone` of a sprite probe: 0 (the original, the default) or a clone's creation serial.
fn probe_clone(o: &mut Obj<'_>) -> Result<u32> {
    match o.u64("clone")? {
        None => Ok(0),
        Some(k @ 0..=1_000_000) => Ok(k as u32),
        Some(_) => Err(bad(&o.path_of("clone"), "a clone number is at most 1000000")),
    }
}

/// What `series` follows: a probe, or `{"sprite": S, "property": "position", "clone"?: k}`.
fn parse_track(v: &Json, path: &str) -> Result<Track> {
    if v.get("property").and_then(Json::as_str) != Some("position") {
        return Ok(Track::Number(parse_probe(v, path)?));
    }
    let mut o = Obj::new(v, path)?;
    let _ = o.get("property");
    let sprite = sprite_ref(o.req("sprite")?, &o.path_of("sprite"))?;
    let clone = probe_clone(&mut o)?;
    o.finish()?;
    Ok(Track::Position { sprite, clone })
}

const PROPS: &str = "x, y, direction, size, costume, layer, visible, or an effect name";

fn prop(name: &str) -> Option<Prop> {
    match name {
        "costume" => Some(Prop::Costume),
        "visible" => Some(Prop::Visible),
        _ => NUM_PROPS.iter().find(|(n, _)| *n == name).map(|(_, p)| *p).or_else(|| {
            Effect::ALL.iter().find(|(n, _)| *n == name).map(|(_, e)| Prop::Effect(*e))
        }),
    }
}

/// A probe: `{sprite, property}`, `{variable, sprite?}`, `{list_length, sprite?}`,
/// `{backdrop: true}` or `{clones: sprite}`.
pub(crate) fn parse_probe(v: &Json, path: &str) -> Result<Probe> {
    let mut o = Obj::new(v, path)?;
    let probe = if o.has("variable") {
        let name = o.req_str("variable")?;
        Probe::Variable { sprite: opt_sprite(&mut o, "sprite")?, name }
    } else if o.has("list_length") {
        let name = o.req_str("list_length")?;
        Probe::ListLength { sprite: opt_sprite(&mut o, "sprite")?, name }
    } else if o.has("backdrop") {
        if o.bool("backdrop")? != Some(true) {
            return Err(bad(&o.path_of("backdrop"), "write backdrop: true"));
        }
        Probe::Backdrop
    } else if let Some(s) = o.get("clones") {
        Probe::Clones(sprite_ref(s, &o.path_of("clones"))?)
    } else if let Some(s) = o.get("clones_created") {
        Probe::ClonesCreated(sprite_ref(s, &o.path_of("clones_created"))?)
    } else if let Some(s) = o.get("clones_deleted") {
        Probe::ClonesDeleted(sprite_ref(s, &o.path_of("clones_deleted"))?)
    } else if let Some(s) = o.get("distance") {
        let sprite = sprite_ref(s, &o.path_of("distance"))?;
        let tp = o.path_of("to");
        let to = match o.req("to")? {
            t @ Json::Object(_) => {
                let mut to = Obj::new(t, &tp)?;
                let place = Place::Point(to.req_num("x")?, to.req_num("y")?);
                to.finish()?;
                place
            }
            t => Place::Sprite(
                sprite_ref(t, &tp).map_err(|_| wrong(&tp, "a sprite name or {x, y}"))?,
            ),
        };
        Probe::Distance { sprite, to }
    } else if o.has("stage") {
        let name = o.req_str("stage")?;
        match Effect::ALL.iter().find(|(n, _)| *n == name) {
            Some((_, e)) => Probe::StageEffect(*e),
            None => {
                return Err(SuiteError::new(
                    &o.path_of("stage"),
                    SuiteErrorKind::UnknownKind { expected: EFFECTS },
                ))
            }
        }
    } else if let Some(s) = o.get("sprite") {
        let sprite = sprite_ref(s, &o.path_of("sprite"))?;
        let pp = o.path_of("property");
        let Some(name) = o.str("property")? else {
            return Err(bad(
                &pp,
                "a sprite probe needs a property (x, y, direction, size, costume, layer, \
                 visible or an effect name)",
            ));
        };
        let prop = prop(&name)
            .ok_or_else(|| SuiteError::new(&pp, SuiteErrorKind::UnknownKind { expected: PROPS }))?;
        let clone = probe_clone(&mut o)?;
        match (sprite.names.as_slice(), prop) {
            ([only], Prop::Effect(e)) if only == "Stage" && clone == 0 => Probe::StageEffect(e),
            ([only], Prop::Costume) if only == "Stage" && clone == 0 => Probe::Backdrop,
            _ => Probe::Sprite { sprite, prop, clone },
        }
    } else {
        return Err(SuiteError::new(
            path,
            SuiteErrorKind::UnknownKind {
                expected: "sprite, variable, list_length, backdrop, clones, clones_created, \
                           clones_deleted, distance, stage",
            },
        ));
    };
    o.finish()?;
    Ok(probe)
}
