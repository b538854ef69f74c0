//! Session endpoints under `/v1/sessions` (SPEC §5.4): make a composite session from a
//! project, observe it, act on it with one `{api, args}` action (the core's [`ActResult`]
//! envelope; an action that fails is a 200 with `success: false`), run it, picture its stage,
//! export it, judge it with a suite, fork it and delete it. Every call is the core's
//! [`Session`] or the same `gobo-host` function as the stateless endpoints; the state and its
//! bounds live in [`crate::sessions`].

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gobo::scratch::agent::{ActResult, Feedback, IndexMode, ObserveMode, Session, SessionConfig};
use gobo::scratch::project::{load_with, LoadOptions, Project};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::Config;
use gobo_host::project::compile_files;
use gobo_host::sb3::{write_sb3, ProjectFiles};
use gobo_host::stage::render_frames;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};

use super::scratch::{judge_files, trace_files, Judging, RunParams, Seeds};
use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ApiQuery, ErrorBody};
use crate::input::{files_of, project_bytes};
use crate::sessions::{Change, Live};
use crate::store::now_ms;
use crate::tasks::TaskBinding;

/// `POST /v1/sessions` (and ScratchWorld's `POST /sessions`).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The starting project (required on `/v1/sessions`; ScratchWorld's `POST /sessions`
    /// without one starts from an empty project, a stage and `Sprite1`).
    #[schema(value_type = Option<crate::input::ProjectInput>)]
    pub project: Option<Box<RawValue>>,
    /// A gold project to compare with (same forms as `project`): the viewer shows its stage
    /// beside the session's, and `GET /v1/sessions/{id}/gold.png` draws it.
    #[schema(value_type = Option<crate::input::ProjectInput>)]
    pub gold: Option<Box<RawValue>>,
    /// `compat` (ScratchWorld's observation and action semantics, the default) or `full`.
    #[schema(value_type = Option<String>)]
    pub mode: Option<ObserveMode>,
    /// `index` (`#n`, the default) or `id` (`@id`).
    #[schema(value_type = Option<String>)]
    pub index: Option<IndexMode>,
    /// Seeds the ids of new blocks, variables and messages (default 0).
    pub seed: Option<u64>,
    /// Actions before the episode ends (default 50; 0: no limit).
    pub max_steps: Option<u32>,
    /// `full` (the whole envelope, the default) or `observation-only`.
    #[schema(value_type = Option<String>)]
    pub feedback: Option<Feedback>,
    /// Resolve indices against a fresh observation before every action (default true).
    pub auto_observe: Option<bool>,
    /// Add the observation after the action to every response (default false).
    pub observe_each: Option<bool>,
    /// A ScratchWorld task name (`benchmarks/scratchworld/manifest.json`): the session keeps
    /// the task's suite, and `evaluate` without a suite judges with it. The task's starter
    /// project is still given as `project` (inline or by blob ref).
    pub task: Option<String>,
    /// The task's suite flavour: `compat` (the original script's behaviour, the default) or
    /// `strict` (the task's stated intent).
    pub flavour: Option<String>,
}

impl CreateRequest {
    fn config(&self) -> SessionConfig {
        let d = SessionConfig::default();
        SessionConfig {
            mode: self.mode.unwrap_or(d.mode),
            index: self.index.unwrap_or(d.index),
            seed: self.seed.unwrap_or(d.seed),
            max_steps: self.max_steps.unwrap_or(d.max_steps),
            feedback: self.feedback.unwrap_or(d.feedback),
            auto_observe: self.auto_observe.unwrap_or(d.auto_observe),
            observe_each: self.observe_each.unwrap_or(d.observe_each),
            ..d
        }
    }
}

/// The project a ScratchWorld session starts from before `load_project`: a stage and one
/// sprite, no scripts, no costumes.
const EMPTY_PROJECT: &str = r#"{"targets":[{"isStage":true,"name":"Stage","variables":{},"lists":{},"broadcasts":{},"blocks":{},"comments":{},"currentCostume":0,"costumes":[],"sounds":[],"volume":100,"layerOrder":0,"tempo":60,"videoTransparency":50,"videoState":"on","textToSpeechLanguage":null},{"isStage":false,"name":"Sprite1","variables":{},"lists":{},"broadcasts":{},"blocks":{},"comments":{},"currentCostume":0,"costumes":[],"sounds":[],"volume":100,"layerOrder":1,"visible":true,"x":0,"y":0,"size":100,"direction":90,"draggable":false,"rotationStyle":"all around"}],"monitors":[],"extensions":[],"meta":{"semver":"3.0.0","vm":"0.2.0","agent":""}}"#;

/// Reads the project `raw` names (or the empty project) on a worker thread: its bytes and
/// the parsed project.
pub async fn read_project(
    app: &Arc<App>,
    raw: Option<Box<RawValue>>,
) -> Result<(Vec<u8>, Project), ApiError> {
    let a = Arc::clone(app);
    app.pool
        .run(move || {
            let bytes = match &raw {
                Some(raw) => project_bytes(raw, &a.engine.blobs, "project")?.to_vec(),
                None => EMPTY_PROJECT.as_bytes().to_vec(),
            };
            let files = files_of(&bytes, "project")?;
            let project = load_with(&files.project_json, &LoadOptions { repair_references: true })
                .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
            Ok((bytes, project))
        })
        .await?
}

/// Reads and stores a gold project (it must load and compile); returns its blob ref.
async fn read_gold(app: &Arc<App>, raw: Box<RawValue>) -> Result<String, ApiError> {
    let a = Arc::clone(app);
    let bytes = app
        .pool
        .run(move || {
            let bytes = project_bytes(&raw, &a.engine.blobs, "gold")?.to_vec();
            let files = files_of(&bytes, "gold")?;
            compile_files(&files)
                .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("gold"))?;
            Ok::<_, ApiError>(bytes)
        })
        .await??;
    Ok(app.engine.blobs.put(bytes).await?)
}

/// Looks up a ScratchWorld task and stores its suite as a blob (the session keeps the suite as
/// it is now, so a restart or an edited folder does not change how it is judged).
async fn read_task(
    app: &Arc<App>,
    name: String,
    flavour: Option<String>,
) -> Result<TaskBinding, ApiError> {
    let a = Arc::clone(app);
    let found =
        app.pool.run(move || a.engine.scratchworld.find(&name, flavour.as_deref())).await??;
    let suite = app.engine.blobs.put(found.suite).await?;
    Ok(TaskBinding {
        name: found.name,
        category: found.category,
        flavour: found.flavour.name().to_string(),
        suite,
    })
}

/// The `task` object of a session's answers: `{name, category, flavour, suite_ref}`, or null.
pub fn task_json(live: &Live) -> Value {
    live.task.as_ref().map_or(Value::Null, |t| {
        json!({"name": t.name, "category": t.category, "flavour": t.flavour, "suite_ref": t.suite})
    })
}

/// A new session (blob stored, row committed); returns its id and first observation.
pub async fn create_session(
    app: &Arc<App>,
    req: CreateRequest,
) -> Result<(String, Live, Value), ApiError> {
    let config = req.config();
    let task = match req.task.clone() {
        Some(name) => Some(read_task(app, name, req.flavour.clone()).await?),
        None if req.flavour.is_some() => {
            return Err(ApiError::invalid("invalid_request", "flavour needs a task").at("flavour"))
        }
        None => None,
    };
    let gold = match req.gold {
        Some(raw) => Some(read_gold(app, raw).await?),
        None => None,
    };
    let (bytes, project) = read_project(app, req.project).await?;
    let source = app.engine.blobs.put(bytes).await?;
    let (live, observation) = app
        .pool
        .run(move || {
            let mut session = Session::new(project, config)
                .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
            let observation = session.observe();
            let obs = serde_json::to_value(&observation)
                .map_err(|e| ApiError::internal(e.to_string()))?;
            Ok::<_, ApiError>((Live { session, source, gold, created_ms: now_ms(), task }, obs))
        })
        .await??;
    let id = app.sessions.insert(live.clone()).await?;
    Ok((id, live, observation))
}

/// Make a composite session.
///
/// `{session_id, step, max_steps, done, project_ref, observation}` with status 201. The
/// observation is the core's (`docs/observation.md`); its index map is what the first
/// action's indices mean. 429 when every session place is taken.
#[utoipa::path(post, path = "/v1/sessions", tag = "sessions", request_body = CreateRequest,
    responses((status = 201, description = "The new session", body = Object),
        (status = 422, description = "Missing or unusable project", body = ErrorBody),
        (status = 429, description = "Too many sessions", body = ErrorBody)))]
pub async fn create(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<Response, ApiError> {
    if req.project.is_none() {
        return Err(ApiError::invalid("invalid_request", "missing field `project`").at("project"));
    }
    let (id, live, observation) = create_session(&app, req).await?;
    let body = json!({
        "session_id": id,
        "step": live.session.step(),
        "max_steps": live.session.config().max_steps,
        "done": live.session.finished().is_some(),
        "project_ref": live.source,
        "task": task_json(&live),
        "observation": observation,
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// List the live sessions.
///
/// `{sessions: [{session_id, used_ms}], active, max}` (least recently used first), with the
/// headers `X-Max-Sessions` and `X-Active-Sessions`. Expired sessions are dropped first.
#[utoipa::path(get, path = "/v1/sessions", tag = "sessions",
    responses((status = 200, description = "The sessions", body = Object)))]
pub async fn list(State(app): State<Arc<App>>) -> Response {
    let live = app.sessions.sweep();
    let max = app.sessions.max();
    let sessions: Vec<Value> =
        live.iter().map(|(id, used)| json!({"session_id": id, "used_ms": used})).collect();
    let body = json!({"sessions": sessions, "active": live.len(), "max": max});
    let mut response = Json(body).into_response();
    let headers = response.headers_mut();
    headers.insert("x-max-sessions", HeaderValue::from(max));
    headers.insert("x-active-sessions", HeaderValue::from(live.len()));
    response
}

fn info_of(id: &str, live: &Live) -> Value {
    let s = &live.session;
    let c = s.config();
    let editing = s.project().targets.get(s.editing()).map(|t| t.name.clone());
    json!({
        "session_id": id,
        "step": s.step(),
        "steps_left": (c.max_steps > 0).then(|| c.max_steps.saturating_sub(s.step())),
        "done": s.finished().is_some(),
        "finished": s.finished(),
        "editing_target": editing,
        "config": {
            "mode": c.mode, "index": c.index, "seed": c.seed, "max_steps": c.max_steps,
            "feedback": c.feedback, "auto_observe": c.auto_observe, "observe_each": c.observe_each,
        },
        "project_ref": live.source,
        "gold_ref": live.gold,
        "task": task_json(live),
        "created_ms": live.created_ms,
    })
}

/// A session's state.
///
/// `{session_id, step, steps_left, done, finished, editing_target, config, project_ref,
/// gold_ref, created_ms}` (`gold_ref` null without a gold project).
#[utoipa::path(get, path = "/v1/sessions/{id}", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    responses((status = 200, description = "The session", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn info(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let i = id.clone();
    let sessions = Arc::clone(&app.sessions);
    sessions.call(&app, &id, move |live, _| Ok(info_of(&i, live))).await.map(Json)
}

/// `?format=` of an observation.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ObserveQuery {
    /// `text` (the per-turn prompt, the default) or `json` (the whole observation).
    pub format: Option<String>,
    /// Observe this target (by name) instead of the one being edited; the next action's
    /// indices still refer to the editing target's last observation.
    pub target: Option<String>,
}

/// Observe a session.
///
/// The per-turn prompt text (`text/plain`), or with `?format=json` the core's observation
/// `{text, pseudocode, target, target_id, is_stage, targets, variables, lists, blocks, mode,
/// index}` (`docs/observation.md`). Observing sets the index map the next action resolves
/// against when the session does not observe before every action.
#[utoipa::path(get, path = "/v1/sessions/{id}/observation", tag = "sessions",
    params(("id" = String, Path, description = "The session id"), ObserveQuery),
    responses((status = 200, description = "The observation", body = Object),
        (status = 400, description = "Unknown format", body = ErrorBody),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn observation(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ObserveQuery>,
) -> Result<Response, ApiError> {
    let json = match q.format.as_deref() {
        None | Some("text") => false,
        Some("json") => true,
        Some(other) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_query",
                format!("format is text or json, not {other:?}"),
            ))
        }
    };
    let sessions = Arc::clone(&app.sessions);
    let target = q.target;
    let obs = sessions
        .call_changing(&app, &id, move |live, _| {
            if let Some(name) = target {
                let project = live.session.project();
                let obs = project
                    .targets
                    .iter()
                    .position(|t| t.name == name)
                    .and_then(|i| live.session.peek_target(i))
                    .ok_or_else(|| {
                        ApiError::not_found("unknown_target", format!("no target named {name:?}"))
                            .at("target")
                    })?;
                return Ok((obs, Change::None));
            }
            if live.session.config().auto_observe {
                // Every action observes afresh: the observation is not state.
                return Ok((live.session.observe(), Change::None));
            }
            // Actions resolve against the last observation: a new index map is a change.
            let (obs, changed) = live.session.observe_changed();
            Ok((obs, if changed { Change::Observe } else { Change::None }))
        })
        .await?;
    if json {
        Ok(Json(obs).into_response())
    } else {
        Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], obs.text).into_response())
    }
}

/// Applies one action to session `id`: the core's envelope, `meta.session_id` naming `id`.
pub async fn act_on(app: &Arc<App>, id: &str, action: Value) -> Result<ActResult, ApiError> {
    let i = id.to_string();
    let sessions = Arc::clone(&app.sessions);
    sessions
        .call_changing(app, id, move |live, _| {
            let (step, over) = (live.session.step(), live.session.finished().is_some());
            let mut r = live.session.act(&action);
            r.meta.session_id = i;
            // Only an action refused for an invalid result (`INVALID_RESULT`) leaves a running
            // episode's step counter as it was: the session is unchanged, nothing to commit
            // or log (the check holds when feedback withholds the error code too).
            if !over && live.session.step() == step {
                return Ok((r, Change::None));
            }
            let entry = json!({
                "kind": "act",
                "step": r.meta.step,
                "success": r.success,
                "requested_action": r.requested_action,
                "executed_action": r.executed_action,
                "error": r.error.as_ref().map(|e| json!({"code": e.code, "message": e.message})),
                "done": r.done,
            });
            Ok((r, Change::Act { action: action.to_string(), log: entry.to_string() }))
        })
        .await
}

/// A session's action log.
///
/// `{session_id, entries}`: every action since the session was made, oldest first, as
/// `{kind: "act", step, success, requested_action, executed_action, error, done}`, and each
/// project load (`{kind: "load_project", step, project_ref}`). The log is committed with the
/// change it records, so it survives a restart. A fork starts with an empty log.
#[utoipa::path(get, path = "/v1/sessions/{id}/log", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    responses((status = 200, description = "The action log", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn log(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let sessions = Arc::clone(&app.sessions);
    let i = id.clone();
    let entries = sessions
        .call(&app, &id, move |_, a| {
            let entries = a.sessions.log(&i)?;
            let entries: Result<Vec<Value>, _> =
                entries.iter().map(|e| serde_json::from_str::<Value>(e)).collect();
            let entries = entries.map_err(|e| ApiError::internal(format!("stored log: {e}")))?;
            Ok(entries)
        })
        .await?;
    Ok(Json(json!({"session_id": id, "entries": entries})))
}

/// Act on a session with one composite action.
///
/// The body is `{api, args}` (the 11 APIs of `docs/composite.md`). The answer is
/// ScratchWorld's envelope `{success, requested_action, executed_action, data, error, meta:
/// {session_id, step, steps_left, duration_ms}, done, observation?}`; an action that fails
/// (bad arguments, unknown API, the episode over) is a 200 with `success: false` and the
/// error code. The action is committed before the answer.
#[utoipa::path(post, path = "/v1/sessions/{id}/act", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    request_body(content = Object, description = "`{api, args}`"),
    responses((status = 200, description = "The action's envelope", body = Object),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiJson(action): ApiJson<Value>,
) -> Result<Json<ActResult>, ApiError> {
    act_on(&app, &id, action).await.map(Json)
}

/// `POST /v1/sessions/{id}/run`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionRunRequest {
    /// Scenario (refvm format); default: the green flag at frame 0.
    #[schema(value_type = Option<Object>)]
    pub scenario: Option<Box<RawValue>>,
    /// Frames to run (default: the scenario's, else 300; at most the work budget).
    pub frames: Option<u64>,
    /// Seed of block randomness (default: the scenario's, else 1).
    pub seed: Option<u32>,
    /// Frames per second, 30 to 60 (default 30).
    pub fps: Option<u32>,
    /// Stop after two idle frames once no scenario event is pending.
    pub until_idle: Option<bool>,
}

/// Run a session's project.
///
/// The JSON-lines trace of `gobo run --trace -` (`docs/trace.md`) of the project as it
/// stands, within the frame and trace budgets; the meta line names the session and the MD5 of
/// its `project.json`. The session is not changed.
#[utoipa::path(post, path = "/v1/sessions/{id}/run", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    request_body = SessionRunRequest,
    responses((status = 200, description = "The trace", content_type = "application/x-ndjson", body = String),
        (status = 404, description = "Unknown or expired session", body = ErrorBody),
        (status = 422, description = "Unusable scenario, or over the work budget", body = ErrorBody)))]
pub async fn run(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<SessionRunRequest>,
) -> Result<Response, ApiError> {
    let i = id.clone();
    let sessions = Arc::clone(&app.sessions);
    let trace = sessions
        .call(&app, &id, move |live, a| {
            let files = live.files(&a.engine.blobs)?;
            let md5 = gobo::md5::hex(&files.project_json);
            let params = RunParams {
                scenario: req.scenario.as_deref(),
                frames: req.frames,
                seed: req.seed,
                fps: req.fps,
                until_idle: req.until_idle,
                name: Some(i.as_str()),
                // The session's project is exported as an .sb3, which the reference loads as is.
                assets: gobo_host::sb3::AssetLoad::of(&files, true),
            };
            trace_files(&a.engine, &files, &md5, &params)
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], trace).into_response())
}

/// `?after_frame=&scale=&seed=` of a stage picture.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct StageQuery {
    /// The frame (0-based, after its step) of a green-flag run to picture (default 0).
    pub after_frame: Option<u64>,
    /// Scale of the 480×360 stage, 1 to 8 (default 1).
    pub scale: Option<u32>,
    /// Seed of block randomness (default 1).
    pub seed: Option<u32>,
}

/// The PNG of session `id`'s project as it stands (with `gold`, of its gold project) after a
/// frame of a green-flag run.
pub async fn stage_png(
    app: &Arc<App>,
    id: &str,
    q: StageQuery,
    gold: bool,
) -> Result<Vec<u8>, ApiError> {
    let sessions = Arc::clone(&app.sessions);
    sessions
        .call(app, id, move |live, a| {
            let blobs = &a.engine.blobs;
            let files = if gold { live.gold_files(blobs)? } else { live.files(blobs)? };
            picture(&a.engine, &files, &q)
        })
        .await
}

fn picture(engine: &Engine, files: &ProjectFiles, q: &StageQuery) -> Result<Vec<u8>, ApiError> {
    let frame = q.after_frame.unwrap_or(0);
    if frame >= engine.limits.max_frames {
        return Err(ApiError::invalid(
            "work_budget",
            format!("frame {frame} is past the work budget of {} frames", engine.limits.max_frames),
        )
        .at("after_frame"));
    }
    let scale = q.scale.unwrap_or(1);
    if !(1..=8).contains(&scale) {
        return Err(ApiError::invalid("invalid_request", "scale is 1 to 8").at("scale"));
    }
    let loaded = compile_files(files)
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
    let config = Config { seed: q.seed.unwrap_or(1), ..Config::default() };
    let pngs = render_frames(
        loaded.image,
        &Scenario::green_flag(),
        config,
        &[frame],
        480 * scale,
        360 * scale,
    )
    .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
    pngs.into_iter().next().ok_or_else(|| ApiError::internal("no picture was made"))
}

/// Picture a session's stage.
///
/// A PNG of the stage (not the editor) after frame `after_frame` of a green-flag run of the
/// project as it stands, as `gobo render` draws it.
#[utoipa::path(get, path = "/v1/sessions/{id}/stage.png", tag = "sessions",
    params(("id" = String, Path, description = "The session id"), StageQuery),
    responses((status = 200, description = "The picture", content_type = "image/png", body = Vec<u8>),
        (status = 404, description = "Unknown or expired session", body = ErrorBody),
        (status = 422, description = "Bad scale or over the work budget", body = ErrorBody)))]
pub async fn stage(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<StageQuery>,
) -> Result<Response, ApiError> {
    let png = stage_png(&app, &id, q, false).await?;
    Ok(([(header::CONTENT_TYPE, "image/png")], png).into_response())
}

/// Picture a session's gold project.
///
/// As `stage.png`, for the gold project the session was made with (`gold` in `POST
/// /v1/sessions`); 404 `no_gold` without one.
#[utoipa::path(get, path = "/v1/sessions/{id}/gold.png", tag = "sessions",
    params(("id" = String, Path, description = "The session id"), StageQuery),
    responses((status = 200, description = "The picture", content_type = "image/png", body = Vec<u8>),
        (status = 404, description = "Unknown or expired session, or no gold project", body = ErrorBody),
        (status = 422, description = "Bad scale or over the work budget", body = ErrorBody)))]
pub async fn gold(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<StageQuery>,
) -> Result<Response, ApiError> {
    let png = stage_png(&app, &id, q, true).await?;
    Ok(([(header::CONTENT_TYPE, "image/png")], png).into_response())
}

/// `?format=` of an export.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ProjectQuery {
    /// `sb3` (the archive with its assets, the default) or `json` (`project.json`).
    pub format: Option<String>,
}

/// Export a session's project.
///
/// The project as it stands: a deterministic `.sb3` (the starting project's assets kept; the
/// same session gives the same bytes) or, with `?format=json`, its `project.json`.
#[utoipa::path(get, path = "/v1/sessions/{id}/project", tag = "sessions",
    params(("id" = String, Path, description = "The session id"), ProjectQuery),
    responses((status = 200, description = "The project", content_type = "application/x.scratch.sb3", body = Vec<u8>),
        (status = 400, description = "Unknown format", body = ErrorBody),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn project(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ProjectQuery>,
) -> Result<Response, ApiError> {
    let sb3 = match q.format.as_deref() {
        None | Some("sb3") => true,
        Some("json") => false,
        Some(other) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_query",
                format!("format is sb3 or json, not {other:?}"),
            ))
        }
    };
    let sessions = Arc::clone(&app.sessions);
    let bytes = sessions
        .call(&app, &id, move |live, a| {
            let files = live.files(&a.engine.blobs)?;
            if !sb3 {
                return Ok(files.project_json);
            }
            let bytes = write_sb3(&files).map_err(|e| ApiError::internal(e.to_string()))?;
            Ok(bytes)
        })
        .await?;
    let kind = if sb3 { "application/x.scratch.sb3" } else { "application/json" };
    Ok(([(header::CONTENT_TYPE, kind)], bytes).into_response())
}

/// `POST /v1/sessions/{id}/evaluate`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    /// The suite (`docs/test-suite.md`): an object, or its JSON text. Default: the suite of
    /// the task the session was made for.
    #[schema(value_type = Option<Object>)]
    pub suite: Option<Box<RawValue>>,
    /// Rerun under these seeds (default: once, under the suite's seed).
    pub seeds: Option<Seeds>,
    /// Pass-rate threshold of a passing case with seeds (default 0.9).
    pub theta_pass: Option<f64>,
    /// Pass-rate threshold of a stable failure with seeds (default 0.1).
    pub theta_fail: Option<f64>,
}

/// Judges session `id`'s project on a suite.
pub async fn evaluate_on(
    app: &Arc<App>,
    id: &str,
    req: EvaluateRequest,
) -> Result<Value, ApiError> {
    let sessions = Arc::clone(&app.sessions);
    sessions
        .call(app, id, move |live, a| {
            let files = live.files(&a.engine.blobs)?;
            let task_suite;
            let suite: &RawValue = match (&req.suite, &live.task) {
                (Some(s), _) => s,
                (None, Some(t)) => {
                    let bytes =
                        a.engine.blobs.get(&t.suite).map_err(ApiError::from)?.ok_or_else(|| {
                            ApiError::internal(format!(
                                "the session's suite blob {} is missing",
                                t.suite
                            ))
                        })?;
                    // The suite blob is JSON text: handed over as a JSON string.
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    task_suite = RawValue::from_string(
                        serde_json::to_string(&text)
                            .map_err(|e| ApiError::internal(e.to_string()))?,
                    )
                    .map_err(|e| ApiError::internal(e.to_string()))?;
                    &task_suite
                }
                (None, None) => {
                    return Err(ApiError::invalid(
                        "invalid_request",
                        "missing field `suite` (this session was not made for a task)",
                    )
                    .at("suite"))
                }
            };
            let judging = Judging {
                suite,
                seeds: req.seeds.as_ref(),
                theta_pass: req.theta_pass,
                theta_fail: req.theta_fail,
                traces: None,
            };
            judge_files(&files, &a.engine.limits, &judging)
        })
        .await
}

/// Judge a session's project with a test suite.
///
/// The report of `gobo test --json` on the project as it stands (loaded fresh: no runtime
/// state carries over from editing): `{success, passed_tests, total_tests,
/// partial_success_rate, details}`. A failing suite is a 200 with `success: false`.
#[utoipa::path(post, path = "/v1/sessions/{id}/evaluate", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    request_body = EvaluateRequest,
    responses((status = 200, description = "The suite report", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody),
        (status = 422, description = "Unusable suite or seeds, or over the work budget", body = ErrorBody)))]
pub async fn evaluate(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<EvaluateRequest>,
) -> Result<Json<Value>, ApiError> {
    evaluate_on(&app, &id, req).await.map(Json)
}

/// Fork a session.
///
/// `{session_id, forked_from, step}` with status 201: a new session identical to this one
/// (project, editing target, step counter, index map, id counter); the two then change
/// independently. 429 when every session place is taken.
#[utoipa::path(post, path = "/v1/sessions/{id}/fork", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    responses((status = 201, description = "The copy", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody),
        (status = 429, description = "Too many sessions", body = ErrorBody)))]
pub async fn fork(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let sessions = Arc::clone(&app.sessions);
    let mut copy = sessions.call(&app, &id, |live, _| Ok(live.clone())).await?;
    copy.created_ms = now_ms();
    let step = copy.session.step();
    let new = app.sessions.insert(copy).await?;
    let body = json!({"session_id": new, "forked_from": id, "step": step});
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// Delete a session.
///
/// `{deleted: true, steps_used}`; the session is gone from memory and the database.
#[utoipa::path(delete, path = "/v1/sessions/{id}", tag = "sessions",
    params(("id" = String, Path, description = "The session id")),
    responses((status = 200, description = "Deleted", body = Object),
        (status = 404, description = "Unknown or expired session", body = ErrorBody)))]
pub async fn delete(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let sessions = Arc::clone(&app.sessions);
    let steps = sessions.remove(&app, &id).await?;
    Ok(Json(json!({"deleted": true, "session_id": id, "steps_used": steps})))
}
