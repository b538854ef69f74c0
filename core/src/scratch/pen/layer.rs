//! The pen layer: a stage-sized buffer of premultiplied RGBA8 pixels (rows top to bottom),
//! drawn as scratch-render's `PenSkin` draws into its framebuffer: round-capped lines whose
//! coverage is the line shader's (`sprite.frag`, `DRAW_MODE_line`), blended with
//! `ONE, ONE_MINUS_SRC_ALPHA`. Allocated by the VM only once a pen block runs.

use crate::clamp::clampf;
use alloc::vec;
use alloc::vec::Vec;

/// Stage width in Scratch units.
pub const STAGE_W: u32 = 480;
/// Stage height in Scratch units.
pub const STAGE_H: u32 = 360;

/// The pen layer's pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PenLayer {
    width: u32,
    height: u32,
    /// Premultiplied RGBA8, `width * height * 4` bytes.
    rgba: Vec<u8>,
}

impl PenLayer {
    /// A transparent layer of `width × height` pixels covering the 480×360 stage (480×360 is
    /// scratch-render's native size; smaller layers scale coordinates and line widths).
    pub fn new(width: u32, height: u32) -> PenLayer {
        let width = width.max(1);
        let height = height.max(1);
        PenLayer { width, height, rgba: vec![0; width as usize * height as usize * 4] }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The premultiplied RGBA8 pixels, rows top to bottom.
    pub fn pixels(&self) -> &[u8] {
        &self.rgba
    }

    /// Premultiplied RGBA of pixel (`col`, `row`); transparent outside.
    #[inline]
    pub fn pixel(&self, col: i64, row: i64) -> [u8; 4] {
        if col < 0 || row < 0 || col >= i64::from(self.width) || row >= i64::from(self.height) {
            return [0; 4];
        }
        let i = (row as usize * self.width as usize + col as usize) * 4;
        match self.rgba.get(i..i + 4) {
            Some(p) => [p[0], p[1], p[2], p[3]],
            None => [0; 4],
        }
    }

    /// `PenSkin.clear`: transparent black.
    pub fn clear(&mut self) {
        self.rgba.fill(0);
    }

    /// Blend one premultiplied source colour (components 0..1) over pixel (`col`, `row`).
    #[inline]
    pub(crate) fn blend(&mut self, col: usize, row: usize, src: [f32; 4]) {
        if col >= self.width as usize || row >= self.height as usize {
            return;
        }
        let i = (row * self.width as usize + col) * 4;
        if let Some(p) = self.rgba.get_mut(i..i + 4) {
            let k = 1.0 - src[3];
            for c in 0..4 {
                let v = src[c] + f32::from(p[c]) / 255.0 * k;
                p[c] = unorm8(v);
            }
        }
    }

    /// `PenSkin.drawLine` from (`x0`, `y0`) to (`x1`, `y1`) in Scratch coordinates, with
    /// straight RGBA `color` (0..1) and `diameter` (a point when both ends are equal).
    pub fn draw_line(
        &mut self,
        color: [f64; 4],
        diameter: f64,
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
    ) {
        // Lines of width 1 and 3 are offset by half a pixel so they are pixel-aligned.
        let offset = if diameter == 1.0 || diameter == 3.0 { 0.5 } else { 0.0 };
        let sx = f64::from(self.width) / f64::from(STAGE_W);
        let sy = f64::from(self.height) / f64::from(STAGE_H);
        // Pixel space: x right from the left edge, y down from the top edge.
        let px0 = (x0 + offset + 240.0) * sx;
        let py0 = (180.0 - (y0 + offset)) * sy;
        let dx = (x1 - x0) * sx;
        let dy = -(y1 - y0) * sy;
        let len = libm::sqrt(dx * dx + dy * dy);
        let thickness = diameter * sx;
        if !(px0.is_finite() && py0.is_finite() && len.is_finite() && thickness.is_finite()) {
            return;
        }
        let a = color[3] as f32;
        let premul = [color[0] as f32 * a, color[1] as f32 * a, color[2] as f32 * a, a];
        // The shader's quad: the line's tight box expanded by half the thickness plus √2.
        let reach = thickness * 0.5 + 1.5;
        let (lx, hx) = (px0.min(px0 + dx) - reach, px0.max(px0 + dx) + reach);
        let (ly, hy) = (py0.min(py0 + dy) - reach, py0.max(py0 + dy) + reach);
        let c0 = libm::floor(lx).max(0.0);
        let c1 = libm::ceil(hx).min(f64::from(self.width));
        let r0 = libm::floor(ly).max(0.0);
        let r1 = libm::ceil(hy).min(f64::from(self.height));
        if c0 >= c1 || r0 >= r1 {
            return;
        }
        const EPS: f32 = 1e-3;
        let (fdx, fdy, flen) = (dx as f32, dy as f32, len as f32);
        let ndx = if fdx.abs() < EPS && fdy.abs() < EPS { EPS } else { fdx };
        let n = (ndx / flen.max(EPS), fdy / flen.max(EPS));
        let half = (thickness as f32 - 1.0) * 0.5;
        let (ox, oy) = (px0 as f32, py0 as f32);
        for row in r0 as usize..r1 as usize {
            let py = row as f32 + 0.5 - oy;
            for col in c0 as usize..c1 as usize {
                let px = col as f32 + 0.5 - ox;
                let along = n.0 * px + n.1 * py;
                let across = n.0 * py - n.1 * px;
                let beyond = along - clampf(along, 0.0, flen);
                let dist = libm::sqrtf(beyond * beyond + across * across);
                let cover = clampf(1.0 - (dist - half), 0.0, 1.0);
                if cover > 0.0 {
                    let s = [premul[0] * cover, premul[1] * cover, premul[2] * cover, a * cover];
                    self.blend(col, row, s);
                }
            }
        }
    }
}

/// A 0..1 float as an 8-bit normalized value (round to nearest, as GL stores colours).
#[inline]
pub(crate) fn unorm8(v: f32) -> u8 {
    let v = clampf(v, 0.0, 1.0) * 255.0 + 0.5;
    v as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pixel_horizontal_line_is_crisp() {
        let mut l = PenLayer::new(480, 360);
        l.draw_line([1.0, 0.0, 0.0, 1.0], 1.0, -10.0, 0.0, 10.0, 0.0);
        // y = 0 with the half-pixel offset lies on row 179's centre.
        assert_eq!(l.pixel(240, 179), [255, 0, 0, 255]);
        assert_eq!(l.pixel(240, 178), [0; 4]);
        assert_eq!(l.pixel(240, 180), [0; 4]);
        // Round caps reach half a pixel beyond each end, fully covering the end pixels.
        assert_eq!(l.pixel(250, 179), [255, 0, 0, 255]);
        assert_eq!(l.pixel(251, 179), [0; 4]);
    }

    #[test]
    fn translucent_dot_is_premultiplied() {
        let mut l = PenLayer::new(480, 360);
        l.draw_line([0.0, 0.0, 1.0, 0.5], 10.0, 0.0, 0.0, 0.0, 0.0);
        assert_eq!(l.pixel(240, 180), [0, 0, 128, 128]);
        assert_eq!(l.pixel(240 + 7, 180), [0; 4]);
        l.clear();
        assert_eq!(l.pixel(240, 180), [0; 4]);
    }
}
