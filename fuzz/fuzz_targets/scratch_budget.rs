//! Runaway programs under small budgets: any `project.json` that loads (the seeds are the
//! runaway programs of `core/tests/fixtures/scratch/runaway/`: unbounded recursion, a list of
//! big strings, a doubling string) runs at most 60 frames and either finishes or halts with a
//! stop reason; the VM's accounted memory stays under its ceiling plus one scan's growth.
#![no_main]

use gobo::scratch::compile::compile;
use gobo::scratch::project;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::run_frames;
use gobo::scratch::vm::{Config, Vm};
use libfuzzer_sys::fuzz_target;

const MIB: usize = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let Ok(p) = project::load(data) else { return };
    let Ok(img) = compile(&p) else { return };
    let cfg = Config {
        max_string_len: 256 << 10,
        max_list_bytes: 4 * MIB,
        max_memory: 16 * MIB,
        max_call_depth: 20_000,
        max_threads: 2_000,
        max_frame_work: 64 * MIB as u64,
        max_clones: 30,
        ticks_per_frame: 200,
        warp_checks: 20_000,
        ..Config::default()
    };
    let ceiling = cfg.max_memory + 2 * MIB + 2 * cfg.max_string_len;
    let Ok(mut vm) = Vm::new(img, cfg) else { return };
    let mut frames = 0u64;
    run_frames(&mut vm, &Scenario::green_flag(), 60, true, &mut |_| frames += 1);
    assert_eq!(frames, vm.frame(), "one line per completed frame");
    let used = vm.memory_estimate();
    assert!(used <= ceiling, "accounted memory {used} over the ceiling {ceiling}");
});
