//! The canvas rasterizer: paints replayed operations ([`super::replay`]) through
//! embedded-graphics' `DrawTarget`, the way the drawing app shows them: opaque white start, pen
//! strokes with round caps and joins, the eraser making pixels transparent, line / rectangle /
//! circle outlines of the current width, dots of diameter `size`, and the app's flood fill
//! (4-connected, LIFO stack, exact RGB match with alpha ignored, at most 100,001 pixels).
//!
//! [`Painter`] holds these rules at a scale and paints on any [`Surface`]: [`Canvas`] is the
//! full-size RGBA canvas; kits paint at their display's scale on a palette canvas
//! (`crate::kit::drawing`).
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
use crate::clamp::clamp;

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

    /// Paints one operation at full size ([`Painter::FULL`]).
    pub fn paint(&mut self, op: Op, pen: Pen) {
        Painter::FULL.paint(self, op, pen);
    }
}

impl Surface for Canvas {
    fn set_erasing(&mut self, erase: bool) {
        self.erase = erase;
    }

    fn rgb_at(&self, x: i32, y: i32) -> Option<[u8; 3]> {
        self.pixel(x, y).map(|p| [p[0], p[1], p[2]])
    }

    fn put_opaque(&mut self, x: i32, y: i32, rgb: [u8; 3]) {
        if let Some(i) = self.index(x, y) {
            if let Some(slot) = self.pixels.get_mut(i..i + 4) {
                slot.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
            }
        }
    }
}

/// A pixel surface the [`Painter`] paints on: strokes and shapes arrive through `DrawTarget`
/// (in the pen colour, or erasing while [`Surface::set_erasing`] is on), flood fills read and
/// write single pixels.
pub trait Surface: DrawTarget<Color = Rgb888, Error = Infallible> {
    /// Whether pixels drawn through `DrawTarget` erase (become transparent) from now on.
    fn set_erasing(&mut self, erase: bool);
    /// The RGB value at (x, y) with alpha ignored (an erased pixel reads as black), if inside.
    fn rgb_at(&self, x: i32, y: i32) -> Option<[u8; 3]>;
    /// Sets (x, y) to the opaque colour `rgb`, if inside.
    fn put_opaque(&mut self, x: i32, y: i32, rgb: [u8; 3]);
}

/// The app's painting rules at a scale: canvas coordinates, pen widths and radii are multiplied
/// by `scale` (target pixels per canvas pixel) before rasterizing, the flood fill stops after
/// `fill_limit` pixels and circles have at most `max_sides` sides. [`Painter::FULL`] paints the
/// canvas at its own size; kits paint straight at their display's scale
/// ([`Painter::at_scale`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Painter {
    /// Target pixels per canvas pixel.
    pub scale: f64,
    /// Most pixels one flood fill paints.
    pub fill_limit: usize,
    /// Most sides of a circle's polygon.
    pub max_sides: f64,
}

impl Painter {
    /// The app's rules at the canvas's own size.
    pub const FULL: Painter = Painter { scale: 1.0, fill_limit: FILL_LIMIT, max_sides: 20_000.0 };

    /// The app's rules at `scale` target pixels per canvas pixel: the fill limit scaled by the
    /// area (`ceil(FILL_LIMIT * scale²)`), at most 1,024 circle sides (a polygon's sides are
    /// about 4 target pixels long up to a radius of 650 pixels, several displays wide).
    pub fn at_scale(scale: f64) -> Painter {
        let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
        let limit = clamp(libm::ceil(FILL_LIMIT as f64 * scale * scale), 1.0, FILL_LIMIT as f64);
        Painter { scale, fill_limit: limit as usize, max_sides: 1_024.0 }
    }

    fn at(&self, p: Point) -> Point {
        (p.0 * self.scale, p.1 * self.scale)
    }

    /// Paints one operation on `s`.
    pub fn paint<S: Surface>(&self, s: &mut S, op: Op, pen: Pen) {
        s.set_erasing(pen.erase);
        let c = Rgb888::new(pen.rgb[0], pen.rgb[1], pen.rgb[2]);
        let w = pen.size * self.scale;
        match op {
            Op::Segment { from, to, .. } | Op::Line(from, to) => {
                let (a, b) = (self.at(from), self.at(to));
                thick_line(s, a, b, w, c);
                disc(s, a, w, c);
                disc(s, b, w, c);
            }
            Op::Dot(p) => disc(s, self.at(p), w, c),
            Op::Rect(a, b) => {
                let (a, b) = (self.at(a), self.at(b));
                let corners = [a, (b.0, a.1), b, (a.0, b.1)];
                for k in 0..4 {
                    let (p, q) = (corners[k], corners[(k + 1) % 4]);
                    thick_line(s, p, q, w, c);
                    square(s, p, w, c);
                }
            }
            Op::Circle(center, r) => self.circle(s, self.at(center), r * self.scale, w, c),
            Op::Fill(p) => {
                s.set_erasing(false);
                self.flood_fill(s, self.at(p), pen.rgb);
            }
        }
        s.set_erasing(false);
    }

    fn circle<S: Surface>(&self, s: &mut S, center: Point, r: f64, w: f64, c: Rgb888) {
        if !r.is_finite() || !center.0.is_finite() || !center.1.is_finite() {
            return;
        }
        let sides = libm::ceil(2.0 * core::f64::consts::PI * r / 4.0);
        let n = clamp(sides, 16.0, self.max_sides.max(16.0)) as usize;
        let at = |k: usize| {
            let a = 2.0 * core::f64::consts::PI * k as f64 / n as f64;
            (center.0 + r * libm::cos(a), center.1 + r * libm::sin(a))
        };
        let mut prev = at(0);
        for k in 1..=n {
            let next = at(k);
            thick_line(s, prev, next, w, c);
            disc(s, next, w, c);
            prev = next;
        }
    }

    /// The app's flood fill: 4-connected from `(floor x, floor y)`, LIFO, pushing right, left,
    /// down, up. A neighbour outside, already filled or of another colour is not pushed (the
    /// app pushes it and skips it when popped: the same pixels in the same order, since a
    /// pixel's colour changes only by being filled, with a colour other than the target).
    fn flood_fill<S: Surface>(&self, s: &mut S, p: Point, rgb: [u8; 3]) {
        let size = s.bounding_box().size;
        let (sx, sy) = (libm::floor(p.0), libm::floor(p.1));
        if !(sx >= 0.0 && sy >= 0.0 && sx < f64::from(size.width) && sy < f64::from(size.height)) {
            return;
        }
        let (sx, sy) = (sx as i32, sy as i32);
        let Some(target) = s.rgb_at(sx, sy) else { return };
        if target == rgb {
            return;
        }
        let w = size.width as i32;
        let mut count = 0usize;
        let mut stack = vec![(sy * w + sx) as u32];
        while let Some(at) = stack.pop() {
            let (x, y) = ((at % size.width) as i32, (at / size.width) as i32);
            if s.rgb_at(x, y) != Some(target) {
                continue;
            }
            s.put_opaque(x, y, rgb);
            count += 1;
            if count >= self.fill_limit {
                break;
            }
            for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                if s.rgb_at(nx, ny) == Some(target) {
                    stack.push((ny * w + nx) as u32);
                }
            }
        }
    }
}

fn clip_margin<S: Surface>(s: &S, w: f64) -> (f64, f64, f64, f64) {
    let size = s.bounding_box().size;
    let m = w + 2.0;
    (-m, -m, f64::from(size.width) + m, f64::from(size.height) + m)
}

/// Liang–Barsky clipping of a segment to the surface grown by the pen width.
fn clip<S: Surface>(s: &S, a: Point, b: Point, w: f64) -> Option<(Point, Point)> {
    let (x0, y0, x1, y1) = clip_margin(s, w);
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

fn thick_line<S: Surface>(s: &mut S, a: Point, b: Point, w: f64, c: Rgb888) {
    let Some((p, q)) = clip(s, a, b, w) else { return };
    let width = libm::round(w).clamp(1.0, 1000.0) as u32;
    let _ = Line::new(pt(p), pt(q)).into_styled(PrimitiveStyle::with_stroke(c, width)).draw(s);
}

fn disc<S: Surface>(s: &mut S, p: Point, w: f64, c: Rgb888) {
    let (x0, y0, x1, y1) = clip_margin(s, w);
    if !(p.0 >= x0 && p.0 <= x1 && p.1 >= y0 && p.1 <= y1) {
        return;
    }
    let d = libm::round(w).clamp(1.0, 1000.0) as u32;
    let _ = Circle::with_center(pt(p), d).into_styled(PrimitiveStyle::with_fill(c)).draw(s);
}

fn square<S: Surface>(s: &mut S, p: Point, w: f64, c: Rgb888) {
    let (x0, y0, x1, y1) = clip_margin(s, w);
    if !(p.0 >= x0 && p.0 <= x1 && p.1 >= y0 && p.1 <= y1) {
        return;
    }
    let d = libm::round(w).clamp(1.0, 1000.0) as u32;
    let _ = Rectangle::with_center(pt(p), Size::new(d, d))
        .into_styled(PrimitiveStyle::with_fill(c))
        .draw(s);
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
