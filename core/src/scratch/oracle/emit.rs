//! Turning accepted features into test-suite assertions (SPEC §2.6 `MAKEASSERTION`) and the
//! features' report rows: checkpoint features become `{"at_frame": c, "expect": ...}` steps
//! placed among the case's inputs, whole-run features `expect` steps after its last step.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{json, Value as Json};

use super::features::{Feature, Test, POSE_TOLERANCE};
use super::record::{Key, Obs};
use crate::scratch::value::Value;

fn whole(n: f64) -> bool {
    libm::trunc(n) == n && libm::fabs(n) < 9.0e15
}

fn value_json(v: &Value) -> Json {
    match v {
        Value::Num(n) if whole(*n) => json!(*n as i64),
        Value::Num(n) => json!(n),
        Value::Str(s) => json!(&**s),
        Value::Bool(b) => json!(b),
        Value::Undefined => Json::Null,
    }
}

/// An observation as JSON (what the report shows).
pub fn obs_json(o: &Obs) -> Json {
    match o {
        Obs::Value(v) => value_json(v),
        Obs::List(l) => Json::Array(l.iter().map(value_json).collect()),
        Obs::Num(n) if whole(*n) => json!(*n as i64),
        Obs::Num(n) => json!(n),
        Obs::Count(n) => json!(n),
        Obs::Bool(b) => json!(b),
    }
}

/// An observation as reports show it: costume and backdrop numbers from 1, as in suites.
pub fn shown(key: &Key, o: &Obs) -> Json {
    match (key, o) {
        (Key::Costume(_) | Key::Backdrop, Obs::Count(n)) => json!(u64::from(*n) + 1),
        _ => obs_json(o),
    }
}

/// A signal's name in reports: `vars:score`, `vars:Cat.speed`, `pose:Cat.x`, `backdrop`...
pub fn signal_name(key: &Key) -> String {
    let owned = |s: &Option<String>, n: &str| match s {
        Some(s) => format!("{s}.{n}"),
        None => String::from(n),
    };
    match key {
        Key::Var(s, n) => format!("vars:{}", owned(s, n)),
        Key::List(s, n) => format!("lists:{}", owned(s, n)),
        Key::Pose(s, p) => format!("pose:{s}.{}", p.name()),
        Key::Costume(s) => format!("costume:{s}"),
        Key::Visible(s) => format!("visibility:{s}"),
        Key::Clones(s) => format!("clones:{s}"),
        Key::Backdrop => String::from("backdrop"),
    }
}

/// The suite check that `key == value`. Costume and backdrop numbers count from 1 in suites.
pub fn state_check(key: &Key, value: &Obs) -> Json {
    let v = obs_json(value);
    let with_sprite = |mut c: Json, s: &Option<String>| {
        if let (Some(s), Json::Object(m)) = (s, &mut c) {
            m.insert(String::from("sprite"), json!(s));
        }
        c
    };
    match (key, value) {
        (Key::Var(s, n), _) => with_sprite(json!({"variable": n, "equals": v}), s),
        (Key::List(s, n), _) => with_sprite(json!({"list": n, "equals": v}), s),
        (Key::Pose(s, p), _) => {
            json!({"sprite": s, p.name(): {"equals": v, "tolerance": POSE_TOLERANCE}})
        }
        (Key::Costume(s), Obs::Count(n)) => json!({"sprite": s, "costume": n + 1}),
        (Key::Visible(s), _) => json!({"sprite": s, "visible": v}),
        (Key::Clones(s), _) => json!({"clones": s, "count": v}),
        (Key::Backdrop, Obs::Count(n)) => json!({"backdrop": n + 1}),
        (Key::Costume(s), _) => json!({"sprite": s, "costume": v}),
        (Key::Backdrop, _) => json!({"backdrop": v}),
    }
}

/// The check a feature asserts.
pub fn check_of(test: &Test, keys: &[Key]) -> Json {
    match test {
        Test::At { key, value, .. } | Test::Final { key, value } => state_check(&keys[*key], value),
        Test::Broadcast { message, count } => json!({"broadcast": message, "count": count}),
        Test::Says { sprite, text } => json!({"says": text, "sprite": sprite}),
    }
}

/// One row of the feature report (`gobo oracle --json`, `features`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeatureRow {
    /// The case's name.
    pub case: String,
    /// `at`, `final`, `broadcast` or `says`.
    pub kind: &'static str,
    /// The signal (`vars:score`, `broadcast:game over`, `says:Cat`).
    pub signal: String,
    /// Checkpoint frame (`at` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<u64>,
    /// The value the feature expects.
    pub value: Json,
    /// Hold rate over the gold runs.
    pub p_gold: f64,
    /// Hold rate over the buggy runs.
    pub p_bug: f64,
    /// Accepted (p_gold ≥ θ_pass and p_bug ≤ θ_fail).
    pub accepted: bool,
}

/// A feature's report row.
pub fn row(f: &Feature, case: &str, keys: &[Key], accepted: bool) -> FeatureRow {
    let (kind, signal, frame, value) = match &f.test {
        Test::At { frame, key, value } => {
            ("at", signal_name(&keys[*key]), Some(*frame), shown(&keys[*key], value))
        }
        Test::Final { key, value } => {
            ("final", signal_name(&keys[*key]), None, shown(&keys[*key], value))
        }
        Test::Broadcast { message, count } => {
            ("broadcast", format!("broadcast:{message}"), None, json!(count))
        }
        Test::Says { sprite, text } => ("says", format!("says:{sprite}"), None, json!(text)),
    };
    FeatureRow {
        case: String::from(case),
        kind,
        signal,
        frame,
        value,
        p_gold: f.p_gold,
        p_bug: f.p_bug,
        accepted,
    }
}

/// Inserts assertion steps into a case's `steps`: checkpoint ones before the first step at or
/// after their frame (`frames[i]` is step i's frame, `None` for a step without one), the
/// others at the end. Returns the new case and, per step, the assertion it carries.
pub fn insert(
    case: &Json,
    frames: &[Option<u64>],
    asserts: &[(Test, Json)],
) -> (Json, Vec<Option<usize>>) {
    let old: Vec<Json> = case.get("steps").and_then(Json::as_array).cloned().unwrap_or_default();
    let mut steps: Vec<(Json, Option<usize>)> = old.into_iter().map(|s| (s, None)).collect();
    let mut at: Vec<usize> = (0..asserts.len()).collect();
    at.sort_by_key(|&i| (asserts[i].0.frame(), i));
    for i in at {
        let (test, check) = &asserts[i];
        match test {
            Test::At { frame, .. } => {
                let pos = (0..steps.len())
                    .find(|&k| {
                        steps[k].1.is_none()
                            && frames
                                .get(original_index(&steps, k))
                                .copied()
                                .flatten()
                                .is_some_and(|f| f >= *frame)
                    })
                    .unwrap_or(steps.len());
                // After any assertion already placed at the same spot with an earlier frame.
                steps.insert(pos, (json!({"at_frame": frame, "expect": check}), Some(i)));
            }
            _ => steps.push((json!({"expect": check}), Some(i))),
        }
    }
    let mut out = case.clone();
    let tags = steps.iter().map(|(_, t)| *t).collect();
    out["steps"] = Json::Array(steps.into_iter().map(|(s, _)| s).collect());
    (out, tags)
}

/// Index among the original steps of the step at `k` (skipping inserted assertions).
fn original_index(steps: &[(Json, Option<usize>)], k: usize) -> usize {
    steps[..k].iter().filter(|(_, t)| t.is_none()).count()
}
