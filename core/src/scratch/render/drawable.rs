//! A target as scratch-render draws it: its skin and MIP level, the model matrix of
//! `Drawable._calculateTransform` (rounded position, rendered direction and scale by rotation
//! style, rotation centre) with its inverse, the effect uniforms and the filtering mode; and
//! texel sampling as the GPU does it (nearest or bilinear, clamped to the edge, premultiplied).

use crate::scratch::geom::mip::mip_index;
use crate::scratch::geom::transform::Pose;
use crate::scratch::geom::Transform;
use crate::scratch::image::{Skin, SkinBitmap};

use super::effects::{Effects, SHAPE};

/// The MIP scale `SVGSkin.getTexture` uses at `scale_max` percent ([`mip_scale`] of
/// `crate::scratch::geom::mip`; 1 for NaN).
pub fn mip_scale(scale_max: f64) -> f64 {
    crate::scratch::geom::mip::mip_scale(scale_max).unwrap_or(1.0)
}

/// The level of `skin` drawn at a drawable scale (`crate::scratch::geom::mip::mip_index`,
/// the one rule the renderer and the geometry share).
pub fn pick_level(skin: &Skin, scale: [f64; 2]) -> Option<&SkinBitmap> {
    skin.levels.get(mip_index(skin, scale)?)
}

/// The level whose pixels form the CPU silhouette of a drawable seen on its own: an
/// `SVGSkin`'s silhouette is its largest MIP made so far, and touching queries make the 1×
/// one (`getTexture([100, 100])`), so this is the level of the larger of `scale` and 100 %.
/// The VM keeps the real history per costume (`Vm::request_mip`) and touching uses that.
pub fn silhouette_level(skin: &Skin, scale: [f64; 2]) -> Option<&SkinBitmap> {
    let s = libm::fabs(scale[0]).max(libm::fabs(scale[1])).max(100.0);
    skin.levels.get(mip_index(skin, [s, s])?)
}

/// A drawable ready to be sampled at stage points.
#[derive(Clone, Copy, Debug)]
pub struct Drawable<'a> {
    /// The skin.
    pub skin: &'a Skin,
    /// The texture level drawn.
    pub tex: &'a SkinBitmap,
    /// The level of its CPU silhouette ([`silhouette_level`]).
    pub sil: &'a SkinBitmap,
    /// Inverse model matrix: local = inv · (point − translation).
    inv: [f64; 4],
    /// Translation of the inverse matrix.
    inv_t: [f64; 2],
    /// Effect uniforms.
    pub effects: Effects,
    /// Nearest-neighbour filtering (else bilinear).
    pub nearest: bool,
    /// Axis-aligned bounds in stage coordinates: left, right, bottom, top.
    pub bounds: [f64; 4],
}

impl<'a> Drawable<'a> {
    /// The drawable of a skin placed at `position` with `direction` and `scale` (percent);
    /// `out_scale` is the output's pixels per stage unit (1 at 480×360), which picks the MIP
    /// level as scratch-render does for its framebuffer.
    pub fn new(
        skin: &'a Skin,
        position: [f64; 2],
        direction: f64,
        scale: [f64; 2],
        effects: Effects,
        out_scale: f64,
    ) -> Option<Drawable<'a>> {
        let tex = pick_level(skin, [scale[0] * out_scale, scale[1] * out_scale])?;
        let sil = silhouette_level(skin, scale)?;
        if tex.width == 0 || tex.height == 0 || sil.width == 0 || sil.height == 0 {
            return None;
        }
        // `Drawable._calculateTransform` and twgl's inverse, exactly as the geometry has them.
        let pose = Pose::new(position[0], position[1], direction, scale);
        let xf = Transform::new(&pose, skin.size, skin.rotation_center);
        let [m0, m1, m4, m5, m12, m13] = xf.m;
        let [i0, i1, i4, i5, i12, i13] = xf.inv;
        if !xf.inv.iter().chain(&xf.m).all(|v| v.is_finite()) || m0 * m5 - m4 * m1 == 0.0 {
            return None;
        }
        let (m, t) = ([m0, m1, m4, m5], [m12, m13]);
        let (inv, inv_t) = ([i0, i1, i4, i5], [i12, i13]);
        let mut bounds = [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY];
        for (ax, ay) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)] {
            let x = m[0] * ax + m[2] * ay + t[0];
            let y = m[1] * ax + m[3] * ay + t[1];
            bounds = [bounds[0].min(x), bounds[1].max(x), bounds[2].min(y), bounds[3].max(y)];
        }
        let near100 =
            |v: f64| libm::fabs(v * out_scale) > 99.0 && libm::fabs(v * out_scale) < 101.0;
        let nearest = !skin.vector
            || (effects.bits & SHAPE == 0
                && direction % 90.0 == 0.0
                && near100(scale[0])
                && near100(scale[1]));
        Some(Drawable { skin, tex, sil, inv, inv_t, effects, nearest, bounds })
    }

    /// Texture coordinates (u right, v down, 0..1 over the quad) of a stage point.
    #[inline]
    pub fn local(&self, x: f64, y: f64) -> (f64, f64) {
        let lx = x * self.inv[0] + y * self.inv[2] + self.inv_t[0];
        let ly = x * self.inv[1] + y * self.inv[3] + self.inv_t[1];
        (0.5 - lx, ly + 0.5)
    }

    /// The premultiplied colour (0..1) this drawable's fragment has at stage point (`x`, `y`),
    /// or `None` where its quad does not cover the point.
    #[inline]
    pub fn shade(&self, x: f64, y: f64) -> Option<[f32; 4]> {
        if x < self.bounds[0] || x > self.bounds[1] || y < self.bounds[2] || y > self.bounds[3] {
            return None;
        }
        let (u, v) = self.local(x, y);
        if !(0.0..1.0).contains(&u) || !(0.0..1.0).contains(&v) {
            return None;
        }
        let (u, v) = if self.effects.bits & SHAPE != 0 {
            self.effects.transform_point(u, v, self.skin.size)
        } else {
            (u, v)
        };
        let (u, v) = (u as f32, v as f32);
        let c = if self.nearest {
            sample_nearest(self.tex, u, v)
        } else {
            sample_linear(self.tex, u, v)
        };
        Some(if self.effects.bits == 0 { c } else { self.effects.transform_color(c) })
    }
}

/// Premultiplied texel (`x`, `y`) clamped to the edge, components 0..1.
#[inline]
fn texel(t: &SkinBitmap, x: i64, y: i64) -> [f32; 4] {
    let x = x.clamp(0, i64::from(t.width) - 1) as usize;
    let y = y.clamp(0, i64::from(t.height) - 1) as usize;
    let i = (y * t.width as usize + x) * 4;
    match t.rgba.get(i..i + 4) {
        Some(p) => {
            let a = u32::from(p[3]);
            let pm = |c: u8| ((u32::from(c) * a + 127) / 255) as f32 / 255.0;
            [pm(p[0]), pm(p[1]), pm(p[2]), a as f32 / 255.0]
        }
        None => [0.0; 4],
    }
}

/// GL `NEAREST` sampling with `CLAMP_TO_EDGE`.
pub fn sample_nearest(t: &SkinBitmap, u: f32, v: f32) -> [f32; 4] {
    let x = libm::floorf(u * t.width as f32);
    let y = libm::floorf(v * t.height as f32);
    if !(x.is_finite() && y.is_finite()) {
        return [0.0; 4];
    }
    texel(t, x as i64, y as i64)
}

/// GL `LINEAR` sampling with `CLAMP_TO_EDGE`.
pub fn sample_linear(t: &SkinBitmap, u: f32, v: f32) -> [f32; 4] {
    let x = u * t.width as f32 - 0.5;
    let y = v * t.height as f32 - 0.5;
    if !(x.is_finite() && y.is_finite()) {
        return [0.0; 4];
    }
    let (x0, y0) = (libm::floorf(x), libm::floorf(y));
    let (fx, fy) = (x - x0, y - y0);
    let (x0, y0) = (x0 as i64, y0 as i64);
    let a = texel(t, x0, y0);
    let b = texel(t, x0 + 1, y0);
    let c = texel(t, x0, y0 + 1);
    let d = texel(t, x0 + 1, y0 + 1);
    let mut out = [0.0; 4];
    for k in 0..4 {
        let top = a[k] + (b[k] - a[k]) * fx;
        let bottom = c[k] + (d[k] - c[k]) * fx;
        out[k] = top + (bottom - top) * fy;
    }
    out
}
