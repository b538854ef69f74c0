//! Evaluation of arbitrary code in the checked-in example tasks: the first byte picks the task
//! and the code form, the rest is the code. Checks determinism and the action and trace bounds.
#![no_main]

use gobo::xlogo::{evaluate_code, load, CodeInput, World, MAX_ACTIONS};
use libfuzzer_sys::fuzz_target;

const TASKS: [&[u8]; 2] = [
    include_bytes!("../../examples/xlogo/find-strawberry.json"),
    include_bytes!("../../examples/xlogo/draw-square.json"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, code)) = data.split_first() else { return };
    let task_bytes = TASKS[usize::from(selector >> 1) % TASKS.len()];
    let Ok(task) = load::task_from_slice(task_bytes) else { return };
    let world = World::new(&task);
    let input = if selector & 1 == 0 { CodeInput::Python(code) } else { CodeInput::Json(code) };
    let verdict = evaluate_code(&world, input);
    assert_eq!(verdict, evaluate_code(&world, input), "deterministic");
    if let Some(run) = &verdict.run {
        assert!(run.n_actions <= MAX_ACTIONS + 1);
        assert!(run.trace.len() <= run.n_actions as usize + 1);
        assert!(run.drawn_lines.len() < run.trace.len().max(1));
    }
    let _ = verdict.to_json();
});
