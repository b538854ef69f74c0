//! The two coverage metrics of the `drawingbench-1.0` profile: the bounding box of drawing
//! points (`canvas_coverage`, unscored) and the 20×20 cell grid (`canvas_coverage_accurate`,
//! scored) with the reference's per-tool rules: pen/eraser mark only the cells of their points,
//! a rectangle marks every cell of its box, a circle a 50-ray star of samples, a line one sample
//! per pixel step. Shapes are sampled only where they can touch the canvas (the sample
//! coordinates are monotone along a ray or a line, so the inside part is one index range found by
//! bisection), which gives the reference's cells in bounded time for any coordinates.

use crate::drawing::actions::{Coord, Kind, PyException};
use crate::drawing::pyfmt;

use super::scan::{next_is_click, xy0, Ctx};

const GRID: usize = 20;

/// The 20×20 coverage grid, one bit per cell.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Grid {
    rows: [u32; GRID],
}

impl Grid {
    fn mark(&mut self, gx: usize, gy: usize) {
        if let Some(row) = self.rows.get_mut(gy.min(GRID - 1)) {
            *row |= 1 << gx.min(GRID - 1);
        }
    }

    /// Number of marked cells.
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    fn full(&self) -> bool {
        self.count() as usize == GRID * GRID
    }
}

/// Python's `int(f)` for a float: truncation, or the exception for NaN / infinity.
pub(crate) fn py_int(f: f64) -> Result<f64, PyException> {
    if f.is_nan() {
        return Err(PyException::new("ValueError", "cannot convert float NaN to integer".into()));
    }
    if f.is_infinite() {
        return Err(PyException::new(
            "OverflowError",
            "cannot convert float infinity to integer".into(),
        ));
    }
    Ok(libm::trunc(f))
}

/// Python's `min(a, b)` / `max(a, b)`: the second only if strictly smaller / larger.
fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

impl Ctx<'_> {
    fn cell(&self, grid: &mut Grid, cx: f64, cy: f64) {
        let (w, h) = (self.ui.width.v, self.ui.height.v);
        if (0.0..=w).contains(&cx) && (0.0..=h).contains(&cy) {
            grid.mark(cell_of(cx, w), cell_of(cy, h));
        }
    }

    /// `canvas_coverage`: bounding-box area of the in-canvas points seen while drawing, over the
    /// canvas area, Python-rounded to 4 places.
    pub fn bbox_coverage(&self) -> Result<f64, PyException> {
        let (w, h) = (self.ui.width.v, self.ui.height.v);
        let mut drawing = false;
        let mut bbox: Option<(f64, f64, f64, f64)> = None;
        for act in &self.a.list {
            match act.kind {
                Kind::MouseDown => drawing = true,
                Kind::MouseUp => drawing = false,
                _ => {}
            }
            if let (true, Some(x), Some(y)) = (drawing, act.x, act.y) {
                let cx = self.a.sub(x, self.ui.offset_x)?;
                let cy = self.a.sub(y, self.ui.offset_y)?;
                if (0.0..=w).contains(&cx) && (0.0..=h).contains(&cy) {
                    let b = bbox.get_or_insert((cx, cx, cy, cy));
                    *b = (b.0.min(cx), b.1.max(cx), b.2.min(cy), b.3.max(cy));
                }
            }
        }
        Ok(match bbox {
            None => 0.0,
            Some((x0, x1, y0, y1)) => pyfmt::round_python((x1 - x0) * (y1 - y0) / (w * h), 4),
        })
    }

    /// `canvas_coverage_accurate`: the replayed 20×20 grid (returns the marked-cell count).
    /// `trig` keeps the cos/sin of the 50 circle rays, computed at the first circle.
    pub fn grid_coverage(&self, trig: &mut Option<[(f64, f64); 50]>) -> Result<u32, PyException> {
        let list = &self.a.list;
        let mut grid = Grid::default();
        let mut drawing = false;
        let mut tool: &str = "pen";
        let mut down: Option<(Coord, Coord)> = None;
        let mut last = (Coord::Int(0), Coord::Int(0));
        for (i, act) in list.iter().enumerate() {
            if let (Some(x), Some(y)) = (act.x, act.y) {
                last = (x, y);
            }
            if act.kind == Kind::Click && act.has_xy() {
                let (x, y) = xy0(act);
                if let Some(t) = self.tool_at(x, y)? {
                    tool = self.ui.tools.get(t).map_or(tool, |b| b.key.as_str());
                }
            } else if act.kind == Kind::MoveTo {
                let (x, y) = xy0(act);
                if let Some(t) = self.tool_at(x, y)? {
                    if next_is_click(list, i) {
                        tool = self.ui.tools.get(t).map_or(tool, |b| b.key.as_str());
                    }
                }
            }
            match act.kind {
                Kind::MouseDown => {
                    drawing = true;
                    down = Some(match (act.x, act.y) {
                        (Some(x), Some(y)) => (x, y),
                        _ => last,
                    });
                }
                Kind::MouseUp => {
                    if let (true, Some(start)) = (drawing, down) {
                        if matches!(tool, "rectangle" | "circle" | "line") {
                            let end = match (act.x, act.y) {
                                (Some(x), Some(y)) => (x, y),
                                _ => last,
                            };
                            self.shape(&mut grid, trig, tool, start, end)?;
                        }
                    }
                    drawing = false;
                    down = None;
                }
                _ => {}
            }
            if drawing && matches!(tool, "pen" | "eraser") {
                if let (Some(x), Some(y)) = (act.x, act.y) {
                    let cx = self.a.sub(x, self.ui.offset_x)?;
                    let cy = self.a.sub(y, self.ui.offset_y)?;
                    self.cell(&mut grid, cx, cy);
                }
            }
        }
        Ok(grid.count())
    }

    fn shape(
        &self,
        grid: &mut Grid,
        trig: &mut Option<[(f64, f64); 50]>,
        tool: &str,
        (x1, y1): (Coord, Coord),
        (x2, y2): (Coord, Coord),
    ) -> Result<(), PyException> {
        let (ox, oy) = (self.ui.offset_x, self.ui.offset_y);
        let cx1 = self.a.sub(x1, ox)?;
        let cy1 = self.a.sub(y1, oy)?;
        let cx2 = self.a.sub(x2, ox)?;
        let cy2 = self.a.sub(y2, oy)?;
        let (w, h) = (self.ui.width.v, self.ui.height.v);
        let g = GRID as f64;
        match tool {
            "rectangle" => {
                let gx0 = py_int(py_min(cx1, cx2) / w * g)?.max(0.0);
                let gx1 = py_int(py_max(cx1, cx2) / w * g)?.min(g - 1.0);
                let gy0 = py_int(py_min(cy1, cy2) / h * g)?.max(0.0);
                let gy1 = py_int(py_max(cy1, cy2) / h * g)?.min(g - 1.0);
                let mut gx = gx0;
                while gx <= gx1 {
                    let mut gy = gy0;
                    while gy <= gy1 {
                        grid.mark(gx as usize, gy as usize);
                        gy += 1.0;
                    }
                    gx += 1.0;
                }
            }
            "circle" => {
                let radius = self.radius((x1, y1), (x2, y2), cx2 - cx1, cy2 - cy1)?;
                let n = py_int(radius / 20.0)? + 1.0;
                let rstep = radius / (n - 1.0);
                for &(c, s) in trig.get_or_insert_with(rays).iter() {
                    if grid.full() {
                        break;
                    }
                    let rho = |j: f64| {
                        if n <= 1.0 {
                            0.0 * radius
                        } else if j >= n - 1.0 {
                            radius
                        } else {
                            j * rstep
                        }
                    };
                    self.mark_range(grid, n, |j| (cx1 + rho(j) * c, cy1 + rho(j) * s));
                }
            }
            "line" => {
                let (dx, dy) = (cx2 - cx1, cy2 - cy1);
                let steps = py_int(py_max(libm::fabs(dx), libm::fabs(dy)))? + 1.0;
                let denom = (steps - 1.0).max(1.0);
                self.mark_range(grid, steps, |i| {
                    let t = i / denom;
                    (cx1 + t * dx, cy1 + t * dy)
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// `np.sqrt((cx2-cx1)**2 + (cy2-cy1)**2)` with Python's int/float rules: exact int squares
    /// (numpy cannot take the root of an int of 64 bits or more), and `OverflowError` when a
    /// float square overflows.
    fn radius(
        &self,
        (x1, y1): (Coord, Coord),
        (x2, y2): (Coord, Coord),
        dx: f64,
        dy: f64,
    ) -> Result<f64, PyException> {
        let small = |c: Coord| match c {
            Coord::Int(i) => Some(i128::from(i)),
            Coord::Bool(b) => Some(i128::from(b)),
            _ => None,
        };
        let ints = self.ui.offset_x.int && self.ui.offset_y.int;
        if let (true, Some(a), Some(b), Some(c), Some(d)) =
            (ints, small(x1), small(y1), small(x2), small(y2))
        {
            let sq = |v: i128| v.unsigned_abs().checked_mul(v.unsigned_abs());
            let sum = sq(c - a).zip(sq(d - b)).and_then(|(p, q)| p.checked_add(q));
            return match sum {
                Some(s) if s < (1u128 << 64) => Ok(libm::sqrt(s as f64)),
                _ => Err(PyException::new(
                    "TypeError",
                    "loop of ufunc does not support argument 0 of type int which has no callable \
                     sqrt method"
                        .into(),
                )),
            };
        }
        let square = |v: f64| {
            let s = v * v;
            if s.is_infinite() && v.is_finite() {
                Err(PyException::new(
                    "OverflowError",
                    "(34, 'Numerical result out of range')".into(),
                ))
            } else {
                Ok(s)
            }
        };
        Ok(libm::sqrt(square(dx)? + square(dy)?))
    }

    /// Marks the cells of samples `at(0..n)` that lie on the canvas. Each coordinate of `at` is
    /// monotone in the index, so the inside samples form one range (found by bisection) and the
    /// cell of a sample is monotone too: two samples in the same cell enclose only samples of
    /// that cell, so runs of one cell are skipped by galloping.
    fn mark_range(&self, grid: &mut Grid, n: f64, at: impl Fn(f64) -> (f64, f64)) {
        let (w, h) = (self.ui.width.v, self.ui.height.v);
        if n.is_nan() || n <= 0.0 {
            return;
        }
        let last = n - 1.0;
        let (x0, y0) = at(0.0);
        let (xn, yn) = at(last);
        let inside = |x: f64, y: f64| (0.0..=w).contains(&x) && (0.0..=h).contains(&y);
        // Both ends on the canvas: so is every sample between them (monotone coordinates).
        let (lo, end) = if inside(x0, y0) && inside(xn, yn) {
            (0.0, n)
        } else {
            let (lo_x, hi_x) = inside_range(n, x0 <= xn, w, |i| at(i).0);
            let (lo_y, hi_y) = inside_range(n, y0 <= yn, h, |i| at(i).1);
            (lo_x.max(lo_y), hi_x.min(hi_y))
        };
        if lo >= end {
            return;
        }
        let cell_at = |i: f64| {
            let (x, y) = at(i);
            (cell_of(x, w), cell_of(y, h))
        };
        // Few samples (a circle's rays): visit each, cheaper than galloping.
        if end - lo <= 64.0 {
            let mut i = lo;
            while i < end {
                let c = cell_at(i);
                grid.mark(c.0, c.1);
                i += 1.0;
            }
            return;
        }
        let mut i = lo;
        let mut c = cell_at(i);
        grid.mark(c.0, c.1);
        let mut stride = 1.0f64;
        // Each pass either moves to a new cell or doubles the stride: bounded by the cells the
        // range crosses times the bits of its length.
        for _ in 0..100_000 {
            let j = (i + stride).min(end - 1.0);
            if j <= i {
                break;
            }
            let cj = cell_at(j);
            if cj == c {
                i = j;
                stride *= 2.0;
                continue;
            }
            // The first index in (i, j] whose cell differs from c.
            let (mut a, mut b) = (i, j);
            while b - a > 1.0 {
                let mid = floor_index(a / 2.0 + b / 2.0);
                if mid <= a || mid >= b {
                    break;
                }
                if cell_at(mid) == c {
                    a = mid;
                } else {
                    b = mid;
                }
            }
            i = b;
            c = cell_at(i);
            grid.mark(c.0, c.1);
            stride = 1.0;
        }
    }
}

/// The grid cell of an on-canvas coordinate: `min(int(x / size * 20), 19)` (the cast
/// truncates like Python's `int()` in the range it is used on).
#[inline(always)]
fn cell_of(x: f64, size: f64) -> usize {
    ((x / size * GRID as f64) as usize).min(GRID - 1)
}

/// `floor` of a non-negative index (a cast below 2^53, where every integer is exact).
fn floor_index(v: f64) -> f64 {
    if v < 9.0e15 {
        (v as u64) as f64
    } else {
        libm::floor(v)
    }
}

/// cos/sin of `np.linspace(0, 2π, 50)`.
fn rays() -> [(f64, f64); 50] {
    let step = 2.0 * core::f64::consts::PI / 49.0;
    let mut out = [(0.0, 0.0); 50];
    for (k, slot) in out.iter_mut().enumerate() {
        let angle = if k == 49 { 2.0 * core::f64::consts::PI } else { k as f64 * step };
        *slot = (libm::cos(angle), libm::sin(angle));
    }
    out
}

/// The index range `[lo, hi)` of `0..n` where `0 <= f(i) <= limit`, for `f` monotone
/// (non-decreasing when `rising`).
fn inside_range(n: f64, rising: bool, limit: f64, f: impl Fn(f64) -> f64) -> (f64, f64) {
    if rising {
        (first(n, |i| f(i) >= 0.0), first(n, |i| f(i) > limit))
    } else {
        (first(n, |i| f(i) <= limit), first(n, |i| f(i) < 0.0))
    }
}

/// The first index in `0..n` where `pred` holds (`pred` false then true), or `n`.
fn first(n: f64, pred: impl Fn(f64) -> bool) -> f64 {
    let (mut lo, mut hi) = (0.0f64, n);
    for _ in 0..2200 {
        if lo >= hi {
            break;
        }
        let mid = floor_index(lo / 2.0 + hi / 2.0);
        if mid < lo || mid >= hi {
            return if pred(lo) { lo } else { hi };
        }
        if pred(mid) {
            hi = mid;
        } else {
            lo = mid + 1.0;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drawing::actions::Actions;
    use crate::drawing::ui::UiConfig;

    /// The reference's loops, sample by sample.
    fn naive(tool: &str, (cx1, cy1): (f64, f64), (cx2, cy2): (f64, f64)) -> u32 {
        let mut grid = Grid::default();
        let mut mark = |x: f64, y: f64| {
            if (0.0..=1000.0).contains(&x) && (0.0..=700.0).contains(&y) {
                grid.mark(cell_of(x, 1000.0), cell_of(y, 700.0));
            }
        };
        if tool == "line" {
            let steps = libm::trunc(libm::fabs(cx2 - cx1).max(libm::fabs(cy2 - cy1))) as u64 + 1;
            for i in 0..steps {
                let t = i as f64 / (steps.saturating_sub(1).max(1)) as f64;
                mark(cx1 + t * (cx2 - cx1), cy1 + t * (cy2 - cy1));
            }
        } else {
            let r = libm::sqrt((cx2 - cx1) * (cx2 - cx1) + (cy2 - cy1) * (cy2 - cy1));
            let n = libm::trunc(r / 20.0) as u64 + 1;
            for (c, s) in rays() {
                for j in 0..n {
                    let rho = if n == 1 {
                        0.0
                    } else if j == n - 1 {
                        r
                    } else {
                        j as f64 * (r / (n - 1) as f64)
                    };
                    mark(cx1 + rho * c, cy1 + rho * s);
                }
            }
        }
        grid.count()
    }

    #[test]
    fn galloping_marks_the_same_cells_as_every_sample() {
        let ui = UiConfig::drawingbench_default();
        let actions = Actions::default();
        let ctx = Ctx { a: &actions, ui: &ui };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |span: f64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 1_000_000) as f64 / 1_000_000.0 * span - span / 4.0
        };
        for k in 0..3000 {
            let span = if k % 3 == 0 { 4000.0 } else { 1400.0 };
            let a = (libm::round(rnd(span) * 4.0) / 4.0, libm::round(rnd(span)));
            let b = (rnd(span), libm::round(rnd(span) * 2.0) / 2.0);
            for tool in ["line", "circle"] {
                let mut grid = Grid::default();
                let mut trig = None;
                let c = |p: (f64, f64)| (Coord::Float(p.0 + 90.0), Coord::Float(p.1 + 70.0));
                ctx.shape(&mut grid, &mut trig, tool, c(a), c(b)).unwrap();
                assert_eq!(grid.count(), naive(tool, a, b), "{tool} {a:?} {b:?}");
            }
        }
    }
}
