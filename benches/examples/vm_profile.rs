//! `vm_profile WORKLOAD [RUNS]`: runs one Scratch workload's timed part `RUNS` times (default 3)
//! and nothing else, for profilers (`valgrind --tool=callgrind`, `perf record`): no references,
//! no table. Prints the CPU milliseconds of the timed parts and whether the end state is right.

use std::path::Path;

use gobo_benches::scratch_vm;
use gobo_benches::suite::Suite;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let name = args.next().ok_or("usage: vm_profile WORKLOAD [RUNS]")?;
    let runs: u32 = args.next().map_or(Ok(3), |r| r.parse()).map_err(|e| format!("{e}"))?;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("workloads/scratch");
    let suite = Suite::load(&dir).map_err(|e| e.to_string())?;
    let w = suite.get(&name).ok_or_else(|| format!("no workload {name}"))?;
    let img = scratch_vm::image(w)?;
    let cfg = scratch_vm::config(&suite);
    let mut cpu = 0.0;
    for _ in 0..runs {
        let t = scratch_vm::run_once(&img, &cfg, w)?;
        cpu += t.cpu_ms.unwrap_or(t.ms);
        if !t.misses.is_empty() {
            return Err(format!("{name}: end state differs: {:?}", t.misses));
        }
    }
    println!("{name}: {runs} runs, {cpu:.1} CPU ms in the timed parts");
    Ok(())
}
