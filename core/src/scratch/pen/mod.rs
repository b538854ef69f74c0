//! The pen: each sprite's pen state (scratch-vm's `Scratch.pen` custom state, [`PenState`])
//! and the stage-sized pen layer it draws on ([`PenLayer`], scratch-render's `PenSkin`).
//! The blocks that drive them live in `crate::scratch::blocks::pen`.

pub mod color;
pub mod layer;

pub use layer::PenLayer;

use color::{hsv_to_rgb, Hsv};

/// One target's pen (`DEFAULT_PEN_STATE`); clones copy their parent's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PenState {
    /// Pen is down: moves draw lines.
    pub down: bool,
    /// Colour (hue) 0..100.
    pub color: f64,
    /// Saturation 0..100.
    pub saturation: f64,
    /// Brightness 0..100.
    pub brightness: f64,
    /// Transparency 0..100.
    pub transparency: f64,
    /// Legacy shade 0..200.
    pub shade: f64,
    /// Line diameter 1..1200.
    pub diameter: f64,
    /// `penAttributes.color4f`: straight RGBA, 0..1.
    pub color4f: [f64; 4],
}

impl Default for PenState {
    fn default() -> PenState {
        PenState {
            down: false,
            color: 66.66,
            saturation: 100.0,
            brightness: 100.0,
            transparency: 0.0,
            shade: 50.0,
            diameter: 1.0,
            color4f: [0.0, 0.0, 1.0, 1.0],
        }
    }
}

impl PenState {
    /// `_updatePenColor`: recompute `color4f` from the HSV parameters and transparency.
    pub fn update_color(&mut self) {
        let rgb = hsv_to_rgb(Hsv {
            h: self.color * 360.0 / 100.0,
            s: self.saturation / 100.0,
            v: self.brightness / 100.0,
        });
        self.color4f =
            [rgb.r / 255.0, rgb.g / 255.0, rgb.b / 255.0, 1.0 - self.transparency / 100.0];
    }
}
