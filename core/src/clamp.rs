//! Float clamping that cannot panic: `f64::clamp` and `f32::clamp` assert that the bounds are
//! ordered, and that assertion's message formats floats, which on a kit links all of
//! `core::fmt`'s float printing (about 12 KiB of flash) for a check the callers never fail.
//! These give the same result as the standard methods whenever `lo <= hi` (a NaN stays NaN).

/// `x.clamp(lo, hi)` without the bounds assertion.
#[inline]
pub(crate) fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
}

/// `x.clamp(lo, hi)` for `f32` without the bounds assertion.
#[inline]
pub(crate) fn clampf(x: f32, lo: f32, hi: f32) -> f32 {
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
}

/// JavaScript's two-argument `Math.min`: NaN when either is NaN (`f64::min` returns the
/// other), which keeps a NaN position (`undefined` coordinates) NaN through bounds.
#[inline]
pub(crate) fn js_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// JavaScript's two-argument `Math.max` (NaN when either is NaN).
#[inline]
pub(crate) fn js_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// `MathUtil.wrapClamp`.
pub(crate) fn wrap_clamp(n: f64, min: f64, max: f64) -> f64 {
    let range = (max - min) + 1.0;
    n - libm::floor((n - min) / range) * range
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_min_max_keep_nan() {
        assert!(js_min(f64::NAN, 1.0).is_nan() && js_min(1.0, f64::NAN).is_nan());
        assert!(js_max(f64::NAN, 1.0).is_nan() && js_max(1.0, f64::NAN).is_nan());
        assert_eq!(js_min(2.0, -3.0), -3.0);
        assert_eq!(js_max(2.0, -3.0), 2.0);
        assert_eq!(js_max(f64::NEG_INFINITY, 5.0), 5.0);
    }

    #[test]
    fn same_as_the_standard_clamp() {
        let values = [
            f64::NAN,
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -0.0,
            0.0,
            0.5,
            1.0,
            3.0,
            1e300,
            f64::INFINITY,
        ];
        let bounds = [(0.0, 1.0), (-0.0, 0.0), (-2.5, 3.0), (1.0, 1.0), (f64::NEG_INFINITY, 0.0)];
        for &x in &values {
            for &(lo, hi) in &bounds {
                assert_eq!(clamp(x, lo, hi).to_bits(), x.clamp(lo, hi).to_bits(), "{x} {lo} {hi}");
                let (xf, lf, hf) = (x as f32, lo as f32, hi as f32);
                assert_eq!(clampf(xf, lf, hf).to_bits(), xf.clamp(lf, hf).to_bits());
            }
        }
    }
}
