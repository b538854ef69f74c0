//! `gobo xlogo ...`: evaluate XLogo-Mini code against a task (one pair, or a JSON-lines batch),
//! print a task as a prompt, render a task and a run as PNG (the analyses `classify`, `report`,
//! `perturb`, `resample` are in `xlogo_analysis`). Files in, JSON/text/PNG out; the
//! semantics live in `gobo::xlogo`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use gobo::xlogo::batch::Summary;
use gobo::xlogo::prompt::{prompt, PromptStyle};
use gobo::xlogo::render::render_image;
use gobo::xlogo::{evaluate_code, load, parse_code, CodeInput, Emulator, Task, Verdict, World};
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::png::{write_png, PixelFormat};
use gobo_host::xlogo_rows::xlogo_row;

use crate::exit;

#[derive(Debug, Args)]
pub struct XlogoArgs {
    #[command(subcommand)]
    command: XlogoCommand,
}

#[derive(Debug, Subcommand)]
enum XlogoCommand {
    /// Evaluate code against a task and print the verdict as JSON (or run a batch).
    Eval(EvalArgs),
    /// Print a task as a prompt for a language model.
    Prompt(PromptArgs),
    /// Render a task (and a run of CODE) as a PNG picture.
    Render(RenderArgs),
    /// Print a task's dimensions (task type, constraints, concepts, length, grid size), or their
    /// distribution over a task file.
    Classify(crate::xlogo_analysis::ClassifyArgs),
    /// Success, format and no-crash rates of verdict rows, overall and per task dimension.
    Report(crate::xlogo_analysis::ReportArgs),
    /// The three simplifications (A constraints, B walls/forbidden cells, C turtle closer) and
    /// their subsets, with the reference code's verdict on each.
    Perturb(crate::xlogo_analysis::PerturbArgs),
    /// Emulator-driven curriculum: weight failed tasks by 1 + beta and draw the next training set.
    Resample(crate::xlogo_analysis::ResampleArgs),
}

#[derive(Debug, Args)]
struct EvalArgs {
    /// Task JSON file (a task object, or a data-file row with a "task" field).
    #[arg(required_unless_present = "batch")]
    task: Option<PathBuf>,
    /// Code file: `.py` is Python-style code, anything else a JSON AST (`{"run": [...]}`).
    #[arg(required_unless_present = "batch")]
    code: Option<PathBuf>,
    /// JSON-lines input: one `{"id", "task", "code"}` object per line.
    #[arg(long, requires = "out", conflicts_with_all = ["task", "code"])]
    batch: Option<PathBuf>,
    /// JSON-lines output of a batch (resumed if it exists).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads for a batch (0 = all cores).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Indent the JSON verdict (default: one compact line).
    #[arg(long, conflicts_with = "batch")]
    pretty: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Style {
    /// Sentences describing each notable cell.
    Nl,
    /// A character grid with a legend.
    Ascii,
}

#[derive(Debug, Args)]
struct PromptArgs {
    /// Task JSON file.
    task: PathBuf,
    /// Prompt style.
    #[arg(long, value_enum, default_value_t = Style::Nl)]
    style: Style,
}

#[derive(Debug, Args)]
struct RenderArgs {
    /// Task JSON file.
    task: PathBuf,
    /// Code to run and draw (optional).
    code: Option<PathBuf>,
    /// Output PNG file.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: XlogoArgs) -> ExitCode {
    let result = match args.command {
        XlogoCommand::Eval(a) => return eval(a),
        XlogoCommand::Prompt(a) => load_task(&a.task).map(|task| {
            let style = match a.style {
                Style::Nl => PromptStyle::Nl,
                Style::Ascii => PromptStyle::Ascii,
            };
            print!("{}", prompt(&task, style));
        }),
        XlogoCommand::Render(a) => render(a),
        XlogoCommand::Classify(a) => return crate::xlogo_analysis::classify_cmd(a),
        XlogoCommand::Report(a) => return crate::xlogo_analysis::report_cmd(a),
        XlogoCommand::Perturb(a) => return crate::xlogo_analysis::perturb_cmd(a),
        XlogoCommand::Resample(a) => return crate::xlogo_analysis::resample_cmd(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gobo xlogo: {e}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn load_task(path: &Path) -> Result<Task, String> {
    load::task_from_slice(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

/// `.py` files are Python-style code; anything else is a JSON AST.
fn code_input<'a>(path: &Path, bytes: &'a [u8]) -> CodeInput<'a> {
    if path.extension().is_some_and(|e| e == "py") {
        CodeInput::Python(bytes)
    } else {
        CodeInput::Json(bytes)
    }
}

/// Exit 0 when the code solves the task (every row, for a batch), 1 when not, 2 on bad input.
fn eval(a: EvalArgs) -> ExitCode {
    if let (Some(input), Some(out)) = (&a.batch, &a.out) {
        return eval_batch(input, out, a.jobs);
    }
    let (Some(task_path), Some(code_path)) = (&a.task, &a.code) else {
        return exit::bad_input("xlogo", "eval needs TASK and CODE, or --batch IN --out OUT");
    };
    let task = match load_task(task_path) {
        Ok(t) => t,
        Err(e) => return exit::bad_input("xlogo", e),
    };
    let world = World::new(&task);
    let code = match read(code_path) {
        Ok(c) => c,
        Err(e) => return exit::bad_input("xlogo", e),
    };
    let verdict = evaluate_code(&world, code_input(code_path, &code));
    crate::json_out::print(&verdict.to_json(), a.pretty);
    exit::verdict(usize::from(!verdict.success()))
}

fn eval_batch(input: &Path, out: &Path, jobs: usize) -> ExitCode {
    let opts = BatchOptions { jobs, ..BatchOptions::default() };
    let mut s = Summary::default();
    let report = match run_batch(input, out, &opts, xlogo_row, |row| s.add(row)) {
        Ok(r) => r,
        Err(e) => return exit::bad_input("xlogo", e),
    };
    eprintln!(
        "gobo xlogo: success {:.4} ({}), format {:.4} ({}), no crash {:.4} ({})",
        s.rate(s.success),
        s.success,
        s.rate(s.format_ok),
        s.format_ok,
        s.rate(s.no_crash),
        s.no_crash
    );
    let failed = s.rows - s.success;
    exit::batch_summary("xlogo", &report, failed);
    exit::verdict(failed)
}

fn render(a: RenderArgs) -> Result<(), String> {
    let task = load_task(&a.task)?;
    let report = match &a.code {
        None => None,
        Some(path) => {
            let bytes = read(path)?;
            let program = parse_code(code_input(path, &bytes))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let world = World::new(&task);
            let mut emulator = Emulator::new();
            let outcome = emulator.evaluate(&world, &program);
            Verdict::from_run(&world, &outcome, &emulator).run
        }
    };
    let image = render_image(&task, report.as_ref());
    write_png(&a.output, image.width(), image.height(), PixelFormat::Rgb8, image.pixels())
        .map_err(|e| e.to_string())
}
