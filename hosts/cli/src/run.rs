//! `gobo run`: run a Scratch project frame by frame on the virtual clock and write the trace
//! (JSON lines, `docs/trace.md`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::drag::DragStyle;
use gobo::scratch::vm::sound::AudioMode;
use gobo_host::run::{run_trace, RunOptions, Source};

/// Arguments of `gobo run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// `project.json`, a folder holding one, or an `.sb3` file.
    pub project: PathBuf,
    /// Scenario file (refvm format); default: green flag at frame 0.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// Frames to run (default: the scenario's, else 300).
    #[arg(long)]
    pub frames: Option<u64>,
    /// Seed of block randomness (default: the scenario's, else 1).
    #[arg(long)]
    pub seed: Option<u32>,
    /// Frames per second of the virtual clock.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(30..=60))]
    pub fps: u32,
    /// Turbo mode.
    #[arg(long)]
    pub turbo: bool,
    /// Audio engine modelled: `timed` (the browser: `play sound until done` waits the
    /// sound's duration) or `none` (the reference harnesses: it does not wait).
    #[arg(long, default_value = "timed", value_parser = parse_audio)]
    pub audio: AudioMode,
    /// How mouse events drag sprites: `player` (the browser's player: draggable sprites
    /// follow the mouse), `editor` (any sprite, placed where dropped) or `none` (the
    /// reference harnesses: nothing drags). See docs/stage.md.
    #[arg(long, default_value = "player", value_parser = parse_drag)]
    pub drag: DragStyle,
    /// Passes over the thread list per frame.
    #[arg(long, default_value_t = 1000)]
    pub ticks_per_frame: u32,
    /// Warp-timer checks before run-without-screen-refresh yields.
    #[arg(long, default_value_t = 1_000_000)]
    pub warp_checks: u32,
    /// Calendar time of frame 0 (ISO 8601, UTC), e.g. 2020-01-01T00:00:00Z.
    #[arg(long, default_value = "2020-01-01T00:00:00Z")]
    pub epoch: String,
    /// Stop after two idle frames once no scenario event is pending.
    #[arg(long)]
    pub until_idle: bool,
    /// Where to write the trace (`-` for stdout); without it only a summary is printed.
    #[arg(long)]
    pub trace: Option<String>,
    /// Print the summary as JSON (`{"frames", "threads", "random_draws"}`).
    #[arg(long, conflicts_with = "trace")]
    pub json: bool,
}

/// Parse `--audio`.
pub fn parse_audio(s: &str) -> Result<AudioMode, String> {
    AudioMode::parse(s).ok_or_else(|| format!("{s:?}: expected none or timed"))
}

/// Parse `--drag`.
pub fn parse_drag(s: &str) -> Result<DragStyle, String> {
    DragStyle::parse(s).ok_or_else(|| format!("{s:?}: expected player, editor or none"))
}

/// Run the subcommand.
pub fn run(a: RunArgs) -> ExitCode {
    let loaded = match crate::project_input::load(&a.project) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("gobo run: {e}");
            return ExitCode::from(2);
        }
    };
    let sc = match &a.scenario {
        None => Scenario::green_flag(),
        Some(p) => match std::fs::read(p)
            .map_err(|e| e.to_string())
            .and_then(|b| Scenario::parse(&b).map_err(|e| e.to_string()))
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("gobo run: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
    };
    let opts = RunOptions {
        frames: a.frames,
        seed: a.seed,
        fps: a.fps,
        turbo: a.turbo,
        audio: a.audio,
        drag: a.drag,
        ticks_per_frame: a.ticks_per_frame,
        warp_checks: a.warp_checks,
        epoch: a.epoch.clone(),
        until_idle: a.until_idle,
    };
    // Checked before the image's warnings are printed, as before.
    if let Err(e) = opts.config(&sc) {
        eprintln!("gobo run: {e}");
        return ExitCode::from(2);
    }
    for w in &loaded.image.warnings {
        eprintln!("gobo run: warning: {w}");
    }
    let mut out: Box<dyn Write> = match a.trace.as_deref() {
        None => Box::new(std::io::sink()),
        Some("-") => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("gobo run: {p}: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let project = a.project.display().to_string();
    let source = Source { project: &project, md5: loaded.md5.as_deref() };
    let mut ok = true;
    let summary = match run_trace(loaded.image, &sc, &opts, source, &mut |line| {
        ok &= writeln!(out, "{line}").is_ok();
    }) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("gobo run: {e}");
            return ExitCode::from(2);
        }
    };
    ok &= out.flush().is_ok();
    if a.trace.is_none() {
        if a.json {
            println!("{}", summary.to_json());
        } else {
            println!("{summary}");
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("gobo run: could not write the trace");
        ExitCode::from(1)
    }
}
