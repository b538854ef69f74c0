//! Caller errors as HTTP responses: a status and `{"error": {"code", "message", "path"?}}`
//! (`docs/server.md`), and the JSON body extractor that reports malformed JSON, wrong types and
//! oversized bodies that way. Agent-level failures are not errors: they are 200 results with
//! `success: false`.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use utoipa::ToSchema;

/// A caller error (or, rarely, the server's own).
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable machine-readable code (`docs/server.md` lists them).
    pub code: &'static str,
    /// What is wrong, for a person.
    pub message: String,
    /// Where in the request (a JSON path such as `rows[3].task`), when known.
    pub path: Option<String>,
    /// Seconds after which a retry may succeed (503, 429).
    pub retry_after: Option<u32>,
}

/// The error body.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// The error object.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable code, e.g. `malformed_json`, `bad_project`, `unknown_session`.
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// Where in the request, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl ApiError {
    /// An error with `status` and `code`.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), path: None, retry_after: None }
    }

    /// 422: the request is well-formed JSON but its content cannot be used.
    pub fn invalid(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    /// 404: no such resource.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, code, message)
    }

    /// 503 with `Retry-After`: the server sheds load.
    pub fn overloaded(message: impl Into<String>) -> ApiError {
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "overloaded", message)
        }
    }

    /// 500: the server failed (a bug or a storage failure), never the caller's fault.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// The same error at `path`.
    pub fn at(mut self, path: impl Into<String>) -> ApiError {
        self.path = Some(path.into());
        self
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{} ({}): {}", self.code, p, self.message),
            None => write!(f, "{}: {}", self.code, self.message),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code.to_string(),
                message: self.message,
                path: self.path,
            },
        };
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// A JSON request body, parsed with the JSON path of the first wrong value in the error.
/// Malformed JSON is 400 `malformed_json`; a value of the wrong type or a missing field is 422
/// `invalid_request`; a body over the limit is 413 `body_too_large`; another content type is
/// 415 `unsupported_media_type`.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let json =
            req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(
                |v| {
                    let mime = v.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
                    mime == "application/json" || mime.ends_with("+json")
                },
            );
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the body as JSON with Content-Type: application/json",
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(body_error)?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// The error for a body that could not be read (too large, cut off).
pub fn body_error(rejection: axum::extract::rejection::BytesRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", rejection.body_text())
    } else {
        ApiError::new(StatusCode::BAD_REQUEST, "unreadable_body", rejection.body_text())
    }
}

/// Parses JSON bytes into `T`, naming the JSON path of the first problem.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(v) => Ok(v),
        Err(e) => {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let status_code = match inner.classify() {
                serde_json::error::Category::Data => {
                    (StatusCode::UNPROCESSABLE_ENTITY, "invalid_request")
                }
                _ => (StatusCode::BAD_REQUEST, "malformed_json"),
            };
            let err = ApiError::new(status_code.0, status_code.1, inner.to_string());
            Err(if path == "." { err } else { err.at(path) })
        }
    }
}
