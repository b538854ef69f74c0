//! `gobo bench scratchworld --projects DIR`: judges a folder of agent outputs (`<task>.sb3`)
//! on ScratchWorld's tasks as gobo suites (`benchmarks/scratchworld/`, docs/benchmarks.md)
//! through the resumable batch runner, and prints the paper's metrics. The manifest and the
//! metrics are the core's (`gobo::bench::scratchworld`); this module only maps files to rows.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use gobo::bench::scratchworld::{
    metrics, parse_manifest, BenchReport, Flavour, Manifest, Metrics, TaskResult,
};
use gobo::scratch::suite::Stability;
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::judge::{parse_seeds, TestJob};
use serde_json::{json, Value as Json};

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    benchmark: Benchmark,
}

#[derive(Debug, Subcommand)]
enum Benchmark {
    /// ScratchWorld's 83 tasks: judge DIR/<task>.sb3 for every task and print SR and PSR.
    Scratchworld(ScratchworldArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FlavourArg {
    Compat,
    Strict,
}

#[derive(Debug, Args)]
struct ScratchworldArgs {
    /// The folder of agent outputs, one `<task>.sb3` per task.
    #[arg(long)]
    projects: PathBuf,
    /// The suites' folder holding manifest.json (default: $GOBO_BENCHMARKS/scratchworld, else
    /// the repository's benchmarks/scratchworld).
    #[arg(long)]
    suites: Option<PathBuf>,
    /// compat: the original scripts' behaviour; strict: the tasks' stated intent.
    #[arg(long, value_enum, default_value = "compat")]
    flavour: FlavourArg,
    /// Rerun every case under seeds: `R` (1..=R) or `A..B`.
    #[arg(long)]
    seeds: Option<String>,
    /// The rows file (JSON Lines, one row per task; rerunning resumes it). Default: a
    /// temporary file, removed afterwards.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Print the metrics as one JSON object on one line.
    #[arg(long)]
    json: bool,
    /// Print the JSON indented (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: BenchArgs) -> ExitCode {
    match args.benchmark {
        Benchmark::Scratchworld(args) => scratchworld(&args),
    }
}

fn default_suites() -> PathBuf {
    match std::env::var_os("GOBO_BENCHMARKS") {
        Some(dir) => PathBuf::from(dir).join("scratchworld"),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/scratchworld"),
    }
}

/// One input line per task, then one per `.sb3` of the folder that names no task.
fn schedule(manifest: &Manifest, suites: &Path, projects: &Path, flavour: Flavour) -> Vec<Json> {
    let mut rows = Vec::new();
    for task in &manifest.tasks {
        let project = projects.join(format!("{}.sb3", task.name));
        rows.push(json!({
            "id": task.name,
            "category": task.category.name(),
            "project": project.is_file().then(|| project.display().to_string()),
            "suite": task.entry(flavour).suite.as_ref().map(|s| suites.join(s).display().to_string()),
        }));
    }
    let mut extra: Vec<String> = std::fs::read_dir(projects)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".sb3")?;
            manifest.task(stem).is_none().then(|| stem.to_string())
        })
        .collect();
    extra.sort();
    for stem in extra {
        rows.push(json!({"id": format!("extra:{stem}"), "extra": stem}));
    }
    rows
}

/// Judges one input line: a row with `task`, `category`, `status` and the verdicts.
fn eval(row: &Json, seeds: Option<&[u64]>) -> Json {
    if let Some(stem) = row.get("extra").and_then(Json::as_str) {
        return json!({"status": "extra", "error": format!("{stem}.sb3 names no ScratchWorld task")});
    }
    let task = row["id"].clone();
    let category = row["category"].clone();
    let base = json!({"task": task, "category": category});
    let with = |mut fields: Json| {
        if let (Some(out), Some(base)) = (fields.as_object_mut(), base.as_object()) {
            for (k, v) in base {
                out.insert(k.clone(), v.clone());
            }
        }
        fields
    };
    let Some(suite) = row["suite"].as_str() else {
        return with(json!({"status": "no_suite"}));
    };
    let Some(project) = row["project"].as_str() else {
        return with(json!({"status": "missing", "error": "no project file"}));
    };
    let judged = (|| {
        let files = crate::project_input::load_files(Path::new(project))?;
        let text = std::fs::read_to_string(suite).map_err(|e| format!("{suite}: {e}"))?;
        let job = TestJob {
            project: &files,
            suite: &text,
            seeds,
            stability: Stability { theta_pass: 0.9, theta_fail: 0.1 },
            traces: &Default::default(),
            max_frames: None,
        };
        gobo_host::judge::judge(&job).map_err(|e| e.to_string())
    })();
    match judged {
        Ok(j) => {
            let report = j.report.to_json();
            with(json!({
                "status": "judged",
                "passed": report["passed_tests"],
                "total": report["total_tests"],
                "success": report["success"],
                "details": report["details"],
            }))
        }
        Err(e) => with(json!({"status": "broken", "error": e})),
    }
}

fn scratchworld(args: &ScratchworldArgs) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("bench", why);
    let suites = args.suites.clone().unwrap_or_else(default_suites);
    let manifest_path = suites.join("manifest.json");
    let manifest = match std::fs::read_to_string(&manifest_path) {
        Ok(text) => match parse_manifest(&text) {
            Ok(m) => m,
            Err(e) => return bad(format!("{}: {e}", manifest_path.display())),
        },
        Err(e) => return bad(format!("{}: {e}", manifest_path.display())),
    };
    if !args.projects.is_dir() {
        return bad(format!("{}: not a folder", args.projects.display()));
    }
    let seeds = match args.seeds.as_deref().map(parse_seeds).transpose() {
        Ok(s) => s,
        Err(e) => return bad(e.to_string()),
    };
    let flavour = match args.flavour {
        FlavourArg::Compat => Flavour::Compat,
        FlavourArg::Strict => Flavour::Strict,
    };
    let tmp = std::env::temp_dir();
    let pid = std::process::id();
    let inputs = tmp.join(format!("gobo-bench-{pid}.tasks.jsonl"));
    let (out, temporary) = match &args.out {
        Some(out) => (out.clone(), false),
        None => (tmp.join(format!("gobo-bench-{pid}.rows.jsonl")), true),
    };
    let text: String = schedule(&manifest, &suites, &args.projects, flavour)
        .iter()
        .map(|r| r.to_string() + "\n")
        .collect();
    // The schedule is a function of the folders and the flavour: rewritten on resume, it
    // keeps the same ids, so the batch runner skips the rows already in `out`.
    if let Err(e) = std::fs::write(&inputs, text) {
        return bad(format!("{}: {e}", inputs.display()));
    }
    let mut results = Vec::new();
    let mut extra = 0usize;
    let mut unreadable = 0usize;
    let visit = |row: &Json| {
        if row.get("status").and_then(Json::as_str) == Some("extra") {
            extra += 1;
        } else if let Ok(r) = serde_json::from_value::<TaskResult>(row.clone()) {
            results.push(r);
        } else {
            unreadable += 1;
        }
    };
    let opts = BatchOptions { jobs: args.jobs, ..BatchOptions::default() };
    let ran = run_batch(&inputs, &out, &opts, |row| eval(row, seeds.as_deref()), visit);
    let _ = std::fs::remove_file(&inputs);
    if temporary {
        let _ = std::fs::remove_file(&out);
    }
    let report = match ran {
        Ok(report) => report,
        Err(e) => return bad(e.to_string()),
    };
    let table = metrics(&results);
    let doc = json!({
        "benchmark": "scratchworld",
        "flavour": flavour.name(),
        "rows": report.rows,
        "evaluated": report.ran,
        "resumed": report.skipped,
        "extra": extra,
        "unreadable_rows": unreadable,
        "categories": table.categories,
        "overall": table.overall,
    });
    if args.json || args.pretty {
        crate::json_out::print(&doc, args.pretty);
    } else {
        print!("{}", text_table(&table, flavour, extra));
        eprintln!(
            "gobo bench: {} rows ({} evaluated now, {} kept from an earlier run)",
            report.rows, report.ran, report.skipped
        );
    }
    let unsolved = (table.overall.tasks - table.overall.solved) as usize + extra + unreadable;
    crate::exit::verdict(unsolved)
}

fn text_table(t: &BenchReport, flavour: Flavour, extra: usize) -> String {
    let mut out = format!("ScratchWorld ({}): SR = tasks with every case passing, PSR = mean share of cases passing\n", flavour.name());
    out.push_str("category  tasks  solved     SR     PSR  judged  missing  broken  no suite\n");
    let line = |m: &Metrics| {
        format!(
            "{:<8} {:>6} {:>7} {:>6.1}% {:>6.1}% {:>7} {:>8} {:>7} {:>9}\n",
            m.category,
            m.tasks,
            m.solved,
            m.sr * 100.0,
            m.psr * 100.0,
            m.judged,
            m.missing,
            m.broken,
            m.no_suite
        )
    };
    for m in &t.categories {
        out.push_str(&line(m));
    }
    out.push_str(&line(&t.overall));
    if extra > 0 {
        out.push_str(&format!(
            "{extra} file(s) of the folder name no task (rows with status \"extra\")\n"
        ));
    }
    out
}
