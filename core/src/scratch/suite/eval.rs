//! Evaluating one check over the frames observed so far: state checks read the last frame,
//! history checks read the frames since a mark, static checks read the project facts. Each
//! answer carries what was observed, for the verdict's reason.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::describe::{self as d, num, secs};
use super::facts::ProjectFacts;
use super::model::{
    Check, CloneSel, CostumeRef, Existence, ListExpect, NumMatch, Order, Place, Probe, Prop,
    SayKind, Since, SpriteExpect, SpriteRef, TextMatch, TextMode, ValueMatch,
};
use super::observe::{Snapshot, SpriteObs};
use crate::scratch::value::cast::{compare, js_number, to_number, with_str};
use crate::scratch::value::Value;

/// The frames a check may look at.
pub(crate) struct View<'a> {
    /// Frames observed so far; the last one is "now".
    pub history: &'a [Snapshot],
    /// The state before the first frame, when known: "now" until a frame has run.
    pub before: Option<&'a Snapshot>,
    pub fps: u32,
    /// Marks: name → number of frames observed when it was set.
    pub marks: &'a [(String, usize)],
    pub facts: &'a ProjectFacts,
    /// Where history checks start without a `since` (0 for `expect`, the wait's start for
    /// `wait until`).
    pub window_start: usize,
}

/// A check's answer and what was seen.
pub(crate) struct Outcome {
    pub ok: bool,
    pub observed: String,
}

fn outcome(ok: bool, observed: String) -> Outcome {
    Outcome { ok, observed }
}

impl NumMatch {
    pub(crate) fn test(&self, n: f64) -> bool {
        if n.is_nan() {
            return false;
        }
        self.equals.is_none_or(|e| libm::fabs(n - e) <= self.tolerance || n == e)
            && self.min.is_none_or(|m| n >= m)
            && self.max.is_none_or(|m| n <= m)
    }
}

impl TextMatch {
    pub(crate) fn test(&self, text: &str) -> bool {
        let ci = self.case_insensitive;
        match &self.mode {
            TextMode::Equals(s) if ci => s.to_lowercase() == text.to_lowercase(),
            TextMode::Equals(s) => s == text,
            TextMode::Contains(s) if ci => text.to_lowercase().contains(&s.to_lowercase()),
            TextMode::Contains(s) => text.contains(s.as_str()),
            TextMode::Regex(r) => r.is_match(text),
            TextMode::Number { value, tolerance } => {
                let n = js_number(&Value::str(text));
                !text.trim().is_empty() && libm::fabs(n - value) <= *tolerance
            }
        }
    }
}

impl ValueMatch {
    pub(crate) fn test(&self, v: &Value) -> bool {
        let eq = match (&self.equals, self.tolerance) {
            (None, _) => true,
            (Some(e), None) => compare(v, e) == 0.0,
            (Some(e), Some(t)) => libm::fabs(js_number(v) - to_number(e)) <= t,
        };
        let n = js_number(v);
        eq && self.min.is_none_or(|m| n >= m)
            && self.max.is_none_or(|m| n <= m)
            && self.text.as_ref().is_none_or(|t| with_str(v, |s| t.test(s)))
    }
}

impl<'a> View<'a> {
    fn now(&self) -> Option<&'a Snapshot> {
        self.history.last().or(self.before)
    }

    fn mark_index(&self, since: &Option<Since>) -> usize {
        match since {
            None => self.window_start,
            Some(s) => {
                let i = self.marks.iter().rev().find(|(n, _)| *n == s.mark).map_or(0, |(_, i)| *i);
                if s.include_mark {
                    i.saturating_sub(1)
                } else {
                    i
                }
            }
        }
    }

    /// Frames observed since a mark (or the default window start).
    fn window(&self, mark: &Option<Since>) -> &'a [Snapshot] {
        let start = self.mark_index(mark).min(self.history.len());
        &self.history[start..]
    }

    /// The frame that was "now" when a mark was set (the first frame if none had run yet).
    fn at_mark(&self, mark: &str) -> Option<&'a Snapshot> {
        let i = self.marks.iter().rev().find(|(n, _)| n == mark).map_or(0, |(_, i)| *i);
        if i == 0 {
            self.history.first()
        } else {
            self.history.get(i - 1)
        }
    }

    fn frame_time(&self, s: &Snapshot) -> String {
        secs(s.frame, self.fps)
    }

    pub(crate) fn eval(&self, c: &Check) -> Outcome {
        match c {
            Check::Opcode { opcode, sprite, present } => {
                let n = self.block_count(sprite, Some(opcode));
                outcome((n > 0) == *present, format!("the project has {n}"))
            }
            Check::BlockCount { sprite, opcode, count } => {
                let n = self.block_count(sprite, opcode.as_ref());
                outcome(count.test(f64::from(n)), format!("it has {n}"))
            }
            Check::Exists(e) => self.exists(e),
            Check::CostumeCount { sprite, count } => {
                let t = match sprite {
                    Some(r) => self.facts.sprite(&r.resolved),
                    None => self.facts.stage(),
                };
                let n = t.map_or(0, |t| t.costumes.len());
                outcome(count.test(n as f64), format!("it has {n}"))
            }
            Check::Value { probe: p, expect } => match self.now() {
                None => outcome(false, String::from("no frame has run yet")),
                Some(now) => match probe(now, p) {
                    Some(v) => {
                        let n = to_number(&v);
                        outcome(expect.test(n), format!("it is {}", num(n)))
                    }
                    None => outcome(false, String::from("it was not observed")),
                },
            },
            Check::Series { track, measure, expect, since } => {
                super::series::judge(self.window(since), self.fps, track, *measure, expect)
            }
            Check::Sequence { checks, since } => self.sequence(checks, since),
            Check::AtMark { mark, check } => {
                let n = self.marks.iter().rev().find(|(m, _)| m == mark).map_or(0, |(_, i)| *i);
                let history = &self.history[..n.min(self.history.len())];
                let o = View { history, window_start: 0, ..*self }.eval(check);
                let at = history
                    .last()
                    .map_or_else(|| String::from("the start"), |s| self.frame_time(s));
                let observed = if o.ok { o.observed } else { format!("at {at}: {}", o.observed) };
                outcome(o.ok, observed)
            }
            Check::Not(inner) => {
                let o = self.eval(inner);
                outcome(!o.ok, o.observed)
            }
            Check::All(list) => {
                for item in list {
                    let o = self.eval(item);
                    if !o.ok {
                        return outcome(
                            false,
                            format!("{} failed: {}", d::check(item), o.observed),
                        );
                    }
                }
                outcome(true, String::new())
            }
            Check::Any(list) => {
                let mut seen = Vec::new();
                for item in list {
                    let o = self.eval(item);
                    if o.ok {
                        return outcome(true, String::new());
                    }
                    seen.push(o.observed);
                }
                outcome(false, seen.join("; "))
            }
            Check::Says { sprite, kind, text, since } => self.says(sprite, *kind, text, since),
            Check::SaysInOrder { sprite, kind, texts, since } => {
                self.says_in_order(sprite, *kind, texts, since)
            }
            Check::Asked { text, count, since } => self.asked(text, count, since),
            Check::Broadcast { name, count, since } => {
                let n = self
                    .window(since)
                    .iter()
                    .flat_map(|s| s.broadcasts.iter())
                    .filter(|b| b.to_lowercase() == name.to_lowercase())
                    .count();
                let ok = match count {
                    Some(c) => c.test(n as f64),
                    None => n > 0,
                };
                outcome(ok, format!("it was sent {n} times"))
            }
            Check::Moved { sprite, at_least, since } => self.moved(sprite, *at_least, since),
            Check::Changed { probe, from, to, by } => self.changed(probe, from, to, by),
            Check::Ever { check, since } => {
                let (held, n) = self.frames_holding(check, since);
                let ok = !held.is_empty();
                let observed = if n == 0 {
                    String::from("no frame was observed")
                } else {
                    format!("it never held in {n} frames")
                };
                outcome(ok, if ok { String::new() } else { observed })
            }
            Check::Always { check, since } => {
                let start = self.mark_index(since).min(self.history.len());
                let n = self.history.len() - start;
                match (start..self.history.len()).find(|&i| !self.at_frame(check, i)) {
                    Some(i) => outcome(
                        false,
                        format!("it did not hold at {}", secs(self.history[i].frame, self.fps)),
                    ),
                    None if n == 0 => outcome(false, String::from("no frame was observed")),
                    None => outcome(true, String::new()),
                }
            }
            Check::Fraction { check, ratio, since } => {
                let (held, n) = self.frames_holding(check, since);
                if n == 0 {
                    return outcome(false, String::from("no frame was observed"));
                }
                let f = held.len() as f64 / n as f64;
                outcome(
                    ratio.test(f),
                    format!("it held in {} of {n} frames ({})", held.len(), num(f)),
                )
            }
            Check::CountOf { checks, count } => {
                let mut failed = Vec::new();
                for c in checks {
                    let o = self.eval(c);
                    if !o.ok {
                        failed.push(format!("[{}] {}", d::check(c), o.observed));
                    }
                }
                let held = checks.len() - failed.len();
                let mut observed = format!("{held} of {} held", checks.len());
                if !failed.is_empty() {
                    let shown: Vec<String> = failed.into_iter().take(4).collect();
                    observed.push_str(&format!("; failing: {}", shown.join("; ")));
                }
                outcome(count.test(held as f64), observed)
            }
            Check::Monotonic { probe, order, since } => self.monotonic(probe, *order, since),
            Check::Extent { probe, min, max, since } => self.extent(probe, min, max, since),
            Check::Interval { from, to, seconds, since } => self.interval(from, to, seconds, since),
            state => match self.now() {
                None => outcome(false, String::from("no frame has run yet")),
                Some(now) => state_check(now, state),
            },
        }
    }

    fn exists(&self, e: &Existence) -> Outcome {
        let facts = self.facts;
        match e {
            Existence::Sprite(r) => match r.names.iter().find(|n| facts.sprite(n).is_some()) {
                Some(_) => outcome(true, String::new()),
                None => outcome(
                    false,
                    format!(
                        "the project has no sprite {} (it has: {})",
                        r.names.join(" / "),
                        facts.sprite_names()
                    ),
                ),
            },
            Existence::Variable { sprite, name, list } => {
                let has = |t: &super::facts::TargetFacts| {
                    let names = if *list { &t.lists } else { &t.variables };
                    names.iter().any(|n| n == name)
                };
                let stage = facts.stage().is_some_and(has);
                let found = match sprite {
                    Some(r) => stage || facts.sprite(&r.resolved).is_some_and(has),
                    None => facts.targets.iter().any(has),
                };
                let what = if *list { "list" } else { "variable" };
                let whose = sprite
                    .as_ref()
                    .map_or_else(String::new, |r| format!(" visible to {}", r.resolved));
                outcome(found, format!("the project has no {what} {name}{whose}"))
            }
        }
    }

    fn block_count(&self, sprite: &Option<SpriteRef>, opcode: Option<&String>) -> u32 {
        let mut n = 0u32;
        for t in &self.facts.targets {
            if sprite.as_ref().is_some_and(|s| t.is_stage || s.resolved != t.name) {
                continue;
            }
            n = n.saturating_add(match opcode {
                Some(op) => t.opcodes.get(op).copied().unwrap_or(0),
                None => t.opcodes.values().fold(0u32, |a, b| a.saturating_add(*b)),
            });
        }
        n
    }

    /// Non-empty say/think texts in the window by the speaker, with their frames.
    fn said(
        &self,
        sprite: &Option<SpriteRef>,
        kind: SayKind,
        since: &Option<Since>,
    ) -> Vec<(&'a str, &'a Snapshot)> {
        let mut out = Vec::new();
        for s in self.window(since) {
            for e in &s.says {
                let kind_ok = match kind {
                    SayKind::Any => true,
                    SayKind::Say => !e.think,
                    SayKind::Think => e.think,
                };
                if kind_ok
                    && !e.text.is_empty()
                    && sprite.as_ref().is_none_or(|r| r.resolved == e.target)
                {
                    out.push((e.text.as_str(), s));
                }
            }
        }
        out
    }

    fn speaker(sprite: &Option<SpriteRef>) -> String {
        sprite.as_ref().map_or_else(
            || String::from("nothing was said"),
            |s| format!("{} said nothing", s.resolved),
        )
    }

    fn says(
        &self,
        sprite: &Option<SpriteRef>,
        kind: SayKind,
        text: &TextMatch,
        since: &Option<Since>,
    ) -> Outcome {
        let said = self.said(sprite, kind, since);
        if said.iter().any(|(t, _)| text.test(t)) {
            return outcome(true, String::new());
        }
        let observed = match said.last() {
            None => Self::speaker(sprite),
            Some((t, s)) => {
                let pronoun = if sprite.is_some() { "it" } else { "the project" };
                let more = if said.len() > 1 {
                    format!(" (and {} earlier texts)", said.len() - 1)
                } else {
                    String::new()
                };
                format!("{pronoun} said '{t}' at {}{more}", self.frame_time(s))
            }
        };
        outcome(false, observed)
    }

    fn says_in_order(
        &self,
        sprite: &Option<SpriteRef>,
        kind: SayKind,
        texts: &[TextMatch],
        since: &Option<Since>,
    ) -> Outcome {
        let said = self.said(sprite, kind, since);
        let mut k = 0;
        for (t, _) in &said {
            if texts.get(k).is_some_and(|m| m.test(t)) {
                k += 1;
            }
        }
        if k == texts.len() {
            return outcome(true, String::new());
        }
        if said.is_empty() {
            return outcome(false, Self::speaker(sprite));
        }
        let shown: Vec<String> = said.iter().take(12).map(|(t, _)| format!("'{t}'")).collect();
        let more = if said.len() > 12 { ", ..." } else { "" };
        outcome(false, format!("matched {k} of {}; said {}{more}", texts.len(), shown.join(", ")))
    }

    fn asked(
        &self,
        text: &Option<TextMatch>,
        count: &Option<NumMatch>,
        since: &Option<Since>,
    ) -> Outcome {
        let questions: Vec<String> = self.window(since).iter().flat_map(question_texts).collect();
        let n = questions.iter().filter(|q| text.as_ref().is_none_or(|m| m.test(q))).count();
        let ok = match count {
            Some(c) => c.test(n as f64),
            None => n > 0,
        };
        let observed = if questions.is_empty() {
            String::from("no question was asked")
        } else {
            let shown: Vec<String> = questions.iter().take(8).map(|q| format!("'{q}'")).collect();
            format!("{n} matched; questions asked: {}", shown.join(", "))
        };
        outcome(ok, observed)
    }

    fn moved(&self, sprite: &SpriteRef, at_least: f64, since: &Option<Since>) -> Outcome {
        let from = match since {
            Some(m) => self.at_mark(&m.mark),
            None => self.history.get(self.window_start.saturating_sub(1)).or(self.history.first()),
        };
        let pos =
            |s: Option<&Snapshot>| s.and_then(|s| s.original(&sprite.resolved)).map(|o| (o.x, o.y));
        match (pos(from), pos(self.now())) {
            (Some((x0, y0)), Some((x1, y1))) => {
                let dist = libm::hypot(x1 - x0, y1 - y0);
                let observed = format!(
                    "it moved {} (from ({}, {}) to ({}, {}))",
                    num(dist),
                    num(x0),
                    num(y0),
                    num(x1),
                    num(y1)
                );
                outcome(dist >= at_least, observed)
            }
            _ => outcome(false, format!("{} was not observed", sprite.resolved)),
        }
    }

    /// The frames of the window at which `c` held (each judged alone), and the window's size.
    fn frames_holding(&self, c: &Check, since: &Option<Since>) -> (Vec<usize>, usize) {
        let start = self.mark_index(since).min(self.history.len());
        let held = (start..self.history.len()).filter(|&i| self.at_frame(c, i)).collect();
        (held, self.history.len() - start)
    }

    fn changed(
        &self,
        p: &Probe,
        from: &str,
        to: &Option<String>,
        by: &Option<NumMatch>,
    ) -> Outcome {
        let a = self.at_mark(from).and_then(|s| probe(s, p));
        let b = match to {
            Some(t) => self.at_mark(t).and_then(|s| probe(s, p)),
            None => self.now().and_then(|s| probe(s, p)),
        };
        match (a, b) {
            (Some(a), Some(b)) if by.is_some() => {
                let delta = to_number(&b) - to_number(&a);
                let ok = by.as_ref().is_some_and(|m| m.test(delta));
                let observed = format!(
                    "it went from {} to {} (by {})",
                    d::value(&a),
                    d::value(&b),
                    num(delta)
                );
                outcome(ok, observed)
            }
            (Some(a), Some(b)) => {
                let same = a.strict_eq(&b) || compare(&a, &b) == 0.0;
                outcome(!same, format!("it went from {} to {}", d::value(&a), d::value(&b)))
            }
            _ => outcome(false, String::from("it was not observed at both marks")),
        }
    }

    fn series(&self, p: &Probe, since: &Option<Since>) -> Vec<(f64, &'a Snapshot)> {
        self.window(since).iter().filter_map(|s| probe(s, p).map(|v| (to_number(&v), s))).collect()
    }

    fn monotonic(&self, p: &Probe, order: Order, since: &Option<Since>) -> Outcome {
        let series = self.series(p, since);
        let (Some(first), Some(last)) = (series.first(), series.last()) else {
            return outcome(false, String::from("it was never observed"));
        };
        let up = matches!(order, Order::Increasing | Order::NonDecreasing);
        for w in series.windows(2) {
            let (a, b) = (w[0].0, w[1].0);
            if (up && b < a) || (!up && b > a) {
                let word = if up { "fell" } else { "rose" };
                return outcome(
                    false,
                    format!(
                        "it {word} from {} to {} at {}",
                        num(a),
                        num(b),
                        self.frame_time(w[1].1)
                    ),
                );
            }
        }
        let strict = matches!(order, Order::Increasing | Order::Decreasing);
        let ended = if up { last.0 > first.0 } else { last.0 < first.0 };
        let observed = format!("it went from {} to {}", num(first.0), num(last.0));
        outcome(!strict || ended, observed)
    }

    fn extent(
        &self,
        p: &Probe,
        min: &Option<NumMatch>,
        max: &Option<NumMatch>,
        since: &Option<Since>,
    ) -> Outcome {
        let series = self.series(p, since);
        if series.is_empty() {
            return outcome(false, String::from("it was never observed"));
        }
        let lo = series.iter().map(|v| v.0).fold(f64::INFINITY, f64::min);
        let hi = series.iter().map(|v| v.0).fold(f64::NEG_INFINITY, f64::max);
        let ok = min.as_ref().is_none_or(|m| m.test(lo)) && max.as_ref().is_none_or(|m| m.test(hi));
        outcome(ok, format!("it ranged from {} to {}", num(lo), num(hi)))
    }

    fn sequence(&self, checks: &[Check], since: &Option<Since>) -> Outcome {
        let start = self.mark_index(since).min(self.history.len());
        let n = self.history.len();
        let mut best = 0;
        for i in start..n {
            let k = checks
                .iter()
                .enumerate()
                .take_while(|(k, c)| i + k < n && self.at_frame(c, i + k))
                .count();
            if k == checks.len() {
                return outcome(true, String::new());
            }
            best = best.max(k);
        }
        let observed = match checks.get(best) {
            Some(c) if best > 0 => {
                format!("at most {best} held in a row; [{}] never followed", d::check(c))
            }
            _ => format!("[{}] never held", checks.first().map(d::check).unwrap_or_default()),
        };
        outcome(false, observed)
    }

    /// Evaluates `c` as of frame `i` alone (state at `i`, events of frame `i`).
    fn at_frame(&self, c: &Check, i: usize) -> bool {
        let Some(history) = self.history.get(..=i) else { return false };
        View { history, window_start: i, ..*self }.eval(c).ok
    }

    fn interval(
        &self,
        from: &Check,
        to: &Check,
        seconds: &NumMatch,
        since: &Option<Since>,
    ) -> Outcome {
        let start = self.mark_index(since).min(self.history.len());
        let Some(i) = (start..self.history.len()).find(|&i| self.at_frame(from, i)) else {
            return outcome(false, format!("[{}] never happened", d::check(from)));
        };
        let Some(j) = (i + 1..self.history.len()).find(|&j| self.at_frame(to, j)) else {
            return outcome(
                false,
                format!(
                    "[{}] at {} but [{}] never followed",
                    d::check(from),
                    secs(self.history[i].frame, self.fps),
                    d::check(to)
                ),
            );
        };
        let dt = (self.history[j].frame - self.history[i].frame) as f64 / f64::from(self.fps);
        let observed = format!(
            "the first at {}, the second at {}: {} s apart",
            secs(self.history[i].frame, self.fps),
            secs(self.history[j].frame, self.fps),
            num(dt)
        );
        outcome(seconds.test(dt), observed)
    }
}

/// Question texts of a frame: a `QUESTION` event's text, or for a sprite's ask (empty event
/// text) the say bubble set in the same frame.
pub(crate) fn question_texts(s: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for q in s.questions.iter().flatten() {
        if q.is_empty() {
            let bubble = s.says.iter().rev().find(|e| !e.text.is_empty()).map(|e| e.text.clone());
            out.push(bubble.unwrap_or_default());
        } else {
            out.push(q.clone());
        }
    }
    out
}

/// A probe's value in one frame.
pub(crate) fn probe(s: &Snapshot, p: &Probe) -> Option<Value> {
    match p {
        Probe::Sprite { sprite, prop, clone } => {
            instance(s, &sprite.resolved, *clone).map(|o| Value::Num(prop_value(o, *prop)))
        }
        Probe::Distance { sprite, to } => {
            let a = s.original(&sprite.resolved)?;
            let (x, y) = match to {
                Place::Point(x, y) => (*x, *y),
                Place::Sprite(b) => s.original(&b.resolved).map(|o| (o.x, o.y))?,
            };
            Some(Value::Num(libm::hypot(a.x - x, a.y - y)))
        }
        Probe::StageEffect(e) => Some(Value::Num(s.stage_effects[e.index()])),
        Probe::ClonesCreated(sprite) => {
            Some(Value::Num(f64::from(s.clones_created(&sprite.resolved))))
        }
        Probe::ClonesDeleted(sprite) => {
            let live = s.instances(&sprite.resolved).filter(|o| o.clone != 0).count() as f64;
            Some(Value::Num((f64::from(s.clones_created(&sprite.resolved)) - live).max(0.0)))
        }
        Probe::Variable { sprite, name } => {
            s.variable(sprite.as_ref().map(|r| r.resolved.as_str()), name).cloned()
        }
        Probe::ListLength { sprite, name } => s
            .list(sprite.as_ref().map(|r| r.resolved.as_str()), name)
            .map(|l| Value::Num(l.len() as f64)),
        Probe::Backdrop => Some(Value::Num(f64::from(s.backdrop) + 1.0)),
        Probe::Clones(sprite) => {
            Some(Value::Num(s.instances(&sprite.resolved).filter(|o| o.clone != 0).count() as f64))
        }
    }
}

/// A sprite's original (`clone` 0) or the clone with that serial.
pub(crate) fn instance<'s>(s: &'s Snapshot, name: &'s str, clone: u32) -> Option<&'s SpriteObs> {
    if clone == 0 {
        s.original(name)
    } else {
        s.instances(name).find(|o| o.clone == clone)
    }
}

pub(crate) fn prop_value(o: &SpriteObs, p: Prop) -> f64 {
    match p {
        Prop::X => o.x,
        Prop::Y => o.y,
        Prop::Direction => o.dir,
        Prop::Size => o.size,
        Prop::Costume => f64::from(o.costume) + 1.0,
        Prop::Layer => o.layer,
        Prop::Visible => f64::from(u8::from(o.visible)),
        Prop::Effect(e) => o.effects[e.index()],
    }
}

fn costume_is(c: &CostumeRef, index: u32, name: &str) -> bool {
    match c {
        CostumeRef::Name(n) => n == name,
        CostumeRef::Number(k) => *k == index + 1,
    }
}

/// Why a sprite instance does not meet the expectation (`None` when it does).
fn sprite_mismatch(o: &SpriteObs, e: &SpriteExpect) -> Option<String> {
    let mut bad = Vec::new();
    for (p, m) in &e.nums {
        let v = prop_value(o, *p);
        if !m.test(v) {
            bad.push(format!("{} is {}", d::prop(*p), num(v)));
        }
    }
    if let Some(v) = e.visible {
        if o.visible != v {
            bad.push(String::from(if o.visible { "it is visible" } else { "it is hidden" }));
        }
    }
    if let Some(c) = &e.costume {
        if !costume_is(c, o.costume, &o.costume_name) {
            bad.push(format!("costume is '{}' (number {})", o.costume_name, o.costume + 1));
        }
    }
    if let Some(m) = &e.costume_name {
        if !m.test(&o.costume_name) {
            bad.push(format!("costume is '{}'", o.costume_name));
        }
    }
    (!bad.is_empty()).then(|| bad.join(", "))
}

fn label(o: &SpriteObs) -> String {
    if o.clone == 0 {
        o.name.clone()
    } else {
        format!("{} clone {}", o.name, o.clone)
    }
}

fn state_check(now: &Snapshot, c: &Check) -> Outcome {
    match c {
        Check::Variable { sprite, name, expect } => {
            match now.variable(sprite.as_ref().map(|r| r.resolved.as_str()), name) {
                Some(v) => outcome(expect.test(v), format!("it is {}", d::value(v))),
                None => outcome(false, format!("variable {name} does not exist")),
            }
        }
        Check::List { sprite, name, expect } => match now
            .list(sprite.as_ref().map(|r| r.resolved.as_str()), name)
        {
            Some(items) => outcome(list_ok(items, expect), format!("it is {}", d::values(items))),
            None => outcome(false, format!("list {name} does not exist")),
        },
        Check::Sprite { sprite, clone, expect } => sprite_state(now, sprite, *clone, expect),
        Check::Backdrop(b) => outcome(
            costume_is(b, now.backdrop, &now.backdrop_name),
            format!("it is '{}' (number {})", now.backdrop_name, now.backdrop + 1),
        ),
        Check::CloneCount { sprite, count } => {
            let n = now.instances(&sprite.resolved).filter(|o| o.clone != 0).count();
            outcome(count.test(n as f64), format!("there are {n}"))
        }
        Check::Running(want) => {
            let n = now.threads;
            outcome((n > 0) == *want, format!("{n} scripts are running"))
        }
        other => outcome(false, format!("internal: {} is not a state check", d::check(other))),
    }
}

fn list_ok(items: &[Value], e: &ListExpect) -> bool {
    let eq = e.equals.as_ref().is_none_or(|want| {
        want.len() == items.len() && want.iter().zip(items).all(|(a, b)| compare(a, b) == 0.0)
    });
    let len = e.length.as_ref().is_none_or(|m| m.test(items.len() as f64));
    let has = e.contains.as_ref().is_none_or(|v| items.iter().any(|i| compare(i, v) == 0.0));
    eq && len && has
}

fn sprite_state(now: &Snapshot, sprite: &SpriteRef, sel: CloneSel, e: &SpriteExpect) -> Outcome {
    let name = sprite.resolved.as_str();
    let pick: Vec<&SpriteObs> = match sel {
        CloneSel::Original => now.original(name).into_iter().collect(),
        CloneSel::Serial(k) => now.instances(name).filter(|o| o.clone == k).collect(),
        CloneSel::Any | CloneSel::All => now.instances(name).collect(),
        CloneSel::AllClones => now.instances(name).filter(|o| o.clone != 0).collect(),
    };
    if pick.is_empty() {
        return outcome(false, format!("{} does not exist", d::instances(name, sel)));
    }
    let bad: Vec<String> = pick
        .iter()
        .filter_map(|o| sprite_mismatch(o, e).map(|m| format!("{}: {m}", label(o))))
        .collect();
    let ok = match sel {
        CloneSel::Any => bad.len() < pick.len(),
        _ => bad.is_empty(),
    };
    let observed = if bad.is_empty() {
        String::new()
    } else {
        bad.iter().take(4).cloned().collect::<Vec<_>>().join("; ")
    };
    outcome(ok, observed.to_string())
}
