//! The references as long-lived child processes (`benches/reference/diff-fuzz-worker.js`): a
//! job is an `.sb3` file plus the scenario and budgets, the answer its trace lines. A job that
//! takes longer than the time limit kills the worker (the next job starts a fresh one) and is
//! reported as [`Answer::Timeout`].

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::gen::Program;

/// Which reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oracle {
    /// `../shared/refvm`: scratch-vm 5.0.300 in Node with the stub renderer.
    Node,
    /// `../shared/refvm-browser`: scratch-vm 5.0.300 with scratch-render in headless Chromium.
    Browser,
}

impl Oracle {
    pub fn name(self) -> &'static str {
        match self {
            Oracle::Node => "node",
            Oracle::Browser => "browser",
        }
    }

    /// Why this reference cannot run with `shared`, if so.
    pub fn missing(self, shared: &Path) -> Option<String> {
        let need = match self {
            Oracle::Node => shared.join("refvm/node_modules/scratch-vm"),
            Oracle::Browser => shared.join("refvm-browser/dist/refvm-page.js"),
        };
        if !need.exists() {
            return Some(format!("{} not found", need.display()));
        }
        if !crate::reference::have_program("node") {
            return Some(String::from("node is not installed"));
        }
        if self == Oracle::Browser && !Path::new("/usr/bin/chromium").exists() {
            return Some(String::from("/usr/bin/chromium is not installed"));
        }
        None
    }
}

/// Time allowed, besides a job's own, for a worker to start.
const STARTUP: Duration = Duration::from_secs(60);

/// What a reference answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The frame lines and the end line.
    Trace(Vec<String>),
    /// The reference threw (the message).
    Error(String),
    /// No answer within the time limit.
    Timeout,
}

/// A running worker.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// A reference driven through its worker.
pub struct Reference {
    pub oracle: Oracle,
    shared: PathBuf,
    worker: Option<Worker>,
    next_id: u64,
    /// Time allowed per job.
    pub limit: Duration,
}

impl std::fmt::Debug for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reference")
            .field("oracle", &self.oracle)
            .field("running", &self.worker.is_some())
            .field("next_id", &self.next_id)
            .field("limit", &self.limit)
            .finish()
    }
}

impl Reference {
    pub fn new(oracle: Oracle, shared: &Path) -> Reference {
        let limit = match oracle {
            Oracle::Node => Duration::from_secs(20),
            Oracle::Browser => Duration::from_secs(60),
        };
        Reference { oracle, shared: shared.to_path_buf(), worker: None, next_id: 0, limit }
    }

    fn script() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reference/diff-fuzz-worker.js")
    }

    fn start(&mut self) -> Result<&mut Worker, String> {
        if self.worker.is_none() {
            let mut child = Command::new("nice")
                .args(["-n", "10", "node", "--max-old-space-size=2048"])
                .arg(Self::script())
                .arg("--shared")
                .arg(&self.shared)
                .arg("--oracle")
                .arg(self.oracle.name())
                .env("TZ", "UTC")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("cannot start node: {e}"))?;
            let stdin = child.stdin.take().ok_or("no stdin")?;
            let stdout = child.stdout.take().ok_or("no stdout")?;
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            self.worker = Some(Worker { child, stdin, lines: rx });
        }
        Ok(self.worker.as_mut().expect("started"))
    }

    fn stop(&mut self) {
        if let Some(mut w) = self.worker.take() {
            let _ = w.child.kill();
            let _ = w.child.wait();
        }
    }

    /// Runs one packed program (`sb3` written at `path`).
    pub fn run(&mut self, path: &Path, p: &Program) -> Answer {
        self.next_id += 1;
        let id = self.next_id;
        let events = serde_json::from_str::<serde_json::Value>(&p.scenario_json)
            .ok()
            .and_then(|v| v.get("events").cloned())
            .unwrap_or(serde_json::Value::Array(Vec::new()));
        let job = serde_json::json!({
            "id": id, "path": path, "frames": p.frames, "seed": p.seed,
            "ticks": p.ticks_per_frame, "warp": p.warp_checks, "turbo": p.turbo, "events": events,
        });
        // A fresh worker first loads scratch-vm and runs its first job twice (see the worker's
        // uid count): that start-up is not the job's time.
        let limit = if self.worker.is_none() { self.limit + STARTUP } else { self.limit };
        let worker = match self.start() {
            Ok(w) => w,
            Err(e) => return Answer::Error(e),
        };
        if writeln!(worker.stdin, "{job}").and_then(|_| worker.stdin.flush()).is_err() {
            self.stop();
            return Answer::Error(String::from("the worker exited"));
        }
        let deadline = Instant::now() + limit;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match worker.lines.recv_timeout(left) {
                Ok(line) => {
                    if line.starts_with("{\"done\":") {
                        return Answer::Trace(lines);
                    }
                    if line.starts_with("{\"error\":") {
                        let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
                        let msg = v["error"].as_str().unwrap_or("error").to_string();
                        return Answer::Error(msg);
                    }
                    lines.push(line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.stop();
                    return Answer::Timeout;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.stop();
                    return Answer::Error(String::from("the worker exited"));
                }
            }
        }
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        if let Some(mut w) = self.worker.take() {
            drop(w.stdin);
            let _ = w.child.wait();
        }
    }
}
