//! `gobo run`: run a Scratch project frame by frame on the virtual clock and write the trace
//! (JSON lines, `docs/trace.md`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::drag::DragStyle;
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::Vm;
use gobo_host::run::{parse_audio, parse_drag, run_trace_vm, RunOptions, Source};
use gobo_host::sb3::{is_archive, AssetLoad};

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
    /// Where to write the trace (`-` for stdout); without it a short summary is printed
    /// (frames, what was said, where the sprites ended, the variables).
    #[arg(long)]
    pub trace: Option<String>,
    /// Also write a picture of the stage after the last frame run (480x360 PNG).
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Print the summary as JSON (`{"frames", "threads", "random_draws"}`).
    #[arg(long, conflicts_with = "trace")]
    pub json: bool,
    /// Print the JSON summary indented (implies --json).
    #[arg(long, conflicts_with = "trace")]
    pub pretty: bool,
}

/// Lines of `said:` shown in the summary.
const SAID_SHOWN: usize = 12;

fn collect_says(line: &str, said: &mut Vec<String>, total: &mut usize) {
    if !line.contains("\"says\":[{") {
        return;
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { return };
    let frame = v["f"].as_u64().unwrap_or(0);
    for s in v["says"].as_array().into_iter().flatten() {
        *total += 1;
        if said.len() < SAID_SHOWN {
            let text = match &s["text"] {
                serde_json::Value::String(t) => format!("{t:?}"),
                other => other.to_string(),
            };
            let verb = s["type"].as_str().unwrap_or("say");
            let who = s["target"].as_str().unwrap_or("?");
            said.push(format!("  frame {frame:>4}  {who} {verb}s {text}"));
        }
    }
}

/// The human summary of a run: frames, what was said, sprites, variables.
fn human_summary(vm: &Vm, said: &[String], said_total: usize) -> String {
    use std::fmt::Write as _;
    let o = vm.observe();
    let fps = f64::from(vm.config().fps.max(1));
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} frames ({:.1} s of virtual time), {} scripts still running",
        vm.frame(),
        vm.frame() as f64 / fps,
        vm.thread_count()
    );
    if said.is_empty() {
        let _ = writeln!(s, "said: nothing");
    } else {
        let _ = writeln!(s, "said:");
        for line in said {
            let _ = writeln!(s, "{line}");
        }
        if said_total > said.len() {
            let _ = writeln!(s, "  ... and {} more", said_total - said.len());
        }
    }
    if !o.sprites.is_empty() {
        let _ = writeln!(s, "sprites:");
    }
    for sp in &o.sprites {
        let name = if sp.clone == 0 {
            sp.name.to_string()
        } else {
            format!("{} (clone {})", sp.name, sp.clone)
        };
        // `undefined` after `go to (mouse-pointer)` before the first mouse event.
        let coordinate = |v: f64, undefined: bool| {
            if undefined {
                "undefined".to_string()
            } else {
                v.to_string()
            }
        };
        let _ = writeln!(
            s,
            "  {name}: x {} y {} direction {} size {}%{}",
            coordinate(sp.x, sp.undefined[0]),
            coordinate(sp.y, sp.undefined[1]),
            sp.dir,
            sp.size,
            if sp.visible { "" } else { ", hidden" }
        );
    }
    let mut vars: Vec<String> =
        o.globals.iter().map(|(n, v)| format!("  {n} = {}", value_text(v))).collect();
    for sp in o.sprites.iter().filter(|sp| sp.clone == 0) {
        vars.extend(sp.vars.iter().map(|(n, v)| format!("  {}: {n} = {}", sp.name, value_text(v))));
    }
    if !vars.is_empty() {
        let _ = writeln!(s, "variables:");
        for v in vars {
            let _ = writeln!(s, "{v}");
        }
    }
    s
}

fn value_text(v: &gobo::scratch::value::Value) -> String {
    let mut s = String::new();
    gobo::scratch::trace::push_value(&mut s, v);
    s
}

/// `--png`: the stage after the last frame run, drawn by running the project again.
fn write_png(a: &RunArgs, sc: &Scenario, vm: &Vm, path: &std::path::Path) -> Result<(), String> {
    let Some(last) = vm.frame().checked_sub(1) else {
        return Err("--png: no frame ran".to_string());
    };
    let img = crate::project_input::load_image_quiet(&a.project)?;
    let pngs = gobo_host::stage::render_frames(img, sc, vm.config().clone(), &[last], 480, 360)
        .map_err(|e| e.to_string())?;
    let png = pngs.into_iter().next().ok_or("--png: nothing drawn")?;
    std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
}

/// Run the subcommand.
pub fn run(a: RunArgs) -> ExitCode {
    let files = match crate::project_input::load_files(&a.project) {
        Ok(f) => f,
        Err(e) => return crate::exit::bad_input("run", e),
    };
    let assets = AssetLoad::of(&files, is_archive(&a.project));
    let image = match crate::project_input::compile_path(&a.project, &files) {
        Ok(i) => i,
        Err(e) => return crate::exit::bad_input("run", e),
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
    for w in &image.warnings {
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
    // The reference hashes the file it was given; for a folder, gobo hashes its project.json.
    let hashed =
        if a.project.is_dir() { a.project.join("project.json") } else { a.project.clone() };
    let md5 = std::fs::read(&hashed).ok().map(|b| gobo::md5::hex(&b));
    let source = Source { project: &project, md5: md5.as_deref(), assets };
    let mut ok = true;
    // Without --trace, what was said is gathered for the summary (at most SAID_SHOWN lines).
    let mut said: Vec<String> = Vec::new();
    let mut said_total = 0usize;
    let json = a.json || a.pretty;
    let summary = a.trace.is_none() && !json;
    let (vm, totals) = match run_trace_vm(image, &sc, &opts, source, &mut |line| {
        if summary {
            collect_says(line, &mut said, &mut said_total);
        }
        ok &= writeln!(out, "{line}").is_ok();
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("gobo run: {e}");
            return ExitCode::from(2);
        }
    };
    ok &= out.flush().is_ok();
    if json {
        crate::json_out::print(&totals.to_json(), a.pretty);
    } else if summary {
        print!("{}", human_summary(&vm, &said, said_total));
    }
    if let Some(png) = &a.png {
        if let Err(e) = write_png(&a, &sc, &vm, png) {
            eprintln!("gobo run: {e}");
            return ExitCode::from(2);
        }
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
