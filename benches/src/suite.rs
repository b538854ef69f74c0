//! The Scratch workload list `benches/workloads/scratch/workloads.json`: which project, how it
//! is driven (until idle, a fixed number of frames, or load only) and what figure it yields.
//! The reference runners (`benches/reference/*.js`) read the same file.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// How a workload is driven after the green flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Step frames until no thread is left (at most `max_frames`); the loop's iterations count.
    UntilIdle { max_frames: u32, iterations: u64 },
    /// Step `settle_frames` untimed frames, then time `frames` frames.
    Frames { settle_frames: u32, frames: u32 },
    /// Only load (and compile) the project.
    Load,
}

/// One workload of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    pub name: String,
    pub path: PathBuf,
    pub mode: Mode,
    /// `iterations/s`, `frames/s` or `loads/s`: always "higher is better".
    pub unit: String,
    /// Expected end state: stage variable name (or `clones`) and value.
    pub check: Vec<(String, f64)>,
}

/// The whole list with the run parameters every implementation uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    pub fps: u32,
    pub ticks_per_frame: u32,
    pub warp_checks: u64,
    pub seed: u32,
    pub workloads: Vec<Workload>,
}

/// What is wrong with `workloads.json`.
#[derive(Debug)]
pub enum SuiteError {
    Read(PathBuf, std::io::Error),
    Json(serde_json::Error),
    Field(String),
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            SuiteError::Json(e) => write!(f, "workloads.json: {e}"),
            SuiteError::Field(what) => write!(f, "workloads.json: {what}"),
        }
    }
}

impl std::error::Error for SuiteError {}

fn num(v: &Value, key: &str, at: &str) -> Result<u64, SuiteError> {
    v.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| SuiteError::Field(format!("{at}: `{key}` must be a whole number")))
}

fn text<'a>(v: &'a Value, key: &str, at: &str) -> Result<&'a str, SuiteError> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| SuiteError::Field(format!("{at}: `{key}` must be a string")))
}

fn small(n: u64, what: &str) -> Result<u32, SuiteError> {
    u32::try_from(n).map_err(|_| SuiteError::Field(format!("{what} is too large")))
}

impl Suite {
    /// Reads `<dir>/workloads.json`; project paths are resolved against `dir`.
    pub fn load(dir: &Path) -> Result<Suite, SuiteError> {
        let file = dir.join("workloads.json");
        let bytes = std::fs::read(&file).map_err(|e| SuiteError::Read(file.clone(), e))?;
        let root: Value = serde_json::from_slice(&bytes).map_err(SuiteError::Json)?;
        let list = root
            .get("workloads")
            .and_then(Value::as_array)
            .ok_or_else(|| SuiteError::Field("`workloads` must be an array".into()))?;
        let mut workloads = Vec::with_capacity(list.len());
        for (i, w) in list.iter().enumerate() {
            let at = format!("workloads[{i}]");
            let name = text(w, "name", &at)?.to_string();
            let mode = match text(w, "mode", &at)? {
                "until_idle" => Mode::UntilIdle {
                    max_frames: small(num(w, "max_frames", &at)?, "max_frames")?,
                    iterations: num(w, "iterations", &at)?,
                },
                "frames" => Mode::Frames {
                    settle_frames: small(num(w, "settle_frames", &at)?, "settle_frames")?,
                    frames: small(num(w, "frames", &at)?, "frames")?,
                },
                "load" => Mode::Load,
                other => return Err(SuiteError::Field(format!("{at}: unknown mode `{other}`"))),
            };
            let check = match w.get("check").and_then(Value::as_object) {
                Some(map) => {
                    map.iter().filter_map(|(k, v)| Some((k.clone(), v.as_f64()?))).collect()
                }
                None => Vec::new(),
            };
            workloads.push(Workload {
                path: dir.join(text(w, "file", &at)?),
                unit: text(w, "unit", &at)?.to_string(),
                name,
                mode,
                check,
            });
        }
        Ok(Suite {
            fps: small(num(&root, "fps", "root")?, "fps")?,
            ticks_per_frame: small(num(&root, "ticks_per_frame", "root")?, "ticks_per_frame")?,
            warp_checks: num(&root, "warp_checks", "root")?,
            seed: small(num(&root, "seed", "root")?, "seed")?,
            workloads,
        })
    }

    /// The workload called `name`.
    pub fn get(&self, name: &str) -> Option<&Workload> {
        self.workloads.iter().find(|w| w.name == name)
    }
}
