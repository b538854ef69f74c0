//! ScratchWorld's own session routes (its `scratch-bench-api` backend, no `/v1` prefix), so
//! its harness can point at gobo: `POST /sessions`, `POST /sessions/{id}/load_project`,
//! `POST /sessions/{id}/composite/execute`, `POST /sessions/{id}/evaluate`,
//! `GET /sessions/{id}/screenshot`, plus listing, reading and deleting a session. Each maps to
//! the same call as its `/v1/sessions` counterpart; `docs/server.md` lists what differs from
//! ScratchWorld (the screenshot is the stage, not the editor; projects come by value or blob
//! reference, not by a file name on the server; evaluation takes a gobo suite).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Json;
use base64::Engine as _;
use gobo::scratch::agent::{ActResult, Session};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};

use super::sessions::{
    act_on, create_session, evaluate_on, read_project, stage_png, CreateRequest, EvaluateRequest,
    StageQuery,
};
use crate::app::App;
use crate::blobs::is_ref;
use crate::error::{parse_json, ApiError, ApiJson, ApiQuery, ErrorBody};
use crate::sessions::Change;

/// Parses an optional JSON body (ScratchWorld sends some of these requests without one).
fn optional_body<T: serde::de::DeserializeOwned + Default>(body: &Bytes) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        Ok(T::default())
    } else {
        parse_json(body)
    }
}

/// ScratchWorld's session query parameters (recording options), accepted and ignored.
#[derive(Debug, Deserialize, IntoParams)]
pub struct CreateQuery {
    /// Ignored: gobo records nothing.
    pub record: Option<bool>,
    /// Ignored.
    pub quality: Option<String>,
    /// Ignored.
    pub task_name: Option<String>,
    /// Ignored.
    pub save_dir: Option<String>,
}

/// Make a session (ScratchWorld route).
///
/// `{session_id, created_at, is_recording: false}`. The body is optional: without one (as
/// ScratchWorld sends it) the session holds an empty project (a stage and `Sprite1`) until
/// `load_project`; with one it is `POST /v1/sessions`'s request.
#[utoipa::path(post, path = "/sessions", tag = "scratchworld", params(CreateQuery),
    request_body(content = CreateRequest, description = "Optional: as `POST /v1/sessions`"),
    responses((status = 200, description = "The new session", body = Object),
        (status = 422, description = "Unusable project", body = ErrorBody),
        (status = 429, description = "Too many sessions", body = ErrorBody)))]
pub async fn create(
    State(app): State<Arc<App>>,
    ApiQuery(_q): ApiQuery<CreateQuery>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: CreateRequest = optional_body(&body)?;
    let (id, live, _) = create_session(&app, req).await?;
    Ok(Json(json!({
        "session_id": id,
        "created_at": live.created_ms as f64 / 1000.0,
        "is_recording": false,
    })))
}

/// List the sessions (ScratchWorld route): as `GET /v1/sessions`.
#[utoipa::path(get, path = "/sessions", tag = "scratchworld",
    responses((status = 200, description = "The sessions", body = Object)))]
pub async fn list(state: State<Arc<App>>) -> Response {
    super::sessions::list(state).await
}

/// A session's state (ScratchWorld route): as `GET /v1/sessions/{id}`.
#[utoipa::path(get, path = "/sessions/{id}", tag = "scratchworld",
    params(("id" = String, Path, description = "The session id")),
    responses((status = 200, description = "The session", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn info(state: State<Arc<App>>, id: Path<String>) -> Result<Json<Value>, ApiError> {
    super::sessions::info(state, id).await
}

/// Delete a session (ScratchWorld route): as `DELETE /v1/sessions/{id}`.
#[utoipa::path(delete, path = "/sessions/{id}", tag = "scratchworld",
    params(("id" = String, Path, description = "The session id")),
    responses((status = 200, description = "Deleted", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn delete(state: State<Arc<App>>, id: Path<String>) -> Result<Json<Value>, ApiError> {
    super::sessions::delete(state, id).await
}

/// `?project_name=` of `load_project`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LoadQuery {
    /// The project as a blob reference (64 hex digits, from `POST /v1/blobs`). ScratchWorld
    /// names a file in its own projects folder here; gobo reads no server files.
    pub project_name: Option<String>,
}

/// The body of `load_project`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    /// The project.
    #[schema(value_type = Option<crate::input::ProjectInput>)]
    pub project: Option<Box<RawValue>>,
}

/// Load a project into a session (ScratchWorld route).
///
/// `{success: true, session_id, project_ref}`. The project comes as `?project_name=<blob
/// ref>` or as a body `{project}`; the session starts over on it (step 0, same settings),
/// as a fresh page load does.
#[utoipa::path(post, path = "/sessions/{id}/load_project", tag = "scratchworld",
    params(("id" = String, Path, description = "The session id"), LoadQuery),
    request_body(content = LoadRequest, description = "`{project}`, unless `project_name` is given"),
    responses((status = 200, description = "Loaded", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody),
        (status = 422, description = "No project, or an unusable one", body = ErrorBody)))]
pub async fn load_project(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<LoadQuery>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: LoadRequest = optional_body(&body)?;
    let raw = match (req.project, q.project_name) {
        (Some(raw), _) => raw,
        (None, Some(name)) => {
            if !is_ref(&name) {
                return Err(ApiError::invalid(
                    "bad_project",
                    format!("project_name must be a blob reference (64 hex digits), got {name:?}"),
                )
                .at("project_name"));
            }
            RawValue::from_string(json!({"ref": name}).to_string())
                .map_err(|e| ApiError::internal(e.to_string()))?
        }
        (None, None) => {
            return Err(ApiError::invalid(
                "invalid_request",
                "give the project as ?project_name=<blob ref> or a body {\"project\": ...}",
            ))
        }
    };
    // Read the project before taking the session's lock.
    app.sessions.lock(&id).await.map(drop)?;
    let (bytes, project) = read_project(&app, Some(raw)).await?;
    let source = app.engine.blobs.put(bytes).await?;
    let sessions = Arc::clone(&app.sessions);
    let src = source.clone();
    sessions
        .call_changing(&app, &id, move |live, _| {
            let config = live.session.config().clone();
            live.session = Session::new(project, config)
                .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
            let entry =
                json!({"kind": "load_project", "step": live.session.step(), "project_ref": src});
            live.source = src;
            Ok(((), Change::Snapshot(vec![entry.to_string()])))
        })
        .await?;
    Ok(Json(json!({"success": true, "session_id": id, "project_ref": source})))
}

/// Execute one composite action (ScratchWorld route): as `POST /v1/sessions/{id}/act`.
#[utoipa::path(post, path = "/sessions/{id}/composite/execute", tag = "scratchworld",
    params(("id" = String, Path, description = "The session id")),
    request_body(content = Object, description = "`{api, args}`"),
    responses((status = 200, description = "The action's envelope", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn composite_execute(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiJson(action): ApiJson<Value>,
) -> Result<Json<ActResult>, ApiError> {
    act_on(&app, &id, action).await.map(Json)
}

/// Evaluate a session's project (ScratchWorld route): as `POST /v1/sessions/{id}/evaluate`,
/// with a gobo suite in place of ScratchWorld's task name.
#[utoipa::path(post, path = "/sessions/{id}/evaluate", tag = "scratchworld",
    params(("id" = String, Path, description = "The session id")),
    request_body = EvaluateRequest,
    responses((status = 200, description = "The suite report", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody),
        (status = 422, description = "Unusable suite", body = ErrorBody)))]
pub async fn evaluate(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<EvaluateRequest>,
) -> Result<Json<Value>, ApiError> {
    evaluate_on(&app, &id, req).await.map(Json)
}

/// `?format=&full_page=` of ScratchWorld's screenshot, accepted; only base64 is answered.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotQuery {
    /// `base64` (the only one: gobo writes no files).
    pub format: Option<String>,
    /// Ignored: the picture is the stage.
    pub full_page: Option<bool>,
}

/// A screenshot (ScratchWorld route): the stage, not the editor.
///
/// `{screenshot: <base64 PNG>, format: "base64"}`: the 480×360 stage after the first frame of
/// a green-flag run, as `GET /v1/sessions/{id}/stage.png` draws it.
#[utoipa::path(get, path = "/sessions/{id}/screenshot", tag = "scratchworld",
    params(("id" = String, Path, description = "The session id"), ScreenshotQuery),
    responses((status = 200, description = "The stage picture", body = Object),
        (status = 400, description = "A format other than base64", body = ErrorBody),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn screenshot(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ScreenshotQuery>,
) -> Result<Json<Value>, ApiError> {
    if let Some(f) = q.format.as_deref().filter(|f| *f != "base64") {
        return Err(ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "invalid_query",
            format!("format is base64 (gobo writes no files), not {f:?}"),
        ));
    }
    let png = stage_png(&app, &id, StageQuery::default(), false).await?;
    let b64 = base64::engine::general_purpose::STANDARD.encode(png);
    Ok(Json(json!({"screenshot": b64, "format": "base64"})))
}
