//! Bug Forge: one validated bug on a typical classroom project (`tests-support/forge-corpus/`,
//! `scenes`: four scripts with broadcasts and waits, custom-block free; and `lives`: a game
//! with a custom block, a forever loop and game over), with K ≤ 20 trials, R = 5 reruns and
//! H = 2000 frames: scenario instantiation, the gold recording, site ranking, inject, compile,
//! oracle synthesis and the explicit pass-rate check, the costume skins of gold and variants
//! decoded by `gobo-host`. Target: under 1 s per validated bug on one core.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use gobo::scratch::forge::{forge, ForgeConfig, Pattern};
use gobo::scratch::project::{load_with, LoadOptions, Project};
use gobo_host::project::compile_project;
use gobo_host::sb3::load_path;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests-support/forge-corpus");
    let mut group = c.benchmark_group("forge");
    group.sample_size(10);
    for (name, pattern) in
        [("scenes", Pattern::Desynchronization), ("lives", Pattern::MissingInitialization)]
    {
        let files = load_path(&root.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let gold = load_with(&files.project_json, &LoadOptions { repair_references: true })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let cfg = ForgeConfig { pattern: Some(pattern), ..ForgeConfig::default() };
        let run = || {
            let image = compile_project(&gold, &files).unwrap_or_else(|e| panic!("{e}"));
            let build = |p: &Project| compile_project(p, &files).map_err(|e| e.to_string());
            forge(&gold, &image, &build, &cfg).unwrap_or_else(|e| panic!("{e}"))
        };
        let out = run();
        assert!(out.success, "{name}: {:?}", out.reason);
        eprintln!("forge/{name}: {} trials, {:?}", out.trials.len(), out.work);
        group.bench_function(format!("validated_bug/{name}"), |b| b.iter(run));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
