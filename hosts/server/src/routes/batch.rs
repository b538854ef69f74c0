//! Batch jobs over HTTP: `POST /v1/batch` (store rows and start), `GET /v1/batch` (list),
//! `GET /v1/batch/{id}` (progress), `GET /v1/batch/{id}/results` (finished rows as JSON
//! lines, in input order; with `wait=true` the stream follows the job to its end and holds
//! exactly the lines of the CLI's `--out` file), `DELETE /v1/batch/{id}`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::params;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::{IntoParams, ToSchema};

use crate::app::App;
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::jobs::{JobStatus, Kind};
use crate::rows::{JobOptions, RowEval};

/// `POST /v1/batch`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// What the rows are.
    pub kind: Kind,
    /// The rows, one JSON object each, in the CLI's batch formats (`docs/server.md`).
    #[schema(value_type = Vec<Object>)]
    pub rows: Vec<Box<RawValue>>,
    /// Job options.
    pub options: Option<JobOptions>,
}

/// The jobs.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobList {
    /// Every job, oldest first.
    pub jobs: Vec<JobStatus>,
}

fn check_id(id: &str) -> Result<(), ApiError> {
    if crate::ids::well_formed("j", id) {
        Ok(())
    } else {
        Err(ApiError::not_found("unknown_job", format!("no batch job {id:?}")))
    }
}

/// Submit a batch job.
///
/// The rows are stored before the answer (202), so they survive a restart; evaluation runs on
/// idle workers. Rows that cannot be evaluated get a result with `error`, as in the CLI.
#[utoipa::path(post, path = "/v1/batch", tag = "batch", request_body = BatchRequest,
    responses((status = 202, description = "Stored and started", body = JobStatus),
        (status = 422, description = "Bad options, or too many rows", body = ErrorBody)))]
pub async fn submit(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<BatchRequest>,
) -> Result<Response, ApiError> {
    let limit = app.engine.limits.max_batch_rows;
    if req.rows.is_empty() || req.rows.len() > limit {
        return Err(ApiError::invalid(
            "work_budget",
            format!("{} rows; a job holds 1 to {limit}", req.rows.len()),
        )
        .at("rows"));
    }
    if req.kind == Kind::Draw && !app.engine.drawing.configured() {
        let by_index = req.rows.iter().position(|r| {
            serde_json::from_str::<serde_json::Value>(r.get())
                .is_ok_and(|v| v.get("task").is_none() && v.get("task_index").is_some())
        });
        if let Some(i) = by_index {
            return Err(ApiError::invalid(
                "no_dataset",
                "a task index needs the DrawingBench dataset, which this server was not started with (--drawingbench-dataset)",
            )
            .at(format!("rows[{i}].task_index")));
        }
    }
    let options = req.options.unwrap_or_default();
    let eval = RowEval::new(req.kind, &options, &app.engine)
        .map_err(|e| ApiError::invalid("bad_options", e).at("options"))?;
    let options_text = serde_json::to_string(&options)
        .map_err(|e| ApiError::internal(format!("job options: {e}")))?;
    let rows: Vec<String> = req.rows.into_iter().map(|r| r.get().to_string()).collect();
    let status = app.jobs.submit(req.kind, options_text, rows, eval).await?;
    Ok((StatusCode::ACCEPTED, Json(status)).into_response())
}

/// List batch jobs.
#[utoipa::path(get, path = "/v1/batch", tag = "batch",
    responses((status = 200, description = "The jobs", body = JobList)))]
pub async fn list(State(app): State<Arc<App>>) -> Json<JobList> {
    Json(JobList { jobs: app.jobs.list() })
}

/// A job's progress.
#[utoipa::path(get, path = "/v1/batch/{id}", tag = "batch",
    params(("id" = String, Path, description = "The job")),
    responses((status = 200, description = "Progress", body = JobStatus),
        (status = 404, description = "No such job", body = ErrorBody)))]
pub async fn status(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<JobStatus>, ApiError> {
    check_id(&id)?;
    app.jobs
        .status(&id)
        .map(Json)
        .ok_or_else(|| ApiError::not_found("unknown_job", format!("no batch job {id}")))
}

/// Delete a job and its results.
#[utoipa::path(delete, path = "/v1/batch/{id}", tag = "batch",
    params(("id" = String, Path, description = "The job")),
    responses((status = 200, description = "Deleted", body = Object),
        (status = 404, description = "No such job", body = ErrorBody)))]
pub async fn delete(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    check_id(&id)?;
    if app.jobs.delete(&id).await? {
        Ok(Json(serde_json::json!({ "deleted": true })))
    } else {
        Err(ApiError::not_found("unknown_job", format!("no batch job {id}")))
    }
}

/// Where a results stream starts and whether it follows the job.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ResultsQuery {
    /// First row (0-based input index) to send (default 0).
    pub from: Option<u64>,
    /// Follow the job: send rows in input order as they finish, until the last.
    pub wait: Option<bool>,
}

/// A job's finished rows.
///
/// JSON lines, one result row per input row, in input order. Without `wait`, the rows finished
/// so far; with `wait=true`, every row from `from` on, each sent once it is finished.
#[utoipa::path(get, path = "/v1/batch/{id}/results", tag = "batch",
    params(("id" = String, Path, description = "The job"), ResultsQuery),
    responses((status = 200, description = "Result rows", content_type = "application/x-ndjson", body = String),
        (status = 404, description = "No such job", body = ErrorBody)))]
pub async fn results(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<ResultsQuery>,
) -> Result<Response, ApiError> {
    check_id(&id)?;
    if app.jobs.status(&id).is_none() {
        return Err(ApiError::not_found("unknown_job", format!("no batch job {id}")));
    }
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, Infallible>>(4);
    let from = i64::try_from(q.from.unwrap_or(0)).unwrap_or(i64::MAX);
    tokio::spawn(stream_rows(app, id, from, q.wait.unwrap_or(false), tx));
    let body = Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(rx));
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

async fn stream_rows(
    app: Arc<App>,
    id: String,
    mut cursor: i64,
    wait: bool,
    tx: tokio::sync::mpsc::Sender<Result<Bytes, Infallible>>,
) {
    let mut watch = app.jobs.watch();
    loop {
        let (job, from) = (id.clone(), cursor);
        let rows = app
            .store
            .read_async(move |c| {
                let mut stmt = c.prepare_cached(
                    "SELECT idx, result FROM job_rows WHERE job = ?1 AND idx >= ?2 ORDER BY idx LIMIT 512",
                )?;
                let rows = stmt.query_map(params![job, from], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?))
                })?;
                rows.collect::<Result<Vec<_>, _>>()
            })
            .await;
        let Ok(rows) = rows else { return };
        if rows.is_empty() {
            return;
        }
        let mut chunk = String::new();
        let mut blocked = false;
        for (idx, result) in rows {
            match result {
                Some(line) => {
                    chunk.push_str(&line);
                    chunk.push('\n');
                    cursor = idx + 1;
                }
                None if wait => {
                    blocked = true;
                    break;
                }
                None => cursor = idx + 1,
            }
        }
        if !chunk.is_empty() && tx.send(Ok(Bytes::from(chunk))).await.is_err() {
            return;
        }
        if blocked {
            match app.jobs.status(&id) {
                None => return,
                Some(s) if s.state == crate::jobs::JobState::Paused => return,
                Some(_) => {}
            }
            // Wake on the next commit, or look again after a while anyway.
            let _ = tokio::time::timeout(Duration::from_secs(2), watch.changed()).await;
        }
    }
}
