//! Evaluate phase, Scratch test suites: the verdict of one 10-virtual-second case (300 frames of
//! the `timing` example: blinking, motion, growth, three clones) with 13 steps of waits,
//! intervals, monotonic sequences, extents and clone checks. Frames come from a reference trace
//! (`benches/workloads/suite/timing-10s.jsonl`, scratch-vm 5.0.300) replayed by `TraceSubject`:
//! `verdict/from_text` parses suite, project and trace every time (what `gobo test --trace`
//! does), `verdict/runner` replays pre-read frames (the runner and its checks alone).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gobo::scratch::suite::{load_suite, run_case, TraceSubject};

fn suite(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read =
        |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let project = read("../examples/scratch/timing/project.json");
    let suite_text = read("workloads/suite/suite-10s.json");
    let trace = read("workloads/suite/timing-10s.jsonl");
    let (suite, facts) = load_suite(&suite_text, &project).unwrap_or_else(|e| panic!("{e}"));
    let subject = TraceSubject::new(&trace, true).unwrap_or_else(|e| panic!("{e}"));
    let case = &suite.cases[0];
    let check = run_case(case, suite.fps, &facts, &mut subject.clone());
    assert!(check.passed && check.frames == 300, "{check:?}");

    let mut group = c.benchmark_group("suite");
    group.throughput(Throughput::Elements(1));
    group.bench_function("verdict/from_text", |b| {
        b.iter(|| {
            let (suite, facts) =
                load_suite(&suite_text, &project).unwrap_or_else(|e| panic!("{e}"));
            let mut s = TraceSubject::new(&trace, true).unwrap_or_else(|e| panic!("{e}"));
            run_case(&suite.cases[0], suite.fps, &facts, &mut s).passed
        })
    });
    group.bench_function("verdict/runner", |b| {
        b.iter(|| run_case(case, suite.fps, &facts, &mut subject.clone()).passed)
    });
    group.finish();
}

criterion_group!(benches, suite);
criterion_main!(benches);
