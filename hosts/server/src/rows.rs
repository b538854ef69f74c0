//! What a batch row means: one input row (raw JSON text) of a job's kind turned into its result
//! row, by the same functions the CLI's batches use (`gobo::xlogo::batch::eval_row`,
//! `gobo::drawing::batch::eval_line`, `gobo_host::judge` through `routes::scratch`), with the
//! input's `id` on it (`gobo_host::batch::with_id`). A row that cannot be evaluated gets a
//! result with an `error` field, as in the CLI; it never stops the job.

use std::collections::BTreeMap;
use std::sync::Arc;

use gobo::drawing::task::Task as DrawTask;
use gobo::drawing::ui::UiConfig;
use gobo::drawing::Profile;
use gobo_host::batch::with_id;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::app::Engine;
use crate::routes::draw::{profile_of, ui_of};
use crate::routes::scratch::{run_tests, Seeds, TestRunRequest};

/// Options of a batch job (all optional).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JobOptions {
    /// `draw`: the scoring profile (`drawingbench-1.0` or `paper`).
    pub profile: Option<String>,
    /// `draw`: the UI config.
    #[schema(value_type = Option<Object>)]
    pub ui: Option<Box<RawValue>>,
    /// `test`: pass-rate threshold of a passing case with seeds (a row's own overrides it).
    pub theta_pass: Option<f64>,
    /// `test`: pass-rate threshold of a stable failure with seeds.
    pub theta_fail: Option<f64>,
}

/// A job's row evaluator, prepared once from its kind and options.
pub enum RowEval {
    /// XLogo rows.
    Xlogo,
    /// DrawingBench rows.
    Draw {
        /// The UI layout.
        ui: Box<UiConfig>,
        /// The scoring profile.
        profile: Profile,
        /// Where `task_index` rows find their task.
        engine: Arc<Engine>,
    },
    /// Test rows.
    Test {
        /// Blobs and limits.
        engine: Arc<Engine>,
        /// Job-wide thresholds.
        theta_pass: Option<f64>,
        /// Job-wide thresholds.
        theta_fail: Option<f64>,
    },
}

impl std::fmt::Debug for RowEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RowEval::Xlogo => "RowEval::Xlogo",
            RowEval::Draw { .. } => "RowEval::Draw",
            RowEval::Test { .. } => "RowEval::Test",
        })
    }
}

/// A `test` row.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TestRow {
    id: Option<Value>,
    project: Box<RawValue>,
    suite: Box<RawValue>,
    seeds: Option<Seeds>,
    theta_pass: Option<f64>,
    theta_fail: Option<f64>,
    traces: Option<BTreeMap<String, String>>,
}

impl RowEval {
    /// Prepares the evaluator of a `kind` job with `options`.
    pub fn new(
        kind: crate::jobs::Kind,
        options: &JobOptions,
        engine: &Arc<Engine>,
    ) -> Result<RowEval, String> {
        use crate::jobs::Kind;
        Ok(match kind {
            Kind::Xlogo => RowEval::Xlogo,
            Kind::Draw => RowEval::Draw {
                ui: Box::new(
                    ui_of(options.ui.as_deref(), "options.ui").map_err(|e| e.to_string())?,
                ),
                profile: profile_of(options.profile.as_deref(), "options.profile")
                    .map_err(|e| e.to_string())?,
                engine: Arc::clone(engine),
            },
            Kind::Test => RowEval::Test {
                engine: Arc::clone(engine),
                theta_pass: options.theta_pass,
                theta_fail: options.theta_fail,
            },
        })
    }

    /// The result row of one input row.
    pub fn eval(&self, input: &str) -> Value {
        match self {
            RowEval::Xlogo => match serde_json::from_str::<Value>(input) {
                Ok(v) => with_id(gobo_host::xlogo_rows::xlogo_row(&v), id_of(&v)),
                Err(e) => bad_row(&e.to_string()),
            },
            RowEval::Draw { ui, profile, engine } => match serde_json::from_str::<Value>(input) {
                Ok(v) => {
                    let tasks: Arc<Vec<DrawTask>> =
                        if v.get("task").is_none() && v.get("task_index").is_some() {
                            match engine.drawing.tasks() {
                                Ok(t) => t,
                                Err(e) => return with_id(json!({ "error": e }), id_of(&v)),
                            }
                        } else {
                            Arc::new(Vec::new())
                        };
                    with_id(gobo::drawing::batch::eval_line(&v, &tasks, ui, *profile), id_of(&v))
                }
                Err(e) => bad_row(&e.to_string()),
            },
            RowEval::Test { engine, theta_pass, theta_fail } => {
                let row: TestRow = match serde_json::from_str(input) {
                    Ok(r) => r,
                    Err(e) => {
                        let id = serde_json::from_str::<Value>(input)
                            .map(|v| id_of(&v))
                            .unwrap_or(Value::Null);
                        return with_id(json!({ "error": e.to_string() }), id);
                    }
                };
                let id = row.id.clone().unwrap_or(Value::Null);
                let req = TestRunRequest {
                    project: row.project,
                    suite: row.suite,
                    seeds: row.seeds,
                    theta_pass: row.theta_pass.or(*theta_pass),
                    theta_fail: row.theta_fail.or(*theta_fail),
                    traces: row.traces,
                };
                let result = match run_tests(&engine.blobs, &engine.limits, &req) {
                    Ok(report) => report,
                    Err(e) => json!({ "error": e.to_string() }),
                };
                with_id(result, id)
            }
        }
    }
}

fn id_of(v: &Value) -> Value {
    v.get("id").cloned().unwrap_or(Value::Null)
}

fn bad_row(message: &str) -> Value {
    with_id(json!({ "error": format!("the row is not valid JSON: {message}") }), Value::Null)
}
