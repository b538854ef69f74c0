//! `POST /v1/traces/diff`: two traces compared (first divergence, per-signal discrepancy,
//! drift), the report of `gobo diff-trace --json` (`gobo::scratch::diff`); `POST
//! /v1/metrics/drift`: ScratchEval's semantic drift of a candidate from its gold project on one
//! scenario (SPEC §2.8), both run as `POST /v1/run` runs them and compared as `gobo diff-trace
//! --every N` compares their traces.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::scratch::diff::{diff_traces, DiffOptions, Signal};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::scratch::{trace_files, RunParams};
use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::{files_of, project_bytes};
use serde_json::value::RawValue;

/// `POST /v1/traces/diff`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceDiffRequest {
    /// Trace A (JSON lines, `docs/trace.md`).
    pub a: String,
    /// Trace B.
    pub b: String,
    /// Signals to score (vars, lists, pose, costume, visibility, backdrop, broadcasts, says);
    /// the first divergence is then searched only in their fields.
    pub signals: Option<Vec<String>>,
    /// Numbers closer than this compare equal (default 0).
    pub tolerance: Option<f64>,
}

fn diff(req: &TraceDiffRequest) -> Result<Value, ApiError> {
    let mut opts = DiffOptions::default();
    if let Some(t) = req.tolerance {
        if !(t.is_finite() && t >= 0.0) {
            return Err(
                ApiError::invalid("invalid_request", "tolerance is a number ≥ 0").at("tolerance")
            );
        }
        opts.tolerance = t;
    }
    if let Some(names) = &req.signals {
        let mut signals = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let s: Signal = name.parse().map_err(|e: String| {
                ApiError::invalid("invalid_request", e).at(format!("signals[{i}]"))
            })?;
            signals.push(s);
        }
        opts.signals = signals;
        opts.restrict_first = true;
    }
    let report = diff_traces(&req.a, &req.b, &opts)
        .map_err(|e| ApiError::invalid("bad_trace", e.to_string()))?;
    Ok(report.to_json())
}

/// Compare two traces.
///
/// The report of `gobo diff-trace --json` (`docs/trace-diff.md`): `{identical, frames_a,
/// frames_b, checkpoints, first_divergence, signals, drift}`.
#[utoipa::path(post, path = "/v1/traces/diff", tag = "scratch", request_body = TraceDiffRequest,
    responses((status = 200, description = "The comparison", body = Object),
        (status = 422, description = "A trace or signal cannot be read", body = ErrorBody)))]
pub async fn traces_diff(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<TraceDiffRequest>,
) -> Result<Json<Value>, ApiError> {
    app.pool.run(move || diff(&req)).await?.map(Json)
}

/// `POST /v1/metrics/drift`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DriftRequest {
    /// The gold project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub gold: Box<RawValue>,
    /// The candidate (a patched or agent-written project).
    #[schema(value_type = crate::input::ProjectInput)]
    pub candidate: Box<RawValue>,
    /// Scenario (refvm format: an event list or `{frames, seed, events}`); default: the green
    /// flag at frame 0.
    #[schema(value_type = Option<Object>)]
    pub scenario: Option<Box<RawValue>>,
    /// Frames to run each project (default: the scenario's, else 300).
    pub frames: Option<u64>,
    /// Seed of block randomness for both runs (default: the scenario's, else 1).
    pub seed: Option<u32>,
    /// Frames per second, 30 to 60 (default 30).
    pub fps: Option<u32>,
    /// Signals or sets (`all`, `scratcheval` = all but says) scored and searched for the first
    /// divergence (default `["scratcheval"]`, SPEC §2.8).
    pub signals: Option<Vec<String>>,
    /// Score every N-th frame plus the last (default 10, SPEC §2.8; 0 scores every frame).
    pub every: Option<u64>,
    /// Numbers closer than this compare equal (default 0).
    pub tolerance: Option<f64>,
}

fn drift(engine: &Engine, req: &DriftRequest) -> Result<Value, ApiError> {
    let tolerance = req.tolerance.unwrap_or(0.0);
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(
            ApiError::invalid("invalid_request", "tolerance is a number ≥ 0").at("tolerance")
        );
    }
    let names = req.signals.clone().unwrap_or_else(|| vec![String::from("scratcheval")]);
    let signals = Signal::parse_list(&names)
        .map_err(|e| ApiError::invalid("invalid_request", e).at("signals"))?;
    let opts =
        DiffOptions { signals, restrict_first: true, tolerance, every: req.every.unwrap_or(10) };
    let trace = |raw: &RawValue, what: &str| -> Result<String, ApiError> {
        let bytes = project_bytes(raw, &engine.blobs, what)?;
        let files = files_of(&bytes, what)?;
        let params = RunParams {
            scenario: req.scenario.as_deref(),
            frames: req.frames,
            seed: req.seed,
            fps: req.fps,
            assets: gobo_host::sb3::AssetLoad::of(&files, bytes.starts_with(b"PK")),
            ..RunParams::default()
        };
        trace_files(engine, &files, &gobo::md5::hex(&bytes), &params).map_err(|e| {
            if e.path.as_deref() == Some("project") {
                e.at(what)
            } else {
                e
            }
        })
    };
    let (gold, candidate) = (trace(&req.gold, "gold")?, trace(&req.candidate, "candidate")?);
    let report = diff_traces(&gold, &candidate, &opts)
        .map_err(|e| ApiError::internal(format!("a run's own trace did not read back: {e}")))?;
    Ok(report.to_json())
}

/// The semantic drift of a candidate from its gold project.
///
/// Both projects run the scenario with the same seed; their traces are compared on the
/// chosen signals at every N-th frame plus the last: the report of `gobo diff-trace A B
/// --every N --signals ... --json` on the two `gobo run --trace` traces (`docs/trace-diff.md`):
/// `{identical, frames_a, frames_b, checkpoints, first_divergence, signals, drift}`, A being
/// the gold project.
#[utoipa::path(post, path = "/v1/metrics/drift", tag = "scratch", request_body = DriftRequest,
    responses((status = 200, description = "The comparison", body = Object),
        (status = 422, description = "Unusable project, scenario or signal, or over the work budget", body = ErrorBody)))]
pub async fn metrics_drift(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<DriftRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || drift(&a.engine, &req)).await?.map(Json)
}
