//! Score a DrawingBench action list against a task with the published evaluator.
//!
//! `cargo run -p gobo --example draw_eval -- examples/drawing/red-circle.task.json examples/drawing/red_circle.json`

use gobo::drawing::task::Task;
use gobo::drawing::ui::UiConfig;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let task = args.next().unwrap_or_else(|| "examples/drawing/red-circle.task.json".into());
    let actions = args.next().unwrap_or_else(|| "examples/drawing/red_circle.json".into());
    let task = Task::from_json(&std::fs::read_to_string(task)?)?;
    let ui = UiConfig::drawingbench_default();
    let verdict = gobo::drawing::judge(&std::fs::read(actions)?, &task.criteria, &ui)?;
    println!("score {:?}", verdict.score());
    Ok(())
}
