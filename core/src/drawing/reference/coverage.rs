//! The two coverage metrics of the `drawingbench-1.0` profile: the bounding box of drawing
//! points (`canvas_coverage`, unscored) and the 20×20 cell grid (`canvas_coverage_accurate`,
//! scored) with the reference's per-tool rules: pen/eraser mark only the cells of their points,
//! a rectangle marks every cell of its box, a circle a 50-ray star of samples, a line one sample
//! per pixel step. How a sampled shape marks its cells exactly, in bounded time for any
//! coordinates, is in [`super::grid`].

use crate::drawing::actions::{Coord, Kind, PyException};
use crate::drawing::pyfmt;

use super::grid::{self, Approx, Canvas, Grid, DIRECT, GRID};
use super::scan::{next_is_click, xy0, Ctx};

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
    fn canvas(&self) -> Canvas {
        Canvas { w: self.ui.width.v, h: self.ui.height.v }
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
                // The hit test runs at every moveTo (it can raise); its result counts only
                // before a click.
                let (x, y) = xy0(act);
                if next_is_click(list, i) {
                    if let Some(t) = self.tool_at(x, y)? {
                        tool = self.ui.tools.get(t).map_or(tool, |b| b.key.as_str());
                    }
                } else {
                    self.check_tool_at(x, y)?;
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
                    self.canvas().mark(&mut grid, cx, cy);
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
                        grid.mark((gx as usize, gy as usize));
                        gy += 1.0;
                    }
                    gx += 1.0;
                }
            }
            "circle" => {
                let radius = self.radius((x1, y1), (x2, y2), cx2 - cx1, cy2 - cy1)?;
                let n = py_int(radius / 20.0)? + 1.0;
                let rstep = radius / (n - 1.0);
                let rho = |j: f64| {
                    if n <= 1.0 {
                        0.0 * radius
                    } else if j >= n - 1.0 {
                        radius
                    } else {
                        j * rstep
                    }
                };
                let rays = trig.get_or_insert_with(rays);
                if n <= DIRECT as f64 {
                    star(grid, self.canvas(), (cx1, cy1), rays, n as usize, rho);
                } else {
                    for &(c, s) in rays.iter() {
                        if grid.full() {
                            break;
                        }
                        let approx = Approx { x0: cx1, dx: rstep * c, y0: cy1, dy: rstep * s };
                        let at = |j: f64| (cx1 + rho(j) * c, cy1 + rho(j) * s);
                        grid::mark_samples(grid, self.canvas(), n, at, approx);
                    }
                }
            }
            "line" => {
                let (dx, dy) = (cx2 - cx1, cy2 - cy1);
                let steps = py_int(py_max(libm::fabs(dx), libm::fabs(dy)))? + 1.0;
                let denom = (steps - 1.0).max(1.0);
                let at = |i: f64| {
                    let t = i / denom;
                    (cx1 + t * dx, cy1 + t * dy)
                };
                let approx = Approx { x0: cx1, dx: dx / denom, y0: cy1, dy: dy / denom };
                grid::mark_samples(grid, self.canvas(), steps, at, approx);
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
}

/// A circle of `n <= DIRECT` samples per ray, sample by sample: the radii `rho(0..n)` are the
/// same on every ray. Sample 0 is the centre on every ray (`rho(0)` is +0, and adding
/// `±0·cos` to a finite coordinate leaves its value, or a zero's cell, unchanged), so it is
/// marked once.
fn star(
    grid: &mut Grid,
    canvas: Canvas,
    (cx, cy): (f64, f64),
    rays: &[(f64, f64); 50],
    n: usize,
    rho: impl Fn(f64) -> f64,
) {
    let mut radii = [0.0f64; DIRECT];
    for (j, r) in radii.iter_mut().enumerate().take(n) {
        *r = rho(j as f64);
    }
    let mut from = 0;
    if cx.is_finite() && cy.is_finite() && n > 0 {
        canvas.mark(grid, cx + radii[0] * rays[0].0, cy + radii[0] * rays[0].1);
        from = 1;
    }
    let Some(radii) = radii.get(from..n) else { return };
    if radii.is_empty() {
        return;
    }
    for &(c, s) in rays {
        for &r in radii {
            canvas.mark(grid, cx + r * c, cy + r * s);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drawing::actions::Actions;
    use crate::drawing::ui::{Num, UiConfig};

    const W: f64 = 1000.0;
    const H: f64 = 700.0;

    type Point = (f64, f64);

    /// The reference's marking of one sample, written out again.
    fn mark(grid: &mut Grid, (x, y): (f64, f64)) {
        if (0.0..=W).contains(&x) && (0.0..=H).contains(&y) {
            grid.mark((((x / W * 20.0) as usize).min(19), ((y / H * 20.0) as usize).min(19)));
        }
    }

    /// The line's sample count and sample `i` (gobo's float arithmetic, as in `shape`).
    fn line(a: (f64, f64), b: (f64, f64)) -> (f64, impl Fn(f64) -> (f64, f64)) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let steps = libm::trunc(libm::fabs(dx).max(libm::fabs(dy))) + 1.0;
        let denom = (steps - 1.0).max(1.0);
        (steps, move |i: f64| (a.0 + i / denom * dx, a.1 + i / denom * dy))
    }

    /// The circle's sample count per ray and sample `j` of the ray (c, s).
    fn circle(a: Point, b: Point) -> (f64, impl Fn(f64, Point) -> Point) {
        let r = libm::sqrt((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1));
        let n = libm::trunc(r / 20.0) + 1.0;
        let rho = move |j: f64| {
            if n == 1.0 {
                0.0
            } else if j >= n - 1.0 {
                r
            } else {
                j * (r / (n - 1.0))
            }
        };
        (n, move |j: f64, (c, s): (f64, f64)| (a.0 + rho(j) * c, a.1 + rho(j) * s))
    }

    /// The reference's loops, every sample.
    fn naive(tool: &str, a: (f64, f64), b: (f64, f64)) -> Grid {
        let mut grid = Grid::default();
        if tool == "line" {
            let (n, at) = line(a, b);
            for i in 0..n as u64 {
                mark(&mut grid, at(i as f64));
            }
        } else {
            let (n, at) = circle(a, b);
            for ray in rays() {
                for j in 0..n as u64 {
                    mark(&mut grid, at(j as f64, ray));
                }
            }
        }
        grid
    }

    /// The samples of indices `lo..=hi` (as `u64`, converted like Python's `float(i)`), after
    /// checking that every sample outside that window is off the canvas: the coordinates are
    /// monotone, so it is enough that the samples at `lo` and `hi` are beyond the canvas edge
    /// in the direction the run comes from / goes to (or are the run's ends).
    fn windowed(grid: &mut Grid, n: f64, lo: u64, hi: u64, at: impl Fn(f64) -> (f64, f64)) {
        let (first, last) = (at(0.0), at(n - 1.0));
        let (ddx, ddy) = (last.0 - first.0, last.1 - first.1);
        let before = |(x, y): (f64, f64)| {
            (ddx > 0.0 && x < 0.0)
                || (ddx < 0.0 && x > W)
                || (ddy > 0.0 && y < 0.0)
                || (ddy < 0.0 && y > H)
        };
        let after = |(x, y): (f64, f64)| {
            (ddx > 0.0 && x > W)
                || (ddx < 0.0 && x < 0.0)
                || (ddy > 0.0 && y > H)
                || (ddy < 0.0 && y < 0.0)
        };
        assert!(lo == 0 || before(at(lo as f64)), "window starts on the canvas side");
        assert!(hi as f64 >= n - 1.0 || after(at(hi as f64)), "window ends on the canvas side");
        for i in lo..=hi {
            if (i as f64) < n {
                mark(grid, at(i as f64));
            }
        }
    }

    fn fast(tool: &str, a: (f64, f64), b: (f64, f64)) -> Grid {
        // The canvas at the screen origin, so that canvas coordinates are the given ones.
        let ui = UiConfig {
            offset_x: Num::int(0),
            offset_y: Num::int(0),
            ..UiConfig::drawingbench_default()
        };
        assert_eq!((ui.width.v, ui.height.v), (W, H));
        let actions = Actions::default();
        let ctx = Ctx { a: &actions, ui: &ui };
        let mut grid = Grid::default();
        let c = |p: (f64, f64)| (Coord::Float(p.0), Coord::Float(p.1));
        ctx.shape(&mut grid, &mut None, tool, c(a), c(b)).unwrap();
        grid
    }

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// A coordinate in [-span/4, 3·span/4): on a cell edge, the canvas edge, an integer,
        /// a half or quarter, or any float.
        fn coord(&mut self, span: f64, cell: f64) -> f64 {
            let v = (self.next() % 1_000_000) as f64 / 1_000_000.0 * span - span / 4.0;
            match self.next() % 6 {
                0 => libm::round(v / cell) * cell,
                1 => [0.0, cell * 20.0, -0.0][(self.next() % 3) as usize],
                2 => libm::round(v),
                3 => libm::round(v * 4.0) / 4.0,
                4 => libm::round(v * 2.0) / 2.0,
                _ => v,
            }
        }

        fn point(&mut self, span: f64) -> (f64, f64) {
            (self.coord(span, 50.0), self.coord(span * 0.7, 35.0))
        }
    }

    #[test]
    fn shapes_mark_the_same_cells_as_every_sample() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for k in 0..6000 {
            let span = [1400.0, 4000.0, 12000.0][k % 3];
            let a = rng.point(span);
            // Some shapes of zero size, some axis-parallel, some along a cell edge.
            let b = match k % 10 {
                0 => a,
                1 => (a.0, rng.point(span).1),
                2 => (rng.point(span).0, a.1),
                _ => rng.point(span),
            };
            for tool in ["line", "circle"] {
                assert_eq!(fast(tool, a, b), naive(tool, a, b), "{tool} {a:?} {b:?}");
            }
        }
    }

    #[test]
    fn large_circles_mark_the_same_cells_as_every_sample() {
        // More than `DIRECT` samples per ray: the rays are searched, not visited.
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for k in 0..200 {
            let a = rng.point(3000.0);
            let r = [1300.0, 2500.0, 8000.0, 40_000.0][k % 4] + (rng.next() % 1000) as f64;
            let angle = (rng.next() % 6283) as f64 / 1000.0;
            let b = (a.0 + r * libm::cos(angle), a.1 + r * libm::sin(angle));
            assert_eq!(fast("circle", a, b), naive("circle", a, b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn huge_shapes_mark_the_same_cells_as_their_samples_on_the_canvas() {
        // Lines through the canvas from far away: up to 10^300 samples, beyond 2^53 (where
        // the indices are no longer consecutive floats) and beyond 2^64.
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for k in 0..400 {
            let far = [1e6, 1e12, 3e15, 2e16, 1e17, 1e19, 1e100, 1e300][k % 8];
            let through = rng.point(1400.0);
            let angle = (rng.next() % 6283) as f64 / 1000.0;
            let (c, s) = (libm::cos(angle), libm::sin(angle));
            let a = (through.0 - far * c, through.1 - far * s);
            let b = (through.0 + far * c * 0.5, through.1 + far * s * 0.5);
            let (n, at) = line(a, b);
            let mut want = Grid::default();
            if n < 1.8e19 {
                // The window of indices where the line passes the canvas, with a margin.
                let denom = (n - 1.0).max(1.0);
                let (dx, dy) = ((b.0 - a.0) / denom, (b.1 - a.1) / denom);
                let span = |p: f64, d: f64, size: f64| {
                    let (u, v) = ((-60.0 - p) / d, (size + 60.0 - p) / d);
                    (u.min(v), u.max(v))
                };
                let (x0, x1) = span(a.0, dx, W);
                let (y0, y1) = span(a.1, dy, H);
                // Past 2^53 consecutive indices are more than one apart: widen by a few.
                let (lo, hi) = (x0.max(y0), x1.min(y1));
                let (lo, hi) = (lo - lo.abs() * 1e-15, hi + hi.abs() * 1e-15);
                let (lo, hi) = (lo.max(0.0), hi.min(n - 1.0));
                if lo <= hi {
                    windowed(&mut want, n, lo as u64, hi as u64, &at);
                }
                assert_eq!(fast("line", a, b), want, "line {a:?} {b:?} ({n} samples)");
            } else {
                // Past u64 indices: at least no hang, no panic, and cells only on the way.
                let got = fast("line", a, b);
                assert!(got.count() <= 39, "{a:?} {b:?}");
            }
        }
        // A circle so large that its rays have more than 2^53 samples, centred left of the
        // canvas: ray 0 (angle 0) crosses it near its end.
        for r in [1.5e16, 2e17, 3e18] {
            for y in [0.0, 17.5, 350.0, 700.0] {
                let a = (-r + 480.0, y);
                let b = (a.0 + r, y);
                let (n, at) = circle(a, b);
                let mut want = Grid::default();
                let ray = rays()[0];
                let step = r / (n - 1.0);
                let lo = ((-a.0 - 100.0) / step * (1.0 - 1e-15)) as u64;
                windowed(&mut want, n, lo, (n - 1.0) as u64, |j| at(j, ray));
                // Ray 49 (angle 2π) has sin = -2.4e-16: y moves by r·2.4e-16 along it.
                let ray = rays()[49];
                windowed(&mut want, n, lo, (n - 1.0) as u64, |j| at(j, ray));
                assert_eq!(fast("circle", a, b), want, "circle {a:?} {b:?}");
            }
        }
    }
}
