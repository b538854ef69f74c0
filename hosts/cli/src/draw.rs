//! `gobo draw`: DrawingBench evaluation (one action file, or a resumable parallel batch of
//! JSON lines) and rendering of an action sequence to PNG (`episode` and `report` are in
//! `draw_protocol`). Reads files and the dataset; all
//! semantics are in `gobo::drawing`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use gobo::drawing::actions::Actions;
use gobo::drawing::batch::{eval_json, eval_line, scored};
use gobo::drawing::raster::Canvas;
use gobo::drawing::task::{dataset_from_json, Task};
use gobo::drawing::ui::UiConfig;
use gobo::drawing::Profile;
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::png::{write_png, PixelFormat};

use crate::exit;
use serde_json::Value;

/// Environment variable naming the DrawingBench dataset file.
pub(crate) const DATASET_ENV: &str = "GOBO_DRAWINGBENCH_DATASET";

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
    /// Run the multi-turn protocol over an episode's turns: scores, feedback, whether another
    /// turn is due (docs/drawing.md, Episodes).
    Episode(crate::draw_protocol::EpisodeArgs),
    /// The paper's tables from episode or eval rows (docs/drawing.md, Reports).
    Report(crate::draw_protocol::ReportArgs),
}

/// Which task and UI layout a drawing is for (shared with `gobo pack --kind drawing`).
#[derive(Debug, Args)]
pub(crate) struct TaskArgs {
    /// Task by index into the dataset (0-based; ids are not unique).
    #[arg(long, conflicts_with = "task", allow_negative_numbers = true, value_parser = parse_task_index)]
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
    /// Indent the JSON result (default: one compact line).
    #[arg(long)]
    pretty: bool,
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
        DrawCommand::Eval(a) => return eval(a),
        DrawCommand::Episode(a) => return crate::draw_protocol::episode(a),
        DrawCommand::Report(a) => return crate::draw_protocol::report(a),
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

/// `--task-index`: a dataset index, which cannot be negative.
fn parse_task_index(s: &str) -> Result<usize, String> {
    match s.trim().parse::<i128>() {
        Ok(i) if i < 0 => Err(format!("{i} is negative; task indices count from 0")),
        Ok(i) => usize::try_from(i).map_err(|_| format!("{i} is too large")),
        Err(_) => Err(format!("{s:?} is not a whole number")),
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

pub(crate) fn load_dataset(args: &TaskArgs) -> Result<Vec<Task>, String> {
    let path = args
        .dataset
        .clone()
        .or_else(|| std::env::var_os(DATASET_ENV).map(PathBuf::from))
        .ok_or_else(|| {
            format!("a task index needs the dataset: pass --dataset FILE or set {DATASET_ENV}")
        })?;
    dataset_from_json(&read_text(&path)?).map_err(|e| format!("{}: {e}", path.display()))
}

fn pick(tasks: &[Task], index: usize) -> Result<Task, String> {
    tasks
        .get(index)
        .cloned()
        .ok_or_else(|| format!("task index {index} out of range (0..{})", tasks.len()))
}

pub(crate) fn load_task(args: &TaskArgs) -> Result<Option<Task>, String> {
    if let Some(p) = &args.task {
        return Task::from_json(&read_text(p)?)
            .map(Some)
            .map_err(|e| format!("{}: {e}", p.display()));
    }
    match args.task_index {
        Some(i) => pick(&load_dataset(args)?, i).map(Some),
        None => Ok(None),
    }
}

fn profile(name: &str) -> Result<Profile, String> {
    gobo::drawing::batch::profile(name)
}

/// Exit 0 when the drawing (every row, for a batch) was scored, 1 when not (too many actions,
/// text that is not a list of actions, the reference's own exception), 2 on bad input.
fn eval(args: EvalArgs) -> ExitCode {
    match eval_inner(&args) {
        Ok(code) => code,
        Err(e) => exit::bad_input("draw", e),
    }
}

fn eval_inner(args: &EvalArgs) -> Result<ExitCode, String> {
    let profile = profile(&args.profile)?;
    let ui = load_ui(&args.task)?;
    if let (Some(input), Some(out)) = (&args.batch, &args.out) {
        return batch(input, out, args, profile, &ui);
    }
    let task = load_task(&args.task)?.ok_or("pass --task-index I or --task FILE")?;
    let path = args.actions.as_deref().ok_or("missing ACTIONS file")?;
    let row = Value::Object(eval_json(&read(path)?, &task.criteria, &ui, profile));
    let text =
        if args.pretty { serde_json::to_string_pretty(&row) } else { serde_json::to_string(&row) };
    // A closed stdout (`| head`) is not an error worth a panic.
    let _ = writeln!(std::io::stdout().lock(), "{}", text.map_err(|e| e.to_string())?);
    Ok(exit::verdict(usize::from(!scored(&row))))
}

/// Whether the file holds `needle`, read in chunks (a batch can be larger than memory).
pub(crate) fn file_contains(path: &Path, needle: &[u8]) -> Result<bool, String> {
    let mut f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = vec![0u8; 1 << 16];
    let mut kept = 0;
    loop {
        let n = f.read(&mut buf[kept..]).map_err(|e| format!("{}: {e}", path.display()))?;
        if n == 0 {
            return Ok(false);
        }
        let end = kept + n;
        if buf[..end].windows(needle.len()).any(|w| w == needle) {
            return Ok(true);
        }
        // Keep the tail that could start a match cut by the chunk boundary.
        kept = (needle.len() - 1).min(end);
        buf.copy_within(end - kept..end, 0);
    }
}

fn batch(
    input: &Path,
    out: &Path,
    args: &EvalArgs,
    profile: Profile,
    ui: &UiConfig,
) -> Result<ExitCode, String> {
    // The dataset is only needed when some line names a task by index.
    let tasks = if file_contains(input, b"\"task_index\"")? {
        load_dataset(&args.task)?
    } else {
        Vec::new()
    };
    let eval = |line: &Value| eval_line(line, &tasks, ui, profile);
    let opts = BatchOptions { jobs: args.jobs, ..BatchOptions::default() };
    let mut failed = 0;
    let report = run_batch(input, out, &opts, eval, |row| failed += usize::from(!scored(row)))
        .map_err(|e| e.to_string())?;
    exit::batch_summary("draw", &report, failed);
    Ok(exit::verdict(failed))
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
