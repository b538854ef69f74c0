//! Running a compiled Scratch project on the virtual clock for a host: the run options every
//! host takes (`gobo run`'s flags, the Python `run` keywords), the trace lines (meta, one per
//! frame, end; `docs/trace.md`) handed to a sink, and the run summary as JSON. The VM and the
//! trace format are the core's.

use std::fmt;

use gobo::scratch::image::Image;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::{end_line, meta_line, run_frames, MetaInfo};
use gobo::scratch::vm::drag::DragStyle;
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::{Config, Vm};
use serde_json::{json, Value};

use crate::sb3::AssetLoad;

/// How to run a project (defaults: `gobo run`'s).
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Frames to run (default: the scenario's, else 300).
    pub frames: Option<u64>,
    /// Seed of block randomness (default: the scenario's, else 1).
    pub seed: Option<u32>,
    /// Frames per second of the virtual clock (30..=60).
    pub fps: u32,
    /// Turbo mode.
    pub turbo: bool,
    /// Audio engine modelled.
    pub audio: AudioMode,
    /// How mouse events drag sprites.
    pub drag: DragStyle,
    /// Passes over the thread list per frame.
    pub ticks_per_frame: u32,
    /// Warp-timer checks before run-without-screen-refresh yields.
    pub warp_checks: u32,
    /// Calendar time of frame 0 (ISO 8601, UTC).
    pub epoch: String,
    /// Stop after two idle frames once no scenario event is pending.
    pub until_idle: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            frames: None,
            seed: None,
            fps: 30,
            turbo: false,
            audio: AudioMode::Timed,
            drag: DragStyle::Player,
            ticks_per_frame: 1000,
            warp_checks: 1_000_000,
            epoch: String::from("2020-01-01T00:00:00Z"),
            until_idle: false,
        }
    }
}

/// Why a run could not start.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// `epoch` is not an ISO 8601 UTC time.
    Epoch(String),
    /// `fps` is outside 30..=60.
    Fps(u32),
    /// The VM refused the image.
    Vm(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Epoch(s) => write!(f, "--epoch {s:?} is not an ISO 8601 UTC time"),
            RunError::Fps(n) => write!(f, "--fps {n} is not in 30..=60"),
            RunError::Vm(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for RunError {}

/// What a finished run reports (`gobo run`'s summary; `{frames, threads, random_draws}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunSummary {
    /// Frames run.
    pub frames: u64,
    /// Threads still alive at the end.
    pub threads: usize,
    /// Draws of block randomness.
    pub random_draws: u64,
}

impl RunSummary {
    /// The summary as JSON: `{"frames", "threads", "random_draws"}`.
    pub fn to_json(&self) -> Value {
        json!({ "frames": self.frames, "threads": self.threads, "random_draws": self.random_draws })
    }
}

impl fmt::Display for RunSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} frames, {} threads left, {} random draws",
            self.frames, self.threads, self.random_draws
        )
    }
}

/// Parses an audio mode (`--audio`).
pub fn parse_audio(s: &str) -> Result<AudioMode, String> {
    AudioMode::parse(s).ok_or_else(|| format!("{s:?}: expected none or timed"))
}

/// Parses a drag style (`--drag`).
pub fn parse_drag(s: &str) -> Result<DragStyle, String> {
    DragStyle::parse(s).ok_or_else(|| format!("{s:?}: expected player, editor or none"))
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z` into milliseconds since 1970.
pub fn parse_epoch(s: &str) -> Option<f64> {
    let s = s.strip_suffix('Z').unwrap_or(s);
    let (date, time) = s.split_once('T').unwrap_or((s, "00:00:00"));
    let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
    let (y, m, dd) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':');
    let h: i64 = t.next()?.parse().ok()?;
    let mi: i64 = t.next().unwrap_or("0").parse().ok()?;
    let sec: f64 = t.next().unwrap_or("0").parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&dd) {
        return None;
    }
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + dd - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400_000 + h * 3_600_000 + mi * 60_000) as f64 + sec * 1000.0)
}

impl RunOptions {
    /// The VM configuration and the frame count for a run of `scenario`.
    pub fn config(&self, scenario: &Scenario) -> Result<(Config, u64), RunError> {
        let epoch_ms =
            parse_epoch(&self.epoch).ok_or_else(|| RunError::Epoch(self.epoch.clone()))?;
        if !(30..=60).contains(&self.fps) {
            return Err(RunError::Fps(self.fps));
        }
        let frames = self.frames.or(scenario.frames).unwrap_or(300);
        let cfg = Config {
            fps: self.fps,
            ticks_per_frame: self.ticks_per_frame,
            warp_checks: self.warp_checks,
            turbo: self.turbo,
            seed: self.seed.or(scenario.seed).unwrap_or(1),
            epoch_ms,
            audio: self.audio,
            drag: self.drag,
            ..Config::default()
        };
        Ok((cfg, frames))
    }
}

/// Where the trace's meta line says the project came from.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The project as given (a path, or a name for bytes).
    pub project: &'a str,
    /// MD5 (hex) of the project as given.
    pub md5: Option<&'a str>,
    /// How the reference would have found its assets (`missingAssets`, `packedFromJson`).
    pub assets: AssetLoad,
}

/// Runs `image` under `scenario` and hands every trace line (meta, one per frame, end; without
/// newlines) to `emit`.
pub fn run_trace(
    image: Image,
    scenario: &Scenario,
    opts: &RunOptions,
    source: Source<'_>,
    emit: &mut dyn FnMut(&str),
) -> Result<RunSummary, RunError> {
    run_trace_vm(image, scenario, opts, source, emit).map(|(_, summary)| summary)
}

/// [`run_trace`], also giving back the VM as the run left it (for a summary of the stage, or
/// [`Vm::stopped`] when a budget halted the run).
pub fn run_trace_vm(
    image: Image,
    scenario: &Scenario,
    opts: &RunOptions,
    source: Source<'_>,
    emit: &mut dyn FnMut(&str),
) -> Result<(Vm, RunSummary), RunError> {
    let (cfg, frames) = opts.config(scenario)?;
    let mut vm = Vm::new(image, cfg).map_err(|e| RunError::Vm(e.to_string()))?;
    let info = MetaInfo {
        project: source.project,
        frames,
        until_idle: opts.until_idle,
        epoch: &opts.epoch,
        md5: source.md5,
        missing_assets: source.assets.missing,
        packed_from_json: source.assets.packed_from_json,
    };
    emit(&meta_line(&vm, &info));
    run_frames(&mut vm, scenario, frames, opts.until_idle, emit);
    emit(&end_line(&vm));
    let summary = RunSummary {
        frames: vm.frame(),
        threads: vm.thread_count(),
        random_draws: vm.random_calls(),
    };
    Ok((vm, summary))
}
