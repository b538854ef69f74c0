//! The 20×20 coverage grid and how a sampled shape marks it. A shape is a run of samples
//! `at(0..n)` whose coordinates are each monotone in the index (a line, a circle's ray); its
//! cells are those of every sample on the canvas. Short runs are visited sample by sample.
//! Long runs are searched for the indices where the cell changes: a straight-line estimate of
//! where the samples cross the next cell edge gives a first index to test, the exact sample
//! formula decides, and a gallop plus bisection from that index finds the change whatever the
//! estimate's error, so the cells are exactly those of the plain sampling. Indices are `f64`
//! (a line can have more than 2^53 samples); every integer-valued `f64` below `n` is a sample.

/// Cells per side.
pub(crate) const GRID: usize = 20;

/// Runs of at most this many samples are visited sample by sample.
pub(crate) const DIRECT: usize = 64;

/// Upper bound on the steps of one gallop or bisection (indices stay below 2^1024).
const STEPS: usize = 2200;

const FULL_ROW: u32 = (1 << GRID) - 1;

/// The 20×20 coverage grid, one bit per cell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Grid {
    rows: [u32; GRID],
}

impl Grid {
    /// Marks cell (gx, gy), clamped to the grid.
    pub fn mark(&mut self, (gx, gy): (usize, usize)) {
        if let Some(row) = self.rows.get_mut(gy.min(GRID - 1)) {
            *row |= 1 << gx.min(GRID - 1);
        }
    }

    /// Number of marked cells.
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Whether every cell is marked.
    pub fn full(&self) -> bool {
        self.rows.iter().all(|&r| r == FULL_ROW)
    }
}

/// The canvas the samples are tested and binned against (its width and height).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Canvas {
    pub w: f64,
    pub h: f64,
}

impl Canvas {
    /// `0 <= x <= w and 0 <= y <= h`.
    #[inline(always)]
    pub fn inside(self, x: f64, y: f64) -> bool {
        (0.0..=self.w).contains(&x) && (0.0..=self.h).contains(&y)
    }

    /// The cell of an on-canvas point: `(min(int(x / w * 20), 19), min(int(y / h * 20), 19))`.
    #[inline(always)]
    pub fn cell(self, x: f64, y: f64) -> (usize, usize) {
        (cell_of(x, self.w), cell_of(y, self.h))
    }

    /// Marks the cell of (x, y) if the point is on the canvas.
    #[inline(always)]
    pub fn mark(self, grid: &mut Grid, x: f64, y: f64) {
        if self.inside(x, y) {
            grid.mark(self.cell(x, y));
        }
    }
}

/// The grid cell of an on-canvas coordinate: `min(int(x / size * 20), 19)` (the cast
/// truncates like Python's `int()` in the range it is used on; `i32` is cheaper to convert to
/// than `usize`, and the clamp keeps any other input in the grid).
#[inline(always)]
fn cell_of(x: f64, size: f64) -> usize {
    ((x / size * GRID as f64) as i32).clamp(0, GRID as i32 - 1) as usize
}

/// Where sample `i` roughly lies: `(x0 + i·dx, y0 + i·dy)`. Only used to guess indices; the
/// guesses are always checked against the exact samples.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Approx {
    pub x0: f64,
    pub dx: f64,
    pub y0: f64,
    pub dy: f64,
}

impl Approx {
    /// The index where the samples are estimated to leave cell (gx, gy).
    fn next_edge(self, canvas: Canvas, (gx, gy): (usize, usize)) -> f64 {
        let g = GRID as f64;
        let ex = edge_index(self.x0, self.dx, gx, canvas.w / g);
        let ey = edge_index(self.y0, self.dy, gy, canvas.h / g);
        ex.min(ey)
    }
}

/// The index where `p0 + i·d` reaches the edge of cell `g` (of size `size`) it moves towards.
fn edge_index(p0: f64, d: f64, g: usize, size: f64) -> f64 {
    let edge = if d > 0.0 {
        (g + 1) as f64 * size
    } else if d < 0.0 {
        g as f64 * size
    } else {
        return f64::INFINITY;
    };
    (edge - p0) / d
}

/// Marks the cells of the samples `at(0..n)` that lie on the canvas. Each coordinate of `at`
/// is monotone in the index, so the samples on the canvas form one index range, and the cell
/// of a sample is monotone in each axis: it changes at most `2·(GRID − 1)` times, and a cell,
/// once left, never comes back.
pub(crate) fn mark_samples(
    grid: &mut Grid,
    canvas: Canvas,
    n: f64,
    at: impl Fn(f64) -> (f64, f64),
    approx: Approx,
) {
    if n.is_nan() || n <= 0.0 {
        return;
    }
    let (x0, y0) = at(0.0);
    let (xn, yn) = at(n - 1.0);
    // Both ends on the canvas: so is every sample between them (monotone coordinates).
    let (lo, end) = if canvas.inside(x0, y0) && canvas.inside(xn, yn) {
        (0.0, n)
    } else {
        let (lo_x, hi_x) = inside_range(n, x0 <= xn, canvas.w, |i| at(i).0, approx.x0, approx.dx);
        let (lo_y, hi_y) = inside_range(n, y0 <= yn, canvas.h, |i| at(i).1, approx.y0, approx.dy);
        (lo_x.max(lo_y), hi_x.min(hi_y))
    };
    if lo >= end {
        return;
    }
    let cell_at = |i: f64| {
        let (x, y) = at(i);
        canvas.cell(x, y)
    };
    if end - lo <= DIRECT as f64 {
        let mut i = lo;
        while i < end {
            grid.mark(cell_at(i));
            i = above(i);
        }
        return;
    }
    let mut i = lo;
    let mut c = cell_at(i);
    grid.mark(c);
    for _ in 0..2 * GRID {
        let guess = approx.next_edge(canvas, c);
        let j = first_after(i, end, guess, |k| cell_at(k) != c);
        if j >= end {
            break;
        }
        i = j;
        c = cell_at(i);
        grid.mark(c);
    }
}

/// The index range `[lo, hi)` of `0..n` where `0 <= f(i) <= limit`, for `f` monotone
/// (non-decreasing when `rising`) and roughly `p0 + i·d`.
fn inside_range(
    n: f64,
    rising: bool,
    limit: f64,
    f: impl Fn(f64) -> f64,
    p0: f64,
    d: f64,
) -> (f64, f64) {
    let (at_zero, at_limit) = ((0.0 - p0) / d, (limit - p0) / d);
    if rising {
        (first(n, at_zero, |i| f(i) >= 0.0), first(n, at_limit, |i| f(i) > limit))
    } else {
        (first(n, at_limit, |i| f(i) <= limit), first(n, at_zero, |i| f(i) < 0.0))
    }
}

/// The first index in `0..n` where `pred` holds (`pred` false then true), or `n`; `guess` is
/// an estimate of it.
fn first(n: f64, guess: f64, pred: impl Fn(f64) -> bool) -> f64 {
    if pred(0.0) {
        0.0
    } else {
        first_after(0.0, n, guess, pred)
    }
}

/// The first index in `(a, end)` where `pred` holds, or `end`, for `pred` false at `a` and
/// monotone (false then true). Tests the index at `guess` first, gallops away from it to
/// bracket the change, then bisects; a good guess costs two evaluations.
fn first_after(mut a: f64, end: f64, guess: f64, pred: impl Fn(f64) -> bool) -> f64 {
    let last = below(end);
    if last.is_nan() || a >= last {
        return end;
    }
    let mut e = libm::ceil(guess);
    if e.is_nan() || e <= a {
        e = above(a);
    }
    if e > last {
        e = last;
    }
    // Bracket: pred(a) is false and pred(b) true (or b = end: none found).
    let mut b = end;
    let mut step = 1.0f64;
    if pred(e) {
        b = e;
        for _ in 0..STEPS {
            let m = b - step;
            if m <= a {
                break;
            }
            step *= 2.0;
            if m >= b {
                continue;
            }
            if pred(m) {
                b = m;
            } else {
                a = m;
                break;
            }
        }
    } else {
        a = e;
        for _ in 0..STEPS {
            if a >= last {
                return end;
            }
            let m = (a + step).min(last);
            step *= 2.0;
            if m <= a {
                continue;
            }
            if pred(m) {
                b = m;
                break;
            }
            a = m;
        }
    }
    for _ in 0..STEPS {
        let mid = floor_index(a / 2.0 + b / 2.0);
        if mid <= a || mid >= b {
            break;
        }
        if pred(mid) {
            b = mid;
        } else {
            a = mid;
        }
    }
    b
}

/// The next index after `i` (`i + 1`, or the next `f64` where `i + 1` rounds back to `i`).
fn above(i: f64) -> f64 {
    let next = i + 1.0;
    if next > i {
        next
    } else {
        i.next_up()
    }
}

/// The last index before `end` (`end - 1`, or the previous `f64` where that rounds to `end`).
fn below(end: f64) -> f64 {
    let prev = end - 1.0;
    if prev < end {
        prev
    } else {
        end.next_down()
    }
}

/// `floor` of a non-negative index (a cast below 2^53, where every integer is exact).
fn floor_index(v: f64) -> f64 {
    if v < 9.0e15 {
        (v as u64) as f64
    } else {
        libm::floor(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;

    /// `first_after` on `i >= k` against the answer, from any guess, with the number of
    /// evaluations: two when the guess is right.
    #[test]
    fn first_after_finds_the_change_from_any_guess() {
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..20_000 {
            let scale = [1.0, 1e3, 1e15, 9.1e15, 2e16, 1e19, 1e200, 1e307][case % 8];
            let unit = (rnd() % 1_000_000) as f64 / 1_000_000.0;
            let a = libm::floor(unit * scale);
            let span = [3.0, 70.0, 1e6, scale][(rnd() % 4) as usize];
            let end = libm::floor(a + 2.0 + (rnd() % 1000) as f64 / 1000.0 * span);
            let end = end.max(above(above(a)));
            // The change: any index in (a, end), or none (k = end).
            let k = if rnd() % 5 == 0 {
                end
            } else {
                let k = libm::floor(a + 1.0 + (rnd() % 1000) as f64 / 1000.0 * (end - a));
                k.min(end - 1.0).max(above(a)).min(end)
            };
            let guess = match rnd() % 6 {
                0 => k,
                1 => k + (rnd() % 7) as f64 - 3.0,
                2 => f64::NAN,
                3 => f64::INFINITY,
                4 => -1e300,
                _ => a + (rnd() % 1000) as f64 / 1000.0 * (end - a) * 2.0,
            };
            let calls = Cell::new(0u32);
            let got = first_after(a, end, guess, |i| {
                calls.set(calls.get() + 1);
                assert!(i > a && i < end, "evaluated outside ({a}, {end}): {i}");
                i >= k
            });
            // With k = end (no change) the answer is end; otherwise the first index >= k.
            assert_eq!(got, k, "a {a} end {end} guess {guess}");
            if guess == k && k < end - 1.0 && above(k) > k && k - 1.0 > a {
                assert!(calls.get() <= 2, "{} evaluations for a right guess", calls.get());
            }
        }
    }

    #[test]
    fn above_and_below_are_the_neighbouring_indices() {
        assert_eq!(below(1.0), 0.0);
        assert_eq!(below(9_007_199_254_740_994.0), 9_007_199_254_740_992.0);
        assert_eq!(below(1e300), 1e300f64.next_down());
        assert_eq!(above(0.0), 1.0);
        assert_eq!(above(9_007_199_254_740_991.0), 9_007_199_254_740_992.0);
        assert_eq!(above(9_007_199_254_740_992.0), 9_007_199_254_740_994.0);
        assert_eq!(above(1e300), 1e300f64.next_up());
    }

    #[test]
    fn a_full_grid_is_full() {
        let mut grid = Grid::default();
        for gy in 0..GRID {
            for gx in 0..GRID {
                assert!(!grid.full());
                grid.mark((gx, gy));
            }
        }
        assert!(grid.full());
        assert_eq!(grid.count(), 400);
    }
}
