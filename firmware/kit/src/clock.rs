//! The frame clock: SysTick interrupts at the frame rate and counts ticks; the app loop sleeps
//! (WFI) until the next tick. Virtual time is the number of frames stepped, not wall time.

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;

/// Frames per second of every kit.
pub const FPS: u32 = 30;

static TICKS: AtomicU32 = AtomicU32::new(0);

/// Starts SysTick from the core clock (`core_hz`) so that it interrupts `fps` times a second.
/// The binary's SysTick exception handler must call [`on_tick`].
pub fn start(syst: &mut SYST, core_hz: u32, fps: u32) {
    let reload = (core_hz / fps.max(1)).saturating_sub(1).min(0x00FF_FFFF);
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(reload);
    syst.clear_current();
    syst.enable_interrupt();
    syst.enable_counter();
}

/// Counts one tick; call from the SysTick exception handler.
pub fn on_tick() {
    TICKS.fetch_add(1, Ordering::Relaxed);
}

/// Ticks since [`start`].
pub fn ticks() -> u32 {
    TICKS.load(Ordering::Relaxed)
}

/// Sleeps until the tick count differs from `seen` and returns it.
pub fn wait_for_tick(seen: u32) -> u32 {
    loop {
        let now = ticks();
        if now != seen {
            return now;
        }
        cortex_m::asm::wfi();
    }
}
