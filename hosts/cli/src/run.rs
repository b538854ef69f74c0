//! `gobo run`: run a Scratch project frame by frame on the virtual clock and write the trace
//! (JSON lines, `docs/trace.md`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::{end_line, meta_line, run_frames, MetaInfo};
use gobo::scratch::vm::drag::DragStyle;
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::{Config, Vm};

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
}

/// Parse `--audio`.
pub fn parse_audio(s: &str) -> Result<AudioMode, String> {
    AudioMode::parse(s).ok_or_else(|| format!("{s:?}: expected none or timed"))
}

/// Parse `--drag`.
pub fn parse_drag(s: &str) -> Result<DragStyle, String> {
    DragStyle::parse(s).ok_or_else(|| format!("{s:?}: expected player, editor or none"))
}

/// Parse `YYYY-MM-DDTHH:MM:SS[.fff]Z` into ms since 1970.
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

/// Run the subcommand.
pub fn run(a: RunArgs) -> ExitCode {
    let img = match crate::project_input::load_image(&a.project) {
        Ok(i) => i,
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
    let Some(epoch_ms) = parse_epoch(&a.epoch) else {
        eprintln!("gobo run: --epoch {:?} is not an ISO 8601 UTC time", a.epoch);
        return ExitCode::from(2);
    };
    let frames = a.frames.or(sc.frames).unwrap_or(300);
    let cfg = Config {
        fps: a.fps,
        ticks_per_frame: a.ticks_per_frame,
        warp_checks: a.warp_checks,
        turbo: a.turbo,
        seed: a.seed.or(sc.seed).unwrap_or(1),
        epoch_ms,
        audio: a.audio,
        drag: a.drag,
        ..Config::default()
    };
    for w in &img.warnings {
        eprintln!("gobo run: warning: {w}");
    }
    let mut vm = match Vm::new(img, cfg) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("gobo run: {e}");
            return ExitCode::from(2);
        }
    };
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
    // The reference hashes the file it was given; for a folder, gobo hashes its project.json.
    let hashed =
        if a.project.is_dir() { a.project.join("project.json") } else { a.project.clone() };
    let md5 = std::fs::read(&hashed).ok().map(|b| gobo::md5::hex(&b));
    let info = MetaInfo { project: &project, frames, epoch: &a.epoch, md5: md5.as_deref() };
    let meta = meta_line(&vm, &info);
    let mut ok = writeln!(out, "{meta}").is_ok();
    run_frames(&mut vm, &sc, frames, a.until_idle, &mut |line| {
        ok &= writeln!(out, "{line}").is_ok();
    });
    ok &= writeln!(out, "{}", end_line(&vm)).is_ok() && out.flush().is_ok();
    if a.trace.is_none() {
        println!(
            "{} frames, {} threads left, {} random draws",
            vm.frame(),
            vm.thread_count(),
            vm.random_calls()
        );
    }
    if !ok {
        eprintln!("gobo run: could not write the trace");
        return ExitCode::from(2);
    }
    match vm.stopped() {
        // A budget halted a runaway program (docs/trace.md, "Budgets").
        Some(stop) => {
            eprintln!("gobo run: {stop}");
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}
