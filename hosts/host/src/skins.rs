//! Costume pixels for a compiled project: decodes every costume of a project from its assets
//! into [`Skin`]s and fills [`Image::skins`] / [`TargetImage::costume_skins`], following
//! scratch-vm 5.0.300's costume loading and scratch-render 2.2.84's skins.
//!
//! - **Bitmaps** (`BitmapSkin`): one level. scratch-vm converts every bitmap to resolution 2:
//!   a costume whose `bitmapResolution` is exactly 1 is doubled (nearest neighbour) and its
//!   rotation centre doubled; anything else is taken as resolution 2. Size = pixels ÷ 2,
//!   rotation centre = `rotationCenterX/Y` ÷ 2, or the centre of the image when either is
//!   not a number.
//! - **Vectors** (`SVGSkin`): scratch-render rasterises a MIP level at scale 2^k (k ≥ −8,
//!   capped at its `_maxTextureScale`, 2048 pixels on the long side) for the scale a sprite
//!   is drawn or touched at. gobo pre-rasterises the levels a sprite can reach: every k ≤ 0
//!   down to 1 pixel (cheap: a third of the 1× level in total), then k = 1, 2, … up to the
//!   largest scale the sprite's size limits allow (`1.5 × stage ÷ costume`, or its initial
//!   size), in passes over all costumes while the project's pixels stay within
//!   [`SkinOptions::budget_bytes`]. Backdrops are drawn at scale 1 only. The core uses the
//!   nearest level below a missing one.
//! - **Empty vectors**: a root `viewBox` with a zero width or height gives an empty skin of
//!   that size (scratch-render's `setEmptyImageData`), centred on its origin.
//! - **Missing or undecodable assets** get scratch-vm's default costume (its storage's
//!   "?" image): a 128 × 128 opaque grey square centred on its middle, as a vector when the
//!   costume was a vector, else as a bitmap of the costume's resolution. Each such costume
//!   is reported as a [`SkinWarning`] (scratch-vm logs a warning and goes on).
//!
//! Costumes with the same asset, rotation centre and resolution share one skin.

use std::collections::BTreeMap;
use std::fmt;

use gobo::scratch::image::{Image, Skin, SkinBitmap};
use gobo::scratch::project::{Costume, Project};

use crate::costume::{decode_costume, CostumeError, SvgCostume};
use crate::sb3::ProjectFiles;

/// Stage size in stage units (scratch-vm's `runtime.stageWidth/Height`).
const STAGE: [f64; 2] = [480.0, 360.0];
/// Lowest MIP exponent scratch-render keeps (1/256 scale).
const MIN_LEVEL: i32 = -8;
/// Longest side of a MIP texture (scratch-render's `MAX_TEXTURE_DIMENSION`).
const MAX_TEXTURE_DIMENSION: f64 = 2048.0;
/// Side of the default ("?") costume in pixels.
const DEFAULT_SIDE: u32 = 128;
/// Grey of the default costume.
const DEFAULT_GREY: u8 = 0xcc;

/// How many pixels to pre-rasterise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkinOptions {
    /// Most RGBA bytes of vector levels above scale 1 for the whole project (levels at or
    /// below scale 1 and bitmaps are always kept).
    pub budget_bytes: u64,
}

impl Default for SkinOptions {
    /// 64 MiB of upscaled vector levels.
    fn default() -> Self {
        SkinOptions { budget_bytes: 64 << 20 }
    }
}

/// A costume that got the default costume instead of its own pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinWarning {
    /// Target name.
    pub target: String,
    /// Costume name.
    pub costume: String,
    /// What went wrong.
    pub problem: SkinProblem,
}

/// Why a costume got the default costume.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SkinProblem {
    /// The asset is not among the project's files.
    MissingAsset {
        /// The asset file name.
        name: String,
    },
    /// The asset could not be decoded.
    Costume(CostumeError),
}

impl fmt::Display for SkinWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "target {:?} costume {:?}: ", self.target, self.costume)?;
        match &self.problem {
            SkinProblem::MissingAsset { name } => write!(f, "asset {name} is missing")?,
            SkinProblem::Costume(e) => write!(f, "{e}")?,
        }
        f.write_str(" (using the default costume)")
    }
}

impl std::error::Error for SkinWarning {}

/// A vector costume waiting for its upscaled levels.
struct Pending {
    skin: usize,
    svg: SvgCostume,
    /// Highest MIP exponent this costume can reach.
    top: i32,
}

/// A costume between decoding and rasterising.
enum Decoded {
    /// Pixels ready (bitmaps, default costumes).
    Ready(Skin),
    /// A parsed vector; levels follow once the sprite's reach is known.
    Vector(Box<SvgCostume>),
    /// Same as an earlier skin.
    Shared(usize),
}

/// Decodes every costume of `project` from `files` and stores the pixels in `image` (which
/// must be `project` compiled: same targets, same costumes). Returns the costumes that got
/// the default costume.
pub fn attach_skins(
    image: &mut Image,
    project: &Project,
    files: &ProjectFiles,
    options: &SkinOptions,
) -> Vec<SkinWarning> {
    let mut warnings = Vec::new();
    let mut shared: BTreeMap<String, usize> = BTreeMap::new();
    let mut pending: Vec<Pending> = Vec::new();
    image.skins.clear();
    for (ti, target) in project.targets.iter().enumerate() {
        let mut decoded = Vec::with_capacity(target.costumes.len());
        for costume in &target.costumes {
            let name = asset_name(costume);
            let key = format!("{name}|{:?}|{:?}", center(costume), costume.bitmap_resolution);
            if let Some(&k) = shared.get(&key) {
                decoded.push(Decoded::Shared(k));
                continue;
            }
            let vector = format_of(&name) == "svg";
            let fresh = decoded.iter().filter(|d| !matches!(d, Decoded::Shared(_))).count();
            shared.insert(key, image.skins.len() + fresh);
            let result = match files.assets.get(&name) {
                None => Err(SkinProblem::MissingAsset { name }),
                Some(bytes) if vector => SvgCostume::parse(bytes, center(costume))
                    .map(|v| {
                        if v.size[0] == 0.0 || v.size[1] == 0.0 {
                            Decoded::Ready(empty_skin(v.size))
                        } else {
                            Decoded::Vector(Box::new(v))
                        }
                    })
                    .map_err(SkinProblem::Costume),
                Some(bytes) => bitmap_skin(costume, &name, bytes)
                    .map(Decoded::Ready)
                    .map_err(SkinProblem::Costume),
            };
            decoded.push(result.unwrap_or_else(|problem| {
                warnings.push(SkinWarning {
                    target: target.name.clone(),
                    costume: costume.name.clone(),
                    problem,
                });
                Decoded::Ready(default_skin(vector, costume))
            }));
        }
        // The largest scale the sprite can be drawn at: its initial size, or the most
        // `setSize` allows for any of its costumes (it clamps against the current one).
        let reach = if target.is_stage {
            1.0
        } else {
            let initial = target.size.map_or(100.0, |n| n.as_f64()).abs() / 100.0;
            decoded
                .iter()
                .filter_map(|d| match d {
                    Decoded::Ready(s) => Some(s.size),
                    Decoded::Vector(v) => Some(v.size),
                    Decoded::Shared(_) => None,
                })
                .map(|[w, h]| (1.5 * STAGE[0] / w).min(1.5 * STAGE[1] / h))
                .fold(if initial.is_finite() { initial } else { 1.0 }, f64::max)
        };
        let mut skins = Vec::with_capacity(decoded.len());
        for (ci, d) in decoded.into_iter().enumerate() {
            let index = match d {
                Decoded::Shared(k) => k,
                Decoded::Ready(skin) => {
                    image.skins.push(skin);
                    image.skins.len() - 1
                }
                Decoded::Vector(svg) => {
                    let skin = image.skins.len();
                    match vector_levels(&svg, reach) {
                        Ok((levels, top)) => {
                            image.skins.push(Skin {
                                size: svg.size,
                                rotation_center: svg.rotation_center,
                                vector: true,
                                levels,
                            });
                            if top > 0 {
                                pending.push(Pending { skin, svg: *svg, top });
                            }
                        }
                        Err(e) => {
                            let costume = &target.costumes[ci];
                            warnings.push(SkinWarning {
                                target: target.name.clone(),
                                costume: costume.name.clone(),
                                problem: SkinProblem::Costume(e),
                            });
                            image.skins.push(default_skin(true, costume));
                        }
                    }
                    skin
                }
            };
            skins.push(Some(index as u32));
        }
        if let Some(t) = image.targets.get_mut(ti) {
            if t.costumes.len() == skins.len() {
                t.costume_skins = skins;
            }
        }
    }
    add_upscaled_levels(image, &pending, options.budget_bytes);
    warnings
}

/// The file name of a costume's asset, as scratch-vm builds it.
fn asset_name(costume: &Costume) -> String {
    match (&costume.md5ext, &costume.asset_id, &costume.data_format) {
        (Some(m), _, _) => m.clone(),
        (None, Some(id), Some(f)) => format!("{id}.{f}"),
        (None, Some(id), None) => id.clone(),
        _ => String::new(),
    }
}

/// The lower-case extension of an asset name (scratch-vm's `dataFormat`).
fn format_of(name: &str) -> String {
    name.split_once('.').map_or("", |(_, e)| e).to_ascii_lowercase()
}

/// The rotation centre when both coordinates are numbers (else scratch-vm computes one).
fn center(costume: &Costume) -> Option<[f64; 2]> {
    let x = costume.rotation_center_x.map(|n| n.as_f64()).filter(|v| !v.is_nan())?;
    let y = costume.rotation_center_y.map(|n| n.as_f64()).filter(|v| !v.is_nan())?;
    Some([x, y])
}

/// A vector skin's levels up to scale 1 and the highest MIP exponent it can reach.
fn vector_levels(svg: &SvgCostume, reach: f64) -> Result<(Vec<SkinBitmap>, i32), CostumeError> {
    let [w, h] = svg.size;
    // scratch-render's _maxTextureScale: the largest power of two (from 2) keeping the long
    // side within the texture limit, else 1.
    let long = w.max(h).ceil();
    let mut max_scale = 1.0;
    let mut test = 2.0;
    while long * test <= MAX_TEXTURE_DIMENSION {
        max_scale = test;
        test *= 2.0;
    }
    let top = mip_exponent(reach.min(max_scale));
    let mut levels = Vec::new();
    for k in MIN_LEVEL..=top.min(0) {
        let scale = pow2(k);
        if (w * scale).floor() < 1.0 || (h * scale).floor() < 1.0 {
            continue;
        }
        let img = svg.render(scale)?;
        levels.push(SkinBitmap { scale, width: img.width, height: img.height, rgba: img.rgba });
    }
    if levels.is_empty() {
        // Under a pixel at every scale up to 1: keep the 1× level so the skin exists.
        let img = svg.render(1.0)?;
        levels.push(SkinBitmap {
            scale: 1.0,
            width: img.width,
            height: img.height,
            rgba: img.rgba,
        });
    }
    Ok((levels, top))
}

/// ⌈log2(scale)⌉ clamped to the levels scratch-render keeps.
fn mip_exponent(scale: f64) -> i32 {
    if scale.is_nan() || scale <= 0.0 || !scale.is_finite() {
        return 0;
    }
    (scale.log2().ceil() as i32).max(MIN_LEVEL)
}

/// 2^k.
fn pow2(k: i32) -> f64 {
    2f64.powi(k)
}

/// Adds vector levels above scale 1 in passes (all 2×, then all 4×, ...) within `budget`.
fn add_upscaled_levels(image: &mut Image, pending: &[Pending], budget: u64) {
    let mut used: u64 = 0;
    let top = pending.iter().map(|p| p.top).max().unwrap_or(0);
    for k in 1..=top {
        let scale = pow2(k);
        for p in pending.iter().filter(|p| p.top >= k) {
            let [w, h] = p.svg.size;
            let bytes = ((w * scale).floor() * (h * scale).floor() * 4.0) as u64;
            if used.saturating_add(bytes) > budget {
                continue;
            }
            let Ok(img) = p.svg.render(scale) else { continue };
            used += img.rgba.len() as u64;
            if let Some(skin) = image.skins.get_mut(p.skin) {
                skin.levels.push(SkinBitmap {
                    scale,
                    width: img.width,
                    height: img.height,
                    rgba: img.rgba,
                });
            }
        }
    }
}

/// A bitmap skin at resolution 2, as scratch-vm's `loadBitmap_` makes it.
fn bitmap_skin(costume: &Costume, name: &str, bytes: &[u8]) -> Result<Skin, CostumeError> {
    let mut as_format = costume.clone();
    as_format.data_format = Some(format_of(name));
    let img = decode_costume(&as_format, bytes, 1.0)?;
    let double = costume.bitmap_resolution.map(|n| n.as_f64()) == Some(1.0);
    let (width, height, rgba) = if double {
        double_pixels(&img.rgba, img.width, img.height)
    } else {
        (img.width, img.height, img.rgba)
    };
    let factor = if double { 2.0 } else { 1.0 };
    let size = [f64::from(width) / 2.0, f64::from(height) / 2.0];
    let rotation_center = center(costume)
        .map_or([size[0] / 2.0, size[1] / 2.0], |[x, y]| [x * factor / 2.0, y * factor / 2.0]);
    Ok(Skin {
        size,
        rotation_center,
        vector: false,
        levels: vec![SkinBitmap { scale: 2.0, width, height, rgba }],
    })
}

/// Doubles an image in both directions (nearest neighbour, as scratch-svg-renderer's
/// `BitmapAdapter.resize`).
fn double_pixels(rgba: &[u8], width: u32, height: u32) -> (u32, u32, Vec<u8>) {
    let (w2, h2) = (width.saturating_mul(2), height.saturating_mul(2));
    let mut out = Vec::with_capacity(rgba.len() * 4);
    for row in rgba.chunks_exact(width.max(1) as usize * 4).take(height as usize) {
        let mut doubled = Vec::with_capacity(row.len() * 2);
        for px in row.chunks_exact(4) {
            doubled.extend_from_slice(px);
            doubled.extend_from_slice(px);
        }
        out.extend_from_slice(&doubled);
        out.extend_from_slice(&doubled);
    }
    (w2, h2, out)
}

/// `SVGSkin` of a viewBox with a zero width or height: `setEmptyImageData` (one transparent
/// pixel); the rotation centre is never set, so it stays at the origin.
fn empty_skin(size: [f64; 2]) -> Skin {
    Skin {
        size,
        rotation_center: [0.0, 0.0],
        vector: true,
        levels: vec![SkinBitmap { scale: 1.0, width: 1, height: 1, rgba: vec![0; 4] }],
    }
}

/// scratch-vm's default costume: a 128 × 128 opaque grey square centred on its middle (the
/// "?" glyph of the original is not drawn: it lies inside the square, so bounds and
/// touching are the same).
fn default_skin(vector: bool, costume: &Costume) -> Skin {
    let side = DEFAULT_SIDE;
    let rgba: Vec<u8> = std::iter::repeat_n(
        [DEFAULT_GREY, DEFAULT_GREY, DEFAULT_GREY, 255],
        (side * side) as usize,
    )
    .flatten()
    .collect();
    if vector {
        let s = f64::from(side);
        return Skin {
            size: [s, s],
            rotation_center: [s / 2.0, s / 2.0],
            vector: true,
            levels: vec![SkinBitmap { scale: 1.0, width: side, height: side, rgba }],
        };
    }
    let double = costume.bitmap_resolution.map(|n| n.as_f64()) == Some(1.0);
    let (width, height, rgba) =
        if double { double_pixels(&rgba, side, side) } else { (side, side, rgba) };
    let size = [f64::from(width) / 2.0, f64::from(height) / 2.0];
    Skin {
        size,
        rotation_center: [size[0] / 2.0, size[1] / 2.0],
        vector: false,
        levels: vec![SkinBitmap { scale: 2.0, width, height, rgba }],
    }
}
