//! Stage pictures of a run: a compiled project run frame by frame under a scenario, its stage
//! drawn by the core's renderer (`gobo::scratch::render`) after chosen frames and encoded as
//! PNG. Shared by `gobo render` (which writes the files) and the server (which returns them).

use std::fmt;

use gobo::scratch::image::Image;
use gobo::scratch::render::{render, Framebuffer};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::{Config, Vm, VmError};

use crate::png::{encode_png, PixelFormat, PngError};

/// Why stage pictures could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum StageError {
    /// The VM refused the program image.
    Vm(VmError),
    /// Encoding a picture failed.
    Png(PngError),
}

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StageError::Vm(e) => write!(f, "{e}"),
            StageError::Png(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StageError {}

/// Runs `image` under `scenario` with `config` up to the last of `frames` and returns one PNG
/// (`width`×`height`, RGB) of the stage after each requested frame's step (0-based), in the
/// order of `frames` (a frame asked twice gets two copies).
pub fn render_frames(
    image: Image,
    scenario: &Scenario,
    config: Config,
    frames: &[u64],
    width: u32,
    height: u32,
) -> Result<Vec<Vec<u8>>, StageError> {
    let mut vm = Vm::new(image, config).map_err(StageError::Vm)?;
    let last = frames.iter().copied().max().unwrap_or(0);
    let mut fb = Framebuffer::new(width, height);
    let mut out: Vec<Option<Vec<u8>>> = vec![None; frames.len()];
    let mut inputs = Vec::new();
    for f in 0..=last {
        inputs.clear();
        inputs.extend(scenario.at(f).map(|(_, _, input)| input.clone()));
        vm.step_frame(&inputs);
        if frames.contains(&f) {
            let Ok(()) = render(&vm, &mut fb);
            let png =
                encode_png(width, height, PixelFormat::Rgb8, fb.rgb()).map_err(StageError::Png)?;
            for (slot, _) in out.iter_mut().zip(frames).filter(|(_, &g)| g == f) {
                *slot = Some(png.clone());
            }
        }
    }
    Ok(out.into_iter().map(Option::unwrap_or_default).collect())
}
