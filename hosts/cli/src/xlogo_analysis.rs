//! `gobo xlogo classify | report | perturb | resample`: the benchmark analyses of XLogoMiniProg
//! (task dimensions, rates per dimension, the three perturbations, curriculum resampling). Reads
//! task and row files, prints text or JSON; the semantics live in `gobo::xlogo::{dims, report,
//! perturb, resample}`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::xlogo::dims::{classify, id_key, task_row, Dimension, Dimensions};
use gobo::xlogo::perturb::{perturb, Subset};
use gobo::xlogo::report::ReportBuilder;
use gobo::xlogo::resample::{resample, row_failed, ResampleConfig};
use gobo::xlogo::{parse_code, CodeInput, Program};
use serde_json::{json, Value};

use crate::exit;

/// Output style shared by the four commands.
#[derive(Debug, Args)]
pub struct JsonFlags {
    /// Print one compact JSON document (JSON Lines where there are several).
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

impl JsonFlags {
    fn json(&self) -> bool {
        self.json || self.pretty
    }
}

#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// Task JSON file (a task object, or a data row with "task" and "reference_code").
    #[arg(required_unless_present = "batch")]
    task: Option<PathBuf>,
    /// Reference code (`.py` Python style, else a JSON AST); overrides the row's reference_code.
    #[arg(long, conflicts_with = "batch")]
    code: Option<PathBuf>,
    /// JSON-lines task file: print the distribution of every dimension instead.
    #[arg(long, conflicts_with = "task")]
    batch: Option<PathBuf>,
    #[command(flatten)]
    out: JsonFlags,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Verdict rows, as `gobo xlogo eval --batch` writes them.
    rows: PathBuf,
    /// Tasks the rows' ids refer to (data rows or the batch input), for the per-dimension tables.
    #[arg(long)]
    tasks: Option<PathBuf>,
    #[command(flatten)]
    out: JsonFlags,
}

#[derive(Debug, Args)]
pub struct PerturbArgs {
    /// Task JSON file (a task object, or a data row with "task" and "reference_code").
    task: PathBuf,
    /// Reference code to check on each perturbed task; overrides the row's reference_code.
    #[arg(long)]
    code: Option<PathBuf>,
    /// Subsets to produce (T, T_A, ..., T_ABC, or letters such as AB); default all eight.
    #[arg(long = "subset")]
    subsets: Vec<String>,
    /// Write each perturbed task as DIR/<subset>.json.
    #[arg(long)]
    out_dir: Option<PathBuf>,
    #[command(flatten)]
    out: JsonFlags,
}

#[derive(Debug, Args)]
pub struct ResampleArgs {
    /// Verdict rows of the model's predictions on the training set (`xlogo eval --batch` output).
    rows: PathBuf,
    /// β: extra weight of a failed task.
    #[arg(long, default_value_t = 1.0)]
    beta: f64,
    /// Draws (default: as many as rows).
    #[arg(long)]
    size: Option<usize>,
    /// Seed of the sampler.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// Training rows (JSON lines with "id" or "task_id"): write the drawn ones to --out.
    #[arg(long, requires = "out_rows")]
    train: Option<PathBuf>,
    /// Where to write the drawn training rows, in draw order.
    #[arg(long = "out", id = "out_rows", requires = "train")]
    out_rows: Option<PathBuf>,
    #[command(flatten)]
    out: JsonFlags,
}

/// Every non-blank line of a JSON-lines file, parsed, with its 1-based line number.
fn read_jsonl(path: &Path) -> Result<Vec<(usize, Value)>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str(&line)
            .map_err(|e| format!("{}: line {}: {e}", path.display(), i + 1))?;
        rows.push((i + 1, value));
    }
    Ok(rows)
}

fn read_value(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_code(path: &Path) -> Result<Program, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let input = if path.extension().is_some_and(|e| e == "py") {
        CodeInput::Python(&bytes)
    } else {
        CodeInput::Json(&bytes)
    };
    parse_code(input).map_err(|e| format!("{}: {e}", path.display()))
}

fn print_json(value: &Value, flags: &JsonFlags) {
    crate::json_out::print(value, flags.pretty);
}

fn done(result: Result<(), String>, command: &str) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::bad_input(command, e),
    }
}

pub fn classify_cmd(a: ClassifyArgs) -> ExitCode {
    done(if a.batch.is_some() { classify_batch(&a) } else { classify_one(&a) }, "xlogo classify")
}

fn classify_one(a: &ClassifyArgs) -> Result<(), String> {
    let Some(path) = &a.task else { return Err("classify needs TASK or --batch FILE".into()) };
    let row = task_row(&read_value(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let reference = match &a.code {
        Some(code) => Some(read_code(code)?),
        None => row.reference,
    };
    let dims = classify(&row.task, reference.as_ref());
    if a.out.json() {
        print_json(&dims.to_json(), &a.out);
    } else {
        for dim in Dimension::ALL {
            let aspect = dims.aspect(dim).unwrap_or("unknown (no reference code)");
            println!("{}: {aspect}", dim.name());
        }
    }
    Ok(())
}

fn classify_batch(a: &ClassifyArgs) -> Result<(), String> {
    let Some(path) = &a.batch else { return Ok(()) };
    let mut counts: Vec<Vec<usize>> =
        Dimension::ALL.iter().map(|d| vec![0; d.aspects().len() + 1]).collect();
    let mut tasks = 0;
    for (line, row) in read_jsonl(path)? {
        let r = task_row(&row).map_err(|e| format!("{}: line {line}: {e}", path.display()))?;
        let dims = classify(&r.task, r.reference.as_ref());
        tasks += 1;
        for (dim, c) in Dimension::ALL.into_iter().zip(&mut counts) {
            let aspects = dim.aspects();
            let i = dims.aspect(dim).and_then(|x| aspects.iter().position(|a| *a == x));
            if let Some(n) = c.get_mut(i.unwrap_or(aspects.len())) {
                *n += 1;
            }
        }
    }
    let mut by = serde_json::Map::new();
    for (dim, c) in Dimension::ALL.into_iter().zip(&counts) {
        let names = dim.aspects().iter().copied().chain(["unknown"]);
        let map: serde_json::Map<String, Value> =
            names.zip(c).filter(|(_, n)| **n > 0).map(|(a, n)| (a.to_string(), json!(n))).collect();
        by.insert(dim.name().to_string(), Value::Object(map));
    }
    let doc = json!({"tasks": tasks, "by": by});
    if a.out.json() {
        print_json(&doc, &a.out);
    } else {
        println!("{tasks} tasks");
        for (dim, c) in Dimension::ALL.into_iter().zip(&counts) {
            let names = dim.aspects().iter().copied().chain(["unknown"]);
            let parts: Vec<String> =
                names.zip(c).filter(|(_, n)| **n > 0).map(|(a, n)| format!("{a} {n}")).collect();
            println!("{}: {}", dim.name(), parts.join(", "));
        }
    }
    Ok(())
}

pub fn report_cmd(a: ReportArgs) -> ExitCode {
    done(report(&a), "xlogo report")
}

fn report(a: &ReportArgs) -> Result<(), String> {
    let mut tasks: HashMap<String, Dimensions> = HashMap::new();
    if let Some(path) = &a.tasks {
        let mut unreadable = 0;
        let mut first = None;
        for (line, row) in read_jsonl(path)? {
            match task_row(&row) {
                Ok(r) => {
                    if let Some(key) = r.key.clone() {
                        tasks.insert(key, classify(&r.task, r.reference.as_ref()));
                    }
                }
                Err(e) => {
                    unreadable += 1;
                    first.get_or_insert_with(|| format!("line {line}: {e}"));
                }
            }
        }
        if let Some(first) = first {
            eprintln!(
                "gobo xlogo report: {unreadable} task rows of {} could not be read (first: {first}); their rows count as unknown",
                path.display()
            );
        }
    }
    let file = std::fs::File::open(&a.rows).map_err(|e| format!("{}: {e}", a.rows.display()))?;
    let mut builder = ReportBuilder::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", a.rows.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let row: Value = serde_json::from_str(&line)
            .map_err(|e| format!("{}: line {}: {e}", a.rows.display(), i + 1))?;
        let dims = row.get("id").and_then(|id| tasks.get(&id_key(id)));
        builder.add(&row, dims);
    }
    let report = builder.finish();
    if report.overall.rows == 0 {
        return Err(format!("{}: no rows", a.rows.display()));
    }
    if a.out.json() {
        print_json(&report.to_json(), &a.out);
    } else {
        print!("{}", report.to_markdown());
    }
    Ok(())
}

pub fn perturb_cmd(a: PerturbArgs) -> ExitCode {
    done(perturb_all(&a), "xlogo perturb")
}

fn perturb_all(a: &PerturbArgs) -> Result<(), String> {
    let doc = read_value(&a.task)?;
    let subsets = if a.subsets.is_empty() {
        Subset::ALL.to_vec()
    } else {
        a.subsets
            .iter()
            .map(|s| {
                Subset::parse(s).ok_or_else(|| format!("unknown subset {s:?} (T, T_A .. T_ABC)"))
            })
            .collect::<Result<_, _>>()?
    };
    let reference = match &a.code {
        Some(code) => Some(read_code(code)?),
        None => task_row(&doc).map_err(|e| format!("{}: {e}", a.task.display()))?.reference,
    };
    if let Some(dir) = &a.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for subset in subsets {
        let p = perturb(&doc, reference.as_ref(), subset)
            .map_err(|e| format!("{}: {e}", a.task.display()))?;
        if let Some(dir) = &a.out_dir {
            let path = dir.join(format!("{}.json", p.subset));
            let text = serde_json::to_string_pretty(&p.task).unwrap_or_default();
            std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        }
        if a.out.json() {
            print_json(&serde_json::to_value(&p).unwrap_or(Value::Null), &a.out);
            continue;
        }
        let changed: String = [(p.changed.a, 'A'), (p.changed.b, 'B'), (p.changed.c, 'C')]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, c)| *c)
            .collect();
        let mut line = format!(
            "{}: changed {}",
            p.subset,
            if changed.is_empty() { "nothing".to_string() } else { changed }
        );
        if let Some(m) = p.moved {
            line += &format!(
                ", turtle ({}, {}) -> ({}, {}) of a {}-step path",
                m.from[0], m.from[1], m.to[0], m.to[1], m.path_len
            );
        }
        if let Some(r) = p.reference {
            line += &format!(", reference {}", r.error_type);
        }
        println!("{line}");
    }
    Ok(())
}

pub fn resample_cmd(a: ResampleArgs) -> ExitCode {
    done(resample_rows(&a), "xlogo resample")
}

fn resample_rows(a: &ResampleArgs) -> Result<(), String> {
    let mut ids = Vec::new();
    let mut failed = Vec::new();
    for (_, row) in read_jsonl(&a.rows)? {
        ids.push(row.get("id").cloned().unwrap_or(Value::Null));
        failed.push(row_failed(&row));
    }
    let cfg = ResampleConfig { beta: a.beta, size: a.size, seed: a.seed };
    let r = resample(&failed, &cfg).map_err(|e| format!("{}: {e}", a.rows.display()))?;
    if let (Some(train), Some(out)) = (&a.train, &a.out_rows) {
        write_drawn(train, out, &ids, &r.draws)?;
    }
    if a.out.json() {
        print_json(&r.to_json(&ids), &a.out);
    } else {
        println!(
            "{} rows, {} failed; beta {}: weight {:.6e} per passed row, {:.6e} per failed row",
            r.rows, r.failed, r.beta, r.weight_pass, r.weight_fail
        );
        println!(
            "{} draws (seed {}): {} of failed rows ({:.2} %, expected {:.2} %)",
            r.size,
            r.seed,
            r.drawn_failed,
            100.0 * r.drawn_failed as f64 / r.size.max(1) as f64,
            100.0 * r.expected_fail_share
        );
    }
    Ok(())
}

/// Writes the training line of every drawn id, in draw order.
fn write_drawn(train: &Path, out: &Path, ids: &[Value], draws: &[usize]) -> Result<(), String> {
    let mut by_id: HashMap<String, String> = HashMap::new();
    let file = std::fs::File::open(train).map_err(|e| format!("{}: {e}", train.display()))?;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", train.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let row: Value = serde_json::from_str(&line)
            .map_err(|e| format!("{}: line {}: {e}", train.display(), i + 1))?;
        if let Some(id) = row.get("id").or_else(|| row.get("task_id")) {
            by_id.insert(id_key(id), line);
        }
    }
    let file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = BufWriter::new(file);
    for &i in draws {
        let key = ids.get(i).map(id_key).unwrap_or_default();
        let line = by_id
            .get(&key)
            .ok_or_else(|| format!("{}: no training row with id {key:?}", train.display()))?;
        writeln!(w, "{line}").map_err(|e| format!("{}: {e}", out.display()))?;
    }
    w.flush().map_err(|e| format!("{}: {e}", out.display()))
}
