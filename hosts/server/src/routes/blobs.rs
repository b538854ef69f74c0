//! `POST /v1/blobs` (upload bytes once, get their SHA-256 reference) and
//! `GET /v1/blobs/{ref}` (the bytes back). A reference stands for a project anywhere one is
//! expected: `{"ref": "<sha256>"}`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::blobs::is_ref;
use crate::error::{body_error, ApiError, ErrorBody};

/// A stored blob.
#[derive(Debug, Serialize, ToSchema)]
pub struct BlobStored {
    /// The SHA-256 of the bytes, 64 lowercase hex digits.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Their length.
    pub bytes: usize,
}

/// Upload a blob (usually an `.sb3`).
///
/// The body is the raw bytes (any content type). The same bytes always get the same reference.
#[utoipa::path(post, path = "/v1/blobs", tag = "blobs",
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses((status = 201, description = "Stored", body = BlobStored),
        (status = 413, description = "Larger than the body limit", body = ErrorBody)))]
pub async fn upload(State(app): State<Arc<App>>, req: Request) -> Result<Response, ApiError> {
    let bytes = Bytes::from_request(req, &()).await.map_err(body_error)?;
    let len = bytes.len();
    let reference = app.engine.blobs.put(bytes.to_vec()).await?;
    Ok((StatusCode::CREATED, Json(BlobStored { reference, bytes: len })).into_response())
}

/// Download a blob.
#[utoipa::path(get, path = "/v1/blobs/{ref}", tag = "blobs",
    params(("ref" = String, Path, description = "The blob's SHA-256")),
    responses((status = 200, description = "The bytes", content_type = "application/octet-stream", body = Vec<u8>),
        (status = 404, description = "No such blob", body = ErrorBody)))]
pub async fn download(
    State(app): State<Arc<App>>,
    Path(reference): Path<String>,
) -> Result<Response, ApiError> {
    if !is_ref(&reference) {
        return Err(ApiError::not_found("unknown_blob", "a blob reference is 64 hex digits"));
    }
    let blobs = Arc::clone(&app.engine.blobs);
    let r = reference.clone();
    let found = tokio::task::spawn_blocking(move || blobs.get(&r))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    match found {
        Some(bytes) => {
            Ok(([(header::CONTENT_TYPE, "application/octet-stream")], bytes.as_ref().clone())
                .into_response())
        }
        None => Err(ApiError::not_found("unknown_blob", format!("no blob {reference}"))),
    }
}
