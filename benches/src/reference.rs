//! The reference implementations, run as child processes: each runner script in
//! `benches/reference/` prints one JSON object per workload on stdout (format:
//! `docs/performance.md`). A reference that is not installed is skipped with the reason; a
//! runner that fails is reported, never fatal.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One result line of a reference runner.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub implementation: String,
    pub workload: String,
    pub unit: String,
    pub value: f64,
    pub median_ms: f64,
    pub runs: u64,
    /// The reference reached the workload's expected end state (or agreed with its oracle).
    pub checked: bool,
    pub note: Option<String>,
}

/// What became of one reference.
#[derive(Debug, Clone, PartialEq)]
pub enum Run {
    Rows(Vec<Row>),
    Skipped(String),
    Failed(String),
}

/// A reference runner: a display name and the command line that runs it.
#[derive(Debug, Clone)]
pub struct Reference {
    pub name: String,
    pub program: OsString,
    pub args: Vec<OsString>,
    /// Why it cannot run here (checked before spawning), if so.
    pub missing: Option<String>,
}

/// Whether `program` can be started (`<program> --version` succeeds).
pub fn have_program(program: &str) -> bool {
    Command::new(program).arg("--version").output().map(|o| o.status.success()).unwrap_or(false)
}

/// Parses a runner's stdout: one JSON object per non-empty line.
pub fn parse_rows(stdout: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (n, line) in stdout.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("stdout line {}: {e}", n + 1))?;
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let f = |k: &str| v.get(k).and_then(Value::as_f64);
        let (Some(implementation), Some(workload), Some(unit), Some(value)) =
            (s("impl"), s("workload"), s("unit"), f("value"))
        else {
            return Err(format!("stdout line {}: needs impl, workload, unit, value", n + 1));
        };
        rows.push(Row {
            implementation,
            workload,
            unit,
            value,
            median_ms: f("median_ms").unwrap_or(f64::NAN),
            runs: v.get("runs").and_then(Value::as_u64).unwrap_or(0),
            checked: v.get("checked").and_then(Value::as_bool).unwrap_or(false),
            note: s("note"),
        });
    }
    Ok(rows)
}

impl Reference {
    /// Runs it (unless something is missing) and collects its rows.
    pub fn run(&self) -> Run {
        if let Some(why) = &self.missing {
            return Run::Skipped(why.clone());
        }
        eprintln!("== {} ==", self.name);
        let out = match Command::new(&self.program)
            .args(&self.args)
            .stderr(std::process::Stdio::inherit())
            .output()
        {
            Ok(o) => o,
            Err(e) => return Run::Skipped(format!("cannot start {:?}: {e}", self.program)),
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        let rows = parse_rows(&stdout);
        match (out.status.code(), rows) {
            // Exit code 3: the runner found its reference not installed (it said why on stderr).
            (Some(3), _) => Run::Skipped("not installed (see the runner's message above)".into()),
            (Some(0), Ok(rows)) => Run::Rows(rows),
            (_, Ok(rows)) if !rows.is_empty() => Run::Rows(rows),
            (code, Ok(_)) => Run::Failed(format!("runner exited with {code:?} and no results")),
            (_, Err(e)) => Run::Failed(e),
        }
    }
}

/// Where the references live; `None` means "not given".
#[derive(Debug, Clone, Default)]
pub struct Locations {
    /// The refvm checkout (scratch-vm 5.0.300 after `npm install`).
    pub refvm: Option<PathBuf>,
    /// Directory holding the unpacked `@turbowarp/scaffolding` package (`package/dist/...`).
    pub turbowarp: Option<PathBuf>,
    /// Checkout of machine-teaching-group/aied2024-xlogo-tasksyn.
    pub xlogo_repo: Option<PathBuf>,
    /// Checkout of hyunjun1121/DrawingBench.
    pub drawingbench_repo: Option<PathBuf>,
    /// The shared material (tasks, recorded sequences).
    pub shared: Option<PathBuf>,
}

fn os(s: impl Into<OsString>) -> OsString {
    s.into()
}

fn script(name: &str) -> OsString {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference").join(name).into_os_string()
}

/// The Scratch references (scratch-vm, TurboWarp) for the given workloads.
pub fn scratch_references(loc: &Locations, runs: usize, only: &str) -> Vec<Reference> {
    let node = have_program("node");
    let mut refs = Vec::new();
    let common = |extra: Vec<OsString>| {
        let mut a = extra;
        a.extend([os("--runs"), os(runs.to_string()), os("--only"), os(only)]);
        a
    };
    let missing_node = (!node).then(|| "node is not installed".to_string());
    let refvm_missing = match &loc.refvm {
        None => {
            Some("no refvm checkout (give --refvm DIR or put ../shared beside the checkout)".into())
        }
        Some(d) if !d.join("node_modules/scratch-vm/package.json").is_file() => {
            Some(format!("scratch-vm not installed: run `npm install` in {}", d.display()))
        }
        Some(_) => None,
    };
    refs.push(Reference {
        name: "scratch-vm".into(),
        program: os("node"),
        args: common(vec![
            script("scratch-vm.js"),
            os("--refvm"),
            loc.refvm.clone().unwrap_or_default().into_os_string(),
        ]),
        missing: missing_node.clone().or(refvm_missing),
    });
    let tw_missing = match &loc.turbowarp {
        None => Some("no TurboWarp directory given (--turbowarp DIR)".into()),
        Some(d) if !d.join("package/dist/scaffolding-min.js").is_file() => Some(format!(
            "TurboWarp not installed in {}: run `node benches/reference/turbowarp.js --install --work-dir {}`",
            d.display(),
            d.display()
        )),
        Some(_) => None,
    };
    refs.push(Reference {
        name: "TurboWarp".into(),
        program: os("node"),
        args: common(vec![
            script("turbowarp.js"),
            os("--work-dir"),
            loc.turbowarp.clone().unwrap_or_default().into_os_string(),
        ]),
        missing: missing_node.or(tw_missing),
    });
    refs
}

/// The Python interpreter for the Python references: the given one, else the venv made by the
/// install steps in docs/performance.md (`$XDG_CACHE_HOME/gobo-bench/venv`), else `python3`.
pub fn python_for_references(given: Option<PathBuf>) -> OsString {
    if let Some(p) = given {
        return p.into_os_string();
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    if let Some(venv) = cache.map(|c| c.join("gobo-bench/venv/bin/python")) {
        if venv.is_file() {
            return venv.into_os_string();
        }
    }
    os("python3")
}

/// The Python references (XLogo emulator, DrawingBench evaluator); `runs` timed runs each.
pub fn python_references(loc: &Locations, runs: usize, python: &OsString) -> Vec<Reference> {
    let have_python =
        Command::new(python).arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    let no_python = (!have_python).then(|| format!("{python:?} cannot be started"));
    let no_shared = loc.shared.is_none().then(|| "no ../shared (set GOBO_SHARED)".to_string());
    let shared = loc.shared.clone().unwrap_or_default();
    let runs = os(runs.to_string());
    let mut refs = Vec::new();
    refs.push(Reference {
        name: "XLogo (Python)".into(),
        program: python.clone(),
        args: vec![
            script("xlogo.py"),
            os("--runs"),
            runs.clone(),
            os("--repo"),
            loc.xlogo_repo.clone().unwrap_or_default().into_os_string(),
            os("--tasks"),
            shared.join("xlogo/real_tasks.jsonl").into_os_string(),
        ],
        missing: no_python.clone().or(no_shared.clone()).or_else(|| {
            loc.xlogo_repo
                .is_none()
                .then(|| "no aied2024-xlogo-tasksyn checkout given (--xlogo-repo DIR)".into())
        }),
    });
    refs.push(Reference {
        name: "DrawingBench (Python)".into(),
        program: python.clone(),
        args: vec![
            script("drawingbench.py"),
            os("--runs"),
            runs,
            os("--repo"),
            loc.drawingbench_repo.clone().unwrap_or_default().into_os_string(),
            os("--shared"),
            shared.join("drawingbench").into_os_string(),
        ],
        missing: no_python.or(no_shared).or_else(|| {
            loc.drawingbench_repo
                .is_none()
                .then(|| "no DrawingBench checkout given (--drawingbench-repo DIR)".into())
        }),
    });
    refs
}
