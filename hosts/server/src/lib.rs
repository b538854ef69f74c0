//! `gobo serve`: the HTTP service for agent-benchmark harnesses (`docs/server.md`).
//!
//! Hosts adapt I/O: every endpoint calls the same core and `gobo-host` functions as the CLI and
//! answers with the same JSON. Layout:
//! - [`config`]: the address, data folder and every limit;
//! - [`app`]: the running parts and their start-up and shutdown order;
//! - [`pool`]: the fixed worker threads and their bounded queue (engine work never runs on the
//!   async runtime's threads);
//! - [`store`]: the SQLite database (WAL) under `--data`; [`blobs`], [`jobs`], [`rows`] and
//!   [`sessions`]: what is kept in it;
//! - [`tasks`]: the ScratchWorld tasks sessions can be made for;
//! - [`routes`]: the endpoints; [`openapi`]: their OpenAPI 3.1 document; [`error`]: the error
//!   answers; [`input`]: projects and suites given by value or by reference.

pub mod app;
pub mod blobs;
pub mod config;
pub mod error;
pub mod ids;
pub mod input;
pub mod jobs;
pub mod openapi;
pub mod pool;
pub mod routes;
pub mod rows;
pub mod sessions;
pub mod store;
pub mod tasks;

use std::future::Future;
use std::sync::Arc;

pub use app::App;
pub use config::{Limits, ServerConfig};
pub use routes::router;
pub use store::StoreError;

/// Why the server could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The data folder is unusable (read-only, full, not a folder...).
    Store(StoreError),
    /// The address cannot be listened on.
    Bind {
        /// The address.
        addr: std::net::SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// Serving failed.
    Io(std::io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Store(e) => write!(f, "{e}"),
            ServeError::Bind { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            ServeError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// Starts the server on `config.addr` and serves until `shutdown` completes; then stops taking
/// connections, finishes the requests in flight and the queued engine work, and closes the
/// database. `on_listen` is told the bound address (useful with port 0).
pub async fn serve(
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
    on_listen: impl FnOnce(std::net::SocketAddr),
) -> Result<(), ServeError> {
    let app = tokio::task::spawn_blocking({
        let config = config.clone();
        move || App::start(&config)
    })
    .await
    .map_err(|e| ServeError::Io(std::io::Error::other(e.to_string())))?
    .map_err(ServeError::Store)?;
    let listener = match tokio::net::TcpListener::bind(config.addr).await {
        Ok(l) => l,
        Err(source) => {
            let a = Arc::clone(&app);
            let _ = tokio::task::spawn_blocking(move || a.shutdown()).await;
            return Err(ServeError::Bind { addr: config.addr, source });
        }
    };
    on_listen(listener.local_addr().map_err(ServeError::Io)?);
    let stopping = Arc::clone(&app);
    let result = axum::serve(listener, router(Arc::clone(&app)))
        .with_graceful_shutdown(async move {
            shutdown.await;
            stopping.begin_shutdown();
        })
        .await
        .map_err(ServeError::Io);
    let a = Arc::clone(&app);
    let _ = tokio::task::spawn_blocking(move || a.shutdown()).await;
    result
}

/// Runs [`serve`] on a new multi-threaded runtime until SIGINT or SIGTERM (what `gobo serve`
/// does), printing the address it listens on to stderr.
pub fn run_until_signal(config: ServerConfig) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("gobo-http")
        .build()
        .map_err(ServeError::Io)?;
    let data = config.data_dir.clone();
    runtime.block_on(serve(config, signal(), move |addr| {
        eprintln!("gobo serve: listening on http://{addr} (data in {})", data.display());
    }))
}

async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
    eprintln!("gobo serve: stopping (finishing the requests in flight)");
}
