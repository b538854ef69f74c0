//! `GET /healthz` (the process answers) and `GET /readyz` (it takes requests: the database is
//! open, jobs are resumed, and it is not shutting down).

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;

/// A health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `stopping`.
    pub status: &'static str,
    /// The gobo version.
    pub version: &'static str,
    /// Engine tasks waiting for a worker.
    pub queued: usize,
}

/// Liveness.
#[utoipa::path(get, path = "/healthz", tag = "service",
    responses((status = 200, description = "The process answers", body = Health)))]
pub async fn healthz(State(app): State<Arc<App>>) -> Json<Health> {
    Json(Health { status: "ok", version: env!("CARGO_PKG_VERSION"), queued: app.pool.queued() })
}

/// Readiness.
#[utoipa::path(get, path = "/readyz", tag = "service",
    responses((status = 200, description = "Ready for requests", body = Health),
        (status = 503, description = "Shutting down", body = Health)))]
pub async fn readyz(State(app): State<Arc<App>>) -> (StatusCode, Json<Health>) {
    let ready = app.ready();
    let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    let health = Health {
        status: if ready { "ok" } else { "stopping" },
        version: env!("CARGO_PKG_VERSION"),
        queued: app.pool.queued(),
    };
    (status, Json(health))
}
