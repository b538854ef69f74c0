//! `scenario_time PROJECT [RUNS]`: a project folder (its costumes attached as `gobo run` does)
//! run through its `scenario.json` `RUNS` times (default 5) with `Config::touch_memo` on and
//! off, printing the thread CPU milliseconds of the frames alone (loading, skins and
//! compiling are outside), best and median, and checking that both give the same trace.
//! For the idle-polling figure of docs/performance.md (`hosts/host/tests/fixtures/maze_idle`).

use std::path::PathBuf;

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::frame_line;
use gobo::scratch::vm::{Config, Input, Vm};
use gobo_benches::scratch_vm::thread_cpu_ms;
use gobo_host::skins::{attach_skins, SkinOptions};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: scenario_time PROJECT [RUNS]")?);
    let runs: usize = args.next().map_or(Ok(5), |r| r.parse()).map_err(|e| format!("{e}"))?;
    let files = gobo_host::sb3::load_path(&dir).map_err(|e| e.to_string())?;
    let project = load(&files.project_json).map_err(|e| e.to_string())?;
    let mut img = compile(&project).map_err(|e| e.to_string())?;
    let warnings = attach_skins(&mut img, &project, &files, &SkinOptions::default());
    if !warnings.is_empty() {
        return Err(format!("skins: {warnings:?}"));
    }
    let bytes = std::fs::read(dir.join("scenario.json")).map_err(|e| e.to_string())?;
    let scenario = Scenario::parse(&bytes).map_err(|e| e.to_string())?;
    let frames = scenario.frames.unwrap_or(300);
    let mut last = Vec::new();
    for memo in [true, false] {
        let mut ms = Vec::new();
        for _ in 0..runs {
            let mut vm = Vm::new(img.clone(), Config { touch_memo: memo, ..Config::default() })
                .map_err(|e| e.to_string())?;
            let start = thread_cpu_ms().ok_or("no thread CPU clock")?;
            for f in 0..frames {
                let inputs: Vec<Input> = scenario.at(f).map(|e| e.2.clone()).collect();
                vm.step_frame(&inputs);
            }
            ms.push(thread_cpu_ms().ok_or("no thread CPU clock")? - start);
            last.push(frame_line(&vm.observe(), &[]));
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "touch_memo {memo}: {frames} frames, best {:.1} ms, median {:.1} ms CPU ({runs} runs)",
            ms[0],
            ms[ms.len() / 2]
        );
    }
    if last.windows(2).any(|w| w[0] != w[1]) {
        return Err("the runs end in different states".into());
    }
    Ok(())
}
