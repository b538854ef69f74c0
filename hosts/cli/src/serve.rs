//! `gobo serve`: the HTTP service (`docs/server.md`). Only turns flags into a
//! `gobo_server::ServerConfig`; the server is the `gobo-server` crate.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo_server::{Limits, ServerConfig};

fn defaults() -> Limits {
    Limits::default()
}

/// Arguments of `gobo serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8787")]
    addr: SocketAddr,
    /// Folder of the database (created if missing).
    #[arg(long, default_value = "gobo-data")]
    data: PathBuf,
    /// Engine worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    workers: usize,
    /// Workers that may run batch rows at once (0: all but one).
    #[arg(long, default_value_t = 0)]
    batch_workers: usize,
    /// Engine tasks that may wait for a worker before requests are shed (503).
    #[arg(long, default_value_t = defaults().queue_depth)]
    queue: usize,
    /// Requests handled at once before requests are shed (503).
    #[arg(long, default_value_t = defaults().max_in_flight)]
    max_in_flight: usize,
    /// Largest request body in bytes (413 beyond).
    #[arg(long, default_value_t = defaults().max_body_bytes)]
    max_body: usize,
    /// Most virtual frames one request may run.
    #[arg(long, default_value_t = defaults().max_frames)]
    max_frames: u64,
    /// Most seeds one test request may rerun under.
    #[arg(long, default_value_t = defaults().max_seeds)]
    max_seeds: usize,
    /// Most trials (K) one Bug Forge request may make.
    #[arg(long, default_value_t = defaults().max_trials)]
    max_trials: u32,
    /// Most rows one batch job may hold.
    #[arg(long, default_value_t = defaults().max_batch_rows)]
    max_batch_rows: usize,
    /// Most live sessions (429 beyond).
    #[arg(long, default_value_t = defaults().max_sessions)]
    max_sessions: usize,
    /// Seconds a session may stay unused before it expires.
    #[arg(long, default_value_t = defaults().session_idle_secs)]
    session_idle: u64,
    /// Actions a session may gather in its replay log before its snapshot is rewritten (1: a
    /// snapshot on every change).
    #[arg(long, default_value_t = defaults().session_snapshot_every)]
    snapshot_every: u32,
    /// Sync the database to disk on every commit (also survives a power cut).
    #[arg(long)]
    fsync: bool,
    /// DrawingBench dataset for rows naming a task by index (default: $GOBO_DRAWINGBENCH_DATASET).
    #[arg(long)]
    drawingbench_dataset: Option<PathBuf>,
    /// ScratchWorld suites' folder (manifest.json) for sessions made for a task (default:
    /// $GOBO_BENCHMARKS/scratchworld, else the repository's benchmarks/scratchworld).
    #[arg(long)]
    scratchworld: Option<PathBuf>,
}

/// Run the subcommand.
pub fn run(a: ServeArgs) -> ExitCode {
    let mut config = ServerConfig::new(a.data);
    config.addr = a.addr;
    config.fsync = a.fsync;
    config.drawingbench_dataset = a.drawingbench_dataset;
    config.scratchworld = a.scratchworld;
    config.limits = Limits {
        workers: a.workers,
        batch_workers: a.batch_workers,
        queue_depth: a.queue,
        max_in_flight: a.max_in_flight,
        max_body_bytes: a.max_body,
        max_frames: a.max_frames,
        max_seeds: a.max_seeds,
        max_trials: a.max_trials,
        max_batch_rows: a.max_batch_rows,
        max_sessions: a.max_sessions,
        session_idle_secs: a.session_idle,
        session_snapshot_every: a.snapshot_every,
        ..defaults()
    };
    match gobo_server::run_until_signal(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gobo serve: {e}");
            ExitCode::from(2)
        }
    }
}
