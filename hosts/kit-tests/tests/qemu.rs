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
