//! Durable state in an embedded SQLite database, `DATA/gobo.sqlite3`, in WAL mode: blobs, batch
//! jobs with their rows, and sessions (`docs/server.md`, "Persistence").
//!
//! One writer thread owns the only writing connection and commits what it is sent in groups
//! (one transaction per group, one savepoint per write, so a failing write does not undo the
//! others); a caller learns that its write is durable from the completion it passed. Reads use
//! a small set of other connections, which WAL lets run beside the writer. A committed
//! transaction survives the process being killed; with `fsync` it also survives a power cut.
//! Checkpoints (copying the WAL into the database file, with its sync) run on a thread of their
//! own, woken by the writer every [`CHECKPOINT_EVERY`] commits, so commits never wait for one.
//!
//! What does not live here: what the rows mean (`jobs`, `sessions`, `routes::blobs`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::StatusCode;
use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::error::ApiError;

/// The database file inside the data folder.
pub const DB_FILE: &str = "gobo.sqlite3";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blobs (
    sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, options TEXT NOT NULL, total INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL, created_ms INTEGER NOT NULL,
    finished_ms INTEGER);
CREATE TABLE IF NOT EXISTS job_rows (
    job TEXT NOT NULL, idx INTEGER NOT NULL, input TEXT NOT NULL, result TEXT,
    PRIMARY KEY (job, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL, used_ms INTEGER NOT NULL,
    config TEXT NOT NULL, snapshot BLOB NOT NULL, step INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS session_log (
    session TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,
    PRIMARY KEY (session, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS session_ops (
    session TEXT NOT NULL, seq INTEGER NOT NULL, ms INTEGER NOT NULL, op TEXT NOT NULL,
    entry TEXT, PRIMARY KEY (session, seq)) WITHOUT ROWID;
";

/// Why the store failed.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum StoreError {
    /// The data folder or the database cannot be written (read-only file system, permissions).
    ReadOnly {
        /// The folder or file.
        path: PathBuf,
        /// What SQLite or the file system said.
        message: String,
    },
    /// The disk is full.
    Full {
        /// The folder or file.
        path: PathBuf,
        /// What SQLite said.
        message: String,
    },
    /// The folder or database cannot be opened or created.
    Open {
        /// The folder or file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// Another SQLite failure.
    Sqlite(String),
    /// The store is shut down.
    Closed,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::ReadOnly { path, message } => write!(
                f,
                "{}: the data folder is not writable (read-only file system or no permission): {message}",
                path.display()
            ),
            StoreError::Full { path, message } => {
                write!(f, "{}: the disk holding the data folder is full: {message}", path.display())
            }
            StoreError::Open { path, message } => write!(f, "{}: {message}", path.display()),
            StoreError::Sqlite(m) => write!(f, "database: {m}"),
            StoreError::Closed => f.write_str("the database is closed (the server is stopping)"),
        }
    }
}

impl std::error::Error for StoreError {}

impl StoreError {
    fn classify(path: &Path, e: &rusqlite::Error) -> StoreError {
        let message = e.to_string();
        let path = path.to_path_buf();
        match e.sqlite_error_code() {
            Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied) => {
                StoreError::ReadOnly { path, message }
            }
            Some(ErrorCode::DiskFull) => StoreError::Full { path, message },
            Some(ErrorCode::CannotOpen) => StoreError::Open { path, message },
            _ => StoreError::Sqlite(message),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Full { .. } => {
                ApiError::new(StatusCode::INSUFFICIENT_STORAGE, "storage_full", e.to_string())
            }
            StoreError::Closed => ApiError::overloaded(e.to_string()),
            _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "storage", e.to_string()),
        }
    }
}

/// A write run inside the writer's transaction.
pub type WriteFn = Box<dyn FnOnce(&Connection) -> rusqlite::Result<()> + Send>;
/// Told whether the write is committed (called on the writer thread: keep it short).
pub type Done = Box<dyn FnOnce(Result<(), StoreError>) + Send>;

struct Op {
    write: WriteFn,
    done: Done,
}

/// The database.
pub struct Store {
    path: PathBuf,
    writer: Mutex<Option<mpsc::Sender<Op>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    checkpointer: Mutex<Option<JoinHandle<()>>>,
    readers: Mutex<Vec<Connection>>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish_non_exhaustive()
    }
}

/// Milliseconds since 1970 (for `created_ms`, `used_ms`; never part of a result).
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

fn configure(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| StoreError::classify(path, &e))?;
    // Keep each cached statement's plan: without this, SQLite (built with STAT4) prepares a
    // statement again whenever a bound value changes, which was most of the writer's parsing.
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
        .map(drop)
        .map_err(|e| StoreError::classify(path, &e))
}

/// Opens another connection to the database at `path`.
fn connect(path: &Path) -> Result<Connection, StoreError> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| StoreError::classify(path, &e))?;
    configure(&c, path)?;
    Ok(c)
}

impl Store {
    /// Opens (creating if needed) the database in `dir` and proves it writable by committing
    /// a write, so a read-only folder or a full disk is reported here, at start-up.
    pub fn open(dir: &Path, fsync: bool) -> Result<Store, StoreError> {
        let io_error = |what: &str, e: std::io::Error| {
            let message = format!("{what}: {e}");
            let path = dir.to_path_buf();
            match e.kind() {
                std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
                    StoreError::ReadOnly { path, message }
                }
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                    StoreError::Full { path, message }
                }
                _ => StoreError::Open { path, message },
            }
        };
        std::fs::create_dir_all(dir).map_err(|e| io_error("cannot create the data folder", e))?;
        // SQLite's own errors on a read-only or full file system are vague ("unable to open
        // database file"): try a plain file first.
        let probe = dir.join(".gobo-write-probe");
        let written = std::fs::File::create(&probe).and_then(|mut f| {
            std::io::Write::write_all(&mut f, &[0u8; 64 << 10])?;
            f.sync_all()
        });
        let _ = std::fs::remove_file(&probe);
        written.map_err(|e| io_error("cannot write in the data folder", e))?;
        let path = dir.join(DB_FILE);
        let fail = |e: rusqlite::Error| StoreError::classify(&path, &e);
        let conn = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(fail)?;
        configure(&conn, &path)?;
        let mode: String =
            conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)).map_err(fail)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::ReadOnly {
                path: path.clone(),
                message: format!("cannot switch the journal to WAL (it stays {mode})"),
            });
        }
        let sync = if fsync { "FULL" } else { "NORMAL" };
        // No checkpoints on commit: the checkpointer thread runs them.
        conn.execute_batch(&format!("PRAGMA synchronous={sync}; PRAGMA wal_autocheckpoint=0;"))
            .map_err(fail)?;
        conn.execute_batch(SCHEMA).map_err(fail)?;
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', '1'), ('opened_ms', ?1)",
            [now_ms().to_string()],
        )
        .map_err(fail)?;
        let spawn_error =
            |e: std::io::Error| StoreError::Open { path: path.clone(), message: e.to_string() };
        let checkpoint_conn = connect(&path)?;
        let (wake, woken) = mpsc::sync_channel::<()>(1);
        let checkpointer = std::thread::Builder::new()
            .name("gobo-db-checkpoint".into())
            .spawn(move || {
                while woken.recv().is_ok() {
                    // PASSIVE: copies what no reader still needs, never blocks the writer; a
                    // failure leaves the WAL to the next one.
                    let _ =
                        checkpoint_conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .map_err(spawn_error)?;
        let (tx, rx) = mpsc::channel::<Op>();
        let thread_path = path.clone();
        let thread = std::thread::Builder::new()
            .name("gobo-db-writer".into())
            .spawn(move || write_loop(&conn, &thread_path, &rx, &wake))
            .map_err(spawn_error)?;
        Ok(Store {
            path,
            writer: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
            checkpointer: Mutex::new(Some(checkpointer)),
            readers: Mutex::new(Vec::new()),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Queues a write; `done` learns when it is committed (or why not).
    pub fn submit(&self, write: WriteFn, done: Done) {
        let guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        match guard.as_ref() {
            Some(tx) => {
                if let Err(mpsc::SendError(op)) = tx.send(Op { write, done }) {
                    (op.done)(Err(StoreError::Closed));
                }
            }
            None => done(Err(StoreError::Closed)),
        }
    }

    /// Writes and waits for the commit (from a worker thread, never the async runtime).
    pub fn write_blocking(
        &self,
        write: impl FnOnce(&Connection) -> rusqlite::Result<()> + Send + 'static,
    ) -> Result<(), StoreError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.submit(
            Box::new(write),
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        );
        rx.recv().unwrap_or(Err(StoreError::Closed))
    }

    /// Writes and waits for the commit, from async code.
    pub async fn write(
        &self,
        write: impl FnOnce(&Connection) -> rusqlite::Result<()> + Send + 'static,
    ) -> Result<(), StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.submit(
            Box::new(write),
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        );
        rx.await.unwrap_or(Err(StoreError::Closed))
    }

    /// Runs a read on one of the reading connections (blocking: call it from a worker thread
    /// or through [`Store::read_async`]).
    pub fn read<R>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<R>,
    ) -> Result<R, StoreError> {
        let pooled = self.readers.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let conn = match pooled {
            Some(c) => c,
            None => connect(&self.path)?,
        };
        let result = f(&conn).map_err(|e| StoreError::classify(&self.path, &e));
        let mut readers = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
        if readers.len() < 8 {
            readers.push(conn);
        }
        result
    }

    /// [`Store::read`] on tokio's blocking threads.
    pub async fn read_async<R: Send + 'static>(
        self: &std::sync::Arc<Self>,
        f: impl FnOnce(&Connection) -> rusqlite::Result<R> + Send + 'static,
    ) -> Result<R, StoreError> {
        let store = std::sync::Arc::clone(self);
        tokio::task::spawn_blocking(move || store.read(f))
            .await
            .unwrap_or_else(|e| Err(StoreError::Sqlite(format!("read task failed: {e}"))))
    }

    /// Commits what is queued and stops the writer; later writes fail with
    /// [`StoreError::Closed`].
    pub fn close(&self) {
        drop(self.writer.lock().unwrap_or_else(PoisonError::into_inner).take());
        if let Some(t) = self.thread.lock().unwrap_or_else(PoisonError::into_inner).take() {
            let _ = t.join();
        }
        // The writer is gone, and with it the checkpointer's wake-up channel.
        if let Some(t) = self.checkpointer.lock().unwrap_or_else(PoisonError::into_inner).take() {
            let _ = t.join();
        }
        self.readers.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        self.close();
    }
}

/// Most writes committed in one transaction.
const GROUP: usize = 1024;

/// Commits between two wake-ups of the checkpointer.
pub const CHECKPOINT_EVERY: u32 = 128;

fn write_loop(
    conn: &Connection,
    path: &Path,
    rx: &mpsc::Receiver<Op>,
    checkpoint: &mpsc::SyncSender<()>,
) {
    let mut commits = 0u32;
    while let Ok(first) = rx.recv() {
        let mut ops = vec![first];
        while ops.len() < GROUP {
            match rx.try_recv() {
                Ok(op) => ops.push(op),
                Err(_) => break,
            }
        }
        let fail = |e: &rusqlite::Error| StoreError::classify(path, e);
        if let Err(e) = run(conn, "BEGIN IMMEDIATE") {
            let err = fail(&e);
            for op in ops {
                (op.done)(Err(err.clone()));
            }
            continue;
        }
        let mut outcomes: Vec<(Done, Result<(), StoreError>)> = Vec::with_capacity(ops.len());
        for op in ops {
            let r = run(conn, "SAVEPOINT w").and_then(|()| match (op.write)(conn) {
                Ok(()) => run(conn, "RELEASE w").map(|()| Ok(())),
                Err(e) => run(conn, "ROLLBACK TO w")
                    .and_then(|()| run(conn, "RELEASE w"))
                    .map(|()| Err(fail(&e))),
            });
            outcomes.push((op.done, r.unwrap_or_else(|e| Err(fail(&e)))));
        }
        if let Err(e) = run(conn, "COMMIT") {
            let _ = conn.execute_batch("ROLLBACK");
            let err = fail(&e);
            for (done, _) in outcomes {
                done(Err(err.clone()));
            }
            continue;
        }
        for (done, r) in outcomes {
            done(r);
        }
        commits += 1;
        if commits >= CHECKPOINT_EVERY {
            commits = 0;
            // Full: a checkpoint is already due.
            let _ = checkpoint.try_send(());
        }
    }
}

/// Runs one statement without parameters through the connection's statement cache (the writer
/// runs `SAVEPOINT`/`RELEASE` around every write: parsing them each time was a visible part of
/// its work).
fn run(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}
