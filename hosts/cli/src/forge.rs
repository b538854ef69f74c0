//! `gobo forge GOLD -o DIR`: the Bug Forge (`gobo::scratch::forge`, docs/bug-forge.md) injects
//! one validated bug and writes `buggy.sb3`, `forward.json`, `inverse.json`, `bug.json` and
//! `suite.json`; `gobo forge --batch DIR -o OUT` forges over a folder of projects on all cores
//! through the resumable batch runner, patterns scheduled for even coverage. Exit 0 when every
//! bug was validated, 1 when some was not, 2 on bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::forge::{applicable, ForgeConfig, ForgeOutcome, Pattern};
use gobo_host::batch::{run_batch, BatchOptions};
use gobo_host::repair::{self, ForgeParams};
use serde_json::{json, Value as Json};

use crate::oracle::{load_project, OracleFlags};

#[derive(Debug, Args)]
pub struct ForgeArgs {
    /// The gold project (with --batch: a folder of projects: .sb3 files and folders holding
    /// project.json).
    gold: PathBuf,
    /// The pattern (mechanism tag, e.g. desynchronization).
    #[arg(long, conflicts_with = "operator")]
    pattern: Option<String>,
    /// One operator (e.g. sync.nowait).
    #[arg(long)]
    operator: Option<String>,
    /// Seed of the site order and of fresh ids.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// K: most trials.
    #[arg(long, default_value_t = 20)]
    trials: u32,
    #[command(flatten)]
    flags: OracleFlags,
    /// Output folder (created).
    #[arg(short, long)]
    output: PathBuf,
    /// Forge over every project of the folder GOLD (results in OUTPUT/results.jsonl).
    #[arg(long)]
    batch: bool,
    /// With --batch: one row per (project, applicable pattern) instead of one per project.
    #[arg(long, requires = "batch")]
    all_patterns: bool,
    /// Worker threads of --batch (0: one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Print the outcome as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

fn config(args: &ForgeArgs) -> Result<ForgeConfig, String> {
    let params = ForgeParams {
        pattern: args.pattern.clone(),
        operator: args.operator.clone(),
        seed: args.seed,
        trials: args.trials,
    };
    params.config(&args.flags.params())
}

/// Forges one bug on the project at `path` and writes its files to `dir` when one was
/// validated.
fn forge_one(path: &Path, cfg: &ForgeConfig, dir: &Path) -> Result<ForgeOutcome, String> {
    let gold = load_project(path)?;
    let outcome = repair::forge(&gold, cfg).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(bug) = &outcome.bug {
        let write = || -> Result<(), String> {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            for (name, bytes) in repair::bug_files(&gold.files, bug)? {
                std::fs::write(dir.join(name), bytes).map_err(|e| format!("{name}: {e}"))?;
            }
            Ok(())
        };
        write().map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    Ok(outcome)
}

pub fn run(args: ForgeArgs) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("forge", why);
    let cfg = match config(&args) {
        Ok(c) => c,
        Err(e) => return bad(e),
    };
    if args.batch {
        return batch(&args, &cfg);
    }
    let watch = gobo_host::cost::Stopwatch::start();
    let outcome = match forge_one(&args.gold, &cfg, &args.output) {
        Ok(o) => o,
        Err(e) => return bad(e),
    };
    if args.json || args.pretty {
        let mut v = serde_json::to_value(&outcome).unwrap_or_default();
        v["time"] = serde_json::to_value(watch.timing()).unwrap_or_default();
        crate::json_out::print(&v, args.pretty);
    } else if let Some(r) = &outcome.record {
        let site = &r.ground_truth.site;
        println!(
            "forged {} ({}) at {}/{} after {} trials; wrote {}",
            r.pattern.tag(),
            r.operator.id(),
            site.sprite,
            site.block,
            r.validation.trials_used,
            args.output.display()
        );
        println!("symptom: {}", r.model_facing.symptom);
    } else {
        println!(
            "no bug: {} ({} sites, {} trials)",
            outcome.reason.unwrap_or("?"),
            outcome.sites,
            outcome.trials.len()
        );
    }
    crate::exit::verdict(usize::from(!outcome.success))
}

/// Projects of a batch folder: `.sb3`/`.sb2` files and folders holding `project.json`, by name.
fn projects_in(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let is_archive = path.extension().is_some_and(|x| x == "sb3" || x == "sb2");
        if is_archive || path.join("project.json").is_file() {
            out.push((name, path));
        }
    }
    out.sort();
    Ok(out)
}

/// The batch manifest: one row per project (the applicable pattern with the fewest rows so
/// far, ties in catalogue order), or per (project, applicable pattern).
fn schedule(projects: &[(String, PathBuf)], cfg: &ForgeConfig, all: bool) -> Vec<Json> {
    let mut count = [0usize; 8];
    let mut rows = Vec::new();
    for (name, path) in projects {
        let patterns: Vec<Pattern> = match load_project(path) {
            Ok(loaded) => match (cfg.operator, cfg.pattern) {
                (Some(op), _) => vec![op.pattern()],
                (None, Some(p)) => vec![p],
                (None, None) => applicable(&loaded.project),
            },
            Err(e) => {
                rows.push(json!({"id": name, "project": path, "error": e}));
                continue;
            }
        };
        let chosen: Vec<Pattern> = if all {
            patterns
        } else {
            let idx = |p: &Pattern| Pattern::ALL.iter().position(|q| q == p).unwrap_or(0);
            patterns.iter().min_by_key(|p| (count[idx(p)], idx(p))).copied().into_iter().collect()
        };
        if chosen.is_empty() {
            rows.push(json!({"id": name, "project": path, "pattern": null}));
        }
        for p in chosen {
            count[Pattern::ALL.iter().position(|q| *q == p).unwrap_or(0)] += 1;
            rows.push(
                json!({"id": format!("{name}#{}", p.tag()), "project": path, "pattern": p.tag()}),
            );
        }
    }
    rows
}

fn batch(args: &ForgeArgs, cfg: &ForgeConfig) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("forge", why);
    let projects = match projects_in(&args.gold) {
        Ok(p) if !p.is_empty() => p,
        Ok(_) => return bad(format!("{}: no projects", args.gold.display())),
        Err(e) => return bad(e),
    };
    if let Err(e) = std::fs::create_dir_all(&args.output) {
        return bad(format!("{}: {e}", args.output.display()));
    }
    let manifest = args.output.join("manifest.jsonl");
    let text: String =
        schedule(&projects, cfg, args.all_patterns).iter().map(|r| r.to_string() + "\n").collect();
    // The schedule is a function of the folder and the flags: rewriting it on resume keeps
    // the same rows, so the batch runner skips the finished ones.
    if let Err(e) = std::fs::write(&manifest, text) {
        return bad(format!("{}: {e}", manifest.display()));
    }
    let results = args.output.join("results.jsonl");
    let out_dir = args.output.clone();
    let eval = |row: &Json| -> Json {
        if let Some(e) = row.get("error") {
            return json!({"success": false, "error": e});
        }
        let Some(tag) = row["pattern"].as_str() else {
            return json!({"success": false, "reason": "no_site"});
        };
        let mut c = cfg.clone();
        c.pattern = Pattern::from_tag(tag);
        let id = row["id"].as_str().unwrap_or("row").replace(['/', '#'], "_");
        let path = PathBuf::from(row["project"].as_str().unwrap_or(""));
        match forge_one(&path, &c, &out_dir.join(&id)) {
            Ok(o) => json!({
                "success": o.success,
                "pattern": tag,
                "reason": o.reason,
                "operator": o.record.as_ref().map(|r| r.operator.id()),
                "trials_used": o.record.as_ref().map_or(o.trials.iter().filter(|t| !t.reason.as_deref().unwrap_or("").starts_with("the patch")).count() as u32, |r| r.validation.trials_used),
                "sites": o.sites,
                "why": o.trials.last().and_then(|t| t.reason.clone()),
                "dir": o.success.then_some(id),
                "work": o.work,
            }),
            Err(e) => json!({"success": false, "error": e}),
        }
    };
    let mut failed = 0;
    let visit = |row: &Json| failed += usize::from(row.get("success") != Some(&Json::Bool(true)));
    let opts = BatchOptions { jobs: args.jobs, ..BatchOptions::default() };
    match run_batch(&manifest, &results, &opts, eval, visit) {
        Ok(report) => {
            crate::exit::batch_summary("forge", &report, failed);
            crate::exit::verdict(failed)
        }
        Err(e) => bad(e.to_string()),
    }
}
