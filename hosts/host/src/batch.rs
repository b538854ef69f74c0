//! Resumable parallel batch runs over JSON-lines files: one input object per line, one result row
//! per input, evaluated on all cores, appended to the output as each finishes, and finally
//! rewritten in input order so an interrupted-then-resumed run ends with the same bytes as an
//! uninterrupted one. [`map_rows`] and [`map_lines`] apply the same row rules to rows and JSON
//! Lines held in memory (the Python package's batch calls).
//!
//! Rows stream: inputs are read one line at a time (an index of ids and byte offsets is all
//! that is kept), at most a few lines per worker are in flight, and rows go to the output as
//! they finish; the final reordering copies rows by offset. Memory stays bounded by the longest
//! line, whatever the batch's size. A line longer than [`BatchOptions::max_line_bytes`] is not
//! parsed: it gets an error row, with its `id` read by a streaming scan.
//!
//! Rows are matched to inputs by their `id` field (compared as JSON text, so `1` and `"1"`
//! differ); an input without an `id` is keyed by its line number (`"#L12"`). A line that is not
//! JSON keeps the `id` its text names before the fault, when it names one. A line of the output
//! that does not parse (a write cut off by a kill) is dropped on resume and its input is
//! evaluated again.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Seek, SeekFrom, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

/// How a batch runs.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Worker threads; 0 means one per available core.
    pub jobs: usize,
    /// Draw a progress bar on stderr (only when stderr is a terminal).
    pub progress: bool,
    /// The longest input line parsed (bytes); a longer one gets an error row. Default 64 MiB.
    pub max_line_bytes: usize,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions { jobs: 0, progress: true, max_line_bytes: 64 << 20 }
    }
}

/// What a finished batch produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchReport {
    /// Rows in the output, one per input line (rows from an earlier, interrupted run
    /// included).
    pub rows: usize,
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
    /// The input holds no line to evaluate.
    Empty { path: PathBuf },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            BatchError::DuplicateId { id, first_line, line } => {
                write!(f, "input line {line}: id {id} already used on line {first_line}")
            }
            BatchError::Empty { path } => write!(f, "{}: no input lines", path.display()),
        }
    }
}

impl std::error::Error for BatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BatchError::Io { source, .. } => Some(source),
            BatchError::DuplicateId { .. } | BatchError::Empty { .. } => None,
        }
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> BatchError + '_ {
    move |source| BatchError::Io { path: path.to_path_buf(), source }
}

/// One input line, indexed (its text stays in the file).
struct Item {
    key: String,
    id: Value,
    line: usize,
    /// Why the line cannot be evaluated, found while indexing (too long).
    fault: Option<String>,
}

/// A line for a worker: its index and its bytes, or the row it gets without evaluation.
type Work = (usize, Result<Vec<u8>, String>);

/// Runs `eval` over every line of `input`, writes one row per line to `output`, and calls
/// `visit` with every row in input order once the output is complete.
///
/// `eval` must be a pure function of its input line: the runner stores its result with the
/// input's `id` (set on the row, overriding any `id` the row carries). A line that is not JSON,
/// or longer than [`BatchOptions::max_line_bytes`], gets a row `{"id", "line": N, "error"}`
/// without calling `eval`; an `eval` that panics gets a row with an `error` field, and the
/// batch goes on.
pub fn run_batch<F, V>(
    input: &Path,
    output: &Path,
    opts: &BatchOptions,
    eval: F,
    mut visit: V,
) -> Result<BatchReport, BatchError>
where
    F: Fn(&Value) -> Value + Sync,
    V: FnMut(&Value),
{
    let max_line = opts.max_line_bytes.max(1);
    let items = index_inputs(input, max_line)?;
    if items.is_empty() {
        return Err(BatchError::Empty { path: input.to_path_buf() });
    }
    // Rows already in the output, by key: rewritten (compacted) so that appending never
    // follows a half-written line; `at` maps each key to its row's place in `output`.
    let mut at = compact_done(output, &items)?;
    let skipped = at.len();
    let pending: HashSet<usize> =
        (0..items.len()).filter(|&i| !at.contains_key(&items[i].key)).collect();
    let jobs = if opts.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.jobs
    };
    let mut progress = Progress::new(opts.progress, items.len(), skipped);
    let file = OpenOptions::new().append(true).create(true).open(output).map_err(io_err(output))?;
    let mut offset = file.metadata().map_err(io_err(output))?.len();
    let mut out = BufWriter::new(file);
    let (work_tx, work_rx) = mpsc::sync_channel::<Work>(jobs * 2);
    let work_rx = Mutex::new(work_rx);
    let (row_tx, row_rx) = mpsc::sync_channel::<(usize, Value)>(jobs * 2);

    let result = std::thread::scope(|scope| {
        let (items, pending) = (&items, &pending);
        let reader = scope.spawn(move || feed(input, max_line, items, pending, work_tx));
        for _ in 0..jobs.min(pending.len()) {
            let (row_tx, work_rx, eval) = (row_tx.clone(), &work_rx, &eval);
            scope.spawn(move || loop {
                let next = work_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((index, line))) = next else { break };
                let row = evaluate(&items[index], line, eval);
                if row_tx.send((index, row)).is_err() {
                    break;
                }
            });
        }
        drop(row_tx);
        let mut written = Ok(());
        for (index, row) in row_rx {
            if written.is_err() {
                continue;
            }
            let line = serde_json::to_string(&row).unwrap_or_default();
            written = writeln!(out, "{line}").and_then(|()| out.flush()).map_err(io_err(output));
            at.insert(items[index].key.clone(), (offset, line.len()));
            offset += line.len() as u64 + 1;
            progress.tick();
        }
        let read = reader.join().unwrap_or(Ok(()));
        written.and(read)
    });
    progress.finish();
    result?;
    drop(out);
    reorder(output, &items, &at, &mut visit)?;
    Ok(BatchReport { rows: items.len(), ran: pending.len(), skipped })
}

/// Reads the input again and hands every pending line to the workers.
fn feed(
    input: &Path,
    max_line: usize,
    items: &[Item],
    pending: &HashSet<usize>,
    tx: mpsc::SyncSender<Work>,
) -> Result<(), BatchError> {
    let mut reader = BufReader::new(File::open(input).map_err(io_err(input))?);
    let mut buf = Vec::new();
    let mut index = 0;
    loop {
        let Some(long) = next_line(&mut reader, max_line, &mut buf).map_err(io_err(input))? else {
            return Ok(());
        };
        if blank(&buf) && !long {
            continue;
        }
        if long {
            drain_line(&mut reader).map_err(io_err(input))?;
        }
        if pending.contains(&index) {
            let work = match &items[index].fault {
                Some(fault) => Err(fault.clone()),
                None => Ok(std::mem::take(&mut buf)),
            };
            if tx.send((index, work)).is_err() {
                return Ok(());
            }
        }
        index += 1;
    }
}

fn blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Reads the next line (without its newline) into `buf`, keeping at most `max` bytes. `None`
/// at the end of the input; `Some(true)` when the line is longer than `max` (its rest is
/// still unread).
fn next_line(r: &mut impl BufRead, max: usize, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let mut any = false;
    loop {
        let avail = r.fill_buf()?;
        if avail.is_empty() {
            return Ok(any.then_some(false));
        }
        any = true;
        let (take, newline) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (avail.len(), false),
        };
        let room = max - buf.len();
        if take > room {
            buf.extend_from_slice(&avail[..room]);
            r.consume(room);
            return Ok(Some(true));
        }
        buf.extend_from_slice(&avail[..take]);
        r.consume(take + usize::from(newline));
        if newline {
            return Ok(Some(false));
        }
    }
}

/// The rest of the current line, as a reader that ends at (and consumes) its newline.
struct LineRest<'a, R: BufRead>(&'a mut R, bool);

impl<R: BufRead> Read for LineRest<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.1 || out.is_empty() {
            return Ok(0);
        }
        let avail = self.0.fill_buf()?;
        if avail.is_empty() {
            self.1 = true;
            return Ok(0);
        }
        let end = avail.iter().position(|&b| b == b'\n');
        let n = end.unwrap_or(avail.len()).min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        let at_newline = end == Some(n);
        self.0.consume(n + usize::from(at_newline));
        self.1 = at_newline;
        Ok(n)
    }
}

fn drain_line(r: &mut impl BufRead) -> io::Result<()> {
    io::copy(&mut LineRest(r, false), &mut io::sink()).map(drop)
}

/// The `id` a JSON object's text names, read as a stream without building the object: the
/// first `"id"` member at the top level, if the text gets that far before a fault.
fn scan_id(text: impl Read) -> Option<Value> {
    let mut id = None;
    let mut de = serde_json::Deserializer::from_reader(text);
    let _ = IdSeed(&mut id).deserialize(&mut de);
    id
}

struct IdSeed<'a>(&'a mut Option<Value>);

impl<'de> DeserializeSeed<'de> for IdSeed<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for IdSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "id" {
                *self.0 = Some(map.next_value()?);
                return Ok(());
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

fn evaluate<F: Fn(&Value) -> Value>(item: &Item, line: Result<Vec<u8>, String>, eval: &F) -> Value {
    match line.and_then(|bytes| parse_line(&bytes, item.line)) {
        Err(message) => {
            let mut row = Map::new();
            row.insert("line".into(), Value::from(item.line));
            row.insert("error".into(), Value::from(message));
            with_id(Value::Object(row), item.id.clone())
        }
        Ok(input) => evaluate_value(&input, item.id.clone(), eval),
    }
}

/// `eval(input)` with `id` set on the row; a panic becomes an `error` row.
fn evaluate_value<F: Fn(&Value) -> Value>(input: &Value, id: Value, eval: &F) -> Value {
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

/// Inputs a worker claims at a time in [`map_rows`] and [`map_lines`].
const CLAIM: usize = 64;

/// Evaluates `inputs` in memory on `jobs` threads (0: one per available core) and returns one
/// row per input, in input order, by [`run_batch`]'s rules: the row's `id` is the input's
/// (`null` when it has none, or is not an object), and an `eval` that panics gives a row with
/// an `error` field while the batch goes on. Nothing is read or written.
pub fn map_rows<F>(inputs: &[Value], jobs: usize, eval: F) -> Vec<Value>
where
    F: Fn(&Value) -> Value + Sync,
{
    let id_of = |input: &Value| input.get("id").cloned().unwrap_or(Value::Null);
    par_map(inputs, jobs, |input| evaluate_value(input, id_of(input), &eval))
}

/// Evaluates JSON Lines held in memory on `jobs` threads (0: one per available core) and
/// returns the rows as JSON Lines, in input order: the bytes [`run_batch`] leaves in its output
/// for the same input (blank lines skipped; a line that is not JSON, or longer than
/// `max_line_bytes`, gets its `{"id", "line", "error"}` row). Parsing, evaluation and
/// serialization all happen on the workers, so a caller holding a lock (Python's GIL) can
/// release it for the whole call. Ids are not checked for duplicates: nothing resumes.
pub fn map_lines<F>(input: &[u8], jobs: usize, max_line_bytes: usize, eval: F) -> Vec<u8>
where
    F: Fn(&Value) -> Value + Sync,
{
    let lines: Vec<(usize, &[u8])> = input
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, line)| !blank(line))
        .map(|(i, line)| (i + 1, line))
        .collect();
    let max_line = max_line_bytes.max(1);
    let rows = par_map(&lines, jobs, |&(line_no, bytes)| {
        let id = scan_id(bytes).unwrap_or(Value::Null);
        let line = if bytes.len() > max_line {
            Err(format!(
                "input line {line_no} is longer than {max_line} bytes, the most a batch line may hold"
            ))
        } else {
            Ok(bytes.to_vec())
        };
        let item = Item { key: String::new(), id, line: line_no, fault: None };
        serde_json::to_string(&evaluate(&item, line, &eval)).unwrap_or_default()
    });
    let mut out = Vec::with_capacity(rows.iter().map(|r| r.len() + 1).sum());
    for row in rows {
        out.extend_from_slice(row.as_bytes());
        out.push(b'\n');
    }
    out
}

/// `f` over `items` on `jobs` threads (0: one per available core), results in item order.
/// Workers claim [`CLAIM`] items at a time; one job (or a short input) runs on the caller's
/// thread.
fn par_map<T, R, F>(items: &[T], jobs: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let jobs =
        if jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { jobs };
    if jobs <= 1 || items.len() <= CLAIM {
        return items.iter().map(&f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut parts: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.min(items.len().div_ceil(CLAIM)))
            .map(|_| {
                let (next, f) = (&next, &f);
                scope.spawn(move || {
                    let mut parts = Vec::new();
                    loop {
                        let start = next.fetch_add(CLAIM, Ordering::Relaxed);
                        if start >= items.len() {
                            break;
                        }
                        let end = (start + CLAIM).min(items.len());
                        parts.push((start, items[start..end].iter().map(f).collect()));
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

/// A result row carrying its input's `id` (set on an object row, overriding any `id` it has;
/// any other value is wrapped as `{"id", "result"}`). Every host's batch rows are made so.
pub fn with_id(row: Value, id: Value) -> Value {
    match row {
        Value::Object(mut map) => {
            map.insert("id".into(), id);
            Value::Object(map)
        }
        other => {
            let mut map = Map::new();
            map.insert("id".into(), id);
            map.insert("result".into(), other);
            Value::Object(map)
        }
    }
}

/// The deepest nesting a batch line may have (serde_json's own limit, 128, would refuse
/// programs the formats accept, such as XLogo code 64 repeats deep).
pub const MAX_LINE_NESTING: usize = 1024;

/// Parses one input line as JSON, within [`MAX_LINE_NESTING`].
fn parse_line(bytes: &[u8], line: usize) -> Result<Value, String> {
    if gobo::nesting::json_nesting(bytes, MAX_LINE_NESTING) > MAX_LINE_NESTING {
        return Err(format!("input line {line} nests deeper than {MAX_LINE_NESTING} levels"));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de)
        .and_then(|v: Value| de.end().map(|()| v))
        .map_err(|e| format!("input line {line} is not valid JSON: {e}"))
}

/// One pass over the input: the key, id and line number of every non-blank line.
fn index_inputs(path: &Path, max_line: usize) -> Result<Vec<Item>, BatchError> {
    let mut reader = BufReader::new(File::open(path).map_err(io_err(path))?);
    let mut items = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    let mut buf = Vec::new();
    let mut line_no = 0;
    while let Some(long) = next_line(&mut reader, max_line, &mut buf).map_err(io_err(path))? {
        line_no += 1;
        if !long && blank(&buf) {
            continue;
        }
        let (id, fault) = if long {
            let id = scan_id(io::Cursor::new(&buf).chain(LineRest(&mut reader, false)));
            drain_line(&mut reader).map_err(io_err(path))?;
            let fault = format!(
                "input line {line_no} is longer than {max_line} bytes, the most a batch line may hold"
            );
            (id, Some(fault))
        } else {
            (scan_id(buf.as_slice()), None)
        };
        let id = id.unwrap_or(Value::Null);
        let key = match &id {
            Value::Null => format!("#L{line_no}"),
            id => id.to_string(),
        };
        if let Some(&first) = first_line.get(&key) {
            return Err(BatchError::DuplicateId { id: key, first_line: first, line: line_no });
        }
        first_line.insert(key.clone(), line_no);
        items.push(Item { key, id, line: line_no, fault });
    }
    Ok(items)
}

/// Keeps the rows already in `output` whose id names an input (the last of each), rewritten
/// without the rest; returns where each kept row now is.
fn compact_done(
    output: &Path,
    items: &[Item],
) -> Result<HashMap<String, (u64, usize)>, BatchError> {
    let mut at = HashMap::new();
    let file = match File::open(output) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
        Err(e) => return Err(io_err(output)(e)),
    };
    // Inputs without an id are keyed by line; their rows carry `"id": null` and the runner
    // cannot tell them apart, so only rows with a real id are reused.
    let wanted: HashSet<&str> =
        items.iter().filter(|i| !i.id.is_null()).map(|i| i.key.as_str()).collect();
    let mut offset = 0u64;
    for line in BufReader::new(file).split(b'\n') {
        let line = line.map_err(io_err(output))?;
        let start = offset;
        offset += line.len() as u64 + 1;
        let Some(id) = serde_json::from_slice::<Value>(&line)
            .ok()
            .and_then(|row| row.get("id").filter(|id| !id.is_null()).map(Value::to_string))
        else {
            continue;
        };
        if wanted.contains(id.as_str()) {
            at.insert(id, (start, line.len()));
        }
    }
    let keys = items.iter().map(|i| i.key.as_str()).filter(|k| at.contains_key(*k));
    let new_at = copy_rows(output, keys, &at, &mut |_| {})?;
    Ok(new_at)
}

/// Rewrites `output` with the rows of `keys` (found in it at `at`), in that order, through a
/// temporary file and a rename; calls `visit` with each; returns where each row now is.
fn copy_rows<'a>(
    output: &Path,
    keys: impl Iterator<Item = &'a str>,
    at: &HashMap<String, (u64, usize)>,
    visit: &mut dyn FnMut(&Value),
) -> Result<HashMap<String, (u64, usize)>, BatchError> {
    let mut tmp = output.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut src = File::open(output).map_err(io_err(output))?;
    let mut out = BufWriter::new(File::create(&tmp).map_err(io_err(&tmp))?);
    let mut new_at = HashMap::new();
    let mut offset = 0u64;
    let mut row = Vec::new();
    for key in keys {
        let Some(&(start, len)) = at.get(key) else { continue };
        row.resize(len, 0);
        src.seek(SeekFrom::Start(start))
            .and_then(|_| src.read_exact(&mut row))
            .map_err(io_err(output))?;
        if let Ok(v) = serde_json::from_slice::<Value>(&row) {
            visit(&v);
        }
        out.write_all(&row).and_then(|()| out.write_all(b"\n")).map_err(io_err(&tmp))?;
        new_at.insert(key.to_string(), (offset, len));
        offset += len as u64 + 1;
    }
    out.into_inner().map_err(|e| io_err(&tmp)(e.into_error()))?.sync_all().map_err(io_err(&tmp))?;
    fs::rename(&tmp, output).map_err(io_err(output))?;
    Ok(new_at)
}

/// The final rewrite: every row in input order.
fn reorder(
    output: &Path,
    items: &[Item],
    at: &HashMap<String, (u64, usize)>,
    visit: &mut dyn FnMut(&Value),
) -> Result<(), BatchError> {
    copy_rows(output, items.iter().map(|i| i.key.as_str()), at, visit).map(drop)
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
