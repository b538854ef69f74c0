//! Profile `drawingbench-1.0`: the published Python evaluator's behaviour exactly (see
//! `docs/drawing.md`): the passes run in the reference's order so that input the reference
//! fails on raises the same [`PyException`] at the same point, and every number follows the
//! reference's int/float and rounding rules.

mod checks;
mod coverage;
mod criteria;
mod grid;
mod output;
mod scan;

use alloc::string::String;
use alloc::vec::Vec;

pub use checks::Issue;
pub use criteria::{CritKey, CritValue, SpatialError};

use super::actions::{Actions, PyException};
use super::task::Criteria;
use super::ui::{Num, UiConfig};
use scan::Ctx;

/// The reference's `metrics` object.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Metrics {
    /// Clicks on a tool button.
    pub tool_changes: usize,
    /// Clicks in the colour row.
    pub color_changes: usize,
    /// mouseDown…mouseUp segments.
    pub drawing_segments: usize,
    /// Bounding-box coverage (unscored).
    pub canvas_coverage: f64,
    /// Grid coverage (scored).
    pub canvas_coverage_accurate: f64,
    /// Selected colours (indices into [`UiConfig::colors`]) in order.
    pub exact_colors_used: Vec<usize>,
    /// Unscored spatial accuracy (only with a `prompt` in the criteria).
    pub spatial_accuracy: Option<f64>,
    /// The region named by the prompt, if any.
    pub spatial_region: Option<&'static str>,
    /// Unscored action efficiency (None without criteria).
    pub action_efficiency: Option<f64>,
}

/// `error_classification`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Classification {
    /// Coverage deficit and spatial placement errors.
    pub spatial: Vec<SpatialError>,
    /// Tools whose `actually_used` is false.
    pub tools: Vec<String>,
    /// Required colours never selected (duplicates kept).
    pub colors: Vec<String>,
    /// `(actual, required)` segments when short.
    pub planning: Option<(usize, Num)>,
}

/// The result of one evaluation, field for field the reference's result dict.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The input was not a list (the reference's early return).
    pub not_a_list: bool,
    /// `total_actions`.
    pub total_actions: usize,
    /// `action_breakdown`: moveTo, click, mouseDown, mouseUp, unknown.
    pub breakdown: [usize; 5],
    /// `errors`.
    pub errors: Vec<Issue>,
    /// `warnings`.
    pub warnings: Vec<Issue>,
    /// `metrics`.
    pub metrics: Metrics,
    /// `criteria_met`, keys in the reference's order (None without criteria).
    pub criteria_met: Option<Vec<(CritKey, CritValue)>>,
    /// `colors_required`.
    pub colors_required: Option<usize>,
    /// `min_coverage`, as given.
    pub min_coverage: Option<Num>,
    /// `score` in [0, 1], rounded to 3 places.
    pub score: f64,
    /// `error_classification` (None for non-list input).
    pub classification: Option<Classification>,
}

impl Evaluation {
    /// The verdict for input that is not a list: score 0 and one SYNTAX_ERROR.
    pub fn not_a_list() -> Evaluation {
        Evaluation {
            not_a_list: true,
            total_actions: 0,
            breakdown: [0; 5],
            errors: alloc::vec![Issue {
                kind: "SYNTAX_ERROR",
                index: Some(-1),
                message: "Actions must be a list/array".into(),
                action_detail: None,
            }],
            warnings: Vec::new(),
            metrics: Metrics::default(),
            criteria_met: None,
            colors_required: None,
            min_coverage: None,
            score: 0.0,
            classification: None,
        }
    }

    /// `criteria_met[key]`, if present.
    pub fn criterion(&self, key: &str) -> Option<&CritValue> {
        self.criteria_met.as_ref()?.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Evaluates a list of actions against a task's criteria, as `DrawingEvaluator.evaluate`
/// does. `Err` carries the exception the reference raises on this input.
pub fn evaluate(
    actions: &Actions,
    criteria: &Criteria,
    ui: &UiConfig,
) -> Result<Evaluation, PyException> {
    evaluate_with(actions, criteria, ui, &mut Scratch::default())
}

/// What one evaluation computes that the next can reuse: the cos/sin of the circle rays.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    rays: Option<[(f64, f64); 50]>,
}

/// [`evaluate`] with scratch space kept between calls (same result).
pub fn evaluate_with(
    actions: &Actions,
    criteria: &Criteria,
    ui: &UiConfig,
    scratch: &mut Scratch,
) -> Result<Evaluation, PyException> {
    let ctx = Ctx { a: actions, ui };
    let list = &actions.list;
    let mut errors = Vec::new();
    checks::syntax_errors(&ctx, &mut errors);
    checks::coordinate_errors(&ctx, &mut errors)?;
    let mut warnings = Vec::new();
    checks::warnings(list, &mut warnings);

    let mut metrics = Metrics {
        tool_changes: ctx.tool_changes()?,
        color_changes: ctx.color_changes()?,
        drawing_segments: scan::drawing_segments(list),
        canvas_coverage: ctx.bbox_coverage()?,
        ..Metrics::default()
    };
    let cells = ctx.grid_coverage(&mut scratch.rays)?;
    metrics.canvas_coverage_accurate = super::pyfmt::round_numpy(f64::from(cells) / 400.0, 4);
    metrics.exact_colors_used = ctx.exact_colors()?;
    if let Some(prompt) = criteria.prompt.as_deref() {
        if let Some(region) = criteria::region(prompt) {
            metrics.spatial_region = Some(region);
            metrics.spatial_accuracy = Some(criteria::spatial_accuracy(&ctx, region)?);
        }
    }
    if criteria.nonempty {
        metrics.action_efficiency = criteria::efficiency(list.len(), criteria);
    }

    let mut eval = Evaluation {
        not_a_list: false,
        total_actions: list.len(),
        breakdown: scan::breakdown(list),
        errors,
        warnings,
        metrics,
        criteria_met: None,
        colors_required: None,
        min_coverage: None,
        score: 0.0,
        classification: None,
    };
    if criteria.nonempty {
        eval.criteria_met = Some(criteria::criteria_met(&ctx, criteria, &eval.metrics)?);
        eval.colors_required = criteria.required_colors.as_ref().map(Vec::len);
        eval.min_coverage = criteria.min_coverage;
    }
    eval.score = criteria::score(&eval);
    eval.classification = Some(if criteria.nonempty {
        criteria::classify(&eval, criteria, ui)
    } else {
        Classification::default()
    });
    Ok(eval)
}
