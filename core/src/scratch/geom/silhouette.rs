//! Sampling a skin's opaque pixels as scratch-render's `Silhouette` does (nearest: the pixel
//! under the point; linear: any of the 2×2 pixels around it), and the convex hull of a skin
//! (`RenderWebGL._getConvexHullPointsForDrawable`): per row of the skin-size grid, the first
//! and last points whose linear sample is opaque, reduced to left and right chains.

use alloc::vec::Vec;

use super::f32r;
use crate::scratch::image::SkinBitmap;

/// The alpha of a pixel, 0 outside the bitmap.
#[inline]
fn alpha(b: &SkinBitmap, x: f64, y: f64) -> u8 {
    // NaN (a fisheye's exact centre) reads `data[NaN]`, which is not > 0.
    if !(x >= 0.0 && y >= 0.0 && x < f64::from(b.width) && y < f64::from(b.height)) {
        return 0;
    }
    let i = (y as usize * b.width as usize + x as usize) * 4 + 3;
    b.rgba.get(i).copied().unwrap_or(0)
}

/// `isTouchingNearest` at a texture-space point (0..1, +y down).
pub fn touching_nearest(b: &SkinBitmap, v: [f64; 2]) -> bool {
    let x = libm::floor(v[0] * (f64::from(b.width) - 1.0));
    let y = libm::floor(v[1] * (f64::from(b.height) - 1.0));
    alpha(b, x, y) > 0
}

/// `isTouchingLinear` at a texture-space point (0..1, +y down).
pub fn touching_linear(b: &SkinBitmap, v: [f64; 2]) -> bool {
    let x = libm::floor(v[0] * (f64::from(b.width) - 1.0));
    let y = libm::floor(v[1] * (f64::from(b.height) - 1.0));
    alpha(b, x, y) > 0
        || alpha(b, x + 1.0, y) > 0
        || alpha(b, x, y + 1.0) > 0
        || alpha(b, x + 1.0, y + 1.0) > 0
}

fn determinant(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    ((b[0] - a[0]) * (c[1] - a[1])) - ((b[1] - a[1]) * (c[0] - a[0]))
}

/// Work buffers for [`hull`] (kept by the caller so that recomputing a hull allocates
/// nothing once they have grown).
#[derive(Clone, Debug, Default)]
pub struct HullScratch {
    left: Vec<[f64; 2]>,
    right: Vec<[f64; 2]>,
}

/// The convex hull points of a skin of `size` (stage units) sampled on `b`, clockwise, into
/// `out` (cleared first). Empty when no point is opaque. Each grid point's texture
/// coordinate goes through `effect` first (`EffectTransform.transformPoint`: the shape
/// effects move the hull).
pub fn hull(
    b: &SkinBitmap,
    size: [f64; 2],
    effect: impl Fn([f64; 2]) -> [f64; 2],
    work: &mut HullScratch,
    out: &mut Vec<[f64; 2]>,
) {
    out.clear();
    let [width, height] = size;
    if !(width > 0.0 && height > 0.0) {
        return;
    }
    let HullScratch { left, right } = work;
    left.clear();
    right.clear();
    let mut y = 0.0;
    while y < height {
        let py = f32r(y / height);
        let mut x = 0.0;
        let mut found = None;
        while x < width {
            if touching_linear(b, effect([f32r(x / width), py])) {
                found = Some([x, y]);
                break;
            }
            x += 1.0;
        }
        let Some(point) = found else {
            y += 1.0;
            continue;
        };
        while left.len() > 1 {
            let n = left.len();
            if determinant(left[n - 1], left[n - 2], point) > 0.0 {
                break;
            }
            left.pop();
        }
        left.push(point);
        // The right side, looking leftwards from `width - 1` (fractional widths stay so).
        let mut x = width - 1.0;
        let mut point = point;
        while x >= 0.0 {
            if touching_linear(b, effect([f32r(x / width), py])) {
                point = [x, y];
                break;
            }
            x -= 1.0;
        }
        while right.len() > 1 {
            let n = right.len();
            if determinant(right[n - 1], right[n - 2], point) < 0.0 {
                break;
            }
            right.pop();
        }
        right.push(point);
        y += 1.0;
    }
    out.extend_from_slice(left);
    out.extend(right.iter().rev());
}
