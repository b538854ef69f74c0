//! Recording runs for oracle synthesis: a case of a scenario suite runs on the VM under one
//! seed, and the state signals (variables, lists, sprite pose, costume, visibility, clone
//! counts, backdrop) are kept at every checkpoint (every `every` frames and the final frame),
//! with the broadcasts sent and the bubbles said over the whole run. Keys are interned per
//! case in a [`KeyTable`] shared by the gold and the buggy runs.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use crate::scratch::image::Image;
use crate::scratch::suite::model::Case;
use crate::scratch::suite::{run_case, Action, ProjectFacts, Snapshot, Subject, VmSubject};
use crate::scratch::value::Value;

/// A state signal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// A variable: the stage's (`None`) or a sprite's local one.
    Var(Option<String>, String),
    /// A list, as for variables.
    List(Option<String>, String),
    /// A sprite's x, y, direction or size.
    Pose(String, Pose),
    /// A sprite's costume number (from 0).
    Costume(String),
    /// A sprite's visibility.
    Visible(String),
    /// Live clones of a sprite.
    Clones(String),
    /// The backdrop number (from 0).
    Backdrop,
}

/// A pose component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pose {
    X,
    Y,
    Direction,
    Size,
}

impl Pose {
    /// Its name in a suite's sprite check.
    pub fn name(self) -> &'static str {
        match self {
            Pose::X => "x",
            Pose::Y => "y",
            Pose::Direction => "direction",
            Pose::Size => "size",
        }
    }
}

impl Key {
    /// The signal family (`docs/oracles.md`).
    pub fn family(&self) -> &'static str {
        match self {
            Key::Var(..) => "vars",
            Key::List(..) => "lists",
            Key::Pose(..) => "pose",
            Key::Costume(_) => "costume",
            Key::Visible(_) => "visibility",
            Key::Clones(_) => "clones",
            Key::Backdrop => "backdrop",
        }
    }
}

/// An observed value.
#[derive(Debug, Clone)]
pub enum Obs {
    Value(Value),
    List(Vec<Value>),
    Num(f64),
    Count(u32),
    Bool(bool),
}

impl PartialEq for Obs {
    /// Exact sameness (strict equality of values; NaN differs from itself).
    fn eq(&self, other: &Obs) -> bool {
        match (self, other) {
            (Obs::Value(a), Obs::Value(b)) => a.strict_eq(b),
            (Obs::List(a), Obs::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.strict_eq(y))
            }
            (Obs::Num(a), Obs::Num(b)) => a == b,
            (Obs::Count(a), Obs::Count(b)) => a == b,
            (Obs::Bool(a), Obs::Bool(b)) => a == b,
            _ => false,
        }
    }
}

/// Keys of one case, interned.
#[derive(Debug, Clone, Default)]
pub struct KeyTable {
    pub keys: Vec<Key>,
    index: BTreeMap<Key, usize>,
}

impl KeyTable {
    fn id(&mut self, key: Key) -> usize {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = self.keys.len();
        self.keys.push(key.clone());
        self.index.insert(key, i);
        i
    }
}

/// The state at one checkpoint: values by key id (`None`: absent).
pub type State = Vec<Option<Obs>>;

/// One recorded run of one case under one seed.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// The case ran to its end without a failing step.
    pub completed: bool,
    /// Why it did not.
    pub reason: Option<String>,
    /// Frames run.
    pub frames: u64,
    /// Block operations run.
    pub block_ops: u64,
    /// `(frame, state)` every `every` frames.
    pub checkpoints: Vec<(u64, State)>,
    /// The state after the last frame.
    pub last: State,
    /// Broadcasts sent, by lower-cased name.
    pub broadcasts: BTreeMap<String, u32>,
    /// `(sprite, text)` said or thought.
    pub says: BTreeSet<(String, String)>,
}

fn observe(snap: &Snapshot, table: &mut KeyTable) -> State {
    let mut out: Vec<(usize, Obs)> = Vec::new();
    let mut put = |t: &mut KeyTable, k: Key, o: Obs| out.push((t.id(k), o));
    for (n, v) in &snap.vars {
        put(table, Key::Var(None, n.clone()), Obs::Value(v.clone()));
    }
    for (n, l) in &snap.lists {
        put(table, Key::List(None, n.clone()), Obs::List(l.clone()));
    }
    put(table, Key::Backdrop, Obs::Count(snap.backdrop));
    let mut clones: BTreeMap<&str, u32> = BTreeMap::new();
    for s in &snap.sprites {
        let c = clones.entry(s.name.as_str()).or_insert(0);
        if s.clone != 0 {
            *c += 1;
            continue;
        }
        let name = &s.name;
        for (p, v) in
            [(Pose::X, s.x), (Pose::Y, s.y), (Pose::Direction, s.dir), (Pose::Size, s.size)]
        {
            put(table, Key::Pose(name.clone(), p), Obs::Num(v));
        }
        put(table, Key::Costume(name.clone()), Obs::Count(s.costume));
        put(table, Key::Visible(name.clone()), Obs::Bool(s.visible));
        for (n, v) in &s.vars {
            put(table, Key::Var(Some(name.clone()), n.clone()), Obs::Value(v.clone()));
        }
        for (n, l) in &s.lists {
            put(table, Key::List(Some(name.clone()), n.clone()), Obs::List(l.clone()));
        }
    }
    for (name, n) in clones {
        put(table, Key::Clones(String::from(name)), Obs::Count(n));
    }
    let mut state: State = alloc::vec![None; table.keys.len()];
    for (i, o) in out {
        state[i] = Some(o);
    }
    state
}

struct Recorder<'a> {
    inner: VmSubject,
    table: &'a mut KeyTable,
    every: u64,
    cap: u64,
    run: Run,
}

impl Subject for Recorder<'_> {
    fn act(&mut self, action: &Action) -> Result<(), String> {
        self.inner.act(action)
    }

    fn block_ops(&self) -> u64 {
        self.inner.block_ops()
    }

    fn initial(&self) -> Option<Snapshot> {
        self.inner.initial()
    }

    fn step(&mut self, out: &mut Snapshot) -> Result<(), String> {
        if self.run.frames >= self.cap {
            return Err(alloc::format!("the oracle's tick budget of {} frames ran out", self.cap));
        }
        self.inner.step(out)?;
        self.run.frames += 1;
        for b in &out.broadcasts {
            *self.run.broadcasts.entry(crate::scratch::value::case::to_lower(b)).or_insert(0) += 1;
        }
        for s in &out.says {
            if !s.text.is_empty() && self.run.says.len() < MAX_SAYS {
                self.run.says.insert((s.target.clone(), s.text.clone()));
            }
        }
        if self.run.frames.is_multiple_of(self.every) {
            let state = observe(out, self.table);
            self.run.checkpoints.push((self.run.frames, state));
        }
        Ok(())
    }
}

/// Most distinct bubbles kept per run.
const MAX_SAYS: usize = 256;

/// Runs `case` on `image` under `seed`, at most `cfg.ticks` frames, keeping checkpoints every
/// `cfg.every` frames.
pub fn record(
    image: &Image,
    facts: &ProjectFacts,
    fps: u32,
    case: &Case,
    seed: u64,
    table: &mut KeyTable,
    cfg: &super::OracleConfig,
) -> Run {
    let (every, cap) = (cfg.every, cfg.ticks);
    let inner = match VmSubject::new(image.clone(), fps, seed) {
        Ok(s) => s,
        Err(e) => {
            return Run {
                reason: Some(alloc::format!("the project could not start: {e}")),
                ..Run::default()
            }
        }
    };
    let mut rec = Recorder { inner, table, every: every.max(1), cap, run: Run::default() };
    let verdict = run_case(case, fps, facts, &mut rec);
    let snap = rec.inner.snapshot();
    let last = observe(&snap, rec.table);
    let mut run = rec.run;
    run.last = last;
    run.completed = verdict.passed;
    run.reason = verdict.reason;
    run.block_ops = verdict.block_ops;
    run
}
