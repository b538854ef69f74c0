//! `gobo record PROJECT --scenario S -o DIR`: visual evidence of a run
//! (`gobo_host::evidence`, docs/evidence.md): stage frames as PNG every N frames, keyframes,
//! a contact sheet and an animated PNG, optionally gold and candidate side by side. Exit 0
//! when the files were written, 2 on bad input or I/O errors.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::scenario::Scenario;
use gobo_host::cost::{Stopwatch, Timed};
use gobo_host::evidence::{record, RecordParams};

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The project (the candidate, with --gold).
    project: PathBuf,
    /// The scenario (the reference harness's format, as `gobo render --scenario`); default:
    /// the green flag at frame 0.
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Keep every N-th frame.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
    every: u64,
    /// Frames to run (default: the scenario's `frames`, else 300).
    #[arg(long, allow_negative_numbers = true)]
    frames: Option<u64>,
    /// Keyframes on the contact sheet.
    #[arg(long, default_value_t = 4, allow_negative_numbers = true)]
    keyframes: usize,
    /// A gold project to show on the left of every picture.
    #[arg(long)]
    gold: Option<PathBuf>,
    /// Block randomness seed (default: the scenario's, else 1).
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<u32>,
    /// The output folder.
    #[arg(short, long)]
    output: PathBuf,
    /// Print the manifest as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: RecordArgs) -> ExitCode {
    let watch = Stopwatch::start();
    match write(&args) {
        Ok(manifest) => {
            if args.json || args.pretty {
                let timed = Timed { result: manifest, time: watch.timing() };
                crate::json_out::print(
                    &serde_json::to_value(timed).unwrap_or_default(),
                    args.pretty,
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => crate::exit::bad_input("record", e),
    }
}

fn write(args: &RecordArgs) -> Result<serde_json::Value, String> {
    let image = crate::project_input::load_image(&args.project)?;
    let gold = args.gold.as_ref().map(|g| crate::project_input::load_image(g)).transpose()?;
    let sc = match &args.scenario {
        None => Scenario::green_flag(),
        Some(p) => std::fs::read(p)
            .map_err(|e| e.to_string())
            .and_then(|b| Scenario::parse(&b).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", p.display()))?,
    };
    let params = RecordParams {
        every: args.every,
        frames: args.frames,
        keyframes: args.keyframes,
        seed: args.seed,
    };
    let cfg = params.config(&sc);
    let ev = record(image, gold, &sc, &cfg).map_err(|e| e.to_string())?;
    let dir = &args.output;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let put = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    for (name, bytes) in ev.files() {
        put(name, bytes)?;
    }
    let manifest = ev.manifest();
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    put("manifest.json", format!("{text}\n").as_bytes())?;
    Ok(manifest)
}
