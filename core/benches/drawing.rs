//! DrawingBench evaluation speed over the recorded model turns of the 250 tasks
//! (`../shared/drawingbench/recorded_batch_results_all_all.json`: 308 turns; falls back to the
//! checked-in `examples/drawing/` sequences when `../shared` is absent). Phases: evaluate (raw
//! text to verdict; `_reused`: one `Evaluator` for the batch, its buffers kept), evaluate-parsed
//! (actions already parsed), feedback, paper, render. Run: `cargo bench -p gobo --bench drawing`.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gobo::drawing::actions::Actions;
use gobo::drawing::raster::Canvas;
use gobo::drawing::task::{dataset_from_json, Criteria, Task};
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{judge, paper, reference, Evaluator};

fn workload() -> Vec<(Criteria, String)> {
    let shared = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
        .join("drawingbench");
    let dataset = std::fs::read_to_string(shared.join("dataset_consolidated.json"));
    let recorded = std::fs::read_to_string(shared.join("recorded_batch_results_all_all.json"));
    if let (Ok(d), Ok(r)) = (dataset, recorded) {
        let tasks = dataset_from_json(&d).expect("dataset");
        let records: serde_json::Value = serde_json::from_str(&r).expect("recorded results");
        let mut out = Vec::new();
        for (i, rec) in records.as_array().expect("list").iter().enumerate() {
            for turn in rec["results"].as_array().expect("results") {
                out.push((tasks[i].criteria.clone(), turn["actions"].to_string()));
            }
        }
        return out;
    }
    eprintln!("../shared absent: benchmarking examples/drawing/ instead");
    let task = Task::from_json(
        r##"{"criteria": {"required_tools": ["pen"], "required_colors": ["#FF0000"], "min_segments": 1, "min_coverage": 0.05}}"##,
    )
    .unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/drawing");
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| (task.criteria.clone(), std::fs::read_to_string(e.unwrap().path()).unwrap()))
        .collect()
}

fn bench(c: &mut Criterion) {
    let ui = UiConfig::drawingbench_default();
    let work = workload();
    let parsed: Vec<(Criteria, Actions)> =
        work.iter().map(|(c, raw)| (c.clone(), Actions::parse(raw.as_bytes()).unwrap())).collect();
    let n = work.len() as u64;

    let mut g = c.benchmark_group("evaluate");
    g.throughput(Throughput::Elements(n));
    g.bench_function("raw_text_to_verdict", |b| {
        b.iter(|| {
            for (crit, raw) in &work {
                std::hint::black_box(judge(raw.as_bytes(), crit, &ui).unwrap());
            }
        })
    });
    g.bench_function("raw_text_to_verdict_reused", |b| {
        let mut ev = Evaluator::new();
        b.iter(|| {
            for (crit, raw) in &work {
                std::hint::black_box(ev.judge(raw.as_bytes(), crit, &ui).unwrap());
            }
        })
    });
    g.bench_function("parsed_actions", |b| {
        b.iter(|| {
            for (crit, a) in &parsed {
                std::hint::black_box(reference::evaluate(a, crit, &ui).unwrap());
            }
        })
    });
    g.bench_function("verdict_and_feedback_row", |b| {
        b.iter(|| {
            for (crit, raw) in &work {
                let v = judge(raw.as_bytes(), crit, &ui).unwrap();
                std::hint::black_box(v.to_row(crit, &ui));
            }
        })
    });
    g.bench_function("paper_profile", |b| {
        b.iter(|| {
            for (crit, a) in &parsed {
                std::hint::black_box(paper::evaluate(a, crit, &ui));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("render");
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    g.bench_function("canvas", |b| {
        b.iter(|| {
            for (_, a) in &parsed {
                std::hint::black_box(Canvas::render(a, &ui));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
