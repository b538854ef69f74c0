//! Static and suite checks: `POST /v1/lint` (`gobo lint --json`: binding and barrier findings,
//! docs/lint.md) and `POST /v1/suites/check` (`gobo suite-check --json`: suite adequacy,
//! docs/test-suite.md). The verdicts are the core's (`gobo::scratch::lint`,
//! `gobo::scratch::suite::Adequacy` through `gobo_host::judge::check_suite`), within the
//! request's work budget (frames, seeds, programs).

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use gobo::scratch::lint::lint;
use gobo_host::judge::{check_suite, NamedProject, TestError};
use gobo_host::repair::Loaded;
use gobo_host::sb3::ProjectFiles;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::app::{App, Engine};
use crate::error::{ApiError, ApiJson, ErrorBody};
use crate::input::{project_files, text_of};
use crate::routes::scratch::{seed_list, Seeds};

/// Most programs (golds and negatives together) one suite check may run.
pub const MAX_CHECKED_PROGRAMS: usize = 32;

/// `POST /v1/lint`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LintRequest {
    /// The project.
    #[schema(value_type = crate::input::ProjectInput)]
    pub project: Box<RawValue>,
    /// The project before a patch: the patch's binding and barrier rules run too.
    #[schema(value_type = Option<crate::input::ProjectInput>)]
    pub base: Option<Box<RawValue>>,
}

fn lint_doc(engine: &Engine, req: &LintRequest) -> Result<Value, ApiError> {
    let load = |raw: &RawValue, path: &str| {
        let files = project_files(raw, &engine.blobs, path)?;
        Loaded::new(&files).map_err(|e| ApiError::invalid("bad_project", e).at(path))
    };
    let project = load(&req.project, "project")?;
    let base = req.base.as_deref().map(|b| load(b, "base")).transpose()?;
    let report = lint(&project.project, base.as_ref().map(|b| &b.project));
    serde_json::to_value(&report).map_err(|e| ApiError::internal(e.to_string()))
}

/// Binding and barrier findings (SPEC §2.11).
///
/// The report of `gobo lint --json` (docs/lint.md): `{findings: [{code, severity, target,
/// block, message}], errors, warnings, patch_rules}`. A project with findings is a 200.
#[utoipa::path(post, path = "/v1/lint", tag = "repair", request_body = LintRequest,
    responses((status = 200, description = "The findings", body = Object),
        (status = 422, description = "A project cannot be read", body = ErrorBody)))]
pub async fn lint_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<LintRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || lint_doc(&a.engine, &req)).await?.map(Json)
}

/// `POST /v1/suites/check`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SuiteCheckRequest {
    /// The suite (`docs/test-suite.md`): an object, or its JSON text.
    #[schema(value_type = Object)]
    pub suite: Box<RawValue>,
    /// Reference solutions the suite must pass.
    #[schema(value_type = Vec<crate::input::ProjectInput>)]
    pub pass: Vec<Box<RawValue>>,
    /// Known-wrong programs the suite must fail.
    #[schema(value_type = Vec<crate::input::ProjectInput>)]
    pub fail: Vec<Box<RawValue>>,
    /// Rerun under these seeds (default: once, under the suite's seed).
    pub seeds: Option<Seeds>,
}

fn check_doc(engine: &Engine, req: &SuiteCheckRequest) -> Result<Value, ApiError> {
    let programs = req.pass.len() + req.fail.len();
    if req.pass.is_empty() || req.fail.is_empty() || programs > MAX_CHECKED_PROGRAMS {
        return Err(ApiError::invalid(
            "work_budget",
            format!(
                "{} passing and {} failing programs; at least one of each and at most \
                 {MAX_CHECKED_PROGRAMS} in all",
                req.pass.len(),
                req.fail.len()
            ),
        ));
    }
    let suite = text_of(&req.suite, "suite")?;
    let seeds = req.seeds.as_ref().map(|s| seed_list(s, engine.limits.max_seeds)).transpose()?;
    let load =
        |list: &[Box<RawValue>], field: &str| -> Result<Vec<(String, ProjectFiles)>, ApiError> {
            list.iter()
                .enumerate()
                .map(|(i, raw)| {
                    let name = format!("{field}[{i}]");
                    Ok((name.clone(), project_files(raw, &engine.blobs, &name)?))
                })
                .collect()
        };
    let golds = load(&req.pass, "pass")?;
    let negatives = load(&req.fail, "fail")?;
    let checked = check_suite(
        &suite,
        &as_named(&golds),
        &as_named(&negatives),
        seeds.as_deref(),
        Some(engine.limits.max_frames),
    );
    let (adequacy, warnings) = checked.map_err(|e| {
        let code = match e.error {
            TestError::Suite(_) => "bad_suite",
            _ => "bad_request",
        };
        ApiError::invalid(code, e.error.to_string()).at(&e.program)
    })?;
    let mut doc = serde_json::to_value(&adequacy).map_err(|e| ApiError::internal(e.to_string()))?;
    let warnings: Vec<Value> =
        warnings.iter().map(|(program, w)| json!({"program": program, "warning": w})).collect();
    doc["warnings"] = Value::Array(warnings);
    Ok(doc)
}

fn as_named(ps: &[(String, ProjectFiles)]) -> Vec<NamedProject<'_>> {
    ps.iter().map(|(name, files)| NamedProject { name, files }).collect()
}

/// Whether a suite separates reference solutions from known-wrong programs (ScratchWorld §3.2).
///
/// The verdict of `gobo suite-check --json` (docs/test-suite.md, "Adequacy"): `adequate`, per
/// case whether it passes every gold and which negatives it catches, per gold its failures,
/// per negative whether and by which cases it is caught; plus `warnings` (program, warning).
/// Programs are named `pass[i]` and `fail[i]`. A suite that is not adequate is a 200.
#[utoipa::path(post, path = "/v1/suites/check", tag = "scratch", request_body = SuiteCheckRequest,
    responses((status = 200, description = "The verdict", body = Object),
        (status = 422, description = "Unusable suite or project, or over the work budget", body = ErrorBody)))]
pub async fn suite_check_handler(
    State(app): State<Arc<App>>,
    ApiJson(req): ApiJson<SuiteCheckRequest>,
) -> Result<Json<Value>, ApiError> {
    let a = Arc::clone(&app);
    app.pool.run(move || check_doc(&a.engine, &req)).await?.map(Json)
}
