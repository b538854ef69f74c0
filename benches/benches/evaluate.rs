//! Evaluate phase: XLogo evaluations of the 85 REAL tasks' reference solutions and DrawingBench
//! evaluations of the 308 recorded turns, from JSON text (`from_text`: parsed every time) and
//! from parsed values (`from_values`: the references' input form). The inputs are the shared material (`../shared`); without it the bench
//! prints that it skipped and measures nothing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gobo_benches::evaluate::{DrawingCases, XlogoCases};

fn evaluate(c: &mut Criterion) {
    let Some(shared) = gobo_benches::shared_dir() else {
        eprintln!("evaluate: skipped: no ../shared (set GOBO_SHARED)");
        return;
    };
    let mut group = c.benchmark_group("evaluate");
    match XlogoCases::load(&shared) {
        Ok(cases) => {
            group.throughput(Throughput::Elements(cases.cases.len() as u64));
            group.bench_function("xlogo_real/from_text", |b| b.iter(|| cases.run()));
            group.bench_function("xlogo_real/from_values", |b| b.iter(|| cases.run_parsed()));
        }
        Err(e) => eprintln!("evaluate/xlogo_real: skipped: {e}"),
    }
    match DrawingCases::load(&shared) {
        Ok(cases) => {
            group.throughput(Throughput::Elements(cases.cases.len() as u64));
            group.bench_function("drawingbench_recorded/from_text", |b| b.iter(|| cases.run()));
            group.bench_function("drawingbench_recorded/from_values", |b| {
                b.iter(|| cases.run_parsed())
            });
        }
        Err(e) => eprintln!("evaluate/drawingbench_recorded: skipped: {e}"),
    }
    group.finish();
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
