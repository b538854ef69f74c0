//! The HTTP surface: every route, the layers around them (body limit, concurrency limit with
//! load shedding), the JSON 404/405 answers, the OpenAPI document and the viewer page.
//! Each submodule holds one area's request types and handlers; handlers only parse, hand the
//! work to the pool, and shape the answer.

pub mod batch;
pub mod blobs;
pub mod checks;
pub mod draw;
pub mod evidence;
pub mod health;
pub mod patches;
pub mod projects;
pub mod repair;
pub mod scratch;
pub mod scratchworld;
pub mod sessions;
pub mod traces;
pub mod xlogo;

use std::sync::Arc;

use axum::error_handling::HandleErrorLayer;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use tower::ServiceBuilder;

use crate::app::App;
use crate::error::ApiError;

/// The viewer page (plain HTML and a little JavaScript).
const VIEWER: &str = include_str!("../../viewer/index.html");

/// The router of `app`.
pub fn router(app: Arc<App>) -> Router {
    let limits = &app.engine.limits;
    let v1 = Router::new()
        .route("/v1/blobs", post(blobs::upload))
        .route("/v1/blobs/{ref}", get(blobs::download))
        .route("/v1/tests/run", post(scratch::tests_run))
        .route("/v1/render", post(scratch::render_handler))
        .route("/v1/run", post(scratch::run_handler))
        .route("/v1/traces/diff", post(traces::traces_diff))
        .route("/v1/metrics/drift", post(traces::metrics_drift))
        .route("/v1/xlogo/eval", post(xlogo::xlogo_eval))
        .route("/v1/xlogo/prompt", post(xlogo::xlogo_prompt))
        .route("/v1/xlogo/classify", post(xlogo::xlogo_classify))
        .route("/v1/xlogo/perturb", post(xlogo::xlogo_perturb))
        .route("/v1/xlogo/resample", post(xlogo::xlogo_resample))
        .route("/v1/xlogo/report", post(xlogo::xlogo_report))
        .route("/v1/draw/eval", post(draw::draw_eval))
        .route("/v1/draw/episode", post(draw::draw_episode))
        .route("/v1/draw/report", post(draw::draw_report))
        .route("/v1/projects/validate", post(projects::validate_handler))
        .route("/v1/projects/edit-distance", post(projects::edit_distance_handler))
        .route("/v1/projects/patch", post(patches::patch_handler))
        .route("/v1/projects/invert", post(patches::invert_handler))
        .route("/v1/projects/diff", post(patches::diff_handler))
        .route("/v1/scenarios/instantiate", post(repair::scenarios_handler))
        .route("/v1/oracles/synthesize", post(repair::oracle_handler))
        .route("/v1/bugs/inject", post(repair::inject_handler))
        .route("/v1/bugs/sites", post(repair::sites_handler))
        .route("/v1/signals/probe", post(repair::probe_handler))
        .route("/v1/verify", post(repair::verify_handler))
        .route("/v1/hooks", post(evidence::hooks_handler))
        .route("/v1/lint", post(checks::lint_handler))
        .route("/v1/suites/check", post(checks::suite_check_handler))
        .route("/v1/record", post(evidence::record_handler))
        .route("/v1/batch", post(batch::submit).get(batch::list))
        .route("/v1/batch/{id}", get(batch::status).delete(batch::delete))
        .route("/v1/batch/{id}/results", get(batch::results))
        .route("/v1/sessions", post(sessions::create).get(sessions::list))
        .route("/v1/sessions/{id}", get(sessions::info).delete(sessions::delete))
        .route("/v1/sessions/{id}/observation", get(sessions::observation))
        .route("/v1/sessions/{id}/act", post(sessions::act))
        .route("/v1/sessions/{id}/run", post(sessions::run))
        .route("/v1/sessions/{id}/stage.png", get(sessions::stage))
        .route("/v1/sessions/{id}/gold.png", get(sessions::gold))
        .route("/v1/sessions/{id}/log", get(sessions::log))
        .route("/v1/sessions/{id}/patch", post(patches::session_patch))
        .route("/v1/sessions/{id}/project", get(sessions::project))
        .route("/v1/sessions/{id}/evaluate", post(sessions::evaluate))
        .route("/v1/sessions/{id}/fork", post(sessions::fork))
        .route("/sessions", post(scratchworld::create).get(scratchworld::list))
        .route("/sessions/{id}", get(scratchworld::info).delete(scratchworld::delete))
        .route("/sessions/{id}/load_project", post(scratchworld::load_project))
        .route("/sessions/{id}/composite/execute", post(scratchworld::composite_execute))
        .route("/sessions/{id}/evaluate", post(scratchworld::evaluate))
        .route("/sessions/{id}/screenshot", get(scratchworld::screenshot))
        .layer(DefaultBodyLimit::max(limits.max_body_bytes))
        .layer(
            ServiceBuilder::new()
                .layer(HandleErrorLayer::new(|_: tower::BoxError| async {
                    ApiError::overloaded("too many requests in flight; retry shortly")
                }))
                .load_shed()
                .concurrency_limit(limits.max_in_flight),
        );
    Router::new()
        .route("/", get(|| async { Html(VIEWER) }))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/v1/openapi.json", get(openapi_json))
        .merge(v1)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(app)
}

async fn openapi_json() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], crate::openapi::document()).into_response()
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found("no_route", format!("no endpoint {}; see /v1/openapi.json", uri.path()))
}

async fn method_not_allowed(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{} does not take this method; see /v1/openapi.json", uri.path()),
    )
}

/// A JSON answer (used by handlers returning `serde_json::Value`).
pub type JsonValue = Json<serde_json::Value>;
