//! gobo classroom-kit firmware for the emulated kit, QEMU's `lm3s6965evb`: runs the embedded
//! program image on the SSD0323 OLED with the gamepad as keys, at 30 frames per second from
//! SysTick, logging over semihosting what the display shows. See `docs/firmware.md`.
#![no_std]
#![no_main]

use core::fmt;
use core::mem::MaybeUninit;

use cortex_m_rt::{entry, exception};
use cortex_m_semihosting::hprintln;
use gobo::kit::{Buttons, LM3S6965};
use gobo_kit::clock::{self, FPS};
use gobo_kit::heap::PeakHeap;
use gobo_kit::Board;

use gobo_kit_lm3s6965::gamepad::Gamepad;
use gobo_kit_lm3s6965::oled::{Oled, OledFramebuffer};

extern crate alloc;

/// The program image chosen at build time (`GOBO_KIT_IMAGE`, default `images/sample.bin`).
static IMAGE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/image.bin"));

/// The player for the embedded image's kind (set by the build script; see
/// `firmware/kit/build_support.rs`).
#[cfg(gobo_program = "scratch")]
type Player = gobo::kit::scratch::Player;
#[cfg(gobo_program = "drawing")]
type Player = gobo::kit::drawing::Player;
#[cfg(not(any(gobo_program = "scratch", gobo_program = "drawing")))]
type Player = gobo::kit::xlogo::Player;

/// Core clock at reset: the 200 MHz PLL divided by 16 (RCC's reset SYSDIV).
const CORE_HZ: u32 = 12_500_000;

const HEAP_BYTES: usize = LM3S6965.heap_bytes as usize;

#[global_allocator]
static HEAP: PeakHeap = PeakHeap::empty();

struct Lm3s6965 {
    oled: Oled,
    frame: OledFramebuffer,
    pad: Gamepad,
}

impl Board for Lm3s6965 {
    type Display = OledFramebuffer;

    fn buttons(&mut self) -> Buttons {
        let was_armed = self.pad.armed();
        let buttons = self.pad.buttons();
        if !was_armed && self.pad.armed() {
            self.log(format_args!("gobo-kit: gamepad armed"));
        }
        buttons
    }

    fn display(&mut self) -> &mut OledFramebuffer {
        &mut self.frame
    }

    fn flush(&mut self) {
        self.oled.show(&self.frame);
    }

    fn log(&mut self, line: fmt::Arguments<'_>) {
        hprintln!("{}", line);
    }
}

#[entry]
fn main() -> ! {
    static mut HEAP_MEM: [MaybeUninit<u8>; HEAP_BYTES] = [MaybeUninit::uninit(); HEAP_BYTES];
    // SAFETY: `HEAP_MEM` is this entry point's own static, handed to the heap once, here.
    unsafe { HEAP.init(HEAP_MEM.as_mut_ptr() as usize, HEAP_BYTES) };

    let Some(mut core) = cortex_m::Peripherals::take() else {
        panic!("core peripherals taken twice");
    };
    let mut board =
        Lm3s6965 { oled: Oled::init(), frame: OledFramebuffer::new(), pad: Gamepad::init() };
    clock::start(&mut core.SYST, CORE_HZ, FPS);
    gobo_kit::run::<Player, _>(&mut board, &LM3S6965, IMAGE, &HEAP)
}

#[exception]
fn SysTick() {
    clock::on_tick();
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("gobo-kit: panic: {}", info);
    cortex_m_semihosting::debug::exit(cortex_m_semihosting::debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
