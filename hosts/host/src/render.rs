//! Stage pictures for a host: run a compiled project on the virtual clock and encode the stage
//! as PNG after chosen frames (`gobo render`, the Python `render`). The renderer is the core's
//! (`gobo::scratch::render`); this module only steps the VM and encodes PNG.

use std::collections::BTreeMap;
use std::fmt;

use gobo::scratch::image::Image;
use gobo::scratch::render::{render, Framebuffer};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::{Config, Vm};

use crate::png::{encode_png, PixelFormat};

/// Largest side of a picture, in pixels.
pub const MAX_SIDE: u32 = 4096;

/// How to render (defaults: `gobo render`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Seed of block randomness (default: the scenario's, else 1).
    pub seed: Option<u32>,
    /// Frames per second of the virtual clock (30..=60).
    pub fps: u32,
    /// Picture width in pixels (1..=[`MAX_SIDE`]).
    pub width: u32,
    /// Picture height in pixels (1..=[`MAX_SIDE`]).
    pub height: u32,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions { seed: None, fps: 30, width: 480, height: 360 }
    }
}

/// Why pictures could not be made.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RenderError {
    /// The size is outside 1..=[`MAX_SIDE`] on a side.
    Size { width: u32, height: u32 },
    /// `fps` is outside 30..=60.
    Fps(u32),
    /// No frame was asked for.
    NoFrames,
    /// The VM refused the image.
    Vm(String),
    /// PNG encoding failed.
    Png(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Size { width, height } => {
                write!(f, "size {width}x{height} is not within 1..={MAX_SIDE} on each side")
            }
            RenderError::Fps(n) => write!(f, "--fps {n} is not in 30..=60"),
            RenderError::NoFrames => f.write_str("no frame to render"),
            RenderError::Vm(e) | RenderError::Png(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for RenderError {}

/// Parses `WIDTHxHEIGHT` (each side 1..=[`MAX_SIDE`]).
pub fn parse_size(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once(['x', 'X'])?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    ((1..=MAX_SIDE).contains(&w) && (1..=MAX_SIDE).contains(&h)).then_some((w, h))
}

/// Runs `image` under `scenario` up to the last of `frames` and returns the stage after each
/// requested frame (0-based, after the frame's step) as PNG bytes (RGB), by frame.
pub fn render_frames(
    image: Image,
    scenario: &Scenario,
    frames: &[u64],
    opts: &RenderOptions,
) -> Result<BTreeMap<u64, Vec<u8>>, RenderError> {
    let (w, h) = (opts.width, opts.height);
    if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
        return Err(RenderError::Size { width: w, height: h });
    }
    if !(30..=60).contains(&opts.fps) {
        return Err(RenderError::Fps(opts.fps));
    }
    let last = *frames.iter().max().ok_or(RenderError::NoFrames)?;
    let cfg = Config {
        fps: opts.fps,
        seed: opts.seed.or(scenario.seed).unwrap_or(1),
        ..Config::default()
    };
    let mut vm = Vm::new(image, cfg).map_err(|e| RenderError::Vm(e.to_string()))?;
    let mut fb = Framebuffer::new(w, h);
    let mut inputs = Vec::new();
    let mut out = BTreeMap::new();
    for f in 0..=last {
        inputs.clear();
        inputs.extend(scenario.at(f).map(|(_, _, input)| input.clone()));
        vm.step_frame(&inputs);
        if frames.contains(&f) {
            let Ok(()) = render(&vm, &mut fb);
            let png = encode_png(w, h, PixelFormat::Rgb8, fb.rgb())
                .map_err(|e| RenderError::Png(e.to_string()))?;
            out.insert(f, png);
        }
    }
    Ok(out)
}
