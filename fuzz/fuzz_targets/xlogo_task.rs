//! The XLogo task loader on arbitrary bytes: never panics; a task that loads compiles, prompts,
//! renders and evaluates the empty program.
#![no_main]

use gobo::xlogo::prompt::{prompt, PromptStyle};
use gobo::xlogo::render::render_image;
use gobo::xlogo::{evaluate_program, load, Program, World};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(task) = load::task_from_slice(data) else { return };
    let world = World::new(&task);
    let verdict = evaluate_program(&world, &Program::default());
    let _ = verdict.to_json();
    let _ = prompt(&task, PromptStyle::Nl);
    let _ = prompt(&task, PromptStyle::Ascii);
    let _ = render_image(&task, verdict.run.as_ref());
});
