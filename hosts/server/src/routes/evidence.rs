//! Hooks and visual evidence: `POST /v1/hooks` (`gobo hooks --json`: every hat script's
//! trigger and the state it writes) and `POST /v1/record` (`gobo record --json`: stage
//! pictures, keyframes, a contact sheet and an animated PNG, optionally gold beside the
//! candidate). The calls are the core's `forge::hooks` and `gobo_host::evidence`, within the
//! request's work budget (frames, pictures).

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use base64::Engine as _;
use gobo::scratch::forge::hooks;
use gobo_host::cost::Stopwatch;
use gobo_host::evidence::{record, RecordParams};
use gobo_host::project::compile_files;
use gobo_host::repair::Loaded;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use utoipa::ToSchema;

use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::project_files;
use crate::routes::scratch::scenario_of;

/// `POST /v1/hooks`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HooksRequest {
    /// The project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
}

/// Every hat script's trigger, the signals it writes and the custom blocks it calls.
///
/// The document of `gobo hooks --json` (docs/signals.md): `{hooks: [{sprite, block, trigger,
/// writes, calls}]}`.
#[utoipa::path(post, path = "/v1/hooks", tag = "repair", request_body = HooksRequest,
    responses((status = 200, description = "The hooks", body = Object),
        (status = 422, description = "The project cannot be read", body = ErrorBody)))]
pub async fn hooks_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<HooksRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool
        .run(move || {
            let files = project_files(&req.project, &a.engine.blobs, "project")?;
            let loaded = Loaded::new(&files)
                .map_err(|e| ApiError::invalid("bad_project", e).at("project"))?;
            Ok(Json(json!({ "hooks": hooks(&loaded.project) })))
        })
        .await?
}

/// `POST /v1/record`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    /// The project (the candidate, when `gold` is given).
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// A gold project, drawn on the left of every picture.
    #[schema(value_type = Option<crate::input::ProjectInput>)]
    pub gold: Option<Box<RawValue>>,
    /// The scenario (the reference harness's format, as for `/v1/render`); default: the green
    /// flag at frame 0.
    #[schema(value_type = Option<Object>)]
    pub scenario: Option<Box<RawValue>>,
    /// Keep every N-th frame (default 3).
    pub every: Option<u64>,
    /// Frames to run (default: the scenario's `frames`, else 300).
    pub frames: Option<u64>,
    /// Keyframes on the contact sheet (default 4).
    pub keyframes: Option<usize>,
    /// Block randomness seed (default: the scenario's, else 1).
    pub seed: Option<u32>,
}

fn record_doc(engine: &Engine, req: &RecordRequest) -> Result<Value, ApiError> {
    let watch = Stopwatch::start();
    let scenario = scenario_of(req.scenario.as_deref())?;
    let d = RecordParams::default();
    let params = RecordParams {
        every: req.every.unwrap_or(d.every),
        frames: req.frames,
        keyframes: req.keyframes.unwrap_or(d.keyframes),
        seed: req.seed,
    };
    let cfg = params.config(&scenario);
    let limits = &engine.limits;
    if cfg.frames > limits.max_frames {
        let m = format!("{} frames asked; the work budget is {}", cfg.frames, limits.max_frames);
        return Err(ApiError::invalid("work_budget", m).at("frames"));
    }
    let pictures = cfg.frames.div_ceil(cfg.every.max(1));
    if pictures > limits.max_record_pictures as u64 {
        let m = format!(
            "frames / every = {pictures} pictures; the work budget is {}",
            limits.max_record_pictures
        );
        return Err(ApiError::invalid("work_budget", m).at("every"));
    }
    let image = |raw: &RawValue, path: &str| {
        let files = project_files(raw, &engine.blobs, path)?;
        compile_files(&files)
            .map(|c| c.image)
            .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at(path))
    };
    let candidate = image(&req.project, "project")?;
    let gold = req.gold.as_deref().map(|g| image(g, "gold")).transpose()?;
    let ev = record(candidate, gold, &scenario, &cfg)
        .map_err(|e| ApiError::invalid("bad_request", e.to_string()))?;
    let b64 = base64::engine::general_purpose::STANDARD;
    let files: Map<String, Value> =
        ev.files().map(|(name, bytes)| (name.to_string(), b64.encode(bytes).into())).collect();
    let mut doc = ev.manifest();
    doc["files"] = Value::Object(files);
    doc["time"] = serde_json::to_value(watch.timing()).unwrap_or_default();
    Ok(doc)
}

/// Visual evidence of a run (SPEC §3.7).
///
/// The manifest of `gobo record --json` (docs/evidence.md: `width`, `height`, `side_by_side`,
/// `samples`, `keyframes`, `config`, `work`, `sheet`, `animation`, `time`) and `files`: every
/// picture `gobo record -o DIR` writes, by file name, as base64 PNG (the samples, `sheet.png`
/// and the animated `clip.png`). At most the server's picture budget of samples.
#[utoipa::path(post, path = "/v1/record", tag = "repair", request_body = RecordRequest,
    responses((status = 200, description = "The recording", body = Object),
        (status = 422, description = "Unusable project or scenario, or over the work budget", body = ErrorBody)))]
pub async fn record_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<RecordRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || record_doc(&a.engine, &req)).await?.map(Json)
}
