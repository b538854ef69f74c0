//! Drawing payloads on a kit from arbitrary bytes: the bytes as a postcard `DrawingProgram`
//! (actions text, optional UI config, optional score) and, when they are not one, as the
//! action text itself with a UI config taken from its first line. Whatever the player accepts
//! plays to its end on both kits (painting every step) with keys from the bytes, without
//! panicking.
#![no_main]

use gobo::kit::drawing::{DrawingProgram, Player};
use gobo::kit::{Keys, CLUE, LM3S6965};
use libfuzzer_sys::fuzz_target;

fn play(program: &DrawingProgram<'_>, keys: &[u8]) {
    for kit in [&LM3S6965, &CLUE] {
        let Ok(mut player) = Player::new(program, kit.display) else { return };
        for frame in 0..2_000usize {
            let k = keys.get(frame % keys.len().max(1)).copied().unwrap_or(0);
            player.step_frame(Keys { held: k & 0x1f, pressed: k & 0x1c, green_flag: k == 0xff });
            if player.state().done && frame > 64 {
                break;
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok((program, _)) = postcard::take_from_bytes::<DrawingProgram<'_>>(data) {
        play(&program, data);
    } else if let Ok(text) = core::str::from_utf8(data) {
        let (ui, actions) = text.split_once('\n').unwrap_or(("", text));
        let ui = ui.starts_with('{').then_some(ui);
        play(&DrawingProgram { actions, ui, score: None }, &data[..data.len().min(16)]);
    }
});
