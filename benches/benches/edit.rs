//! Edit layer (issue 15): the observation of a 100-block sprite, a block-edit patch applied
//! and validated (in the core on a loaded project, and end to end from `project.json` bytes
//! as `gobo patch apply` does), the `.sb3` repack after it, and one composite action.
//! Targets (docs/performance.md, "Edit layer"): observation under 50 µs; at least 10,000
//! patch applications with validation per second per core.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use gobo::scratch::agent::{observe, IndexMode, ObserveMode, Session, SessionConfig};
use gobo::scratch::project::load;
use gobo::scratch::project::patch::{apply_block_edits, parse_block_edits, PatchOptions};
use gobo::scratch::project::validate::validate;
use gobo_benches::edit::hundred_blocks;
use gobo_host::edit::{self, Format, Request};
use gobo_host::sb3;
use serde_json::json;

/// A repair as a model writes one: a literal changed and a block added after another.
const PATCH: &str = r#"[{"op":"modify","sprite_id":"Cat","block_id":"Cab15","path":"inputs/DY","value":10},
 {"op":"add","sprite_id":"Cat","block":{"opcode":"looks_say","inputs":{"MESSAGE":"up"}},"link":{"after":"Cab15"}}]"#;

fn keys() -> sb3::ProjectFiles {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/scratch/keys");
    sb3::load_path(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

fn edit(c: &mut Criterion) {
    let big = hundred_blocks();
    assert_eq!(big.targets[1].blocks.iter().filter(|(_, b)| !b.shadow).count(), 100);
    let mut g = c.benchmark_group("edit");
    g.bench_function("observe_100_blocks", |b| {
        b.iter(|| {
            observe(std::hint::black_box(&big), Some("Big"), ObserveMode::Compat, IndexMode::Index)
        })
    });

    let files = keys();
    let project = load(&files.project_json).expect("keys loads");
    let edits = parse_block_edits(PATCH.as_bytes(), 100).expect("the patch parses");
    let opts = PatchOptions::default();
    g.bench_function("patch_apply_validate", |b| {
        b.iter_batched_ref(
            || project.clone(),
            |p| {
                apply_block_edits(p, &edits, &opts).expect("applies");
                validate(p)
            },
            BatchSize::SmallInput,
        )
    });
    let req = Request { format: Format::BlockEdits, budget: None, seed: 0, check_assets: true };
    g.bench_function("patch_apply_validate_from_bytes", |b| {
        b.iter(|| edit::apply(&files, PATCH.as_bytes(), &req).expect("applies"))
    });
    g.bench_function("patch_apply_validate_repack_sb3", |b| {
        b.iter(|| {
            let (_, json) = edit::apply(&files, PATCH.as_bytes(), &req).expect("applies");
            sb3::repack(&files, json.expect("applied")).expect("repacks")
        })
    });

    let session = Session::new(project.clone(), SessionConfig::default()).expect("a session");
    let action = json!({"api": "connect_blocks", "args": {"sourceBlockIndex": 13,
        "targetBlockIndex": 3, "placement": {"kind": "stack_after"}}});
    let mut probe = session.clone();
    let probed = probe.act(&action);
    assert!(probed.ok(), "{probed:?}");
    g.bench_function("composite_connect_blocks", |b| {
        b.iter_batched_ref(|| session.clone(), |s| s.act(&action), BatchSize::SmallInput)
    });
    g.finish();
}

criterion_group!(benches, edit);
criterion_main!(benches);
