//! The one rule for which rasterisation of a skin is used at a scale: scratch-render's
//! `SVGSkin.getTexture(scale)` (which `updateSilhouette(scale)` also calls). The renderer uses
//! it to pick the texture it draws, the VM to raise a costume's silhouette level when a
//! touching query, a hull or a draw asks for a scale. Bitmaps have one level.

use crate::clamp::clamp;
use crate::scratch::image::Skin;

/// `SVGSkin.getTexture`'s MIP scale for a drawable scale of `scale_max` percent (the larger
/// of the two axes, absolute): `2^max(⌈log2(scale_max / 100)⌉, −8)`. The 1× level serves
/// scales in (50, 100] %, the 2× level (100, 200] %, and so on. `None` for NaN (scratch-render
/// makes no texture then).
pub fn mip_scale(scale_max: f64) -> Option<f64> {
    let requested = scale_max / 100.0;
    let exponent = libm::ceil(libm::log2(requested));
    if exponent.is_nan() {
        return None;
    }
    // +∞ asks for the largest level (`_maxTextureScale` caps it in scratch-render).
    // An exact power of two, built from its exponent bits (`exp2` would link a 4 KiB table
    // into kit firmware for the same value).
    let e = clamp(exponent, -8.0, 64.0) as i64;
    Some(f64::from_bits(((e + 1023) as u64) << 52))
}

/// The index into `skin.levels` of the level used at `scale` (percent, x and y): for a
/// vector skin the level at [`mip_scale`], or, when the host did not rasterise that one (over
/// the texture size cap or the memory budget), the largest kept level below it. `None`
/// when no kept level is that small (scratch-render's MIP would be under a pixel: it draws
/// nothing and makes no silhouette) or the skin has no level.
pub fn mip_index(skin: &Skin, scale: [f64; 2]) -> Option<usize> {
    if skin.levels.is_empty() {
        return None;
    }
    if !skin.vector {
        return Some(0);
    }
    let want = mip_scale(libm::fabs(scale[0]).max(libm::fabs(scale[1])))?;
    // Levels are exact powers of two; the factor only guards a host's rounding.
    skin.levels.iter().rposition(|l| l.scale <= want * (1.0 + 1e-9))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::image::SkinBitmap;

    fn skin(scales: &[f64]) -> Skin {
        let levels = scales
            .iter()
            .map(|&scale| SkinBitmap { scale, width: 1, height: 1, rgba: alloc::vec![0; 4] })
            .collect();
        Skin { size: [10.0, 10.0], rotation_center: [5.0, 5.0], vector: true, levels }
    }

    #[test]
    fn levels_by_scale() {
        assert_eq!(mip_scale(100.0), Some(1.0));
        assert_eq!(mip_scale(100.1), Some(2.0));
        assert_eq!(mip_scale(50.0), Some(0.5));
        assert_eq!(mip_scale(51.0), Some(1.0));
        assert_eq!(mip_scale(0.0), Some(1.0 / 256.0));
        assert_eq!(mip_scale(f64::NAN), None);
        let s = skin(&[0.25, 0.5, 1.0, 2.0]);
        assert_eq!(mip_index(&s, [100.0, -30.0]), Some(2));
        assert_eq!(mip_index(&s, [-150.0, 30.0]), Some(3));
        // 8× was not kept: the largest level below it.
        assert_eq!(mip_index(&s, [700.0, 700.0]), Some(3));
        // Smaller than every kept level: nothing.
        assert_eq!(mip_index(&s, [10.0, 10.0]), None);
        assert_eq!(mip_index(&s, [f64::INFINITY, 1.0]), Some(3));
        let mut bitmap = skin(&[2.0]);
        bitmap.vector = false;
        assert_eq!(mip_index(&bitmap, [5.0, 5.0]), Some(0));
    }
}
