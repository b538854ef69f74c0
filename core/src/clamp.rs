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

/// `MathUtil.wrapClamp`.
pub(crate) fn wrap_clamp(n: f64, min: f64, max: f64) -> f64 {
    let range = (max - min) + 1.0;
    n - libm::floor((n - min) / range) * range
}

#[cfg(test)]
mod tests {
    use super::*;

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
