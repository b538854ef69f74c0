//! Evaluate XLogo-Mini code (Python form) against a task.
//!
//! `cargo run -p gobo --example xlogo_eval -- examples/xlogo/find-strawberry.json examples/xlogo/find-strawberry.py`

use gobo::xlogo::{evaluate_bytes, CodeInput};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let task = args.next().unwrap_or_else(|| "examples/xlogo/find-strawberry.json".into());
    let code = args.next().unwrap_or_else(|| "examples/xlogo/find-strawberry.py".into());
    let verdict = evaluate_bytes(&std::fs::read(task)?, CodeInput::Python(&std::fs::read(code)?))?;
    println!("{}", verdict.to_json());
    Ok(())
}
