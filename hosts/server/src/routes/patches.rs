//! Patch endpoints (`docs/patches.md`): `POST /v1/projects/patch|invert|diff`, the documents of
//! `gobo patch apply|invert|diff`, and `POST /v1/sessions/{id}/patch`, a patch applied to a
//! session's project. A patch that does not apply is a 200 with `ok: false` (its stage and
//! error), as the CLI's exit 1; a project that cannot be read is a 422.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use base64::Engine as _;
use gobo::scratch::project::{load_with, LoadOptions, Project};
use gobo_host::edit::{self, Format};
use gobo_host::sb3::{self, ProjectFiles};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::{project_files, text_of};
use crate::sessions::Change;

/// A patch's format, as a request names it.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormatName {
    /// Block-edit patch v1 (the default).
    #[default]
    BlockEdits,
    /// RFC 6902 JSON Patch over `project.json` (a model's raw reply with a fenced block is
    /// accepted as a string).
    JsonPatch,
}

impl From<FormatName> for Format {
    fn from(f: FormatName) -> Format {
        match f {
            FormatName::BlockEdits => Format::BlockEdits,
            FormatName::JsonPatch => Format::JsonPatch,
        }
    }
}

/// `POST /v1/projects/patch` (the project and output fields) and
/// `POST /v1/sessions/{id}/patch` (the rest).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchRequest {
    /// The project (not on a session, whose project is patched).
    #[schema(value_type = Option<crate::input::ProjectInput>)]
    pub project: Option<Box<RawValue>>,
    /// The patch: its JSON, or its text (a model's raw reply for `json-patch`).
    #[schema(value_type = Object)]
    pub patch: Box<RawValue>,
    /// `block-edits` (default) or `json-patch`.
    #[schema(value_type = Option<String>)]
    pub format: Option<FormatName>,
    /// Most edits or operations (default 10,000 block edits, 100 JSON Patch operations).
    pub budget: Option<usize>,
    /// Seed of the ids given to new blocks without one (default 0).
    pub seed: Option<u64>,
    /// Check that every costume and sound asset is present (default true).
    pub assets: Option<bool>,
    /// `json` (the patched `project.json` as `project`, the default) or `sb3` (a base64
    /// archive with every asset as `sb3_b64`); projects only.
    pub output: Option<String>,
}

fn request_of(req: &PatchRequest) -> edit::Request {
    edit::Request {
        format: req.format.unwrap_or_default().into(),
        budget: req.budget,
        seed: req.seed.unwrap_or(0),
        check_assets: req.assets.unwrap_or(true),
    }
}

/// Applies `req`'s patch to `files`: the report as JSON and the new `project.json`.
fn apply_to(
    files: &ProjectFiles,
    req: &PatchRequest,
) -> Result<(Value, Option<Vec<u8>>), ApiError> {
    let patch = text_of(&req.patch, "patch")?;
    let (report, json) = edit::apply(files, patch.as_bytes(), &request_of(req))
        .map_err(|e| ApiError::invalid("bad_project", e).at("project"))?;
    let value = serde_json::to_value(&report).map_err(|e| ApiError::internal(e.to_string()))?;
    Ok((value, json))
}

/// The answer of `POST /v1/projects/patch`: the report, and the patched project as its exact
/// bytes (a `serde_json::Value` would sort its keys, and with them a target's blocks, which
/// decide the order its scripts start in).
#[derive(Debug, Serialize)]
pub struct Patched {
    /// The report of `gobo patch apply --json`.
    #[serde(flatten)]
    pub report: Value,
    /// The patched `project.json` (output `json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<Box<RawValue>>,
    /// The archive's SHA-256 (output `sb3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The archive, base64 (output `sb3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sb3_b64: Option<String>,
}

fn patch_project(engine: &Engine, req: &PatchRequest) -> Result<Patched, ApiError> {
    let raw = req.project.as_ref().ok_or_else(|| {
        ApiError::invalid("invalid_request", "missing field `project`").at("project")
    })?;
    let sb3_out = match req.output.as_deref() {
        None | Some("json") => false,
        Some("sb3") => true,
        Some(other) => {
            return Err(ApiError::invalid(
                "invalid_request",
                format!("output is json or sb3, not {other:?}"),
            )
            .at("output"))
        }
    };
    let files = project_files(raw, &engine.blobs, "project")?;
    let (report, json) = apply_to(&files, req)?;
    let mut out = Patched { report, project: None, sha256: None, sb3_b64: None };
    if let Some(json) = json {
        if sb3_out {
            let (bytes, _) =
                sb3::repack(&files, json).map_err(|e| ApiError::internal(e.to_string()))?;
            out.sha256 = Some(sb3::sha256_hex(&bytes));
            out.sb3_b64 = Some(base64::engine::general_purpose::STANDARD.encode(bytes));
        } else {
            let text = String::from_utf8(json).map_err(|e| ApiError::internal(e.to_string()))?;
            out.project =
                Some(RawValue::from_string(text).map_err(|e| ApiError::internal(e.to_string()))?);
        }
    }
    Ok(out)
}

/// Apply a patch to a project.
///
/// The document of `gobo patch apply --json`: `{ok, format, stage?, error?, edits, created,
/// normalized, findings}`, and on success the patched project: `project` (`project.json`) or,
/// with `output: "sb3"`, `sb3_b64` and its `sha256` (the same bytes as `gobo patch apply -o
/// OUT.sb3`). A patch that fails is a 200 with `ok: false`.
#[utoipa::path(post, path = "/v1/projects/patch", tag = "projects", request_body = PatchRequest,
    responses((status = 200, description = "The outcome", body = Object),
        (status = 422, description = "The project cannot be read", body = ErrorBody)))]
pub async fn patch_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<PatchRequest>,
) -> Result<Json<Patched>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || patch_project(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/projects/invert`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InvertRequest {
    /// The project the patch applies to.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// The block-edit patch.
    #[schema(value_type = Object)]
    pub patch: Box<RawValue>,
    /// Seed of fresh ids, as given to apply (default 0).
    pub seed: Option<u64>,
}

fn load(engine: &Engine, raw: &RawValue, path: &str) -> Result<Project, ApiError> {
    let files = project_files(raw, &engine.blobs, path)?;
    load_with(&files.project_json, &LoadOptions { repair_references: true })
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at(path))
}

fn invert_project(engine: &Engine, req: &InvertRequest) -> Result<Value, ApiError> {
    let project = load(engine, &req.project, "project")?;
    let patch = text_of(&req.patch, "patch")?;
    edit::invert_doc(&project, patch.as_bytes(), req.seed.unwrap_or(0)).map_err(ApiError::internal)
}

/// Invert a block-edit patch.
///
/// `{ok: true, inverse}`: the exact inverse of the patch on the project (what `gobo patch
/// invert` prints; applying the patch and then it gives back the same `project.json`), or
/// `{ok: false, error}` when the patch does not apply.
#[utoipa::path(post, path = "/v1/projects/invert", tag = "projects", request_body = InvertRequest,
    responses((status = 200, description = "The inverse", body = Object),
        (status = 422, description = "The project cannot be read", body = ErrorBody)))]
pub async fn invert_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<InvertRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || invert_project(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/projects/diff`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffRequest {
    /// The project before.
    #[schema(value_type = crate::input::ProjectInput)]
    pub a: Box<RawValue>,
    /// The project after.
    #[schema(value_type = crate::input::ProjectInput)]
    pub b: Box<RawValue>,
    /// Answer with the normalized atoms (ScratchEval's edit-distance units) instead.
    pub atoms: Option<bool>,
}

fn diff_projects(engine: &Engine, req: &DiffRequest) -> Result<Value, ApiError> {
    let a = load(engine, &req.a, "a")?;
    let b = load(engine, &req.b, "b")?;
    edit::diff_doc(&a, &b, req.atoms.unwrap_or(false)).map_err(ApiError::internal)
}

/// Diff two projects.
///
/// `{ok: true, patch}`: the normalized block-edit patch that turns `a` into `b` (scripts,
/// variables, lists, broadcasts; `gobo patch diff`), or with `atoms: true` `{ok: true, atoms}`;
/// `{ok: false, error}` when no patch can express the difference.
#[utoipa::path(post, path = "/v1/projects/diff", tag = "projects", request_body = DiffRequest,
    responses((status = 200, description = "The difference", body = Object),
        (status = 422, description = "A project cannot be read", body = ErrorBody)))]
pub async fn diff_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<DiffRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || diff_projects(&a.engine, &req)).await?.map(Json)
}

/// Patch a session's project.
///
/// The body is `/v1/projects/patch`'s without `project` and `output`; the answer is its report
/// (no project: export it with `GET /v1/sessions/{id}/project`). A patch that applies replaces
/// the session's project (the editing target kept by name, the index map dropped, the step
/// counter unchanged: a patch is not one of the composite actions); one that fails changes
/// nothing. Either way it is logged (`{kind: "patch", ok, format, edits, stage, error}`).
#[utoipa::path(post, path = "/v1/sessions/{id}/patch", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    request_body = PatchRequest,
    responses((status = 200, description = "The outcome", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody),
        (status = 422, description = "project or output given", body = ErrorBody)))]
pub async fn session_patch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<PatchRequest>,
) -> Result<Json<Value>, ApiError> {
    if req.project.is_some() || req.output.is_some() {
        return Err(ApiError::invalid(
            "invalid_request",
            "a session patch applies to the session's project: no `project` or `output`",
        ));
    }
    let sessions = Arc::clone(&app.sessions);
    sessions
        .call_changing(&app, &id, move |live, a| {
            let files = live.files(&a.engine.blobs)?;
            let (value, json) = apply_to(&files, &req)?;
            if let Some(json) = json {
                let project = load_with(&json, &LoadOptions { repair_references: true })
                    .map_err(|e| ApiError::internal(format!("the patched project: {e}")))?;
                live.session
                    .replace_project(project)
                    .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("patch"))?;
            }
            let entry = json!({
                "kind": "patch", "step": live.session.step(), "ok": value["ok"],
                "format": value["format"], "edits": value["edits"],
                "stage": value.get("stage"), "error": value.get("error"),
            });
            Ok((Json(value), Change::Snapshot(vec![entry.to_string()])))
        })
        .await
}
