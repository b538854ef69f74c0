//! The repair toolkit's whole calls on project files, shared by every host: scenario
//! instantiation (`gobo scenarios`), differential oracle synthesis (`gobo oracle`) and the Bug
//! Forge (`gobo forge`), the probe and staged verification (`gobo probe`, `gobo verify`), with
//! the oracle's parameters as one serde type, so the server's endpoints and the Python functions
//! accept the same names and defaults as the CLI's flags. The semantics are the core's
//! (`gobo::scratch::{forge, oracle, signals}`); this module loads, compiles and packs files.

use gobo::scratch::forge::{
    applicable, extract, instantiate, parse_templates, sites, Bug, ForgeConfig, ForgeOutcome,
    Operator, Pattern, ScenarioConfig,
};
use gobo::scratch::oracle::{prepare, record_gold, synthesize, OracleConfig, Synthesis};
use gobo::scratch::project::{save, LoadOptions, Project};
use gobo::scratch::signals::{self, Probe, ProbeConfig, Verification, VerifyConfig};
use serde::Deserialize;
use serde_json::Value as Json;

use crate::project::{compile_project, load_files};
use crate::sb3::{repack, ProjectFiles};

/// A project loaded from its files (Scratch 2 converted), with the files its edited variants
/// are compiled and repacked with.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The model.
    pub project: Project,
    /// The files (Scratch 3).
    pub files: ProjectFiles,
}

impl Loaded {
    /// Loads `files`, dropping dangling references as scratch-vm does.
    pub fn new(files: &ProjectFiles) -> Result<Loaded, String> {
        let (project, files) = load_files(files, &LoadOptions { repair_references: true })
            .map_err(|e| e.to_string())?;
        Ok(Loaded { project, files: files.into_owned() })
    }
}

/// The scenario and oracle parameters (`gobo oracle`'s flags; the request fields of
/// `/v1/oracles/synthesize` and `/v1/bugs/inject`; Python's keyword arguments). Absent
/// fields take the CLI's defaults.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OracleParams {
    /// R: every case reruns under seeds 1..=R.
    pub reruns: u32,
    /// H: frames per case.
    pub ticks: u64,
    /// Checkpoint spacing in frames.
    pub every: u64,
    /// θ_pass: least hold rate on gold.
    pub theta_pass: f64,
    /// θ_fail: most hold rate on the buggy program.
    pub theta_fail: f64,
    /// Most assertions in the suite.
    pub max_assertions: usize,
    /// Templates, comma-separated (`None`: all).
    pub templates: Option<String>,
    /// Most scenario cases kept.
    pub max_cases: usize,
}

impl Default for OracleParams {
    fn default() -> Self {
        let o = OracleConfig::default();
        OracleParams {
            reruns: o.reruns,
            ticks: o.ticks,
            every: o.every,
            theta_pass: o.theta_pass,
            theta_fail: o.theta_fail,
            max_assertions: o.max_assertions,
            templates: None,
            max_cases: ScenarioConfig::default().max_cases,
        }
    }
}

impl OracleParams {
    /// The oracle's configuration.
    pub fn oracle(&self) -> OracleConfig {
        OracleConfig {
            reruns: self.reruns,
            ticks: self.ticks,
            every: self.every,
            theta_pass: self.theta_pass,
            theta_fail: self.theta_fail,
            max_assertions: self.max_assertions,
            ..OracleConfig::default()
        }
    }

    /// The scenario templates' configuration (an unknown template name is an error).
    pub fn scenarios(&self) -> Result<ScenarioConfig, String> {
        let mut cfg = ScenarioConfig {
            frames: self.ticks,
            max_cases: self.max_cases,
            ..ScenarioConfig::default()
        };
        if let Some(t) = &self.templates {
            cfg.templates = parse_templates(t)?;
        }
        Ok(cfg)
    }

    /// Frames one program runs at most for these parameters (every case, every rerun).
    pub fn frames_per_program(&self) -> u64 {
        u64::from(self.reruns).saturating_mul(self.ticks).saturating_mul(self.max_cases as u64)
    }
}

/// The document of `gobo scenarios --json`: `{meta, fps, frames, cases}`.
pub fn scenarios(project: &Project, cfg: &ScenarioConfig) -> Json {
    serde_json::to_value(instantiate(&extract(project), cfg)).unwrap_or_default()
}

/// Synthesizes a suite separating `gold` from `buggy` (`gobo oracle`): over `cases` (a suite
/// document) or, when `None`, the templates instantiated on the gold project. The synthesis
/// carries the work of recording gold and of checking the buggy program.
pub fn oracle(
    gold: &Loaded,
    buggy: &Loaded,
    cases: Option<&Json>,
    params: &OracleParams,
) -> Result<Synthesis, String> {
    let cfg = params.oracle();
    let made;
    let cases = match cases {
        Some(c) => c,
        None => {
            made = instantiate(&extract(&gold.project), &params.scenarios()?).suite("scenarios");
            &made
        }
    };
    let gold_text = String::from_utf8(save(&gold.project)).unwrap_or_default();
    let prep = prepare(cases, &gold_text, &cfg).map_err(|e| e.to_string())?;
    let gold_image =
        compile_project(&gold.project, &gold.files).map_err(|e| format!("gold project: {e}"))?;
    let buggy_image =
        compile_project(&buggy.project, &buggy.files).map_err(|e| format!("buggy project: {e}"))?;
    let rec = record_gold(&prep, &gold_image, &cfg);
    let mut syn = synthesize(&prep, &rec, &gold_image, &buggy_image, &cfg);
    syn.work.add(&rec.work);
    Ok(syn)
}

/// What to forge: the pattern or the operator (by tag and id), the seed and K.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ForgeParams {
    /// The pattern's tag (e.g. `desynchronization`); `None`: the first applicable one.
    pub pattern: Option<String>,
    /// One operator's id (e.g. `sync.nowait`).
    pub operator: Option<String>,
    /// Seed of the site order and of fresh block ids.
    pub seed: u64,
    /// K: most trials.
    pub trials: u32,
}

impl Default for ForgeParams {
    fn default() -> Self {
        ForgeParams { pattern: None, operator: None, seed: 0, trials: 20 }
    }
}

impl ForgeParams {
    /// The forge's configuration, with the oracle's parameters.
    pub fn config(&self, oracle: &OracleParams) -> Result<ForgeConfig, String> {
        if self.pattern.is_some() && self.operator.is_some() {
            return Err("give a pattern or an operator, not both".into());
        }
        let pattern = match &self.pattern {
            Some(p) => Some(Pattern::from_tag(p).ok_or_else(|| {
                let tags: Vec<&str> = Pattern::ALL.iter().map(|p| p.tag()).collect();
                format!("unknown pattern '{p}' (known: {})", tags.join(", "))
            })?),
            None => None,
        };
        let operator = match &self.operator {
            Some(o) => Some(Operator::from_id(o).ok_or_else(|| {
                let ids: Vec<&str> = Operator::ALL.iter().map(|o| o.id()).collect();
                format!("unknown operator '{o}' (known: {})", ids.join(", "))
            })?),
            None => None,
        };
        Ok(ForgeConfig {
            pattern,
            operator,
            seed: self.seed,
            trials: self.trials,
            oracle: oracle.oracle(),
            scenarios: oracle.scenarios()?,
        })
    }
}

/// Forges one bug on `gold` (`gobo forge`).
pub fn forge(gold: &Loaded, cfg: &ForgeConfig) -> Result<ForgeOutcome, String> {
    let gold_image = compile_project(&gold.project, &gold.files).map_err(|e| e.to_string())?;
    let build = |p: &Project| compile_project(p, &gold.files).map_err(|e| e.to_string());
    gobo::scratch::forge::forge(&gold.project, &gold_image, &build, cfg).map_err(|e| e.to_string())
}

/// The files `gobo forge -o DIR` writes for a validated bug, by name: `buggy.sb3` (the gold
/// project's assets kept, deterministic bytes), `forward.json`, `inverse.json`, `bug.json` and
/// `suite.json` (indented, newline-terminated).
pub fn bug_files(files: &ProjectFiles, bug: &Bug) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    let (sb3, _) = repack(files, save(&bug.buggy)).map_err(|e| e.to_string())?;
    let pretty = |v: &Json| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
    let record = serde_json::to_value(&bug.record).unwrap_or_default();
    Ok(vec![
        ("buggy.sb3", sb3),
        ("forward.json", pretty(&bug.record.ground_truth.forward).into_bytes()),
        ("inverse.json", pretty(&bug.record.ground_truth.inverse).into_bytes()),
        ("bug.json", pretty(&record).into_bytes()),
        ("suite.json", pretty(&bug.suite).into_bytes()),
    ])
}

/// The ranked injection sites of `project` for a pattern or one operator (every applicable
/// pattern when both are `None`), rank 0 first: `{patterns, sites: [{operator, sprite,
/// script_top, block, rank}]}`
/// (`POST /v1/bugs/sites`).
pub fn ranked_sites(project: &Project, params: &ForgeParams) -> Result<Json, String> {
    let cfg = params.config(&OracleParams::default())?;
    let patterns: Vec<Pattern> = match (cfg.operator, cfg.pattern) {
        (Some(op), _) => vec![op.pattern()],
        (None, Some(p)) => vec![p],
        (None, None) => applicable(project),
    };
    let ops: Vec<Operator> = match cfg.operator {
        Some(op) => vec![op],
        None => patterns.iter().flat_map(|p| p.operators()).collect(),
    };
    let out = serde_json::to_value(sites(project, &ops)).map_err(|e| e.to_string())?;
    let tags: Vec<&str> = patterns.iter().map(|p| p.tag()).collect();
    Ok(serde_json::json!({"patterns": tags, "sites": out}))
}

/// Probes `buggy` against `gold` on the cases of `suite` (`gobo probe`, SPEC §3.2).
pub fn probe(
    gold: &Loaded,
    buggy: &Loaded,
    suite: &Json,
    cfg: &ProbeConfig,
) -> Result<Probe, String> {
    let gold_image =
        compile_project(&gold.project, &gold.files).map_err(|e| format!("gold project: {e}"))?;
    let buggy_image =
        compile_project(&buggy.project, &buggy.files).map_err(|e| format!("buggy project: {e}"))?;
    let gold_text = String::from_utf8(save(&gold.project)).unwrap_or_default();
    signals::probe(suite, &gold_text, &gold_image, &buggy_image, cfg).map_err(|e| e.to_string())
}

/// Staged verification of the candidate held in `files` against `suite` (`gobo verify`, SPEC
/// §3.3): a candidate that does not load fails the static stage; only a suite that is not a
/// suite document is an error.
pub fn verify(
    files: &ProjectFiles,
    suite: &Json,
    cfg: &VerifyConfig,
) -> Result<Verification, String> {
    let files = crate::project::scratch3_files(files);
    let build = |p: &Project| compile_project(p, &files).map_err(|e| e.to_string());
    let present = |name: &str| files.assets.contains_key(name);
    signals::verify(&files.project_json, suite, &build, Some(&present), cfg)
        .map_err(|e| e.to_string())
}
