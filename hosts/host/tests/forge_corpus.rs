//! The Bug Forge on its classroom corpus (`tests-support/forge-corpus`, written by
//! `scripts/forge_corpus.py`): every operator has a site, every injection's inverse restores
//! the gold `project.json` exactly, the forge validates a bug on at least 80 % of the (project,
//! applicable pattern) pairs and says why on the others, every synthesized suite passes on gold
//! under every seed and fails on the buggy project, and the same inputs give the same bytes.
//! By default the pair test runs four projects with H = 300 frames (10 s) to stay quick;
//! `GOBO_FORGE_CORPUS=full` runs every project with H = 900 (the figures in docs/bug-forge.md
//! come from `gobo forge --batch --all-patterns`). The bench uses H = 2000.

use std::path::{Path, PathBuf};

use gobo::scratch::forge::{
    applicable, forge, inject, sites_of, ForgeConfig, ForgeOutcome, Operator, Pattern,
};
use gobo::scratch::oracle::OracleConfig;
use gobo::scratch::project::{load_with, save, LoadOptions, Project};
use gobo::scratch::suite::Stability;
use gobo_host::judge::{judge, TestJob};
use gobo_host::project::compile_project;
use gobo_host::sb3::{load_path, ProjectFiles};

fn corpus() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests-support/forge-corpus");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&root)
        .expect("corpus folder")
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    out.sort();
    assert!(out.len() >= 12, "at least 12 corpus projects");
    out
}

fn load(path: &Path) -> (Project, ProjectFiles) {
    let files = load_path(path).expect("project files");
    let p =
        load_with(&files.project_json, &LoadOptions { repair_references: true }).expect("loads");
    (p, files)
}

fn full() -> bool {
    std::env::var("GOBO_FORGE_CORPUS").is_ok_and(|v| v == "full")
}

fn config(pattern: Pattern, seed: u64) -> ForgeConfig {
    ForgeConfig {
        pattern: Some(pattern),
        seed,
        oracle: OracleConfig { ticks: if full() { 900 } else { 300 }, ..OracleConfig::default() },
        ..ForgeConfig::default()
    }
}

fn run(p: &Project, files: &ProjectFiles, cfg: &ForgeConfig) -> ForgeOutcome {
    let gold = compile_project(p, files).expect("gold compiles");
    let build = |q: &Project| compile_project(q, files).map_err(|e| e.to_string());
    forge(p, &gold, &build, cfg).expect("forge runs")
}

#[test]
fn every_operator_has_a_site_and_every_inverse_is_exact() {
    let mut covered = std::collections::BTreeSet::new();
    let mut injected = 0;
    for (name, path) in corpus() {
        let (p, _) = load(&path);
        for op in Operator::ALL {
            for site in sites_of(&p, op) {
                match inject(&p, &site, 0) {
                    Ok((buggy, _, _)) => {
                        assert_ne!(
                            save(&buggy),
                            save(&p),
                            "{name} {}: the edit changes nothing",
                            op.id()
                        );
                        covered.insert(op);
                        injected += 1;
                    }
                    Err(e) => {
                        assert!(!e.contains("inverse"), "{name} {} at {}: {e}", op.id(), site.block)
                    }
                }
            }
        }
    }
    let missing: Vec<&str> =
        Operator::ALL.iter().filter(|o| !covered.contains(o)).map(|o| o.id()).collect();
    assert!(missing.is_empty(), "operators without a site in the corpus: {missing:?}");
    println!("{injected} injections, each inverted exactly");
}

#[test]
fn forge_validates_most_pairs_with_suites_that_separate() {
    let mut pairs = 0;
    let mut validated = 0;
    let mut misses = Vec::new();
    let subset = ["clicker", "lives", "scenes", "shooter"];
    if !full() {
        println!("subset: {subset:?} (GOBO_FORGE_CORPUS=full runs every project)");
    }
    for (name, path) in corpus().into_iter().filter(|(n, _)| full() || subset.contains(&n.as_str()))
    {
        let (p, files) = load(&path);
        for pattern in applicable(&p) {
            pairs += 1;
            let out = run(&p, &files, &config(pattern, 1));
            let Some(bug) = &out.bug else {
                let why = out.trials.last().and_then(|t| t.reason.clone()).unwrap_or_default();
                assert!(out.reason.is_some(), "{name}/{}: a failure says why", pattern.tag());
                misses.push(format!(
                    "{name}/{}: {} ({why})",
                    pattern.tag(),
                    out.reason.unwrap_or("")
                ));
                continue;
            };
            validated += 1;
            let suite = serde_json::to_string(&bug.suite).unwrap();
            let seeds: Vec<u64> = (1..=5).collect();
            let stability = Stability { theta_pass: 0.9, theta_fail: 0.1 };
            let traces = Default::default();
            let job = |files: &ProjectFiles| {
                let j = TestJob {
                    project: files,
                    suite: &suite,
                    seeds: Some(&seeds),
                    stability,
                    traces: &traces,
                    max_frames: None,
                };
                judge(&j).expect("suite runs").report
            };
            assert!(job(&files).success(), "{name}/{}: suite fails on gold", pattern.tag());
            let buggy =
                ProjectFiles { project_json: save(&bug.buggy), assets: files.assets.clone() };
            assert!(
                !job(&buggy).success(),
                "{name}/{}: suite passes on the buggy project",
                pattern.tag()
            );
        }
    }
    println!("validated {validated} of {pairs} pairs; not validated:\n{}", misses.join("\n"));
    assert!(validated * 5 >= pairs * 4, "validated {validated} of {pairs}: {misses:#?}");
}

#[test]
fn same_inputs_and_seed_give_the_same_bug() {
    let (_, path) = corpus().into_iter().find(|(n, _)| n == "scenes").unwrap();
    let (p, files) = load(&path);
    let record = |seed| {
        let out = run(&p, &files, &config(Pattern::Desynchronization, seed));
        let bug = out.bug.expect("validated");
        (
            serde_json::to_vec(&bug.record).unwrap(),
            save(&bug.buggy),
            serde_json::to_vec(&bug.suite).unwrap(),
        )
    };
    assert_eq!(record(7), record(7));
}

#[test]
fn a_project_without_triggers_has_no_site() {
    let text = r#"{"targets":[{"isStage":true,"name":"Stage","variables":{"v":["score",0]},"lists":{},"broadcasts":{},
        "blocks":{"a":{"opcode":"data_setvariableto","next":null,"parent":null,"inputs":{"VALUE":[1,[10,"0"]]},
        "fields":{"VARIABLE":["score","v"]},"shadow":false,"topLevel":true,"x":0,"y":0}},
        "comments":{},"currentCostume":0,"costumes":[],"sounds":[]}],"monitors":[],"extensions":[],"meta":{"semver":"3.0.0"}}"#;
    let p = load_with(text.as_bytes(), &LoadOptions::default()).unwrap();
    assert!(applicable(&p).is_empty());
    let files = ProjectFiles { project_json: text.as_bytes().to_vec(), ..ProjectFiles::default() };
    let out = run(&p, &files, &config(Pattern::MissingInitialization, 0));
    assert!(!out.success);
    assert_eq!(out.reason, Some("no_site"));
}

#[test]
fn a_million_block_project_ends_with_a_bounded_report() {
    // One green-flag script of a million `change x by 1` blocks.
    let n = 1_000_000;
    let mut blocks = String::from(
        r#""h":{"opcode":"event_whenflagclicked","next":"0","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0}"#,
    );
    for i in 0..n {
        let parent = if i == 0 { "\"h\"".to_string() } else { format!("\"{}\"", i - 1) };
        let next = if i + 1 == n { "null".to_string() } else { format!("\"{}\"", i + 1) };
        blocks.push_str(&format!(
            r#","{i}":{{"opcode":"motion_changexby","next":{next},"parent":{parent},"inputs":{{"DX":[1,[4,"1"]]}},"fields":{{}},"shadow":false,"topLevel":false}}"#
        ));
    }
    let text = format!(
        r#"{{"targets":[{{"isStage":true,"name":"Stage","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{}},"comments":{{}},"currentCostume":0,"costumes":[],"sounds":[]}},{{"isStage":false,"name":"Cat","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{{blocks}}},"comments":{{}},"currentCostume":0,"costumes":[],"sounds":[],"visible":true,"x":0,"y":0,"size":100,"direction":90}}],"monitors":[],"extensions":[],"meta":{{"semver":"3.0.0"}}}}"#
    );
    let p = load_with(text.as_bytes(), &LoadOptions::default()).unwrap();
    // Only handler.dup applies (a copy of the script: specs are flat lists, so no length
    // cap); the pattern asked for has no site.
    assert_eq!(applicable(&p), vec![Pattern::EventHandlerConflict]);
    let files = ProjectFiles { project_json: text.into_bytes(), ..ProjectFiles::default() };
    let out = run(&p, &files, &config(Pattern::SpriteStateMismatch, 0));
    assert_eq!(out.reason, Some("no_site"));
}
