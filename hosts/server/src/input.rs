//! Request values that name a project, a suite or a scenario, turned into what the engine
//! reads. A project is a base64 `.sb3` (or base64 `project.json`) string, a `project.json`
//! object, or `{"ref": "<sha256>"}` of an uploaded blob; objects are kept as the caller's raw
//! JSON text, because key order decides script order and must not be lost to a sorted map.

use std::sync::Arc;

use base64::Engine as _;
use gobo_host::sb3::{read_bytes, Limits, ProjectFiles};
use serde::Deserialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::blobs::{is_ref, Blobs};
use crate::error::ApiError;

/// A project as a request gives it (documentation type; requests keep the raw JSON).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub enum ProjectInput {
    /// A base64 `.sb3` archive (or base64 `project.json` bytes).
    Sb3(String),
    /// A blob uploaded with `POST /v1/blobs`.
    Ref(BlobRef),
    /// A `project.json` object.
    #[schema(value_type = Object)]
    ProjectJson(serde_json::Value),
}

/// A reference to an uploaded blob.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BlobRef {
    /// The blob's SHA-256, 64 hex digits.
    #[serde(rename = "ref")]
    pub reference: String,
}

/// The bytes of the project `raw` names (at JSON path `path`): an `.sb3` archive or
/// `project.json` text (blocking: call from a worker thread).
pub fn project_bytes(raw: &RawValue, blobs: &Blobs, path: &str) -> Result<Arc<Vec<u8>>, ApiError> {
    let text = raw.get().trim_start();
    let bad = |m: String| ApiError::invalid("bad_project", m).at(path);
    if text.starts_with('"') {
        let s: String = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(s.trim())
            .map_err(|e| bad(format!("a project string must be a base64 .sb3: {e}")))?;
        return Ok(Arc::new(bytes));
    }
    if !text.starts_with('{') {
        return Err(bad(String::from(
            "a project is a base64 .sb3 string, a project.json object or {\"ref\": \"<sha256>\"}",
        )));
    }
    if let Ok(BlobRef { reference }) = serde_json::from_str::<BlobRef>(text) {
        if !is_ref(&reference) {
            return Err(bad(format!("ref must be 64 hex digits, got {reference:?}")));
        }
        return blobs.get(&reference).map_err(ApiError::from)?.ok_or_else(|| {
            ApiError::invalid(
                "unknown_ref",
                format!("no blob {reference}; upload it with POST /v1/blobs"),
            )
            .at(path)
        });
    }
    Ok(Arc::new(text.as_bytes().to_vec()))
}

/// The files of the project `raw` names (blocking: call from a worker thread).
pub fn project_files(raw: &RawValue, blobs: &Blobs, path: &str) -> Result<ProjectFiles, ApiError> {
    let bytes = project_bytes(raw, blobs, path)?;
    files_of(&bytes, path)
}

/// Project bytes read into files.
pub fn files_of(bytes: &[u8], path: &str) -> Result<ProjectFiles, ApiError> {
    read_bytes(bytes, &Limits::default())
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at(path))
}

/// The text `raw` stands for: a JSON string's content, or the raw JSON of anything else (a
/// suite or scenario given as an object).
pub fn text_of(raw: &RawValue, path: &str) -> Result<String, ApiError> {
    let text = raw.get().trim_start();
    if text.starts_with('"') {
        serde_json::from_str::<String>(text)
            .map_err(|e| ApiError::invalid("invalid_request", e.to_string()).at(path))
    } else {
        Ok(text.to_string())
    }
}
