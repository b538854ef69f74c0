//! The stage renderer: draws a [`Scene`] (a running VM's stage, as `crate::scratch::vm`
//! lists it) into any embedded-graphics [`DrawTarget`] of any size, as scratch-render's
//! `draw()` composes it: the clear colour (opaque black), the backdrop, the pen layer, the
//! visible sprites in layer order with their transforms and graphic effects, then say/think
//! bubbles (an approximation, see [`bubble`]). Each output pixel is one fragment at the
//! pixel's centre, blended `ONE, ONE_MINUS_SRC_ALPHA` and stored as 8 bits after each
//! drawable, like the WebGL canvas.
//!
//! Pixels are computed one at a time and handed to the target through `draw_iter`: nothing is
//! allocated per pixel and no framebuffer is needed, so a kit can draw straight to its display.
//! [`Framebuffer`] is an RGB buffer target for hosts. What is exact and what is approximated
//! is written down in `docs/stage.md`.
//!
//! This module is the bottom of the Scratch runtime's three layers (render, then
//! `crate::scratch::vm`, then `crate::scratch::blocks`): it knows skins, drawables, effects,
//! the pen layer and the colour queries' arithmetic ([`touch`]), and never the VM, its targets
//! or blocks. The VM implements [`Scene`] and keeps the renderer's per-target state
//! (`crate::scratch::vm::drawable`).

pub mod bubble;
pub mod drawable;
pub mod effects;
pub mod frame;
pub mod touch;

use crate::clamp::clamp;
use alloc::vec::Vec;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;

use crate::scratch::pen::PenLayer;
pub use bubble::BubbleSpec;
pub use drawable::Drawable;
pub use frame::Framebuffer;

/// One layer of the stage as drawn.
#[derive(Clone, Copy, Debug)]
pub enum Layer<'a> {
    /// A costume.
    Costume(Drawable<'a>),
    /// The pen layer (drawn 1:1 at its own resolution, nearest-neighbour).
    Pen(&'a PenLayer),
}

/// What the renderer is given to draw: scratch-render's drawable list and bubbles, which the
/// VM fills from its targets.
pub trait Scene {
    /// Append the layers bottom to top (the backdrop, the pen layer, the visible sprites in
    /// layer order) as drawn at `out_scale` output pixels per stage unit.
    fn layers<'a>(&'a self, out_scale: f64, out: &mut Vec<Layer<'a>>);
    /// Append the bubbles shown, bottom to top.
    fn bubbles<'a>(&'a self, out: &mut Vec<BubbleSpec<'a>>);
}

/// Pixels per stage unit used to pick MIP levels for an output of `w × h` (scratch-render
/// rescales drawables only when both dimensions differ from the native 480×360).
fn output_scale(w: u32, h: u32) -> f64 {
    if w != 480 && h != 360 {
        (f64::from(w) / 480.0).max(f64::from(h) / 360.0)
    } else {
        1.0
    }
}

/// Blend a premultiplied fragment over an 8-bit premultiplied destination.
#[inline]
pub(crate) fn blend8(dst: &mut [u8; 4], src: [f32; 4]) {
    let k = 1.0 - src[3];
    for c in 0..4 {
        let v = src[c] + f32::from(dst[c]) / 255.0 * k;
        dst[c] = crate::scratch::pen::layer::unorm8(v);
    }
}

/// Draw `scene` (a VM's stage) onto `target`, scaled to the target's size.
pub fn render<S, D>(scene: &S, target: &mut D) -> Result<(), D::Error>
where
    S: Scene + ?Sized,
    D: DrawTarget<Color = Rgb888>,
{
    let area = target.bounding_box();
    let (w, h) = (area.size.width, area.size.height);
    if w == 0 || h == 0 {
        return Ok(());
    }
    let out_scale = output_scale(w, h);
    let mut layers: Vec<Layer<'_>> = Vec::new();
    scene.layers(out_scale, &mut layers);
    let (sx, sy) = (480.0 / f64::from(w), 360.0 / f64::from(h));
    let origin = area.top_left;
    let pixels = (0..h).flat_map(move |row| (0..w).map(move |col| (col, row))).map(|(col, row)| {
        let x = (f64::from(col) + 0.5) * sx - 240.0;
        let y = 180.0 - (f64::from(row) + 0.5) * sy;
        let mut dst = [0u8, 0, 0, 255];
        for l in &layers {
            match l {
                Layer::Costume(d) => {
                    if let Some(c) = d.shade(x, y) {
                        blend8(&mut dst, c);
                    }
                }
                Layer::Pen(p) => {
                    let pc = libm::floor((x + 240.0) * f64::from(p.width()) / 480.0) as i64;
                    let pr = libm::floor((180.0 - y) * f64::from(p.height()) / 360.0) as i64;
                    let q = p.pixel(pc, pr);
                    if q[3] != 0 {
                        let f = |v: u8| f32::from(v) / 255.0;
                        blend8(&mut dst, [f(q[0]), f(q[1]), f(q[2]), f(q[3])]);
                    }
                }
            }
        }
        let p = origin + Point::new(col as i32, row as i32);
        Pixel(p, Rgb888::new(dst[0], dst[1], dst[2]))
    });
    target.draw_iter(pixels)?;
    drop(layers);
    bubble::draw_bubbles(scene, target)
}

/// `penStamp`: draw `d` into the pen layer (visible or not), as the renderer draws a drawable
/// into the pen framebuffer.
pub(crate) fn stamp(layer: &mut PenLayer, d: &Drawable<'_>) {
    let (w, h) = (f64::from(layer.width()), f64::from(layer.height()));
    let (kx, ky) = (w / 480.0, h / 360.0);
    let [l, r, b, t] = d.bounds;
    let c0 = libm::floor((l + 240.0) * kx).max(0.0) as usize;
    let c1 = clamp(libm::ceil((r + 240.0) * kx), 0.0, w) as usize;
    let r0 = libm::floor((180.0 - t) * ky).max(0.0) as usize;
    let r1 = clamp(libm::ceil((180.0 - b) * ky), 0.0, h) as usize;
    for row in r0..r1 {
        let y = 180.0 - (row as f64 + 0.5) / ky;
        for col in c0..c1 {
            let x = (col as f64 + 0.5) / kx - 240.0;
            if let Some(c) = d.shade(x, y) {
                layer.blend(col, row, c);
            }
        }
    }
}
