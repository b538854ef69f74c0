//! `gobo draw`: DrawingBench evaluation (one action file, or a resumable parallel batch of
//! JSON lines) and rendering of an action sequence to PNG. Reads files and the dataset; all
//! semantics are in `gobo::drawing`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use gobo::drawing::actions::Actions;
use gobo::drawing::raster::Canvas;
use gobo::drawing::task::{dataset_from_json, Task};
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{batch, Profile};
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::png::{write_png, PixelFormat};
use serde_json::Value;

/// Environment variable naming the DrawingBench dataset file.
const DATASET_ENV: &str = "GOBO_DRAWINGBENCH_DATASET";

#[derive(Debug, Args)]
pub struct DrawArgs {
    #[command(subcommand)]
    command: DrawCommand,
}

#[derive(Debug, Subcommand)]
enum DrawCommand {
    /// Score actions: one file (prints the result as JSON) or a batch of JSON lines.
    Eval(EvalArgs),
    /// Render what the drawing app would show for an action file, as PNG.
    Render(RenderArgs),
}

/// Which task and UI layout a drawing is for (shared with `gobo pack --kind drawing`).
#[derive(Debug, Args)]
pub(crate) struct TaskArgs {
    /// Task by index into the dataset (0-based; ids are not unique).
    #[arg(long, conflicts_with = "task")]
    pub(crate) task_index: Option<usize>,
    /// Task from a JSON file (`{id, prompt, criteria}` or a bare criteria object).
    #[arg(long)]
    pub(crate) task: Option<PathBuf>,
    /// Dataset file (`dataset_consolidated.json`); default: $GOBO_DRAWINGBENCH_DATASET.
    #[arg(long)]
    dataset: Option<PathBuf>,
    /// UI config JSON (default: DrawingBench's published layout).
    #[arg(long)]
    pub(crate) ui: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct EvalArgs {
    #[command(flatten)]
    task: TaskArgs,
    /// Scoring profile: drawingbench-1.0 (the published evaluator) or paper.
    #[arg(long, default_value = "drawingbench-1.0")]
    profile: String,
    /// Input JSON lines: {"id", "task_index" or "task", "actions_raw"}.
    #[arg(long, requires = "out", conflicts_with = "actions")]
    batch: Option<PathBuf>,
    /// Output JSON lines (resumable: rows already present are kept).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads for --batch (0 = one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// The model's raw action text (a JSON list of actions).
    #[arg(required_unless_present = "batch")]
    actions: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct RenderArgs {
    #[command(flatten)]
    task: TaskArgs,
    /// The model's raw action text.
    actions: PathBuf,
    /// Output PNG (RGBA; erased pixels are transparent).
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: DrawArgs) -> ExitCode {
    let result = match args.command {
        DrawCommand::Eval(a) => eval(a),
        DrawCommand::Render(a) => render(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("gobo draw: {msg}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn read_text(path: &Path) -> Result<String, String> {
    String::from_utf8(read(path)?).map_err(|_| format!("{}: not UTF-8", path.display()))
}

pub(crate) fn load_ui(args: &TaskArgs) -> Result<UiConfig, String> {
    match &args.ui {
        None => Ok(UiConfig::drawingbench_default()),
        Some(p) => UiConfig::from_json(&read_text(p)?).map_err(|e| format!("{}: {e}", p.display())),
    }
}

fn load_dataset(args: &TaskArgs) -> Result<Vec<Task>, String> {
    let path = args
        .dataset
        .clone()
        .or_else(|| std::env::var_os(DATASET_ENV).map(PathBuf::from))
        .ok_or_else(|| {
            format!("a task index needs the dataset: pass --dataset FILE or set {DATASET_ENV}")
        })?;
    dataset_from_json(&read_text(&path)?).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn load_task(args: &TaskArgs) -> Result<Option<Task>, String> {
    if let Some(p) = &args.task {
        return Task::from_json(&read_text(p)?)
            .map(Some)
            .map_err(|e| format!("{}: {e}", p.display()));
    }
    match args.task_index {
        Some(i) => batch::pick(&load_dataset(args)?, i).cloned().map(Some),
        None => Ok(None),
    }
}

fn profile(name: &str) -> Result<Profile, String> {
    Profile::from_name(name)
        .ok_or_else(|| format!("unknown profile `{name}` (drawingbench-1.0 or paper)"))
}

fn eval(args: EvalArgs) -> Result<(), String> {
    let profile = profile(&args.profile)?;
    let ui = load_ui(&args.task)?;
    if let (Some(input), Some(out)) = (&args.batch, &args.out) {
        return batch(input, out, &args, profile, &ui);
    }
    let task = load_task(&args.task)?.ok_or("pass --task-index I or --task FILE")?;
    let path = args.actions.as_deref().ok_or("missing ACTIONS file")?;
    let row = batch::eval_text(&read(path)?, &task.criteria, &ui, profile);
    let text = serde_json::to_string_pretty(&Value::Object(row)).map_err(|e| e.to_string())?;
    // A closed stdout (`| head`) is not an error worth a panic.
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    Ok(())
}

fn batch(
    input: &Path,
    out: &Path,
    args: &EvalArgs,
    profile: Profile,
    ui: &UiConfig,
) -> Result<(), String> {
    // The dataset is only needed when some line names a task by index.
    let text = read_text(input)?;
    let needs_dataset = text.lines().any(|l| l.contains("\"task_index\""));
    let tasks = if needs_dataset { load_dataset(&args.task)? } else { Vec::new() };
    let eval = |line: &Value| batch::eval_row(line, &tasks, ui, profile);
    let opts = BatchOptions { jobs: args.jobs, ..BatchOptions::default() };
    let report = run_batch(input, out, &opts, eval).map_err(|e| e.to_string())?;
    eprintln!(
        "gobo draw: {} rows ({} evaluated, {} kept from an earlier run)",
        report.rows.len(),
        report.ran,
        report.skipped
    );
    Ok(())
}

fn render(args: RenderArgs) -> Result<(), String> {
    let ui = load_ui(&args.task)?;
    // The picture does not depend on the task; a named task is still checked to exist.
    load_task(&args.task)?;
    let actions = Actions::parse(&read(&args.actions)?).map_err(|e| e.to_string())?;
    let canvas = Canvas::render(&actions, &ui);
    write_png(&args.output, canvas.width(), canvas.height(), PixelFormat::Rgba8, canvas.rgba())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_named() {
        assert_eq!(profile("paper"), Ok(Profile::Paper));
        assert!(profile("nope").is_err());
    }
}
