//! Compile phase: gobo's project model → program image, for every checked-in workload (the
//! large project is the one that matters).

use criterion::{criterion_group, criterion_main, Criterion};
use gobo::scratch::compile::compile;
use gobo_benches::suite::Suite;

fn compile_phase(c: &mut Criterion) {
    let suite = match Suite::load(&gobo_benches::scratch_workloads_dir()) {
        Ok(s) => s,
        Err(e) => panic!("benches/workloads/scratch: {e}"),
    };
    let mut group = c.benchmark_group("compile/scratch");
    for w in &suite.workloads {
        let project = match std::fs::read(&w.path)
            .map_err(|e| e.to_string())
            .and_then(|b| gobo::scratch::project::load(&b).map_err(|e| e.to_string()))
        {
            Ok(p) => p,
            Err(e) => panic!("{}: {e}", w.name),
        };
        group.bench_function(&w.name, |b| b.iter(|| compile(std::hint::black_box(&project))));
    }
    group.finish();
}

criterion_group!(benches, compile_phase);
criterion_main!(benches);
