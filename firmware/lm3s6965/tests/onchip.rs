//! On-chip unit tests for the emulated kit: run under QEMU (`lm3s6965evb`), print one line per
//! test and `N passed, N failed`, and exit through semihosting with the verdict.
#![no_std]
#![no_main]

extern crate alloc;

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use cortex_m_rt::{entry, exception};
use cortex_m_semihosting::{debug, hprintln};
use embedded_graphics::prelude::*;
use gobo::image::{self, ImageError, ProgramKind};
use gobo::kit::{xlogo, App, Buttons, Shown, LM3S6965};
use gobo_kit::clock;
use gobo_kit::heap::PeakHeap;

use gobo_kit_lm3s6965::oled;

/// The kit app as the default firmware build has it (the sample image is XLogo).
type XLogoApp<'img> = App<'img, xlogo::Player>;

#[global_allocator]
static HEAP: PeakHeap = PeakHeap::empty();

type TestResult = Result<(), &'static str>;

fn check(cond: bool, what: &'static str) -> TestResult {
    if cond {
        Ok(())
    } else {
        Err(what)
    }
}

fn crc32_check_value() -> TestResult {
    check(image::crc32(b"123456789") == 0xCBF4_3926, "crc32 of 123456789")
}

fn image_round_trip() -> TestResult {
    let payload: Vec<u32> = (0..100).collect();
    let bytes = image::encode_payload(ProgramKind::Drawing, &payload).map_err(|_| "encode")?;
    let img = image::decode(&bytes).map_err(|_| "decode")?;
    let back: Vec<u32> = img.payload_as(ProgramKind::Drawing).map_err(|_| "payload")?;
    check(back == payload, "payload differs after round trip")
}

fn damaged_images_rejected() -> TestResult {
    let bytes = image::encode(ProgramKind::XLogo, &[1, 2, 3, 4]).map_err(|_| "encode")?;
    for len in 0..bytes.len() {
        check(image::decode(&bytes[..len]).is_err(), "truncated image accepted")?;
    }
    let mut bad = bytes.clone();
    bad[17] ^= 0x10;
    check(matches!(image::decode(&bad), Err(ImageError::Checksum { .. })), "corruption")?;
    let mut other = bytes.clone();
    other[4] = 9;
    check(
        matches!(image::decode(&other), Err(ImageError::UnsupportedVersion { found: 9, .. })),
        "other version",
    )
}

fn app_shows_error_screen_for_garbage() -> TestResult {
    let mut app = XLogoApp::boot_as(&LM3S6965, b"not an image at all");
    check(app.step(Buttons::NONE), "first frame must draw")?;
    check(app.shown() == Shown::Error, "garbage must show the error screen")?;
    let mut fb = oled::OledFramebuffer::new();
    app.draw(&mut fb).map_err(|_| "draw")?;
    check(fb.data().iter().any(|&b| b != 0), "error screen is blank")
}

fn diagnostics_chord_toggles() -> TestResult {
    let mut app = XLogoApp::boot_as(&LM3S6965, b"");
    app.step(Buttons::NONE);
    check(app.step(Buttons::UP | Buttons::DOWN), "chord must redraw")?;
    check(matches!(app.shown(), Shown::Diagnostics { .. }), "chord enters diagnostics")?;
    app.step(Buttons::NONE);
    app.step(Buttons::UP | Buttons::DOWN);
    check(app.shown() == Shown::Error, "chord again reboots the image")
}

fn sample_image_plays_to_the_end() -> TestResult {
    let sample = include_bytes!("../../images/sample.bin");
    let mut app = XLogoApp::boot_as(&LM3S6965, sample);
    check(app.error_message().is_none(), "sample image rejected")?;
    let mut frames = 0;
    while !app.finished() && frames < 2_000 {
        app.step(Buttons::NONE);
        frames += 1;
    }
    check(matches!(app.shown(), Shown::XLogo(s) if s.done && s.step == s.steps), "not at the end")?;
    let mut fb = oled::OledFramebuffer::new();
    app.draw(&mut fb).map_err(|_| "draw")?;
    hprintln!("  sample: {} frames, heap peak {} bytes", frames, HEAP.peak());
    check(fb.data().iter().any(|&b| b != 0), "final picture is blank")
}

fn heap_tracks_peak() -> TestResult {
    let before = HEAP.used();
    let block: Vec<u8> = Vec::with_capacity(3000);
    check(HEAP.used() >= before + 3000, "used counts the block")?;
    drop(block);
    check(HEAP.used() == before && HEAP.peak() >= before + 3000, "peak outlives the block")
}

fn frame_clock_ticks() -> TestResult {
    let start = clock::ticks();
    let mut seen = start;
    for _ in 0..3 {
        seen = clock::wait_for_tick(seen);
    }
    check(seen.wrapping_sub(start) >= 3, "three ticks")
}

fn oled_frame_is_sent_without_stalling() -> TestResult {
    let mut panel = oled::Oled::init();
    let mut fb = oled::OledFramebuffer::new();
    fb.clear(embedded_graphics::pixelcolor::Gray4::WHITE).map_err(|_| "clear")?;
    // Twice the receive FIFO's depth many times over: a missing drain would hang here.
    panel.show(&fb);
    panel.show(&fb);
    Ok(())
}

type Test = (&'static str, fn() -> TestResult);

const TESTS: &[Test] = &[
    ("crc32_check_value", crc32_check_value),
    ("image_round_trip", image_round_trip),
    ("damaged_images_rejected", damaged_images_rejected),
    ("app_shows_error_screen_for_garbage", app_shows_error_screen_for_garbage),
    ("diagnostics_chord_toggles", diagnostics_chord_toggles),
    ("sample_image_plays_to_the_end", sample_image_plays_to_the_end),
    ("heap_tracks_peak", heap_tracks_peak),
    ("frame_clock_ticks", frame_clock_ticks),
    ("oled_frame_is_sent_without_stalling", oled_frame_is_sent_without_stalling),
];

const HEAP_BYTES: usize = LM3S6965.heap_bytes as usize;

#[entry]
fn main() -> ! {
    static mut HEAP_MEM: [MaybeUninit<u8>; HEAP_BYTES] = [MaybeUninit::uninit(); HEAP_BYTES];
    // SAFETY: `HEAP_MEM` is this entry point's own static, handed to the heap once, here.
    unsafe { HEAP.init(HEAP_MEM.as_mut_ptr() as usize, HEAP_BYTES) };
    if let Some(mut core) = cortex_m::Peripherals::take() {
        clock::start(&mut core.SYST, 12_500_000, clock::FPS);
    }
    let (mut passed, mut failed) = (0u32, 0u32);
    for (name, test) in TESTS {
        match test() {
            Ok(()) => {
                passed += 1;
                hprintln!("test {} ... ok", name);
            }
            Err(why) => {
                failed += 1;
                hprintln!("test {} ... FAILED: {}", name, why);
            }
        }
    }
    hprintln!("{} passed, {} failed", passed, failed);
    debug::exit(if failed == 0 { debug::EXIT_SUCCESS } else { debug::EXIT_FAILURE });
    loop {
        cortex_m::asm::wfi();
    }
}

#[exception]
fn SysTick() {
    clock::on_tick();
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("panic: {}", info);
    hprintln!("0 passed, 1 failed");
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
