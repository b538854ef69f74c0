//! The committed ScratchWorld manifest (`benchmarks/scratchworld/manifest.json`) is valid,
//! lists the 83 tasks by category, and every suite it names exists and parses.

use gobo::bench::scratchworld::{parse_manifest, Category, Coverage, Flavour};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../benchmarks/scratchworld");

#[test]
fn manifest_lists_83_tasks_and_its_suites_parse() {
    let text = std::fs::read_to_string(format!("{DIR}/manifest.json")).unwrap();
    let manifest = parse_manifest(&text).unwrap();
    let count = |c: Category| manifest.tasks.iter().filter(|t| t.category == c).count();
    assert_eq!(manifest.tasks.len(), 83);
    assert_eq!(
        [Category::Create, Category::Debug, Category::Extend, Category::Compute].map(count),
        [20, 20, 18, 25]
    );
    let mut suites = 0;
    for task in &manifest.tasks {
        for flavour in [Flavour::Compat, Flavour::Strict] {
            let entry = task.entry(flavour);
            let Some(path) = &entry.suite else {
                assert_eq!(entry.status, Coverage::Missing, "{}", task.name);
                continue;
            };
            assert!(
                path.starts_with(&format!("{}/{}", task.category.name(), task.name)),
                "{}: suite {path} is not under its category and name",
                task.name
            );
            let suite = std::fs::read_to_string(format!("{DIR}/{path}"))
                .unwrap_or_else(|e| panic!("{}: {path}: {e}", task.name));
            gobo::scratch::suite::parse_suite(&suite)
                .unwrap_or_else(|e| panic!("{}: {path}: {e}", task.name));
            suites += 1;
        }
    }
    // Every compute task has a compat and a strict suite.
    assert!(suites >= 50, "{suites} suites");
}
