//! Costume pixels in the program image: [`Skin`]s as scratch-render holds them (a `BitmapSkin`
//! or an `SVGSkin` with its pre-rasterised MIP levels). The host decodes assets and fills
//! [`crate::scratch::image::Image::skins`]; the core never decodes an image format.

use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A costume's pixels as scratch-render holds them (a BitmapSkin or SVGSkin).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skin {
    /// Size in stage units (scratch-render's `skin.size`).
    pub size: [f64; 2],
    /// Rotation centre in stage units, from the top-left corner.
    pub rotation_center: [f64; 2],
    /// Came from an SVG: scratch-render picks a mip level by scale; bitmaps have one level.
    pub vector: bool,
    /// Rasterisations, ascending by `scale` (at least one).
    pub levels: Vec<SkinBitmap>,
}

/// One rasterisation of a [`Skin`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkinBitmap {
    /// Pixels per stage unit of this rasterisation.
    pub scale: f64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Straight-alpha RGBA8, rows top to bottom, `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

impl Skin {
    /// Whether the skin is well formed: finite size and centre, at least one level, levels
    /// ascending by a positive finite scale, each with exactly `width * height * 4` bytes.
    pub fn is_valid(&self) -> bool {
        let finite = self.size.iter().chain(&self.rotation_center).all(|v| v.is_finite());
        let levels_ok = self.levels.iter().all(|l| {
            l.scale.is_finite()
                && l.scale > 0.0
                && (l.width as usize)
                    .checked_mul(l.height as usize)
                    .and_then(|n| n.checked_mul(4))
                    .is_some_and(|n| n == l.rgba.len())
        });
        let ascending = self.levels.windows(2).all(|w| w[0].scale < w[1].scale);
        finite && !self.levels.is_empty() && levels_ok && ascending
    }
}
