//! `gobo draw episode` (the multi-turn protocol over one episode document, or a resumable
//! parallel batch of them, with optional canvas PNGs per turn) and `gobo draw report` (the
//! paper's tables from result rows). Reads and writes files; the protocol and the report are
//! `gobo::drawing::{episode, report}`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::drawing::episode::{
    all_scored, episode_line, read_doc, EpisodeConfig, DEFAULT_MAX_TURNS,
};
use gobo::drawing::feedback::RETRY_BELOW;
use gobo::drawing::report::ReportBuilder;
use gobo::drawing::task::Task;
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::drawing::canvas_png;
use serde_json::{json, Value};

use crate::draw::{file_contains, load_dataset, load_ui, read_text, TaskArgs};
use crate::exit;

#[derive(Debug, Args)]
pub struct EpisodeArgs {
    #[command(flatten)]
    task: TaskArgs,
    /// The episode document (`{id?, task | task_index, turns: [...], ...}`, docs/drawing.md).
    #[arg(conflicts_with_all = ["actions", "batch"])]
    episode: Option<PathBuf>,
    /// One turn's raw action text, instead of a document (repeat for turns 1, 2, ...; the task
    /// from --task or --task-index).
    #[arg(long, conflicts_with = "batch")]
    actions: Vec<PathBuf>,
    /// Most turns that run (the paper: 2).
    #[arg(long, default_value_t = DEFAULT_MAX_TURNS)]
    max_turns: u32,
    /// A turn scoring at least this ends the episode (the paper: 0.9).
    #[arg(long, default_value_t = RETRY_BELOW)]
    stop_at: f64,
    /// Scoring profile: drawingbench-1.0 (the published evaluator) or paper.
    #[arg(long, default_value = "drawingbench-1.0")]
    profile: String,
    /// Write each turn's canvas as DIR/turn-K.png.
    #[arg(long, conflicts_with = "batch")]
    png_dir: Option<PathBuf>,
    /// Input JSON lines, one episode document per line.
    #[arg(long, requires = "out")]
    batch: Option<PathBuf>,
    /// Output JSON lines (resumable: rows already present are kept).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads for --batch (0 = one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Print the episode row as one JSON object on one line.
    #[arg(long)]
    json: bool,
    /// Print the JSON row indented (implies --json).
    #[arg(long)]
    pretty: bool,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Result rows: `gobo draw episode --batch` or `gobo draw eval --batch` output.
    rows: PathBuf,
    /// Dataset file naming each task_index's category and difficulty (default:
    /// $GOBO_DRAWINGBENCH_DATASET when set; rows may carry their own).
    #[arg(long)]
    dataset: Option<PathBuf>,
    /// Print the report as one JSON object on one line.
    #[arg(long)]
    json: bool,
    /// Print the JSON report indented (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn episode(args: EpisodeArgs) -> ExitCode {
    match episode_inner(&args) {
        Ok(code) => code,
        Err(e) => exit::bad_input("draw episode", e),
    }
}

fn defaults(args: &EpisodeArgs) -> Result<EpisodeConfig, String> {
    let config = EpisodeConfig {
        max_turns: args.max_turns,
        stop_at: args.stop_at,
        profile: gobo::drawing::batch::profile(&args.profile)?,
    };
    config.check().map_err(|e| e.to_string())?;
    Ok(config)
}

/// The episode document: the file, or one built from `--actions` files and the task flags.
/// A document without a task takes the one the flags name.
fn document(args: &EpisodeArgs) -> Result<Value, String> {
    let mut doc = match &args.episode {
        Some(path) => serde_json::from_str::<Value>(&read_text(path)?)
            .map_err(|e| format!("{}: {e}", path.display()))?,
        None if !args.actions.is_empty() => {
            let turns: Vec<Value> = args
                .actions
                .iter()
                .map(|p| read_text(p).map(Value::from))
                .collect::<Result<_, _>>()?;
            json!({ "turns": turns })
        }
        None => return Err("give an EPISODE document, --actions FILE... or --batch".into()),
    };
    if let Some(m) = doc.as_object_mut() {
        if !m.contains_key("task") && !m.contains_key("task_index") {
            if let Some(p) = &args.task.task {
                m.insert("task".into(), Value::from(read_text(p)?));
            } else if let Some(i) = args.task.task_index {
                m.insert("task_index".into(), Value::from(i));
            }
        }
    }
    Ok(doc)
}

fn episode_inner(args: &EpisodeArgs) -> Result<ExitCode, String> {
    let config = defaults(args)?;
    let ui = load_ui(&args.task)?;
    if let (Some(input), Some(out)) = (&args.batch, &args.out) {
        let tasks = if file_contains(input, b"\"task_index\"")? {
            load_dataset(&args.task)?
        } else {
            Vec::new()
        };
        let eval = |line: &Value| episode_line(line, &tasks, &ui, config);
        let opts = BatchOptions { jobs: args.jobs, ..BatchOptions::default() };
        let mut failed = 0;
        let report =
            run_batch(input, out, &opts, eval, |row| failed += usize::from(!all_scored(row)))
                .map_err(|e| e.to_string())?;
        exit::batch_summary("draw episode", &report, failed);
        return Ok(exit::verdict(failed));
    }
    let doc = document(args)?;
    let tasks = if doc.get("task").is_none() && doc.get("task_index").is_some() {
        load_dataset(&args.task)?
    } else {
        Vec::new()
    };
    let parsed = read_doc(&doc, &tasks, config).map_err(|e| e.to_string())?;
    let (episode, row) = parsed.run(&ui);
    if let Some(dir) = &args.png_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (t, input) in episode.turns.iter().zip(&parsed.turns) {
            let path = dir.join(format!("turn-{}.png", t.turn));
            match canvas_png(&input.raw, &ui) {
                Some(png) => {
                    std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => {
                    eprintln!("gobo draw episode: turn {}: not an action list, no canvas", t.turn)
                }
            }
        }
    }
    let row = Value::Object(row);
    if args.json || args.pretty {
        crate::json_out::print(&row, args.pretty);
    } else {
        print_episode(&row);
    }
    Ok(exit::verdict(usize::from(!all_scored(&row))))
}

fn print_episode(row: &Value) {
    let score = |v: &Value| v.as_f64().map_or_else(|| "not scored".to_string(), |s| format!("{s}"));
    for t in row["turns"].as_array().into_iter().flatten() {
        println!("turn {}: score {}", t["turn"], score(&t["score"]));
    }
    if row["turns_ignored"].as_u64().unwrap_or(0) > 0 {
        println!("turns ignored after the episode stopped: {}", row["turns_ignored"]);
    }
    match row["stopped"].as_str() {
        Some(why) => println!("stopped ({why}); final score {}", score(&row["final_score"])),
        None => println!("needs turn {}", row["next_turn"]),
    }
    if let Some(text) = row["feedback_text"].as_str() {
        println!("\n{text}");
    }
}

pub fn report(args: ReportArgs) -> ExitCode {
    match report_inner(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::bad_input("draw report", e),
    }
}

fn report_dataset(args: &ReportArgs) -> Result<Vec<Task>, String> {
    let path = args
        .dataset
        .clone()
        .or_else(|| std::env::var_os(crate::draw::DATASET_ENV).map(PathBuf::from));
    match path {
        Some(p) => gobo::drawing::task::dataset_from_json(&read_text(&p)?)
            .map_err(|e| format!("{}: {e}", p.display())),
        None => Ok(Vec::new()),
    }
}

fn report_inner(args: &ReportArgs) -> Result<(), String> {
    let tasks = report_dataset(args)?;
    let rows = open(&args.rows)?;
    let mut builder = ReportBuilder::new();
    for (i, line) in BufReader::new(rows).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", args.rows.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let row: Value = serde_json::from_str(&line)
            .map_err(|e| format!("{}: line {}: {e}", args.rows.display(), i + 1))?;
        builder.add(&row, &tasks);
    }
    let report = builder.finish();
    if report.rows == 0 {
        return Err(format!("{}: no rows", args.rows.display()));
    }
    if args.json || args.pretty {
        crate::json_out::print(&report.to_json(), args.pretty);
    } else {
        print!("{}", report.to_markdown());
    }
    Ok(())
}

fn open(path: &Path) -> Result<std::fs::File, String> {
    std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))
}
