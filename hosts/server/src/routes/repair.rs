//! Repair-toolkit endpoints (docs/bug-forge.md, docs/oracles.md): `POST
//! /v1/scenarios/instantiate` (`gobo scenarios --json`), `POST /v1/oracles/synthesize` (`gobo
//! oracle --json`), `POST /v1/bugs/inject` (`gobo forge --json`, with the buggy `.sb3` stored
//! as a blob and the patches and suite in the answer) and `POST /v1/bugs/sites`. The calls are
//! `gobo_host::repair`'s, within the request's work budget (frames and trials).

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::scratch::project::save;
use gobo_host::repair::{self, Loaded, OracleParams};
use gobo_host::sb3;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::project_files;

/// The oracle parameters a request may give (absent: the CLI's defaults).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OracleFields {
    /// R: every case reruns under seeds 1..=R (default 5).
    pub reruns: Option<u32>,
    /// H: frames per case (default 2000).
    pub ticks: Option<u64>,
    /// Checkpoint spacing in frames (default 10).
    pub every: Option<u64>,
    /// θ_pass (default 0.9).
    pub theta_pass: Option<f64>,
    /// θ_fail (default 0.1).
    pub theta_fail: Option<f64>,
    /// Most assertions (default 5).
    pub max_assertions: Option<usize>,
    /// Templates, comma-separated (default: all).
    pub templates: Option<String>,
    /// Most scenario cases (default 12).
    pub max_cases: Option<usize>,
}

impl OracleFields {
    /// The parameters, checked against the frame budget: one program runs at most reruns ×
    /// cases × ticks frames.
    fn params(&self, engine: &Engine) -> Result<OracleParams, ApiError> {
        let d = OracleParams::default();
        let p = OracleParams {
            reruns: self.reruns.unwrap_or(d.reruns),
            ticks: self.ticks.unwrap_or(d.ticks),
            every: self.every.unwrap_or(d.every),
            theta_pass: self.theta_pass.unwrap_or(d.theta_pass),
            theta_fail: self.theta_fail.unwrap_or(d.theta_fail),
            max_assertions: self.max_assertions.unwrap_or(d.max_assertions),
            templates: self.templates.clone(),
            max_cases: self.max_cases.unwrap_or(d.max_cases),
        };
        let frames = p.frames_per_program();
        if frames > engine.limits.max_frames {
            return Err(ApiError::invalid(
                "work_budget",
                format!(
                    "reruns × max_cases × ticks = {frames} frames per program; the work budget is {}",
                    engine.limits.max_frames
                ),
            ));
        }
        Ok(p)
    }
}

fn loaded(engine: &Engine, raw: &RawValue, path: &str) -> Result<Loaded, ApiError> {
    let files = project_files(raw, &engine.blobs, path)?;
    Loaded::new(&files).map_err(|e| ApiError::invalid("bad_project", e).at(path))
}

fn config_error(e: String) -> ApiError {
    ApiError::invalid("bad_request", e)
}

/// `POST /v1/scenarios/instantiate`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenariosRequest {
    /// The project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// Templates, comma-separated (default: all).
    pub templates: Option<String>,
    /// H: frames every case runs (default 2000).
    pub ticks: Option<u64>,
    /// Most cases kept (default 12).
    pub max_cases: Option<usize>,
}

fn scenarios(engine: &Engine, req: &ScenariosRequest) -> Result<Value, ApiError> {
    let gold = loaded(engine, &req.project, "project")?;
    let fields = OracleFields {
        ticks: req.ticks,
        templates: req.templates.clone(),
        max_cases: req.max_cases,
        reruns: Some(1),
        ..OracleFields::default()
    };
    let cfg = fields.params(engine)?.scenarios().map_err(config_error)?;
    Ok(repair::scenarios(&gold.project, &cfg))
}

/// Instantiate the scenario templates on a project.
///
/// The document of `gobo scenarios --json`: `{meta: {keys, clickable, messages, asks, mouse,
/// ...}, fps, frames, cases}`, the cases without assertions (docs/bug-forge.md).
#[utoipa::path(post, path = "/v1/scenarios/instantiate", tag = "repair",
    request_body = ScenariosRequest,
    responses((status = 200, description = "The metadata and the cases", body = Object),
        (status = 422, description = "Unreadable project, unknown template, or over the work budget", body = ErrorBody)))]
pub async fn scenarios_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<ScenariosRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || scenarios(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/oracles/synthesize`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OracleRequest {
    /// The gold project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub gold: Box<RawValue>,
    /// The buggy project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub buggy: Box<RawValue>,
    /// Scenario cases as a suite document (e.g. `gobo scenarios -o`); default: the templates
    /// instantiated on the gold project.
    #[schema(value_type = Option<Object>)]
    pub cases: Option<Value>,
    /// The oracle's parameters (default: the CLI's).
    #[serde(default)]
    pub oracle: OracleFields,
}

fn oracle(engine: &Engine, req: &OracleRequest) -> Result<Value, ApiError> {
    let params = req.oracle.params(engine)?;
    let gold = loaded(engine, &req.gold, "gold")?;
    let buggy = loaded(engine, &req.buggy, "buggy")?;
    let syn = repair::oracle(&gold, &buggy, req.cases.as_ref(), &params).map_err(config_error)?;
    serde_json::to_value(&syn).map_err(|e| ApiError::internal(e.to_string()))
}

/// Synthesize a suite that passes on the gold program and fails on the buggy one.
///
/// The document of `gobo oracle --json` (docs/oracles.md): `{accepted, reason?, suite,
/// assertions, candidates, features, work}`. No separating suite is a 200 with `accepted:
/// false` and its reason.
#[utoipa::path(post, path = "/v1/oracles/synthesize", tag = "repair", request_body = OracleRequest,
    responses((status = 200, description = "The synthesis report", body = Object),
        (status = 422, description = "Unreadable project or cases, bad parameters, or over the work budget", body = ErrorBody)))]
pub async fn oracle_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<OracleRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || oracle(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/bugs/inject` and `POST /v1/bugs/sites`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InjectRequest {
    /// The gold project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub gold: Box<RawValue>,
    /// The pattern's tag (e.g. `desynchronization`; default: the first applicable one).
    pub pattern: Option<String>,
    /// One operator's id (e.g. `sync.nowait`), instead of a pattern.
    pub operator: Option<String>,
    /// Seed of the site order and of fresh block ids (default 0).
    pub seed: Option<u64>,
    /// K: most trials (default 20; at most the server's trial budget).
    pub trials: Option<u32>,
    /// The oracle's parameters (default: the CLI's).
    #[serde(default)]
    pub oracle: OracleFields,
}

impl InjectRequest {
    fn forge_params(&self) -> repair::ForgeParams {
        repair::ForgeParams {
            pattern: self.pattern.clone(),
            operator: self.operator.clone(),
            seed: self.seed.unwrap_or(0),
            trials: self.trials.unwrap_or(repair::ForgeParams::default().trials),
        }
    }
}

/// A forge's answer: the outcome, and the buggy archive to store.
struct Forged {
    doc: Value,
    buggy_sb3: Option<Vec<u8>>,
}

fn inject(engine: &Engine, req: &InjectRequest) -> Result<Forged, ApiError> {
    let params = req.oracle.params(engine)?;
    let forge = req.forge_params();
    if forge.trials > engine.limits.max_trials {
        return Err(ApiError::invalid(
            "work_budget",
            format!(
                "{} trials asked; the work budget is {}",
                forge.trials, engine.limits.max_trials
            ),
        )
        .at("trials"));
    }
    let cfg = forge.config(&params).map_err(config_error)?;
    let gold = loaded(engine, &req.gold, "gold")?;
    let outcome = repair::forge(&gold, &cfg).map_err(config_error)?;
    let mut doc = serde_json::to_value(&outcome).map_err(|e| ApiError::internal(e.to_string()))?;
    let mut buggy_sb3 = None;
    if let Some(bug) = &outcome.bug {
        let (bytes, _) = sb3::repack(&gold.files, save(&bug.buggy))
            .map_err(|e| ApiError::internal(e.to_string()))?;
        buggy_sb3 = Some(bytes);
        doc["suite"] = bug.suite.clone();
    }
    Ok(Forged { doc, buggy_sb3 })
}

/// Inject one validated bug into a project (the Bug Forge).
///
/// The document of `gobo forge --json` (docs/bug-forge.md): `{success, pattern, reason?,
/// record?, trials, sites, work}`; when a bug was validated, also `suite` (the separating
/// suite) and `buggy_ref`, the stored buggy `.sb3` (`GET /v1/blobs/{ref}`, or a session's
/// `{"ref": ...}` project). The forward and inverse patches are in `record.ground_truth`.
/// No bug is a 200 with `success: false` and its reason.
#[utoipa::path(post, path = "/v1/bugs/inject", tag = "repair", request_body = InjectRequest,
    responses((status = 200, description = "The forge outcome", body = Object),
        (status = 422, description = "Unreadable project, unknown pattern or operator, bad parameters, or over the work budget", body = ErrorBody)))]
pub async fn inject_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<InjectRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    let mut forged = app.pool.run(move || inject(&a.engine, &req)).await??;
    if let Some(bytes) = forged.buggy_sb3.take() {
        let key =
            app.engine.blobs.put(bytes).await.map_err(|e| ApiError::internal(e.to_string()))?;
        forged.doc["buggy_ref"] = json!(key);
    }
    Ok(Json(forged.doc))
}

fn sites(engine: &Engine, req: &InjectRequest) -> Result<Value, ApiError> {
    let gold = loaded(engine, &req.gold, "gold")?;
    repair::ranked_sites(&gold.project, &req.forge_params()).map_err(config_error)
}

/// The Bug Forge's ranked injection sites in a project.
///
/// `{patterns, sites: [{operator, sprite, script_top, block, rank}]}` for the pattern or the
/// operator asked for (every applicable pattern by default), rank 0 (scripts a scenario
/// template starts) first. Only `gold`, `pattern` and `operator` are read.
#[utoipa::path(post, path = "/v1/bugs/sites", tag = "repair", request_body = InjectRequest,
    responses((status = 200, description = "The sites", body = Object),
        (status = 422, description = "Unreadable project, or unknown pattern or operator", body = ErrorBody)))]
pub async fn sites_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<InjectRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || sites(&a.engine, &req)).await?.map(Json)
}
