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
    let (s, c) = sin_cos_dd(r);
    let (s, c) = (s.hi + s.lo, c.hi + c.lo);
    Some(match q {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    })
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
