//! Project endpoints: `POST /v1/projects/validate` (the document of `gobo validate --json`,
//! `gobo::scratch::project::validate`) and `POST /v1/projects/edit-distance` (the document of
//! `gobo edit-distance --json`, `gobo::scratch::project::diff::project_edit_distance`). An
//! invalid project is a 200 with `valid: false`; a project that cannot be read at all is a 422.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::scratch::project::diff::project_edit_distance;
use gobo::scratch::project::validate::{validate_with, Context, Validation};
use gobo::scratch::project::{load_with, LoadOptions, Project};
use serde::Deserialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::project_files;

/// `POST /v1/projects/validate`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidateRequest {
    /// The project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// Check that every costume and sound asset is present (default true; `false` is
    /// `gobo validate --no-assets`).
    pub assets: Option<bool>,
}

fn validate(engine: &Engine, req: &ValidateRequest) -> Result<serde_json::Value, ApiError> {
    let files = project_files(&req.project, &engine.blobs, "project")?;
    // Dropped references are reported as findings, as `gobo validate` does.
    let project = load_with(&files.project_json, &LoadOptions { repair_references: true })
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
    let present = |name: &str| files.assets.contains_key(name);
    let cx = Context {
        asset_present: req.assets.unwrap_or(true).then_some(&present as &dyn Fn(&str) -> bool),
        max_findings: 0,
    };
    let result = Validation::new(validate_with(&project, &cx));
    serde_json::to_value(&result).map_err(|e| ApiError::internal(e.to_string()))
}

/// Validate a project's structure.
///
/// The document of `gobo validate --json`: `{valid, errors, warnings, findings: [{code, path,
/// severity, message}]}` (codes in `docs/patches.md`).
#[utoipa::path(post, path = "/v1/projects/validate", tag = "projects", request_body = ValidateRequest,
    responses((status = 200, description = "The findings", body = Object),
        (status = 422, description = "The project cannot be read", body = ErrorBody)))]
pub async fn validate_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<ValidateRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || validate(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/projects/edit-distance`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditDistanceRequest {
    /// The buggy project both fixes start from.
    #[schema(value_type = crate::input::ProjectInput)]
    pub base: Box<RawValue>,
    /// The gold fix.
    #[schema(value_type = crate::input::ProjectInput)]
    pub gold: Box<RawValue>,
    /// The candidate fix (the base with the model's patch applied).
    #[schema(value_type = crate::input::ProjectInput)]
    pub candidate: Box<RawValue>,
}

fn load_project(engine: &Engine, raw: &RawValue, path: &str) -> Result<Project, ApiError> {
    let files = project_files(raw, &engine.blobs, path)?;
    load_with(&files.project_json, &LoadOptions { repair_references: true })
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at(path))
}

fn edit_distance(
    engine: &Engine,
    req: &EditDistanceRequest,
) -> Result<serde_json::Value, ApiError> {
    let base = load_project(engine, &req.base, "base")?;
    let gold = load_project(engine, &req.gold, "gold")?;
    let candidate = load_project(engine, &req.candidate, "candidate")?;
    serde_json::to_value(project_edit_distance(&base, &gold, &candidate))
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// ScratchEval's edit distance of a candidate fix to the gold fix.
///
/// The document of `gobo edit-distance --json`: `{d_edit, matched, missing, extra}`, the atoms
/// of `diff(base, gold)` and `diff(base, candidate)` (SPEC §2.8; docs/patches.md).
#[utoipa::path(post, path = "/v1/projects/edit-distance", tag = "projects",
    request_body = EditDistanceRequest,
    responses((status = 200, description = "The distance and the atoms", body = Object),
        (status = 422, description = "A project cannot be read", body = ErrorBody)))]
pub async fn edit_distance_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<EditDistanceRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || edit_distance(&a.engine, &req)).await?.map(Json)
}
