//! Load phase: `project.json` bytes → gobo's Scratch project model, for every checked-in
//! workload (the large project is the one that matters; the small ones show fixed costs).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gobo_benches::suite::Suite;

fn load(c: &mut Criterion) {
    let suite = match Suite::load(&gobo_benches::scratch_workloads_dir()) {
        Ok(s) => s,
        Err(e) => panic!("benches/workloads/scratch: {e}"),
    };
    let mut group = c.benchmark_group("load/scratch_project_json");
    for w in &suite.workloads {
        let bytes = match std::fs::read(&w.path) {
            Ok(b) => b,
            Err(e) => panic!("{}: {e}", w.path.display()),
        };
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(&w.name, |b| {
            b.iter(|| gobo::scratch::project::load(std::hint::black_box(&bytes)))
        });
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
