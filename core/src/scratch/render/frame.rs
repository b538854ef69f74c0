//! [`Framebuffer`]: an RGB8 pixel buffer that is an embedded-graphics `DrawTarget`, for hosts
//! that write PNGs and for tests (a kit draws to its display instead).

use alloc::vec;
use alloc::vec::Vec;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;

/// An RGB8 image, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framebuffer {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Framebuffer {
    /// A black `width × height` buffer.
    pub fn new(width: u32, height: u32) -> Framebuffer {
        Framebuffer { width, height, rgb: vec![0; width as usize * height as usize * 3] }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The RGB8 bytes.
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The pixel at (`x`, `y`) (black outside).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        if x >= self.width || y >= self.height {
            return [0; 3];
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

impl OriginDimensions for Framebuffer {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for Framebuffer {
    type Color = Rgb888;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        for Pixel(p, c) in pixels {
            if p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height {
                let i = (p.y as usize * self.width as usize + p.x as usize) * 3;
                self.rgb[i] = c.r();
                self.rgb[i + 1] = c.g();
                self.rgb[i + 2] = c.b();
            }
        }
        Ok(())
    }
}
