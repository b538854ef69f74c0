//! JSON encodings of an [`Evaluation`] with the reference's key names and int/float choices
//! (documented in `docs/drawing.md`, "Batch rows").

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use crate::drawing::ui::{Num, UiConfig};

use super::{CritValue, Evaluation, Issue, SpatialError};

/// A JSON number for a value Python held as an int or a float.
pub fn num_json(n: Num) -> Value {
    if n.int && n.v.abs() < 9.007_199_254_740_992e15 {
        Value::from(n.v as i64)
    } else {
        Value::from(n.v)
    }
}

fn obj(pairs: Vec<(&str, Value)>) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert(String::from(k), v);
    }
    Value::Object(m)
}

impl Issue {
    /// `{type, index, message[, action_detail]}` for errors, `{type, message}` for warnings.
    pub fn to_json(&self) -> Value {
        let mut pairs = alloc::vec![("type", Value::from(self.kind))];
        if let Some(i) = self.index {
            pairs.push(("index", Value::from(i)));
        }
        pairs.push(("message", Value::from(self.message.as_str())));
        if let Some(d) = &self.action_detail {
            pairs.push(("action_detail", Value::from(d.as_str())));
        }
        obj(pairs)
    }
}

impl CritValue {
    /// The JSON value.
    pub fn to_json(&self) -> Value {
        match self {
            CritValue::Bool(b) => Value::from(*b),
            CritValue::Int(i) => Value::from(*i),
            CritValue::Float(f) => Value::from(*f),
            CritValue::Strings(v) => Value::from(v.clone()),
        }
    }
}

impl Evaluation {
    /// `errors`.
    pub fn errors_json(&self) -> Value {
        Value::Array(self.errors.iter().map(Issue::to_json).collect())
    }

    /// `warnings`.
    pub fn warnings_json(&self) -> Value {
        Value::Array(self.warnings.iter().map(Issue::to_json).collect())
    }

    /// `criteria_met` (null without criteria).
    pub fn criteria_json(&self) -> Value {
        match &self.criteria_met {
            None => Value::Null,
            Some(met) => Value::Object(
                met.iter().map(|(k, v)| (String::from(k.as_ref()), v.to_json())).collect(),
            ),
        }
    }

    /// `metrics`.
    pub fn metrics_json(&self, ui: &UiConfig) -> Value {
        let m = &self.metrics;
        let colors: Vec<Value> = m
            .exact_colors_used
            .iter()
            .filter_map(|&i| ui.colors.get(i))
            .map(|c| Value::from(c.hex.as_str()))
            .collect();
        if self.not_a_list {
            return obj(alloc::vec![
                ("tool_changes", Value::from(0)),
                ("color_changes", Value::from(0)),
                ("drawing_segments", Value::from(0)),
                ("canvas_coverage", Value::from(0)),
                ("canvas_coverage_accurate", Value::from(0)),
                ("exact_colors_used", Value::Array(colors)),
            ]);
        }
        let constraints = match m.spatial_region {
            Some(r) => obj(alloc::vec![("region", Value::from(r))]),
            None => Value::Object(Map::new()),
        };
        obj(alloc::vec![
            ("tool_changes", Value::from(m.tool_changes)),
            ("color_changes", Value::from(m.color_changes)),
            ("drawing_segments", Value::from(m.drawing_segments)),
            ("canvas_coverage", Value::from(m.canvas_coverage)),
            ("canvas_coverage_accurate", Value::from(m.canvas_coverage_accurate)),
            ("exact_colors_used", Value::Array(colors)),
            ("spatial_accuracy", m.spatial_accuracy.map_or(Value::Null, Value::from)),
            ("spatial_constraints", constraints),
            ("action_efficiency", m.action_efficiency.map_or(Value::Null, Value::from)),
        ])
    }

    /// The rest of the reference's result dict: `total_actions`, `action_breakdown`,
    /// `colors_required`, `min_coverage`, `error_classification`.
    pub fn rest_json(&self) -> Value {
        let mut pairs = alloc::vec![("total_actions", Value::from(self.total_actions))];
        if self.not_a_list {
            pairs.push(("action_breakdown", Value::Object(Map::new())));
            return obj(pairs);
        }
        let b = self.breakdown;
        pairs.push((
            "action_breakdown",
            obj(alloc::vec![
                ("moveTo", Value::from(b[0])),
                ("click", Value::from(b[1])),
                ("mouseDown", Value::from(b[2])),
                ("mouseUp", Value::from(b[3])),
                ("unknown", Value::from(b[4])),
            ]),
        ));
        if let Some(n) = self.colors_required {
            pairs.push(("colors_required", Value::from(n)));
        }
        if let Some(n) = self.min_coverage {
            pairs.push(("min_coverage", num_json(n)));
        }
        if let Some(c) = &self.classification {
            let spatial = c
                .spatial
                .iter()
                .map(|s| match s {
                    SpatialError::Coverage { actual, required } => obj(alloc::vec![
                        ("type", Value::from("insufficient_coverage")),
                        ("actual", Value::from(*actual)),
                        ("required", num_json(*required)),
                        ("deficit", Value::from(required.v - actual)),
                    ]),
                    SpatialError::Placement { accuracy, region } => obj(alloc::vec![
                        ("type", Value::from("incorrect_spatial_placement")),
                        ("accuracy", Value::from(*accuracy)),
                        ("expected_region", Value::from(*region)),
                    ]),
                })
                .collect();
            let tools = c
                .tools
                .iter()
                .map(|t| {
                    obj(alloc::vec![
                        ("type", Value::from("missing_required_tool")),
                        ("tool", Value::from(t.as_str())),
                    ])
                })
                .collect();
            let colors = c
                .colors
                .iter()
                .map(|h| {
                    obj(alloc::vec![
                        ("type", Value::from("missing_required_color")),
                        ("color", Value::from(h.as_str())),
                    ])
                })
                .collect();
            let planning = c
                .planning
                .iter()
                .map(|&(actual, required)| {
                    let deficit = Num { v: required.v - actual as f64, int: required.int };
                    obj(alloc::vec![
                        ("type", Value::from("insufficient_segments")),
                        ("actual", Value::from(actual)),
                        ("required", num_json(required)),
                        ("deficit", num_json(deficit)),
                    ])
                })
                .collect();
            pairs.push((
                "error_classification",
                obj(alloc::vec![
                    ("spatial_errors", Value::Array(spatial)),
                    ("tool_errors", Value::Array(tools)),
                    ("color_errors", Value::Array(colors)),
                    ("planning_errors", Value::Array(planning)),
                    ("syntax_errors", self.errors_json()),
                ]),
            ));
        }
        obj(pairs)
    }
}
