//! The screens a kit draws by itself (the error screen for a rejected image, the diagnostics
//! screen), and [`Scaled`], the adapter that fits a logical picture onto a larger display.
//!
//! Everything draws in [`Rgb888`] onto any `DrawTarget`; kits convert to their display's colour
//! depth with embedded-graphics' `color_converted` (BT.601 luma for greyscale displays).

use embedded_graphics::mono_font::ascii::{FONT_5X8, FONT_6X10};
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};

use super::input::Keys;
use super::playback::PlayerState;

/// Background of the kit's own screens.
pub const BACKGROUND: Rgb888 = Rgb888::BLACK;
/// Foreground (text) of the kit's own screens.
pub const FOREGROUND: Rgb888 = Rgb888::WHITE;

/// The font for a display `width` pixels wide: 5x8 up to 160 pixels, 6x10 above.
pub fn font_for(width: u32) -> &'static MonoFont<'static> {
    if width > 160 {
        &FONT_6X10
    } else {
        &FONT_5X8
    }
}

/// Draws the error screen: a title line, a rule, then `message` word-wrapped to the width.
pub fn draw_error<D>(target: &mut D, title: &str, message: &str) -> Result<(), D::Error>
where
    D: DrawTarget<Color = Rgb888>,
{
    let size = target.bounding_box().size;
    target.clear(BACKGROUND)?;
    let font = font_for(size.width);
    let style = MonoTextStyle::new(font, FOREGROUND);
    let line_h = font.character_size.height as i32;
    let cols = (size.width / font.character_size.width).max(1) as usize;
    Text::with_baseline(title, Point::new(0, 0), style, Baseline::Top).draw(target)?;
    Rectangle::new(Point::new(0, line_h + 1), Size::new(size.width, 1))
        .into_styled(PrimitiveStyle::with_fill(FOREGROUND))
        .draw(target)?;
    let mut y = line_h + 4;
    for line in wrap(message, cols) {
        if y + line_h > size.height as i32 {
            break;
        }
        Text::with_baseline(line, Point::new(0, y), style, Baseline::Top).draw(target)?;
        y += line_h;
    }
    Ok(())
}

/// Draws the diagnostics screen: a 16-step grey ramp across the top half and one box per key,
/// filled while the key is held (up, down, left, right, space from left to right).
pub fn draw_diagnostics<D>(target: &mut D, keys: Keys) -> Result<(), D::Error>
where
    D: DrawTarget<Color = Rgb888>,
{
    let size = target.bounding_box().size;
    target.clear(BACKGROUND)?;
    let bar_w = size.width / 16;
    for level in 0..16u32 {
        let v = (level * 17) as u8;
        Rectangle::new(Point::new((level * bar_w) as i32, 0), Size::new(bar_w, size.height / 2))
            .into_styled(PrimitiveStyle::with_fill(Rgb888::new(v, v, v)))
            .draw(target)?;
    }
    let box_w = size.width / 5;
    let key_bits = [Keys::UP, Keys::DOWN, Keys::LEFT, Keys::RIGHT, Keys::SPACE];
    for (i, bit) in (0i32..).zip(key_bits) {
        let area = Rectangle::new(
            Point::new(i * box_w as i32 + 2, size.height as i32 / 2 + 4),
            Size::new(box_w.saturating_sub(4), size.height / 2 - 8),
        );
        let style = if keys.held & bit != 0 {
            PrimitiveStyle::with_fill(FOREGROUND)
        } else {
            PrimitiveStyle::with_stroke(FOREGROUND, 1)
        };
        area.into_styled(style).draw(target)?;
    }
    Ok(())
}

/// Draws a player's status panel at `at`: `step k/n`, then `playing`, `paused`, or `end` once
/// done, each word-wrapped to the target's right edge.
pub fn draw_status<D>(
    target: &mut D,
    at: Point,
    state: PlayerState,
    end: &str,
) -> Result<(), D::Error>
where
    D: DrawTarget<Color = Rgb888>,
{
    let width = target.bounding_box().size.width;
    let font = font_for(width);
    let cols = ((width as i32 - at.x) / font.character_size.width as i32).max(1) as usize;
    let mut step = heapless::String::<32>::new();
    let _ =
        core::fmt::Write::write_fmt(&mut step, format_args!("step {}/{}", state.step, state.steps));
    let mode = if state.done { end } else { state.mode() };
    let style = MonoTextStyle::new(font, FOREGROUND);
    let mut y = at.y;
    for line in wrap(&step, cols).chain(wrap(mode, cols)) {
        Text::with_baseline(line, Point::new(at.x, y), style, Baseline::Top).draw(target)?;
        y += font.character_size.height as i32;
    }
    Ok(())
}

/// Splits `text` into lines of at most `cols` characters, breaking at spaces where it can and
/// inside words longer than a line.
pub fn wrap(text: &str, cols: usize) -> impl Iterator<Item = &str> {
    let cols = cols.max(1);
    let mut rest = text.trim();
    core::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = rest.len();
        let mut last_space = None;
        for (count, (i, c)) in rest.char_indices().enumerate() {
            if count == cols {
                end = i;
                break;
            }
            if c == ' ' {
                last_space = Some(i);
            }
        }
        if end < rest.len() {
            if let Some(space) = last_space.filter(|&s| s > 0) {
                end = space;
            }
        }
        let (line, tail) = rest.split_at(end);
        rest = tail.trim_start();
        Some(line.trim_end())
    })
}

/// A `DrawTarget` adapter that draws every pixel as a `factor` x `factor` block at `offset`
/// on the wrapped target: a logical picture of `size` fills `size * factor` display pixels.
#[derive(Debug)]
pub struct Scaled<'a, D> {
    target: &'a mut D,
    factor: u32,
    offset: Point,
    size: Size,
}

impl<'a, D: DrawTarget> Scaled<'a, D> {
    /// Wraps `target`; the logical picture is `size` pixels large.
    pub fn new(target: &'a mut D, size: Size, factor: u32, offset: Point) -> Self {
        Self { target, factor: factor.max(1), offset, size }
    }

    /// The largest integer factor that fits `logical` into `display`, and the offset centring it.
    pub fn fit(logical: Size, display: Size) -> (u32, Point) {
        let fx = display.width / logical.width.max(1);
        let fy = display.height / logical.height.max(1);
        let factor = fx.min(fy).max(1);
        let used = logical * factor;
        let dx = display.width.saturating_sub(used.width) / 2;
        let dy = display.height.saturating_sub(used.height) / 2;
        (factor, Point::new(dx as i32, dy as i32))
    }
}

impl<D: DrawTarget> Dimensions for Scaled<'_, D> {
    fn bounding_box(&self) -> Rectangle {
        Rectangle::new(Point::zero(), self.size)
    }
}

impl<D: DrawTarget> DrawTarget for Scaled<'_, D> {
    type Color = D::Color;
    type Error = D::Error;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        let f = self.factor;
        for Pixel(p, color) in pixels {
            if p.x < 0 || p.y < 0 || p.x as u32 >= self.size.width || p.y as u32 >= self.size.height
            {
                continue;
            }
            let at = self.offset + Point::new(p.x * f as i32, p.y * f as i32);
            self.target.fill_solid(&Rectangle::new(at, Size::new(f, f)), color)?;
        }
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: Self::Color) -> Result<(), Self::Error> {
        let area = area.intersection(&self.bounding_box());
        if area.is_zero_sized() {
            return Ok(());
        }
        let f = self.factor as i32;
        let at = self.offset + Point::new(area.top_left.x * f, area.top_left.y * f);
        self.target.fill_solid(&Rectangle::new(at, area.size * self.factor), color)
    }
}

/// A `DrawTarget` adapter that draws a large logical picture shrunk by `num / den` (at most 1)
/// at `offset` on the wrapped target, by point sampling: logical pixel (x, y) lands on
/// (x * num / den, y * num / den), rounded down, and the last pixel drawn there wins. Thin
/// lines and small shapes drawn late stay visible; the result is the same on every machine.
#[derive(Debug)]
pub struct Shrunk<'a, D> {
    target: &'a mut D,
    num: i32,
    den: i32,
    offset: Point,
    size: Size,
}

impl<'a, D: DrawTarget> Shrunk<'a, D> {
    /// Wraps `target` to draw a `size` picture into at most `room` pixels at `offset`, keeping
    /// the aspect ratio; pictures that already fit are drawn 1:1.
    pub fn fit(target: &'a mut D, size: Size, room: Size, offset: Point) -> Self {
        let (w, h) = (size.width.max(1) as i32, size.height.max(1) as i32);
        let (rw, rh) = (room.width as i32, room.height as i32);
        // Compare rw / w with rh / h without division.
        let (num, den) = if rw * h <= rh * w { (rw, w) } else { (rh, h) };
        let (num, den) = if num >= den { (1, 1) } else { (num.max(1), den) };
        Self { target, num, den, offset, size }
    }

    /// The size the picture takes on the target.
    pub fn scaled_size(&self) -> Size {
        let s = |v: u32| ((v as i32 - 1) * self.num / self.den + 1).max(0) as u32;
        Size::new(s(self.size.width), s(self.size.height))
    }

    fn map(&self, p: Point) -> Point {
        self.offset + Point::new(p.x * self.num / self.den, p.y * self.num / self.den)
    }
}

impl<D: DrawTarget> Dimensions for Shrunk<'_, D> {
    fn bounding_box(&self) -> Rectangle {
        Rectangle::new(Point::zero(), self.size)
    }
}

impl<D: DrawTarget> DrawTarget for Shrunk<'_, D> {
    type Color = D::Color;
    type Error = D::Error;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        let bounds = self.bounding_box();
        for Pixel(p, color) in pixels {
            if bounds.contains(p) {
                let at = self.map(p);
                self.target.draw_iter(core::iter::once(Pixel(at, color)))?;
            }
        }
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: Self::Color) -> Result<(), Self::Error> {
        let area = area.intersection(&self.bounding_box());
        let Some(last) = area.bottom_right() else {
            return Ok(());
        };
        // The target pixels hit by the area's pixels form exactly this rectangle (num <= den).
        let (a, b) = (self.map(area.top_left), self.map(last));
        self.target.fill_solid(&Rectangle::with_corners(a, b), color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use embedded_graphics::mock_display::MockDisplay;
    use embedded_graphics::pixelcolor::BinaryColor;

    #[test]
    fn wrap_breaks_at_spaces_and_inside_long_words() {
        let lines: Vec<&str> = wrap("image truncated: needs 16 bytes", 10).collect();
        assert_eq!(lines, ["image", "truncated:", "needs 16", "bytes"]);
        let lines: Vec<&str> = wrap("abcdefghijkl", 5).collect();
        assert_eq!(lines, ["abcde", "fghij", "kl"]);
        assert_eq!(wrap("", 5).count(), 0);
    }

    #[test]
    fn scaled_draws_blocks_at_offset() {
        let mut display = MockDisplay::<BinaryColor>::new();
        let mut scaled = Scaled::new(&mut display, Size::new(2, 2), 2, Point::new(1, 0));
        Pixel(Point::new(1, 0), BinaryColor::On).draw(&mut scaled).unwrap();
        Pixel(Point::new(5, 0), BinaryColor::On).draw(&mut scaled).unwrap(); // outside: dropped
        display.assert_pattern(&["   ##", "   ##"]);
    }

    #[test]
    fn shrunk_samples_points_and_fills_exactly() {
        let mut display = MockDisplay::<BinaryColor>::new();
        let mut shrunk = Shrunk::fit(&mut display, Size::new(8, 8), Size::new(4, 4), Point::zero());
        assert_eq!(shrunk.scaled_size(), Size::new(4, 4));
        shrunk
            .fill_solid(&Rectangle::new(Point::new(2, 0), Size::new(4, 2)), BinaryColor::On)
            .unwrap();
        Pixel(Point::new(7, 7), BinaryColor::Off).draw(&mut shrunk).unwrap();
        display.assert_pattern(&[" ## ", "    ", "    ", "   ."]);
    }

    #[test]
    fn fit_centres_the_largest_integer_scale() {
        assert_eq!(
            Scaled::<MockDisplay<BinaryColor>>::fit(Size::new(120, 120), Size::new(240, 240)),
            (2, Point::zero())
        );
        assert_eq!(
            Scaled::<MockDisplay<BinaryColor>>::fit(Size::new(40, 30), Size::new(128, 64)),
            (2, Point::new(24, 2))
        );
    }
}
