//! `touching color?` and `color is touching color?` as scratch-render's
//! `RenderWebGL.isTouchingColor` answers them: the candidates are the other visible drawables
//! (sprites, the pen layer, the stage; never bubbles) whose snapped bounds meet the sprite's,
//! sampled top to bottom. Small query areas run the CPU path (integer stage points, nearest
//! texels of the silhouette, `EffectTransform`'s byte arithmetic, a white fallback); once
//! `width × rows × (candidates + 1)` reaches 40,000 the remaining rows take the GPU path
//! (pixel centres, the shader's arithmetic, composited over the opaque black clear colour).
//! The sprite's own ghost effect is ignored; its other effects apply, the candidates' all do.
//!
//! This file holds the arithmetic and the scan (`scan`); the VM gathers the candidates
//! (`crate::scratch::vm::touch_color`).

use crate::clamp::clamp;
use alloc::vec::Vec;

use crate::scratch::geom::f32r;
use crate::scratch::image::SkinBitmap;
use crate::scratch::pen::PenLayer;

use super::blend8;
use super::drawable::Drawable;
use super::effects::{Effects, BRIGHTNESS, COLOR, GHOST};

/// `__cpuTouchingColorPixelCount`.
const MAX_CPU_PIXELS: i64 = 40_000;
/// `MASK_TOUCHING_COLOR_TOLERANCE`, out of 255.
const MASK_TOLERANCE: f32 = 2.0 / 255.0;

/// `colorMatches`: red and green on their top 5 bits, blue on its top 4.
pub fn color_matches(a: [u8; 3], b: [u8; 3]) -> bool {
    (a[0] & 0xf8) == (b[0] & 0xf8)
        && (a[1] & 0xf8) == (b[1] & 0xf8)
        && (a[2] & 0xf0) == (b[2] & 0xf0)
}

/// `maskMatches`: some alpha, each channel on its top 6 bits.
fn mask_matches(a: [u8; 4], b: [u8; 3]) -> bool {
    a[3] > 0 && (0..3).all(|k| (a[k] & 0xfc) == (b[k] & 0xfc))
}

/// A snapped rectangle in stage units (`Rectangle` after `snapToInt`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub(crate) left: f64,
    pub(crate) right: f64,
    pub(crate) bottom: f64,
    pub(crate) top: f64,
}

impl Rect {
    pub(crate) fn snapped(b: [f64; 4]) -> Rect {
        Rect {
            left: libm::floor(b[0]),
            right: libm::ceil(b[1]),
            bottom: libm::floor(b[2]),
            top: libm::ceil(b[3]),
        }
    }
    pub(crate) fn intersects(&self, o: &Rect) -> bool {
        self.left <= o.right && o.left <= self.right && self.top >= o.bottom && o.top >= self.bottom
    }
    pub(crate) fn intersect(&self, o: &Rect) -> Rect {
        Rect {
            left: self.left.max(o.left),
            right: self.right.min(o.right),
            bottom: self.bottom.max(o.bottom),
            top: self.top.min(o.top),
        }
    }
    fn union(&self, o: &Rect) -> Rect {
        Rect {
            left: self.left.min(o.left),
            right: self.right.max(o.right),
            bottom: self.bottom.min(o.bottom),
            top: self.top.max(o.top),
        }
    }
}

/// What a candidate is.
#[derive(Clone, Copy)]
pub(crate) enum Cand<'a> {
    Costume(Drawable<'a>),
    Pen(&'a PenLayer),
}

/// JavaScript's `ToUint8Clamp` (a `Uint8ClampedArray` store): clamp, round half to even.
fn clamp8(x: f64) -> u8 {
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    if x >= 255.0 {
        return 255;
    }
    let f = libm::floor(x);
    let r = if x - f > 0.5 || (x - f == 0.5 && f % 2.0 != 0.0) { f + 1.0 } else { f };
    r as u8
}

/// `rgbToHsv` of scratch-render's `util/color-conversions.js`.
fn rgb_to_hsv(c: [u8; 4]) -> [f64; 3] {
    let (mut r, mut g, mut b) =
        (f64::from(c[0]) / 255.0, f64::from(c[1]) / 255.0, f64::from(c[2]) / 255.0);
    let mut k = 0.0;
    if g < b {
        core::mem::swap(&mut g, &mut b);
        k = -1.0;
    }
    if r < g {
        core::mem::swap(&mut r, &mut g);
        k = -2.0 / 6.0 - k;
    }
    let chroma = r - g.min(b);
    let h = libm::fabs(k + (g - b) / (6.0 * chroma + f64::EPSILON));
    [h, chroma / (r + f64::EPSILON), r]
}

/// `hsvToRgb` of `util/color-conversions.js`, stored into bytes.
fn hsv_to_rgb(hsv: [f64; 3], dst: &mut [u8; 4]) {
    let [mut h, s, v] = hsv;
    if s == 0.0 {
        let g = clamp8(v * 255.0 + 0.5);
        dst[..3].copy_from_slice(&[g, g, g]);
        return;
    }
    h %= 1.0;
    let i = (h * 6.0) as i32;
    let f = h * 6.0 - f64::from(i);
    let p = v * (1.0 - s);
    let q = v * (1.0 - s * f);
    let t = v * (1.0 - s * (1.0 - f));
    let (r, g, b) = match i {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        5 => (v, p, q),
        _ => (0.0, 0.0, 0.0),
    };
    dst[0] = clamp8(r * 255.0 + 0.5);
    dst[1] = clamp8(g * 255.0 + 0.5);
    dst[2] = clamp8(b * 255.0 + 0.5);
}

/// `EffectTransform.transformColor` on a premultiplied byte colour.
fn transform_color(e: &Effects, c: &mut [u8; 4], with_ghost: bool) {
    if c[3] == 0 {
        return;
    }
    if e.bits & (COLOR | BRIGHTNESS) != 0 {
        let alpha = f64::from(c[3]) / 255.0;
        for v in c.iter_mut().take(3) {
            *v = clamp8(f64::from(*v) / alpha);
        }
        if e.bits & COLOR != 0 {
            let mut hsv = rgb_to_hsv(*c);
            let min_v = 0.11 / 2.0;
            if hsv[2] < min_v {
                hsv = [0.0, 1.0, min_v];
            } else if hsv[1] < 0.09 {
                hsv = [0.0, 0.09, hsv[2]];
            }
            hsv[0] = e.color + hsv[0] + 1.0;
            hsv_to_rgb(hsv, c);
        }
        if e.bits & BRIGHTNESS != 0 {
            let b = e.brightness * 255.0;
            for v in c.iter_mut().take(3) {
                *v = clamp8(f64::from(*v) + b);
            }
        }
        for v in c.iter_mut().take(3) {
            *v = clamp8(f64::from(*v) * alpha);
        }
    }
    if with_ghost && e.bits & GHOST != 0 {
        for k in c.iter_mut() {
            *k = clamp8(f64::from(*k) * e.ghost);
        }
    }
}

/// The silhouette's `colorAtNearest` (straight-alpha texels premultiplied into bytes).
fn silhouette_nearest(t: &SkinBitmap, u: f64, v: f64) -> [u8; 4] {
    let x = libm::floor(u * f64::from(t.width.saturating_sub(1)));
    let y = libm::floor(v * f64::from(t.height.saturating_sub(1)));
    let x = clamp(x, 0.0, f64::from(t.width.saturating_sub(1))) as usize;
    let y = clamp(y, 0.0, f64::from(t.height.saturating_sub(1))) as usize;
    let i = (y * t.width as usize + x) * 4;
    match t.rgba.get(i..i + 4) {
        Some(p) => {
            let a = f64::from(p[3]) / 255.0;
            [
                clamp8(f64::from(p[0]) * a),
                clamp8(f64::from(p[1]) * a),
                clamp8(f64::from(p[2]) * a),
                p[3],
            ]
        }
        None => [0; 4],
    }
}

/// Alpha of silhouette texel (`x`, `y`), 0 outside (`getPoint`).
fn alpha_at(t: &SkinBitmap, x: f64, y: f64) -> u8 {
    // NaN (a fisheye's exact centre) reads `data[NaN]`, which is not > 0.
    if !(x >= 0.0 && y >= 0.0 && x < f64::from(t.width) && y < f64::from(t.height)) {
        return 0;
    }
    let i = (y as usize * t.width as usize + x as usize) * 4 + 3;
    t.rgba.get(i).copied().unwrap_or(0)
}

/// `getLocalPosition`: texture coordinates with the effect transform inside the unit square.
/// The position is stored in a `Float32Array`; the effects are `EffectTransform`'s CPU version.
fn local(d: &Drawable<'_>, x: f64, y: f64) -> (f64, f64) {
    let (u, v) = d.local(x, y);
    let (mut u, mut v) = (f32r(u), f32r(v));
    if libm::fabs(u) < 1e-6 {
        u = 0.0;
    }
    if libm::fabs(v) < 1e-6 {
        v = 0.0;
    }
    if d.effects.bits != 0 && (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v) {
        let [u, v] = d.effects.transform_point_cpu([u, v], d.skin.size);
        return (u, v);
    }
    (u, v)
}

/// `Drawable.sampleColor4b` on the CPU.
fn sample_cpu(c: &Cand<'_>, x: f64, y: f64, with_ghost: bool) -> [u8; 4] {
    match c {
        Cand::Costume(d) => {
            let (u, v) = local(d, x, y);
            if !(0.0..=1.0).contains(&u) || !(0.0..=1.0).contains(&v) {
                return [0; 4];
            }
            let mut col = silhouette_nearest(d.sil, u, v);
            if d.effects.bits != 0 {
                transform_color(&d.effects, &mut col, with_ghost);
            }
            col
        }
        Cand::Pen(p) => {
            // The pen skin: 480×360 texels (its own size), premultiplied, no effects.
            let u = (x + 240.0) / 480.0;
            let v = (180.0 - y) / 360.0;
            if !(0.0..=1.0).contains(&u) || !(0.0..=1.0).contains(&v) {
                return [0; 4];
            }
            let col = libm::floor(u * f64::from(p.width() - 1)) as i64;
            let row = libm::floor(v * f64::from(p.height() - 1)) as i64;
            p.pixel(col, row)
        }
    }
}

/// `Drawable.isTouching` of the queried sprite (nearest or linear silhouette test).
fn touches_cpu(d: &Drawable<'_>, x: f64, y: f64) -> bool {
    let (u, v) = local(d, x, y);
    let t = d.sil;
    let px = libm::floor(u * f64::from(t.width.saturating_sub(1)));
    let py = libm::floor(v * f64::from(t.height.saturating_sub(1)));
    if d.nearest {
        alpha_at(t, px, py) > 0
    } else {
        alpha_at(t, px, py) > 0
            || alpha_at(t, px + 1.0, py) > 0
            || alpha_at(t, px, py + 1.0) > 0
            || alpha_at(t, px + 1.0, py + 1.0) > 0
    }
}

/// The GPU fragment of a candidate at a pixel centre (premultiplied, 0..1).
fn shade_gpu(c: &Cand<'_>, x: f64, y: f64) -> Option<[f32; 4]> {
    match c {
        Cand::Costume(d) => d.shade(x, y),
        Cand::Pen(p) => {
            let col = libm::floor(x + 240.0) as i64;
            let row = libm::floor(180.0 - y) as i64;
            let q = p.pixel(col, row);
            let f = |v: u8| f32::from(v) / 255.0;
            Some([f(q[0]), f(q[1]), f(q[2]), f(q[3])])
        }
    }
}

/// The candidate list of `touching color`, kept by the VM between queries so that a query
/// allocates nothing once it has grown (its borrows are relabelled per query, see
/// `relabel`).
#[derive(Default)]
pub struct ColorScratch(pub(crate) Vec<(Cand<'static>, Rect)>);

impl core::fmt::Debug for ColorScratch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ColorScratch(capacity {})", self.0.capacity())
    }
}

impl Clone for ColorScratch {
    fn clone(&self) -> Self {
        ColorScratch::default()
    }
}

/// An emptied candidate list with another borrow lifetime, in the same allocation: collecting
/// a vector's own `into_iter()` into a vector of the same layout is done in place.
/// (`filter_map` is what changes the item type; the vector is empty anyway.)
#[allow(clippy::unnecessary_filter_map)]
pub(crate) fn relabel<'x, 'y>(mut v: Vec<(Cand<'x>, Rect)>) -> Vec<(Cand<'y>, Rect)> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

/// The scan of `isTouchingColor` once the candidates are known: `d` is the asking sprite's
/// drawable (its silhouette the largest level made so far), `mine` its snapped touching
/// bounds, `cands` the other drawables top layer first with their intersections with `mine`.
pub(crate) fn scan(
    d: &Drawable<'_>,
    mine: Rect,
    cands: &[(Cand<'_>, Rect)],
    color: [u8; 3],
    mask: Option<[u8; 3]>,
) -> bool {
    let bounds = if color_matches(color, [0, 0, 0]) {
        mine
    } else if cands.is_empty() {
        return false;
    } else {
        cands.iter().skip(1).fold(cands[0].1, |m, c| m.union(&c.1))
    };
    let width = (bounds.right - bounds.left) as i64;
    let height = (bounds.top - bounds.bottom) as i64;
    let n = cands.len() as i64 + 1;
    let mut y = bounds.bottom;
    while y <= bounds.top {
        let rows = (y - bounds.bottom) as i64;
        if width * height * n >= MAX_CPU_PIXELS && width * rows * n >= MAX_CPU_PIXELS {
            return scan_gpu(d, cands, bounds, rows, color, mask);
        }
        let mut x = bounds.left;
        while x <= bounds.right {
            let hit = match mask {
                Some(m) => mask_matches(sample_cpu(&Cand::Costume(*d), x, y, false), m),
                None => touches_cpu(d, x, y),
            };
            if hit && color_matches(blend_cpu(cands, x, y), color) {
                return true;
            }
            x += 1.0;
        }
        y += 1.0;
    }
    false
}

/// `_isTouchingColorGpuStart` + `_isTouchingColorGpuFin` for the rows not yet scanned.
fn scan_gpu(
    d: &Drawable<'_>,
    cands: &[(Cand<'_>, Rect)],
    bounds: Rect,
    done_rows: i64,
    color: [u8; 3],
    mask: Option<[u8; 3]>,
) -> bool {
    let width = (bounds.right - bounds.left) as i64;
    let height = (bounds.top - bounds.bottom) as i64;
    let mut me = *d;
    me.effects.bits &= !GHOST;
    for j in 0..(height - done_rows).max(0) {
        let y = bounds.top - j as f64 - 0.5;
        for i in 0..width {
            let x = bounds.left + i as f64 + 0.5;
            let Some(s) = me.shade(x, y) else { continue };
            let pass = match mask {
                Some(m) => {
                    (0..3).all(|k| libm::fabsf(s[k] - f32::from(m[k]) / 255.0) <= MASK_TOLERANCE)
                }
                None => s[3] != 0.0,
            };
            if !pass {
                continue;
            }
            let mut dst = [0u8, 0, 0, 255];
            for (c, _) in cands.iter().rev() {
                if let Some(f) = shade_gpu(c, x, y) {
                    blend8(&mut dst, f);
                }
            }
            if dst[3] != 0 && color_matches([dst[0], dst[1], dst[2]], color) {
                return true;
            }
        }
    }
    false
}

/// `RenderWebGL.sampleColor3b`: candidates top to bottom, then white.
fn blend_cpu(cands: &[(Cand<'_>, Rect)], x: f64, y: f64) -> [u8; 3] {
    let mut dst = [0u8; 3];
    let mut alpha = 1.0;
    for (c, _) in cands {
        if alpha == 0.0 {
            break;
        }
        let s = sample_cpu(c, x, y, true);
        for k in 0..3 {
            dst[k] = clamp8(f64::from(dst[k]) + f64::from(s[k]) * alpha);
        }
        alpha *= 1.0 - f64::from(s[3]) / 255.0;
    }
    for v in dst.iter_mut() {
        *v = clamp8(f64::from(*v) + alpha * 255.0);
    }
    dst
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_match_masks() {
        assert!(color_matches([255, 0, 0], [250, 7, 15]));
        assert!(!color_matches([255, 0, 0], [247, 0, 0]));
        assert!(!color_matches([0, 0, 0], [0, 0, 16]));
        assert!(mask_matches([4, 8, 12, 1], [7, 11, 15]));
        assert!(!mask_matches([4, 8, 12, 0], [4, 8, 12]));
    }

    #[test]
    fn clamped_store_rounds_half_to_even() {
        assert_eq!(
            (clamp8(0.5), clamp8(1.5), clamp8(2.5), clamp8(-3.0), clamp8(300.0)),
            (0, 2, 2, 0, 255)
        );
        assert_eq!(clamp8(f64::NAN), 0);
    }
}
