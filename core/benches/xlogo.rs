//! XLogo benches, grouped by phase: load (task JSON → World), parse (Python-style code), and
//! evaluate (run + goal + constraints) over the 85 REAL tasks' reference solutions and over the
//! public oracle's REAL programs (mutations included: crashes, failures). Reads
//! `../shared/xlogo` (or `$GOBO_SHARED/xlogo`); without it, falls back to `examples/xlogo`.
//!
//! `cargo bench -p gobo --bench xlogo` prints throughput in elements (evaluations) per second.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gobo::xlogo::{code_json, load, print, python, Emulator, Program, World};
use serde_json::Value;

struct Workload {
    name: &'static str,
    tasks: Vec<Vec<u8>>,
    pairs: Vec<(World, Program)>,
}

fn shared() -> Option<PathBuf> {
    let base = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let dir = base.join("xlogo");
    dir.join("real_tasks.jsonl").is_file().then_some(dir)
}

fn jsonl(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("readable");
    text.lines().filter(|l| !l.is_empty()).map(|l| serde_json::from_str(l).expect("json")).collect()
}

fn workloads() -> Vec<Workload> {
    let Some(dir) = shared() else {
        eprintln!("../shared/xlogo not found: benchmarking examples/xlogo instead");
        let ex = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/xlogo");
        let task = std::fs::read(ex.join("find-strawberry.json")).expect("example");
        let code = std::fs::read(ex.join("find-strawberry.py")).expect("example");
        let world = World::new(&load::task_from_slice(&task).expect("task"));
        let program = python::parse(&code).expect("code");
        return vec![Workload {
            name: "example",
            tasks: vec![task],
            pairs: vec![(world, program)],
        }];
    };
    let real = jsonl(&dir.join("real_tasks.jsonl"));
    let mut tasks = Vec::new();
    let mut pairs = Vec::new();
    let mut worlds = std::collections::HashMap::new();
    for row in &real {
        let bytes = serde_json::to_vec(&row["task"]).expect("json");
        let world = World::new(&load::task_from_slice(&bytes).expect("task"));
        let program = code_json::parse_value(&row["reference_code"]).expect("code");
        worlds.insert(row["task_id"].as_str().expect("id").to_string(), world.clone());
        pairs.push((world, program));
        tasks.push(bytes);
    }
    let mut mix = Vec::new();
    for row in jsonl(&dir.join("oracle-public.jsonl")) {
        if row["split"] != "REAL" {
            continue;
        }
        let (Some(world), Ok(program)) = (
            worlds.get(row["task_id"].as_str().unwrap_or("")),
            code_json::parse_value(&row["code"]),
        ) else {
            continue;
        };
        mix.push((world.clone(), program));
    }
    vec![
        Workload { name: "real_reference", tasks: tasks.clone(), pairs },
        Workload { name: "real_oracle_mix", tasks, pairs: mix },
    ]
}

fn benches(c: &mut Criterion) {
    for w in workloads() {
        let mut g = c.benchmark_group("xlogo/evaluate");
        g.throughput(Throughput::Elements(w.pairs.len() as u64));
        let mut emulator = Emulator::new();
        g.bench_function(w.name, |b| {
            b.iter(|| {
                let mut ok = 0u32;
                for (world, program) in &w.pairs {
                    ok += u32::from(
                        emulator.evaluate(black_box(world), black_box(program)).success(),
                    );
                }
                ok
            })
        });
        g.finish();

        let mut g = c.benchmark_group("xlogo/load");
        g.throughput(Throughput::Elements(w.tasks.len() as u64));
        g.bench_function(w.name, |b| {
            b.iter(|| {
                w.tasks
                    .iter()
                    .map(|t| World::new(&load::task_from_slice(black_box(t)).expect("task")).rows())
                    .sum::<i32>()
            })
        });
        g.finish();

        let sources: Vec<String> = w.pairs.iter().map(|(_, p)| print::to_python(p)).collect();
        let mut g = c.benchmark_group("xlogo/parse_python");
        g.throughput(Throughput::Elements(sources.len() as u64));
        g.bench_function(w.name, |b| {
            b.iter(|| {
                sources
                    .iter()
                    .map(|s| python::parse(black_box(s.as_bytes())).is_ok() as u32)
                    .sum::<u32>()
            })
        });
        g.finish();
    }
}

criterion_group!(xlogo, benches);

/// CPU time this thread has run, from Linux's schedstat (None elsewhere). Criterion measures wall
/// time, which on a shared machine includes time the thread waited for a core.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Evaluations per CPU-second on one core, printed beside criterion's wall-clock figures.
fn cpu_report(_c: &mut Criterion) {
    for w in workloads() {
        let mut emulator = Emulator::new();
        let Some(start) = thread_cpu_ns() else { return };
        let mut n = 0u64;
        let mut ok = 0u32;
        while thread_cpu_ns().unwrap_or(u64::MAX) - start < 2_000_000_000 {
            for (world, program) in &w.pairs {
                ok += u32::from(emulator.evaluate(black_box(world), black_box(program)).success());
            }
            n += w.pairs.len() as u64;
        }
        let secs = (thread_cpu_ns().unwrap_or(start) - start) as f64 / 1e9;
        println!(
            "xlogo/evaluate/{}: {:.0} evaluations per CPU-second on one core ({n} evaluations, {ok} successes)",
            w.name,
            n as f64 / secs
        );
    }
}

criterion_group!(cpu, cpu_report);
criterion_main!(xlogo, cpu);
