//! The Scratch VM on arbitrary structured projects: scripts built from the implemented blocks
//! (motion, looks, data, control including clones and warp custom blocks, events, sensing,
//! operators) with nested reporters, driven by arbitrary inputs under small frame, tick, warp,
//! clone, list and string budgets. Never panics, never hangs, and is deterministic: the same
//! project and inputs run twice give the same trace, the second time with the fused forms off
//! (`Config::fuse`: every block through the general path, a differential check of
//! `vm::fast`; and `Config::geometry_cache` and `Config::touch_memo` off, which only matter once
//! generated projects carry skins); its program image survives a postcard round trip.
#![no_main]

use gobo::image::{decode, encode_payload, ProgramKind};
use gobo::scratch::compile::compile;
use gobo::scratch::project;
use gobo::scratch::trace::frame_line;
use gobo::scratch::vm::{Config, Input, Vm};
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

#[path = "scratch_vm/gen.rs"]
mod gen;

#[derive(Arbitrary, Debug)]
struct Case {
    project: gen::ProjectDef,
    events: Vec<(u8, Event)>,
    frames: u8,
    seed: u32,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Event {
    Flag,
    Stop,
    KeyDown(bool),
    KeyUp(bool),
    Mouse(i16, i16),
    Click(u8),
    Broadcast(u8),
    Answer(u8),
}

fn input(e: Event, sprites: usize) -> Input {
    let key = |b: bool| if b { "space" } else { "a" }.to_string();
    match e {
        Event::Flag => Input::GreenFlag,
        Event::Stop => Input::StopAll,
        Event::KeyDown(b) => Input::KeyDown(key(b)),
        Event::KeyUp(b) => Input::KeyUp(key(b)),
        Event::Mouse(x, y) => Input::MouseMove(f64::from(x) / 50.0, f64::from(y) / 50.0),
        Event::Click(i) if sprites > 0 => Input::Click(format!("S{}", usize::from(i) % sprites)),
        Event::Click(_) => Input::Click("Stage".to_string()),
        Event::Broadcast(i) => Input::Broadcast(gen::MESSAGES[usize::from(i) % 2].to_string()),
        Event::Answer(i) => Input::Answer(gen::STRINGS[usize::from(i) % gen::STRINGS.len()].into()),
    }
}

fn config(seed: u32, fuse: bool) -> Config {
    Config {
        fuse,
        geometry_cache: fuse,
        touch_memo: fuse,
        ticks_per_frame: 40,
        warp_checks: 500,
        seed,
        max_clones: 20,
        max_list_len: 500,
        max_string_len: 2000,
        ..Config::default()
    }
}

fn run(image: gobo::scratch::image::Image, case: &Case, frames: u64, fuse: bool) -> Vec<String> {
    let sprites = case.project.sprites.len().min(gen::MAX_SPRITES);
    let mut vm = Vm::new(image, config(case.seed, fuse)).expect("a compiled image is valid");
    let mut lines = Vec::new();
    let mut inputs = Vec::new();
    for f in 0..frames {
        inputs.clear();
        if f == 0 {
            inputs.push(Input::GreenFlag);
        }
        for &(at, e) in case.events.iter().take(16) {
            if u64::from(at % 40) == f {
                inputs.push(input(e, sprites));
            }
        }
        vm.step_frame(&inputs);
        lines.push(frame_line(&vm.observe(), &[]));
    }
    lines
}

fuzz_target!(|case: Case| {
    let json = gen::project_json(&case.project);
    if let Some(dir) = std::env::var_os("GOBO_FUZZ_DUMP") {
        // Debugging aid: keep the generated project for `gobo run`.
        let _ = std::fs::write(std::path::Path::new(&dir).join("project.json"), &json);
    }
    let project = match project::load(json.as_bytes()) {
        Ok(p) => p,
        Err(e) => panic!("a generated project does not load: {e}\n{json}"),
    };
    let Ok(image) = compile(&project) else {
        return;
    };
    let bytes = encode_payload(ProgramKind::Scratch, &image).expect("image serialises");
    let back: gobo::scratch::image::Image =
        decode(&bytes).and_then(|i| i.payload_as(ProgramKind::Scratch)).expect("image decodes");
    assert_eq!(back, image, "program image postcard round trip");
    let frames = u64::from(case.frames % 45) + 1;
    let first = run(image, &case, frames, true);
    let second = run(back, &case, frames, false);
    assert_eq!(first, second, "fused and general runs of the same project and inputs differ");
});
