//! A compact canvas for small displays: one palette index per pixel (one byte), painted by the
//! same [`Painter`] as the full-size [`super::raster::Canvas`], usually at a display's scale.
//! Index 0 is an erased (transparent) pixel, index 1 the opaque white the canvas starts with;
//! every other colour gets the next index the first time it is painted (the drawing app's
//! colours are the UI config's few buttons and black). Past 255 colours a new colour takes the
//! nearest one already in the palette, so painting never fails.

use alloc::vec;
use alloc::vec::Vec;
use core::convert::Infallible;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

use super::raster::{Painter, Surface};
use super::replay::{Op, Pen};

/// The palette index of an erased pixel.
pub const ERASED: u8 = 0;
/// The palette index of the canvas's opaque white.
pub const WHITE: u8 = 1;
/// Most colours a palette holds (indices 1 to 255).
pub const MAX_COLORS: usize = 255;

/// A canvas of palette indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaletteCanvas {
    width: u32,
    height: u32,
    /// One palette index per pixel, row-major.
    pixels: Vec<u8>,
    /// The colour of index `i + 1`.
    palette: Vec<[u8; 3]>,
    erase: bool,
    /// The last colour looked up and its index.
    last: ([u8; 3], u8),
}

impl PaletteCanvas {
    /// An opaque white canvas (dimensions clamped to 1…4096).
    pub fn new(width: u32, height: u32) -> Self {
        let (width, height) = (width.clamp(1, 4096), height.clamp(1, 4096));
        let pixels = vec![WHITE; width as usize * height as usize];
        let white = [255; 3];
        Self { width, height, pixels, palette: vec![white], erase: false, last: (white, WHITE) }
    }

    /// Back to opaque white (the palette stays).
    pub fn clear(&mut self) {
        self.pixels.fill(WHITE);
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The palette indices, row-major.
    pub fn indices(&self) -> &[u8] {
        &self.pixels
    }

    /// The colour of a palette index (`None` for [`ERASED`] or an unused index).
    pub fn color(&self, index: u8) -> Option<[u8; 3]> {
        self.palette.get(usize::from(index).checked_sub(1)?).copied()
    }

    /// The RGBA value at (x, y), as the full-size canvas stores it (erased: `[0, 0, 0, 0]`).
    pub fn pixel(&self, x: i32, y: i32) -> Option<[u8; 4]> {
        let i = self.index(x, y)?;
        let index = *self.pixels.get(i)?;
        Some(self.color(index).map_or([0; 4], |[r, g, b]| [r, g, b, 255]))
    }

    /// Paints one operation with `painter`'s rules and scale.
    pub fn paint(&mut self, painter: &Painter, op: Op, pen: Pen) {
        painter.paint(self, op, pen);
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return None;
        }
        Some(y as usize * self.width as usize + x as usize)
    }

    /// The palette index of `rgb`, adding it while there is room, else the nearest colour's.
    fn lookup(&mut self, rgb: [u8; 3]) -> u8 {
        if self.last.0 == rgb {
            return self.last.1;
        }
        let found = self.palette.iter().position(|c| *c == rgb);
        let k = match found {
            Some(k) => k,
            None if self.palette.len() < MAX_COLORS => {
                self.palette.push(rgb);
                self.palette.len() - 1
            }
            None => nearest(&self.palette, rgb),
        };
        let index = (k + 1) as u8;
        self.last = (rgb, index);
        index
    }

    fn put(&mut self, x: i32, y: i32, c: Rgb888) {
        let index = if self.erase { ERASED } else { self.lookup([c.r(), c.g(), c.b()]) };
        if let Some(slot) = self.index(x, y).and_then(|i| self.pixels.get_mut(i)) {
            *slot = index;
        }
    }
}

/// The position of the colour nearest `rgb` (squared distance; the first on a tie).
fn nearest(palette: &[[u8; 3]], rgb: [u8; 3]) -> usize {
    let dist = |c: &[u8; 3]| -> u32 {
        c.iter().zip(rgb).map(|(&a, b)| u32::from(a.abs_diff(b)).pow(2)).sum()
    };
    let mut best = 0;
    for (k, c) in palette.iter().enumerate() {
        if dist(c) < palette.get(best).map_or(u32::MAX, dist) {
            best = k;
        }
    }
    best
}

impl Surface for PaletteCanvas {
    fn set_erasing(&mut self, erase: bool) {
        self.erase = erase;
    }

    fn rgb_at(&self, x: i32, y: i32) -> Option<[u8; 3]> {
        self.pixel(x, y).map(|p| [p[0], p[1], p[2]])
    }

    fn put_opaque(&mut self, x: i32, y: i32, rgb: [u8; 3]) {
        let erase = core::mem::replace(&mut self.erase, false);
        self.put(x, y, Rgb888::new(rgb[0], rgb[1], rgb[2]));
        self.erase = erase;
    }
}

impl OriginDimensions for PaletteCanvas {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for PaletteCanvas {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<Rgb888>>,
    {
        for Pixel(p, c) in pixels {
            self.put(p.x, p.y, c);
        }
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: Rgb888) -> Result<(), Infallible> {
        let area = area.intersection(&self.bounding_box());
        let Some(br) = area.bottom_right() else { return Ok(()) };
        for y in area.top_left.y..=br.y {
            for x in area.top_left.x..=br.x {
                self.put(x, y, color);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLACK: Pen = Pen { rgb: [0, 0, 0], size: 2.0, erase: false };

    #[test]
    fn colours_get_indices_in_order_and_erasing_is_index_zero() {
        let mut c = PaletteCanvas::new(4, 2);
        let full = Painter::FULL;
        c.paint(&full, Op::Dot((0.0, 0.0)), Pen { size: 1.0, ..BLACK });
        c.paint(&full, Op::Dot((2.0, 0.0)), Pen { rgb: [255, 0, 0], size: 1.0, erase: false });
        c.paint(&full, Op::Dot((3.0, 1.0)), Pen { size: 1.0, erase: true, ..BLACK });
        assert_eq!(c.indices(), [2, 1, 3, 1, 1, 1, 1, ERASED]);
        assert_eq!(c.color(2), Some([0, 0, 0]));
        assert_eq!(c.color(3), Some([255, 0, 0]));
        assert_eq!(c.pixel(3, 1), Some([0, 0, 0, 0]));
        assert_eq!(c.pixel(1, 0), Some([255, 255, 255, 255]));
        c.clear();
        assert!(c.indices().iter().all(|&i| i == WHITE));
    }

    #[test]
    fn a_full_palette_takes_the_nearest_colour() {
        let mut c = PaletteCanvas::new(16, 16);
        for k in 0..300u32 {
            let rgb = [(k % 256) as u8, (k / 256) as u8, 7];
            c.put_opaque((k % 16) as i32, (k / 16 % 16) as i32, rgb);
        }
        assert_eq!(c.palette.len(), MAX_COLORS);
        // White, then (0, 0, 7) .. (253, 0, 7); (254, 0, 7) is nearest to (253, 0, 7).
        let index = c.lookup([254, 0, 7]);
        assert_eq!(c.color(index), Some([253, 0, 7]));
    }
}
