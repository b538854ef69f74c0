//! Stateless Scratch endpoints: `POST /v1/tests/run` (a suite's report, as `gobo test --json`),
//! `POST /v1/render` (stage PNGs, as `gobo render`) and `POST /v1/run` (the per-frame trace, as
//! `gobo run --trace -`). Each resolves its inputs and calls the same `gobo-host`/core
//! functions as the CLI, on a worker thread, within the request's work budget.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::Engine as _;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::suite::Stability;
use gobo::scratch::vm::Config;
use gobo_host::judge::{judge, parse_seeds, TestError, TestJob};
use gobo_host::project::compile_files;
use gobo_host::run::{run_trace, RunOptions, Source};
use gobo_host::sb3::ProjectFiles;
use gobo_host::stage::render_frames;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::app::{App, Engine};
use crate::blobs::Blobs;
use crate::config::Limits;
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::{files_of, project_bytes, project_files, text_of};

/// Seeds to rerun a suite under.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Seeds {
    /// `R`: seeds 1 to R.
    Count(u64),
    /// `"A..B"` (or `"R"`): seeds A to B.
    Range(String),
    /// These seeds.
    List(Vec<u64>),
}

/// `POST /v1/tests/run`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TestRunRequest {
    /// The project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// The suite (`docs/test-suite.md`): an object, or its JSON text.
    #[schema(value_type = Object)]
    pub suite: Box<RawValue>,
    /// Rerun under these seeds (default: once, under the suite's seed).
    pub seeds: Option<Seeds>,
    /// Pass-rate threshold of a passing case with seeds (default 0.9).
    pub theta_pass: Option<f64>,
    /// Pass-rate threshold of a stable failure with seeds (default 0.1).
    pub theta_fail: Option<f64>,
    /// Judge these cases on recorded traces (case name → JSON-lines trace text) instead of
    /// running the VM.
    pub traces: Option<BTreeMap<String, String>>,
}

/// The seed list `seeds` stands for, within `max` seeds.
pub fn seed_list(seeds: &Seeds, max: usize) -> Result<Vec<u64>, ApiError> {
    let bad =
        |e: gobo_host::judge::SeedsError| ApiError::invalid("bad_seeds", e.to_string()).at("seeds");
    let list = match seeds {
        Seeds::Count(n) => parse_seeds(&n.to_string()).map_err(bad)?,
        Seeds::Range(s) => parse_seeds(s).map_err(bad)?,
        Seeds::List(v) => v.clone(),
    };
    if list.is_empty() || list.len() > max {
        return Err(ApiError::invalid(
            "work_budget",
            format!("{} seeds asked; between 1 and {max} are allowed", list.len()),
        )
        .at("seeds"));
    }
    Ok(list)
}

/// Judges a project on a suite (blocking: a worker thread). Shared with batch rows of kind
/// `test`.
pub fn run_tests(blobs: &Blobs, limits: &Limits, req: &TestRunRequest) -> Result<Value, ApiError> {
    let files = project_files(&req.project, blobs, "project")?;
    let judging = Judging {
        suite: &req.suite,
        seeds: req.seeds.as_ref(),
        theta_pass: req.theta_pass,
        theta_fail: req.theta_fail,
        traces: req.traces.as_ref(),
    };
    judge_files(&files, limits, &judging)
}

/// What a suite is judged with, besides the project.
#[derive(Debug)]
pub struct Judging<'a> {
    /// The suite (an object, or its JSON text).
    pub suite: &'a RawValue,
    /// Seeds to rerun under.
    pub seeds: Option<&'a Seeds>,
    /// Pass-rate threshold of a passing case with seeds.
    pub theta_pass: Option<f64>,
    /// Pass-rate threshold of a stable failure with seeds.
    pub theta_fail: Option<f64>,
    /// Recorded traces by case name.
    pub traces: Option<&'a BTreeMap<String, String>>,
}

/// Judges project files on a suite: the report of `gobo test --json` (blocking: a worker
/// thread). Shared with the session endpoints.
pub fn judge_files(
    files: &ProjectFiles,
    limits: &Limits,
    j: &Judging<'_>,
) -> Result<Value, ApiError> {
    let suite = text_of(j.suite, "suite")?;
    let seeds = j.seeds.map(|s| seed_list(s, limits.max_seeds)).transpose()?;
    let defaults = Stability::default();
    let stability = Stability {
        theta_pass: j.theta_pass.unwrap_or(defaults.theta_pass),
        theta_fail: j.theta_fail.unwrap_or(defaults.theta_fail),
    };
    let no_traces = BTreeMap::new();
    let job = TestJob {
        project: files,
        suite: &suite,
        seeds: seeds.as_deref(),
        stability,
        traces: j.traces.unwrap_or(&no_traces),
        max_frames: Some(limits.max_frames),
    };
    match judge(&job) {
        Ok(judged) => Ok(judged.report.to_json()),
        Err(e) => Err(match &e {
            TestError::Suite(_) => ApiError::invalid("bad_suite", e.to_string()).at("suite"),
            TestError::Trace { .. } | TestError::UnknownTraceCase(_) => {
                ApiError::invalid("bad_trace", e.to_string()).at("traces")
            }
            TestError::FrameBudget { .. } => ApiError::invalid("work_budget", e.to_string()),
            _ => ApiError::invalid("bad_project", e.to_string()).at("project"),
        }),
    }
}

/// Judge a project on a test suite.
///
/// The report of `gobo test --json`: `{success, passed_tests, total_tests,
/// partial_success_rate, details}` (with seeds: per-case `pass_rate`, `stable`). A failing
/// suite is a 200 with `success: false`.
#[utoipa::path(post, path = "/v1/tests/run", tag = "scratch", request_body = TestRunRequest,
    responses((status = 200, description = "The suite report", body = Object),
        (status = 422, description = "Unusable project, suite, trace or seeds, or over the work budget", body = ErrorBody)))]
pub async fn tests_run(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<TestRunRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || run_tests(&a.engine.blobs, &a.engine.limits, &req)).await?.map(Json)
}

/// `POST /v1/render`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderRequest {
    /// The project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// Scenario (refvm format: an event list or `{frames, seed, events}`); default: the green
    /// flag at frame 0.
    #[schema(value_type = Option<Object>)]
    pub scenario: Option<Box<RawValue>>,
    /// Frames (0-based, after the frame's step) to picture.
    pub frames: Vec<u64>,
    /// Scale of the 480×360 stage, 1 to 8 (default 1).
    pub scale: Option<u32>,
    /// Seed of block randomness (default: the scenario's, else 1).
    pub seed: Option<u32>,
    /// Frames per second of the virtual clock, 30 to 60 (default 30).
    pub fps: Option<u32>,
}

pub fn scenario_of(raw: Option<&RawValue>) -> Result<Scenario, ApiError> {
    match raw {
        None => Ok(Scenario::green_flag()),
        Some(raw) => {
            let text = text_of(raw, "scenario")?;
            Scenario::parse(text.as_bytes())
                .map_err(|e| ApiError::invalid("bad_scenario", e.to_string()).at("scenario"))
        }
    }
}

pub fn fps_of(fps: Option<u32>) -> Result<u32, ApiError> {
    let fps = fps.unwrap_or(30);
    if !(30..=60).contains(&fps) {
        return Err(ApiError::invalid("invalid_request", "fps is 30 to 60").at("fps"));
    }
    Ok(fps)
}

fn render(engine: &Engine, req: &RenderRequest) -> Result<Value, ApiError> {
    let limits = &engine.limits;
    if req.frames.is_empty() || req.frames.len() > limits.max_pictures {
        return Err(ApiError::invalid(
            "work_budget",
            format!(
                "{} pictures asked; between 1 and {} are allowed",
                req.frames.len(),
                limits.max_pictures
            ),
        )
        .at("frames"));
    }
    if let Some(&f) = req.frames.iter().find(|&&f| f >= limits.max_frames) {
        return Err(ApiError::invalid(
            "work_budget",
            format!("frame {f} is past the work budget of {} frames", limits.max_frames),
        )
        .at("frames"));
    }
    let scale = req.scale.unwrap_or(1);
    if !(1..=8).contains(&scale) {
        return Err(ApiError::invalid("invalid_request", "scale is 1 to 8").at("scale"));
    }
    let fps = fps_of(req.fps)?;
    let scenario = scenario_of(req.scenario.as_deref())?;
    let files = project_files(&req.project, &engine.blobs, "project")?;
    let loaded = compile_files(&files)
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
    let config = Config { seed: req.seed.or(scenario.seed).unwrap_or(1), fps, ..Config::default() };
    let (width, height) = (480 * scale, 360 * scale);
    let pngs = render_frames(loaded.image, &scenario, config, &req.frames, width, height)
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
    let engine = base64::engine::general_purpose::STANDARD;
    let frames: Vec<Value> = req
        .frames
        .iter()
        .zip(&pngs)
        .map(|(f, p)| json!({"frame": f, "png_b64": engine.encode(p)}))
        .collect();
    Ok(json!({"width": width, "height": height, "frames": frames, "warnings": loaded.warnings}))
}

/// Pictures of the stage after chosen frames.
///
/// `{width, height, frames: [{frame, png_b64}], warnings}`: the pictures `gobo render` writes,
/// as base64 PNG (RGB).
#[utoipa::path(post, path = "/v1/render", tag = "scratch", request_body = RenderRequest,
    responses((status = 200, description = "The pictures", body = Object),
        (status = 422, description = "Unusable project or scenario, or over the work budget", body = ErrorBody)))]
pub async fn render_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<RenderRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || render(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/run`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// Scenario (refvm format); default: the green flag at frame 0.
    #[schema(value_type = Option<Object>)]
    pub scenario: Option<Box<RawValue>>,
    /// Frames to run (default: the scenario's, else 300).
    pub frames: Option<u64>,
    /// Seed of block randomness (default: the scenario's, else 1).
    pub seed: Option<u32>,
    /// Frames per second, 30 to 60 (default 30).
    pub fps: Option<u32>,
    /// Stop after two idle frames once no scenario event is pending.
    pub until_idle: Option<bool>,
    /// The project name in the meta line (default `project`).
    pub name: Option<String>,
}

fn run(engine: &Engine, req: &RunRequest) -> Result<String, ApiError> {
    let bytes = project_bytes(&req.project, &engine.blobs, "project")?;
    let files = files_of(&bytes, "project")?;
    let params = RunParams {
        scenario: req.scenario.as_deref(),
        frames: req.frames,
        seed: req.seed,
        fps: req.fps,
        until_idle: req.until_idle,
        name: req.name.as_deref(),
        assets: gobo_host::sb3::AssetLoad::of(&files, bytes.starts_with(b"PK")),
    };
    trace_files(engine, &files, &gobo::md5::hex(&bytes), &params)
}

/// How a run goes, besides the project.
#[derive(Debug, Default)]
pub struct RunParams<'a> {
    /// Scenario (refvm format); default: the green flag at frame 0.
    pub scenario: Option<&'a RawValue>,
    /// Frames to run (default: the scenario's, else 300).
    pub frames: Option<u64>,
    /// Seed of block randomness.
    pub seed: Option<u32>,
    /// Frames per second, 30 to 60.
    pub fps: Option<u32>,
    /// Stop after two idle frames once no scenario event is pending.
    pub until_idle: Option<bool>,
    /// The project name in the meta line (default `project`).
    pub name: Option<&'a str>,
    /// What the meta line reports of the project's assets (`gobo_host::sb3::AssetLoad`).
    pub assets: gobo_host::sb3::AssetLoad,
}

/// Runs project files within the frame and trace budgets: the JSON-lines trace of `gobo run
/// --trace -`, its meta line naming `md5` (blocking: a worker thread). Shared with the session
/// endpoints.
pub fn trace_files(
    engine: &Engine,
    files: &ProjectFiles,
    md5: &str,
    p: &RunParams<'_>,
) -> Result<String, ApiError> {
    let scenario = scenario_of(p.scenario)?;
    let opts = RunOptions {
        frames: p.frames,
        seed: p.seed,
        fps: fps_of(p.fps)?,
        until_idle: p.until_idle.unwrap_or(false),
        ..RunOptions::default()
    };
    let frames = opts.frames.or(scenario.frames).unwrap_or(300);
    if frames > engine.limits.max_frames {
        return Err(ApiError::invalid(
            "work_budget",
            format!("{frames} frames asked; the work budget is {}", engine.limits.max_frames),
        )
        .at("frames"));
    }
    let loaded = compile_files(files)
        .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
    let name = p.name.unwrap_or("project");
    let source = Source { project: name, md5: Some(md5), assets: p.assets };
    let max_bytes = engine.limits.max_trace_bytes;
    let mut out = String::new();
    let mut over = false;
    run_trace(loaded.image, &scenario, &opts, source, &mut |line| {
        if out.len() + line.len() < max_bytes {
            out.push_str(line);
            out.push('\n');
        } else {
            over = true;
        }
    })
    .map_err(|e| ApiError::invalid("bad_project", e.to_string()).at("project"))?;
    if over {
        return Err(ApiError::invalid(
            "work_budget",
            format!(
                "the trace is longer than the budget of {max_bytes} bytes; ask for fewer frames"
            ),
        ));
    }
    Ok(out)
}

/// Run a project and return its trace.
///
/// The JSON-lines trace of `gobo run --trace -` (`docs/trace.md`): a meta line, one line per
/// frame, an end line. The meta line names the project `name` and the MD5 of the bytes given.
#[utoipa::path(post, path = "/v1/run", tag = "scratch", request_body = RunRequest,
    responses((status = 200, description = "The trace", content_type = "application/x-ndjson", body = String),
        (status = 422, description = "Unusable project or scenario, or over the work budget", body = ErrorBody)))]
pub async fn run_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<RunRequest>,
) -> Result<Response, ApiError> {
    let a = Arc::clone(&app);
    let trace = app.pool.run(move || run(&a.engine, &req)).await??;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], trace).into_response())
}
