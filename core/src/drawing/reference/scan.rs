//! Hit tests and the simple counters of the `drawingbench-1.0` profile: tool and colour
//! selections (a click at a button, or a moveTo at a button followed immediately by any click),
//! the colour-click counter, drawing segments, and "actually used" tool verification. Every
//! arithmetic step that Python could fail on returns the [`PyException`] it would raise.

use alloc::vec::Vec;

use crate::drawing::actions::{Action, Actions, Coord, Kind, PyException};
use crate::drawing::ui::{Num, UiConfig};

/// The inputs every pass reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub a: &'a Actions,
    pub ui: &'a UiConfig,
}

/// `action.get("x", 0), action.get("y", 0)`.
pub(crate) fn xy0(act: &Action) -> (Coord, Coord) {
    (act.x.unwrap_or(Coord::Int(0)), act.y.unwrap_or(Coord::Int(0)))
}

/// Whether action `i + 1` exists and is a click.
pub(crate) fn next_is_click(list: &[Action], i: usize) -> bool {
    matches!(list.get(i + 1), Some(a) if a.kind == Kind::Click)
}

impl Ctx<'_> {
    /// `abs(x - bx) < 40 and abs(y - by) < 40` (y is only evaluated when the x test passes).
    pub fn tool_box(&self, x: Coord, y: Coord, bx: Num, by: Num) -> Result<bool, PyException> {
        match self.nums(x, y) {
            Some((x, y)) => Ok(in_tool_box(x - bx.v, y - by.v)),
            None => self.tool_box_checked(x, y, bx, by),
        }
    }

    /// [`Ctx::tool_box`] step by step, raising where Python raises.
    fn tool_box_checked(&self, x: Coord, y: Coord, bx: Num, by: Num) -> Result<bool, PyException> {
        // NaN fails both tests, as in Python.
        let near_x = libm::fabs(self.a.sub(x, bx)?) < 40.0;
        Ok(near_x && libm::fabs(self.a.sub(y, by)?) < 40.0)
    }

    /// The first tool (config order) whose box holds (x, y).
    pub fn tool_at(&self, x: Coord, y: Coord) -> Result<Option<usize>, PyException> {
        match self.nums(x, y) {
            Some((x, y)) => {
                Ok(self.ui.tools.iter().position(|t| in_tool_box(x - t.x.v, y - t.y.v)))
            }
            None => self.tool_at_checked(x, y),
        }
    }

    /// [`Ctx::tool_at`] for its exception only: nothing to compute when both coordinates are
    /// numbers.
    pub fn check_tool_at(&self, x: Coord, y: Coord) -> Result<(), PyException> {
        match self.nums(x, y) {
            Some(_) => Ok(()),
            None => self.tool_at_checked(x, y).map(drop),
        }
    }

    /// [`Ctx::tool_at`] step by step, raising where Python raises.
    fn tool_at_checked(&self, x: Coord, y: Coord) -> Result<Option<usize>, PyException> {
        for (n, t) in self.ui.tools.iter().enumerate() {
            if self.tool_box_checked(x, y, t.x, t.y)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// The first colour whose box (`abs(dx) <= 12 and abs(dy) <= 8`) holds (x, y).
    pub fn color_at(&self, x: Coord, y: Coord) -> Result<Option<usize>, PyException> {
        match self.nums(x, y) {
            Some((x, y)) => {
                Ok(self.ui.colors.iter().position(|c| in_color_box(x - c.x.v, y - c.y.v)))
            }
            None => self.color_at_checked(x, y),
        }
    }

    /// [`Ctx::color_at`] step by step, raising where Python raises.
    fn color_at_checked(&self, x: Coord, y: Coord) -> Result<Option<usize>, PyException> {
        for (n, c) in self.ui.colors.iter().enumerate() {
            if libm::fabs(self.a.sub(x, c.x)?) <= 12.0 && libm::fabs(self.a.sub(y, c.y)?) <= 8.0 {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Both coordinates' values when both are numbers: then no hit test can raise, and
    /// `a.sub(c, k)` is `value - k.v`.
    #[inline(always)]
    fn nums(&self, x: Coord, y: Coord) -> Option<(f64, f64)> {
        Some((self.a.num(x).ok()?, self.a.num(y).ok()?))
    }

    /// `metrics.tool_changes`: clicks at a tool box (the moveTo+click pattern is tested, for
    /// its side effects only, and not counted).
    pub fn tool_changes(&self) -> Result<usize, PyException> {
        let list = &self.a.list;
        let mut n = 0;
        for (i, act) in list.iter().enumerate() {
            let (x, y) = xy0(act);
            if act.kind == Kind::Click {
                if self.tool_at(x, y)?.is_some() {
                    n += 1;
                }
            } else if act.kind == Kind::MoveTo && next_is_click(list, i) {
                self.tool_at(x, y)?;
            }
        }
        Ok(n)
    }

    /// `metrics.color_changes`: clicks with `405 <= x <= 741 and abs(y - 25) < 20`.
    pub fn color_changes(&self) -> Result<usize, PyException> {
        let mut n = 0;
        for act in self.a.list.iter().filter(|a| a.kind == Kind::Click) {
            let (x, y) = xy0(act);
            let xv = self.a.num(x).map_err(|t| PyException::compare("<=", "int", t))?;
            if (405.0..=741.0).contains(&xv) && libm::fabs(self.a.sub(y, Num::int(25))?) < 20.0 {
                n += 1;
            }
        }
        Ok(n)
    }

    /// `metrics.exact_colors_used`: colour indices in order of selection, both patterns.
    pub fn exact_colors(&self) -> Result<Vec<usize>, PyException> {
        let list = &self.a.list;
        let mut used = Vec::new();
        for (i, act) in list.iter().enumerate() {
            let selects =
                act.kind == Kind::Click || (act.kind == Kind::MoveTo && next_is_click(list, i));
            if selects {
                let (x, y) = xy0(act);
                if let Some(c) = self.color_at(x, y)? {
                    used.push(c);
                }
            }
        }
        Ok(used)
    }

    /// The index of the click that first selects `tool` (either pattern), if any.
    fn first_selection(&self, tool: &str) -> Result<Option<usize>, PyException> {
        let Some(t) = self.ui.tool(tool) else { return Ok(None) };
        let list = &self.a.list;
        for (i, act) in list.iter().enumerate() {
            let (x, y) = xy0(act);
            match act.kind {
                Kind::MoveTo if self.tool_box(x, y, t.x, t.y)? && next_is_click(list, i) => {
                    return Ok(Some(i + 1));
                }
                Kind::Click if act.x.is_some() && self.tool_box(x, y, t.x, t.y)? => {
                    return Ok(Some(i));
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// `(tool_T_used, tool_T_actually_used)`. `tool_T_used` (and `tool_T_selected`, the same
    /// test): a moveTo at T's box followed by a click, or a click with an `x` key at T's box,
    /// anywhere. `tool_T_actually_used`: after the first selection, a mouseDown comes before any
    /// moveTo/click inside another tool's box.
    pub fn tool_use(&self, tool: &str) -> Result<(bool, bool), PyException> {
        let Some(sel) = self.first_selection(tool)? else { return Ok((false, false)) };
        for act in self.a.list.iter().skip(sel + 1) {
            if act.kind == Kind::MouseDown {
                return Ok((true, true));
            }
            if matches!(act.kind, Kind::MoveTo | Kind::Click) {
                let (x, y) = xy0(act);
                for other in self.ui.tools.iter().filter(|o| o.key != tool) {
                    if self.tool_box(x, y, other.x, other.y)? {
                        return Ok((true, false));
                    }
                }
            }
        }
        Ok((true, false))
    }
}

/// Whether offsets (dx, dy) from a tool's centre are inside its box.
#[inline(always)]
fn in_tool_box(dx: f64, dy: f64) -> bool {
    libm::fabs(dx) < 40.0 && libm::fabs(dy) < 40.0
}

/// Whether offsets (dx, dy) from a colour's centre are inside its box.
#[inline(always)]
fn in_color_box(dx: f64, dy: f64) -> bool {
    libm::fabs(dx) <= 12.0 && libm::fabs(dy) <= 8.0
}

/// `metrics.drawing_segments`: +1 at a mouseDown outside a segment; mouseUp ends it.
pub(crate) fn drawing_segments(list: &[Action]) -> usize {
    let mut segments = 0;
    let mut inside = false;
    for act in list {
        match act.kind {
            Kind::MouseDown if !inside => {
                segments += 1;
                inside = true;
            }
            Kind::MouseUp => inside = false,
            _ => {}
        }
    }
    segments
}

/// `action_breakdown`: moveTo, click, mouseDown, mouseUp, unknown.
pub(crate) fn breakdown(list: &[Action]) -> [usize; 5] {
    let mut counts = [0usize; 5];
    for act in list {
        let slot = match act.kind {
            Kind::MoveTo => 0,
            Kind::Click => 1,
            Kind::MouseDown => 2,
            Kind::MouseUp => 3,
            Kind::Missing | Kind::Other(_) => 4,
        };
        counts[slot] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drawing::pyjson::{BigInt, PyValue};

    /// The hit tests on numbers (plain arithmetic) agree with the step-by-step tests on every
    /// kind of coordinate, on and around the box edges.
    #[test]
    fn hit_tests_agree_with_the_checked_steps() {
        let ui = UiConfig::drawingbench_default();
        let extras = alloc::vec![
            PyValue::Str("12".into()),
            PyValue::Null,
            PyValue::BigInt(alloc::boxed::Box::new(BigInt {
                text: "100000000000000000000".into(),
                approx: 1e20,
            })),
        ];
        let a = Actions { list: Vec::new(), extras };
        let ctx = Ctx { a: &a, ui: &ui };
        let mut values = alloc::vec![
            Coord::Bool(true),
            Coord::Bool(false),
            Coord::Raw(0),
            Coord::Raw(1),
            Coord::Raw(2),
            Coord::Raw(7),
            Coord::Float(f64::NAN),
            Coord::Float(f64::INFINITY),
            Coord::Float(-0.0),
            Coord::Int(i64::MIN),
        ];
        let mut centres: Vec<f64> = ui.tools.iter().flat_map(|t| [t.x.v, t.y.v]).collect();
        centres.extend(ui.colors.iter().flat_map(|c| [c.x.v, c.y.v]));
        for c in centres {
            for d in [-40.0, -39.5, -12.0, -8.0, -1e-13, 0.0, 8.0, 11.99, 12.0, 39.999, 40.0, 41.0]
            {
                values.push(Coord::Float(c + d));
                values.push(Coord::Int((c + d) as i64));
            }
        }
        for &x in &values {
            for &y in &values {
                assert_eq!(ctx.tool_at(x, y), ctx.tool_at_checked(x, y), "{x:?} {y:?}");
                assert_eq!(ctx.check_tool_at(x, y), ctx.tool_at(x, y).map(drop), "{x:?} {y:?}");
                assert_eq!(ctx.color_at(x, y), ctx.color_at_checked(x, y), "{x:?} {y:?}");
                for t in &ui.tools {
                    assert_eq!(
                        ctx.tool_box(x, y, t.x, t.y),
                        ctx.tool_box_checked(x, y, t.x, t.y),
                        "{x:?} {y:?}"
                    );
                }
            }
        }
    }
}
