//! Resumable parallel batch runs over JSON-lines files: one input object per line, one result row
//! per input, evaluated on all cores, appended to the output as each finishes, and finally
//! rewritten in input order so an interrupted-then-resumed run ends with the same bytes as an
//! uninterrupted one. [`map_rows`] applies the same row rules to rows held in memory (the
//! Python package's batch calls).
//!
//! Rows are matched to inputs by their `id` field (compared as JSON text, so `1` and `"1"`
//! differ); an input without an `id` is keyed by its line number (`"#L12"`). A line of the
//! output that does not parse (a write cut off by a kill) is dropped on resume and its input is
//! evaluated again.

use std::collections::HashMap;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

/// How a batch runs.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Worker threads; 0 means one per available core.
    pub jobs: usize,
    /// Draw a progress bar on stderr (only when stderr is a terminal).
    pub progress: bool,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions { jobs: 0, progress: true }
    }
}

/// What a finished batch produced.
#[derive(Debug)]
pub struct BatchReport {
    /// Every result row, in input order (rows from an earlier, interrupted run included).
    pub rows: Vec<Value>,
    /// Inputs evaluated by this run.
    pub ran: usize,
    /// Inputs skipped because the output already held their row.
    pub skipped: usize,
}

/// Why a batch could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum BatchError {
    /// Reading or writing a file failed.
    Io { path: PathBuf, source: io::Error },
    /// Two input lines carry the same `id`, so their rows could not be told apart on resume.
    DuplicateId { id: String, first_line: usize, line: usize },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            BatchError::DuplicateId { id, first_line, line } => {
                write!(f, "input line {line}: id {id} already used on line {first_line}")
            }
        }
    }
}

impl std::error::Error for BatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BatchError::Io { source, .. } => Some(source),
            BatchError::DuplicateId { .. } => None,
        }
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> BatchError + '_ {
    move |source| BatchError::Io { path: path.to_path_buf(), source }
}

/// One input line, parsed.
struct Item {
    key: String,
    id: Value,
    /// The parsed object, or why the line is not a JSON value.
    input: Result<Value, String>,
    line: usize,
}

/// Runs `eval` over every line of `input` and writes one row per line to `output`.
///
/// `eval` must be a pure function of its input line: the runner stores its result with the
/// input's `id` (set on the row, overriding any `id` the row carries). A line that is not JSON
/// gets a row `{"id": null, "line": N, "error": "..."}` without calling `eval`; an `eval` that
/// panics gets a row with an `error` field, and the batch goes on.
pub fn run_batch<F>(
    input: &Path,
    output: &Path,
    opts: &BatchOptions,
    eval: F,
) -> Result<BatchReport, BatchError>
where
    F: Fn(&Value) -> Value + Sync,
{
    let items = read_inputs(input)?;
    let mut done = read_done(output, &items)?;
    let skipped = done.len();
    // Rewrite what survives so that appending never follows a half-written line.
    write_rows(output, items.iter().filter_map(|item| done.get(&item.key)))?;

    let pending: Vec<usize> =
        (0..items.len()).filter(|&i| !done.contains_key(&items[i].key)).collect();
    let jobs = if opts.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.jobs
    };
    let mut progress = Progress::new(opts.progress, items.len(), skipped);
    let file = OpenOptions::new().append(true).create(true).open(output).map_err(io_err(output))?;
    let mut out = BufWriter::new(file);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Value)>();

    let write_result = std::thread::scope(|scope| {
        for _ in 0..jobs.min(pending.len()) {
            let tx = tx.clone();
            let (items, pending, next, eval) = (&items, &pending, &next, &eval);
            scope.spawn(move || loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(&index) = pending.get(n) else { break };
                let row = evaluate(&items[index], eval);
                if tx.send((index, row)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (index, row) in rx {
            let line = serde_json::to_string(&row).unwrap_or_default();
            writeln!(out, "{line}").and_then(|()| out.flush()).map_err(io_err(output))?;
            done.insert(items[index].key.clone(), row);
            progress.tick();
        }
        Ok::<(), BatchError>(())
    });
    progress.finish();
    write_result?;
    drop(out);

    let rows: Vec<Value> = items.iter().filter_map(|item| done.remove(&item.key)).collect();
    write_rows(output, rows.iter())?;
    Ok(BatchReport { rows, ran: pending.len(), skipped })
}

fn evaluate<F: Fn(&Value) -> Value>(item: &Item, eval: &F) -> Value {
    match &item.input {
        Err(message) => {
            let mut row = Map::new();
            row.insert("line".into(), Value::from(item.line));
            row.insert("error".into(), Value::from(message.as_str()));
            with_id(Value::Object(row), &item.id)
        }
        Ok(input) => evaluate_value(input, &item.id, eval),
    }
}

/// `eval(input)` with `id` set on the row; a panic becomes an `error` row.
fn evaluate_value<F: Fn(&Value) -> Value>(input: &Value, id: &Value, eval: &F) -> Value {
    let row = match panic::catch_unwind(AssertUnwindSafe(|| eval(input))) {
        Ok(row) => row,
        Err(_) => {
            let mut row = Map::new();
            row.insert("error".into(), Value::from("internal error: the evaluator panicked"));
            Value::Object(row)
        }
    };
    with_id(row, id)
}

/// Sets `id` on an object row; wraps any other value as `{"id", "result"}`. Every host's
/// batch rows are made so.
pub fn with_id(mut row: Value, id: &Value) -> Value {
    match &mut row {
        Value::Object(map) => {
            map.insert("id".into(), id.clone());
        }
        other => {
            let mut map = Map::new();
            map.insert("id".into(), id.clone());
            map.insert("result".into(), other.take());
            *other = Value::Object(map);
        }
    }
    row
}

/// Inputs a worker claims at a time in [`map_rows`].
const CLAIM: usize = 64;

/// Evaluates `inputs` in memory on `jobs` threads (0: one per available core) and returns one
/// row per input, in input order, by [`run_batch`]'s rules: the row's `id` is the input's
/// (`null` when it has none, or is not an object), and an `eval` that panics gives a row with
/// an `error` field while the batch goes on. Nothing is read or written.
pub fn map_rows<F>(inputs: &[Value], jobs: usize, eval: F) -> Vec<Value>
where
    F: Fn(&Value) -> Value + Sync,
{
    let jobs =
        if jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { jobs };
    let id_of = |input: &Value| input.get("id").cloned().unwrap_or(Value::Null);
    if jobs <= 1 || inputs.len() <= CLAIM {
        return inputs.iter().map(|input| evaluate_value(input, &id_of(input), &eval)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut parts: Vec<(usize, Vec<Value>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.min(inputs.len().div_ceil(CLAIM)))
            .map(|_| {
                let (next, eval, id_of) = (&next, &eval, &id_of);
                scope.spawn(move || {
                    let mut parts = Vec::new();
                    loop {
                        let start = next.fetch_add(CLAIM, Ordering::Relaxed);
                        if start >= inputs.len() {
                            break;
                        }
                        let end = (start + CLAIM).min(inputs.len());
                        let rows = inputs[start..end]
                            .iter()
                            .map(|input| evaluate_value(input, &id_of(input), eval))
                            .collect();
                        parts.push((start, rows));
                    }
                    parts
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| panic::resume_unwind(e)))
            .collect()
    });
    parts.sort_unstable_by_key(|p| p.0);
    parts.into_iter().flat_map(|p| p.1).collect()
}

fn read_inputs(path: &Path) -> Result<Vec<Item>, BatchError> {
    let reader = BufReader::new(File::open(path).map_err(io_err(path))?);
    let mut items = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    for (n, line) in reader.lines().enumerate() {
        let line_no = n + 1;
        let line = line.map_err(io_err(path))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Result<Value, String> = serde_json::from_str(&line)
            .map_err(|e| format!("input line {line_no} is not valid JSON: {e}"));
        let id = match &parsed {
            Ok(Value::Object(map)) => map.get("id").cloned().unwrap_or(Value::Null),
            _ => Value::Null,
        };
        let key = match &id {
            Value::Null => format!("#L{line_no}"),
            id => id.to_string(),
        };
        if let Some(&first) = first_line.get(&key) {
            return Err(BatchError::DuplicateId { id: key, first_line: first, line: line_no });
        }
        first_line.insert(key.clone(), line_no);
        items.push(Item { key, id, input: parsed, line: line_no });
    }
    Ok(items)
}

/// Rows already in `output` whose id names an input (by key); unparsable lines are dropped.
fn read_done(output: &Path, items: &[Item]) -> Result<HashMap<String, Value>, BatchError> {
    let mut done = HashMap::new();
    let file = match File::open(output) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(io_err(output)(e)),
    };
    // Inputs without an id are keyed by line; their rows carry `"id": null` and the runner
    // cannot tell them apart, so only rows with a real id are reused.
    let wanted: HashMap<&str, ()> =
        items.iter().filter(|i| !i.id.is_null()).map(|i| (i.key.as_str(), ())).collect();
    for line in BufReader::new(file).split(b'\n') {
        let line = line.map_err(io_err(output))?;
        let Ok(row) = serde_json::from_slice::<Value>(&line) else { continue };
        let Some(id) = row.get("id").filter(|id| !id.is_null()) else { continue };
        let key = id.to_string();
        if wanted.contains_key(key.as_str()) {
            done.insert(key, row);
        }
    }
    Ok(done)
}

/// Replaces `path` with `rows`, one per line, through a temporary file and a rename.
fn write_rows<'a>(path: &Path, rows: impl Iterator<Item = &'a Value>) -> Result<(), BatchError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut out = BufWriter::new(File::create(&tmp).map_err(io_err(&tmp))?);
    for row in rows {
        let line = serde_json::to_string(row).unwrap_or_default();
        writeln!(out, "{line}").map_err(io_err(&tmp))?;
    }
    out.into_inner().map_err(|e| io_err(&tmp)(e.into_error()))?.sync_all().map_err(io_err(&tmp))?;
    fs::rename(&tmp, path).map_err(io_err(path))
}

/// A one-line progress bar on stderr, redrawn at most ten times a second.
struct Progress {
    enabled: bool,
    total: usize,
    done: usize,
    start: Instant,
    last_draw: Option<Instant>,
    ran: usize,
}

impl Progress {
    fn new(wanted: bool, total: usize, done: usize) -> Self {
        let enabled = wanted && io::stderr().is_terminal();
        Progress { enabled, total, done, start: Instant::now(), last_draw: None, ran: 0 }
    }

    fn tick(&mut self) {
        self.done += 1;
        self.ran += 1;
        let due = self.last_draw.is_none_or(|t| t.elapsed() >= Duration::from_millis(100));
        if self.enabled && (due || self.done == self.total) {
            self.draw();
        }
    }

    fn draw(&mut self) {
        const WIDTH: usize = 30;
        let filled = (self.done * WIDTH).checked_div(self.total).unwrap_or(WIDTH);
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        eprint!(
            "\r[{}{}] {}/{} rows, {:.0}/s ",
            "#".repeat(filled),
            " ".repeat(WIDTH - filled),
            self.done,
            self.total,
            self.ran as f64 / secs
        );
        self.last_draw = Some(Instant::now());
    }

    fn finish(&mut self) {
        if self.enabled && self.last_draw.is_some() {
            self.draw();
            eprintln!();
        }
    }
}
