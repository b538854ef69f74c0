//! Evaluations per CPU-second of one core: judges the 308 recorded model turns of the 250
//! DrawingBench tasks (`../shared/drawingbench`) from raw text, `ROUNDS` times over, with one
//! reused `Evaluator`, and prints the count and the thread's CPU time (from
//! `/proc/thread-self/stat` on Linux; wall time elsewhere). Criterion's wall-clock figure
//! (`cargo bench -p gobo --bench drawing`) is the reference on an idle machine; this one
//! stays meaningful when other jobs share the cores.
//! Run: `cargo run --release -p gobo --example drawing_rate [ROUNDS]`.

use std::path::PathBuf;
use std::time::Instant;

use gobo::drawing::task::dataset_from_json;
use gobo::drawing::ui::UiConfig;
use gobo::drawing::Evaluator;

/// CPU seconds (user + system) of the calling thread, if the platform reports them.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the command name: field 3 is the state; utime and stime are fields 14 and 15.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let shared = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
        .join("drawingbench");
    let (Ok(d), Ok(r)) = (
        std::fs::read_to_string(shared.join("dataset_consolidated.json")),
        std::fs::read_to_string(shared.join("recorded_batch_results_all_all.json")),
    ) else {
        println!("skipped: ../shared/drawingbench not found (set GOBO_SHARED)");
        return;
    };
    let tasks = dataset_from_json(&d).expect("dataset");
    let records: serde_json::Value = serde_json::from_str(&r).expect("recorded results");
    let mut work = Vec::new();
    for (i, rec) in records.as_array().expect("list").iter().enumerate() {
        for turn in rec["results"].as_array().expect("results") {
            work.push((tasks[i].criteria.clone(), turn["actions"].to_string()));
        }
    }
    let ui = UiConfig::drawingbench_default();
    let mut ev = Evaluator::new();
    let (cpu0, wall0) = (thread_cpu_seconds(), Instant::now());
    let mut n = 0u64;
    let mut score = 0.0;
    for _ in 0..rounds {
        for (crit, raw) in &work {
            let v = ev.judge(raw.as_bytes(), crit, &ui).expect("within limits");
            score += v.score().unwrap_or(0.0);
            n += 1;
        }
    }
    let wall = wall0.elapsed().as_secs_f64();
    let cpu = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    println!(
        "{n} evaluations (score sum {score:.3}): {:.0}/s per CPU-second ({cpu:.2} s CPU), {:.0}/s wall ({wall:.2} s)",
        n as f64 / cpu,
        n as f64 / wall
    );
}
