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
        // NaN fails both tests, as in Python.
        let near_x = libm::fabs(self.a.sub(x, bx)?) < 40.0;
        Ok(near_x && libm::fabs(self.a.sub(y, by)?) < 40.0)
    }

    /// The first tool (config order) whose box holds (x, y).
    pub fn tool_at(&self, x: Coord, y: Coord) -> Result<Option<usize>, PyException> {
        for (n, t) in self.ui.tools.iter().enumerate() {
            if self.tool_box(x, y, t.x, t.y)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// The first colour whose box (`abs(dx) <= 12 and abs(dy) <= 8`) holds (x, y).
    pub fn color_at(&self, x: Coord, y: Coord) -> Result<Option<usize>, PyException> {
        for (n, c) in self.ui.colors.iter().enumerate() {
            if libm::fabs(self.a.sub(x, c.x)?) <= 12.0 && libm::fabs(self.a.sub(y, c.y)?) <= 8.0 {
                return Ok(Some(n));
            }
        }
        Ok(None)
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

    /// `tool_T_used`: a moveTo at T's box followed by a click, or a click with an `x` key at
    /// T's box, anywhere.
    pub fn tool_used(&self, tool: &str) -> Result<bool, PyException> {
        Ok(self.first_selection(tool)?.is_some())
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

    /// `(tool_T_selected, tool_T_actually_used)`: after the first selection, a mouseDown comes
    /// before any moveTo/click inside another tool's box.
    pub fn tool_actually_used(&self, tool: &str) -> Result<(bool, bool), PyException> {
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
