//! DrawingBench endpoints: `POST /v1/draw/eval`, the result object of `gobo draw eval` for one
//! action text under a scoring profile (`gobo::drawing::batch::eval_json`); `POST
//! /v1/draw/episode`, the row of `gobo draw episode` (`gobo::drawing::episode`), with canvas
//! PNGs on request; `POST /v1/draw/report`, the document of `gobo draw report --json`
//! (`gobo::drawing::report`).

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use base64::Engine as _;
use gobo::drawing::batch::eval_json;
use gobo::drawing::episode::{read_doc, EpisodeConfig, EpisodeError};
use gobo::drawing::report::report_of;
use gobo::drawing::task::Task;
use gobo::drawing::ui::UiConfig;
use gobo::drawing::Profile;
use gobo_host::drawing::canvas_png;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
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
/// criteria, metrics, feedback, `profile` (`gobo::drawing::batch::eval_json`).
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

/// `POST /v1/draw/episode`: an episode document (`docs/drawing.md`, "Episodes") plus `ui` and
/// `render`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawEpisodeRequest {
    /// Echoed in the row.
    #[schema(value_type = Option<Object>)]
    pub id: Option<Value>,
    /// The task (`{id, prompt, criteria, category?, difficulty?}` or a bare criteria object).
    #[schema(value_type = Option<Object>)]
    pub task: Option<Box<RawValue>>,
    /// Or a task by index into the server's DrawingBench dataset (0-based).
    pub task_index: Option<u64>,
    /// The turns so far, turn 1 first: each the model's raw text (a string), its action list,
    /// or `{actions_raw | actions, tokens?, latency_ms?}`.
    #[schema(value_type = Vec<Object>)]
    pub turns: Vec<Value>,
    /// Most turns that run, 1 to 100 (default 2).
    pub max_turns: Option<u32>,
    /// A turn scoring at least this ends the episode, 0 to 1 (default 0.9).
    pub stop_at: Option<f64>,
    /// `drawingbench-1.0` (default) or `paper`.
    pub profile: Option<String>,
    /// Echoed in the row (grouped by `draw report`).
    pub model: Option<String>,
    /// Overrides the task's category in the row.
    pub category: Option<String>,
    /// Overrides the task's difficulty in the row.
    pub difficulty: Option<String>,
    /// Overrides the task's id in the row.
    pub task_id: Option<String>,
    /// Add each turn's canvas as `canvas_png` (base64 RGBA PNG, null for text that is not an
    /// action list).
    pub render: Option<bool>,
    /// UI config (default: DrawingBench's published layout).
    #[schema(value_type = Option<Object>)]
    pub ui: Option<Box<RawValue>>,
}

fn episode_error(e: EpisodeError) -> ApiError {
    let path = match &e {
        EpisodeError::Field { path, .. } => path.clone(),
        _ => String::from("task"),
    };
    let code = if path == "task" { "bad_task" } else { "bad_episode" };
    ApiError::invalid(code, e.to_string()).at(path)
}

fn episode(engine: &Engine, req: &DrawEpisodeRequest) -> Result<Value, ApiError> {
    let ui = ui_of(req.ui.as_deref(), "ui")?;
    let mut doc = Map::new();
    if let Some(id) = &req.id {
        doc.insert("id".into(), id.clone());
    }
    // The task is handed over as its own JSON text, read with Python's rules like a file.
    if let Some(raw) = &req.task {
        doc.insert("task".into(), Value::from(raw.get()));
    }
    let tasks = match req.task_index {
        Some(i) if req.task.is_none() => {
            doc.insert("task_index".into(), Value::from(i));
            engine.drawing.tasks().map_err(|e| ApiError::invalid("no_dataset", e))?
        }
        Some(_) => {
            return Err(ApiError::invalid(
                "invalid_request",
                "give exactly one of task and task_index",
            ))
        }
        None => Default::default(),
    };
    doc.insert("turns".into(), Value::from(req.turns.clone()));
    let text = |s: &Option<String>| s.as_deref().map(Value::from);
    for (key, v) in [
        ("max_turns", req.max_turns.map(Value::from)),
        ("stop_at", req.stop_at.map(Value::from)),
        ("profile", text(&req.profile)),
        ("model", text(&req.model)),
        ("category", text(&req.category)),
        ("difficulty", text(&req.difficulty)),
        ("task_id", text(&req.task_id)),
    ] {
        if let Some(v) = v {
            doc.insert(key.into(), v);
        }
    }
    let parsed =
        read_doc(&Value::Object(doc), &tasks, EpisodeConfig::default()).map_err(episode_error)?;
    let (_, mut row) = parsed.run(&ui);
    if req.render == Some(true) {
        if let Some(Value::Array(turns)) = row.get_mut("turns") {
            let b64 = base64::engine::general_purpose::STANDARD;
            for (t, input) in turns.iter_mut().zip(&parsed.turns) {
                let png =
                    canvas_png(&input.raw, &ui).map_or(Value::Null, |p| Value::from(b64.encode(p)));
                t["canvas_png"] = png;
            }
        }
    }
    Ok(Value::Object(row))
}

/// Run the DrawingBench multi-turn protocol over an episode's turns.
///
/// The row of `gobo draw episode --json` (`docs/drawing.md`, "Episodes"): each turn that ran
/// with its `draw eval` row, `first_score`, `final_score`, `stopped`, `needs_next_turn`,
/// `next_turn`, `feedback_text` (to show the model on its next turn). A harness calls it after
/// each model turn with the turns so far.
#[utoipa::path(post, path = "/v1/draw/episode", tag = "drawing", request_body = DrawEpisodeRequest,
    responses((status = 200, description = "The episode row", body = Object),
        (status = 422, description = "Unusable task, turns, UI, profile or protocol bounds", body = ErrorBody)))]
pub async fn draw_episode(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<DrawEpisodeRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || episode(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/draw/report`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawReportRequest {
    /// Result rows: episode rows (`gobo draw episode`) or `gobo draw eval` rows. Rows naming
    /// only a `task_index` take its category and difficulty from the server's dataset, when
    /// one is configured.
    #[schema(value_type = Vec<Object>)]
    pub rows: Vec<Value>,
}

/// The DrawingBench paper's tables from result rows.
///
/// The document of `gobo draw report --json` (`docs/drawing.md`, "Reports"): overall first
/// and final turn (mean, sd, median, perfect count and rate), by difficulty, category and
/// model, the improvement distribution, issue types per turn, action counts.
#[utoipa::path(post, path = "/v1/draw/report", tag = "drawing", request_body = DrawReportRequest,
    responses((status = 200, description = "The report", body = Object),
        (status = 422, description = "No rows, or an unreadable dataset", body = ErrorBody)))]
pub async fn draw_report(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<DrawReportRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool
        .run(move || {
            if req.rows.is_empty() {
                return Err(ApiError::invalid("bad_request", "no rows").at("rows"));
            }
            let tasks = if a.engine.drawing.configured() {
                a.engine.drawing.tasks().map_err(|e| ApiError::invalid("no_dataset", e))?
            } else {
                Default::default()
            };
            Ok(Json(report_of(&req.rows, &tasks).to_json()))
        })
        .await?
}
