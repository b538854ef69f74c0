//! Fused-vs-general differential test: every Scratch project in the repository (goldens,
//! examples, bench workloads and `fixtures/scratch/fused`, which holds every fusible shape next
//! to general ones) runs twice, with `Config::fuse` on and off, under several warp-check and
//! tick budgets; the trace lines (every frame's state), the number of random draws and the
//! block operations (`Vm::block_ops`, after every frame) must be identical. The fused forms (`vm::fast`) promise exactly scratch-vm's behaviour, including
//! where warp loops run out of warp checks. The register tier (`Config::tier`) is off in both
//! runs here (`scratch_tier.rs` compares it with the interpreter).

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::frame_line;
use gobo::scratch::vm::{Config, Vm};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (name, project.json path, scenario.json path if any).
fn projects() -> Vec<(String, PathBuf, Option<PathBuf>)> {
    let mut out = Vec::new();
    let dirs = ["core/tests/golden/scratch", "examples/scratch"];
    for d in dirs {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root().join(d))
            .expect("project folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("project.json").is_file())
            .collect();
        entries.sort();
        for p in entries {
            let sc = p.join("scenario.json");
            let name = format!("{d}/{}", p.file_name().unwrap_or_default().to_string_lossy());
            out.push((name, p.join("project.json"), sc.is_file().then_some(sc)));
        }
    }
    let fused = root().join("core/tests/fixtures/scratch/fused/project.json");
    out.push(("fixtures/scratch/fused".into(), fused, None));
    let mut benches: Vec<PathBuf> = std::fs::read_dir(root().join("benches/workloads/scratch"))
        .expect("bench workloads")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".project.json"))
        .collect();
    benches.sort();
    for p in benches {
        let name = format!("benches/{}", p.file_name().unwrap_or_default().to_string_lossy());
        out.push((name, p, None));
    }
    out
}

/// The trace lines (each with the block operations so far) and the random draws of `frames`
/// frames (as `trace::run_frames` writes them: none for a frame a budget abandoned).
fn run(project: &[u8], sc: &Scenario, cfg: Config, frames: u64) -> (Vec<String>, u64) {
    let img = compile(&load(project).expect("load")).expect("compile");
    let mut vm = Vm::new(img, cfg).expect("vm");
    let mut lines = Vec::new();
    for f in 0..frames {
        let (names, inputs): (Vec<&str>, Vec<_>) =
            sc.at(f).map(|(_, name, input)| (name.as_str(), input.clone())).unzip();
        vm.step_frame(&inputs);
        if vm.stopped().is_some() {
            break;
        }
        let line = frame_line(&vm.observe(), &names);
        lines.push(format!("{line} block_ops={}", vm.block_ops()));
    }
    (lines, vm.random_calls())
}

#[test]
fn fused_forms_equal_the_general_path() {
    // (warp checks, passes per frame): the reference budget, warp loops cut after every
    // check or a few, and a single pass per frame.
    let budgets = [(1_000_000, 1000), (1, 1000), (7, 3), (1000, 1)];
    let mut checked = 0;
    for (name, path, scenario) in projects() {
        let bytes = std::fs::read(&path).expect("project");
        let sc = match &scenario {
            Some(p) => Scenario::parse(&std::fs::read(p).expect("scenario")).expect("scenario"),
            None => Scenario::green_flag(),
        };
        for (warp_checks, ticks) in budgets {
            // The register tier off: it would take the compute loops from both paths.
            let cfg =
                Config { warp_checks, ticks_per_frame: ticks, tier: false, ..Config::default() };
            let general = run(&bytes, &sc, Config { fuse: false, ..cfg.clone() }, 45);
            let fused = run(&bytes, &sc, cfg, 45);
            let at = general.0.iter().zip(&fused.0).position(|(a, b)| a != b);
            if let Some(i) = at {
                panic!(
                    "{name} (warp checks {warp_checks}, passes {ticks}): frame line {i} differs\n\
                     general: {}\nfused:   {}",
                    general.0[i], fused.0[i]
                );
            }
            assert_eq!(general.0.len(), fused.0.len(), "{name}: frame count");
            assert_eq!(general.1, fused.1, "{name}: random draws");
            checked += 1;
        }
    }
    assert!(checked >= 4 * 16, "only {checked} runs: projects missing?");
}

#[test]
fn fixture_really_runs_its_loops() {
    // Guard against a fixture that silently does nothing: the warp procedure's loops ran.
    let path = root().join("core/tests/fixtures/scratch/fused/project.json");
    let bytes = std::fs::read(path).expect("fixture");
    let (lines, draws) = run(&bytes, &Scenario::green_flag(), Config::default(), 45);
    let last = lines.last().expect("frames");
    for want in ["\"a\":50", "\"n\":41", "\"w\":3000", "\"big\":\"1\"", "\"q\":5", "\"never\":0"] {
        assert!(last.contains(want), "{want} missing in {last}");
    }
    // `repeat (pick random 3 to 6)` evaluates its input on every execution, as scratch-vm's
    // `execute` does: 5 iterations (seed 1) and the final check are 6 draws.
    assert!(last.contains("\"r\":5"), "{last}");
    assert_eq!(draws, 6, "one draw per execution of the random repeat");
}
