//! DrawingBench endpoint: `POST /v1/draw/eval`, the result object of `gobo draw eval` for one
//! action text under a scoring profile (`gobo::drawing::batch::eval_json`).

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::drawing::batch::eval_json;
use gobo::drawing::task::Task;
use gobo::drawing::ui::UiConfig;
use gobo::drawing::Profile;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::ToSchema;

use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::text_of;

/// `POST /v1/draw/eval`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawEvalRequest {
    /// The task (`{id, prompt, criteria}` or a bare criteria object).
    #[schema(value_type = Option<Object>)]
    pub task: Option<Box<RawValue>>,
    /// Or a task by index into the server's DrawingBench dataset (0-based).
    pub task_index: Option<u64>,
    /// The model's raw action text (a string), or the action list itself.
    #[schema(value_type = Object)]
    pub actions: Box<RawValue>,
    /// `drawingbench-1.0` (default; the published evaluator) or `paper`.
    pub profile: Option<String>,
    /// UI config (default: DrawingBench's published layout).
    #[schema(value_type = Option<Object>)]
    pub ui: Option<Box<RawValue>>,
}

/// The profile named `name` (default `drawingbench-1.0`).
pub fn profile_of(name: Option<&str>, path: &str) -> Result<Profile, ApiError> {
    match name {
        None => Ok(Profile::default()),
        Some(n) => Profile::from_name(n).ok_or_else(|| {
            ApiError::invalid(
                "invalid_request",
                format!("unknown profile `{n}` (drawingbench-1.0 or paper)"),
            )
            .at(path)
        }),
    }
}

/// The UI config `raw` gives (default: the published layout).
pub fn ui_of(raw: Option<&RawValue>, path: &str) -> Result<UiConfig, ApiError> {
    match raw {
        None => Ok(UiConfig::drawingbench_default()),
        Some(raw) => UiConfig::from_json(raw.get())
            .map_err(|e| ApiError::invalid("bad_ui", e.to_string()).at(path)),
    }
}

fn eval(engine: &Engine, req: &DrawEvalRequest) -> Result<Value, ApiError> {
    let profile = profile_of(req.profile.as_deref(), "profile")?;
    let ui = ui_of(req.ui.as_deref(), "ui")?;
    let task = match (&req.task, req.task_index) {
        (Some(raw), None) => Task::from_json(raw.get())
            .map_err(|e| ApiError::invalid("bad_task", e.to_string()).at("task"))?,
        (None, Some(i)) => {
            let tasks = engine.drawing.tasks().map_err(|e| ApiError::invalid("no_dataset", e))?;
            usize::try_from(i).ok().and_then(|i| tasks.get(i)).cloned().ok_or_else(|| {
                ApiError::invalid(
                    "bad_task",
                    format!("task index {i} out of range (0..{})", tasks.len()),
                )
                .at("task_index")
            })?
        }
        _ => {
            return Err(ApiError::invalid(
                "invalid_request",
                "give exactly one of task and task_index",
            ))
        }
    };
    let raw = text_of(&req.actions, "actions")?;
    Ok(Value::Object(eval_json(raw.as_bytes(), &task.criteria, &ui, profile)))
}

/// Score a drawing's actions.
///
/// The result object of `gobo draw eval` (`docs/drawing.md`): score, errors, warnings,
/// criteria, metrics, feedback, `profile`.
#[utoipa::path(post, path = "/v1/draw/eval", tag = "drawing", request_body = DrawEvalRequest,
    responses((status = 200, description = "The result", body = Object),
        (status = 422, description = "Unusable task, UI or profile", body = ErrorBody)))]
pub async fn draw_eval(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<DrawEvalRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || eval(&a.engine, &req)).await?.map(Json)
}
