//! Differential oracle synthesis (SPEC §2.6, ScratchEval's Algorithm 3; `docs/oracles.md`):
//! run the scenario cases on the gold and the buggy program under R seeds, record state
//! signals at checkpoints, extract features, keep those that hold on gold (≥ θ_pass) and fail
//! on the buggy program (≤ θ_fail), and emit a handful of them as an ordinary test suite
//! (`docs/test-suite.md`). The emitted suite is then run on both programs (Algorithm 1's
//! explicit PASSRATE check) and assertions that do not hold on gold are dropped.
//!
//! The gold recording does not depend on the bug, so the Bug Forge records it once
//! ([`record_gold`]) and reuses it for every trial ([`synthesize`]).
//!
//! What does not live here: scenario templates (`scratch::forge::templates`), compiling
//! projects and decoding costumes (the host passes [`Image`]s).

mod emit;
mod features;
mod record;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{json, Value as Json};

pub use emit::{signal_name, FeatureRow};
pub use features::{Feature, Test, POSE_TOLERANCE};
pub(crate) use record::record;
pub use record::{Key, KeyTable, Obs, Pose, Run};

use crate::scratch::image::Image;
use crate::scratch::suite::model::{Input, StepKind, Suite};
use crate::scratch::suite::{parse_suite_json, run_suite, validate, ProjectFacts, VmSubject};

/// Parameters of a synthesis (`gobo oracle` flags).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OracleConfig {
    /// R: seeds 1..=R.
    pub reruns: u32,
    /// H: most frames a case runs.
    pub ticks: u64,
    /// Checkpoint spacing in frames.
    pub every: u64,
    /// θ_pass.
    pub theta_pass: f64,
    /// θ_fail.
    pub theta_fail: f64,
    /// Most assertions emitted.
    pub max_assertions: usize,
    /// Most feature rows reported (discriminating ones, earliest first).
    pub max_report: usize,
}

impl Default for OracleConfig {
    fn default() -> Self {
        OracleConfig {
            reruns: 5,
            ticks: 2000,
            every: 10,
            theta_pass: 0.9,
            theta_fail: 0.1,
            max_assertions: 5,
            max_report: 500,
        }
    }
}

/// Most reruns accepted.
pub const MAX_RERUNS: u32 = 100;

/// Why a synthesis could not run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OracleError {
    /// The scenario document is not a valid suite for the gold project (JSON path inside).
    Scenarios(String),
    /// The scenario document has no case.
    NoCases,
    /// A parameter is out of range.
    Config(String),
    /// The gold project's `project.json` cannot be read for validation.
    Project(String),
}

impl core::fmt::Display for OracleError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            OracleError::Scenarios(e) => write!(f, "scenarios: {e}"),
            OracleError::NoCases => f.write_str("scenarios: no case to run"),
            OracleError::Config(e) => write!(f, "configuration: {e}"),
            OracleError::Project(e) => write!(f, "project: {e}"),
        }
    }
}

impl core::error::Error for OracleError {}

/// Engine work of a call (SPEC §3.8): deterministic counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Work {
    /// VM frames stepped.
    pub frames: u64,
    /// Block operations: statement blocks the VMs executed
    /// ([`Vm::block_ops`](crate::scratch::vm::Vm::block_ops)).
    pub block_ops: u64,
    /// Case runs (one case under one seed).
    pub runs: u64,
    /// Images rendered.
    pub images: u64,
    /// Bytes of the images.
    pub image_bytes: u64,
}

impl Work {
    /// Adds `other` to this.
    pub fn add(&mut self, other: &Work) {
        self.frames += other.frames;
        self.block_ops += other.block_ops;
        self.runs += other.runs;
        self.images += other.images;
        self.image_bytes += other.image_bytes;
    }

    /// Counts one case run of `frames` frames and `block_ops` block operations.
    pub fn run(&mut self, frames: u64, block_ops: u64) {
        self.frames += frames;
        self.block_ops += block_ops;
        self.runs += 1;
    }
}

/// Scenario cases parsed, validated against the gold project, and checked for what the
/// oracle can place among their steps.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The suite model (case timeouts capped to the tick budget).
    pub suite: Suite,
    /// The cases as given.
    pub cases: Vec<Json>,
    /// Per case, per step: its frame when it is an instant input or mark at a fixed frame.
    pub frames: Vec<Vec<Option<u64>>>,
    /// Per case: every step is at a fixed frame, so checkpoint assertions can go between them.
    pub timeline: Vec<bool>,
    /// The gold project's facts.
    pub facts: ProjectFacts,
}

/// Parses and validates a scenario suite document against the gold project.
pub fn prepare(
    scenarios: &Json,
    gold_project: &str,
    cfg: &OracleConfig,
) -> Result<Prepared, OracleError> {
    check_config(cfg)?;
    let facts = ProjectFacts::from_project_text(gold_project)
        .map_err(|e| OracleError::Project(e.to_string()))?;
    let mut suite =
        parse_suite_json(scenarios).map_err(|e| OracleError::Scenarios(e.to_string()))?;
    validate(&mut suite, &facts).map_err(|e| OracleError::Scenarios(e.to_string()))?;
    if suite.cases.is_empty() {
        return Err(OracleError::NoCases);
    }
    let cases: Vec<Json> =
        scenarios.get("tests").and_then(Json::as_array).cloned().unwrap_or_default();
    let cap = cfg.ticks as f64 / f64::from(suite.fps) + 1.0;
    let mut frames = Vec::new();
    let mut timeline = Vec::new();
    for case in &mut suite.cases {
        case.timeout = case.timeout.min(cap);
        let f: Vec<Option<u64>> = case
            .steps
            .iter()
            .map(|s| {
                let instant = match &s.kind {
                    StepKind::Do(Input::KeyPress { .. }) => false,
                    StepKind::Do(_) | StepKind::Mark(_) => true,
                    StepKind::Wait(_) | StepKind::Expect(_) | StepKind::Repeat { .. } => false,
                };
                s.at.filter(|_| instant).map(|a| a.frames(suite.fps))
            })
            .collect();
        timeline.push(f.iter().all(Option::is_some) && f.windows(2).all(|w| w[0] <= w[1]));
        frames.push(f);
    }
    Ok(Prepared { suite, cases, frames, timeline, facts })
}

fn check_config(cfg: &OracleConfig) -> Result<(), OracleError> {
    let bad = |m: &str| Err(OracleError::Config(String::from(m)));
    if cfg.reruns == 0 || cfg.reruns > MAX_RERUNS {
        return bad("reruns must be 1..=100");
    }
    if cfg.ticks == 0 || cfg.ticks > crate::scratch::forge::MAX_FRAMES {
        return bad("ticks must be 1..=108000");
    }
    if cfg.every == 0 {
        return bad("every must be at least 1");
    }
    let unit = |x: f64| (0.0..=1.0).contains(&x);
    if !unit(cfg.theta_pass) || !unit(cfg.theta_fail) || cfg.theta_fail >= cfg.theta_pass {
        return bad("thresholds must satisfy 0 <= theta_fail < theta_pass <= 1");
    }
    Ok(())
}

/// Recorded runs of every case under seeds 1..=R.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// Per case: its key table and its runs (seed order).
    pub cases: Vec<(KeyTable, Vec<Run>)>,
    /// The work it took.
    pub work: Work,
}

fn seeds(cfg: &OracleConfig) -> impl Iterator<Item = u64> {
    1..=u64::from(cfg.reruns)
}

/// Records the gold program on every case and seed.
pub fn record_gold(prep: &Prepared, gold: &Image, cfg: &OracleConfig) -> Recording {
    let mut out = Recording::default();
    for case in &prep.suite.cases {
        let mut table = KeyTable::default();
        let runs: Vec<Run> = seeds(cfg)
            .map(|seed| {
                record::record(gold, &prep.facts, prep.suite.fps, case, seed, &mut table, cfg)
            })
            .collect();
        for r in &runs {
            out.work.run(r.frames, r.block_ops);
        }
        out.cases.push((table, runs));
    }
    out
}

/// An emitted assertion, with what the buggy program showed instead (seed 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assertion {
    /// The feature.
    #[serde(flatten)]
    pub feature: FeatureRow,
    /// The check as written in the suite.
    pub check: Json,
    /// What the buggy program showed under seed 1 (`null`: nothing, or the run ended early).
    pub observed: Json,
    /// The trigger of the case (canonical vocabulary: `green_flag`, `key:space`...).
    pub trigger: String,
}

/// Pass rates of the emitted suite (Algorithm 1's PASSRATE: the fraction of seeds under
/// which every case passes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PassRates {
    /// On the gold program.
    pub p_gold: f64,
    /// On the buggy program.
    pub p_bug: f64,
    /// The first failure of the buggy program (`case: step N: ...`), seed 1.
    pub bug_failure: Option<String>,
}

/// What a synthesis produced (`gobo oracle --json`, `POST /v1/oracles/synthesize`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Synthesis {
    /// At least one assertion separates gold from buggy and the suite passes on gold and
    /// fails on the buggy program at the thresholds.
    pub accepted: bool,
    /// Why not, when not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The suite (only the cases carrying assertions).
    pub suite: Json,
    /// The emitted assertions.
    pub assertions: Vec<Assertion>,
    /// Candidate features over all cases.
    pub candidates: usize,
    /// Discriminating features (hold rates differ), earliest first, at most `max_report`.
    pub features: Vec<FeatureRow>,
    /// Discriminating features left out of `features`.
    pub omitted: usize,
    /// Cases whose gold runs did not complete (they carry no assertion), with the reason.
    pub dropped_cases: Vec<[String; 2]>,
    /// Pass rates of the emitted suite.
    pub pass: Option<PassRates>,
    /// The parameters.
    pub config: OracleConfig,
    /// Engine work (gold recording included when it was made by this call).
    pub work: Work,
}

/// The canonical trigger of a case (SPEC §2.8 vocabulary), from its first non-flag input.
pub fn trigger_of(case: &crate::scratch::suite::model::Case) -> String {
    for s in &case.steps {
        if let StepKind::Do(input) = &s.kind {
            let t = match input {
                Input::GreenFlag | Input::StopAll => continue,
                Input::KeyDown(k) | Input::KeyPress { key: k, .. } => format!("key:{k}"),
                Input::Click(s) if s.resolved == "Stage" => String::from("click:stage"),
                Input::Click(s) => format!("click:{}", s.resolved),
                Input::Broadcast(m) => format!("broadcast:{m}"),
                Input::Answer(_) => String::from("answer"),
                Input::MouseMove { .. }
                | Input::MouseDown { .. }
                | Input::MouseUp { .. }
                | Input::MouseFlag { .. } => String::from("mouse"),
                Input::SetVariable { name, .. } => format!("set:{name}"),
                _ => continue,
            };
            return t;
        }
    }
    if case.answers.is_empty() {
        String::from("green_flag")
    } else {
        String::from("answer")
    }
}

fn same_run(a: &Run, b: &Run) -> bool {
    let eq_state = |x: &[Option<Obs>], y: &[Option<Obs>]| {
        let n = x.len().max(y.len());
        (0..n).all(|i| x.get(i).cloned().flatten() == y.get(i).cloned().flatten())
    };
    a.completed == b.completed
        && a.frames == b.frames
        && a.broadcasts == b.broadcasts
        && a.says == b.says
        && eq_state(&a.last, &b.last)
        && a.checkpoints.len() == b.checkpoints.len()
        && a.checkpoints.iter().zip(&b.checkpoints).all(|(p, q)| p.0 == q.0 && eq_state(&p.1, &q.1))
}

/// Synthesizes a suite separating `gold` (recorded in `rec`) from `buggy`.
pub fn synthesize(
    prep: &Prepared,
    rec: &Recording,
    gold: &Image,
    buggy: &Image,
    cfg: &OracleConfig,
) -> Synthesis {
    let mut work = Work::default();
    let r = cfg.reruns as usize;
    // Seed 1 first: with θ_pass > (R-1)/R every accepted feature holds on gold seed 1, and
    // with θ_fail < 1/R it must fail on buggy seed 1; a buggy seed-1 run identical to gold's
    // on every case leaves nothing to find.
    let prunable = cfg.theta_pass * r as f64 > (r - 1) as f64 && cfg.theta_fail * (r as f64) < 1.0;
    let mut tables: Vec<KeyTable> = rec.cases.iter().map(|(t, _)| t.clone()).collect();
    let mut bug_runs: Vec<Vec<Run>> = Vec::new();
    for (ci, case) in prep.suite.cases.iter().enumerate() {
        let run = record::record(buggy, &prep.facts, prep.suite.fps, case, 1, &mut tables[ci], cfg);
        work.run(run.frames, run.block_ops);
        bug_runs.push(alloc::vec![run]);
    }
    let dropped: Vec<[String; 2]> = prep
        .suite
        .cases
        .iter()
        .zip(&rec.cases)
        .filter_map(|(c, (_, runs))| {
            let bad = runs.iter().find(|r| !r.completed)?;
            Some([c.name.clone(), bad.reason.clone().unwrap_or_default()])
        })
        .collect();
    let identical = rec
        .cases
        .iter()
        .zip(&bug_runs)
        .all(|((_, g), b)| g.first().zip(b.first()).is_none_or(|(g, b)| same_run(g, b)));
    let empty = |reason: &str, work: Work, dropped: Vec<[String; 2]>| Synthesis {
        accepted: false,
        reason: Some(String::from(reason)),
        suite: json!({"version": 1, "fps": prep.suite.fps, "tests": []}),
        assertions: Vec::new(),
        candidates: 0,
        features: Vec::new(),
        omitted: 0,
        dropped_cases: dropped,
        pass: None,
        config: cfg.clone(),
        work,
    };
    if prunable && identical {
        return empty(
            "the buggy program behaves as the gold one on every scenario (seed 1)",
            work,
            dropped,
        );
    }
    for (ci, case) in prep.suite.cases.iter().enumerate() {
        for seed in seeds(cfg).skip(1) {
            let run = record::record(
                buggy,
                &prep.facts,
                prep.suite.fps,
                case,
                seed,
                &mut tables[ci],
                cfg,
            );
            work.run(run.frames, run.block_ops);
            bug_runs[ci].push(run);
        }
    }
    // Features per case.
    let keys: Vec<Vec<Key>> = tables.iter().map(|t| t.keys.clone()).collect();
    let mut all: Vec<Feature> = Vec::new();
    let mut candidates = 0;
    for (ci, (_, gold_runs)) in rec.cases.iter().enumerate() {
        if gold_runs.iter().any(|r| !r.completed) {
            continue;
        }
        let (f, n) = features::candidates(ci, gold_runs, &bug_runs[ci], &keys[ci]);
        candidates += n;
        all.extend(f);
    }
    let ok = |f: &Feature| {
        f.p_gold >= cfg.theta_pass
            && f.p_bug <= cfg.theta_fail
            && (prep.timeline[f.case] || !matches!(f.test, Test::At { .. }))
    };
    let accepted: Vec<Feature> = all.iter().filter(|f| ok(f)).cloned().collect();
    let mut report: Vec<(u64, FeatureRow)> = all
        .iter()
        .map(|f| {
            (f.test.frame(), emit::row(f, &prep.suite.cases[f.case].name, &keys[f.case], ok(f)))
        })
        .collect();
    report.sort_by_key(|(frame, _)| *frame);
    let omitted = report.len().saturating_sub(cfg.max_report);
    report.truncate(cfg.max_report);
    let features: Vec<FeatureRow> = report.into_iter().map(|(_, r)| r).collect();
    let mut chosen: Vec<Feature> = features::choose(&accepted, &keys, cfg.max_assertions)
        .into_iter()
        .map(|i| accepted[i].clone())
        .collect();
    let mut result =
        empty("no feature holds on gold and fails on the buggy program", work, dropped);
    result.candidates = candidates;
    result.features = features;
    result.omitted = omitted;
    // Emit, run on both, drop assertions gold does not pass (bounded rounds).
    for _ in 0..4 {
        if chosen.is_empty() {
            return result;
        }
        let (suite, tags) = assemble(prep, &chosen, &keys);
        let gold_runs = judge(prep, &suite, gold, cfg, &mut result.work);
        let failing: Vec<usize> = failing_assertions(&gold_runs, &tags);
        if !failing.is_empty() {
            chosen = chosen
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !failing.contains(i))
                .map(|(_, f)| f)
                .collect();
            continue;
        }
        let bug = judge(prep, &suite, buggy, cfg, &mut result.work);
        let rate = |runs: &[Vec<crate::scratch::suite::CaseVerdict>]| {
            runs.iter().filter(|v| v.iter().all(|c| c.passed)).count() as f64
                / runs.len().max(1) as f64
        };
        let p_gold = rate(&gold_runs);
        let p_bug = rate(&bug);
        let bug_failure = bug.first().and_then(|v| {
            v.iter()
                .find(|c| !c.passed)
                .map(|c| format!("{}: {}", c.name, c.reason.clone().unwrap_or_default()))
        });
        result.accepted = p_gold >= cfg.theta_pass && p_bug <= cfg.theta_fail;
        result.reason = (!result.accepted).then(|| {
            format!(
                "the emitted suite passes on gold at {p_gold} and on the buggy program at {p_bug}"
            )
        });
        result.assertions = chosen
            .iter()
            .map(|f| {
                let case = &prep.suite.cases[f.case];
                Assertion {
                    feature: emit::row(f, &case.name, &keys[f.case], true),
                    check: emit::check_of(&f.test, &keys[f.case]),
                    observed: observed(&f.test, &bug_runs[f.case][0], &keys[f.case]),
                    trigger: trigger_of(case),
                }
            })
            .collect();
        result.suite = suite;
        result.pass = Some(PassRates { p_gold, p_bug, bug_failure });
        return result;
    }
    result.reason =
        Some(String::from("no assertion passes on the gold program when run as a suite"));
    result
}

fn observed(test: &Test, run: &Run, keys: &[Key]) -> Json {
    let state = match test {
        Test::At { frame, .. } => run
            .checkpoints
            .binary_search_by_key(frame, |(f, _)| *f)
            .ok()
            .map(|i| &run.checkpoints[i].1),
        Test::Final { .. } => Some(&run.last),
        Test::Broadcast { message, .. } => {
            return json!(run.broadcasts.get(message).copied().unwrap_or(0));
        }
        Test::Says { sprite, text } => {
            return json!(run.says.contains(&(sprite.clone(), text.clone())))
        }
    };
    match test {
        Test::At { key, .. } | Test::Final { key, .. } => state
            .and_then(|s| s.get(*key))
            .cloned()
            .flatten()
            .map_or(Json::Null, |o| emit::shown(&keys[*key], &o)),
        _ => Json::Null,
    }
}

/// An emitted case's name and, per step, the assertion it carries.
type CaseTags = (String, Vec<Option<usize>>);

/// The suite document with the chosen assertions, and per emitted case, per step, the index
/// of the assertion it carries.
fn assemble(prep: &Prepared, chosen: &[Feature], keys: &[Vec<Key>]) -> (Json, Vec<CaseTags>) {
    let mut tests = Vec::new();
    let mut tags = Vec::new();
    for (ci, case) in prep.cases.iter().enumerate() {
        let mine: Vec<usize> = (0..chosen.len()).filter(|&i| chosen[i].case == ci).collect();
        if mine.is_empty() {
            continue;
        }
        let asserts: Vec<(Test, Json)> = mine
            .iter()
            .map(|&i| (chosen[i].test.clone(), emit::check_of(&chosen[i].test, &keys[ci])))
            .collect();
        let (out, t) = emit::insert(case, &prep.frames[ci], &asserts);
        tags.push((
            prep.suite.cases[ci].name.clone(),
            t.into_iter().map(|x| x.map(|k| mine[k])).collect(),
        ));
        tests.push(out);
    }
    (json!({"version": 1, "name": "oracle", "fps": prep.suite.fps, "tests": tests}), tags)
}

fn judge(
    prep: &Prepared,
    suite: &Json,
    image: &Image,
    cfg: &OracleConfig,
    work: &mut Work,
) -> Vec<Vec<crate::scratch::suite::CaseVerdict>> {
    let Ok(mut parsed) = parse_suite_json(suite) else { return Vec::new() };
    if validate(&mut parsed, &prep.facts).is_err() {
        return Vec::new();
    }
    seeds(cfg)
        .map(|seed| {
            let v = run_suite(&parsed, &prep.facts, seed, |s| {
                VmSubject::new(image.clone(), parsed.fps, s)
            });
            for c in &v {
                work.run(c.frames, c.block_ops);
            }
            v
        })
        .collect()
}

/// Assertions whose step failed in some run (`step N: ...` names the 1-based step).
fn failing_assertions(
    runs: &[Vec<crate::scratch::suite::CaseVerdict>],
    tags: &[CaseTags],
) -> Vec<usize> {
    let mut out = Vec::new();
    if runs.is_empty() {
        // The suite did not even validate: drop everything.
        return tags.iter().flat_map(|(_, t)| t.iter().flatten().copied()).collect();
    }
    for v in runs {
        for c in v.iter().filter(|c| !c.passed) {
            let Some((_, t)) = tags.iter().find(|(n, _)| *n == c.name) else { continue };
            let step = c
                .reason
                .as_deref()
                .and_then(|r| r.strip_prefix("step "))
                .and_then(|r| r.split(':').next())
                .and_then(|n| n.parse::<usize>().ok());
            match step.and_then(|s| t.get(s.wrapping_sub(1)).copied().flatten()) {
                Some(a) => out.push(a),
                // A failure not at an assertion: blame every assertion of the case.
                None => out.extend(t.iter().flatten().copied()),
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
