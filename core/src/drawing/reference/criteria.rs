//! `criteria_met`, the penalty score with its two rounding paths, `error_classification`, and
//! the unscored spatial-accuracy and action-efficiency metrics of `drawingbench-1.0`.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::drawing::actions::{Kind, PyException};
use crate::drawing::pyfmt;
use crate::drawing::task::Criteria;
use crate::drawing::ui::{Num, UiConfig};

use super::scan::Ctx;
use super::{Classification, Evaluation, Metrics};

/// A `criteria_met` value.
#[derive(Debug, Clone, PartialEq)]
pub enum CritValue {
    /// A pass/fail flag.
    Bool(bool),
    /// A count.
    Int(i64),
    /// A coverage figure.
    Float(f64),
    /// A list of colour hexes (built from a Python set; gobo sorts it).
    Strings(Vec<String>),
}

impl CritValue {
    /// Python truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            CritValue::Bool(b) => *b,
            CritValue::Int(i) => *i != 0,
            CritValue::Float(f) => *f != 0.0,
            CritValue::Strings(v) => !v.is_empty(),
        }
    }
}

/// An entry of `error_classification.spatial_errors`.
#[derive(Debug, Clone, PartialEq)]
pub enum SpatialError {
    /// `insufficient_coverage`.
    Coverage {
        /// Grid coverage.
        actual: f64,
        /// `min_coverage`, as given.
        required: Num,
    },
    /// `incorrect_spatial_placement`.
    Placement {
        /// Spatial accuracy.
        accuracy: f64,
        /// Expected region.
        region: &'static str,
    },
}

/// A `criteria_met` key: the reference's names are static, except the tool keys of tools the
/// drawing app does not have.
pub type CritKey = Cow<'static, str>;

/// The tool keys of the drawing app's tools: `tool_T_used`, `tool_T_selected`,
/// `tool_T_actually_used`.
const TOOL_KEYS: [(&str, [&str; 3]); 6] = [
    ("pen", ["tool_pen_used", "tool_pen_selected", "tool_pen_actually_used"]),
    ("eraser", ["tool_eraser_used", "tool_eraser_selected", "tool_eraser_actually_used"]),
    ("fill", ["tool_fill_used", "tool_fill_selected", "tool_fill_actually_used"]),
    ("line", ["tool_line_used", "tool_line_selected", "tool_line_actually_used"]),
    (
        "rectangle",
        ["tool_rectangle_used", "tool_rectangle_selected", "tool_rectangle_actually_used"],
    ),
    ("circle", ["tool_circle_used", "tool_circle_selected", "tool_circle_actually_used"]),
];

const TOOL_SUFFIXES: [&str; 3] = ["_used", "_selected", "_actually_used"];

/// `f"tool_{tool}{suffix}"` for the three suffixes, static for the app's tools.
fn tool_keys(tool: &str) -> [CritKey; 3] {
    if let Some((_, keys)) = TOOL_KEYS.iter().find(|(name, _)| *name == tool) {
        return keys.map(Cow::Borrowed);
    }
    TOOL_SUFFIXES.map(|suffix| Cow::Owned(tool_key(tool, suffix)))
}

/// `f"tool_{tool}{suffix}"`, without the formatting machinery.
fn tool_key(tool: &str, suffix: &str) -> String {
    let mut k = String::with_capacity(5 + tool.len() + suffix.len());
    k.push_str("tool_");
    k.push_str(tool);
    k.push_str(suffix);
    k
}

/// Whether `met` has `f"tool_{name}_actually_used"` where `name` is
/// `key.replace("tool_", "").replace("_used", "")`. When `key` is `tool_` + a middle part +
/// `_used` and no other `tool_` or `_used` can be found (none in the middle part, and the middle
/// part does not end in `tool`, which would make `tool_` with the suffix's `_`), `name` is that
/// part and no string is built.
fn has_actually_used(met: &[(CritKey, CritValue)], key: &str) -> bool {
    let plain = key
        .strip_prefix("tool_")
        .and_then(|k| k.strip_suffix("_used"))
        .filter(|mid| !mid.contains("tool_") && !mid.ends_with("tool") && !mid.contains("_used"));
    match plain {
        Some(mid) => met.iter().any(|(k, _)| {
            k.strip_prefix("tool_").and_then(|k| k.strip_suffix("_actually_used")) == Some(mid)
        }),
        None => {
            let name = key.replace("tool_", "").replace("_used", "");
            get(met, &tool_key(&name, "_actually_used")).is_some()
        }
    }
}

fn set(map: &mut Vec<(CritKey, CritValue)>, key: CritKey, value: CritValue) {
    match map.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = value,
        None => map.push((key, value)),
    }
}

fn sorted_unique(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = items.collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// `_check_criteria`.
pub(crate) fn criteria_met(
    ctx: &Ctx<'_>,
    c: &Criteria,
    m: &Metrics,
) -> Result<Vec<(CritKey, CritValue)>, PyException> {
    let tools = c.required_tools.as_deref().unwrap_or_default();
    let mut out = Vec::with_capacity(3 * tools.len() + 12);
    for tool in tools {
        let (used, actually) = ctx.tool_use(tool)?;
        let [k_used, k_selected, k_actually] = tool_keys(tool);
        set(&mut out, k_used, CritValue::Bool(used));
        set(&mut out, k_selected, CritValue::Bool(used));
        set(&mut out, k_actually, CritValue::Bool(actually));
    }
    if let Some(min) = c.min_segments {
        let n = m.drawing_segments;
        set(&mut out, "min_segments_met".into(), CritValue::Bool(n as f64 >= min.v));
        set(&mut out, "actual_segments".into(), CritValue::Int(n as i64));
    }
    if let Some(required) = &c.required_colors {
        let ui = ctx.ui;
        set(&mut out, "colors_changed".into(), CritValue::Int(m.color_changes as i64));
        let met = m.color_changes >= required.len();
        set(&mut out, "min_colors_met".into(), CritValue::Bool(met));
        let used = sorted_unique(
            m.exact_colors_used.iter().filter_map(|&i| ui.colors.get(i)).map(|b| b.hex.clone()),
        );
        let req = sorted_unique(required.iter().cloned());
        let matched = req.iter().filter(|h| used.contains(h)).count();
        let missing: Vec<String> = req.iter().filter(|h| !used.contains(h)).cloned().collect();
        set(&mut out, "colors_exact_used".into(), CritValue::Strings(used));
        set(&mut out, "colors_matched".into(), CritValue::Int(matched as i64));
        set(&mut out, "colors_missing".into(), CritValue::Strings(missing));
        set(&mut out, "min_colors_exact_met".into(), CritValue::Bool(matched >= req.len()));
    }
    if let Some(min) = c.min_coverage {
        let bbox = m.canvas_coverage;
        set(&mut out, "canvas_coverage".into(), CritValue::Float(bbox));
        set(&mut out, "min_coverage_met".into(), CritValue::Bool(bbox >= min.v));
        let acc = m.canvas_coverage_accurate;
        set(&mut out, "canvas_coverage_accurate".into(), CritValue::Float(acc));
        set(&mut out, "min_coverage_accurate_met".into(), CritValue::Bool(acc >= min.v));
    }
    Ok(out)
}

fn get<'a>(met: &'a [(CritKey, CritValue)], key: &str) -> Option<&'a CritValue> {
    met.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// `_calculate_score`.
pub(crate) fn score(e: &Evaluation) -> f64 {
    let empty = Vec::new();
    let met = e.criteria_met.as_ref().unwrap_or(&empty);
    let truthy = |key: &str| get(met, key).map(CritValue::truthy);
    let mut s = 1.0f64;
    let mut tool_penalties = 0.0f64;
    for (key, value) in met {
        if key.ends_with("_actually_used") {
            if !value.truthy() {
                tool_penalties += 0.15;
            }
        } else if key.starts_with("tool_")
            && key.ends_with("_used")
            && !has_actually_used(met, key)
            && !value.truthy()
        {
            tool_penalties += 0.15;
        }
    }
    s -= tool_penalties;
    if get(met, "min_colors_exact_met").is_some() {
        if truthy("min_colors_exact_met") == Some(false) {
            let required = e.colors_required.unwrap_or(0) as i64;
            let matched = match get(met, "colors_matched") {
                Some(CritValue::Int(i)) => *i,
                _ => 0,
            };
            s -= 0.05 * (required - matched).max(0) as f64;
        }
    } else if truthy("min_colors_met") == Some(false) {
        let required = e.colors_required.unwrap_or(0) as i64;
        let changed = match get(met, "colors_changed") {
            Some(CritValue::Int(i)) => *i,
            _ => 0,
        };
        s -= 0.05 * (required - changed).max(0) as f64;
    }
    if truthy("min_segments_met") == Some(false) {
        s -= 0.15;
    }
    // Once the proportional coverage penalty is subtracted the score is a numpy float64 and
    // `round` is numpy's.
    let mut numpy = false;
    if get(met, "min_coverage_accurate_met").is_some() {
        if truthy("min_coverage_accurate_met") == Some(false) {
            let actual = e.metrics.canvas_coverage_accurate;
            let required = e.min_coverage.map_or(0.0, |n| n.v);
            if required > 0.0 {
                let deficit = required - actual;
                let deficit = if deficit > 0.0 { deficit } else { 0.0 };
                s -= deficit / required * 0.12;
                numpy = true;
            }
        }
    } else if truthy("min_coverage_met") == Some(false) {
        s -= 0.12;
    }
    s -= e.errors.len() as f64 * 0.08;
    s -= e.warnings.len() as f64 * 0.02;
    if (10..=500).contains(&e.total_actions) && s >= 0.2 {
        s += 0.05;
    }
    let r = if numpy { pyfmt::round_numpy(s, 3) } else { pyfmt::round_python(s, 3) };
    let r = if r < 1.0 { r } else { 1.0 };
    if r > 0.0 {
        r
    } else {
        0.0
    }
}

/// `_classify_errors`.
pub(crate) fn classify(e: &Evaluation, c: &Criteria, ui: &UiConfig) -> Classification {
    let mut out = Classification::default();
    if let Some(met) = &e.criteria_met {
        for (key, value) in met {
            if key.ends_with("_actually_used") && !value.truthy() {
                out.tools.push(key.replace("tool_", "").replace("_actually_used", ""));
            }
        }
    }
    if let Some(required) = &c.required_colors {
        for color in required {
            let used = e
                .metrics
                .exact_colors_used
                .iter()
                .any(|&i| ui.colors.get(i).is_some_and(|b| b.hex == *color));
            if !used {
                out.colors.push(color.clone());
            }
        }
    }
    if let Some(min) = c.min_coverage {
        let actual = e.metrics.canvas_coverage_accurate;
        if actual < min.v {
            out.spatial.push(SpatialError::Coverage { actual, required: min });
        }
    }
    if let Some(min) = c.min_segments {
        if (e.metrics.drawing_segments as f64) < min.v {
            out.planning = Some((e.metrics.drawing_segments, min));
        }
    }
    if let (Some(acc), Some(region)) = (e.metrics.spatial_accuracy, e.metrics.spatial_region) {
        if acc < 0.7 {
            out.spatial.push(SpatialError::Placement { accuracy: acc, region });
        }
    }
    out
}

/// `_calculate_action_efficiency`.
pub(crate) fn efficiency(n: usize, c: &Criteria) -> Option<f64> {
    let mut min = 0.0;
    if let Some(t) = &c.required_tools {
        min += t.len() as f64;
    }
    if let Some(t) = &c.required_colors {
        min += t.len() as f64;
    }
    if let Some(s) = c.min_segments {
        min += s.v * 3.0;
    }
    if min == 0.0 {
        return None;
    }
    let ratio = n as f64 / min;
    Some(if ratio <= 1.5 {
        1.0
    } else if ratio <= 2.0 {
        0.8
    } else if ratio <= 3.0 {
        0.6
    } else {
        0.4
    })
}

/// `_extract_spatial_constraints`: the first region named in the prompt (substring search).
pub(crate) fn region(prompt: &str) -> Option<&'static str> {
    let p = prompt.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| p.contains(w));
    Some(if any(&["top-left", "upper-left", "top left"]) {
        "top-left"
    } else if any(&["top-right", "upper-right", "top right"]) {
        "top-right"
    } else if any(&["bottom-left", "lower-left", "bottom left"]) {
        "bottom-left"
    } else if any(&["bottom-right", "lower-right", "bottom right"]) {
        "bottom-right"
    } else if any(&["center", "middle", "centre"]) {
        "center"
    } else if any(&["top", "upper"]) {
        "top"
    } else if any(&["bottom", "lower"]) {
        "bottom"
    } else if any(&["left"]) {
        "left"
    } else if any(&["right"]) {
        "right"
    } else {
        return None;
    })
}

/// `_evaluate_spatial_accuracy` over `_calculate_drawing_centroid`.
pub(crate) fn spatial_accuracy(ctx: &Ctx<'_>, region: &str) -> Result<f64, PyException> {
    let a = ctx.a;
    let ui = ctx.ui;
    let (ox, oy, w, h) = (ui.offset_x.v, ui.offset_y.v, ui.width.v, ui.height.v);
    let mut current: Option<(crate::drawing::actions::Coord, crate::drawing::actions::Coord)> =
        None;
    let (mut sx, mut sy, mut count) = (0.0f64, 0.0f64, 0usize);
    let not_none = |c: Option<crate::drawing::actions::Coord>| {
        c.filter(|&v| !matches!(v, crate::drawing::actions::Coord::Raw(i) if matches!(a.extras.get(i as usize), Some(crate::drawing::pyjson::PyValue::Null))))
    };
    for act in &a.list {
        let (x, y) = (not_none(act.x), not_none(act.y));
        match (act.kind, x, y) {
            (Kind::MoveTo, Some(x), Some(y)) => current = Some((x, y)),
            (Kind::MouseDown, _, _) => {
                if let Some((x, y)) = current {
                    let xv = a
                        .num(x)
                        .map_err(|t| PyException::compare("<=", ui.offset_x.type_name(), t))?;
                    if ox <= xv && xv < ox + w {
                        let yv = a
                            .num(y)
                            .map_err(|t| PyException::compare("<=", ui.offset_y.type_name(), t))?;
                        if oy <= yv && yv < oy + h {
                            sx += xv;
                            sy += yv;
                            count += 1;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if count == 0 {
        return Ok(0.0);
    }
    let (cx, cy) = (sx / count as f64 - ox, sy / count as f64 - oy);
    let (tw, th) = (w / 3.0, h / 3.0);
    let (tx, ty) = match region {
        "top-left" => (tw / 2.0, th / 2.0),
        "top" => (w / 2.0, th / 2.0),
        "top-right" => (w - tw / 2.0, th / 2.0),
        "left" => (tw / 2.0, h / 2.0),
        "center" => (w / 2.0, h / 2.0),
        "right" => (w - tw / 2.0, h / 2.0),
        "bottom-left" => (tw / 2.0, h - th / 2.0),
        "bottom" => (w / 2.0, h - th / 2.0),
        _ => (w - tw / 2.0, h - th / 2.0),
    };
    let distance = libm::pow((cx - tx) * (cx - tx) + (cy - ty) * (cy - ty), 0.5);
    let max_distance = libm::pow(w * w + h * h, 0.5);
    let acc = 1.0 - distance / max_distance;
    Ok(if acc > 0.0 { acc } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_tool_keys_are_the_formatted_ones() {
        let ui = UiConfig::drawingbench_default();
        let names = ui.tools.iter().map(|t| t.key.as_str());
        for tool in names.chain(["brush", "", "pen ", "Pen", "tool_pen"]) {
            let keys = tool_keys(tool);
            for (key, suffix) in keys.iter().zip(TOOL_SUFFIXES) {
                assert_eq!(key.as_ref(), alloc::format!("tool_{tool}{suffix}"));
            }
            let known = TOOL_KEYS.iter().any(|(name, _)| *name == tool);
            assert_eq!(known, matches!(keys[0], Cow::Borrowed(_)), "{tool}");
            assert_eq!(
                known,
                ui.tool(tool).is_some(),
                "{tool}: the app's tools are the static ones"
            );
        }
    }

    #[test]
    fn actually_used_lookup_follows_the_python_replace() {
        let met = |keys: &[&str]| -> Vec<(CritKey, CritValue)> {
            keys.iter().map(|k| (CritKey::Owned(String::from(*k)), CritValue::Bool(true))).collect()
        };
        let slow = |m: &[(CritKey, CritValue)], key: &str| {
            let name = key.replace("tool_", "").replace("_used", "");
            get(m, &alloc::format!("tool_{name}_actually_used")).is_some()
        };
        let cases: &[(&[&str], &str)] = &[
            (&["tool_pen_actually_used"], "tool_pen_used"),
            (&["tool_line_actually_used"], "tool_pen_used"),
            (&["tool_x_actually_used"], "tool_x_tool_used"),
            (&["tool_x_tool_actually_used"], "tool_x_tool_used"),
            (&["tool_ab_actually_used"], "tool_a_usedb_used"),
            (&["tool_a_usedb_actually_used"], "tool_a_usedb_used"),
            (&["tool__actually_used"], "tool__used"),
            (&["tool_pen_actually_used"], "tool_pen_selected"),
        ];
        for (keys, key) in cases {
            let m = met(keys);
            assert_eq!(has_actually_used(&m, key), slow(&m, key), "{keys:?} {key}");
        }
    }
}
