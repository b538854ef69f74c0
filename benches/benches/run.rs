//! Run phase: every Scratch workload that runs frames, on gobo's VM, the way the comparison
//! runs it (idle frame 0 and settling frames untimed; the timed part is the green flag and the
//! frames that follow, until idle or for the workload's frame count).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use gobo_benches::scratch_vm;
use gobo_benches::suite::{Mode, Suite};

fn run(c: &mut Criterion) {
    let suite = match Suite::load(&gobo_benches::scratch_workloads_dir()) {
        Ok(s) => s,
        Err(e) => panic!("benches/workloads/scratch: {e}"),
    };
    let cfg = scratch_vm::config(&suite);
    let mut group = c.benchmark_group("run/scratch");
    group.sample_size(20);
    for w in &suite.workloads {
        let work = match w.mode {
            Mode::UntilIdle { iterations, .. } => iterations,
            Mode::Frames { frames, .. } => u64::from(frames),
            Mode::Load => continue,
        };
        let img = match scratch_vm::image(w) {
            Ok(i) => i,
            Err(e) => panic!("{e}"),
        };
        group.throughput(Throughput::Elements(work));
        group.bench_function(&w.name, |b| {
            b.iter_batched(
                || match scratch_vm::ready(img.clone(), cfg.clone(), w) {
                    Ok(r) => r,
                    Err(e) => panic!("{e}"),
                },
                |mut r| scratch_vm::timed_frames(&mut r, w),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, run);
criterion_main!(benches);
