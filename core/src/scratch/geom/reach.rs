//! Bounds on how far a drawable reaches from its position whatever its direction, from its
//! costume's size and rotation centre and its scale alone: they let the VM skip fencing and
//! edge tests for sprites clear of the stage edges without computing their transform
//! (`Vm::clear_of_edges`). The unit tests check both claims against the exact transform.

use super::f32r;

/// Positions and reaches up to this magnitude are judged (every `f32` rounding of a value
/// below 2^22 is under 1/4); beyond it [`clear`] says no.
const FAR: f64 = 1_048_576.0;

/// Bounds, for every direction and flip, on how far a drawable reaches from its rounded
/// position, for a costume's `size` and `rotation_center` and the target's size in percent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// Entries 12 and 13 of the transform (`Transform::m[4]`, `m[5]`) minus the position:
    /// `r0·a0 + r4·a1` with rotation entries at most 1, so at most `|a0| + |a1|`.
    offset: f64,
    /// `|ss0| + |ss1|`: a point of the unit square at most `r` from its centre in each
    /// coordinate lies at most `r` times this from the offset.
    extent: f64,
}

impl Reach {
    /// The bounds; dividing by 100 is bounded by multiplying by 0.010001, which also covers
    /// every `f32` rounding of `a0`, `a1`, `ss0` and `ss1`.
    pub fn new(size: [f64; 2], rotation_center: [f64; 2], scale: f64) -> Reach {
        let [w, h] = size;
        let [cx, cy] = rotation_center;
        let scale = libm::fabs(scale) * 0.010_001;
        let offset = (libm::fabs(f32r(cx) - w / 2.0) + libm::fabs(f32r(cy) - h / 2.0)) * scale;
        Reach { offset, extent: (libm::fabs(w) + libm::fabs(h)) * scale }
    }

    /// How far entries 12 and 13 reach (`hull_reach` `None`), or every transformed hull
    /// point and model-box corner (`Some(r)`: hull points in the unit square at most `r`
    /// from its centre in each coordinate, `r ≥ 0.5`).
    pub fn of(&self, hull_reach: Option<f64>) -> f64 {
        match hull_reach {
            Some(r) => self.offset + r * self.extent,
            None => self.offset,
        }
    }
}

/// Whether a drawable whose target stands at `position`, with `reach` from [`Reach::of`], is clear
/// of the box `±limit` at `at` (`at` is where it is fenced to, or `position` itself), with a
/// margin of 2 for the rounding of the position (`Math.round`, `f32`). Not finite or past
/// 2^20: `false`.
pub fn clear(position: [f64; 2], at: [f64; 2], reach: f64, limit: [f64; 2]) -> bool {
    let near = |v: f64| libm::fabs(v) <= FAR;
    near(position[0])
        && near(position[1])
        && near(reach)
        && libm::fabs(at[0]) + reach + 2.0 < limit[0]
        && libm::fabs(at[1]) + reach + 2.0 < limit[1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::geom::transform::{unit_point, Linear, Pose};

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 as f64 / u64::MAX as f64
        }
        fn pick(&mut self, xs: &[f64]) -> f64 {
            xs[((self.next() * xs.len() as f64) as usize).min(xs.len() - 1)]
        }
    }

    /// A random drawable, including the cases where the bounds are tight: a rotation centre
    /// on an axis, a thin costume, a tiny one, directions along the axes.
    fn drawable(rng: &mut Rng) -> ([f64; 2], [f64; 2], f64, f64, bool) {
        let u = rng.next();
        let w = rng.pick(&[1.0, 2.0, 24.0, 200.0, 1.0 + u * 300.0]);
        let u = rng.next();
        let h = rng.pick(&[1.0, 3.0, 16.0, 1.0 + u * 300.0]);
        let u = rng.next();
        let cx = rng.pick(&[w / 2.0, 0.0, w, -40.0, u * 400.0 - 100.0]);
        let u = rng.next();
        let cy = rng.pick(&[h / 2.0, 0.0, h, 25.5, u * 400.0 - 100.0]);
        let u = rng.next();
        let size = rng.pick(&[1.0, 100.0, 37.5, u * 500.0]);
        let u = rng.next();
        let d = rng.pick(&[90.0, -90.0, 0.0, 180.0, 45.0, u * 360.0 - 180.0]);
        ([w, h], [cx, cy], size, d, rng.next() < 0.3)
    }

    /// A target position near the edge of what [`clear`] accepts for `reach`, on both sides
    /// (those past it are rejected, unless the margin is wrong).
    fn at_threshold(rng: &mut Rng, reach: f64, limit: [f64; 2]) -> [f64; 2] {
        let mut p = [0.0; 2];
        for k in 0..2 {
            let u = rng.next();
            let margin = rng.pick(&[-1.0, 0.0, 0.3, 0.5, 0.75, 1.0, 2.0, 2.001, u * 4.0 - 1.0]);
            let edge = limit[k] - reach - margin;
            let sign = if rng.next() < 0.5 { -1.0 } else { 1.0 };
            let u = rng.next();
            p[k] = sign * rng.pick(&[edge, u * edge]);
        }
        p
    }

    fn linear(size: [f64; 2], center: [f64; 2], scale: f64, d: f64, flip: bool) -> (Linear, f64) {
        let sx = if flip { -scale } else { scale };
        (Linear::new(d, [f32r(sx), f32r(scale)], size, center), sx)
    }

    /// Fencing: where [`clear`] accepts `at` with the offset's reach and limits 225 × 165, the
    /// model box moved to `at` is neither wholly left of -225 nor right of 225 (nor past ±165):
    /// `getFencedPositionOfDrawable` leaves `at` as it is.
    #[test]
    fn clear_offset_means_no_fencing() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut accepted = 0;
        for _ in 0..200_000 {
            let (size, center, scale, d, flip) = drawable(&mut rng);
            let r = Reach::new(size, center, scale).of(None);
            let position = at_threshold(&mut rng, r, [225.0, 165.0]);
            let at = at_threshold(&mut rng, r, [225.0, 165.0]);
            if !clear(position, at, r, [225.0, 165.0]) {
                continue;
            }
            accepted += 1;
            let (lin, sx) = linear(size, center, scale, d, flip);
            let pose = Pose::new(position[0], position[1], d, [sx, scale]);
            let b = lin.aabb_at(pose.position);
            let (dx, dy) = (at[0] - pose.position[0], at[1] - pose.position[1]);
            let ok = b.right + dx >= -225.0
                && b.left + dx <= 225.0
                && b.top + dy >= -165.0
                && b.bottom + dy <= 165.0;
            assert!(ok, "size {size:?} centre {center:?} scale {scale} dir {d} at {at:?}");
        }
        assert!(accepted > 30_000, "{accepted}");
    }

    /// Edge tests: where [`clear`] accepts the position with the shape's reach and the stage's
    /// half size, every hull point (unit-square points up to `hull_reach` from the centre,
    /// transformed as `_getTransformedHullPoints` does) and the model box lie strictly inside
    /// the stage: `if on edge, bounce` and `touching edge` find no edge.
    #[test]
    fn clear_shape_means_inside_the_stage() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for _ in 0..200_000 {
            let (size, center, scale, d, flip) = drawable(&mut rng);
            let u = rng.next();
            let hull_reach = rng.pick(&[0.5, 0.5 + u]);
            let r = Reach::new(size, center, scale).of(Some(hull_reach));
            let position = at_threshold(&mut rng, r, [240.0, 180.0]);
            if !clear(position, position, r, [240.0, 180.0]) {
                continue;
            }
            accepted += 1;
            let (lin, sx) = linear(size, center, scale, d, flip);
            let pose = Pose::new(position[0], position[1], d, [sx, scale]);
            let xf = lin.at(pose.position);
            let inside = |p: [f64; 2]| libm::fabs(p[0]) < 240.0 && libm::fabs(p[1]) < 180.0;
            let v = hull_reach;
            for p in [[v, v], [v, -v], [-v, v], [-v, -v], [0.0, v], [v, 0.0], [-v, 0.0]] {
                let q = xf.hull_point(p);
                assert!(inside(q), "size {size:?} centre {center:?} scale {scale} dir {d} {q:?}");
            }
            // points made from pixel positions, as the hull makes them
            let q = xf.hull_point(unit_point([0.0, size[1]], size));
            assert!(inside(q), "size {size:?} centre {center:?} scale {scale} dir {d} {q:?}");
            let b = xf.aabb();
            let ok = b.left > -240.0 && b.right < 240.0 && b.bottom > -180.0 && b.top < 180.0;
            assert!(ok, "size {size:?} centre {center:?} scale {scale} dir {d} {b:?}");
        }
        assert!(accepted > 30_000, "{accepted}");
    }

    #[test]
    fn not_finite_or_far_is_not_clear() {
        for bad in [f64::NAN, f64::INFINITY, 2e6] {
            assert!(!clear([bad, 0.0], [0.0, 0.0], 1.0, [240.0, 180.0]));
            assert!(!clear([0.0, 0.0], [bad, 0.0], 1.0, [240.0, 180.0]));
            assert!(!clear([0.0, 0.0], [0.0, 0.0], bad, [240.0, 180.0]));
        }
        assert!(Reach::new([10.0, 10.0], [5.0, 5.0], f64::NAN).of(None).is_nan());
    }
}
