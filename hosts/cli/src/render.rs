//! `gobo render`: run a Scratch project on the virtual clock and write the stage as PNG at
//! chosen frames (`DIR/frame-NNNNN.png`, the names refvm-browser's `--png-at` uses), drawn by
//! the core's stage renderer.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::render::{render, Framebuffer};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::{Config, Vm};
use gobo_host::png::{write_png, PixelFormat};

/// Arguments of `gobo render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// `project.json`, a folder holding one, or an `.sb3` file.
    pub project: PathBuf,
    /// Scenario file (refvm format); default: green flag at frame 0.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// Frames (0-based, after the frame's step) to write, comma separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub png_at: Vec<u64>,
    /// Folder for the PNGs (created if missing).
    #[arg(long)]
    pub png_dir: PathBuf,
    /// Output size in pixels, WIDTHxHEIGHT (default 480x360).
    #[arg(long, default_value = "480x360")]
    pub size: String,
    /// Seed of block randomness (default: the scenario's, else 1).
    #[arg(long)]
    pub seed: Option<u32>,
    /// Frames per second of the virtual clock.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(30..=60))]
    pub fps: u32,
}

fn parse_size(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once(['x', 'X'])?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    ((1..=4096).contains(&w) && (1..=4096).contains(&h)).then_some((w, h))
}

/// Run the subcommand.
pub fn run(a: RenderArgs) -> ExitCode {
    match render_frames(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gobo render: {e}");
            ExitCode::from(2)
        }
    }
}

fn render_frames(a: &RenderArgs) -> Result<(), String> {
    let (w, h) = parse_size(&a.size).ok_or_else(|| format!("--size {:?} is not WxH", a.size))?;
    let img = crate::project_input::load_image(&a.project)?;
    let sc = match &a.scenario {
        None => Scenario::green_flag(),
        Some(p) => std::fs::read(p)
            .map_err(|e| e.to_string())
            .and_then(|b| Scenario::parse(&b).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", p.display()))?,
    };
    let cfg = Config { fps: a.fps, seed: a.seed.or(sc.seed).unwrap_or(1), ..Config::default() };
    let mut vm = Vm::new(img, cfg).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&a.png_dir).map_err(|e| format!("{}: {e}", a.png_dir.display()))?;
    let last = a.png_at.iter().copied().max().unwrap_or(0);
    let mut fb = Framebuffer::new(w, h);
    let mut inputs = Vec::new();
    for f in 0..=last {
        inputs.clear();
        inputs.extend(sc.at(f).map(|(_, _, input)| input.clone()));
        vm.step_frame(&inputs);
        if a.png_at.contains(&f) {
            let Ok(()) = render(&vm, &mut fb);
            let path = a.png_dir.join(format!("frame-{f:05}.png"));
            write_png(&path, w, h, PixelFormat::Rgb8, fb.rgb()).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
