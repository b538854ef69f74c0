//! DrawingBench: UI model, action parsing, the evaluator profiles, feedback and the canvas
//! rasterizer.
//!
//! - [`pyjson`] / [`pyfmt`]: Python's JSON value model and text conversions, which the
//!   reference's messages and rounding depend on.
//! - [`ui`], [`task`], [`actions`]: the inputs (layout, task criteria, a model's actions).
//! - [`mod@reference`]: profile `drawingbench-1.0`, the published evaluator exactly.
//! - [`paper`]: profile `paper`, the paper's eight weighted criteria.
//! - [`feedback`]: turn-2 feedback and the two-turn rule; [`episode`]: the multi-turn
//!   protocol over a model's turns; [`report`]: the paper's tables from result rows.
//! - [`replay`] / [`raster`]: what the drawing app draws, painted through embedded-graphics;
//!   [`palette`]: a one-byte-per-pixel canvas for small displays.
//!
//! [`judge`] is the entry point from a model's raw text to a verdict; [`Verdict::to_row`]
//! encodes it as a batch row (format in `docs/drawing.md`); [`batch`] builds the rows every host
//! prints or serves.

pub mod actions;
pub mod batch;
pub mod episode;
pub mod feedback;
pub mod palette;
pub mod paper;
pub mod pyfmt;
pub mod pyjson;
mod quick;
pub mod raster;
pub mod reference;
pub mod replay;
pub mod report;
pub mod task;
pub mod ui;

use alloc::string::{String, ToString};

use serde_json::{Map, Value};

use actions::{Actions, ActionsError, PyException};
use feedback::Feedback;
use reference::Evaluation;
use task::Criteria;
use ui::UiConfig;

/// A scoring profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// `drawingbench-1.0`: the published evaluator's penalty scheme, exactly.
    #[default]
    DrawingBench10,
    /// `paper`: the paper's eight weighted criteria.
    Paper,
}

impl Profile {
    /// Reads a profile name.
    pub fn from_name(name: &str) -> Option<Profile> {
        match name {
            "drawingbench-1.0" => Some(Profile::DrawingBench10),
            "paper" => Some(Profile::Paper),
            _ => None,
        }
    }

    /// The profile's name.
    pub fn name(self) -> &'static str {
        match self {
            Profile::DrawingBench10 => "drawingbench-1.0",
            Profile::Paper => "paper",
        }
    }
}

/// The `drawingbench-1.0` verdict on a model's raw text.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Why the text was not JSON, if it was not (it is then scored as a non-list).
    pub parse_error: Option<pyjson::JsonError>,
    /// The evaluation, or the exception the reference raises on this input.
    pub outcome: Result<Evaluation, PyException>,
}

/// Evaluates a model's raw text: JSON that is not a list (or not JSON) gets the reference's
/// "Actions must be a list/array" verdict; input the reference raises on gets its exception.
/// `Err` only for more than [`actions::MAX_ACTIONS`] actions.
///
/// ```
/// use gobo::drawing::{judge, task::Task, ui::UiConfig};
///
/// let task = Task::from_json(r#"{"criteria": {"required_tools": ["pen"], "min_segments": 1}}"#)?;
/// // Pick the pen, then drag across the canvas.
/// let actions = br#"[{"action": "click", "x": 35, "y": 45}, {"action": "moveTo", "x": 300, "y": 300},
///   {"action": "mouseDown"}, {"action": "moveTo", "x": 500, "y": 400}, {"action": "mouseUp"}]"#;
/// let verdict = judge(actions, &task.criteria, &UiConfig::drawingbench_default())?;
/// assert!(verdict.score().is_some());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn judge(raw: &[u8], criteria: &Criteria, ui: &UiConfig) -> Result<Verdict, ActionsError> {
    Evaluator::default().judge(raw, criteria, ui)
}

/// Reusable scratch space for judging many texts (a batch): the action buffer and the
/// evaluator's [`reference::Scratch`] are kept between evaluations. Same verdicts as [`judge`].
#[derive(Debug, Default)]
pub struct Evaluator {
    actions: Actions,
    scratch: reference::Scratch,
}

impl Evaluator {
    /// A fresh evaluator.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// [`judge`], reusing this evaluator's buffers.
    pub fn judge(
        &mut self,
        raw: &[u8],
        criteria: &Criteria,
        ui: &UiConfig,
    ) -> Result<Verdict, ActionsError> {
        let (parse_error, outcome) = match self.actions.parse_into(raw) {
            Ok(()) => {
                (None, reference::evaluate_with(&self.actions, criteria, ui, &mut self.scratch))
            }
            Err(ActionsError::Json(e)) => (Some(e), Ok(Evaluation::not_a_list())),
            Err(ActionsError::NotAList(_)) => (None, Ok(Evaluation::not_a_list())),
            Err(ActionsError::Exception(e)) => (None, Err(e)),
            Err(e @ ActionsError::TooMany(_)) => return Err(e),
        };
        Ok(Verdict { parse_error, outcome })
    }
}

impl Verdict {
    /// The score, if the reference produces one.
    pub fn score(&self) -> Option<f64> {
        self.outcome.as_ref().ok().map(|e| e.score)
    }

    /// The feedback, if the reference produces a result.
    pub fn feedback(&self, criteria: &Criteria, ui: &UiConfig) -> Option<Feedback> {
        self.outcome.as_ref().ok().map(|e| Feedback::new(e, criteria, ui))
    }

    /// The batch-row fields: `score`, `errors`, `warnings`, `criteria_met`, `metrics`,
    /// `evaluation_rest`, `feedback_recon`, `feedback_recon_text`, `exception`, `parse_error`.
    pub fn to_row(&self, criteria: &Criteria, ui: &UiConfig) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert(
            "parse_error".into(),
            self.parse_error.as_ref().map_or(Value::Null, |e| Value::from(e.to_string())),
        );
        match &self.outcome {
            Ok(e) => {
                let fb = Feedback::new(e, criteria, ui);
                m.insert("exception".into(), Value::Null);
                m.insert("score".into(), Value::from(e.score));
                m.insert("errors".into(), e.errors_json());
                m.insert("warnings".into(), e.warnings_json());
                m.insert("criteria_met".into(), e.criteria_json());
                m.insert("metrics".into(), e.metrics_json(ui));
                m.insert("evaluation_rest".into(), e.rest_json());
                m.insert("feedback_recon".into(), fb.to_json());
                m.insert("feedback_recon_text".into(), Value::from(fb.text()));
            }
            Err(x) => {
                m.insert("exception".into(), Value::from(x.to_string()));
                for key in [
                    "score",
                    "errors",
                    "warnings",
                    "criteria_met",
                    "metrics",
                    "evaluation_rest",
                    "feedback_recon",
                    "feedback_recon_text",
                ] {
                    m.insert(key.into(), Value::Null);
                }
            }
        }
        m
    }
}

/// The `paper` verdict on a model's raw text: text that is not an action list (not JSON, not a
/// list, or a list the reference cannot read) scores 0 on every criterion.
/// `Err` only for more than [`actions::MAX_ACTIONS`] actions.
pub fn judge_paper(
    raw: &[u8],
    criteria: &Criteria,
    ui: &UiConfig,
) -> Result<paper::PaperResult, ActionsError> {
    match Actions::parse(raw) {
        Ok(a) => Ok(paper::evaluate(&a, criteria, ui)),
        Err(e @ ActionsError::TooMany(_)) => Err(e),
        Err(_) => Ok(paper::PaperResult::not_a_list()),
    }
}
