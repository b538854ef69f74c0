//! Validating a parsed suite against a project: every sprite, variable, list, costume and
//! backdrop it names must exist, and every mark it reads must be set earlier in its case.
//! Sprite alternatives (`["Ball", "Sprite1"]`) are resolved here to the first that exists.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{SuiteError, SuiteErrorKind};
use super::facts::{join, ProjectFacts, TargetFacts};
use super::json::{child, index};
use super::model::{
    Case, Check, CostumeRef, Existence, Input, Missing, Place, Probe, Since, SpriteRef, Step,
    StepKind, Suite, Track, Wait,
};

type Result<T> = core::result::Result<T, SuiteError>;

/// The mark every case starts with.
pub const START_MARK: &str = "start";

/// Checks `suite` against `facts`, resolving sprite alternatives in place.
/// Under `"missing": "fail"` a sprite, variable or list the project lacks does not fail the
/// suite: it is recorded on its case ([`Case::missing`]), which then fails without running.
pub fn validate(suite: &mut Suite, facts: &ProjectFacts) -> Result<()> {
    for (i, case) in suite.cases.iter_mut().enumerate() {
        case.missing = None;
        match validate_case(case, facts, &index("tests", i)) {
            Ok(()) => {}
            Err(e) if suite.missing == Missing::Fail && is_missing(&e) => {
                case.missing = Some(alloc::string::ToString::to_string(&e));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A sprite, variable or list the project lacks (not a costume, a mark or a malformed suite).
fn is_missing(e: &SuiteError) -> bool {
    matches!(&e.kind, SuiteErrorKind::Unknown { what, .. } if matches!(*what, "sprite" | "variable" | "list"))
}

struct Ctx<'a> {
    facts: &'a ProjectFacts,
    marks: Vec<String>,
}

fn validate_case(case: &mut Case, facts: &ProjectFacts, path: &str) -> Result<()> {
    let mut cx = Ctx { facts, marks: alloc::vec![String::from(START_MARK)] };
    cx.steps(&mut case.steps, &child(path, "steps"))
}

fn unknown(path: &str, what: &'static str, name: &str, known: String) -> SuiteError {
    SuiteError::new(path, SuiteErrorKind::Unknown { what, name: String::from(name), known })
}

impl Ctx<'_> {
    fn steps(&mut self, steps: &mut [Step], path: &str) -> Result<()> {
        for (j, step) in steps.iter_mut().enumerate() {
            let sp = index(path, j);
            match &mut step.kind {
                StepKind::Do(input) => self.input(input, &sp)?,
                StepKind::Wait(Wait::Until { check, .. }) => {
                    self.check(check, &child(&child(&sp, "wait"), "until"))?
                }
                StepKind::Wait(Wait::For(_)) => {}
                StepKind::Expect(check) => self.check(check, &child(&sp, "expect"))?,
                StepKind::Mark(m) => self.marks.push(m.clone()),
                StepKind::Repeat { steps, until, .. } => {
                    self.check(until, &child(&sp, "until"))?;
                    self.steps(steps, &child(&sp, "repeat"))?;
                }
            }
        }
        Ok(())
    }

    fn sprite(&self, r: &mut SpriteRef, path: &str, stage_ok: bool) -> Result<()> {
        let found = r.names.iter().find(|n| {
            self.facts.sprite(n).is_some()
                || (stage_ok && self.facts.stage().is_some_and(|s| &s.name == *n))
        });
        match found {
            Some(n) => {
                r.resolved = n.clone();
                Ok(())
            }
            None => Err(unknown(path, "sprite", &r.names.join(" / "), self.facts.sprite_names())),
        }
    }

    fn target(&self, r: &Option<SpriteRef>) -> Option<&TargetFacts> {
        r.as_ref().and_then(|r| self.facts.sprite(&r.resolved))
    }

    fn opt_sprite(&self, r: &mut Option<SpriteRef>, path: &str) -> Result<()> {
        match r {
            Some(r) => self.sprite(r, &child(path, "sprite"), false),
            None => Ok(()),
        }
    }

    /// A variable (or list, when `list`) visible from the sprite, or anywhere when no sprite.
    fn variable(
        &self,
        sprite: &Option<SpriteRef>,
        name: &str,
        path: &str,
        list: bool,
    ) -> Result<()> {
        let pick = |t: &TargetFacts| if list { t.lists.clone() } else { t.variables.clone() };
        let has = |t: &TargetFacts| pick(t).iter().any(|n| n == name);
        let stage_has = self.facts.stage().is_some_and(has);
        let found = match self.target(sprite) {
            Some(t) => has(t) || stage_has,
            None => self.facts.targets.iter().any(has),
        };
        if found {
            return Ok(());
        }
        let mut known: Vec<String> = Vec::new();
        for t in &self.facts.targets {
            if t.is_stage
                || sprite.is_none()
                || self.target(sprite).is_some_and(|s| s.name == t.name)
            {
                known.extend(pick(t));
            }
        }
        let what = if list { "list" } else { "variable" };
        Err(unknown(path, what, name, join(known.iter().map(String::as_str))))
    }

    fn mark(&self, m: &Option<String>, path: &str) -> Result<()> {
        match m {
            Some(m) if !self.marks.contains(m) => {
                Err(SuiteError::new(path, SuiteErrorKind::UnknownMark(m.clone())))
            }
            _ => Ok(()),
        }
    }

    fn costume(
        &self,
        target: Option<&TargetFacts>,
        c: &CostumeRef,
        path: &str,
        what: &'static str,
    ) -> Result<()> {
        let Some(t) = target else { return Ok(()) };
        match c {
            CostumeRef::Name(n) if !t.costumes.contains(n) => {
                Err(unknown(path, what, n, join(t.costumes.iter().map(String::as_str))))
            }
            CostumeRef::Number(k) if *k as usize > t.costumes.len() => Err(SuiteError::new(
                path,
                SuiteErrorKind::BadValue(alloc::format!(
                    "{what} number {k} but {} has {}",
                    t.name,
                    t.costumes.len()
                )),
            )),
            _ => Ok(()),
        }
    }

    fn input(&self, input: &mut Input, path: &str) -> Result<()> {
        match input {
            Input::Click(r) => self.sprite(r, &child(path, "sprite"), true),
            Input::FlagSprite(r) => self.sprite(r, &child(path, "sprite"), false),
            Input::SetVariable { sprite, name, .. } => {
                self.opt_sprite(sprite, path)?;
                self.variable(sprite, name, &child(path, "variable"), false)
            }
            Input::SetList { sprite, name, .. } => {
                self.opt_sprite(sprite, path)?;
                self.variable(sprite, name, &child(path, "list"), true)
            }
            Input::SetSprite { sprite, onto, .. } => {
                if let Some(o) = onto {
                    self.sprite(o, &child(path, "onto"), false)?;
                }
                self.sprite(sprite, &child(path, "sprite"), false)
            }
            Input::MouseOnto { sprite, .. } => self.sprite(sprite, &child(path, "onto"), false),
            _ => Ok(()),
        }
    }

    fn probe(&self, p: &mut Probe, path: &str) -> Result<()> {
        match p {
            Probe::Sprite { sprite, .. } => self.sprite(sprite, &child(path, "sprite"), false),
            Probe::Variable { sprite, name } => {
                self.opt_sprite(sprite, path)?;
                self.variable(sprite, name, &child(path, "variable"), false)
            }
            Probe::ListLength { sprite, name } => {
                self.opt_sprite(sprite, path)?;
                self.variable(sprite, name, &child(path, "list_length"), true)
            }
            Probe::Backdrop | Probe::StageEffect(_) => Ok(()),
            Probe::Clones(s) => self.sprite(s, &child(path, "clones"), false),
            Probe::ClonesCreated(s) => self.sprite(s, &child(path, "clones_created"), false),
            Probe::ClonesDeleted(s) => self.sprite(s, &child(path, "clones_deleted"), false),
            Probe::Distance { sprite, to } => {
                self.sprite(sprite, &child(path, "distance"), false)?;
                match to {
                    Place::Sprite(b) => self.sprite(b, &child(path, "to"), false),
                    Place::Point(..) => Ok(()),
                }
            }
        }
    }

    fn check(&self, c: &mut Check, path: &str) -> Result<()> {
        let since = |m: &Option<Since>| {
            self.mark(&m.as_ref().map(|s| s.mark.clone()), &child(path, "since"))
        };
        match c {
            Check::Variable { sprite, name, .. } => {
                self.opt_sprite(sprite, path)?;
                self.variable(sprite, name, &child(path, "variable"), false)
            }
            Check::List { sprite, name, .. } => {
                self.opt_sprite(sprite, path)?;
                self.variable(sprite, name, &child(path, "list"), true)
            }
            Check::Sprite { sprite, expect, .. } => {
                self.sprite(sprite, &child(path, "sprite"), false)?;
                match &expect.costume {
                    Some(cr) => {
                        let t = self.facts.sprite(&sprite.resolved);
                        self.costume(t, cr, &child(path, "costume"), "costume")
                    }
                    None => Ok(()),
                }
            }
            Check::Backdrop(b) => {
                self.costume(self.facts.stage(), b, &child(path, "backdrop"), "backdrop")
            }
            Check::CloneCount { sprite, .. } => self.sprite(sprite, &child(path, "clones"), false),
            Check::Running(_) => Ok(()),
            Check::Says { sprite, since: s, .. } | Check::SaysInOrder { sprite, since: s, .. } => {
                if let Some(r) = sprite {
                    self.sprite(r, &child(path, "sprite"), true)?;
                }
                since(s)
            }
            Check::Asked { since: s, .. } | Check::Broadcast { since: s, .. } => since(s),
            Check::Moved { sprite, since: s, .. } => {
                self.sprite(sprite, &child(path, "moved"), false)?;
                since(s)
            }
            Check::Changed { probe, from, to, .. } => {
                self.probe(probe, &child(path, "changed"))?;
                self.mark(&Some(from.clone()), &child(path, "from"))?;
                self.mark(to, &child(path, "to"))
            }
            Check::Monotonic { probe, since: s, .. } => {
                self.probe(probe, &child(path, "monotonic"))?;
                since(s)
            }
            Check::Extent { probe, since: s, .. } => {
                self.probe(probe, &child(path, "extent"))?;
                since(s)
            }
            Check::Interval { from, to, since: s, .. } => {
                self.check(from, &child(&child(path, "interval"), "from"))?;
                self.check(to, &child(&child(path, "interval"), "to"))?;
                since(s)
            }
            Check::Opcode { sprite, .. }
            | Check::BlockCount { sprite, .. }
            | Check::CostumeCount { sprite, .. } => self.opt_sprite(sprite, path),
            Check::Ever { check, since: s } => {
                self.check(check, &child(path, "ever"))?;
                since(s)
            }
            Check::Always { check, since: s } => {
                self.check(check, &child(path, "always"))?;
                since(s)
            }
            Check::Fraction { check, since: s, .. } => {
                self.check(check, &child(path, "fraction"))?;
                since(s)
            }
            Check::CountOf { checks, .. } => self.checks(checks, &child(path, "count_of")),
            Check::Value { probe, .. } => self.probe(probe, &child(path, "value")),
            Check::AtMark { mark, check } => {
                self.mark(&Some(mark.clone()), &child(path, "at_mark"))?;
                self.check(check, &child(path, "check"))
            }
            Check::Series { track, since: s, .. } => {
                match track {
                    Track::Number(p) => self.probe(p, &child(path, "series"))?,
                    Track::Position { sprite, .. } => {
                        self.sprite(sprite, &child(&child(path, "series"), "sprite"), false)?
                    }
                }
                since(s)
            }
            Check::Sequence { checks, since: s } => {
                self.checks(checks, &child(path, "sequence"))?;
                since(s)
            }
            Check::Exists(Existence::Sprite(r)) => {
                // Resolve alternatives when one exists; a missing sprite is the check's answer.
                let _ = self.sprite(r, path, false);
                Ok(())
            }
            Check::Exists(Existence::Variable { sprite, .. }) => {
                if let Some(r) = sprite {
                    let _ = self.sprite(r, path, false);
                }
                Ok(())
            }
            Check::Not(inner) => self.check(inner, &child(path, "not")),
            Check::All(list) => self.checks(list, &child(path, "all")),
            Check::Any(list) => self.checks(list, &child(path, "any")),
        }
    }

    fn checks(&self, list: &mut [Check], path: &str) -> Result<()> {
        for (k, item) in list.iter_mut().enumerate() {
            self.check(item, &index(path, k))?;
        }
        Ok(())
    }
}
