//! The feature language of oracle synthesis (SPEC §2.6 `EXTRACTFEATURES`, `HOLDPROB`):
//! atomic predicates over one recorded run, their hold rates over the gold and the buggy
//! runs, and the choice of the few that become assertions.
//!
//! - `at(c, key == v)`: a state signal at checkpoint frame c;
//! - `final(key == v)`: a state signal after the last frame;
//! - `broadcast(m) == n`: how often message m was sent over the run;
//! - `says(sprite, text)`: a bubble shown at some time in the run.
//!
//! Candidate values come from the gold runs; a feature is accepted when it holds in at
//! least `theta_pass` of the gold runs and at most `theta_fail` of the buggy ones.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::record::{Key, Obs, Run, State};
use crate::scratch::value::cast::compare;

/// Tolerance of pose comparisons (x, y, direction, size), as the spec sets it.
pub const POSE_TOLERANCE: f64 = 0.5;

/// What a feature tests.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// A state signal at a checkpoint frame.
    At { frame: u64, key: usize, value: Obs },
    /// A state signal after the last frame.
    Final { key: usize, value: Obs },
    /// Times a message was sent (lower-cased name).
    Broadcast { message: String, count: u32 },
    /// A bubble text of a sprite.
    Says { sprite: String, text: String },
}

impl Test {
    /// Preference of the assertion kinds: broadcasts, then final states, then bubbles, then
    /// checkpoints (SPEC §2.6, "Choosing 3–5").
    pub fn rank(&self) -> u8 {
        match self {
            Test::Broadcast { .. } => 0,
            Test::Final { .. } => 1,
            Test::Says { .. } => 2,
            Test::At { .. } => 3,
        }
    }

    /// The frame it is evaluated at (0 for whole-run features, which go last in a case).
    pub fn frame(&self) -> u64 {
        match self {
            Test::At { frame, .. } => *frame,
            _ => u64::MAX,
        }
    }
}

/// A candidate feature of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Feature {
    /// Index of the case.
    pub case: usize,
    /// The predicate.
    pub test: Test,
    /// Hold rate over the gold runs.
    pub p_gold: f64,
    /// Hold rate over the buggy runs.
    pub p_bug: f64,
}

/// Two observations match as the suite's checks compare them.
pub fn same(key: &Key, a: &Obs, b: &Obs) -> bool {
    match (a, b) {
        (Obs::Value(x), Obs::Value(y)) => compare(x, y) == 0.0,
        (Obs::List(x), Obs::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| compare(p, q) == 0.0)
        }
        (Obs::Num(x), Obs::Num(y)) => {
            let tol = if matches!(key, Key::Pose(..)) { POSE_TOLERANCE } else { 0.0 };
            libm::fabs(x - y) <= tol
        }
        (Obs::Count(x), Obs::Count(y)) => x == y,
        (Obs::Bool(x), Obs::Bool(y)) => x == y,
        _ => false,
    }
}

/// The value can be written in a suite (finite numbers; lists of at most 100 items).
pub fn expressible(o: &Obs) -> bool {
    use crate::scratch::value::Value;
    let finite =
        |v: &Value| !matches!(v, Value::Num(n) if !n.is_finite()) && !matches!(v, Value::Undefined);
    match o {
        Obs::Value(v) => finite(v),
        Obs::List(l) => l.len() <= 100 && l.iter().all(finite),
        Obs::Num(n) => n.is_finite(),
        Obs::Count(_) | Obs::Bool(_) => true,
    }
}

fn value_at(state: &State, key: usize) -> Option<&Obs> {
    state.get(key).and_then(Option::as_ref)
}

fn checkpoint(run: &Run, frame: u64) -> Option<&State> {
    run.checkpoints.binary_search_by_key(&frame, |(f, _)| *f).ok().map(|i| &run.checkpoints[i].1)
}

/// Whether `test` holds on `run` (keys of `keys`).
pub fn holds(test: &Test, run: &Run, keys: &[Key]) -> bool {
    match test {
        Test::At { frame, key, value } => checkpoint(run, *frame)
            .and_then(|s| value_at(s, *key))
            .is_some_and(|o| same(&keys[*key], o, value)),
        Test::Final { key, value } => {
            run.completed && value_at(&run.last, *key).is_some_and(|o| same(&keys[*key], o, value))
        }
        Test::Broadcast { message, count } => {
            run.completed && run.broadcasts.get(message).copied().unwrap_or(0) == *count
        }
        Test::Says { sprite, text } => run.says.contains(&(sprite.clone(), text.clone())),
    }
}

fn rate(test: &Test, runs: &[Run], keys: &[Key]) -> f64 {
    if runs.is_empty() {
        return 0.0;
    }
    runs.iter().filter(|r| holds(test, r, keys)).count() as f64 / runs.len() as f64
}

/// Every candidate feature of one case whose hold rates differ between gold and buggy
/// (those with equal rates can never separate them), plus how many candidates there were.
/// `gold` runs must all have completed.
pub fn candidates(case: usize, gold: &[Run], bug: &[Run], keys: &[Key]) -> (Vec<Feature>, usize) {
    let mut tests: Vec<Test> = Vec::new();
    let Some(first) = gold.first() else { return (Vec::new(), 0) };
    // Distinct gold values of one key at one point (at most one per gold run).
    let distinct = |values: &mut Vec<Obs>, key: usize, o: &Obs| {
        if expressible(o) && !values.iter().any(|v| v == o || same(&keys[key], v, o)) {
            values.push(o.clone());
        }
    };
    for (frame, _) in &first.checkpoints {
        for key in 0..keys.len() {
            let mut values: Vec<Obs> = Vec::new();
            for g in gold {
                if let Some(o) = checkpoint(g, *frame).and_then(|s| value_at(s, key)) {
                    distinct(&mut values, key, o);
                }
            }
            tests.extend(values.into_iter().map(|value| Test::At { frame: *frame, key, value }));
        }
    }
    for key in 0..keys.len() {
        let mut values: Vec<Obs> = Vec::new();
        for g in gold {
            if let Some(o) = value_at(&g.last, key) {
                distinct(&mut values, key, o);
            }
        }
        tests.extend(values.into_iter().map(|value| Test::Final { key, value }));
    }
    let mut messages: BTreeSet<&String> = BTreeSet::new();
    for r in gold.iter().chain(bug) {
        messages.extend(r.broadcasts.keys());
    }
    for m in messages {
        let mut counts: BTreeSet<u32> = BTreeSet::new();
        for g in gold {
            counts.insert(g.broadcasts.get(m).copied().unwrap_or(0));
        }
        for count in counts {
            tests.push(Test::Broadcast { message: m.clone(), count });
        }
    }
    let mut says: BTreeSet<&(String, String)> = BTreeSet::new();
    for g in gold {
        says.extend(g.says.iter());
    }
    for (sprite, text) in says {
        tests.push(Test::Says { sprite: sprite.clone(), text: text.clone() });
    }
    let total = tests.len();
    let out = tests
        .into_iter()
        .filter_map(|test| {
            let p_gold = rate(&test, gold, keys);
            let p_bug = rate(&test, bug, keys);
            (p_gold != p_bug).then_some(Feature { case, test, p_gold, p_bug })
        })
        .collect();
    (out, total)
}

/// Identity of a feature's state key across cases (for "at most 2 per key").
fn key_of<'a>(f: &Feature, keys: &'a [Vec<Key>]) -> Option<&'a Key> {
    match &f.test {
        Test::At { key, .. } | Test::Final { key, .. } => {
            keys.get(f.case).and_then(|k| k.get(*key))
        }
        _ => None,
    }
}

fn family(f: &Feature, keys: &[Vec<Key>]) -> &'static str {
    match &f.test {
        Test::Broadcast { .. } => "broadcasts",
        Test::Says { .. } => "says",
        _ => key_of(f, keys).map_or("", Key::family),
    }
}

/// Picks at most `max` of the accepted features: one per signal family first (best ranked
/// first), then the best ranked others, at most two per state key. Ranked by kind, then
/// earliest frame, then case order.
pub fn choose(accepted: &[Feature], keys: &[Vec<Key>], max: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..accepted.len()).collect();
    order.sort_by_key(|&i| {
        let f = &accepted[i];
        (f.test.rank(), f.test.frame(), f.case, i)
    });
    let mut picked: Vec<usize> = Vec::new();
    let mut per_key: BTreeMap<Key, u32> = BTreeMap::new();
    let mut families: BTreeSet<&str> = BTreeSet::new();
    let take = |i: usize, picked: &mut Vec<usize>, per_key: &mut BTreeMap<Key, u32>| {
        if picked.len() >= max || picked.contains(&i) {
            return;
        }
        if let Some(k) = key_of(&accepted[i], keys) {
            let n = per_key.entry(k.clone()).or_insert(0);
            if *n >= 2 {
                return;
            }
            *n += 1;
        }
        picked.push(i);
    };
    for &i in &order {
        if families.insert(family(&accepted[i], keys)) {
            take(i, &mut picked, &mut per_key);
        }
    }
    for &i in &order {
        take(i, &mut picked, &mut per_key);
    }
    picked.sort_by_key(|&i| order.iter().position(|&o| o == i));
    picked
}
