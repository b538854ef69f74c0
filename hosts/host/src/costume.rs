//! Costume decoding: PNG and JPEG bitmaps and SVG vectors → straight-alpha RGBA pixels plus
//! the size and rotation centre in stage units, the way scratch-render sizes its skins.
//!
//! - Bitmaps (`BitmapSkin`): `bitmapResolution` pixels per stage unit; size = pixels ÷
//!   resolution; rotation centre = `rotationCenterX/Y` ÷ resolution.
//! - Vectors (`SVGSkin`): size = the `viewBox` width and height (else `width`/`height`);
//!   rotation centre = `rotationCenterX/Y` minus the `viewBox` origin; rasterised at a chosen
//!   scale into ⌊size × scale⌋ pixels (a canvas truncates fractional sizes).
//!
//! Hostile input is refused with a [`CostumeError`]: images past [`MAX_PIXELS`], SVG that
//! refers to anything outside itself (files, URLs, external entities), undecodable bytes.
//! The core holds no decoder; it receives these pixels.

use std::fmt;

use gobo::scratch::project::Costume;

pub use crate::costume_svg::SvgCostume;

/// Most pixels a decoded or rasterised costume may have (4096 × 4096).
pub const MAX_PIXELS: u64 = 4096 * 4096;

/// A decoded costume.
#[derive(Debug, Clone, PartialEq)]
pub struct CostumeImage {
    /// Width of `rgba` in pixels.
    pub width: u32,
    /// Height of `rgba` in pixels.
    pub height: u32,
    /// Straight (not premultiplied) RGBA, 8 bits per channel, rows top to bottom.
    pub rgba: Vec<u8>,
    /// Pixels per stage unit: `bitmapResolution` for bitmaps, the raster scale for vectors.
    pub resolution: f64,
    /// The skin size in stage units (width, height).
    pub size: [f64; 2],
    /// The rotation centre in stage units from the top-left corner.
    pub rotation_center: [f64; 2],
}

/// Why a costume could not be decoded.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CostumeError {
    /// A `dataFormat` gobo does not decode (e.g. `gif`).
    UnsupportedFormat {
        /// The format.
        format: String,
    },
    /// The bytes are not a valid image of the format.
    Decode {
        /// `png`, `jpg` or `svg`.
        format: &'static str,
        /// What the decoder reported.
        message: String,
    },
    /// The image is larger than [`MAX_PIXELS`] or has a zero or absurd size.
    BadSize {
        /// Width in pixels (or stage units for SVG).
        width: f64,
        /// Height.
        height: f64,
    },
    /// An SVG refers to something outside itself.
    ExternalReference {
        /// The reference.
        reference: String,
    },
}

impl fmt::Display for CostumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CostumeError::UnsupportedFormat { format } => {
                write!(f, "costume format {format:?} is not supported")
            }
            CostumeError::Decode { format, message } => {
                write!(f, "invalid {format} costume: {message}")
            }
            CostumeError::BadSize { width, height } => {
                write!(f, "costume size {width} × {height} is out of range")
            }
            CostumeError::ExternalReference { reference } => {
                write!(f, "SVG costume refers outside itself: {reference:?}")
            }
        }
    }
}

impl std::error::Error for CostumeError {}

/// Decodes a costume's asset bytes. `svg_scale` is the raster scale for vectors (1.0 gives one
/// pixel per stage unit, as scratch-render's first mip level); bitmaps ignore it.
pub fn decode_costume(
    costume: &Costume,
    bytes: &[u8],
    svg_scale: f64,
) -> Result<CostumeImage, CostumeError> {
    let format = costume.data_format.as_deref().unwrap_or_else(|| {
        costume.md5ext.as_deref().and_then(|m| m.rsplit_once('.')).map_or("", |(_, e)| e)
    });
    let center = [
        costume.rotation_center_x.map(|n| n.as_f64()),
        costume.rotation_center_y.map(|n| n.as_f64()),
    ];
    match format.to_ascii_lowercase().as_str() {
        "svg" => crate::costume_svg::decode_svg(bytes, center, svg_scale),
        "png" | "jpg" | "jpeg" => {
            let (width, height, rgba) = if format.eq_ignore_ascii_case("png") {
                decode_png(bytes)?
            } else {
                decode_jpeg(bytes)?
            };
            let resolution = match costume.bitmap_resolution.map(|n| n.as_f64()) {
                Some(r) if r.is_finite() && r > 0.0 => r,
                _ => 1.0,
            };
            let size = [f64::from(width) / resolution, f64::from(height) / resolution];
            // scratch-vm centres a bitmap without a rotation centre.
            let rotation_center = [
                center[0].map_or(size[0] / 2.0, |c| c / resolution),
                center[1].map_or(size[1] / 2.0, |c| c / resolution),
            ];
            Ok(CostumeImage { width, height, rgba, resolution, size, rotation_center })
        }
        other => Err(CostumeError::UnsupportedFormat { format: other.to_string() }),
    }
}

pub(crate) fn check_pixels(width: f64, height: f64) -> Result<(), CostumeError> {
    let ok = width.is_finite()
        && height.is_finite()
        && width >= 1.0
        && height >= 1.0
        && width * height <= MAX_PIXELS as f64;
    if ok {
        Ok(())
    } else {
        Err(CostumeError::BadSize { width, height })
    }
}

fn decode_png(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), CostumeError> {
    let err =
        |e: png::DecodingError| CostumeError::Decode { format: "png", message: e.to_string() };
    let mut decoder = png::Decoder::new_with_limits(
        std::io::Cursor::new(bytes),
        png::Limits { bytes: (MAX_PIXELS * 8) as usize },
    );
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(err)?;
    let (w, h) = (reader.info().width, reader.info().height);
    check_pixels(f64::from(w), f64::from(h))?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).map_err(err)?;
    let data = buf.get(..frame.buffer_size()).unwrap_or(&[]);
    let rgba = match frame.color_type {
        png::ColorType::Rgba => data.to_vec(),
        png::ColorType::Rgb => data.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => {
            data.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect()
        }
        png::ColorType::Grayscale => data.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => {
            return Err(CostumeError::Decode {
                format: "png",
                message: "palette was not expanded".into(),
            })
        }
    };
    Ok((frame.width, frame.height, rgba))
}

fn decode_jpeg(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), CostumeError> {
    let err =
        |e: jpeg_decoder::Error| CostumeError::Decode { format: "jpg", message: e.to_string() };
    let mut decoder = jpeg_decoder::Decoder::new(bytes);
    decoder.set_max_decoding_buffer_size((MAX_PIXELS * 4) as usize);
    decoder.read_info().map_err(err)?;
    let info = decoder
        .info()
        .ok_or_else(|| CostumeError::Decode { format: "jpg", message: "no image header".into() })?;
    check_pixels(f64::from(info.width), f64::from(info.height))?;
    let data = decoder.decode().map_err(err)?;
    use jpeg_decoder::PixelFormat;
    let rgba: Vec<u8> = match info.pixel_format {
        PixelFormat::RGB24 => data.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        PixelFormat::L8 => data.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        PixelFormat::L16 => data.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], 255]).collect(),
        PixelFormat::CMYK32 => data
            .chunks_exact(4)
            .flat_map(|p| {
                let k = u16::from(255 - p[3]);
                let ch = |c: u8| ((u16::from(255 - c) * k) / 255) as u8;
                [ch(p[0]), ch(p[1]), ch(p[2]), 255]
            })
            .collect(),
    };
    let expected = u64::from(info.width) * u64::from(info.height) * 4;
    if rgba.len() as u64 != expected {
        return Err(CostumeError::Decode { format: "jpg", message: "truncated pixel data".into() });
    }
    Ok((u32::from(info.width), u32::from(info.height), rgba))
}
