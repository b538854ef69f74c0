//! XLogo-Mini endpoints: `POST /v1/xlogo/eval` (the verdict of `gobo xlogo eval`) and
//! `POST /v1/xlogo/prompt` (the text of `gobo xlogo prompt`, as `{text}`). The semantics are
//! `gobo::xlogo`'s.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::xlogo::prompt::{prompt, PromptStyle};
use gobo::xlogo::{evaluate_code, load, CodeInput, Task, World};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{ApiError, ApiJson, ErrorBody};

/// `POST /v1/xlogo/eval`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct XlogoEvalRequest {
    /// The task (a task object, or a data-file row with a `task` field; `docs/xlogo.md`).
    #[schema(value_type = Object)]
    pub task: Box<RawValue>,
    /// The code: Python-style source as a string, or a JSON AST object (`{"run": [...]}`).
    #[schema(value_type = Object)]
    pub code: Box<RawValue>,
}

fn task_of(raw: &RawValue) -> Result<Task, ApiError> {
    load::task_from_slice(raw.get().as_bytes())
        .map_err(|e| ApiError::invalid("bad_task", e.to_string()).at("task"))
}

fn eval(req: &XlogoEvalRequest) -> Result<Value, ApiError> {
    let task = task_of(&req.task)?;
    let world = World::new(&task);
    let text = req.code.get().trim_start();
    let verdict = if text.starts_with('"') {
        let source: String = serde_json::from_str(text)
            .map_err(|e| ApiError::invalid("invalid_request", e.to_string()).at("code"))?;
        evaluate_code(&world, CodeInput::Python(source.as_bytes()))
    } else {
        evaluate_code(&world, CodeInput::Json(text.as_bytes()))
    };
    Ok(verdict.to_json())
}

/// Evaluate XLogo-Mini code against a task.
///
/// The verdict of `gobo xlogo eval` (`docs/xlogo.md`): `{error_type, success, ...}`. Code that
/// does not parse or fails the task is a 200 verdict, not an error.
#[utoipa::path(post, path = "/v1/xlogo/eval", tag = "xlogo", request_body = XlogoEvalRequest,
    responses((status = 200, description = "The verdict", body = Object),
        (status = 422, description = "The task cannot be read", body = ErrorBody)))]
pub async fn xlogo_eval(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<XlogoEvalRequest>,
) -> Result<Json<Value>, ApiError> {
    app.pool.run(move || eval(&req)).await?.map(Json)
}

/// Prompt styles.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Sentences describing each notable cell.
    #[default]
    Nl,
    /// A character grid with a legend.
    Ascii,
}

/// `POST /v1/xlogo/prompt`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct XlogoPromptRequest {
    /// The task.
    #[schema(value_type = Object)]
    pub task: Box<RawValue>,
    /// The prompt style (default `nl`).
    pub style: Option<Style>,
}

/// A task as a prompt for a language model.
///
/// `{text}`: what `gobo xlogo prompt` prints.
#[utoipa::path(post, path = "/v1/xlogo/prompt", tag = "xlogo", request_body = XlogoPromptRequest,
    responses((status = 200, description = "The prompt", body = Object),
        (status = 422, description = "The task cannot be read", body = ErrorBody)))]
pub async fn xlogo_prompt(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<XlogoPromptRequest>,
) -> Result<Json<Value>, ApiError> {
    app.pool
        .run(move || {
            let task = task_of(&req.task)?;
            let style = match req.style.unwrap_or_default() {
                Style::Nl => PromptStyle::Nl,
                Style::Ascii => PromptStyle::Ascii,
            };
            Ok(Json(json!({ "text": prompt(&task, style) })))
        })
        .await?
}
