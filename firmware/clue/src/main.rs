//! gobo classroom-kit firmware for the real kit, the Adafruit CLUE (nRF52840): runs the embedded
//! program image on the 240x240 ST7789 display (SPIM0, via `mipidsi`) with buttons A and B as
//! keys, at 30 frames per second from SysTick. See `docs/firmware.md`; CI builds it in release
//! mode, it runs only on the board.
#![no_std]
#![no_main]

extern crate alloc;

use core::fmt;
use core::mem::MaybeUninit;

use cortex_m_rt::{entry, exception};
use embedded_hal::digital::InputPin;
use embedded_hal_bus::spi::{ExclusiveDevice, NoDelay};
use gobo::kit::{Buttons, CLUE};
use gobo_kit::clock::{self, FPS};
use gobo_kit::heap::PeakHeap;
use gobo_kit::Board;
use mipidsi::interface::SpiInterface;
use mipidsi::models::ST7789;
use mipidsi::options::ColorInversion;
use mipidsi::{Builder, Display};
use nrf52840_hal::gpio::{p0, p1, Input, Level, Output, Pin, PullUp, PushPull};
use nrf52840_hal::pac::{self, SPIM0};
use nrf52840_hal::spim::{self, Spim};
use nrf52840_hal::Timer;

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

/// The nRF52840 core clock.
const CORE_HZ: u32 = 64_000_000;

const HEAP_BYTES: usize = CLUE.heap_bytes as usize;

#[global_allocator]
static HEAP: PeakHeap = PeakHeap::empty();

type OutPin = Pin<Output<PushPull>>;
type Spi = ExclusiveDevice<Spim<SPIM0>, OutPin, NoDelay>;
type Tft = Display<SpiInterface<'static, Spi, OutPin>, ST7789, OutPin>;

struct Clue {
    tft: Tft,
    a: Pin<Input<PullUp>>,
    b: Pin<Input<PullUp>>,
}

impl Board for Clue {
    type Display = Tft;

    fn buttons(&mut self) -> Buttons {
        // Both buttons pull their line low while pressed.
        let a = if self.a.is_low().unwrap_or(false) { Buttons::A } else { Buttons::NONE };
        let b = if self.b.is_low().unwrap_or(false) { Buttons::B } else { Buttons::NONE };
        a | b
    }

    fn display(&mut self) -> &mut Tft {
        &mut self.tft
    }

    fn flush(&mut self) {
        // mipidsi draws straight to the panel; nothing is buffered.
    }

    fn log(&mut self, _line: fmt::Arguments<'_>) {
        // The CLUE has no host link in this firmware.
    }
}

#[entry]
fn main() -> ! {
    static mut HEAP_MEM: [MaybeUninit<u8>; HEAP_BYTES] = [MaybeUninit::uninit(); HEAP_BYTES];
    static mut SPI_BUFFER: [u8; 512] = [0; 512];
    // SAFETY: `HEAP_MEM` is this entry point's own static, handed to the heap once, here.
    unsafe { HEAP.init(HEAP_MEM.as_mut_ptr() as usize, HEAP_BYTES) };

    let (Some(mut core), Some(p)) = (cortex_m::Peripherals::take(), pac::Peripherals::take())
    else {
        panic!("peripherals taken twice");
    };
    let port0 = p0::Parts::new(p.P0);
    let port1 = p1::Parts::new(p.P1);
    // CLUE wiring: TFT SCK P0.14, MOSI P0.15, CS P0.12, DC P0.13, reset P1.03, backlight P1.05;
    // button A P1.02, button B P1.10.
    let sck = port0.p0_14.into_push_pull_output(Level::Low).degrade();
    let mosi = port0.p0_15.into_push_pull_output(Level::Low).degrade();
    let cs = port0.p0_12.into_push_pull_output(Level::High).degrade();
    let dc = port0.p0_13.into_push_pull_output(Level::Low).degrade();
    let reset = port1.p1_03.into_push_pull_output(Level::High).degrade();
    let _backlight = port1.p1_05.into_push_pull_output(Level::High);
    let a = port1.p1_02.into_pullup_input().degrade();
    let b = port1.p1_10.into_pullup_input().degrade();

    let pins = spim::Pins { sck: Some(sck), mosi: Some(mosi), miso: None };
    let bus = Spim::new(p.SPIM0, pins, spim::Frequency::M8, spim::MODE_3, 0);
    let Ok(spi) = ExclusiveDevice::new_no_delay(bus, cs);
    let interface = SpiInterface::new(spi, dc, SPI_BUFFER);
    let mut delay = Timer::new(p.TIMER0);
    let tft = match Builder::new(ST7789, interface)
        .display_size(240, 240)
        .invert_colors(ColorInversion::Inverted)
        .reset_pin(reset)
        .init(&mut delay)
    {
        Ok(tft) => tft,
        Err(_) => panic!("display init failed"),
    };

    let mut board = Clue { tft, a, b };
    clock::start(&mut core.SYST, CORE_HZ, FPS);
    gobo_kit::run::<Player, _>(&mut board, &CLUE, IMAGE, &HEAP)
}

#[exception]
fn SysTick() {
    clock::on_tick();
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        cortex_m::asm::wfi();
    }
}
