//! Load a Scratch project, run it on the virtual clock and read sprite state.
//!
//! `cargo run -p gobo --example scratch_run -- examples/scratch/guess/project.json`

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::vm::{Config, Input, Vm};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path =
        std::env::args().nth(1).unwrap_or_else(|| "examples/scratch/guess/project.json".into());
    let project = load(&std::fs::read(&path)?)?;
    let mut vm = Vm::new(compile(&project)?, Config::default())?;
    vm.step_frame(&[Input::GreenFlag]);
    for _ in 1..90 {
        vm.step_frame(&[]);
    }
    if let Some(stop) = vm.stopped() {
        println!("halted: {stop}");
    }
    for s in &vm.observe().sprites {
        println!("{} at ({}, {}), direction {}", s.name, s.x, s.y, s.dir);
    }
    Ok(())
}
