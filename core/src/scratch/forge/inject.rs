//! Inject-and-validate (SPEC §2.4, ScratchEval's Algorithm 1): choose a pattern, try up to K
//! sites (ranked, shuffled within a rank by the seed, never one twice), apply the operator's
//! patch, check that its inverse restores the gold `project.json` exactly, synthesize a
//! differential oracle, and accept the first variant whose suite passes on gold
//! (≥ θ_pass) and fails on the buggy program (≤ θ_fail). Deterministic: the same gold
//! project, configuration and seed give the same bug.
//!
//! Compiling a variant (costumes need the host's decoders) is the caller's, through
//! [`Build`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value as Json;

use super::catalog::{Operator, Pattern};
use super::meta::extract;
use super::sites::{sites, Site};
use super::templates::{instantiate, ScenarioConfig};
use crate::scratch::image::Image;
use crate::scratch::oracle::{self, Assertion, OracleConfig, Synthesis, Work};
use crate::scratch::project::patch::{
    apply_block_edits, edits_to_json, invert, parse_block_edits, PatchOptions,
};
use crate::scratch::project::{save, Project};

/// Compiles a project variant into a runnable image (the host attaches costume skins).
pub type Build<'a> = &'a dyn Fn(&Project) -> Result<Image, String>;

/// What to forge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForgeConfig {
    /// The pattern (`None`: the first applicable one in catalogue order).
    pub pattern: Option<Pattern>,
    /// One operator only.
    pub operator: Option<Operator>,
    /// Seed of site order and fresh ids.
    pub seed: u64,
    /// K: most trials (variants synthesized and validated).
    pub trials: u32,
    /// Oracle parameters (R, H, checkpoints, thresholds, assertions).
    pub oracle: OracleConfig,
    /// Templates used for scenarios.
    pub scenarios: ScenarioConfig,
}

impl Default for ForgeConfig {
    fn default() -> Self {
        ForgeConfig {
            pattern: None,
            operator: None,
            seed: 0,
            trials: 20,
            oracle: OracleConfig::default(),
            scenarios: ScenarioConfig::default(),
        }
    }
}

/// Most trials accepted.
pub const MAX_TRIALS: u32 = 1000;

/// One trial.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trial {
    /// The site.
    pub site: Site,
    /// Accepted.
    pub accepted: bool,
    /// Why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The model-facing half of a bug record: no site, no fix.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelFacing {
    /// What goes wrong.
    pub symptom: String,
    /// What should happen.
    pub expected: String,
    /// The interaction that shows it (canonical vocabulary).
    pub trigger: String,
    /// The scenario (suite case) that reproduces it.
    pub scenario: String,
}

/// Where the bug was injected.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteRef {
    pub sprite: String,
    pub script_top: String,
    pub block: String,
}

/// The ground-truth half of a bug record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroundTruth {
    /// The mechanism tag.
    pub mechanism: Pattern,
    pub site: SiteRef,
    /// Gold → buggy block edits.
    pub forward: Json,
    /// Buggy → gold block edits (the minimal gold fix).
    pub inverse: Json,
}

/// How the bug was validated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Validation {
    pub reruns: u32,
    pub ticks: u64,
    pub fps: u32,
    pub theta_pass: f64,
    pub theta_fail: f64,
    pub p_gold: f64,
    pub p_bug: f64,
    pub trials_used: u32,
    pub seed: u64,
}

/// A bug record (`bug.json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BugRecord {
    pub pattern: Pattern,
    pub operator: Operator,
    pub model_facing: ModelFacing,
    pub ground_truth: GroundTruth,
    pub validation: Validation,
    /// The assertions of the suite, with what the buggy program showed.
    pub assertions: Vec<Assertion>,
}

/// A validated bug.
#[derive(Debug, Clone)]
pub struct Bug {
    /// The record.
    pub record: BugRecord,
    /// The buggy project.
    pub buggy: Project,
    /// The suite (JSON).
    pub suite: Json,
}

/// What a forge call produced (`gobo forge --json`, `POST /v1/bugs/inject`).
#[derive(Debug, Clone, Serialize)]
pub struct ForgeOutcome {
    /// A bug was validated.
    pub success: bool,
    /// The pattern tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Pattern>,
    /// `no_site` (the pattern does not apply), `not_testable` (every trial was rejected),
    /// `no_scenario` (the gold program does not run the scenarios to their end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The record, when a bug was validated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<BugRecord>,
    /// Every trial.
    pub trials: Vec<Trial>,
    /// Sites of the pattern.
    pub sites: usize,
    /// Engine work.
    pub work: Work,
    #[serde(skip)]
    pub bug: Option<Bug>,
}

/// Why a forge call could not run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ForgeError {
    /// A parameter is out of range.
    Config(String),
    /// The gold project cannot be compiled or its scenarios prepared.
    Gold(String),
}

impl core::fmt::Display for ForgeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ForgeError::Config(e) => write!(f, "configuration: {e}"),
            ForgeError::Gold(e) => write!(f, "gold project: {e}"),
        }
    }
}

impl core::error::Error for ForgeError {}

/// Patterns with at least one site in `project`, in catalogue order.
pub fn applicable(project: &Project) -> Vec<Pattern> {
    Pattern::ALL
        .into_iter()
        .filter(|p| !sites(project, &p.operators().collect::<Vec<_>>()).is_empty())
        .collect()
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Sites ranked, shuffled within each rank by `seed` (Fisher–Yates).
fn order(mut all: Vec<Site>, seed: u64) -> Vec<Site> {
    let mut state = seed;
    all.sort_by_key(|s| s.rank);
    let mut start = 0;
    while start < all.len() {
        let rank = all[start].rank;
        let end = all[start..].iter().position(|s| s.rank != rank).map_or(all.len(), |k| start + k);
        for i in (start + 1..end).rev() {
            let j = start + (splitmix(&mut state) % (i - start + 1) as u64) as usize;
            all.swap(i, j);
        }
        start = end;
    }
    all
}

fn to_json(edits: &[crate::scratch::project::patch::BlockEdit]) -> Json {
    serde_json::from_slice(&edits_to_json(edits).to_bytes()).unwrap_or(Json::Null)
}

/// Injects the operator's patch at `site`: the buggy project, and the forward and inverse
/// patches, or why the site cannot be used.
pub fn inject(gold: &Project, site: &Site, seed: u64) -> Result<(Project, Json, Json), String> {
    let bytes = serde_json::to_vec(&site.forward).map_err(|e| e.to_string())?;
    let edits =
        parse_block_edits(&bytes, 100).map_err(|e| format!("the patch does not parse: {e}"))?;
    let opts = PatchOptions { seed, ..PatchOptions::default() };
    let mut buggy = gold.clone();
    apply_block_edits(&mut buggy, &edits, &opts)
        .map_err(|e| format!("the patch does not apply: {e}"))?;
    let inverse = invert(gold, &edits, &opts).map_err(|e| format!("no inverse: {e}"))?;
    let mut back = buggy.clone();
    apply_block_edits(&mut back, &inverse, &PatchOptions { seed, ..PatchOptions::default() })
        .map_err(|e| format!("the inverse does not apply: {e}"))?;
    if save(&back) != save(gold) {
        return Err(String::from("the inverse does not restore the gold project.json"));
    }
    Ok((buggy, to_json(&edits), to_json(&inverse)))
}

fn phrase(a: &Assertion) -> (String, String) {
    let f = &a.feature;
    let what = match f.signal.split_once(':') {
        Some(("vars", v)) => format!("variable '{v}'"),
        Some(("lists", v)) => format!("list '{v}'"),
        Some(("pose", v)) => match v.rsplit_once('.') {
            Some((s, p)) => format!("{s}'s {p}"),
            None => String::from(v),
        },
        Some(("costume", s)) => format!("{s}'s costume number"),
        Some(("visibility", s)) => format!("whether {s} is shown"),
        Some(("clones", s)) => format!("the number of {s} clones"),
        Some(("broadcast", m)) => format!("how often message '{m}' is sent"),
        Some(("says", s)) => format!("whether {s} says '{}'", f.value.as_str().unwrap_or("")),
        _ => f.signal.clone(),
    };
    let when = match f.frame {
        Some(fr) => format!("at frame {fr}"),
        None => String::from("by the end of the run"),
    };
    let shown = |v: &Json| match v {
        Json::String(s) => format!("'{s}'"),
        other => other.to_string(),
    };
    (
        format!("In scenario '{}', {when}, {what} is {}.", f.case, shown(&a.observed)),
        format!("{what} should be {} {when}.", shown(&f.value)),
    )
}

/// Runs Algorithm 1 on `gold` (compiled as `gold_image`).
pub fn forge(
    gold: &Project,
    gold_image: &Image,
    build: Build<'_>,
    cfg: &ForgeConfig,
) -> Result<ForgeOutcome, ForgeError> {
    if cfg.trials == 0 || cfg.trials > MAX_TRIALS {
        return Err(ForgeError::Config(format!("trials must be 1..={MAX_TRIALS}")));
    }
    let pattern = match (cfg.operator, cfg.pattern) {
        (Some(op), Some(p)) if op.pattern() != p => {
            return Err(ForgeError::Config(format!(
                "operator {} is not of pattern {}",
                op.id(),
                p.tag()
            )));
        }
        (Some(op), _) => Some(op.pattern()),
        (None, Some(p)) => Some(p),
        (None, None) => applicable(gold).first().copied(),
    };
    let mut out = ForgeOutcome {
        success: false,
        pattern,
        reason: Some("no_site"),
        record: None,
        trials: Vec::new(),
        sites: 0,
        work: Work::default(),
        bug: None,
    };
    let Some(pattern) = pattern else { return Ok(out) };
    let ops: Vec<Operator> = match cfg.operator {
        Some(op) => alloc::vec![op],
        None => pattern.operators().collect(),
    };
    let candidates = order(sites(gold, &ops), cfg.seed);
    out.sites = candidates.len();
    if candidates.is_empty() {
        return Ok(out);
    }
    // Scenarios and the gold recording, once.
    let scen_cfg = ScenarioConfig { frames: cfg.oracle.ticks, ..cfg.scenarios.clone() };
    let scenarios = instantiate(&extract(gold), &scen_cfg);
    let gold_text = String::from_utf8(save(gold)).map_err(|e| ForgeError::Gold(e.to_string()))?;
    let prep = oracle::prepare(&scenarios.suite("scenarios"), &gold_text, &cfg.oracle)
        .map_err(|e| ForgeError::Gold(e.to_string()))?;
    let rec = oracle::record_gold(&prep, gold_image, &cfg.oracle);
    out.work.add(&rec.work);
    if rec.cases.iter().all(|(_, runs)| runs.iter().any(|r| !r.completed)) {
        out.reason = Some("no_scenario");
        return Ok(out);
    }
    out.reason = Some("not_testable");
    let mut used = 0u32;
    for site in candidates {
        if used >= cfg.trials {
            break;
        }
        let (buggy, forward, inverse) = match inject(gold, &site, cfg.seed) {
            Ok(x) => x,
            Err(reason) => {
                out.trials.push(Trial { site, accepted: false, reason: Some(reason) });
                continue;
            }
        };
        used += 1;
        let image = match build(&buggy) {
            Ok(i) => i,
            Err(e) => {
                out.trials.push(Trial {
                    site,
                    accepted: false,
                    reason: Some(format!("does not compile: {e}")),
                });
                continue;
            }
        };
        let syn: Synthesis = oracle::synthesize(&prep, &rec, gold_image, &image, &cfg.oracle);
        out.work.add(&syn.work);
        if !syn.accepted {
            out.trials.push(Trial { site, accepted: false, reason: syn.reason });
            continue;
        }
        let pass = syn.pass.clone();
        let (p_gold, p_bug) = pass.map_or((0.0, 0.0), |p| (p.p_gold, p.p_bug));
        let first = syn.assertions.first();
        let (symptom, expected) = first.map(phrase).unwrap_or_default();
        let record = BugRecord {
            pattern,
            operator: site.operator,
            model_facing: ModelFacing {
                symptom,
                expected,
                trigger: first.map(|a| a.trigger.clone()).unwrap_or_default(),
                scenario: first.map(|a| a.feature.case.clone()).unwrap_or_default(),
            },
            ground_truth: GroundTruth {
                mechanism: pattern,
                site: SiteRef {
                    sprite: site.sprite.clone(),
                    script_top: site.script_top.clone(),
                    block: site.block.clone(),
                },
                forward,
                inverse,
            },
            validation: Validation {
                reruns: cfg.oracle.reruns,
                ticks: cfg.oracle.ticks,
                fps: prep.suite.fps,
                theta_pass: cfg.oracle.theta_pass,
                theta_fail: cfg.oracle.theta_fail,
                p_gold,
                p_bug,
                trials_used: used,
                seed: cfg.seed,
            },
            assertions: syn.assertions.clone(),
        };
        out.trials.push(Trial { site, accepted: true, reason: None });
        out.success = true;
        out.reason = None;
        out.record = Some(record.clone());
        out.bug = Some(Bug { record, buggy, suite: syn.suite });
        return Ok(out);
    }
    Ok(out)
}
