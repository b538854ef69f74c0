//! Turn-2 feedback in the format the published experiments recorded (errors, warnings,
//! suggestions and a summary line, as a dict and as the framed text), and the two-turn rule:
//! turn 2 runs only when turn 1 scores below [`RETRY_BELOW`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use serde_json::{Map, Value};

use super::pyfmt::fixed;
use super::reference::{CritValue, Evaluation};
use super::task::Criteria;
use super::ui::UiConfig;

/// A turn-1 score below this gets a second turn with feedback.
pub const RETRY_BELOW: f64 = 0.9;

/// Whether a model gets a second turn after scoring `turn1_score`.
pub fn needs_second_turn(turn1_score: f64) -> bool {
    turn1_score < RETRY_BELOW
}

/// The final score of the two-turn protocol: turn 2's if it ran, else turn 1's.
pub fn final_score(turn1: f64, turn2: Option<f64>) -> f64 {
    match turn2 {
        Some(s) if needs_second_turn(turn1) => s,
        _ => turn1,
    }
}

/// One feedback entry (`{type, message}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// `type`.
    pub kind: String,
    /// `message`.
    pub message: String,
}

/// The feedback dict.
#[derive(Debug, Clone, PartialEq)]
pub struct Feedback {
    /// `summary`.
    pub summary: String,
    /// `errors`.
    pub errors: Vec<Note>,
    /// `warnings`.
    pub warnings: Vec<Note>,
    /// `suggestions`.
    pub suggestions: Vec<String>,
    /// `score`.
    pub score: f64,
}

fn note(kind: &str, message: String) -> Note {
    Note { kind: String::from(kind), message }
}

fn is_false(e: &Evaluation, key: &str) -> bool {
    matches!(e.criterion(key), Some(v) if !v.truthy())
}

fn is_true(e: &Evaluation, key: &str) -> bool {
    matches!(e.criterion(key), Some(v) if v.truthy())
}

fn tool_position(ui: &UiConfig, tool: &str) -> String {
    match ui.tool(tool) {
        Some(t) => format!("({}, {})", t.x, t.y),
        None => String::from("(unknown position)"),
    }
}

impl Feedback {
    /// Builds the feedback for an evaluation.
    pub fn new(e: &Evaluation, c: &Criteria, ui: &UiConfig) -> Feedback {
        let mut errors: Vec<Note> =
            e.errors.iter().map(|i| note(i.kind, i.message.clone())).collect();
        let mut warnings = Vec::new();
        for w in &e.warnings {
            let mut message = w.message.clone();
            if w.kind == "EFFICIENCY_WARNING" {
                message.push_str(". Consider optimizing your action sequence.");
            }
            warnings.push(note(w.kind, message));
        }
        if e.criteria_met.is_some() {
            let tools = c.required_tools.as_deref().unwrap_or(&[]);
            for tool in tools {
                if is_false(e, &format!("tool_{tool}_used")) {
                    errors.push(note(
                        "MISSING_TOOL",
                        format!(
                            "Required tool '{tool}' was not used. Select it by clicking at coordinates {}.",
                            tool_position(ui, tool)
                        ),
                    ));
                }
            }
            if is_false(e, "min_segments_met") {
                let min = c.min_segments.map(|n| format!("{n}")).unwrap_or_default();
                errors.push(note(
                    "INSUFFICIENT_SEGMENTS",
                    format!(
                        "Expected at least {min} drawing segments, but found {}.",
                        e.metrics.drawing_segments
                    ),
                ));
            }
            if is_false(e, "min_colors_exact_met") {
                let names = |key: &str, with_hex: bool| -> String {
                    let Some(CritValue::Strings(hexes)) = e.criterion(key) else {
                        return String::new();
                    };
                    let parts: Vec<String> = hexes
                        .iter()
                        .map(|h| {
                            let name = ui.color_name(h).unwrap_or(h);
                            if with_hex {
                                format!("{name} ({h})")
                            } else {
                                String::from(name)
                            }
                        })
                        .collect();
                    parts.join(", ")
                };
                errors.push(note(
                    "MISSING_COLOR",
                    format!(
                        "Colors used: {}. Missing colors: {}. Click color buttons at y=25, x ranges from 405 (black) to 573 (white).",
                        names("colors_exact_used", false),
                        names("colors_missing", true)
                    ),
                ));
            }
            for tool in tools {
                if is_true(e, &format!("tool_{tool}_selected"))
                    && is_false(e, &format!("tool_{tool}_actually_used"))
                {
                    let at = tool_position(ui, tool);
                    warnings.push(note(
                        "TOOL_NOT_USED",
                        format!(
                            "Tool '{tool}' was selected but not used for drawing. After selecting the tool at {at}, draw by using mouseDown/moveTo/mouseUp."
                        ),
                    ));
                }
            }
            if is_false(e, "min_coverage_accurate_met") {
                let min = c.min_coverage.map_or(0.0, |n| n.v);
                warnings.push(note(
                    "LOW_COVERAGE",
                    format!(
                        "Canvas coverage is {}%, expected at least {}%.",
                        fixed(e.metrics.canvas_coverage_accurate * 100.0, 1),
                        fixed(min * 100.0, 1)
                    ),
                ));
            }
        }
        let mut suggestions = Vec::new();
        if e.metrics.drawing_segments == 0 {
            suggestions.push(String::from(
                "Use mouseDown to start drawing, moveTo to draw lines, and mouseUp to finish.",
            ));
        }
        if e.metrics.canvas_coverage < 0.05 {
            suggestions.push(String::from(
                "Drawing is too small. Use larger coordinates to cover more canvas area.",
            ));
        }
        let lead = if e.score >= 0.8 {
            "Good job!"
        } else if e.score >= 0.5 {
            "Partial success."
        } else {
            "Needs improvement."
        };
        let mut summary = format!("{lead} Score: {}.", fixed(e.score, 2));
        if !errors.is_empty() {
            let _ = write!(summary, " {} error(s) found.", errors.len());
        }
        if !warnings.is_empty() {
            let _ = write!(summary, " {} warning(s).", warnings.len());
        }
        Feedback { summary, errors, warnings, suggestions, score: e.score }
    }

    /// The dict, with `turn: 1` as recorded (also on turn 2).
    pub fn to_json(&self) -> Value {
        let notes = |v: &[Note]| {
            Value::Array(
                v.iter()
                    .map(|n| {
                        let mut m = Map::new();
                        m.insert("type".into(), Value::from(n.kind.as_str()));
                        m.insert("message".into(), Value::from(n.message.as_str()));
                        Value::Object(m)
                    })
                    .collect(),
            )
        };
        let mut m = Map::new();
        m.insert("summary".into(), Value::from(self.summary.as_str()));
        m.insert("errors".into(), notes(&self.errors));
        m.insert("warnings".into(), notes(&self.warnings));
        m.insert("suggestions".into(), Value::from(self.suggestions.clone()));
        m.insert("score".into(), Value::from(self.score));
        m.insert("turn".into(), Value::from(1));
        Value::Object(m)
    }

    /// The framed text shown to the model on turn 2.
    pub fn text(&self) -> String {
        let rule = "=".repeat(60);
        let mut lines: Vec<String> = alloc::vec![
            rule.clone(),
            "DRAWING EVALUATION FEEDBACK".into(),
            rule.clone(),
            String::new(),
            self.summary.clone(),
            String::new(),
        ];
        let mut section = |title: &str, items: Vec<&str>| {
            if !items.is_empty() {
                lines.push(String::from(title));
                for (n, item) in items.iter().enumerate() {
                    lines.push(format!("  {}. {item}", n + 1));
                }
                lines.push(String::new());
            }
        };
        section("ERRORS:", self.errors.iter().map(|n| n.message.as_str()).collect());
        section("WARNINGS:", self.warnings.iter().map(|n| n.message.as_str()).collect());
        section(
            "SUGGESTIONS FOR IMPROVEMENT:",
            self.suggestions.iter().map(String::as_str).collect(),
        );
        lines.push(rule.clone());
        lines.push(format!("Score: {}/1.00", fixed(self.score, 2)));
        lines.push(rule);
        lines.join("\n")
    }
}
