//! The ScratchWorld tasks a session can be made for: the manifest and suites under the
//! benchmarks folder (`--scratchworld DIR`, default `$GOBO_BENCHMARKS/scratchworld`, else the
//! repository's `benchmarks/scratchworld`), read on first use. A task names the suite that
//! judges a session's project when `evaluate` is given no suite (`docs/server.md`, "Sessions
//! made for a task"). The manifest's format and the metrics are the core's
//! (`gobo::bench::scratchworld`).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use gobo::bench::scratchworld::{parse_manifest, Flavour, Manifest};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;

/// The ScratchWorld task a session was made for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskBinding {
    /// The task's name in the manifest.
    pub name: String,
    /// Its category (`create`, `debug`, `extend`, `compute`).
    pub category: String,
    /// The flavour judged (`compat` or `strict`).
    pub flavour: String,
    /// The blob holding the suite's text, as it was when the session was made.
    pub suite: String,
}

/// A task looked up for a new session: its binding (without the suite's blob yet) and the
/// suite's text.
#[derive(Debug)]
pub struct FoundTask {
    /// Name, category and flavour.
    pub name: String,
    /// Its category.
    pub category: String,
    /// The flavour.
    pub flavour: Flavour,
    /// The suite's text.
    pub suite: Vec<u8>,
}

/// The benchmarks folder and its manifest.
#[derive(Debug)]
pub struct ScratchworldTasks {
    dir: PathBuf,
    manifest: OnceLock<Result<Arc<Manifest>, String>>,
}

impl ScratchworldTasks {
    /// The tasks under `dir` (default: `$GOBO_BENCHMARKS/scratchworld`, else the repository's).
    pub fn new(dir: Option<PathBuf>) -> ScratchworldTasks {
        let dir = dir.unwrap_or_else(|| match std::env::var_os("GOBO_BENCHMARKS") {
            Some(d) => PathBuf::from(d).join("scratchworld"),
            None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/scratchworld"),
        });
        ScratchworldTasks { dir, manifest: OnceLock::new() }
    }

    fn manifest(&self) -> Result<Arc<Manifest>, ApiError> {
        self.manifest
            .get_or_init(|| {
                let path = self.dir.join("manifest.json");
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    format!("{}: {e} (start the server with --scratchworld DIR)", path.display())
                })?;
                parse_manifest(&text).map(Arc::new).map_err(|e| format!("{}: {e}", path.display()))
            })
            .clone()
            .map_err(|e| ApiError::invalid("no_benchmarks", e))
    }

    /// Task `name` judged in `flavour` (`compat` by default) with its suite's text (blocking:
    /// a worker thread). 422 for an unknown task or flavour, or a task without a suite yet.
    pub fn find(&self, name: &str, flavour: Option<&str>) -> Result<FoundTask, ApiError> {
        let flavour = match flavour.unwrap_or("compat") {
            "compat" => Flavour::Compat,
            "strict" => Flavour::Strict,
            other => {
                return Err(ApiError::invalid(
                    "invalid_request",
                    format!("flavour is compat or strict, not {other:?}"),
                )
                .at("flavour"))
            }
        };
        let manifest = self.manifest()?;
        let task = manifest.task(name).ok_or_else(|| {
            ApiError::invalid(
                "unknown_task",
                format!(
                    "no ScratchWorld task {name:?} in {}",
                    self.dir.join("manifest.json").display()
                ),
            )
            .at("task")
        })?;
        let entry = task.entry(flavour);
        let file = entry.suite.as_deref().ok_or_else(|| {
            ApiError::invalid(
                "no_suite",
                format!("task {name:?} has no {} suite yet", flavour.name()),
            )
            .at("task")
        })?;
        let path = self.dir.join(file);
        let suite = std::fs::read(&path)
            .map_err(|e| ApiError::invalid("no_benchmarks", format!("{}: {e}", path.display())))?;
        Ok(FoundTask {
            name: task.name.clone(),
            category: task.category.name().to_string(),
            flavour,
            suite,
        })
    }
}
