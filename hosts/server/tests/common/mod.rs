//! An in-process server for tests: an [`App`] on a fresh data folder, its router called with
//! `tower::ServiceExt::oneshot`, and helpers for JSON requests and the repository's examples.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::Router;
use gobo_server::{App, Limits, ServerConfig};
use serde_json::Value;
use tower::ServiceExt;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file of the repository as text.
pub fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A file of the repository as JSON.
pub fn json_file(rel: &str) -> Value {
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A fresh, empty folder under the system temp folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-server-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// A server on a data folder.
pub struct TestServer {
    pub app: Arc<App>,
    pub router: Router,
    pub dir: PathBuf,
}

/// A response.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!("{e}: {} {}", self.status, String::from_utf8_lossy(&self.body))
        })
    }

    /// The error code of an error body.
    pub fn code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap_or("").to_string()
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl TestServer {
    /// A server with default limits on a fresh folder.
    pub fn new(name: &str) -> TestServer {
        TestServer::with_limits(name, Limits { workers: 2, ..Limits::default() })
    }

    /// A server with `limits` on a fresh folder.
    pub fn with_limits(name: &str, limits: Limits) -> TestServer {
        TestServer::open(temp_dir(name), limits)
    }

    /// A server on `dir` (kept as it is).
    pub fn open(dir: PathBuf, limits: Limits) -> TestServer {
        let mut config = ServerConfig::new(dir.clone());
        config.limits = limits;
        let app = App::start(&config).unwrap_or_else(|e| panic!("start: {e}"));
        let router = gobo_server::router(Arc::clone(&app));
        TestServer { app, router, dir }
    }

    /// Sends a request.
    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Answer {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        let req = req.body(Body::from(body)).unwrap_or_else(|e| panic!("{e}"));
        let res = self.router.clone().oneshot(req).await.unwrap_or_else(|e| match e {});
        let status = res.status();
        let headers = res.headers().clone();
        let body = axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .to_vec();
        Answer { status, headers, body }
    }

    /// GET.
    pub async fn get(&self, uri: &str) -> Answer {
        self.call(Method::GET, uri, None, Vec::new()).await
    }

    /// POST a JSON value.
    pub async fn post(&self, uri: &str, body: &Value) -> Answer {
        let bytes = serde_json::to_vec(body).unwrap_or_default();
        self.call(Method::POST, uri, Some("application/json"), bytes).await
    }

    /// POST JSON text as given (key order kept).
    pub async fn post_text(&self, uri: &str, body: &str) -> Answer {
        self.call(Method::POST, uri, Some("application/json"), body.as_bytes().to_vec()).await
    }

    /// DELETE.
    pub async fn delete(&self, uri: &str) -> Answer {
        self.call(Method::DELETE, uri, None, Vec::new()).await
    }

    /// Stops the server as a killed process stops (no shutdown snapshots: what is committed
    /// is all that is left), keeping its folder.
    #[allow(dead_code)]
    pub async fn crash(self) -> PathBuf {
        let app = Arc::clone(&self.app);
        tokio::task::spawn_blocking(move || app.halt()).await.unwrap_or_else(|e| panic!("{e}"));
        self.dir
    }

    /// Stops the server (workers, database), keeping its folder.
    pub async fn stop(self) -> PathBuf {
        let app = Arc::clone(&self.app);
        tokio::task::spawn_blocking(move || app.shutdown()).await.unwrap_or_else(|e| panic!("{e}"));
        self.dir
    }
}
