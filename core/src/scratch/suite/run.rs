//! Running a case: drive a [`Subject`] frame by frame with the case's inputs, answer its
//! questions, evaluate waits and expectations over the observed frames, and return a verdict
//! with a reason a person can act on.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::answer::answer_text;
use super::describe::{self as d, secs};
use super::eval::{question_texts, View};
use super::facts::ProjectFacts;
use super::model::{AnswerRule, Case, Check, Input, Span, Step, StepKind, Suite, Wait};
use super::observe::Snapshot;
use super::validate::START_MARK;
use crate::scratch::value::Value;

/// An input as the project under test receives it (applied at the start of the next frame).
#[derive(Debug, Clone)]
pub enum Action {
    GreenFlag,
    /// Start one sprite's green-flag scripts only.
    FlagSprite(String),
    StopAll,
    KeyDown(String),
    KeyUp(String),
    MouseMove {
        x: f64,
        y: f64,
    },
    MouseDown {
        pos: Option<(f64, f64)>,
    },
    MouseUp {
        pos: Option<(f64, f64)>,
    },
    /// The button flag written without an event, after moving to `pos` if given.
    MouseFlag {
        down: bool,
        pos: Option<(f64, f64)>,
    },
    /// Click a sprite (by name) or the stage (`"Stage"`).
    Click(String),
    Broadcast(String),
    Answer(String),
    SetVariable {
        sprite: Option<String>,
        name: String,
        value: Value,
    },
    SetList {
        sprite: Option<String>,
        name: String,
        items: Vec<Value>,
    },
    SetSprite {
        sprite: String,
        x: Option<f64>,
        y: Option<f64>,
        direction: Option<f64>,
    },
}

/// A project under test: the VM (or a recorded trace) seen through inputs and observations.
pub trait Subject {
    /// Queues an input for the start of the next frame; `Err` says why it cannot be applied.
    fn act(&mut self, action: &Action) -> Result<(), String>;
    /// Runs one frame and writes its observation into `out` (`out.frame` is set by the runner).
    fn step(&mut self, out: &mut Snapshot) -> Result<(), String>;
    /// The state before any frame has run (no events), for checks made before the first
    /// frame; `None` when the subject cannot tell (a recorded trace).
    fn initial(&self) -> Option<Snapshot> {
        None
    }
    /// Block operations run so far (`Vm::block_ops`); a subject that runs no blocks, such
    /// as a recorded trace, reports 0.
    fn block_ops(&self) -> u64;
}

/// The verdict on one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseVerdict {
    pub name: String,
    pub passed: bool,
    /// Why it failed (`None` when it passed).
    pub reason: Option<String>,
    /// Frames run.
    pub frames: u64,
    /// Block operations run (the subject's [`Subject::block_ops`]).
    pub block_ops: u64,
}

struct Runner<'a, S> {
    subject: &'a mut S,
    fps: u32,
    facts: &'a ProjectFacts,
    history: Vec<Snapshot>,
    /// Steps executed so far (repeats run steps again): bounded by [`MAX_STEP_RUNS`].
    step_runs: u64,
    /// The state before the first frame, when the subject can tell.
    before: Option<Snapshot>,
    marks: Vec<(String, usize)>,
    budget: u64,
    answers: &'a [AnswerRule],
    used: Vec<bool>,
    asked: u32,
    open_questions: u32,
    scheduled: Vec<(u64, String)>,
    timeout: f64,
}

type Failure = String;

/// Most steps one case may execute, counting every round of a `repeat` (nested repeats could
/// otherwise queue inputs without end before a frame runs).
pub const MAX_STEP_RUNS: u64 = 1_000_000;

impl<S: Subject> Runner<'_, S> {
    fn frames(&self) -> u64 {
        self.history.len() as u64
    }

    fn act(&mut self, action: &Action) -> Result<(), Failure> {
        self.subject.act(action).map_err(|e| format!("input {action:?} failed: {e}"))
    }

    /// Runs one frame: due answers first, then the step, then question handling.
    fn step(&mut self) -> Result<(), Failure> {
        if self.frames() >= self.budget {
            return Err(format!("the case ran out of its {} s budget", d::num(self.timeout)));
        }
        let now = self.frames();
        let mut k = 0;
        while k < self.scheduled.len() {
            if self.scheduled[k].0 <= now {
                let (_, text) = self.scheduled.remove(k);
                self.open_questions = self.open_questions.saturating_sub(1);
                self.act(&Action::Answer(text))?;
            } else {
                k += 1;
            }
        }
        let mut snap = Snapshot::default();
        self.subject
            .step(&mut snap)
            .map_err(|e| format!("the project failed at {}: {e}", secs(now, self.fps)))?;
        snap.frame = now;
        snap.update_clone_serials(self.history.last());
        for q in &snap.questions {
            if q.is_none() {
                self.open_questions = 0;
                self.scheduled.clear();
            }
        }
        for text in question_texts(&snap) {
            self.asked += 1;
            self.open_questions += 1;
            if let Some((reply, delay)) = self.choose(&text) {
                self.scheduled.push((now + 1 + delay, reply));
            }
        }
        self.history.push(snap);
        Ok(())
    }

    /// The answer to question number `self.asked` with text `q`, and its delay in frames.
    fn choose(&mut self, q: &str) -> Option<(String, u64)> {
        let n = self.asked;
        let pick = self
            .answers
            .iter()
            .position(|r| r.nth == Some(n))
            .or_else(|| {
                self.answers
                    .iter()
                    .position(|r| r.nth.is_none() && r.when.as_ref().is_some_and(|w| w.test(q)))
            })
            .or_else(|| {
                (0..self.answers.len()).find(|&i| {
                    let r = &self.answers[i];
                    r.nth.is_none() && r.when.is_none() && !self.used[i]
                })
            })?;
        self.used[pick] = true;
        let rule = &self.answers[pick];
        Some((answer_text(&rule.reply, q), rule.delay.frames(self.fps)))
    }

    fn advance_to(&mut self, frame: u64) -> Result<(), Failure> {
        while self.frames() < frame {
            self.step()?;
        }
        Ok(())
    }

    fn view(&self, window_start: usize) -> View<'_> {
        View {
            history: &self.history,
            before: self.before.as_ref(),
            fps: self.fps,
            marks: &self.marks,
            facts: self.facts,
            window_start,
        }
    }

    fn input(&mut self, input: &Input) -> Result<(), Failure> {
        let action = match input {
            Input::GreenFlag => Action::GreenFlag,
            Input::FlagSprite(s) => Action::FlagSprite(s.resolved.clone()),
            Input::StopAll => Action::StopAll,
            Input::KeyPress { key, hold } => {
                self.act(&Action::KeyDown(key.clone()))?;
                let target = self.frames() + hold.frames(self.fps).max(1);
                self.advance_to(target)?;
                Action::KeyUp(key.clone())
            }
            Input::KeyDown(k) => Action::KeyDown(k.clone()),
            Input::KeyUp(k) => Action::KeyUp(k.clone()),
            Input::MouseMove { x, y } => Action::MouseMove { x: *x, y: *y },
            Input::MouseOnto { sprite, x, y, offset } => {
                let (sx, sy) = self.position_of(&sprite.resolved)?;
                Action::MouseMove { x: x.unwrap_or(sx) + offset.0, y: y.unwrap_or(sy) + offset.1 }
            }
            Input::MouseDown { pos } => Action::MouseDown { pos: *pos },
            Input::MouseUp { pos } => Action::MouseUp { pos: *pos },
            Input::MouseFlag { down, pos } => Action::MouseFlag { down: *down, pos: *pos },
            Input::Click(s) => Action::Click(s.resolved.clone()),
            Input::Broadcast(m) => Action::Broadcast(m.clone()),
            Input::Answer(text) => {
                if self.open_questions == 0 {
                    return Err(format!(
                        "answer '{text}' given at {} but no question is pending",
                        secs(self.frames(), self.fps)
                    ));
                }
                self.open_questions -= 1;
                Action::Answer(text.clone())
            }
            Input::SetVariable { sprite, name, value } => Action::SetVariable {
                sprite: sprite.as_ref().map(|s| s.resolved.clone()),
                name: name.clone(),
                value: value.clone(),
            },
            Input::SetList { sprite, name, items } => Action::SetList {
                sprite: sprite.as_ref().map(|s| s.resolved.clone()),
                name: name.clone(),
                items: items.clone(),
            },
            Input::SetSprite { sprite, x, y, direction, onto: None, .. } => Action::SetSprite {
                sprite: sprite.resolved.clone(),
                x: *x,
                y: *y,
                direction: *direction,
            },
            Input::SetSprite { sprite, x, y, direction, onto: Some(onto), offset } => {
                let (ox, oy) = self.position_of(&onto.resolved)?;
                Action::SetSprite {
                    sprite: sprite.resolved.clone(),
                    x: Some(x.unwrap_or(ox) + offset.0),
                    y: Some(y.unwrap_or(oy) + offset.1),
                    direction: *direction,
                }
            }
        };
        self.act(&action)
    }

    /// Where a sprite's original is now (after the last frame, or before the first).
    fn position_of(&self, sprite: &str) -> Result<(f64, f64), Failure> {
        self.history
            .last()
            .or(self.before.as_ref())
            .and_then(|s| s.original(sprite))
            .map(|o| (o.x, o.y))
            .ok_or_else(|| {
                format!("{sprite} was not observed at {}", secs(self.frames(), self.fps))
            })
    }

    /// Runs a frame while waiting for `what`: running out of the case's budget says so.
    /// One frame of a wait: a case budget running out mid-wait says what was awaited and what
    /// was seen last.
    fn step_waiting(&mut self, what: &Check, observed: &str) -> Result<(), Failure> {
        self.step().map_err(|e| {
            if self.frames() >= self.budget {
                format!("{e}, waiting for {}; {observed}", d::check(what))
            } else {
                e
            }
        })
    }

    fn wait_until(&mut self, check: &Check, timeout: Span, required: bool) -> Result<(), Failure> {
        let start = self.history.len();
        let deadline = self.frames() + timeout.frames(self.fps);
        loop {
            let o = self.view(start).eval(check);
            if o.ok {
                return Ok(());
            }
            if self.frames() >= deadline {
                if !required {
                    return Ok(());
                }
                let by = match timeout {
                    Span::Frames(f) => format!("{f} frames"),
                    Span::Seconds(s) => format!("{} s", d::num(s)),
                };
                return Err(format!(
                    "expected {} within {by} (by {}); {}",
                    d::check(check),
                    secs(deadline, self.fps),
                    o.observed
                ));
            }
            self.step_waiting(check, &o.observed)?;
        }
    }

    fn repeat(
        &mut self,
        steps: &[Step],
        until: &Check,
        max: u32,
        required: bool,
    ) -> Result<(), Failure> {
        let start = self.history.len();
        let mut rounds = 0u32;
        loop {
            let o = self.view(start).eval(until);
            if o.ok {
                return Ok(());
            }
            if rounds >= max {
                if !required {
                    return Ok(());
                }
                return Err(format!(
                    "expected {} within {max} rounds (by {}); {}",
                    d::check(until),
                    secs(self.frames(), self.fps),
                    o.observed
                ));
            }
            rounds += 1;
            self.run_steps(steps).map_err(|e| {
                let e = if self.frames() >= self.budget {
                    format!("{e} while repeating until {}", d::check(until))
                } else {
                    e
                };
                format!("round {rounds}: {e}")
            })?;
        }
    }

    fn run(&mut self, case: &Case) -> Result<(), Failure> {
        self.run_steps(&case.steps)
    }

    fn run_steps(&mut self, steps: &[Step]) -> Result<(), Failure> {
        for (i, step) in steps.iter().enumerate() {
            self.step_runs += 1;
            if self.step_runs > MAX_STEP_RUNS {
                return Err(format!(
                    "step {}: the case ran more than {MAX_STEP_RUNS} steps (repeats included)",
                    i + 1
                ));
            }
            if let Some(at) = step.at {
                self.advance_to(at.frames(self.fps))?;
            }
            let res = match &step.kind {
                StepKind::Do(input) => self.input(input),
                StepKind::Wait(Wait::For(span)) => {
                    let target = self.frames() + span.frames(self.fps);
                    self.advance_to(target)
                }
                StepKind::Wait(Wait::Until { check, timeout, required }) => {
                    self.wait_until(check, *timeout, *required)
                }
                StepKind::Expect(check) => {
                    let o = self.view(0).eval(check);
                    if o.ok {
                        Ok(())
                    } else {
                        Err(format!(
                            "expected {} at {}; {}",
                            d::check(check),
                            secs(self.frames(), self.fps),
                            o.observed
                        ))
                    }
                }
                StepKind::Mark(m) => {
                    self.marks.push((m.clone(), self.history.len()));
                    Ok(())
                }
                StepKind::Repeat { steps, until, max, required } => {
                    self.repeat(steps, until, *max, *required)
                }
            };
            res.map_err(|e| format!("step {}: {e}", i + 1))?;
        }
        Ok(())
    }
}

/// Runs one case on a fresh subject.
pub fn run_case<S: Subject>(
    case: &Case,
    fps: u32,
    facts: &ProjectFacts,
    subject: &mut S,
) -> CaseVerdict {
    let budget = Span::Seconds(case.timeout).frames(fps);
    let before = subject.initial();
    let mut r = Runner {
        subject,
        fps,
        facts,
        history: Vec::new(),
        step_runs: 0,
        before,
        marks: alloc::vec![(String::from(START_MARK), 0)],
        budget,
        answers: &case.answers,
        used: alloc::vec![false; case.answers.len()],
        asked: 0,
        open_questions: 0,
        scheduled: Vec::new(),
        timeout: case.timeout,
    };
    let result = match &case.missing {
        Some(what) => Err(format!("the project lacks what the case needs: {what}")),
        None => r.run(case),
    };
    CaseVerdict {
        name: case.name.clone(),
        passed: result.is_ok(),
        reason: result.err(),
        frames: r.frames(),
        block_ops: r.subject.block_ops(),
    }
}

/// Runs every case of a validated suite, each on a subject made by `make(seed)`.
pub fn run_suite<S, F>(
    suite: &Suite,
    facts: &ProjectFacts,
    seed: u64,
    mut make: F,
) -> Vec<CaseVerdict>
where
    S: Subject,
    F: FnMut(u64) -> Result<S, String>,
{
    suite
        .cases
        .iter()
        .map(|case| match make(seed) {
            Ok(mut subject) => run_case(case, suite.fps, facts, &mut subject),
            Err(e) => CaseVerdict {
                name: case.name.clone(),
                passed: false,
                reason: Some(format!("the project could not start: {e}")),
                frames: 0,
                block_ops: 0,
            },
        })
        .collect()
}
