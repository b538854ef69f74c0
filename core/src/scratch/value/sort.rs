//! JavaScript's `Array.prototype.sort` as V8 runs it (the TimSort of `third_party/v8/builtins/
//! array-sort.tq`: runs of at least `minrun` made by binary insertion, merged with galloping),
//! for comparators that are not consistent orders.
//!
//! With a consistent comparator every stable sort gives the same answer, but scratch-vm sorts
//! with comparators that return `NaN` (`a.targetPaneOrder - b.targetPaneOrder` when the stage
//! has no pane order), and then the exact sequence of comparisons decides the result. As the
//! specification's `SortCompare` says, a `NaN` result counts as `+0` (equal).

use alloc::vec::Vec;

/// Number of consecutive wins after which a merge switches to galloping (`kMinGallopWins`).
const MIN_GALLOP: usize = 7;

/// Sorts `items` in place exactly as V8's `Array.prototype.sort(cmp)` would, where `cmp(a, b)`
/// is the JavaScript comparator's number result.
pub fn js_sort<T: Clone>(items: &mut [T], mut cmp: impl FnMut(&T, &T) -> f64) {
    let cmp = move |a: &T, b: &T| {
        let v = cmp(a, b);
        if v.is_nan() {
            0.0
        } else {
            v
        }
    };
    let mut s = State { cmp, min_gallop: MIN_GALLOP, runs: Vec::new() };
    let len = items.len();
    if len < 2 {
        return;
    }
    let mut remaining = len;
    let mut low = 0;
    let min_run = min_run_length(remaining);
    while remaining != 0 {
        let mut run = s.count_and_make_run(items, low, low + remaining);
        if run < min_run {
            let forced = min_run.min(remaining);
            s.binary_insertion_sort(items, low, low + run, low + forced);
            run = forced;
        }
        s.runs.push((low, run));
        s.merge_collapse(items);
        low += run;
        remaining -= run;
    }
    s.merge_force_collapse(items);
}

fn min_run_length(mut n: usize) -> usize {
    let mut r = 0;
    while n >= 64 {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

struct State<F> {
    cmp: F,
    min_gallop: usize,
    /// Pending runs: (base, length). The comparator never returns `NaN` (it is mapped to 0),
    /// so `r >= 0.0` is exactly "not less".
    runs: Vec<(usize, usize)>,
}

impl<F> State<F> {
    fn less<T>(&mut self, a: &T, b: &T) -> bool
    where
        F: FnMut(&T, &T) -> f64,
    {
        (self.cmp)(a, b) < 0.0
    }

    fn count_and_make_run<T: Clone>(&mut self, a: &mut [T], low_arg: usize, high: usize) -> usize
    where
        F: FnMut(&T, &T) -> f64,
    {
        let low = low_arg + 1;
        if low == high {
            return 1;
        }
        let mut run = 2;
        let descending = self.less(&a[low], &a[low - 1]);
        let mut prev = low;
        for idx in low + 1..high {
            let order = (self.cmp)(&a[idx], &a[prev]);
            let stop = if descending { order >= 0.0 } else { order < 0.0 };
            if stop {
                break;
            }
            prev = idx;
            run += 1;
        }
        if descending {
            a[low_arg..low_arg + run].reverse();
        }
        run
    }

    fn binary_insertion_sort<T: Clone>(
        &mut self,
        a: &mut [T],
        low: usize,
        start: usize,
        high: usize,
    ) where
        F: FnMut(&T, &T) -> f64,
    {
        let mut start = if low == start { start + 1 } else { start };
        while start < high {
            let (mut left, mut right) = (low, start);
            let pivot = a[start].clone();
            while left < right {
                let mid = left + ((right - left) >> 1);
                if self.less(&pivot, &a[mid]) {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            a[left..=start].rotate_right(1);
            start += 1;
        }
    }

    fn len(&self, n: usize) -> usize {
        self.runs[n].1
    }

    fn invariant(&self, n: usize) -> bool {
        if n < 2 {
            return true;
        }
        self.len(n - 2) > self.len(n - 1) + self.len(n)
    }

    fn merge_collapse<T: Clone>(&mut self, a: &mut [T])
    where
        F: FnMut(&T, &T) -> f64,
    {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            if !self.invariant(n + 1) || !self.invariant(n) {
                if self.len(n - 1) < self.len(n + 1) {
                    n -= 1;
                }
                self.merge_at(a, n);
            } else if self.len(n) <= self.len(n + 1) {
                self.merge_at(a, n);
            } else {
                break;
            }
        }
    }

    fn merge_force_collapse<T: Clone>(&mut self, a: &mut [T])
    where
        F: FnMut(&T, &T) -> f64,
    {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            if n > 0 && self.len(n - 1) < self.len(n + 1) {
                n -= 1;
            }
            self.merge_at(a, n);
        }
    }

    fn merge_at<T: Clone>(&mut self, a: &mut [T], i: usize)
    where
        F: FnMut(&T, &T) -> f64,
    {
        let (mut base_a, mut len_a) = self.runs[i];
        let (base_b, mut len_b) = self.runs[i + 1];
        self.runs[i].1 = len_a + len_b;
        self.runs.remove(i + 1);
        let key_right = a[base_b].clone();
        let k = gallop_right(&mut self.cmp, a, &key_right, base_a, len_a, 0);
        base_a += k;
        len_a -= k;
        if len_a == 0 {
            return;
        }
        let key_left = a[base_a + len_a - 1].clone();
        len_b = gallop_left(&mut self.cmp, a, &key_left, base_b, len_b, len_b - 1);
        if len_b == 0 {
            return;
        }
        if len_a <= len_b {
            self.merge_low(a, base_a, len_a, base_b, len_b);
        } else {
            self.merge_high(a, base_a, len_a, base_b, len_b);
        }
    }

    fn merge_low<T: Clone>(
        &mut self,
        a: &mut [T],
        base_a: usize,
        mut len_a: usize,
        base_b: usize,
        mut len_b: usize,
    ) where
        F: FnMut(&T, &T) -> f64,
    {
        let temp: Vec<T> = a[base_a..base_a + len_a].to_vec();
        let (mut dest, mut ct, mut cb) = (base_a, 0, base_b);
        a[dest] = a[cb].clone();
        dest += 1;
        cb += 1;
        // Ends: `Succeed` copies the rest of A; `CopyB` moves B down and puts A's last after it.
        let copy_b = 'merge: {
            len_b -= 1;
            if len_b == 0 {
                break 'merge false;
            }
            if len_a == 1 {
                break 'merge true;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut wins_a, mut wins_b) = (0, 0);
                loop {
                    if self.less(&a[cb], &temp[ct]) {
                        a[dest] = a[cb].clone();
                        dest += 1;
                        cb += 1;
                        wins_b += 1;
                        len_b -= 1;
                        wins_a = 0;
                        if len_b == 0 {
                            break 'merge false;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    } else {
                        a[dest] = temp[ct].clone();
                        dest += 1;
                        ct += 1;
                        wins_a += 1;
                        len_a -= 1;
                        wins_b = 0;
                        if len_a == 1 {
                            break 'merge true;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    let key = a[cb].clone();
                    wins_a = gallop_right(&mut self.cmp, &temp, &key, ct, len_a, 0);
                    if wins_a > 0 {
                        a[dest..dest + wins_a].clone_from_slice(&temp[ct..ct + wins_a]);
                        dest += wins_a;
                        ct += wins_a;
                        len_a -= wins_a;
                        if len_a == 1 {
                            break 'merge true;
                        }
                        if len_a == 0 {
                            break 'merge false;
                        }
                    }
                    a[dest] = a[cb].clone();
                    dest += 1;
                    cb += 1;
                    len_b -= 1;
                    if len_b == 0 {
                        break 'merge false;
                    }
                    let key = temp[ct].clone();
                    wins_b = gallop_left(&mut self.cmp, a, &key, cb, len_b, 0);
                    if wins_b > 0 {
                        for k in 0..wins_b {
                            a[dest + k] = a[cb + k].clone();
                        }
                        dest += wins_b;
                        cb += wins_b;
                        len_b -= wins_b;
                        if len_b == 0 {
                            break 'merge false;
                        }
                    }
                    a[dest] = temp[ct].clone();
                    dest += 1;
                    ct += 1;
                    len_a -= 1;
                    if len_a == 1 {
                        break 'merge true;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        if copy_b {
            for k in 0..len_b {
                a[dest + k] = a[cb + k].clone();
            }
            a[dest + len_b] = temp[ct].clone();
        } else if len_a > 0 {
            a[dest..dest + len_a].clone_from_slice(&temp[ct..ct + len_a]);
        }
    }

    fn merge_high<T: Clone>(
        &mut self,
        a: &mut [T],
        base_a: usize,
        mut len_a: usize,
        base_b: usize,
        mut len_b: usize,
    ) where
        F: FnMut(&T, &T) -> f64,
    {
        let temp: Vec<T> = a[base_b..base_b + len_b].to_vec();
        // Cursors may step one below their base, so they are kept as signed offsets.
        let mut dest = (base_b + len_b - 1) as isize;
        let mut ct = len_b as isize - 1;
        let mut ca = (base_a + len_a - 1) as isize;
        let at = |i: isize| i as usize;
        a[at(dest)] = a[at(ca)].clone();
        dest -= 1;
        ca -= 1;
        // Ends: `Succeed` copies the rest of B; `CopyA` moves A up and puts B's first before it.
        let copy_a = 'merge: {
            len_a -= 1;
            if len_a == 0 {
                break 'merge false;
            }
            if len_b == 1 {
                break 'merge true;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut wins_a, mut wins_b) = (0, 0);
                loop {
                    if self.less(&temp[at(ct)], &a[at(ca)]) {
                        a[at(dest)] = a[at(ca)].clone();
                        dest -= 1;
                        ca -= 1;
                        wins_a += 1;
                        len_a -= 1;
                        wins_b = 0;
                        if len_a == 0 {
                            break 'merge false;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    } else {
                        a[at(dest)] = temp[at(ct)].clone();
                        dest -= 1;
                        ct -= 1;
                        wins_b += 1;
                        len_b -= 1;
                        wins_a = 0;
                        if len_b == 1 {
                            break 'merge true;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    let key = temp[at(ct)].clone();
                    let k = gallop_right(&mut self.cmp, a, &key, base_a, len_a, len_a - 1);
                    wins_a = len_a - k;
                    if wins_a > 0 {
                        dest -= wins_a as isize;
                        ca -= wins_a as isize;
                        for k in (0..wins_a).rev() {
                            a[at(dest + 1) + k] = a[at(ca + 1) + k].clone();
                        }
                        len_a -= wins_a;
                        if len_a == 0 {
                            break 'merge false;
                        }
                    }
                    a[at(dest)] = temp[at(ct)].clone();
                    dest -= 1;
                    ct -= 1;
                    len_b -= 1;
                    if len_b == 1 {
                        break 'merge true;
                    }
                    let key = a[at(ca)].clone();
                    let k = gallop_left(&mut self.cmp, &temp, &key, 0, len_b, len_b - 1);
                    wins_b = len_b - k;
                    if wins_b > 0 {
                        dest -= wins_b as isize;
                        ct -= wins_b as isize;
                        a[at(dest + 1)..at(dest + 1) + wins_b]
                            .clone_from_slice(&temp[at(ct + 1)..at(ct + 1) + wins_b]);
                        len_b -= wins_b;
                        if len_b == 1 {
                            break 'merge true;
                        }
                        if len_b == 0 {
                            break 'merge false;
                        }
                    }
                    a[at(dest)] = a[at(ca)].clone();
                    dest -= 1;
                    ca -= 1;
                    len_a -= 1;
                    if len_a == 0 {
                        break 'merge false;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        if copy_a {
            dest -= len_a as isize;
            ca -= len_a as isize;
            for k in (0..len_a).rev() {
                a[at(dest + 1) + k] = a[at(ca + 1) + k].clone();
            }
            a[at(dest)] = temp[at(ct)].clone();
        } else if len_b > 0 {
            let to = at(dest - (len_b as isize - 1));
            a[to..to + len_b].clone_from_slice(&temp[..len_b]);
        }
    }
}

/// Where `key` goes in the sorted `run[base..base+len]`, left of any equal elements.
fn gallop_left<T>(
    cmp: &mut impl FnMut(&T, &T) -> f64,
    run: &[T],
    key: &T,
    base: usize,
    len: usize,
    hint: usize,
) -> usize {
    let (mut last, mut ofs) = (0usize, 1usize);
    if cmp(&run[base + hint], key) < 0.0 {
        let max = len - hint;
        while ofs < max {
            if cmp(&run[base + hint + ofs], key) >= 0.0 {
                break;
            }
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max);
        last += hint;
        ofs += hint;
    } else {
        let max = hint + 1;
        while ofs < max {
            if cmp(&run[base + hint - ofs], key) < 0.0 {
                break;
            }
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max);
        let tmp = last;
        // `hint - ofs` may be -1; it is only ever incremented before use.
        last = (hint + 1).wrapping_sub(ofs);
        ofs = hint - tmp;
        return binary_left(cmp, run, key, base, last, ofs);
    }
    binary_left(cmp, run, key, base, last + 1, ofs)
}

fn binary_left<T>(
    cmp: &mut impl FnMut(&T, &T) -> f64,
    run: &[T],
    key: &T,
    base: usize,
    mut lo: usize,
    mut hi: usize,
) -> usize {
    while lo < hi {
        let m = lo + ((hi - lo) >> 1);
        if cmp(&run[base + m], key) < 0.0 {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    hi
}

/// Where `key` goes in the sorted `run[base..base+len]`, right of any equal elements.
fn gallop_right<T>(
    cmp: &mut impl FnMut(&T, &T) -> f64,
    run: &[T],
    key: &T,
    base: usize,
    len: usize,
    hint: usize,
) -> usize {
    let (mut last, mut ofs) = (0usize, 1usize);
    if cmp(key, &run[base + hint]) < 0.0 {
        let max = hint + 1;
        while ofs < max {
            if cmp(key, &run[base + hint - ofs]) >= 0.0 {
                break;
            }
            last = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max);
        let tmp = last;
        last = (hint + 1).wrapping_sub(ofs);
        ofs = hint - tmp;
        return binary_right(cmp, run, key, base, last, ofs);
    }
    let max = len - hint;
    while ofs < max {
        if cmp(key, &run[base + hint + ofs]) < 0.0 {
            break;
        }
        last = ofs;
        ofs = (ofs << 1) + 1;
    }
    ofs = ofs.min(max);
    last += hint;
    ofs += hint;
    binary_right(cmp, run, key, base, last + 1, ofs)
}

fn binary_right<T>(
    cmp: &mut impl FnMut(&T, &T) -> f64,
    run: &[T],
    key: &T,
    base: usize,
    mut lo: usize,
    mut hi: usize,
) -> usize {
    while lo < hi {
        let m = lo + ((hi - lo) >> 1);
        if cmp(key, &run[base + m]) < 0.0 {
            hi = m;
        } else {
            lo = m + 1;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consistent_comparators_sort_stably() {
        let mut v: Vec<(i32, usize)> =
            (0..500usize).map(|i| (((i * 7919) % 37) as i32, i)).collect();
        let mut want = v.clone();
        want.sort_by_key(|p| p.0);
        js_sort(&mut v, |a, b| f64::from(a.0 - b.0));
        assert_eq!(v, want);
    }
}
