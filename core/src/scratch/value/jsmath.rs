//! `Math.sin`, `Math.cos` and `Math.atan2` as the browser computes them. Chromium's V8 is built with
//! `v8_use_libm_trig_functions`, i.e. glibc's sin/cos, which return the correctly rounded
//! result; `libm` (musl/fdlibm kernels) is off by one ulp for some arguments, which moves a
//! sprite by 1 ulp and changes traces. Here the argument is reduced by π/2 in double-double
//! arithmetic (π/2 to 159 bits) and the Taylor series is summed in double-double, so the
//! rounded result is the correctly rounded one except within 2^-100 of a rounding midpoint.
//! Arguments past 2^30 fall back to `libm`. `atan2` refines `libm`'s result by one Newton
//! step on `y·cos a − x·sin a = 0` in double-double, which also gives the correctly rounded
//! angle (Chromium's `Math.atan2` agrees with it where fdlibm's is 1 ulp off).

/// A double-double: `hi + lo` with `|lo| ≤ ulp(hi) / 2`.
#[derive(Clone, Copy)]
struct Dd {
    hi: f64,
    lo: f64,
}

#[inline]
fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd { hi: s, lo: (a - (s - bb)) + (b - bb) }
}

#[inline]
fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd { hi: s, lo: b - (s - a) }
}

#[inline]
fn split(a: f64) -> (f64, f64) {
    let t = 134_217_729.0 * a; // 2^27 + 1
    let hi = t - (t - a);
    (hi, a - hi)
}

#[inline]
fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    Dd { hi: p, lo: ((ah * bh - p) + ah * bl + al * bh) + al * bl }
}

#[inline]
fn add(a: Dd, b: Dd) -> Dd {
    let s = two_sum(a.hi, b.hi);
    let t = two_sum(a.lo, b.lo);
    let s = quick_two_sum(s.hi, s.lo + t.hi);
    quick_two_sum(s.hi, s.lo + t.lo)
}

#[inline]
fn mul(a: Dd, b: Dd) -> Dd {
    let p = two_prod(a.hi, b.hi);
    quick_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi))
}

#[inline]
fn div_f(a: Dd, d: f64) -> Dd {
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

/// sin and cos of a reduced argument (|r| ≤ π/4 + a little) by their Taylor series.
fn sin_cos_dd(r: Dd) -> (Dd, Dd) {
    let r2 = mul(r, r);
    let mut s = r;
    let mut term = r;
    let mut k = 1.0;
    for _ in 0..14 {
        term = div_f(mul(term, r2), -((k + 1.0) * (k + 2.0)));
        s = add(s, term);
        k += 2.0;
    }
    let mut c = Dd { hi: 1.0, lo: 0.0 };
    let mut term = c;
    let mut k = 0.0;
    for _ in 0..14 {
        term = div_f(mul(term, r2), -((k + 1.0) * (k + 2.0)));
        c = add(c, term);
        k += 2.0;
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
    let (r, q) = reduce(x);
    let (s, c) = sin_cos_quick(r).unwrap_or_else(|| {
        let (s, c) = sin_cos_dd(r);
        (s.hi + s.lo, c.hi + c.lo)
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

    /// The fast path gives exactly the double-double series' result wherever it answers, and
    /// answers for nearly every argument.
    #[test]
    fn quick_path_agrees_with_the_full_series() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut answered, n) = (0, 200_000);
        for i in 0..n {
            let u = next();
            let x = match i % 4 {
                // directions in hundredths of a degree, as `move` and the transform use them
                0 => (90.0 - ((u % 36_000) as f64 / 100.0 - 180.0)) * core::f64::consts::PI / 180.0,
                1 => f64::from_bits(u),
                2 => (u as f64 / u64::MAX as f64 - 0.5) * 2000.0,
                _ => ((u % 2001) as f64 - 1000.0) * core::f64::consts::PI / 180.0,
            };
            if !x.is_finite() || libm::fabs(x) > 1_073_741_824.0 || x == 0.0 {
                continue;
            }
            let (r, _) = reduce(x);
            let (s, c) = sin_cos_dd(r);
            if let Some((qs, qc)) = sin_cos_quick(r) {
                answered += 1;
                assert_eq!(qs.to_bits(), (s.hi + s.lo).to_bits(), "sin, x = {x:e}");
                assert_eq!(qc.to_bits(), (c.hi + c.lo).to_bits(), "cos, x = {x:e}");
            }
        }
        assert!(answered > n * 9 / 20, "the quick path answered only {answered} of {n}");
    }
}
