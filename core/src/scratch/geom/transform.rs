//! The drawable transform of scratch-render's `Drawable._calculateTransform`, its inverse
//! (`twgl.m4.inverse` specialised to a 2-D affine matrix, same operations in the same order),
//! the model-matrix box (`getAABB`), hull points in stage space and stage points in skin space
//! (`getLocalPosition`). Every value scratch-render keeps in a `Float32Array` is rounded to
//! `f32` where it is stored; the arithmetic between stores is `f64`, as in JavaScript.

use super::{f32r, Rect};
use crate::scratch::value::jsmath;

/// The inputs of a drawable's transform, as scratch-render stores them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// `_position`: the target's x and y rounded (`Math.round`), as `f32`.
    pub position: [f64; 2],
    /// `_direction`: the rendered direction (90 unless rotating all around).
    pub direction: f64,
    /// `_scale`: the rendered scale in percent (x negated when flipped), as `f32`.
    pub scale: [f64; 2],
}

impl Pose {
    /// The pose of a target at `x`, `y` with a rendered direction and scale.
    pub fn new(x: f64, y: f64, direction: f64, scale: [f64; 2]) -> Pose {
        Pose {
            position: [f32r(js_round(x)), f32r(js_round(y))],
            direction,
            scale: [f32r(scale[0]), f32r(scale[1])],
        }
    }
}

/// JavaScript's `Math.round`.
pub fn js_round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let f = floor(x);
    if x - f >= 0.5 {
        f + 1.0
    } else {
        f
    }
}

/// `libm::floor`, inline for the common case: below 2^52 truncating to an integer is exact
/// (zero, whose sign `floor` keeps, is returned as it is).
#[inline]
fn floor(x: f64) -> f64 {
    if x.is_nan() || libm::fabs(x) >= 4_503_599_627_370_496.0 || x == 0.0 {
        return libm::floor(x);
    }
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// A drawable's model matrix (`m0 m1 m4 m5 m12 m13` of the 4×4 matrix) and its inverse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Model matrix entries 0, 1, 4, 5, 12, 13.
    pub m: [f64; 6],
    /// Inverse matrix entries 0, 1, 4, 5, 12, 13.
    pub inv: [f64; 6],
}

/// The part of a drawable's transform that does not depend on its position: the rotated and
/// scaled matrix entries, the rotated offset of the rotation centre and the inverse's
/// determinant. [`Linear::at`] adds a position; scratch-render adds the position last in each
/// sum it stores, so splitting here changes no bit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Linear {
    /// Model matrix entries 0, 1, 4, 5.
    pub m: [f64; 4],
    /// `(r0·a0) + (r4·a1)` and `(r1·a0) + (r5·a1)`: entries 12 and 13 before the position.
    pub offset: [f64; 2],
    /// The inverse's `1 / det`.
    det: f64,
    /// Half the width and height of the transformed skin rectangle (the box's extents).
    half: [f64; 2],
}

impl Linear {
    /// The position-free part of [`Transform::new`].
    pub fn new(
        direction: f64,
        scale: [f64; 2],
        size: [f64; 2],
        rotation_center: [f64; 2],
    ) -> Linear {
        Linear::rotated(rotation(direction), scale, size, rotation_center)
    }

    /// [`Linear::new`] with the rotation already known ([`rotation`] of the direction).
    pub fn rotated(
        rotation: [f64; 2],
        scale: [f64; 2],
        size: [f64; 2],
        rotation_center: [f64; 2],
    ) -> Linear {
        let [r0, r1] = rotation;
        // f32(-s) is -f32(s): rounding to nearest is symmetric.
        let (r4, r5) = (-r1, r0);
        let center = [f32r(rotation_center[0]), f32r(rotation_center[1])];
        let [sc0, sc1] = scale;
        let a0 = f32r((center[0] - (size[0] / 2.0)) * sc0 / 100.0);
        // `* -1` in scratch-render; negation is the same value.
        let a1 = f32r(-((center[1] - (size[1] / 2.0)) * sc1 / 100.0));
        let ss0 = f32r(size[0] * sc0 / 100.0);
        let ss1 = f32r(size[1] * sc1 / 100.0);
        let m = [f32r(ss0 * r0), f32r(ss0 * r1), f32r(ss1 * r4), f32r(ss1 * r5)];
        let [m00, m01, m10, _] = m;
        // twgl.m4.inverse: t0 = m11, t1 = -m01
        let det = 1.0 / ((m00 * m[3]) + (m10 * -m01));
        let offset = [(r0 * a0) + (r4 * a1), (r1 * a0) + (r5 * a1)];
        Linear { m, offset, det, half: half_extents(&m) }
    }

    /// Entries 12 and 13 of the transform with the drawable at `position` (already rounded
    /// and stored as `f32`).
    #[inline]
    pub fn translation(&self, position: [f64; 2]) -> [f64; 2] {
        [f32r(self.offset[0] + position[0]), f32r(self.offset[1] + position[1])]
    }

    /// The transform with the drawable at `position` (already rounded and stored as `f32`).
    #[inline]
    pub fn at(&self, position: [f64; 2]) -> Transform {
        let [m00, m01, m10, m11] = self.m;
        let [m12, m13] = self.translation(position);
        let m = [m00, m01, m10, m11, m12, m13];
        Transform { m, inv: inverse(&m, self.det) }
    }

    /// `at(position).aabb()` without the inverse.
    #[inline]
    pub fn aabb_at(&self, position: [f64; 2]) -> Rect {
        aabb(self.half, self.translation(position))
    }

    /// A convex-hull point's stage position before the translation: `hull_point` is
    /// `f32r(offset + m12)`, `f32r(offset + m13)` of this (see [`Transform::hull_point`]).
    /// `v` is the point in the unit square ([`unit_point`]).
    #[inline]
    pub fn hull_offset(&self, v: [f64; 2]) -> [f64; 2] {
        let [v0, v1] = v;
        let [m0, m1, m4, m5] = self.m;
        [(v0 * m0) + (v1 * m4), (v0 * m1) + (v1 * m5)]
    }
}

/// `(270 - direction)·π/180`: the angle scratch-render rotates a drawable by.
#[inline]
fn rotation_angle(direction: f64) -> f64 {
    (270.0 - direction) * core::f64::consts::PI / 180.0
}

/// `f32(cos θ)` and `f32(sin θ)` of `θ = (270 - direction)·π/180`, as scratch-render stores
/// them (`Math.cos`/`Math.sin` rounded to `f32`).
pub fn rotation(direction: f64) -> [f64; 2] {
    let (s, c) = jsmath::sin_and_cos(rotation_angle(direction));
    [f32r(c), f32r(s)]
}

/// The angle `move` and `if on edge, bounce` take the sine and cosine of:
/// `π·(90 - direction)/180` (`(90 - direction)·π/180` in bounce: the product commutes).
#[inline]
pub fn move_angle(direction: f64) -> f64 {
    (core::f64::consts::PI * (90.0 - direction)) / 180.0
}

/// π as a double-double (`PI_HI + PI_LO` is within 2^-105 of π).
const PI_HI: f64 = core::f64::consts::PI;
const PI_LO: f64 = 1.224_646_799_147_353_2e-16;

/// [`rotation`] from `(Math.sin(m), Math.cos(m))` of `m = move_angle(direction)`, which a move
/// has just computed, without a second correctly rounded evaluation. The rotation angle `θ`
/// is `m + π + δ` with `δ = θ - m - π` computed almost exactly (`θ - m` by `two_sum`, then
/// π subtracted in double-double: `|δ| < 10^-14` for directions in range), so
/// `sin θ = -(sin m + cos m·δ)` and `cos θ = -(cos m - sin m·δ)` up to `δ²`. With the error
/// of the given values (half an ulp each) and of this arithmetic, the browser's double lies
/// within `w` of the result below; when every value in that window rounds to the same `f32`
/// (compared by bits, so a window across zero fails) that is the answer, else `None` and
/// [`rotation`] decides (an `f32` rounding boundary within a few double ulps: about one
/// argument in 10^7, more near zero).
pub fn rotation_from_move(direction: f64, sin_cos_move: (f64, f64)) -> Option<[f64; 2]> {
    let (sm, cm) = sin_cos_move;
    let m = move_angle(direction);
    let theta = rotation_angle(direction);
    // θ - m exactly (two_sum), then minus π: the first difference is exact (Sterbenz: both
    // within a factor of 2 of π once |δ| is small), the second rounds by ≤ 2^-53·|δ|.
    let d = theta - m;
    let bb = d - theta;
    let d_lo = (theta - (d - bb)) + (-m - bb);
    let delta = (d - PI_HI) + (d_lo - PI_LO);
    // false for NaN too
    let small = libm::fabs(delta) <= 1e-10;
    if !small {
        return None;
    }
    let one = |base: f64, other: f64, y: f64| -> Option<f64> {
        // |error| ≤ 2^-52·(|base| + |other·δ| + |y|) + δ²·|base| + 2^-105·|other|; w is ≥ 4×.
        let w = (libm::fabs(base) + libm::fabs(other * delta) + libm::fabs(y)) * 1.0e-15 + 1.0e-30;
        let (lo, hi) = (f32r(y - w), f32r(y + w));
        (y.is_finite() && lo.to_bits() == hi.to_bits()).then_some(lo)
    };
    let s = one(sm, cm, -(sm + cm * delta))?;
    let c = one(cm, sm, -(cm - sm * delta))?;
    Some([c, s])
}

/// A hull point (skin pixel grid, +y down) in the unit square, as `f32`: how
/// `_getTransformedHullPoints` starts from each point.
#[inline]
pub fn unit_point(point: [f64; 2], size: [f64; 2]) -> [f64; 2] {
    let half_x = 1.0 / size[0] / 2.0;
    let half_y = 1.0 / size[1] / 2.0;
    [f32r(0.5 + (-point[0] / size[0]) - half_x), f32r((point[1] / size[1]) - 0.5 + half_y)]
}

/// Half the width and height of the transformed skin rectangle (`initFromModelMatrix`).
#[inline]
fn half_extents(m: &[f64; 4]) -> [f64; 2] {
    let [m0, m1, m4, m5] = *m;
    [libm::fabs(0.5 * m0) + libm::fabs(0.5 * m4), libm::fabs(0.5 * m1) + libm::fabs(0.5 * m5)]
}

/// The box of half extents `half` at translation `t` (`Rectangle.initFromModelMatrix`).
#[inline]
fn aabb(half: [f64; 2], t: [f64; 2]) -> Rect {
    let [x, y] = half;
    let [m12, m13] = t;
    Rect { left: -x + m12, right: x + m12, top: y + m13, bottom: -y + m13 }
}

impl Transform {
    /// The transform of a pose over a skin of `size` with `rotation_center` (stage units).
    pub fn new(pose: &Pose, size: [f64; 2], rotation_center: [f64; 2]) -> Transform {
        Linear::new(pose.direction, pose.scale, size, rotation_center).at(pose.position)
    }

    /// The box of the transformed skin rectangle (`Rectangle.initFromModelMatrix`).
    pub fn aabb(&self) -> Rect {
        let [m0, m1, m4, m5, m12, m13] = self.m;
        aabb(half_extents(&[m0, m1, m4, m5]), [m12, m13])
    }

    /// A convex-hull point in stage space (`_getTransformedHullPoints`), from the point in
    /// the unit square ([`unit_point`]).
    pub fn hull_point(&self, v: [f64; 2]) -> [f64; 2] {
        let [v0, v1] = v;
        let [m0, m1, m4, m5, m12, m13] = self.m;
        [f32r((v0 * m0) + (v1 * m4) + m12), f32r((v0 * m1) + (v1 * m5) + m13)]
    }

    /// A stage point in skin texture space (0..1, +y down), as `getLocalPosition` without
    /// graphic effects.
    pub fn local(&self, p: [f64; 2]) -> [f64; 2] {
        let [i0, i1, i4, i5, i12, i13] = self.inv;
        let mut l0 = f32r(0.5 - ((p[0] * i0) + (p[1] * i4) + i12));
        let mut l1 = f32r(((p[0] * i1) + (p[1] * i5) + i13) + 0.5);
        if libm::fabs(l0) < 1e-6 {
            l0 = 0.0;
        }
        if libm::fabs(l1) < 1e-6 {
            l1 = 0.0;
        }
        [l0, l1]
    }
}

/// `twgl.m4.inverse` of the affine model matrix (entries 2, 3, 6, 7, 8, 9, 11, 14 are 0 and
/// 10, 15 are 1), keeping its operation order, with `d = 1 / det` from [`Linear::new`];
/// stored as `f32`.
fn inverse(m: &[f64; 6], d: f64) -> [f64; 6] {
    let [m00, m01, m10, m11, m30, m31] = *m;
    let t0 = m11;
    let t1 = -m01;
    [
        f32r(d * t0),
        f32r(d * t1),
        f32r(d * -m10),
        f32r(d * m00),
        f32r(d * ((m10 * m31) - (m30 * m11))),
        f32r(d * ((m30 * m01) - (m00 * m31))),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rotation derived from the move angle's sine and cosine equals the full evaluation
    /// bit for bit wherever it answers, on integer, half, random and wrapped directions (every
    /// direction `wrap_clamp` gives and the rendered 90), and answers almost everywhere.
    #[test]
    fn rotation_from_move_equals_rotation() {
        let mut ds: alloc::vec::Vec<f64> = (-1800..=1800).map(|k| f64::from(k) / 10.0).collect();
        ds.extend([90.0, -0.0, 0.0, 180.0, -179.0, 1e-300, -1e-300, 179.999_999_999_999_97]);
        let mut u: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..300_000 {
            u ^= u << 13;
            u ^= u >> 7;
            u ^= u << 17;
            ds.push((u as f64 / u64::MAX as f64) * 360.0 - 179.5);
        }
        let mut answered = 0;
        for &d in &ds {
            let want = rotation(d);
            if let Some(got) = rotation_from_move(d, jsmath::sin_and_cos(move_angle(d))) {
                assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "direction {d:e}");
                answered += 1;
            }
        }
        assert!(answered * 1000 > ds.len() * 999, "{answered} of {}", ds.len());
        // out of range or not finite: no answer rather than a wrong one
        for d in [f64::NAN, f64::INFINITY, 1e300, -1e17] {
            let got = rotation_from_move(d, jsmath::sin_and_cos(move_angle(d)));
            assert!(got.is_none() || got == Some(rotation(d)), "direction {d:e}");
        }
    }

    #[test]
    fn floor_equals_libm_floor() {
        let mut xs = alloc::vec![0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5, f64::NAN];
        xs.extend([f64::INFINITY, f64::NEG_INFINITY, 4.5e15, -4.5e15, 9.1e15, -9.1e15, 1e300]);
        xs.extend([f64::MIN_POSITIVE, -f64::MIN_POSITIVE, 0.999_999_999_999_999_9, -1e-300]);
        let mut u: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..100_000 {
            u ^= u << 13;
            u ^= u >> 7;
            u ^= u << 17;
            xs.push((u as f64 / u64::MAX as f64 - 0.5) * 2000.0);
            xs.push(f64::from_bits(u));
        }
        for x in xs {
            assert_eq!(floor(x).to_bits(), libm::floor(x).to_bits(), "floor({x:e})");
        }
    }
}
