//! `gobo render`: run a Scratch project on the virtual clock and write the stage as PNG at
//! chosen frames (`DIR/frame-NNNNN.png`, the names refvm-browser's `--png-at` uses), drawn by
//! the core's stage renderer through `gobo_host::stage`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::Config;
use gobo_host::stage;

/// Arguments of `gobo render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// `project.json`, a folder holding one, or an `.sb3` file.
    pub project: PathBuf,
    /// Scenario file (refvm format); default: green flag at frame 0.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// One frame (0-based, after the frame's step) to write to `-o`.
    #[arg(long, requires = "output", conflicts_with_all = ["png_at", "png_dir"])]
    pub frame: Option<u64>,
    /// The PNG file for `--frame`.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Frames (0-based, after the frame's step) to write, comma separated, as
    /// `frame-NNNNN.png` in `--png-dir`.
    #[arg(long, value_delimiter = ',', requires = "png_dir")]
    pub png_at: Vec<u64>,
    /// Folder for the `--png-at` PNGs (created if missing).
    #[arg(long, requires = "png_at")]
    pub png_dir: Option<PathBuf>,
    /// Output size in pixels, WIDTHxHEIGHT (default 480x360).
    #[arg(long, default_value = "480x360", conflicts_with = "scale")]
    pub size: String,
    /// Scale of the 480x360 stage (2 writes 960x720).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: Option<u32>,
    /// Seed of block randomness (default: the scenario's, else 1).
    #[arg(long)]
    pub seed: Option<u32>,
    /// Frames per second of the virtual clock.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(30..=60))]
    pub fps: u32,
}

/// The largest picture side `render` writes.
const MAX_SIDE: u32 = 4096;

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let wh = s
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)));
    let Some((w, h)) = wh else {
        return Err(format!("--size {s:?} is not WIDTHxHEIGHT (e.g. 960x720)"));
    };
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!("--size {s}: each side must be 1 to {MAX_SIDE} pixels"));
    }
    Ok((w, h))
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
    let (w, h) = match a.scale {
        Some(k) => (480 * k, 360 * k),
        None => parse_size(&a.size)?,
    };
    // Where each requested frame goes.
    let outputs: Vec<(u64, PathBuf)> = match (a.frame, &a.output, &a.png_dir) {
        (Some(f), Some(o), _) => vec![(f, o.clone())],
        (_, _, Some(dir)) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            a.png_at.iter().map(|&f| (f, dir.join(format!("frame-{f:05}.png")))).collect()
        }
        _ => {
            return Err("which frame? pass --frame N -o FILE.png (one picture), or --png-at F,G,.. --png-dir DIR (several)".into())
        }
    };
    let img = crate::project_input::load_image(&a.project)?;
    let sc = match &a.scenario {
        None => Scenario::green_flag(),
        Some(p) => std::fs::read(p)
            .map_err(|e| e.to_string())
            .and_then(|b| Scenario::parse(&b).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", p.display()))?,
    };
    let cfg = Config { fps: a.fps, seed: a.seed.or(sc.seed).unwrap_or(1), ..Config::default() };
    let frames: Vec<u64> = outputs.iter().map(|o| o.0).collect();
    let pngs = stage::render_frames(img, &sc, cfg, &frames, w, h).map_err(|e| e.to_string())?;
    for ((_, path), png) in outputs.iter().zip(pngs) {
        std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
