//! Pictures of a task and of a run, drawn through `embedded-graphics` onto any
//! `DrawTarget<Color = Rgb888>`: tiles, forbidden and missing cells, walls, items, the target
//! lines, the lines a run drew and the turtle. [`RgbImage`] is a plain RGB framebuffer target
//! for hosts that encode PNG.

use alloc::vec;
use alloc::vec::Vec;
use core::convert::Infallible;

use embedded_graphics::mono_font::ascii::{FONT_10X20, FONT_6X10};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, Line, PrimitiveStyle, Rectangle, Triangle};
use embedded_graphics::text::{Alignment, Text};

use super::ast::PenColor;
use super::task::{Dir, Item, ItemColor, ItemName, LineColor, Task};
use super::verdict::RunReport;

/// Pixels per cell side.
pub const CELL: i32 = 48;
/// Pixels around the grid.
pub const MARGIN: i32 = 12;

const BACKGROUND: Rgb888 = Rgb888::new(0xFF, 0xFF, 0xFF);
const TILE: Rgb888 = Rgb888::new(0xEC, 0xEF, 0xF1);
const GRID: Rgb888 = Rgb888::new(0xB0, 0xBE, 0xC5);
const FORBIDDEN: Rgb888 = Rgb888::new(0xFF, 0xCD, 0xD2);
const FORBIDDEN_MARK: Rgb888 = Rgb888::new(0xC6, 0x28, 0x28);
const WALL: Rgb888 = Rgb888::new(0x4E, 0x34, 0x2E);
const TURTLE: Rgb888 = Rgb888::new(0x2E, 0x7D, 0x32);
const CRASH: Rgb888 = Rgb888::new(0xD5, 0x00, 0x00);

/// Image size in pixels for a task.
pub fn image_size(task: &Task) -> (u32, u32) {
    let w = task.cols.max(1) * CELL + 2 * MARGIN;
    let h = task.rows.max(1) * CELL + 2 * MARGIN;
    (w as u32, h as u32)
}

fn rgb((r, g, b): (u8, u8, u8)) -> Rgb888 {
    Rgb888::new(r, g, b)
}

fn item_rgb(c: Option<ItemColor>) -> Rgb888 {
    match c {
        Some(ItemColor::Red) => rgb(PenColor::Red.rgb()),
        Some(ItemColor::Blue) => rgb(PenColor::Blue.rgb()),
        Some(ItemColor::Yellow) => rgb(PenColor::Yellow.rgb()),
        Some(ItemColor::Green) => rgb(PenColor::Green.rgb()),
        Some(ItemColor::Black) | None => rgb(PenColor::Black.rgb()),
        Some(ItemColor::Orange) => Rgb888::new(0xFF, 0x8F, 0x00),
        Some(ItemColor::Purple) => Rgb888::new(0x7B, 0x1F, 0xA2),
        Some(ItemColor::Pink) => Rgb888::new(0xEC, 0x40, 0x7A),
    }
}

/// Halfway between a colour and the tile colour: target lines are drawn faded.
fn faded(c: Rgb888) -> Rgb888 {
    let mix = |a: u8, b: u8| ((u16::from(a) + u16::from(b)) / 2) as u8;
    Rgb888::new(mix(c.r(), TILE.r()), mix(c.g(), TILE.g()), mix(c.b(), TILE.b()))
}

fn origin(x: i32, y: i32) -> Point {
    Point::new(MARGIN + x * CELL, MARGIN + y * CELL)
}

fn centre(x: i32, y: i32) -> Point {
    origin(x, y) + Point::new(CELL / 2, CELL / 2)
}

/// Draws the task and, if given, a run: the lines it drew, the turtle where it ended and a
/// ring where it crashed.
pub fn render<D>(task: &Task, run: Option<&RunReport>, target: &mut D) -> Result<(), D::Error>
where
    D: DrawTarget<Color = Rgb888>,
{
    target.clear(BACKGROUND)?;
    for y in 0..task.rows {
        for x in 0..task.cols {
            let Some(tile) = task.tile(x, y) else { continue };
            if !tile.listed || !tile.exist {
                continue;
            }
            let rect = Rectangle::new(origin(x, y), Size::new(CELL as u32, CELL as u32));
            let fill = if tile.allowed { TILE } else { FORBIDDEN };
            rect.into_styled(PrimitiveStyle::with_fill(fill)).draw(target)?;
            rect.into_styled(PrimitiveStyle::with_stroke(GRID, 1)).draw(target)?;
            if !tile.allowed {
                let (a, b) = (
                    origin(x, y) + Point::new(10, 10),
                    origin(x, y) + Point::new(CELL - 10, CELL - 10),
                );
                let style = PrimitiveStyle::with_stroke(FORBIDDEN_MARK, 3);
                Line::new(a, b).into_styled(style).draw(target)?;
                Line::new(Point::new(a.x, b.y), Point::new(b.x, a.y))
                    .into_styled(style)
                    .draw(target)?;
            }
        }
    }
    for line in &task.lines {
        let color = match &line.color {
            LineColor::Pen(p) => faded(rgb(p.rgb())),
            LineColor::Unmatchable(_) => GRID,
        };
        Line::new(centre(line.x1, line.y1), centre(line.x2, line.y2))
            .into_styled(PrimitiveStyle::with_stroke(color, 9))
            .draw(target)?;
    }
    for item in &task.items {
        draw_item(item, target)?;
    }
    if let Some(run) = run {
        for l in &run.drawn_lines {
            Line::new(centre(l.x1, l.y1), centre(l.x2, l.y2))
                .into_styled(PrimitiveStyle::with_stroke(rgb(l.color.rgb()), 3))
                .draw(target)?;
        }
    }
    draw_walls(task, target)?;
    let (tx, ty, dir) = match run {
        Some(r) => r.final_turtle,
        None => (task.turtle.x, task.turtle.y, task.turtle.dir),
    };
    draw_turtle(tx, ty, dir, target)?;
    if let Some(pos) = run.and_then(|r| r.crash).and_then(|c| c.pos) {
        Circle::with_center(centre(pos.0, pos.1), (CELL - 6) as u32)
            .into_styled(PrimitiveStyle::with_stroke(CRASH, 3))
            .draw(target)?;
    }
    Ok(())
}

fn draw_walls<D: DrawTarget<Color = Rgb888>>(task: &Task, target: &mut D) -> Result<(), D::Error> {
    let style = PrimitiveStyle::with_stroke(WALL, 5);
    for y in 0..task.rows {
        for x in 0..task.cols {
            let Some(tile) = task.tile(x, y) else { continue };
            let o = origin(x, y);
            let sides = [
                (Dir::North, o, o + Point::new(CELL, 0)),
                (Dir::East, o + Point::new(CELL, 0), o + Point::new(CELL, CELL)),
                (Dir::South, o + Point::new(0, CELL), o + Point::new(CELL, CELL)),
                (Dir::West, o, o + Point::new(0, CELL)),
            ];
            for (d, a, b) in sides {
                if tile.walls.has(d) {
                    Line::new(a, b).into_styled(style).draw(target)?;
                }
            }
        }
    }
    Ok(())
}

fn draw_item<D: DrawTarget<Color = Rgb888>>(item: &Item, target: &mut D) -> Result<(), D::Error> {
    let c = centre(item.x, item.y);
    let fill = PrimitiveStyle::with_fill(item_rgb(item.color));
    match item.name {
        ItemName::Circle => Circle::with_center(c, 24).into_styled(fill).draw(target)?,
        ItemName::Rectangle => {
            Rectangle::with_center(c, Size::new(22, 22)).into_styled(fill).draw(target)?
        }
        ItemName::Triangle => {
            Triangle::new(c + Point::new(0, -12), c + Point::new(-12, 10), c + Point::new(12, 10))
                .into_styled(fill)
                .draw(target)?
        }
        ItemName::Cross => {
            Rectangle::with_center(c, Size::new(24, 8)).into_styled(fill).draw(target)?;
            Rectangle::with_center(c, Size::new(8, 24)).into_styled(fill).draw(target)?;
        }
        ItemName::Strawberry => {
            Circle::with_center(c + Point::new(0, 2), 20).into_styled(fill).draw(target)?;
            let leaf = PrimitiveStyle::with_fill(rgb(PenColor::Green.rgb()));
            Rectangle::with_center(c + Point::new(0, -9), Size::new(10, 4))
                .into_styled(leaf)
                .draw(target)?;
        }
        ItemName::Lemon => {
            Circle::with_center(c, 22).into_styled(fill).draw(target)?;
            Circle::with_center(c, 22)
                .into_styled(PrimitiveStyle::with_stroke(Rgb888::new(0xF5, 0x7F, 0x17), 2))
                .draw(target)?;
        }
        ItemName::Letter(_) => {
            let style = MonoTextStyle::new(&FONT_10X20, item_rgb(item.color));
            Text::with_alignment(
                item.name.as_str(),
                c + Point::new(0, 6),
                style,
                Alignment::Center,
            )
            .draw(target)?;
        }
    }
    if item.count > 1 {
        let digits = [b'x', b'0' + item.count.min(9)];
        let text = core::str::from_utf8(&digits).unwrap_or("x");
        let style = MonoTextStyle::new(&FONT_6X10, rgb(PenColor::Black.rgb()));
        Text::new(text, origin(item.x, item.y) + Point::new(CELL - 14, CELL - 4), style)
            .draw(target)?;
    }
    Ok(())
}

fn draw_turtle<D: DrawTarget<Color = Rgb888>>(
    x: i32,
    y: i32,
    dir: Dir,
    target: &mut D,
) -> Result<(), D::Error> {
    let c = centre(x, y);
    let (dx, dy) = dir.delta();
    let tip = c + Point::new(dx * 14, dy * 14);
    let back = c - Point::new(dx * 8, dy * 8);
    let side = Point::new(-dy * 10, dx * 10);
    Triangle::new(tip, back + side, back - side)
        .into_styled(PrimitiveStyle::with_fill(TURTLE))
        .draw(target)?;
    Ok(())
}

/// A plain RGB framebuffer (3 bytes per pixel, row-major, top row first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbImage {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl RgbImage {
    /// A black image of the given size.
    pub fn new(width: u32, height: u32) -> RgbImage {
        let n = (width as usize).saturating_mul(height as usize).saturating_mul(3);
        RgbImage { width, height, pixels: vec![0; n] }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The RGB bytes.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The colour at (x, y), if inside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<(u8, u8, u8)> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = 3 * (y as usize * self.width as usize + x as usize);
        Some((*self.pixels.get(i)?, *self.pixels.get(i + 1)?, *self.pixels.get(i + 2)?))
    }
}

impl OriginDimensions for RgbImage {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for RgbImage {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<Rgb888>>,
    {
        for Pixel(p, c) in pixels {
            if p.x < 0 || p.y < 0 || p.x as u32 >= self.width || p.y as u32 >= self.height {
                continue;
            }
            let i = 3 * (p.y as usize * self.width as usize + p.x as usize);
            if let Some(px) = self.pixels.get_mut(i..i + 3) {
                px.copy_from_slice(&[c.r(), c.g(), c.b()]);
            }
        }
        Ok(())
    }
}

/// Renders a task (and optionally a run) into a new [`RgbImage`] of [`image_size`].
pub fn render_image(task: &Task, run: Option<&RunReport>) -> RgbImage {
    let (w, h) = image_size(task);
    let mut image = RgbImage::new(w, h);
    let Ok(()) = render(task, run, &mut image);
    image
}
