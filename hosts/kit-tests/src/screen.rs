//! OLED pictures on both sides: QEMU's `screendump` (a PPM showing the SSD0323's 128x64 pixels
//! magnified 4 times) decoded back to 4-bit levels, and the host rendering of a kit app frame
//! into the same packed framebuffer type the firmware uses.

use embedded_graphics::framebuffer::{buffer_size, Framebuffer};
use embedded_graphics::pixelcolor::raw::{BigEndian, RawU4};
use embedded_graphics::pixelcolor::Gray4;
use gobo::kit::App;

/// OLED width.
pub const WIDTH: usize = 128;
/// OLED height.
pub const HEIGHT: usize = 64;
/// QEMU's magnification of the SSD0323 picture.
pub const MAGNIFY: usize = 4;

/// The firmware's framebuffer type (`firmware/lm3s6965/src/oled.rs`).
pub type OledFramebuffer =
    Framebuffer<Gray4, RawU4, BigEndian, WIDTH, HEIGHT, { buffer_size::<Gray4>(WIDTH, HEIGHT) }>;

/// A 128x64 picture of 4-bit grey levels, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screenshot {
    /// One level (0..=15) per pixel.
    pub levels: Vec<u8>,
}

impl Screenshot {
    /// The host rendering of `app`'s current frame, drawn exactly as the firmware draws it.
    pub fn render(app: &App<'_>) -> Self {
        let mut fb = OledFramebuffer::new();
        let Ok(()) = app.draw(&mut fb);
        // The bytes the firmware sends to the SSD0323: left pixel in the high nibble.
        let levels = fb.data().iter().flat_map(|b| [b >> 4, b & 0x0F]).collect();
        Self { levels }
    }

    /// Number of pixels that differ from `other`, and the first one as (x, y, self, other).
    pub fn diff(&self, other: &Self) -> (usize, Option<(usize, usize, u8, u8)>) {
        let mut first = None;
        let mut count = 0;
        for (i, (a, b)) in self.levels.iter().zip(&other.levels).enumerate() {
            if a != b {
                count += 1;
                first.get_or_insert((i % WIDTH, i / WIDTH, *a, *b));
            }
        }
        (count, first)
    }

    /// Pixels that are not black.
    pub fn lit(&self) -> usize {
        self.levels.iter().filter(|&&v| v != 0).count()
    }
}

/// Decodes a binary PPM (P6) screendump of the OLED: 512x256, every 4x4 block one grey level
/// `v * 17`. Fails on any other size, a non-grey or non-uniform block, or a level off the scale.
pub fn parse_ppm(bytes: &[u8]) -> Result<Screenshot, String> {
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if start == at {
            return Err("header ends early".into());
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    let pixels = bytes.get(at + 1..).ok_or("no pixel data")?;
    let (w, h) = (WIDTH * MAGNIFY, HEIGHT * MAGNIFY);
    if fields[0] != "P6" || fields[1] != w.to_string() || fields[2] != h.to_string() {
        return Err(format!("expected P6 {w}x{h}, got {fields:?}"));
    }
    if pixels.len() != w * h * 3 {
        return Err(format!("{} pixel bytes, expected {}", pixels.len(), w * h * 3));
    }
    let mut levels = Vec::with_capacity(WIDTH * HEIGHT);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let at = |dx: usize, dy: usize| {
                let i = ((y * MAGNIFY + dy) * w + x * MAGNIFY + dx) * 3;
                [pixels[i], pixels[i + 1], pixels[i + 2]]
            };
            let rgb = at(0, 0);
            for dy in 0..MAGNIFY {
                for dx in 0..MAGNIFY {
                    if at(dx, dy) != rgb {
                        return Err(format!("block at ({x}, {y}) is not uniform"));
                    }
                }
            }
            if rgb[0] != rgb[1] || rgb[1] != rgb[2] || rgb[0] % 17 != 0 {
                return Err(format!("pixel ({x}, {y}) is {rgb:?}, not a 4-bit grey"));
            }
            levels.push(rgb[0] / 17);
        }
    }
    Ok(Screenshot { levels })
}
