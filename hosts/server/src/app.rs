//! The running server's parts and their lifetime: the [`Engine`] context worker threads read
//! (limits, blobs, the DrawingBench dataset, the ScratchWorld tasks), the worker pool, the database, the batch jobs
//! and the sessions, started in order by [`App::start`] (which fails with a clear message on an unusable data
//! folder) and stopped in reverse by [`App::shutdown`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use gobo::drawing::task::{dataset_from_json, Task as DrawTask};

use crate::blobs::Blobs;
use crate::config::{Limits, ServerConfig};
use crate::jobs::Jobs;
use crate::pool::Pool;
use crate::rows::{JobOptions, RowEval};
use crate::sessions::Sessions;
use crate::store::{Store, StoreError};
use crate::tasks::ScratchworldTasks;

/// Environment variable naming the DrawingBench dataset file (as for `gobo draw`).
pub const DATASET_ENV: &str = "GOBO_DRAWINGBENCH_DATASET";

/// The DrawingBench dataset, read on first use.
#[derive(Debug)]
pub struct DrawingDataset {
    path: Option<PathBuf>,
    loaded: OnceLock<Result<Arc<Vec<DrawTask>>, String>>,
}

impl DrawingDataset {
    /// The dataset at `path` (default: `$GOBO_DRAWINGBENCH_DATASET`).
    pub fn new(path: Option<PathBuf>) -> DrawingDataset {
        let path = path.or_else(|| std::env::var_os(DATASET_ENV).map(PathBuf::from));
        DrawingDataset { path, loaded: OnceLock::new() }
    }

    /// Whether a dataset file is configured.
    pub fn configured(&self) -> bool {
        self.path.is_some()
    }

    /// The tasks (blocking on first use: a worker thread).
    pub fn tasks(&self) -> Result<Arc<Vec<DrawTask>>, String> {
        self.loaded
            .get_or_init(|| {
                let path = self.path.as_ref().ok_or_else(|| {
                    format!("a task index needs the DrawingBench dataset: start the server with --drawingbench-dataset FILE or set {DATASET_ENV}")
                })?;
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                dataset_from_json(&text)
                    .map(Arc::new)
                    .map_err(|e| format!("{}: {e}", path.display()))
            })
            .clone()
    }
}

/// What engine work reads besides its request.
#[derive(Debug)]
pub struct Engine {
    /// Limits and budgets.
    pub limits: Limits,
    /// Uploaded blobs.
    pub blobs: Arc<Blobs>,
    /// The DrawingBench dataset.
    pub drawing: DrawingDataset,
    /// The ScratchWorld tasks sessions can be made for.
    pub scratchworld: ScratchworldTasks,
}

/// The server.
#[derive(Debug)]
pub struct App {
    /// Worker-side context.
    pub engine: Arc<Engine>,
    /// The worker pool.
    pub pool: Arc<Pool>,
    /// The database.
    pub store: Arc<Store>,
    /// Batch jobs.
    pub jobs: Arc<Jobs>,
    /// Composite sessions.
    pub sessions: Arc<Sessions>,
    ready: AtomicBool,
}

impl App {
    /// Opens the data folder, starts the workers and resumes unfinished batch jobs.
    pub fn start(config: &ServerConfig) -> Result<Arc<App>, StoreError> {
        let store = Arc::new(Store::open(&config.data_dir, config.fsync)?);
        let limits = config.limits.clone();
        let engine = Arc::new(Engine {
            blobs: Arc::new(Blobs::new(Arc::clone(&store))),
            drawing: DrawingDataset::new(config.drawingbench_dataset.clone()),
            scratchworld: ScratchworldTasks::new(config.scratchworld.clone()),
            limits: limits.clone(),
        });
        let pool = Arc::new(Pool::start(
            limits.worker_count(),
            limits.queue_depth,
            limits.batch_worker_count(),
        ));
        let e = Arc::clone(&engine);
        let jobs = Jobs::load(
            Arc::clone(&store),
            Box::new(move |kind, options| {
                let options: JobOptions = serde_json::from_str(options)
                    .map_err(|err| format!("stored job options: {err}"))?;
                RowEval::new(kind, &options, &e)
            }),
        )?;
        jobs.attach(&pool);
        let sessions = Arc::new(Sessions::load(Arc::clone(&store), &limits)?);
        let app = App { engine, pool, store, jobs, sessions, ready: AtomicBool::new(true) };
        Ok(Arc::new(app))
    }

    /// Whether the server takes requests (false once shutdown has begun).
    pub fn ready(&self) -> bool {
        self.ready.load(Ordering::SeqCst)
    }

    /// Marks the server as stopping (`/readyz` answers 503 from now on).
    pub fn begin_shutdown(&self) {
        self.ready.store(false, Ordering::SeqCst);
    }

    /// Lets queued work finish, stops the workers, snapshots the sessions that have replay
    /// rows and closes the database (blocking).
    pub fn shutdown(&self) {
        self.begin_shutdown();
        self.pool.shutdown();
        if let Err(e) = self.sessions.flush() {
            // The replay rows stay: the next start replays them.
            eprintln!("gobo serve: cannot snapshot the sessions at shutdown: {}", e.message);
        }
        self.store.close();
    }

    /// Stops as a killed process would: the workers and the database, without the shutdown
    /// snapshots (sessions come back from their replay rows), for tests of recovery.
    pub fn halt(&self) {
        self.begin_shutdown();
        self.pool.shutdown();
        self.store.close();
    }
}
