//! Evaluate phase, Scratch test suites: the verdict of one 10-virtual-second case (300 frames of
//! the `timing` example: blinking, motion, growth, three clones) with 13 steps of waits,
//! intervals, monotonic sequences, extents and clone checks. Frames come from a reference trace
//! (`benches/workloads/suite/timing-10s.jsonl`, scratch-vm 5.0.300) replayed by `TraceSubject`:
//! `verdict/from_text` parses suite, project and trace every time (what `gobo test --trace`
//! does), `verdict/runner` replays pre-read frames (the runner and its checks alone).
//! `verdict/vm` runs the same case live on gobo's VM (`VmSubject`, what `gobo test` does
//! without `--trace`) from a compiled image; `verdict/vm_from_text` also loads and compiles
//! the project and parses the suite.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gobo::scratch::compile::compile;
use gobo::scratch::image::Image;
use gobo::scratch::project::load;
use gobo::scratch::suite::model::Case;
use gobo::scratch::suite::{
    load_suite, run_case, CaseVerdict, ProjectFacts, TraceSubject, VmSubject,
};

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
    let img = compile(&load(project.as_bytes()).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let seed = suite.seed;
    let live = |img: &Image, case: &Case, fps: u32, facts: &ProjectFacts| -> CaseVerdict {
        let mut s = VmSubject::new(img.clone(), fps, seed).unwrap_or_else(|e| panic!("{e}"));
        run_case(case, fps, facts, &mut s)
    };
    let check = live(&img, case, suite.fps, &facts);
    assert!(check.passed && check.frames == 300, "live VM: {check:?}");
    group.bench_function("verdict/vm", |b| b.iter(|| live(&img, case, suite.fps, &facts).passed));
    group.bench_function("verdict/vm_from_text", |b| {
        b.iter(|| {
            let (suite, facts) =
                load_suite(&suite_text, &project).unwrap_or_else(|e| panic!("{e}"));
            let img = compile(&load(project.as_bytes()).unwrap_or_else(|e| panic!("{e}")))
                .unwrap_or_else(|e| panic!("{e}"));
            live(&img, &suite.cases[0], suite.fps, &facts).passed
        })
    });
    group.finish();
}

criterion_group!(benches, suite);
criterion_main!(benches);
