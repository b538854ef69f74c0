//! Errors and warnings of the `drawingbench-1.0` profile: the syntax pass, the coordinate pass
//! (screen bounds for any action with both coordinates, canvas bounds for a mouseDown with
//! explicit ones) with the reference's message text byte for byte, and the efficiency / logic
//! warnings.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::drawing::actions::{Action, Kind, PyException};
use crate::drawing::pyfmt::float_repr;

use super::scan::Ctx;

/// An evaluator error or warning, with the reference's keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    /// `type`: `SYNTAX_ERROR`, `COORDINATE_ERROR`, `EFFICIENCY_WARNING` or `LOGIC_ERROR`.
    pub kind: &'static str,
    /// `index` (errors only; −1 for "Actions must be a list/array").
    pub index: Option<i64>,
    /// `message`.
    pub message: String,
    /// `action_detail` (coordinate-pass errors only).
    pub action_detail: Option<String>,
}

impl Issue {
    fn error(kind: &'static str, index: usize, message: String, detail: Option<String>) -> Issue {
        Issue { kind, index: Some(index as i64), message, action_detail: detail }
    }
}

/// The syntax pass.
pub(crate) fn syntax_errors(ctx: &Ctx<'_>, out: &mut Vec<Issue>) {
    for (i, act) in ctx.a.list.iter().enumerate() {
        match act.kind {
            Kind::Missing => {
                out.push(Issue::error("SYNTAX_ERROR", i, "Missing 'action' field".into(), None));
            }
            Kind::MoveTo if !act.has_xy() => out.push(Issue::error(
                "SYNTAX_ERROR",
                i,
                "moveTo requires 'x' and 'y' coordinates".into(),
                None,
            )),
            Kind::Other(_) => out.push(Issue::error(
                "SYNTAX_ERROR",
                i,
                format!("Unknown action type: {}", ctx.a.kind_str(act.kind, "None")),
                None,
            )),
            _ => {}
        }
    }
}

/// The coordinate pass. `Err` where `float()` of a coordinate raises `OverflowError`.
pub(crate) fn coordinate_errors(ctx: &Ctx<'_>, out: &mut Vec<Issue>) -> Result<(), PyException> {
    let a = ctx.a;
    let ui = ctx.ui;
    for (i, act) in a.list.iter().enumerate() {
        let (Some(cx), Some(cy)) = (act.x, act.y) else { continue };
        // `float(x), float(y)`: float(y) only runs when float(x) succeeded.
        let fx = a.py_float(cx)?;
        let fy = if fx.is_some() { a.py_float(cy)? } else { None };
        let (Some(x), Some(y)) = (fx, fy) else {
            out.push(Issue::error(
                "SYNTAX_ERROR",
                i,
                format!(
                    "Invalid coordinate types at index {i}: x={}, y={}",
                    a.coord_str(cx),
                    a.coord_str(cy)
                ),
                Some(a.kind_str(act.kind, "None")),
            ));
            continue;
        };
        let off_screen = outside(x, 1500.0) || outside(y, 900.0);
        let off_canvas = act.kind == Kind::MouseDown
            && (outside(x - ui.offset_x.v, ui.width.v) || outside(y - ui.offset_y.v, ui.height.v));
        if !off_screen && !off_canvas {
            continue;
        }
        let (xs, ys) = (float_repr(x), float_repr(y));
        if off_screen {
            let mut msg = format!(
                "Action at index {i}: {}(x={xs}, y={ys}) - Coordinates out of screen bounds.\n",
                a.kind_str(act.kind, "unknown")
            );
            if x < 0.0 {
                let _ = write!(
                    msg,
                    "  Problem: x={xs} is negative\n  Valid range: x must be >= 0\n  Suggestion: Use x >= 0"
                );
            } else if x > 1500.0 {
                let _ = write!(
                    msg,
                    "  Problem: x={xs} exceeds screen width\n  Valid range: x must be <= 1090 \
                     (canvas right edge)\n  Suggestion: For canvas drawing, use x <= 1090"
                );
            }
            if y < 0.0 {
                let _ = write!(
                    msg,
                    "  Problem: y={ys} is negative\n  Valid range: y must be >= 0\n  Suggestion: Use y >= 0"
                );
            } else if y > 900.0 {
                let _ = write!(
                    msg,
                    "  Problem: y={ys} exceeds screen height\n  Valid range: y must be <= 770 \
                     (canvas bottom edge)\n  Suggestion: For canvas drawing, use y <= 770"
                );
            }
            context(ctx, i, &mut msg);
            let detail = format!("{}(x={xs}, y={ys})", a.kind_str(act.kind, "None"));
            out.push(Issue::error("COORDINATE_ERROR", i, msg, Some(detail)));
        }
        if act.kind == Kind::MouseDown {
            let (ox, oy) = (ui.offset_x, ui.offset_y);
            let (rx, by) = (ox.v + ui.width.v, oy.v + ui.height.v);
            let (canvas_x, canvas_y) = (x - ox.v, y - oy.v);
            if canvas_x < 0.0 || canvas_x > ui.width.v || canvas_y < 0.0 || canvas_y > ui.height.v {
                let right = crate::drawing::ui::Num { v: rx, int: ox.int && ui.width.int };
                let bottom = crate::drawing::ui::Num { v: by, int: oy.int && ui.height.int };
                let mut msg = format!(
                    "Action at index {i}: mouseDown(x={xs}, y={ys}) - Drawing outside canvas area.\n  \
                     Canvas area: x ∈ [{ox}, {right}], y ∈ [{oy}, {bottom}]\n"
                );
                if canvas_x < 0.0 {
                    let _ = write!(
                        msg,
                        "  Problem: x={xs} is left of canvas (canvas starts at x={ox})\n  Suggestion: Use x >= {ox}"
                    );
                } else if canvas_x > ui.width.v {
                    let _ = write!(
                        msg,
                        "  Problem: x={xs} is right of canvas (canvas ends at x={right})\n  Suggestion: Use x <= {right}"
                    );
                }
                if canvas_y < 0.0 {
                    let _ = write!(
                        msg,
                        "  Problem: y={ys} is above canvas (canvas starts at y={oy})\n  Suggestion: Use y >= {oy}"
                    );
                } else if canvas_y > ui.height.v {
                    let _ = write!(
                        msg,
                        "  Problem: y={ys} is below canvas (canvas ends at y={bottom})\n  Suggestion: Use y <= {bottom}"
                    );
                }
                context(ctx, i, &mut msg);
                let detail = format!("mouseDown(x={xs}, y={ys})");
                out.push(Issue::error("COORDINATE_ERROR", i, msg, Some(detail)));
            }
        }
    }
    Ok(())
}

/// `v < 0 or v > hi` (false for NaN, unlike `!(0.0..=hi).contains(&v)`).
fn outside(v: f64, hi: f64) -> bool {
    v < 0.0 || v > hi
}

/// `_get_action_sequence_context`: actions i−2 … i+2 with raw coordinates.
fn context(ctx: &Ctx<'_>, index: usize, msg: &mut String) {
    msg.push_str("\n  Action sequence:\n");
    let list = &ctx.a.list;
    let end = (index + 3).min(list.len());
    for j in index.saturating_sub(2)..end {
        let Some(act) = list.get(j) else { break };
        let _ = write!(msg, "    [{j}] {}", ctx.a.kind_str(act.kind, "None"));
        if let (Some(x), Some(y)) = (act.x, act.y) {
            let _ = write!(msg, "(x={}, y={})", ctx.a.coord_str(x), ctx.a.coord_str(y));
        }
        msg.push_str(if j == index { " ← ERROR\n" } else { "\n" });
    }
}

/// Efficiency and logic warnings, in the reference's order.
pub(crate) fn warnings(list: &[Action], out: &mut Vec<Issue>) {
    let warn = |kind, message| Issue { kind, index: None, message, action_detail: None };
    if list.len() > 1000 {
        out.push(warn(
            "EFFICIENCY_WARNING",
            format!("Very high action count: {} actions", list.len()),
        ));
    }
    let is_move = |a: &Action| a.kind == Kind::MoveTo;
    if let Some(i) = list.windows(3).position(|w| w.iter().all(is_move)) {
        out.push(warn(
            "EFFICIENCY_WARNING",
            format!("Multiple consecutive moveTo actions at index {i}"),
        ));
    }
    let downs = list.iter().filter(|a| a.kind == Kind::MouseDown).count();
    let ups = list.iter().filter(|a| a.kind == Kind::MouseUp).count();
    if downs != ups {
        out.push(warn("LOGIC_ERROR", format!("Unmatched mouseDown ({downs}) and mouseUp ({ups})")));
    }
}
