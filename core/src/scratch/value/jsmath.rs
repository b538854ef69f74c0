//! `Math.sin`, `Math.cos` and `Math.atan2` as the browser computes them. Chromium's V8 is built with
//! `v8_use_libm_trig_functions`, i.e. glibc's sin/cos, which return the correctly rounded
//! result; `libm` (musl/fdlibm kernels) is off by one ulp for some arguments, which moves a
//! sprite by 1 ulp and changes traces. Here the argument is reduced by π/2 in double-double
//! arithmetic (π/2 to 159 bits) and the Taylor series is summed in double-double, so the
//! rounded result is the correctly rounded one except within 2^-100 of a rounding midpoint.
//! Arguments past 2^30 fall back to `libm`. The common case takes a faster road to the same
//! result: a three-part reduction for `|x| < 2^20` and a table of `sin`/`cos(k/64)` with a
//! short correction, both with error bounds that send any argument whose rounding is in doubt
//! (≈ 0.1 %) down the full path. `atan2` refines `libm`'s result by one Newton
//! step on `y·cos a − x·sin a = 0` in double-double, which also gives the correctly rounded
//! angle (Chromium's `Math.atan2` agrees with it where fdlibm's is 1 ulp off).

/// A double-double: `hi + lo` with `|lo| ≤ ulp(hi) / 2`.
#[derive(Clone, Copy)]
struct Dd {
    hi: f64,
    lo: f64,
}

#[inline]
const fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd { hi: s, lo: (a - (s - bb)) + (b - bb) }
}

#[inline]
const fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd { hi: s, lo: b - (s - a) }
}

#[inline]
const fn split(a: f64) -> (f64, f64) {
    let t = 134_217_729.0 * a; // 2^27 + 1
    let hi = t - (t - a);
    (hi, a - hi)
}

#[inline]
const fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    Dd { hi: p, lo: ((ah * bh - p) + ah * bl + al * bh) + al * bl }
}

#[inline]
const fn add(a: Dd, b: Dd) -> Dd {
    let s = two_sum(a.hi, b.hi);
    let t = two_sum(a.lo, b.lo);
    let s = quick_two_sum(s.hi, s.lo + t.hi);
    quick_two_sum(s.hi, s.lo + t.lo)
}

#[inline]
const fn mul(a: Dd, b: Dd) -> Dd {
    let p = two_prod(a.hi, b.hi);
    quick_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi))
}

#[inline]
const fn div_f(a: Dd, d: f64) -> Dd {
    let q1 = a.hi / d;
    let p = two_prod(q1, d);
    let s = two_sum(a.hi, -p.hi);
    let q2 = (s.hi + (s.lo - p.lo + a.lo)) / d;
    quick_two_sum(q1, q2)
}

/// π/2 as three doubles (159 bits).
const PIO2: [f64; 3] =
    [core::f64::consts::FRAC_PI_2, 6.123_233_995_736_766e-17, -1.497_384_904_859_169_8e-33];
const TWO_OVER_PI: f64 = core::f64::consts::FRAC_2_PI;

/// `x - n·π/2` in double-double and the quadrant `n mod 4`.
fn reduce(x: f64) -> (Dd, i64) {
    let n = libm::round(x * TWO_OVER_PI);
    let mut r = Dd { hi: x, lo: 0.0 };
    for p in PIO2 {
        let q = two_prod(n, p);
        r = add(r, Dd { hi: -q.hi, lo: -q.lo });
    }
    (r, (n as i64).rem_euclid(4))
}

/// Below this `|x|` [`reduce_fast`] applies: `n = round(x·2/π)` has at most 20 bits.
const FAST_REDUCE_MAX: f64 = 1_048_576.0;
/// π/2 split into three doubles, the first two of 33 significant bits, so that `n·P1` and
/// `n·P2` are exact for `|n| < 2^20`; `P1 + P2 + P3` is π/2 within 2^-118.
const P1: f64 = f64::from_bits(PIO2[0].to_bits() & !0xF_FFFF);
const P_REST: Dd = add(Dd { hi: PIO2[0] - P1, lo: 0.0 }, Dd { hi: PIO2[1], lo: PIO2[2] });
const P2: f64 = f64::from_bits(P_REST.hi.to_bits() & !0xF_FFFF);
const P3: f64 = (P_REST.hi - P2) + P_REST.lo;

/// [`reduce`] for `|x| < 2^20` (Cody and Waite's three-part reduction): `x - n·P1` and
/// `n·P2` are exact, `n·P3` is rounded, so `r` is within 2^-97 of `x - n·π/2` (absolute).
/// Only for the table path, which needs `|r| ≥ 1/128` and tolerates far more error.
fn reduce_fast(x: f64) -> (Dd, i64) {
    // round to nearest by the 1.5·2^52 trick (|x·2/π| < 2^51)
    const SHIFT: f64 = 6_755_399_441_055_744.0;
    let n = (x * TWO_OVER_PI + SHIFT) - SHIFT;
    let t = x - n * P1;
    let s = two_sum(t, -(n * P2));
    (quick_two_sum(s.hi, s.lo - n * P3), (n as i64) & 3)
}

/// sin and cos of a reduced argument (|r| ≤ π/4 + a little) by their Taylor series.
const fn sin_cos_dd(r: Dd) -> (Dd, Dd) {
    let r2 = mul(r, r);
    let mut s = r;
    let mut term = r;
    let mut k = 1.0;
    let mut i = 0;
    while i < 14 {
        term = div_f(mul(term, r2), -((k + 1.0) * (k + 2.0)));
        s = add(s, term);
        k += 2.0;
        i += 1;
    }
    let mut c = Dd { hi: 1.0, lo: 0.0 };
    let mut term = c;
    let mut k = 0.0;
    let mut i = 0;
    while i < 14 {
        term = div_f(mul(term, r2), -((k + 1.0) * (k + 2.0)));
        c = add(c, term);
        k += 2.0;
        i += 1;
    }
    (s, c)
}

/// Taylor coefficients `(-1)^j / k!` for the series tails, `k = first, first + 2, ...`, with
/// the sign of the `first` term negative (as both tails below start).
const fn tail(first: u32) -> [f64; 11] {
    let mut c = [0.0; 11];
    let mut f = 1.0;
    let mut k = 1;
    while k <= first {
        f *= k as f64;
        k += 1;
    }
    let mut sign = -1.0;
    let mut i = 0;
    while i < 11 {
        c[i] = sign / f;
        f *= (k as f64) * ((k + 1) as f64);
        k += 2;
        sign = -sign;
        i += 1;
    }
    c
}

/// Sine tail from `r^7`, cosine tail from `r^6`, to `r^27` and `r^26` (past 2^-100).
const SIN_TAIL: [f64; 11] = tail(7);
const COS_TAIL: [f64; 11] = tail(6);

fn horner(c: &[f64; 11], z: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * z + k)
}

fn neg(d: Dd) -> Dd {
    Dd { hi: -d.hi, lo: -d.lo }
}

/// The double that every value in `hi + lo ± err` rounds to, if there is one.
fn rounded(s: Dd, err: f64) -> Option<f64> {
    let a = s.hi + (s.lo - err);
    let b = s.hi + (s.lo + err);
    (a == b).then_some(a)
}

/// The fast path (Ziv's strategy): the leading terms in double-double, the tail in double
/// with an error bound (its relative error is below 2^-50; the bound allows 2^-47.8, plus
/// 2^-95 of the result for the double-double part). Where the bound leaves the rounding in
/// doubt (about 0.3 % of arguments) it answers `None` and [`sin_cos_dd`] decides; elsewhere
/// it returns the same correctly rounded result, ~7 times faster.
fn sin_cos_quick(r: Dd) -> Option<(f64, f64)> {
    const SIXTH: Dd = Dd { hi: 0.166_666_666_666_666_66, lo: 9.251_858_538_542_97e-18 };
    const ONE_120: Dd = Dd { hi: 0.008_333_333_333_333_333, lo: 1.156_482_317_317_871_4e-19 };
    const ONE_24: Dd = Dd { hi: 0.041_666_666_666_666_664, lo: 2.312_964_634_635_742_7e-18 };
    let r2 = mul(r, r);
    let z = r2.hi;
    // sine: r - r^3/6 + r^5/120 in double-double, then r^7 * tail(r^2)
    let r3 = mul(r, r2);
    let r5 = mul(r3, r2);
    let lead = add(r, add(mul(r5, ONE_120), neg(mul(r3, SIXTH))));
    let st = r5.hi * z * horner(&SIN_TAIL, z);
    let s = add(lead, Dd { hi: st, lo: 0.0 });
    let s = rounded(s, libm::fabs(st) * 4.0e-15 + libm::fabs(s.hi) * 2.5e-29)?;
    // cosine: 1 - r^2/2 + r^4/24 in double-double, then r^6 * tail(r^2)
    let r4 = mul(r2, r2);
    let half = Dd { hi: r2.hi * 0.5, lo: r2.lo * 0.5 };
    let lead = add(Dd { hi: 1.0, lo: 0.0 }, add(mul(r4, ONE_24), neg(half)));
    let ct = r4.hi * z * horner(&COS_TAIL, z);
    let c = add(lead, Dd { hi: ct, lo: 0.0 });
    let c = rounded(c, libm::fabs(ct) * 4.0e-15 + libm::fabs(c.hi) * 2.5e-29)?;
    Some((s, c))
}

/// Table steps per radian: the table holds `sin` and `cos` of `k / STEPS`.
const STEPS: f64 = 64.0;
/// Table rows: `k = 0..=52` covers reduced arguments up to 52.5 / 64 > π/4.
const ROWS: usize = 53;

/// `(sin(k / 64), cos(k / 64))` in double-double, summed by the full series at compile time
/// (relative error below 2^-100).
const TABLE: [(Dd, Dd); ROWS] = {
    let mut t = [(Dd { hi: 0.0, lo: 0.0 }, Dd { hi: 1.0, lo: 0.0 }); ROWS];
    let mut k = 1;
    while k < ROWS {
        let (s, c) = sin_cos_dd(Dd { hi: k as f64 / STEPS, lo: 0.0 });
        t[k] = (quick_two_sum(s.hi, s.lo), quick_two_sum(c.hi, c.lo));
        k += 1;
    }
    t
};

/// Absolute error bound of [`sin_cos_table`]'s sums: the rounding errors of the terms below
/// the two exact products are below 2^-72 in total (the largest, `cos a · (sin h - h)`, is
/// ≈ 2^-23.6 with a relative error below 2^-51); 2^-69 leaves a margin of 8.
const TABLE_ERR: f64 = 1.694_065_894_508_600_7e-21; // 2^-69

/// The fast path for reduced arguments with `1/128 ≤ |r| ≤ 52.5/64`: `r = a + h` with
/// `a = k/64` from [`TABLE`] and `|h| ≤ 1/128`, then `sin r = sin a + cos a·h + sin a·(cos h - 1)
/// + cos a·(sin h - h)` (and `cos r` likewise), the two leading products exact (`two_prod`),
/// the small terms in double. Answers `None` where the error bound leaves the rounding in
/// doubt (well under 1 % of arguments, more for the smallest `a`) or `r` is outside the
/// table; elsewhere the same correctly rounded result as [`sin_cos_dd`], several times faster.
fn sin_cos_table(r: Dd) -> Option<(f64, f64)> {
    let negative = r.hi < 0.0;
    let (rh, hl) = if negative { (-r.hi, -r.lo) } else { (r.hi, r.lo) };
    let k = (rh * STEPS + 0.5) as usize;
    if k == 0 {
        return None;
    }
    let (sa, ca) = *TABLE.get(k)?;
    // exact: both are multiples of ulp(rh) and |hh| ≤ 1/128
    let hh = rh - k as f64 / STEPS;
    let z = two_prod(hh, hh);
    let zh = z.hi;
    // sin h - h (from h^3) and cos h - 1 beyond -hh²/2 (from the rest of h^2)
    let sin_rest =
        hh * zh * (-SIN_C[0] + zh * (SIN_C[1] + zh * (-SIN_C[2] + zh * SIN_C[3]))) - 0.5 * zh * hl;
    let cos_rest = -0.5 * z.lo - hh * hl + zh * zh * (COS_C[0] + zh * (-COS_C[1] + zh * COS_C[2]));
    let half = -0.5 * zh;
    // sin r = sin a + cos a·hh + sin a·half + the small terms
    let p = two_prod(ca.hi, hh);
    let q = two_prod(sa.hi, half);
    let s1 = two_sum(sa.hi, p.hi);
    let s2 = two_sum(s1.hi, q.hi);
    let small = sa.lo
        + p.lo
        + q.lo
        + ca.lo * hh
        + ca.hi * hl
        + ca.hi * sin_rest
        + sa.hi * cos_rest
        + sa.lo * half;
    let s = rounded(Dd { hi: s2.hi, lo: s1.lo + s2.lo + small }, TABLE_ERR)?;
    // cos r = cos a - sin a·hh + cos a·half + the small terms
    let p = two_prod(sa.hi, hh);
    let q = two_prod(ca.hi, half);
    let c1 = two_sum(ca.hi, -p.hi);
    let c2 = two_sum(c1.hi, q.hi);
    let small = ca.lo - p.lo + q.lo - sa.lo * hh - sa.hi * hl - sa.hi * sin_rest
        + ca.hi * cos_rest
        + ca.lo * half;
    let c = rounded(Dd { hi: c2.hi, lo: c1.lo + c2.lo + small }, TABLE_ERR)?;
    Some(if negative { (-s, c) } else { (s, c) })
}

/// `1/3!, 1/5!, 1/7!, 1/9!` (the sine series after `h`).
const SIN_C: [f64; 4] = [1.0 / 6.0, 1.0 / 120.0, 1.0 / 5040.0, 1.0 / 362_880.0];
/// `1/4!, 1/6!, 1/8!` (the cosine series after `h²/2`).
const COS_C: [f64; 3] = [1.0 / 24.0, 1.0 / 720.0, 1.0 / 40320.0];

/// The common case: the fast reduction and the table, or `None`.
#[inline]
fn fast_sin_cos(x: f64) -> Option<((f64, f64), i64)> {
    if libm::fabs(x) >= FAST_REDUCE_MAX {
        return None;
    }
    let (r, q) = reduce_fast(x);
    Some((sin_cos_table(r)?, q))
}

fn sin_cos(x: f64) -> Option<(f64, f64)> {
    if !x.is_finite() {
        return Some((f64::NAN, f64::NAN));
    }
    if libm::fabs(x) > 1_073_741_824.0 {
        return None;
    }
    if x == 0.0 {
        return Some((x, 1.0));
    }
    let ((s, c), q) = fast_sin_cos(x).unwrap_or_else(|| {
        let (r, q) = reduce(x);
        let sc = sin_cos_table(r).or_else(|| sin_cos_quick(r)).unwrap_or_else(|| {
            let (s, c) = sin_cos_dd(r);
            (s.hi + s.lo, c.hi + c.lo)
        });
        (sc, q)
    });
    Some(match q {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    })
}

/// `(Math.sin(x), Math.cos(x))` from one evaluation (what [`sin`] and [`cos`] return).
pub fn sin_and_cos(x: f64) -> (f64, f64) {
    sin_cos(x).unwrap_or_else(|| (libm::sin(x), libm::cos(x)))
}

/// JavaScript's `Math.sin` as in Chromium (correctly rounded).
pub fn sin(x: f64) -> f64 {
    sin_cos(x).map_or_else(|| libm::sin(x), |v| v.0)
}

/// JavaScript's `Math.cos` as in Chromium (correctly rounded).
pub fn cos(x: f64) -> f64 {
    sin_cos(x).map_or_else(|| libm::cos(x), |v| v.1)
}

/// JavaScript's `Math.atan2` as in Chromium (correctly rounded).
pub fn atan2(y: f64, x: f64) -> f64 {
    let a0 = libm::atan2(y, x);
    if !(y.is_finite() && x.is_finite() && a0.is_finite()) || y == 0.0 || x == 0.0 || a0 == 0.0 {
        return a0;
    }
    let (r, q) = reduce(a0);
    let (s, c) = sin_cos_dd(r);
    let neg = |d: Dd| Dd { hi: -d.hi, lo: -d.lo };
    let (s, c) = match q {
        0 => (s, c),
        1 => (c, neg(s)),
        2 => (neg(s), neg(c)),
        _ => (neg(c), s),
    };
    let yd = Dd { hi: y, lo: 0.0 };
    let xd = Dd { hi: x, lo: 0.0 };
    let num = add(mul(yd, c), neg(mul(xd, s)));
    let den = add(mul(xd, c), mul(yd, s));
    let delta = num.hi / den.hi;
    let r = two_sum(a0, delta);
    r.hi + r.lo
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random arguments: directions as `move` and the transform use them (hundredths
    /// of a degree, and arbitrary doubles of degrees as bounces leave them), random bit
    /// patterns, uniform values up to ±1000 and up to ±0.82 (reduced as they are).
    fn arguments(n: usize) -> impl Iterator<Item = f64> {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        (0..n).filter_map(move |i| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let u = seed;
            let unit = u as f64 / u64::MAX as f64 - 0.5;
            let x = match i % 6 {
                0 => (90.0 - ((u % 36_000) as f64 / 100.0 - 180.0)) * core::f64::consts::PI / 180.0,
                1 => f64::from_bits(u),
                2 => unit * 2000.0,
                3 => ((u % 2001) as f64 - 1000.0) * core::f64::consts::PI / 180.0,
                4 => (270.0 - unit * 360.0) * core::f64::consts::PI / 180.0,
                _ => unit * 1.64,
            };
            (x.is_finite() && libm::fabs(x) <= 1_073_741_824.0 && x != 0.0).then_some(x)
        })
    }

    /// Runs a fast path over `n` arguments: wherever it answers it must give exactly the
    /// full series' result. Returns how many it answered and how many it was asked.
    fn check(path: fn(Dd) -> Option<(f64, f64)>, n: usize) -> (usize, usize) {
        let (mut answered, mut asked) = (0, 0);
        for x in arguments(n) {
            asked += 1;
            let (r, _) = reduce(x);
            let (s, c) = sin_cos_dd(r);
            if let Some((qs, qc)) = path(r) {
                answered += 1;
                assert_eq!(qs.to_bits(), (s.hi + s.lo).to_bits(), "sin, x = {x:e}");
                assert_eq!(qc.to_bits(), (c.hi + c.lo).to_bits(), "cos, x = {x:e}");
            }
        }
        (answered, asked)
    }

    /// The series fast path answers for nearly every argument, and correctly.
    #[test]
    fn quick_path_agrees_with_the_full_series() {
        let (answered, asked) = check(sin_cos_quick, 200_000);
        assert!(answered > asked * 99 / 100, "answered only {answered} of {asked}");
    }

    /// The table fast path answers for nearly every argument it covers (`|r| ≥ 1/128`; the
    /// random bit patterns are mostly tiny numbers, which it leaves to the series), and
    /// correctly.
    #[test]
    fn table_path_agrees_with_the_full_series() {
        let (answered, _) = check(sin_cos_table, 300_000);
        let covered =
            arguments(300_000).filter(|&x| libm::fabs(reduce(x).0.hi) * STEPS >= 0.5).count();
        assert!(answered > covered * 99 / 100, "answered only {answered} of {covered}");
    }

    /// Arguments next to the table's steps (`k/64 ± 1/128`, where `h` is largest) and next
    /// to multiples of π/2 (where the reduced argument is tiny).
    #[test]
    fn table_path_at_its_edges() {
        for k in 1..ROWS {
            for d in [-1.0 / 128.0, 1.0 / 128.0, 0.0] {
                let mut x = k as f64 / STEPS + d;
                for _ in 0..64 {
                    for y in
                        [x, -x, x + core::f64::consts::FRAC_PI_2, x + 100.0 * core::f64::consts::PI]
                    {
                        let (r, _) = reduce(y);
                        let (s, c) = sin_cos_dd(r);
                        if let Some((qs, qc)) = sin_cos_table(r) {
                            assert_eq!(qs.to_bits(), (s.hi + s.lo).to_bits(), "sin, y = {y:e}");
                            assert_eq!(qc.to_bits(), (c.hi + c.lo).to_bits(), "cos, y = {y:e}");
                        }
                    }
                    x = f64::from_bits(x.to_bits() + 1);
                }
            }
        }
    }

    /// `(sin x, cos x)` by the old path alone: double-double reduction and the full series.
    fn reference(x: f64) -> (f64, f64) {
        let (r, q) = reduce(x);
        let (s, c) = sin_cos_dd(r);
        let (s, c) = (s.hi + s.lo, c.hi + c.lo);
        match q {
            0 => (s, c),
            1 => (c, -s),
            2 => (-s, -c),
            _ => (-c, s),
        }
    }

    /// The whole of `sin_and_cos` (fast reduction, table, series, fallbacks) against the old
    /// path alone (double-double reduction and the full series).
    #[test]
    fn sin_and_cos_agree_with_the_full_series() {
        let mut n = 0;
        for x in arguments(300_000) {
            let want = reference(x);
            let got = sin_and_cos(x);
            assert_eq!(got.0.to_bits(), want.0.to_bits(), "sin, x = {x:e}");
            assert_eq!(got.1.to_bits(), want.1.to_bits(), "cos, x = {x:e}");
            n += 1;
        }
        assert!(n > 200_000);
    }

    /// `sin_and_cos` next to multiples of π/2 (tiny reduced arguments) and next to the fast
    /// reduction's limit, against the old path alone.
    #[test]
    fn sin_and_cos_next_to_multiples_of_half_pi() {
        let ms = (1..2000).chain(667_000..667_600).map(f64::from);
        for m in ms {
            for base in [m * core::f64::consts::FRAC_PI_2, m * 0.5, FAST_REDUCE_MAX - m] {
                for j in -24i64..24 {
                    let x = f64::from_bits((base.to_bits() as i64 + j) as u64);
                    let want = reference(x);
                    for x in [x, -x] {
                        let got = sin_and_cos(x);
                        let want = if x < 0.0 { (-want.0, want.1) } else { want };
                        assert_eq!(got.0.to_bits(), want.0.to_bits(), "sin, x = {x:e}");
                        assert_eq!(got.1.to_bits(), want.1.to_bits(), "cos, x = {x:e}");
                    }
                }
            }
        }
    }
}
