//! The emulated classroom kit under QEMU: on-chip unit tests, damaged images rejected with an
//! on-display error, the gamepad driving the display, each screen compared pixel for pixel
//! with the host rendering of the same frame by the same code. Skips cleanly without QEMU.

use gobo::image::{self, ProgramKind};
use gobo::kit::{App, Buttons, LM3S6965};
use gobo_kit_tests::firmware::{self, missing_prerequisite};
use gobo_kit_tests::qemu::{PadKey, Qemu};
use gobo_kit_tests::screen::Screenshot;

/// Seconds to wait for a log line (boot plus a few frames at 30 fps; generous for slow CI).
const WAIT: u64 = 30;

fn skip() -> bool {
    match missing_prerequisite() {
        Some(why) => {
            println!("skipped: {why}");
            true
        }
        None => false,
    }
}

fn assert_same(name: &str, kit: &Screenshot, host: &Screenshot) {
    let (count, first) = kit.diff(host);
    assert_eq!(count, 0, "{name}: {count} pixels differ from the host rendering; first {first:?}");
    assert!(host.lit() > 0, "{name}: host rendering is blank");
}

#[test]
fn onchip_unit_tests_pass() {
    if skip() {
        return;
    }
    let elf = firmware::build_onchip_tests();
    let (log, ok) = Qemu::boot(&elf, "onchip", false).wait_exit();
    let summary = log.iter().find(|l| l.ends_with(" failed")).cloned().unwrap_or_default();
    let counts: Vec<u32> =
        summary.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    assert!(ok && counts.len() == 2 && counts[1] == 0, "on-chip tests:\n{}", log.join("\n"));
    assert!(counts[0] >= 9, "only {} on-chip tests ran:\n{}", counts[0], log.join("\n"));
}

fn damaged_images() -> Vec<(&'static str, Vec<u8>)> {
    let good = image::encode(ProgramKind::XLogo, b"any payload bytes").unwrap();
    let mut corrupted = good.clone();
    corrupted[20] ^= 0x40;
    let mut other_version = good.clone();
    other_version[4] = 2;
    vec![
        ("truncated", good[..good.len() - 3].to_vec()),
        ("corrupted", corrupted),
        ("other-version", other_version),
        ("not-an-image", b"#!/bin/sh\necho hello\n".to_vec()),
    ]
}

#[test]
fn damaged_images_are_rejected_on_the_display() {
    if skip() {
        return;
    }
    for (name, bytes) in damaged_images() {
        let host = App::boot(&LM3S6965, &bytes);
        let message = host.error_message().expect("host rejects it too").to_owned();
        let elf = firmware::build_with_image(&bytes, name);
        let mut kit = Qemu::boot(&elf, name, true);
        let rejected = kit.wait_line(WAIT, |l| l.starts_with("gobo-kit: rejected:"));
        assert_eq!(rejected, format!("gobo-kit: rejected: {message}"), "{name}");
        kit.wait_line(WAIT, |l| l.contains("shown=error"));
        let shot = kit.screendump("error");
        let mut host = host;
        host.step(Buttons::NONE);
        assert_same(name, &shot, &Screenshot::render(&host));
    }
}

#[test]
fn gamepad_drives_the_diagnostics_screen() {
    if skip() {
        return;
    }
    let bytes = b"no program";
    let elf = firmware::build_with_image(bytes, "diagnostics");
    let mut kit = Qemu::boot(&elf, "diagnostics", true);
    kit.wait_line(WAIT, |l| l.contains("shown=error"));
    kit.arm_gamepad(WAIT);
    kit.keys(&[PadKey::Up, PadKey::Down], true);
    kit.wait_line(WAIT, |l| l.contains("shown=diagnostics keys=03"));
    kit.keys(&[PadKey::Up, PadKey::Down], false);
    kit.wait_line(WAIT, |l| l.contains("shown=diagnostics keys=00"));
    kit.keys(&[PadKey::Left], true);
    kit.wait_line(WAIT, |l| l.contains("shown=diagnostics keys=04"));
    let shot = kit.screendump("left");

    let mut host = App::boot(&LM3S6965, bytes);
    host.step(Buttons::NONE);
    host.step(Buttons::UP | Buttons::DOWN);
    host.step(Buttons::NONE);
    host.step(Buttons::LEFT);
    assert_same("diagnostics with left held", &shot, &Screenshot::render(&host));

    // Releasing left, then the chord again, leaves diagnostics and reboots the image.
    kit.keys(&[PadKey::Left], false);
    kit.wait_line(WAIT, |l| l.contains("shown=diagnostics keys=00"));
    kit.keys(&[PadKey::Up, PadKey::Down], true);
    kit.wait_line(WAIT, |l| l.contains("shown=error"));
}

/// The frame number in a `gobo-kit: frame=N shown=...` log line.
fn frame_of(line: &str) -> u32 {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("frame="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no frame number in {line:?}"))
}

#[test]
fn sample_xlogo_run_plays_like_the_host_and_obeys_the_gamepad() {
    if skip() {
        return;
    }
    let sample = std::fs::read(firmware::repo_root().join("firmware/images/sample.bin")).unwrap();
    let elf = firmware::build_default("sample");
    let mut kit = Qemu::boot(&elf, "sample", true);

    // Played to the end by itself: the same frame on the host shows the same picture.
    let done = kit.wait_line(WAIT, |l| l.contains("shown=xlogo") && l.contains(" done "));
    let frames = frame_of(&done);
    let mut host = App::boot(&LM3S6965, &sample);
    for _ in 0..frames {
        host.step(Buttons::NONE);
    }
    assert!(done.contains(&format!("shown={} ", host.shown())), "{done} vs host {}", host.shown());
    assert!(host.finished());
    assert_same("sample at its end", &kit.screendump("done"), &Screenshot::render(&host));

    // Left steps one action back and pauses; right steps forward to the end again.
    kit.arm_gamepad(WAIT);
    kit.keys(&[PadKey::Left], true);
    let back = kit.wait_line(WAIT, |l| l.contains(" paused "));
    host.step(Buttons::NONE);
    host.step(Buttons::LEFT);
    assert!(back.contains(&format!("shown={} ", host.shown())), "{back} vs host {}", host.shown());
    assert_same("one action back", &kit.screendump("back"), &Screenshot::render(&host));
    kit.keys(&[PadKey::Left], false);
    kit.keys(&[PadKey::Right], true);
    kit.wait_line(WAIT, |l| l.contains(" done "));
    kit.keys(&[PadKey::Right], false);

    // Holding select for a second clicks the green flag: the run replays from the start.
    kit.keys(&[PadKey::Select], true);
    kit.wait_line(WAIT, |l| l.contains("shown=xlogo step=0/"));
    kit.keys(&[PadKey::Select], false);
}

/// The button sample the firmware logged for each frame (`gobo-kit: frame=N buttons=XX` lines,
/// logged when the sample changes), replayed on a host app up to frame `last`.
fn replay(log: &[String], image: &[u8], last: u32) -> App<'static> {
    let image: &'static [u8] = Box::leak(image.to_vec().into_boxed_slice());
    let mut changes: Vec<(u32, u8)> = Vec::new();
    for line in log {
        if let Some(b) = line.split_whitespace().find_map(|w| w.strip_prefix("buttons=")) {
            changes.push((frame_of(line), u8::from_str_radix(b, 16).expect("hex buttons")));
        }
    }
    let mut host = App::boot(&LM3S6965, image);
    let mut held = 0;
    for frame in 1..=last {
        if let Some(&(_, b)) = changes.iter().rfind(|(f, _)| *f <= frame) {
            held = b;
        }
        host.step(Buttons(held));
    }
    host
}

fn ball_x(app: &App<'_>) -> f64 {
    let Some(gobo::kit::AnyProgram::Scratch(player)) = app.program() else {
        panic!("host is not playing Scratch: {}", app.shown());
    };
    let o = player.vm().observe();
    o.sprites.iter().find(|s| &*s.name == "Ball").expect("Ball").x
}

#[test]
fn scratch_sample_runs_like_the_host_and_its_ball_follows_the_gamepad() {
    if skip() {
        return;
    }
    let ball = std::fs::read(firmware::repo_root().join("firmware/images/ball.bin")).unwrap();
    let elf = firmware::build_with_image(&ball, "ball");
    let mut kit = Qemu::boot(&elf, "ball", true);

    // The green flag runs at boot; "Hello!" shows for two seconds, then the project only waits
    // for keys (no thread left) and the picture stays.
    kit.wait_line(WAIT, |l| l.contains("shown=scratch threads=1"));
    let idle = kit.wait_line(WAIT, |l| l.contains("shown=scratch threads=0"));
    let frames = frame_of(&idle);
    assert!((60..=62).contains(&frames), "the bubble lasts two seconds: {idle}");
    let before = kit.screendump("idle");
    let host = replay(kit.log(), &ball, frames);
    assert_eq!(ball_x(&host), -60.0);
    assert_same("ball after the greeting", &before, &Screenshot::render(&host));

    // Right on the gamepad is the right arrow: the ball moves 40 steps, drawing with its pen.
    kit.arm_gamepad(WAIT);
    kit.keys(&[PadKey::Right], true);
    let pressed = frame_of(&kit.wait_line(WAIT, |l| l.contains("buttons=08")));
    kit.wait_line(WAIT, |l| l.contains("shown=scratch") && frame_of(l) >= pressed);
    kit.keys(&[PadKey::Right], false);
    let released = frame_of(&kit.wait_line(WAIT, |l| l.contains("buttons=00")));
    let after = kit.screendump("moved");
    let host = replay(kit.log(), &ball, released);
    assert_eq!(ball_x(&host), -20.0, "one press, one move of 40 steps");
    assert_same("ball after right", &after, &Screenshot::render(&host));
    let (moved, _) = after.diff(&before);
    assert!(moved > 20, "the picture must show the move: {moved} pixels changed");
}

#[test]
fn drawing_sample_plays_like_the_host_and_steps_back_on_the_gamepad() {
    if skip() {
        return;
    }
    let drawing = std::fs::read(firmware::repo_root().join("firmware/images/drawing.bin")).unwrap();
    let elf = firmware::build_with_image(&drawing, "drawing");
    let mut kit = Qemu::boot(&elf, "drawing", true);

    // Played to the end by itself: the same frame on the host shows the same picture.
    let done = kit.wait_line(WAIT, |l| l.contains("shown=drawing") && l.contains(" done "));
    let frames = frame_of(&done);
    let mut host = App::boot(&LM3S6965, &drawing);
    for _ in 0..frames {
        host.step(Buttons::NONE);
    }
    assert!(done.contains(&format!("shown={} ", host.shown())), "{done} vs host {}", host.shown());
    assert!(host.finished());
    let end = kit.screendump("done");
    assert_same("drawing at its end", &end, &Screenshot::render(&host));

    // Left steps one action back and pauses (compared again); right returns to the end.
    kit.arm_gamepad(WAIT);
    kit.keys(&[PadKey::Left], true);
    let back = kit.wait_line(WAIT, |l| l.contains("shown=drawing") && l.contains(" paused "));
    host.step(Buttons::NONE);
    host.step(Buttons::LEFT);
    assert!(back.contains(&format!("shown={} ", host.shown())), "{back} vs host {}", host.shown());
    let shot = kit.screendump("back");
    assert_same("one action back", &shot, &Screenshot::render(&host));
    assert!(shot.diff(&end).0 > 0, "the status shows the step");
    kit.keys(&[PadKey::Left], false);
    kit.keys(&[PadKey::Right], true);
    kit.wait_line(WAIT, |l| l.contains("shown=drawing") && l.contains(" done "));
    kit.keys(&[PadKey::Right], false);
}
