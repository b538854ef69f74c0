//! PNG output for every host: encode an 8-bit RGB or RGBA pixel buffer (row-major, top row
//! first, no padding) to PNG bytes or a file. Deterministic: same pixels, same bytes.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Layout of one pixel in the buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelFormat {
    /// 3 bytes per pixel: red, green, blue.
    Rgb8,
    /// 4 bytes per pixel: red, green, blue, alpha.
    Rgba8,
}

impl PixelFormat {
    /// Bytes per pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            PixelFormat::Rgb8 => 3,
            PixelFormat::Rgba8 => 4,
        }
    }
}

/// Why a PNG could not be produced.
#[derive(Debug)]
#[non_exhaustive]
pub enum PngError {
    /// The buffer length does not match `width * height * bytes_per_pixel`.
    BufferSize { expected: usize, actual: usize },
    /// Width or height is zero or too large for PNG.
    Dimensions { width: u32, height: u32 },
    /// The encoder failed.
    Encode(String),
    /// Writing the file failed.
    Io { path: PathBuf, source: io::Error },
}

impl fmt::Display for PngError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PngError::BufferSize { expected, actual } => {
                write!(f, "pixel buffer has {actual} bytes, expected {expected}")
            }
            PngError::Dimensions { width, height } => {
                write!(f, "invalid image size {width}x{height}")
            }
            PngError::Encode(msg) => write!(f, "PNG encoding failed: {msg}"),
            PngError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for PngError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PngError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Encodes pixels as PNG bytes.
pub fn encode_png(
    width: u32,
    height: u32,
    format: PixelFormat,
    pixels: &[u8],
) -> Result<Vec<u8>, PngError> {
    if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
        return Err(PngError::Dimensions { width, height });
    }
    let expected = (width as usize)
        .checked_mul(height as usize)
        .and_then(|n| n.checked_mul(format.bytes_per_pixel()))
        .ok_or(PngError::Dimensions { width, height })?;
    if pixels.len() != expected {
        return Err(PngError::BufferSize { expected, actual: pixels.len() });
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(match format {
            PixelFormat::Rgb8 => png::ColorType::Rgb,
            PixelFormat::Rgba8 => png::ColorType::Rgba,
        });
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| PngError::Encode(e.to_string()))?;
        writer.write_image_data(pixels).map_err(|e| PngError::Encode(e.to_string()))?;
        writer.finish().map_err(|e| PngError::Encode(e.to_string()))?;
    }
    Ok(out)
}

/// Encodes pixels and writes them to `path`.
pub fn write_png(
    path: &Path,
    width: u32,
    height: u32,
    format: PixelFormat,
    pixels: &[u8],
) -> Result<(), PngError> {
    let bytes = encode_png(width, height, format, pixels)?;
    std::fs::write(path, bytes).map_err(|source| PngError::Io { path: path.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_decodes_rgb() {
        let pixels = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30];
        let bytes = encode_png(2, 2, PixelFormat::Rgb8, &pixels).expect("encode");
        let decoder = png::Decoder::new(bytes.as_slice());
        let mut reader = decoder.read_info().expect("header");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("frame");
        assert_eq!((info.width, info.height), (2, 2));
        assert_eq!(&buf[..info.buffer_size()], &pixels);
    }

    #[test]
    fn rejects_wrong_sizes() {
        assert!(matches!(
            encode_png(2, 2, PixelFormat::Rgba8, &[0; 12]),
            Err(PngError::BufferSize { expected: 16, actual: 12 })
        ));
        assert!(matches!(
            encode_png(0, 2, PixelFormat::Rgb8, &[]),
            Err(PngError::Dimensions { .. })
        ));
    }

    #[test]
    fn is_deterministic() {
        let pixels = vec![7u8; 5 * 3 * 4];
        let a = encode_png(5, 3, PixelFormat::Rgba8, &pixels).expect("a");
        let b = encode_png(5, 3, PixelFormat::Rgba8, &pixels).expect("b");
        assert_eq!(a, b);
    }
}
