//! Program images from arbitrary bytes: the envelope (magic, version, kind, length, CRC-32)
//! and, behind a valid envelope, a Scratch payload that `Vm::new` must check or refuse before
//! anything runs. Whatever it accepts runs a few frames without panicking. The raw postcard
//! payload is also tried without an envelope, so the fuzzer need not forge checksums. The same
//! bytes boot the classroom-kit app (`gobo::kit::App`, every kind of program), which steps a
//! few frames with changing buttons and draws on a display of the emulated kit's size.
#![no_main]

use gobo::image::{decode, ProgramKind};
use gobo::kit::{App, Buttons, LM3S6965};
use gobo::scratch::render::Framebuffer;
use gobo::scratch::image::Image;
use gobo::scratch::vm::{Config, Input, Vm};
use libfuzzer_sys::fuzz_target;

fn run(image: Image) {
    let cfg = Config {
        ticks_per_frame: 20,
        warp_checks: 200,
        max_clones: 10,
        max_list_len: 100,
        max_string_len: 1000,
        ..Config::default()
    };
    if let Ok(mut vm) = Vm::new(image, cfg) {
        for f in 0..5 {
            let inputs: &[Input] = if f == 0 { &[Input::GreenFlag] } else { &[] };
            vm.step_frame(inputs);
            let _ = vm.observe();
        }
    }
}

fn kit(data: &[u8]) {
    let mut app = App::boot(&LM3S6965, data);
    for f in 0..4u8 {
        app.step(Buttons(f.wrapping_mul(37) & Buttons::GAMEPAD.0));
    }
    let mut display = Framebuffer::new(LM3S6965.display.width, LM3S6965.display.height);
    let _ = app.draw(&mut display);
}

fuzz_target!(|data: &[u8]| {
    kit(data);
    if let Ok(image) = decode(data) {
        if let Ok(program) = image.payload_as::<Image>(ProgramKind::Scratch) {
            run(program);
        }
    }
    if let Ok((program, _)) = postcard::take_from_bytes::<Image>(data) {
        run(program);
    }
});
