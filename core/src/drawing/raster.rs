//! The canvas rasterizer: paints replayed operations ([`super::replay`]) onto an RGBA canvas
//! through embedded-graphics' `DrawTarget`, the way the drawing app shows them: opaque white
//! start, pen strokes with round caps and joins, the eraser making pixels transparent, line /
//! rectangle / circle outlines of the current width, dots of diameter `size`, and the app's
//! flood fill (4-connected, LIFO stack, exact RGB match with alpha ignored, at most 100,001
//! pixels).
//!
//! Not anti-aliased (a browser canvas is), so edges differ from a browser by about a pixel.
//! Geometry is clipped to the canvas before rasterizing and circles are drawn as polygons of at
//! most 20,000 sides, so any coordinates render in bounded time.

use alloc::vec;
use alloc::vec::Vec;
use core::convert::Infallible;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, Line, PrimitiveStyle, Rectangle};

use super::actions::Actions;
use super::replay::{replay, Op, Pen, Point};
use super::ui::UiConfig;

/// Most pixels one flood fill paints (the app stops once its visited set exceeds 100,000).
pub const FILL_LIMIT: usize = 100_001;

/// An RGBA canvas.
#[derive(Debug, Clone, PartialEq)]
pub struct Canvas {
    width: u32,
    height: u32,
    /// RGBA bytes, row-major.
    pixels: Vec<u8>,
    erase: bool,
}

impl Canvas {
    /// An opaque white canvas (dimensions clamped to 1…4096).
    pub fn new(width: u32, height: u32) -> Canvas {
        let (width, height) = (width.clamp(1, 4096), height.clamp(1, 4096));
        Canvas {
            width,
            height,
            pixels: vec![255; width as usize * height as usize * 4],
            erase: false,
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// RGBA bytes, row-major.
    pub fn rgba(&self) -> &[u8] {
        &self.pixels
    }

    /// The RGBA value at (x, y), if inside.
    pub fn pixel(&self, x: i32, y: i32) -> Option<[u8; 4]> {
        let i = self.index(x, y)?;
        let p = self.pixels.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return None;
        }
        Some((y as usize * self.width as usize + x as usize) * 4)
    }

    fn put(&mut self, x: i32, y: i32, c: Rgb888) {
        let erase = self.erase;
        if let Some(i) = self.index(x, y) {
            if let Some(p) = self.pixels.get_mut(i..i + 4) {
                let v = if erase { [0, 0, 0, 0] } else { [c.r(), c.g(), c.b(), 255] };
                p.copy_from_slice(&v);
            }
        }
    }

    /// Renders a whole action sequence on a fresh canvas sized by the UI config.
    pub fn render(actions: &Actions, ui: &UiConfig) -> Canvas {
        let mut canvas = Canvas::new(ui.width.v as u32, ui.height.v as u32);
        replay(actions, ui, |_, op, pen| canvas.paint(op, pen));
        canvas
    }

    /// Paints one operation.
    pub fn paint(&mut self, op: Op, pen: Pen) {
        self.erase = pen.erase;
        let c = Rgb888::new(pen.rgb[0], pen.rgb[1], pen.rgb[2]);
        let w = pen.size;
        match op {
            Op::Segment { from, to, .. } => {
                self.thick_line(from, to, w, c);
                self.disc(from, w, c);
                self.disc(to, w, c);
            }
            Op::Dot(p) => self.disc(p, w, c),
            Op::Line(a, b) => {
                self.thick_line(a, b, w, c);
                self.disc(a, w, c);
                self.disc(b, w, c);
            }
            Op::Rect(a, b) => {
                let corners = [a, (b.0, a.1), b, (a.0, b.1)];
                for k in 0..4 {
                    let (p, q) = (corners[k], corners[(k + 1) % 4]);
                    self.thick_line(p, q, w, c);
                    self.square(p, w, c);
                }
            }
            Op::Circle(center, r) => self.circle(center, r, w, c),
            Op::Fill(p) => {
                self.erase = false;
                self.flood_fill(p, pen.rgb);
            }
        }
        self.erase = false;
    }

    fn clip_margin(&self, w: f64) -> (f64, f64, f64, f64) {
        let m = w + 2.0;
        (-m, -m, f64::from(self.width) + m, f64::from(self.height) + m)
    }

    /// Liang–Barsky clipping of a segment to the canvas grown by the pen width.
    fn clip(&self, a: Point, b: Point, w: f64) -> Option<(Point, Point)> {
        let (x0, y0, x1, y1) = self.clip_margin(w);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [(-dx, a.0 - x0), (dx, x1 - a.0), (-dy, a.1 - y0), (dy, y1 - a.1)] {
            if !p.is_finite() || !q.is_finite() {
                return None;
            }
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
        (t0 <= t1).then_some(((a.0 + t0 * dx, a.1 + t0 * dy), (a.0 + t1 * dx, a.1 + t1 * dy)))
    }

    fn thick_line(&mut self, a: Point, b: Point, w: f64, c: Rgb888) {
        let Some((p, q)) = self.clip(a, b, w) else { return };
        let width = libm::round(w).clamp(1.0, 1000.0) as u32;
        let _ =
            Line::new(pt(p), pt(q)).into_styled(PrimitiveStyle::with_stroke(c, width)).draw(self);
    }

    fn disc(&mut self, p: Point, w: f64, c: Rgb888) {
        let (x0, y0, x1, y1) = self.clip_margin(w);
        if !(p.0 >= x0 && p.0 <= x1 && p.1 >= y0 && p.1 <= y1) {
            return;
        }
        let d = libm::round(w).clamp(1.0, 1000.0) as u32;
        let _ = Circle::with_center(pt(p), d).into_styled(PrimitiveStyle::with_fill(c)).draw(self);
    }

    fn square(&mut self, p: Point, w: f64, c: Rgb888) {
        let (x0, y0, x1, y1) = self.clip_margin(w);
        if !(p.0 >= x0 && p.0 <= x1 && p.1 >= y0 && p.1 <= y1) {
            return;
        }
        let d = libm::round(w).clamp(1.0, 1000.0) as u32;
        let _ = Rectangle::with_center(pt(p), Size::new(d, d))
            .into_styled(PrimitiveStyle::with_fill(c))
            .draw(self);
    }

    fn circle(&mut self, center: Point, r: f64, w: f64, c: Rgb888) {
        if !r.is_finite() || !center.0.is_finite() || !center.1.is_finite() {
            return;
        }
        let n = libm::ceil(2.0 * core::f64::consts::PI * r / 4.0).clamp(16.0, 20_000.0) as usize;
        let at = |k: usize| {
            let a = 2.0 * core::f64::consts::PI * k as f64 / n as f64;
            (center.0 + r * libm::cos(a), center.1 + r * libm::sin(a))
        };
        let mut prev = at(0);
        for k in 1..=n {
            let next = at(k);
            self.thick_line(prev, next, w, c);
            self.disc(next, w, c);
            prev = next;
        }
    }

    /// The app's flood fill.
    fn flood_fill(&mut self, p: Point, rgb: [u8; 3]) {
        let (sx, sy) = (libm::floor(p.0), libm::floor(p.1));
        if !(sx >= 0.0 && sy >= 0.0 && sx < f64::from(self.width) && sy < f64::from(self.height)) {
            return;
        }
        let (sx, sy) = (sx as i32, sy as i32);
        let Some(start) = self.pixel(sx, sy) else { return };
        let target = [start[0], start[1], start[2]];
        if target == rgb {
            return;
        }
        let (w, h) = (self.width as i32, self.height as i32);
        let mut visited = vec![false; (w * h) as usize];
        let mut count = 0usize;
        let mut stack = vec![(sx, sy)];
        while let Some((x, y)) = stack.pop() {
            if x < 0 || x >= w || y < 0 || y >= h {
                continue;
            }
            let at = (y * w + x) as usize;
            if visited.get(at).copied().unwrap_or(true) {
                continue;
            }
            let Some(px) = self.pixel(x, y) else { continue };
            if [px[0], px[1], px[2]] != target {
                continue;
            }
            if let Some(v) = visited.get_mut(at) {
                *v = true;
            }
            count += 1;
            if let Some(i) = self.index(x, y) {
                if let Some(slot) = self.pixels.get_mut(i..i + 4) {
                    slot.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
                }
            }
            if count >= FILL_LIMIT {
                break;
            }
            stack.extend_from_slice(&[(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
        }
    }
}

fn pt(p: Point) -> embedded_graphics::prelude::Point {
    let c = |v: f64| libm::round(v).clamp(-1.0e6, 1.0e6) as i32;
    embedded_graphics::prelude::Point::new(c(p.0), c(p.1))
}

impl OriginDimensions for Canvas {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for Canvas {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = embedded_graphics::Pixel<Rgb888>>,
    {
        for embedded_graphics::Pixel(p, c) in pixels {
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
