//! Staged verification of a candidate fix (SPEC §3.3): level 0 runs the static stage (the
//! project loads, validates structurally, the suite fits it, it compiles), level 1 adds a
//! smoke run (each case under seed 1, capped at a few seconds, stopping at the first failing
//! case), level 2 adds the full suite under seeds 1..=R judged with θ_pass/θ_fail. Stages run
//! in that order and the first failing stage ends the verification.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{json, Value as Json};

use super::{SignalsError, Work};
use crate::scratch::image::Image;
use crate::scratch::project::validate::{validate_with, Context, Severity};
use crate::scratch::project::{load_with, LoadOptions, Project};
use crate::scratch::suite::model::Suite;
use crate::scratch::suite::{
    parse_suite_json, run_case, run_suite, validate, Action, ProjectFacts, SeedReport, Snapshot,
    Stability, Subject, SuiteReport, VmSubject,
};

/// A verification stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Load, structural validation, the suite against the project, compilation. No run.
    Static,
    /// Each case under seed 1, at most `smoke_frames` frames; the first failing case fails.
    Smoke,
    /// The whole suite under seeds 1..=`seeds`, each case passing at `theta_pass`.
    Full,
}

impl Stage {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Static => "static",
            Stage::Smoke => "smoke",
            Stage::Full => "full",
        }
    }
}

/// Parameters of a verification (`gobo verify` flags).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyConfig {
    /// 0: static; 1: static and smoke; 2: static, smoke and full.
    pub level: u8,
    /// Frame cap of a smoke case (default 300 = 10 s).
    pub smoke_frames: u64,
    /// Seeds 1..=`seeds` of the full stage (default 5).
    pub seeds: u32,
    /// Least pass rate of a case in the full stage (default 0.9).
    pub theta_pass: f64,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig { level: 2, smoke_frames: 300, seeds: 5, theta_pass: 0.9 }
    }
}

/// What one stage found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageReport {
    /// The stage.
    pub stage: Stage,
    /// It passed.
    pub passed: bool,
    /// Why not (the first problem found), when not.
    pub reason: Option<String>,
    /// Stage details: `static`: `{errors, warnings, findings}`; `smoke`: per case
    /// `{name, passed, frames, truncated, reason}`; `full`: the suite report under seeds.
    pub details: Json,
    /// Engine work of the stage.
    pub work: Work,
}

/// A verification (`gobo verify --json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verification {
    /// Every requested stage passed.
    pub passed: bool,
    /// The stage that failed, when one did.
    pub failed_stage: Option<Stage>,
    /// The stages run, in order.
    pub stages: Vec<StageReport>,
    /// The parameters.
    pub config: VerifyConfig,
    /// Engine work of all stages.
    pub work: Work,
}

/// Most seeds of the full stage.
pub const MAX_VERIFY_SEEDS: u32 = 100;

fn check(cfg: &VerifyConfig) -> Result<(), SignalsError> {
    let bad = |m: &str| Err(SignalsError::Config(String::from(m)));
    if cfg.level > 2 {
        return bad("level must be 0, 1 or 2");
    }
    if cfg.smoke_frames == 0 || cfg.smoke_frames > crate::scratch::forge::MAX_FRAMES {
        return bad("smoke_frames must be 1..=108000");
    }
    if cfg.seeds == 0 || cfg.seeds > MAX_VERIFY_SEEDS {
        return bad("seeds must be 1..=100");
    }
    if !(0.0..=1.0).contains(&cfg.theta_pass) {
        return bad("theta_pass must be in 0..=1");
    }
    Ok(())
}

/// Verifies the candidate `project_json` (bytes of its `project.json`) against `suite` up to
/// `cfg.level`. `build` compiles a loaded project (the host decodes its assets);
/// `asset_present` says whether an asset file exists (`None`: not checked). A suite that is
/// not a suite document is bad input (`Err`); a suite that does not fit the candidate fails
/// the static stage.
pub fn verify(
    project_json: &[u8],
    suite: &Json,
    build: &dyn Fn(&Project) -> Result<Image, String>,
    asset_present: Option<&dyn Fn(&str) -> bool>,
    cfg: &VerifyConfig,
) -> Result<Verification, SignalsError> {
    check(cfg)?;
    let parsed = parse_suite_json(suite).map_err(|e| SignalsError::Suite(e.to_string()))?;
    let mut out = Verification {
        passed: false,
        failed_stage: None,
        stages: Vec::new(),
        config: cfg.clone(),
        work: Work::default(),
    };
    let (static_report, ready) = static_stage(project_json, parsed, build, asset_present);
    out.stages.push(static_report);
    let Some((suite, facts, image)) = ready else {
        out.failed_stage = Some(Stage::Static);
        return Ok(out);
    };
    let mut stages: Vec<StageReport> = Vec::new();
    if cfg.level >= 1 {
        stages.push(smoke(&suite, &facts, &image, cfg.smoke_frames));
    }
    if cfg.level >= 2 && stages.iter().all(|s| s.passed) {
        stages.push(full(&suite, &facts, &image, cfg));
    }
    for s in stages {
        out.work.add(&s.work);
        if !s.passed && out.failed_stage.is_none() {
            out.failed_stage = Some(s.stage);
        }
        out.stages.push(s);
    }
    out.passed = out.failed_stage.is_none();
    Ok(out)
}

type Ready = (Suite, ProjectFacts, Image);

fn static_stage(
    project_json: &[u8],
    mut suite: Suite,
    build: &dyn Fn(&Project) -> Result<Image, String>,
    asset_present: Option<&dyn Fn(&str) -> bool>,
) -> (StageReport, Option<Ready>) {
    let fail = |reason: String, details: Json| StageReport {
        stage: Stage::Static,
        passed: false,
        reason: Some(reason),
        details,
        work: Work::default(),
    };
    let project = match load_with(project_json, &LoadOptions { repair_references: true }) {
        Ok(p) => p,
        Err(e) => return (fail(format!("load: {e}"), Json::Null), None),
    };
    let cx = Context { asset_present, max_findings: 50 };
    let findings = validate_with(&project, &cx);
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    let details = json!({
        "errors": errors,
        "warnings": findings.len() - errors,
        "findings": findings.iter().map(|f| json!({
            "code": f.code,
            "path": f.path,
            "severity": if f.severity == Severity::Error { "error" } else { "warning" },
            "message": f.message,
        })).collect::<Vec<_>>(),
    });
    if let Some(f) = findings.iter().find(|f| f.severity == Severity::Error) {
        return (fail(format!("validate: {} {}: {}", f.code, f.path, f.message), details), None);
    }
    let text = core::str::from_utf8(project_json).unwrap_or_default();
    let facts = match ProjectFacts::from_project_text(text) {
        Ok(f) => f,
        Err(e) => return (fail(format!("load: {e}"), details), None),
    };
    if let Err(e) = validate(&mut suite, &facts) {
        return (fail(format!("suite: {e}"), details), None);
    }
    let image = match build(&project) {
        Ok(i) => i,
        Err(e) => return (fail(format!("compile: {e}"), details), None),
    };
    let report = StageReport {
        stage: Stage::Static,
        passed: true,
        reason: None,
        details,
        work: Work::default(),
    };
    (report, Some((suite, facts, image)))
}

/// The VM with a frame cap: reaching it ends the case without judging it.
struct Capped {
    inner: VmSubject,
    frames: u64,
    cap: u64,
    hit: bool,
}

impl Subject for Capped {
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
        if self.frames >= self.cap {
            self.hit = true;
            return Err(format!("the smoke cap of {} frames was reached", self.cap));
        }
        self.frames += 1;
        self.inner.step(out)
    }
}

fn smoke(suite: &Suite, facts: &ProjectFacts, image: &Image, cap: u64) -> StageReport {
    let mut work = Work::default();
    let mut rows = Vec::new();
    let mut reason = None;
    for case in &suite.cases {
        let inner = match VmSubject::new(image.clone(), suite.fps, 1) {
            Ok(s) => s,
            Err(e) => {
                reason = Some(format!("{}: the project could not start: {e}", case.name));
                break;
            }
        };
        let mut subject = Capped { inner, frames: 0, cap, hit: false };
        let v = run_case(case, suite.fps, facts, &mut subject);
        work.run(subject.frames, v.block_ops);
        let failed = !v.passed && !subject.hit;
        rows.push(json!({
            "name": v.name,
            "passed": !failed,
            "frames": subject.frames,
            "truncated": subject.hit,
            "reason": if failed { v.reason.clone() } else { None },
        }));
        if failed {
            reason = Some(format!("{}: {}", v.name, v.reason.unwrap_or_default()));
            break;
        }
    }
    StageReport {
        stage: Stage::Smoke,
        passed: reason.is_none(),
        reason,
        details: Json::Array(rows),
        work,
    }
}

fn full(suite: &Suite, facts: &ProjectFacts, image: &Image, cfg: &VerifyConfig) -> StageReport {
    let mut work = Work::default();
    let seeds: Vec<u64> = (1..=u64::from(cfg.seeds)).collect();
    let runs: Vec<SuiteReport> = seeds
        .iter()
        .map(|&seed| {
            let cases =
                run_suite(suite, facts, seed, |s| VmSubject::new(image.clone(), suite.fps, s));
            for c in &cases {
                work.run(c.frames, c.block_ops);
            }
            SuiteReport { cases }
        })
        .collect();
    let stability = Stability { theta_pass: cfg.theta_pass, ..Stability::default() };
    let report = SeedReport::new(&seeds, &runs, stability);
    let mut reason = report.cases.iter().find(|c| !c.passed).map(|c| match &c.first_failure {
        Some((seed, why)) => format!("{}: pass rate {} (seed {seed}: {why})", c.name, c.pass_rate),
        None => format!("{}: pass rate {}", c.name, c.pass_rate),
    });
    if report.cases.is_empty() {
        reason = Some(String::from("the suite has no case"));
    }
    StageReport {
        stage: Stage::Full,
        passed: reason.is_none(),
        reason,
        details: report.to_json(),
        work,
    }
}
