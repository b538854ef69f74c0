//! Project endpoints: `POST /v1/projects/validate` (the document of `gobo validate --json`,
//! `gobo::scratch::project::validate`). An invalid project is a 200 with `valid: false`; a
//! project that cannot be read at all is a 422.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::scratch::project::validate::{validate_with, Context, Validation};
use gobo::scratch::project::{load_with, LoadOptions};
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
