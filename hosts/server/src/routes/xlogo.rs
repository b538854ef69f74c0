//! XLogo-Mini endpoints: `POST /v1/xlogo/eval` (the verdict of `gobo xlogo eval`), `POST
//! /v1/xlogo/prompt` (the text of `gobo xlogo prompt`, as `{text}`), and the benchmark's
//! analyses `POST /v1/xlogo/classify|perturb|resample|report` (the documents of `gobo xlogo
//! classify|perturb|resample|report --json`). The semantics are `gobo::xlogo`'s.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::xlogo::dims::{classify, task_row, TaskRow};
use gobo::xlogo::perturb::{perturb, Subset};
use gobo::xlogo::prompt::{prompt, PromptStyle};
use gobo::xlogo::report::report_of;
use gobo::xlogo::resample::{resample, row_failed, ResampleConfig};
use gobo::xlogo::{evaluate_code, load, parse_code, CodeInput, Task, World};
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

/// Calls `f` on a request's `code`: a JSON string is Python-style source, anything else the
/// JSON AST.
fn with_code<R>(raw: &RawValue, f: impl FnOnce(CodeInput<'_>) -> R) -> Result<R, ApiError> {
    let text = raw.get().trim_start();
    if text.starts_with('"') {
        let source: String = serde_json::from_str(text)
            .map_err(|e| ApiError::invalid("invalid_request", e.to_string()).at("code"))?;
        Ok(f(CodeInput::Python(source.as_bytes())))
    } else {
        Ok(f(CodeInput::Json(text.as_bytes())))
    }
}

fn eval(req: &XlogoEvalRequest) -> Result<Value, ApiError> {
    let task = task_of(&req.task)?;
    let world = World::new(&task);
    with_code(&req.code, |code| evaluate_code(&world, code).to_json())
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

/// The reference code of a request (`code`: Python-style source as a string, or a JSON AST),
/// else the task row's own `reference_code`.
fn reference_of(
    code: Option<&RawValue>,
    row: &TaskRow,
) -> Result<Option<gobo::xlogo::Program>, ApiError> {
    let Some(raw) = code else { return Ok(row.reference.clone()) };
    with_code(raw, parse_code)?
        .map(Some)
        .map_err(|e| ApiError::invalid("bad_code", e.to_string()).at("code"))
}

fn row_of(task: &Value) -> Result<TaskRow, ApiError> {
    task_row(task).map_err(|e| ApiError::invalid("bad_task", e).at("task"))
}

/// `POST /v1/xlogo/classify` and `POST /v1/xlogo/perturb`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct XlogoTaskRequest {
    /// The task, or a data row with `task` and `reference_code`.
    #[schema(value_type = Object)]
    pub task: Value,
    /// Reference code (Python-style source as a string, or a JSON AST), instead of the row's
    /// `reference_code`.
    #[schema(value_type = Option<Object>)]
    pub code: Option<Box<RawValue>>,
    /// Perturb only: the subsets to produce (`T`, `T_A` .. `T_ABC`, or letters such as `AB`;
    /// default all eight).
    pub subsets: Option<Vec<String>>,
}

/// A task's dimensions (XLogoMiniProg §5.4).
///
/// The document of `gobo xlogo classify --json` (`docs/xlogo.md` §9): task type, constraints,
/// concepts, code length and grid size; the dimensions that need reference code are `null`
/// without it.
#[utoipa::path(post, path = "/v1/xlogo/classify", tag = "xlogo", request_body = XlogoTaskRequest,
    responses((status = 200, description = "The dimensions", body = Object),
        (status = 422, description = "The task or code cannot be read", body = ErrorBody)))]
pub async fn xlogo_classify(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<XlogoTaskRequest>,
) -> Result<Json<Value>, ApiError> {
    app.pool
        .run(move || {
            let row = row_of(&req.task)?;
            let reference = reference_of(req.code.as_deref(), &row)?;
            Ok(Json(classify(&row.task, reference.as_ref()).to_json()))
        })
        .await?
}

/// The paper's three simplifications of a task.
///
/// `{perturbed: [...]}`, one document of `gobo xlogo perturb --json` per subset (`docs/xlogo.md`
/// §11): the perturbed task, what changed, the turtle's move for C, and the reference code's
/// verdict on it.
#[utoipa::path(post, path = "/v1/xlogo/perturb", tag = "xlogo", request_body = XlogoTaskRequest,
    responses((status = 200, description = "The perturbed tasks", body = Object),
        (status = 422, description = "The task, code or a subset cannot be read", body = ErrorBody)))]
pub async fn xlogo_perturb(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<XlogoTaskRequest>,
) -> Result<Json<Value>, ApiError> {
    app.pool
        .run(move || {
            let row = row_of(&req.task)?;
            let reference = reference_of(req.code.as_deref(), &row)?;
            let subsets = match &req.subsets {
                None => Subset::ALL.to_vec(),
                Some(names) => names
                    .iter()
                    .map(|s| {
                        Subset::parse(s).ok_or_else(|| {
                            ApiError::invalid(
                                "bad_subset",
                                format!("unknown subset {s:?} (T, T_A .. T_ABC)"),
                            )
                            .at("subsets")
                        })
                    })
                    .collect::<Result<_, _>>()?,
            };
            let mut out = Vec::new();
            for subset in subsets {
                let p = perturb(&req.task, reference.as_ref(), subset)
                    .map_err(|e| ApiError::invalid("bad_task", e.to_string()).at("task"))?;
                out.push(serde_json::to_value(&p).map_err(|e| ApiError::internal(e.to_string()))?);
            }
            Ok(Json(json!({ "perturbed": out })))
        })
        .await?
}

/// `POST /v1/xlogo/resample`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct XlogoResampleRequest {
    /// Verdict rows of the model's predictions on the training set (`gobo xlogo eval --batch`
    /// output rows).
    #[schema(value_type = Vec<Object>)]
    pub rows: Vec<Value>,
    /// β ≥ 0: how much more a failed task weighs (default 1).
    pub beta: Option<f64>,
    /// Draws (default: as many as rows; at most 10,000,000).
    pub size: Option<usize>,
    /// Seed of the sampler (default 1).
    pub seed: Option<u32>,
}

/// Emulator-driven curriculum resampling (`docs/xlogo.md` §12).
///
/// The document of `gobo xlogo resample --json`: the weights, `sample` (the drawn rows' ids,
/// in draw order) and the share of failed rows drawn.
#[utoipa::path(post, path = "/v1/xlogo/resample", tag = "xlogo", request_body = XlogoResampleRequest,
    responses((status = 200, description = "The draw", body = Object),
        (status = 422, description = "No rows, a bad beta, or too many draws", body = ErrorBody)))]
pub async fn xlogo_resample(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<XlogoResampleRequest>,
) -> Result<Json<Value>, ApiError> {
    app.pool
        .run(move || {
            let d = ResampleConfig::default();
            let cfg = ResampleConfig {
                beta: req.beta.unwrap_or(d.beta),
                size: req.size,
                seed: req.seed.unwrap_or(d.seed),
            };
            let failed: Vec<bool> = req.rows.iter().map(row_failed).collect();
            let r = resample(&failed, &cfg)
                .map_err(|e| ApiError::invalid("bad_request", e.to_string()))?;
            let ids: Vec<Value> =
                req.rows.iter().map(|r| r.get("id").cloned().unwrap_or(Value::Null)).collect();
            Ok(Json(r.to_json(&ids)))
        })
        .await?
}

/// `POST /v1/xlogo/report`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct XlogoReportRequest {
    /// Verdict rows (`gobo xlogo eval --batch` output rows).
    #[schema(value_type = Vec<Object>)]
    pub rows: Vec<Value>,
    /// The tasks the rows' ids refer to (data rows or batch inputs), for the per-dimension
    /// tables.
    #[schema(value_type = Option<Vec<Object>>)]
    pub tasks: Option<Vec<Value>>,
}

/// Success, format and no-crash rates, overall and per task dimension.
///
/// The document of `gobo xlogo report --json` (`docs/xlogo.md` §10, `docs/benchmarks.md`), plus
/// `unreadable_tasks`: task rows that could not be read (their verdict rows count as unknown).
#[utoipa::path(post, path = "/v1/xlogo/report", tag = "xlogo", request_body = XlogoReportRequest,
    responses((status = 200, description = "The report", body = Object),
        (status = 422, description = "No rows", body = ErrorBody)))]
pub async fn xlogo_report(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<XlogoReportRequest>,
) -> Result<Json<Value>, ApiError> {
    app.pool
        .run(move || {
            if req.rows.is_empty() {
                return Err(ApiError::invalid("bad_request", "no rows").at("rows"));
            }
            let (report, unreadable) = report_of(&req.rows, req.tasks.iter().flatten());
            let mut doc = report.to_json();
            doc["unreadable_tasks"] = json!(unreadable);
            Ok(Json(doc))
        })
        .await?
}
