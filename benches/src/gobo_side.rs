//! gobo's figures for the comparison table: each workload timed in-process through the same
//! library calls the criterion benches use. A workload whose gobo side does not exist yet is
//! reported as [`Outcome::Unavailable`] with the reason, never guessed.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::evaluate::{DrawingCases, XlogoCases};
use crate::scratch_vm;
use crate::suite::{Mode, Suite, Workload};

/// One measured figure ("higher is better", in `unit`).
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub value: f64,
    pub unit: String,
    pub median_ms: f64,
    pub runs: usize,
    /// Set when the results were not all as expected (says what differed): a wrong result,
    /// so `compare` marks the figure with `!` and fails.
    pub note: Option<String>,
    /// The same figure per CPU-second of the measuring thread, where measured: on a
    /// shared machine wall time includes waiting for a core.
    pub cpu_value: Option<f64>,
}

/// A figure, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Figure(Figure),
    Unavailable(String),
}

/// Median of `runs` timings of `f` after one untimed warm-up call.
pub fn median_ms(runs: usize, mut f: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    f()?;
    let mut times: Vec<Duration> = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed());
    }
    times.sort();
    let mid = times.len() / 2;
    let ms = if times.len() % 2 == 1 {
        times[mid].as_secs_f64() * 1e3
    } else {
        (times[mid - 1] + times[mid]).as_secs_f64() * 1e3 / 2.0
    };
    Ok(ms)
}

/// Turns a median time for `work` units into a figure in `unit`.
pub fn figure(unit: &str, work: f64, median_ms: f64, runs: usize) -> Figure {
    let value = if median_ms > 0.0 { work / (median_ms / 1e3) } else { f64::INFINITY };
    Figure { value, unit: unit.to_string(), median_ms, runs, note: None, cpu_value: None }
}

/// Throughput of `pass` (which does `per_pass` units of work): one untimed warm-up pass, then
/// `runs` runs, each repeating passes for at least `min_secs`; the median rate and the median
/// time of one pass.
pub fn rate(
    runs: usize,
    min_secs: f64,
    per_pass: usize,
    mut pass: impl FnMut() -> Result<(), String>,
) -> Result<(f64, f64), String> {
    pass()?;
    let mut rates = Vec::with_capacity(runs.max(1));
    let mut pass_ms = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let mut passes = 0u32;
        while passes == 0 || start.elapsed().as_secs_f64() < min_secs {
            pass()?;
            passes += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        rates.push(f64::from(passes) * per_pass as f64 / secs);
        pass_ms.push(secs * 1e3 / f64::from(passes));
    }
    Ok((median(&mut rates), median(&mut pass_ms)))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[mid],
        _ => (v[mid - 1] + v[mid]) / 2.0,
    }
}

/// gobo's evaluations/s on the XLogo REAL tasks, from parsed JSON values like the Python
/// reference (`None` shared material: unavailable).
pub fn xlogo(shared: Option<&Path>, runs: usize) -> Outcome {
    let Some(shared) = shared else {
        return Outcome::Unavailable("no ../shared (set GOBO_SHARED)".into());
    };
    let cases = match XlogoCases::load(shared) {
        Ok(c) => c,
        Err(e) => return Outcome::Unavailable(e),
    };
    let n = cases.cases.len();
    let ok = match cases.run_parsed() {
        Ok(ok) => ok,
        Err(e) => return Outcome::Unavailable(format!("evaluation failed: {e}")),
    };
    match rate(runs, 0.5, n, || cases.run_parsed().map(drop)) {
        Ok((value, ms)) => {
            let mut f = Figure {
                value,
                unit: "evaluations/s".into(),
                median_ms: ms,
                runs,
                note: None,
                cpu_value: None,
            };
            if ok != n {
                f.note = Some(format!("{ok} of {n} reference solutions succeed"));
            }
            Outcome::Figure(f)
        }
        Err(e) => Outcome::Unavailable(e),
    }
}

/// gobo's evaluations/s on DrawingBench's recorded turns, from parsed actions like the Python
/// reference.
pub fn drawing(shared: Option<&Path>, runs: usize) -> Outcome {
    let Some(shared) = shared else {
        return Outcome::Unavailable("no ../shared (set GOBO_SHARED)".into());
    };
    let cases = match DrawingCases::load(shared) {
        Ok(c) => c,
        Err(e) => return Outcome::Unavailable(e),
    };
    let n = cases.cases.len();
    let same = match cases.run_parsed() {
        Ok(s) => s,
        Err(e) => return Outcome::Unavailable(format!("evaluation failed: {e}")),
    };
    match rate(runs, 0.5, n, || cases.run_parsed().map(drop)) {
        Ok((value, ms)) => {
            let mut f = Figure {
                value,
                unit: "evaluations/s".into(),
                median_ms: ms,
                runs,
                note: None,
                cpu_value: None,
            };
            if same != n {
                f.note = Some(format!("{same} of {n} scores equal the recorded ones"));
            }
            Outcome::Figure(f)
        }
        Err(e) => Outcome::Unavailable(e),
    }
}

/// gobo's figure for a Scratch workload: `load` workloads time load + compile; the others
/// run on the VM like the reference runners run theirs (see [`crate::scratch_vm`]).
pub fn scratch(suite: &Suite, w: &Workload, runs: usize) -> Outcome {
    let bytes = match std::fs::read(&w.path) {
        Ok(b) => b,
        Err(e) => return Outcome::Unavailable(format!("cannot read {}: {e}", w.path.display())),
    };
    if w.mode == Mode::Load {
        let timed = median_ms(runs, || {
            let project = gobo::scratch::project::load(&bytes).map_err(|e| e.to_string())?;
            gobo::scratch::compile::compile(&project).map(drop).map_err(|e| e.to_string())
        });
        return match timed {
            Ok(ms) => Outcome::Figure(figure(&w.unit, 1.0, ms, runs)),
            Err(e) => Outcome::Unavailable(format!("load failed: {e}")),
        };
    }
    let img = match scratch_vm::image(w) {
        Ok(i) => i,
        Err(e) => return Outcome::Unavailable(e),
    };
    let cfg = scratch_vm::config(suite);
    let first = match scratch_vm::run_once(&img, &cfg, w) {
        Ok(r) => r,
        Err(e) => return Outcome::Unavailable(e),
    };
    // Every run's end state is checked, the timed ones included: a run that skipped work
    // (or computed something else) must not give a figure that looks good.
    let mut misses = first.misses.clone();
    let mut times = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        match scratch_vm::run_once(&img, &cfg, w) {
            Ok(t) => {
                times.push(t.ms);
                add_misses(&mut misses, t.misses);
            }
            Err(e) => return Outcome::Unavailable(e),
        }
    }
    let ms = median(&mut times);
    let work = match w.mode {
        Mode::UntilIdle { iterations, .. } => iterations as f64,
        _ => f64::from(first.frames),
    };
    let mut f = figure(&w.unit, work, ms, runs);
    f.cpu_value = cpu_rate(&img, &cfg, w, work, &mut misses);
    if !misses.is_empty() {
        f.note = Some(format!("end state differs: {}", misses.join(", ")));
    }
    Outcome::Figure(f)
}

/// Adds the misses of one run that are not listed yet.
fn add_misses(all: &mut Vec<String>, run: Vec<String>) {
    for m in run {
        if !all.contains(&m) {
            all.push(m);
        }
    }
}

/// Work per CPU-second of this thread over timed parts adding up to at least 0.3 CPU-seconds
/// (schedstat advances in scheduler ticks, so single short runs are too coarse; the sum over
/// many runs is not). None without schedstat.
fn cpu_rate(
    img: &gobo::scratch::image::Image,
    cfg: &gobo::scratch::vm::Config,
    w: &Workload,
    work: f64,
    misses: &mut Vec<String>,
) -> Option<f64> {
    let (mut cpu_ms, mut done, mut n) = (0.0, 0.0, 0u32);
    while cpu_ms < 300.0 && n < 100_000 {
        let t = scratch_vm::run_once(img, cfg, w).ok()?;
        add_misses(misses, t.misses);
        cpu_ms += t.cpu_ms?;
        done += work;
        n += 1;
    }
    (cpu_ms > 0.0).then(|| done / (cpu_ms / 1e3))
}
