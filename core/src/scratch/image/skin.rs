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

/// Largest skin side, in stage units (a costume may have at most 4096 × 4096 pixels).
pub const MAX_SKIN_SIDE: f64 = 16_777_216.0;
/// Largest skin area, in square stage units (the hull samples one point per unit²).
pub const MAX_SKIN_AREA: f64 = 16_777_216.0;

/// What is wrong with a [`Skin`] (`Vm::new` refuses the image with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkinFault {
    /// The size is not finite, negative, or past [`MAX_SKIN_SIDE`] / [`MAX_SKIN_AREA`].
    BadSize,
    /// The rotation centre is not finite.
    BadCentre,
    /// There is no level.
    NoLevels,
    /// A level's scale is not a positive finite number.
    BadScale {
        /// Index of the level.
        level: u32,
    },
    /// A level's scale is not above the previous one.
    NotAscending {
        /// Index of the level.
        level: u32,
    },
    /// A level is zero pixels wide or high.
    EmptyLevel {
        /// Index of the level.
        level: u32,
    },
    /// A level's buffer is not `width × height × 4` bytes.
    PixelCount {
        /// Index of the level.
        level: u32,
        /// `width × height × 4` (saturating).
        expected: u64,
        /// The buffer's length.
        found: u64,
    },
}

impl core::fmt::Display for SkinFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SkinFault::BadSize => f.write_str("size out of range"),
            SkinFault::BadCentre => f.write_str("rotation centre not finite"),
            SkinFault::NoLevels => f.write_str("no level"),
            SkinFault::BadScale { level } => write!(f, "level {level}: scale not positive"),
            SkinFault::NotAscending { level } => {
                write!(f, "level {level}: scale not above the previous level's")
            }
            SkinFault::EmptyLevel { level } => write!(f, "level {level}: zero width or height"),
            SkinFault::PixelCount { level, expected, found } => {
                write!(f, "level {level}: {found} pixel bytes, expected {expected}")
            }
        }
    }
}

impl core::error::Error for SkinFault {}

impl Skin {
    /// Checks that the skin is well formed: a finite size within [`MAX_SKIN_SIDE`] and
    /// [`MAX_SKIN_AREA`], a finite centre, at least one level, levels ascending by a positive
    /// finite scale, each at least 1 × 1 with exactly `width * height * 4` bytes.
    pub fn check(&self) -> Result<(), SkinFault> {
        let [w, h] = self.size;
        let side_ok = |v: f64| v.is_finite() && (0.0..=MAX_SKIN_SIDE).contains(&v);
        if !(side_ok(w) && side_ok(h) && w * h <= MAX_SKIN_AREA) {
            return Err(SkinFault::BadSize);
        }
        if !self.rotation_center.iter().all(|v| v.is_finite()) {
            return Err(SkinFault::BadCentre);
        }
        if self.levels.is_empty() {
            return Err(SkinFault::NoLevels);
        }
        let mut previous = 0.0;
        for (k, l) in self.levels.iter().enumerate() {
            let level = k as u32;
            if !(l.scale.is_finite() && l.scale > 0.0) {
                return Err(SkinFault::BadScale { level });
            }
            if k > 0 && l.scale <= previous {
                return Err(SkinFault::NotAscending { level });
            }
            previous = l.scale;
            if l.width == 0 || l.height == 0 {
                return Err(SkinFault::EmptyLevel { level });
            }
            let expected = u64::from(l.width).saturating_mul(u64::from(l.height)).saturating_mul(4);
            let found = l.rgba.len() as u64;
            if expected != found {
                return Err(SkinFault::PixelCount { level, expected, found });
            }
        }
        Ok(())
    }

    /// Whether [`Skin::check`] finds nothing wrong.
    pub fn is_valid(&self) -> bool {
        self.check().is_ok()
    }
}
