//! What `gobo serve` is started with: the address, the data folder, and every limit in one
//! [`Limits`] value (body size, concurrency, queue depth, workers, work budgets, sessions).
//! Defaults and the matching command-line flags are listed in `docs/server.md`.

use std::net::SocketAddr;
use std::path::PathBuf;

/// Bounds on what the server accepts and holds.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest request body in bytes (413 beyond).
    pub max_body_bytes: usize,
    /// Requests handled at once; more are shed with 503 and `Retry-After`.
    pub max_in_flight: usize,
    /// Engine tasks waiting for a worker; more are shed with 503 and `Retry-After`.
    pub queue_depth: usize,
    /// Engine worker threads (0: one per core).
    pub workers: usize,
    /// Workers that may run batch rows at once (0: all but one, at least one), so interactive
    /// requests always find a worker.
    pub batch_workers: usize,
    /// Most virtual frames one request may run (suites over all seeds, renders, runs).
    pub max_frames: u64,
    /// Most pictures one render request may ask for.
    pub max_pictures: usize,
    /// Most stage pictures (samples) one record request may make (480×360 each).
    pub max_record_pictures: usize,
    /// Longest trace one run request may return, in bytes.
    pub max_trace_bytes: usize,
    /// Most seeds one test request may rerun under.
    pub max_seeds: usize,
    /// Most trials (K) one Bug Forge request may make.
    pub max_trials: u32,
    /// Most rows one batch job may hold.
    pub max_batch_rows: usize,
    /// Most live sessions (429 beyond).
    pub max_sessions: usize,
    /// Seconds a session may stay unused before it expires.
    pub session_idle_secs: u64,
    /// Replay rows (actions, index-setting observations) a session may gather before its
    /// snapshot is rewritten (1: a snapshot on every change).
    pub session_snapshot_every: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 32 << 20,
            max_in_flight: 1024,
            queue_depth: 2048,
            workers: 0,
            batch_workers: 0,
            max_frames: 300_000,
            max_pictures: 64,
            max_record_pictures: 300,
            max_trace_bytes: 64 << 20,
            max_seeds: 100,
            max_trials: 20,
            max_batch_rows: 100_000,
            max_sessions: 10_000,
            session_idle_secs: 1800,
            session_snapshot_every: 64,
        }
    }
}

impl Limits {
    /// Worker threads to start.
    pub fn worker_count(&self) -> usize {
        if self.workers > 0 {
            self.workers
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }

    /// Workers that may run batch rows at once.
    pub fn batch_worker_count(&self) -> usize {
        let workers = self.worker_count();
        if self.batch_workers > 0 {
            self.batch_workers.min(workers)
        } else {
            workers.saturating_sub(1).max(1)
        }
    }
}

/// How the server is started.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Address to listen on.
    pub addr: SocketAddr,
    /// Folder of the database (created if missing).
    pub data_dir: PathBuf,
    /// Limits.
    pub limits: Limits,
    /// Sync the database to disk on every commit (survives power loss, not only a killed
    /// process), at some cost in write throughput.
    pub fsync: bool,
    /// The DrawingBench dataset (`dataset_consolidated.json`) for rows that name a task by
    /// index (default: `$GOBO_DRAWINGBENCH_DATASET`).
    pub drawingbench_dataset: Option<PathBuf>,
    /// The ScratchWorld suites' folder holding `manifest.json`, for sessions made for a task
    /// (default: `$GOBO_BENCHMARKS/scratchworld`, else the repository's).
    pub scratchworld: Option<PathBuf>,
}

impl ServerConfig {
    /// Loopback port 8787, data in `gobo-data`, default limits.
    pub fn new(data_dir: PathBuf) -> ServerConfig {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8787)),
            data_dir,
            limits: Limits::default(),
            fsync: false,
            drawingbench_dataset: None,
            scratchworld: None,
        }
    }
}
