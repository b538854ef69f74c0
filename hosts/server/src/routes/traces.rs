//! `POST /v1/traces/diff`: two traces compared (first divergence, per-signal discrepancy,
//! drift), the report of `gobo diff-trace --json` (`gobo::scratch::diff`).

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::scratch::diff::{diff_traces, DiffOptions, Signal};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{ApiError, ApiJson, ErrorBody};

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
