//! The runtime probe (SPEC §3.2): the suite's cases run on the gold and the buggy program
//! under seeds 1..=R_p, each capped at H_p frames, and the `scratcheval` state signals
//! (variables, lists, sprite pose, costume, visibility, backdrop, broadcasts) are compared
//! frame by frame. The result is the pass rates, the pass gap, the mismatch rate, rerun
//! instability, the first divergence and the escalation level a repair controller uses to
//! choose how much evidence and verification an attempt gets. The probe does not localize or
//! patch the bug.

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value as Json;

use super::{SignalsError, Work};
use crate::scratch::image::Image;
use crate::scratch::oracle::{prepare, record, signal_name, Key, KeyTable, OracleConfig, Run};
use crate::scratch::oracle::{OracleError, Prepared};

/// Most frames a probe runs per case (2 minutes at 30 fps): the probe keeps every frame's
/// state to find the first divergence, so its schedule is short by design.
pub const MAX_PROBE_FRAMES: u64 = 3600;

/// Most seeds a probe runs.
pub const MAX_PROBE_SEEDS: u32 = 20;

/// The probe's schedule and cutoffs (defaults: SPEC §3.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProbeConfig {
    /// H_p: most frames per case (default 300 = 10 s).
    pub frames: u64,
    /// R_p: seeds 1..=R_p (default 2).
    pub seeds: u32,
    /// Checkpoint spacing of the mismatch rate, in frames (default 10).
    pub every: u64,
    /// `early` when the first divergence is at or before this frame (default 90 = 3 s).
    pub early_frame: u64,
    /// `broad` when the mismatch rate is at least this (default 0.25).
    pub broad_mismatch: f64,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        ProbeConfig { frames: 300, seeds: 2, every: 10, early_frame: 90, broad_mismatch: 0.25 }
    }
}

/// Where the buggy program's state first differs from the gold program's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Divergence {
    /// The frame (1 = the first frame run).
    pub frame: u64,
    /// The case.
    pub case: String,
    /// The seed.
    pub seed: u64,
    /// The first differing signal (`vars:score`, `pose:Ball.x`, `run_end`...).
    pub signal: String,
}

/// The escalation flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Flags {
    /// The first divergence is at or before `early_frame`.
    pub early: bool,
    /// The mismatch rate is at least `broad_mismatch`.
    pub broad: bool,
    /// Some case passes under one seed and fails under another on the buggy program.
    pub unstable: bool,
}

/// One case of the probe.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseProbe {
    /// The case name.
    pub name: String,
    /// Seeds under which the case passed on gold.
    pub gold_passes: u32,
    /// Seeds under which it passed on the buggy program.
    pub buggy_passes: u32,
    /// The buggy program's first failure (seed order), when it failed.
    pub buggy_failure: Option<String>,
}

/// What a probe found (`gobo probe --json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Probe {
    /// Passing (case, seed) runs of the gold program over all runs (below 1: the probe
    /// schedule is too short for the suite, or the suite does not fit the gold program).
    pub gold_pass_rate: f64,
    /// The same for the buggy program.
    pub buggy_pass_rate: f64,
    /// `gold_pass_rate - buggy_pass_rate`.
    pub pass_gap: f64,
    /// Over every (case, seed, checkpoint, signal), the fraction where buggy and gold differ.
    pub mismatch_rate: f64,
    /// Fraction of cases whose buggy pass/fail outcome differs between seeds.
    pub rerun_instability: f64,
    /// The mismatch rate between the buggy program's seed-1 and seed-2 runs (`null` with one
    /// seed).
    pub rerun_mismatch: Option<f64>,
    /// The earliest divergence over cases and seeds (`null`: none within the schedule).
    pub first_divergence: Option<Divergence>,
    /// `1 - first_divergence.frame / frames` (0 when there is none).
    pub divergence: f64,
    /// The escalation flags.
    pub flags: Flags,
    /// `early + broad + unstable` (0–3).
    pub level: u8,
    /// The default repair plan of the level (SPEC §3.3: `text-min`, `mm-standard`, `mm-heavy`).
    pub plan: &'static str,
    /// Per case.
    pub cases: Vec<CaseProbe>,
    /// The parameters.
    pub config: ProbeConfig,
    /// Engine work.
    pub work: Work,
}

fn check(cfg: &ProbeConfig) -> Result<(), SignalsError> {
    let bad = |m: &str| Err(SignalsError::Config(String::from(m)));
    if cfg.frames == 0 || cfg.frames > MAX_PROBE_FRAMES {
        return bad("frames must be 1..=3600");
    }
    if cfg.seeds == 0 || cfg.seeds > MAX_PROBE_SEEDS {
        return bad("seeds must be 1..=20");
    }
    if cfg.every == 0 {
        return bad("every must be at least 1");
    }
    if !(0.0..=1.0).contains(&cfg.broad_mismatch) {
        return bad("broad_mismatch must be in 0..=1");
    }
    Ok(())
}

/// Maps an oracle preparation error to the probe's.
pub(super) fn prep_error(e: OracleError) -> SignalsError {
    match e {
        OracleError::Config(m) => SignalsError::Config(m),
        OracleError::Project(m) => SignalsError::Gold(m),
        other => SignalsError::Suite(other.to_string()),
    }
}

/// The suite prepared for runs of at most `frames` frames, a state kept every frame.
fn schedule(
    suite: &Json,
    gold_project: &str,
    cfg: &ProbeConfig,
) -> Result<(Prepared, OracleConfig), SignalsError> {
    let ocfg =
        OracleConfig { reruns: cfg.seeds, ticks: cfg.frames, every: 1, ..OracleConfig::default() };
    let prep = prepare(suite, gold_project, &ocfg).map_err(prep_error)?;
    Ok((prep, ocfg))
}

/// Probes `buggy` against `gold` on the cases of `suite` (a suite document that validates
/// against `gold_project`, the gold `project.json` text).
pub fn probe(
    suite: &Json,
    gold_project: &str,
    gold: &Image,
    buggy: &Image,
    cfg: &ProbeConfig,
) -> Result<Probe, SignalsError> {
    check(cfg)?;
    let (prep, ocfg) = schedule(suite, gold_project, cfg)?;
    let mut work = Work::default();
    let mut cases = Vec::new();
    let (mut gold_ok, mut bug_ok, mut runs) = (0u32, 0u32, 0u32);
    let mut tally = Tally::default();
    let mut rerun = Tally::default();
    let mut unstable = 0usize;
    let mut first: Option<Divergence> = None;
    for case in &prep.suite.cases {
        let mut table = KeyTable::default();
        let mut row = CaseProbe {
            name: case.name.clone(),
            gold_passes: 0,
            buggy_passes: 0,
            buggy_failure: None,
        };
        let mut bug_runs: Vec<Run> = Vec::new();
        for seed in 1..=u64::from(cfg.seeds) {
            let g = record(gold, &prep.facts, prep.suite.fps, case, seed, &mut table, &ocfg);
            let b = record(buggy, &prep.facts, prep.suite.fps, case, seed, &mut table, &ocfg);
            work.run(g.frames, g.block_ops);
            work.run(b.frames, b.block_ops);
            runs += 1;
            row.gold_passes += u32::from(g.completed);
            row.buggy_passes += u32::from(b.completed);
            if !b.completed && row.buggy_failure.is_none() {
                row.buggy_failure = b.reason.clone();
            }
            tally.add(&g, &b, &table.keys, cfg.every);
            if let Some((frame, signal)) = diverge(&g, &b, &table.keys) {
                if first.as_ref().is_none_or(|d| frame < d.frame) {
                    first = Some(Divergence { frame, case: case.name.clone(), seed, signal });
                }
            }
            bug_runs.push(b);
        }
        if let [b1, b2, ..] = bug_runs.as_slice() {
            rerun.add(b1, b2, &table.keys, cfg.every);
        }
        gold_ok += row.gold_passes;
        bug_ok += row.buggy_passes;
        if row.buggy_passes != 0 && row.buggy_passes != cfg.seeds {
            unstable += 1;
        }
        cases.push(row);
    }
    let rate = |n: u32| f64::from(n) / f64::from(runs.max(1));
    let (gold_pass_rate, buggy_pass_rate) = (rate(gold_ok), rate(bug_ok));
    let mismatch_rate = tally.rate();
    let rerun_instability = unstable as f64 / prep.suite.cases.len().max(1) as f64;
    let flags = Flags {
        early: first.as_ref().is_some_and(|d| d.frame <= cfg.early_frame),
        broad: mismatch_rate >= cfg.broad_mismatch,
        unstable: rerun_instability > 0.0,
    };
    let level = u8::from(flags.early) + u8::from(flags.broad) + u8::from(flags.unstable);
    let divergence =
        first.as_ref().map_or(0.0, |d| (1.0 - d.frame as f64 / cfg.frames as f64).max(0.0));
    Ok(Probe {
        gold_pass_rate,
        buggy_pass_rate,
        pass_gap: gold_pass_rate - buggy_pass_rate,
        mismatch_rate,
        rerun_instability,
        rerun_mismatch: (cfg.seeds >= 2).then(|| rerun.rate()),
        first_divergence: first,
        divergence,
        flags,
        level,
        plan: plan_of(level),
        cases,
        config: cfg.clone(),
        work,
    })
}

/// The default repair plan of an escalation level (SPEC §3.3).
pub fn plan_of(level: u8) -> &'static str {
    match level {
        0 => "text-min",
        1 => "mm-standard",
        _ => "mm-heavy",
    }
}

/// The `scratcheval` signal set: every recorded key but clone counts.
fn compared(key: &Key) -> bool {
    !matches!(key, Key::Clones(_))
}

type Obs = crate::scratch::oracle::Obs;

fn at(run: &Run, i: usize, k: usize) -> Option<&Obs> {
    run.checkpoints.get(i).and_then(|(_, s)| s.get(k)).and_then(Option::as_ref)
}

fn last(run: &Run, k: usize) -> Option<&Obs> {
    run.last.get(k).and_then(Option::as_ref)
}

/// The first frame and signal at which two runs of one case differ.
fn diverge(a: &Run, b: &Run, keys: &[Key]) -> Option<(u64, String)> {
    let n = a.checkpoints.len().max(b.checkpoints.len());
    for i in 0..n {
        let frame = i as u64 + 1;
        if i >= a.checkpoints.len() || i >= b.checkpoints.len() {
            return Some((frame, String::from("run_end")));
        }
        if let Some(k) = (0..keys.len()).find(|&k| compared(&keys[k]) && at(a, i, k) != at(b, i, k))
        {
            return Some((frame, signal_name(&keys[k])));
        }
    }
    None
}

/// Counts of compared and differing (checkpoint, signal) pairs.
#[derive(Debug, Default)]
struct Tally {
    pairs: u64,
    differ: u64,
}

impl Tally {
    /// Adds two runs of one case: states every `every` frames and after the last frame, and
    /// each broadcast message's count over the run.
    fn add(&mut self, a: &Run, b: &Run, keys: &[Key], every: u64) {
        let n = a.checkpoints.len().max(b.checkpoints.len());
        let ks: Vec<usize> = (0..keys.len()).filter(|&k| compared(&keys[k])).collect();
        for i in (0..n).filter(|i| (*i as u64 + 1).is_multiple_of(every)) {
            for &k in &ks {
                self.pairs += 1;
                self.differ += u64::from(at(a, i, k) != at(b, i, k));
            }
        }
        for &k in &ks {
            self.pairs += 1;
            self.differ += u64::from(last(a, k) != last(b, k));
        }
        let messages: BTreeSet<&String> = a.broadcasts.keys().chain(b.broadcasts.keys()).collect();
        for m in messages {
            self.pairs += 1;
            self.differ += u64::from(a.broadcasts.get(m) != b.broadcasts.get(m));
        }
    }

    fn rate(&self) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.differ as f64 / self.pairs as f64
        }
    }
}
