//! gobo's Scratch VM driven the way the reference runners drive theirs (same workload list,
//! same frame procedure): load + compile untimed, an idle frame 0, the green flag at frame 1,
//! optional untimed settling frames, then the timed frames; the end state is checked against
//! the workload's `check`.

use std::time::Instant;

use gobo::scratch::compile::compile;
use gobo::scratch::image::Image;
use gobo::scratch::project::load;
use gobo::scratch::value::Value;
use gobo::scratch::vm::{Config, Input, Vm};
use gobo_host::skins::{attach_skins, SkinOptions};

use crate::suite::{Mode, Suite, Workload};

/// Reads, loads and compiles a workload's project and attaches its costume skins (as
/// `gobo run` does): with skins the VM fences and bounces sprites like scratch-vm with a
/// renderer, which is how the references run (refvm's and the TurboWarp runner's stub
/// renderers fence too).
pub fn image(w: &Workload) -> Result<Image, String> {
    let files = gobo_host::sb3::load_path(&w.path).map_err(|e| format!("{}: {e}", w.name))?;
    let project = load(&files.project_json).map_err(|e| format!("{}: {e}", w.name))?;
    let mut image = compile(&project).map_err(|e| format!("{}: {e}", w.name))?;
    let warnings = attach_skins(&mut image, &project, &files, &SkinOptions::default());
    if let Some(w0) = warnings.first() {
        return Err(format!("{}: costume skins: {w0}", w.name));
    }
    Ok(image)
}

/// The VM configuration every implementation uses for the suite.
pub fn config(suite: &Suite) -> Config {
    Config {
        fps: suite.fps,
        ticks_per_frame: suite.ticks_per_frame,
        warp_checks: u32::try_from(suite.warp_checks).unwrap_or(u32::MAX),
        seed: suite.seed,
        ..Config::default()
    }
}

/// A VM at the start of the timed part: idle frame 0 done; when the workload settles, the
/// green flag and the settling frames done too. `flag_pending` says the flag is still due.
#[derive(Debug)]
pub struct Ready {
    pub vm: Vm,
    pub flag_pending: bool,
}

/// Creates the VM and runs the untimed frames.
pub fn ready(img: Image, cfg: Config, w: &Workload) -> Result<Ready, String> {
    let mut vm = Vm::new(img, cfg).map_err(|e| format!("{}: {e}", w.name))?;
    vm.step_frame(&[]);
    let settle = match w.mode {
        Mode::Frames { settle_frames, .. } => settle_frames,
        _ => 0,
    };
    if settle == 0 {
        return Ok(Ready { vm, flag_pending: true });
    }
    vm.step_frame(&[Input::GreenFlag]);
    for _ in 1..settle {
        vm.step_frame(&[]);
    }
    Ok(Ready { vm, flag_pending: false })
}

/// Runs the timed frames; returns how many ran.
pub fn timed_frames(r: &mut Ready, w: &Workload) -> u32 {
    let (limit, until_idle) = match w.mode {
        Mode::UntilIdle { max_frames, .. } => (max_frames, true),
        Mode::Frames { frames, .. } => (frames, false),
        Mode::Load => (0, false),
    };
    let mut n = 0;
    while n < limit {
        if until_idle && n > 0 && r.vm.thread_count() == 0 {
            break;
        }
        if r.flag_pending {
            r.vm.step_frame(&[Input::GreenFlag]);
            r.flag_pending = false;
        } else {
            r.vm.step_frame(&[]);
        }
        n += 1;
    }
    n
}

fn number(v: &Value) -> f64 {
    match v {
        Value::Num(n) => *n,
        Value::Str(s) => s.trim().parse().unwrap_or(f64::NAN),
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Undefined => f64::NAN,
    }
}

/// The workload's `check` entries that the VM's end state does not meet.
pub fn check(vm: &Vm, w: &Workload) -> Vec<String> {
    let obs = vm.observe();
    let mut misses = Vec::new();
    for (key, want) in &w.check {
        let got = if key == "clones" {
            Some(f64::from(obs.clones))
        } else {
            obs.globals.iter().find(|(name, _)| &**name == key.as_str()).map(|(_, v)| number(v))
        };
        if got != Some(*want) {
            misses.push(format!("{key}={got:?} (want {want})"));
        }
    }
    misses
}

/// CPU time this thread has run, in ms, from Linux's schedstat (None elsewhere). Wall time on a
/// shared machine includes time the thread waited for a core; this does not.
pub fn thread_cpu_ms() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e6)
}

/// One timed run.
#[derive(Debug, Clone)]
pub struct Timed {
    /// Wall milliseconds of the timed frames.
    pub ms: f64,
    /// CPU milliseconds of this thread during the timed frames (None without schedstat).
    pub cpu_ms: Option<f64>,
    /// Timed frames run.
    pub frames: u32,
    /// The check's misses.
    pub misses: Vec<String>,
}

/// One timed run: wall and CPU time of the timed frames, how many, and the check's misses.
pub fn run_once(img: &Image, cfg: &Config, w: &Workload) -> Result<Timed, String> {
    let mut r = ready(img.clone(), cfg.clone(), w)?;
    let cpu = thread_cpu_ms();
    let start = Instant::now();
    let frames = timed_frames(&mut r, w);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let cpu_ms = match (cpu, thread_cpu_ms()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok(Timed { ms, cpu_ms, frames, misses: check(&r.vm, w) })
}
