//! Say/think bubbles, approximated: scratch-render draws them with `TextBubbleSkin` (Helvetica
//! 14 px, lines wrapped at 170 px, 10 px padding, a rounded box with a tail). Here the text is
//! a mono font (6×10 on outputs at least 240 wide, else 4×6), wrapped at 28 characters, in a
//! white rounded box with a grey border placed as scratch-vm's `_positionBubble` places it
//! (right of the sprite's top, flipped left when it does not fit, clamped to the stage), with
//! the sprite's transformed costume rectangle standing in for its hull bounds. The
//! [`Scene`] lists the bubbles shown ([`BubbleSpec`]).

use embedded_graphics::mono_font::ascii::{FONT_4X6, FONT_6X10};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{
    Circle, CornerRadii, PrimitiveStyleBuilder, Rectangle, RoundedRectangle,
};
use embedded_graphics::text::{Baseline, Text};

use super::Scene;
use alloc::vec::Vec;

/// Characters per line (170 px at about 6 px per character).
const COLS: usize = 28;
/// Most lines drawn.
const MAX_LINES: usize = 12;
/// Line height in stage units (scratch-render: 16).
const LINE_H: f64 = 16.0;
/// Padding in stage units (scratch-render: 10).
const PAD: f64 = 10.0;
/// Tail height in stage units (scratch-render: 12).
const TAIL: f64 = 12.0;

const TEXT: Rgb888 = Rgb888::new(0x57, 0x5e, 0x75);
const BORDER: Rgb888 = Rgb888::new(0xd9, 0xd9, 0xd9);

/// A bubble to draw.
#[derive(Clone, Copy, Debug)]
pub struct BubbleSpec<'a> {
    /// The sprite's bounds in stage units (left, right, bottom, top): the bubble sits beside
    /// its top.
    pub bounds: [f64; 4],
    /// The text (not empty).
    pub text: &'a str,
    /// A think bubble (else say).
    pub think: bool,
}

/// Wrapped lines of `text`: breaks at spaces where possible, else mid-word.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text.trim();
    core::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.char_indices().nth(COLS).map_or(rest.len(), |(i, _)| i);
        let cut = if end < rest.len() {
            rest[..end].rfind(' ').filter(|&i| i > 0).unwrap_or(end)
        } else {
            end
        };
        let line = &rest[..cut];
        rest = rest[cut..].trim_start();
        Some(line)
    })
    .take(MAX_LINES)
}

/// Draw every bubble of `scene`, bottom to top.
pub fn draw_bubbles<S, D>(scene: &S, target: &mut D) -> Result<(), D::Error>
where
    S: Scene + ?Sized,
    D: DrawTarget<Color = Rgb888>,
{
    let area = target.bounding_box();
    let (w, h) = (f64::from(area.size.width), f64::from(area.size.height));
    let (kx, ky) = (w / 480.0, h / 360.0);
    let font = if area.size.width >= 240 { &FONT_6X10 } else { &FONT_4X6 };
    let mut shown = Vec::new();
    scene.bubbles(&mut shown);
    for b in &shown {
        let bounds = b.bounds;
        let n = lines(b.text).count().max(1);
        let longest = lines(b.text).map(|l| l.chars().count()).max().unwrap_or(0);
        let bw = (longest as f64 * 6.0 + 2.0 * PAD).max(50.0);
        let bh = n as f64 * LINE_H + 2.0 * PAD + TAIL;
        let right = bw + bounds[1] <= 240.0 || bounds[0] - bw <= -240.0;
        let left_x = if right {
            bounds[1].min(240.0 - bw).max(-240.0)
        } else {
            (bounds[0] - bw).max(-240.0).min(240.0 - bw)
        };
        let top_y = (bounds[3] + bh).min(180.0);
        // Stage → output pixels.
        let px = |x: f64| libm::floor((x + 240.0) * kx) as i32;
        let py = |y: f64| libm::floor((180.0 - y) * ky) as i32;
        let body_h = ((bh - TAIL) * ky).max(1.0) as u32;
        let rect = Rectangle::new(
            area.top_left + Point::new(px(left_x), py(top_y)),
            Size::new((bw * kx).max(1.0) as u32, body_h),
        );
        let radius = Size::new((8.0 * kx).max(1.0) as u32, (8.0 * ky).max(1.0) as u32);
        let style = PrimitiveStyleBuilder::new()
            .fill_color(Rgb888::WHITE)
            .stroke_color(BORDER)
            .stroke_width(if kx >= 0.5 { 2 } else { 1 })
            .build();
        RoundedRectangle::new(rect, CornerRadii::new(radius)).into_styled(style).draw(target)?;
        // The tail: a small dot below the body on the sprite's side.
        let tail_x = if right { left_x + 16.0 } else { left_x + bw - 16.0 };
        let d = ((if b.think { 6.0 } else { 8.0 }) * kx).max(1.0) as u32;
        let tail = Point::new(px(tail_x), py(top_y - (bh - TAIL)));
        Circle::new(area.top_left + tail, d).into_styled(style).draw(target)?;
        let text_style = MonoTextStyle::new(font, TEXT);
        let line_px = (LINE_H * ky).max(font.character_size.height as f64) as i32;
        let mut y = py(top_y - PAD) + area.top_left.y;
        let x = px(left_x + PAD) + area.top_left.x;
        for line in lines(b.text) {
            Text::with_baseline(line, Point::new(x, y), text_style, Baseline::Top).draw(target)?;
            y += line_px;
        }
    }
    Ok(())
}
