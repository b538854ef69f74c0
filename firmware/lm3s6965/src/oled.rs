//! The SSD0323 128x64 4-bit greyscale OLED on SSI0: the PL022 as an SPI master, the
//! data/command line on port C pin 7, and a packed framebuffer sent whole each frame.
//!
//! The PL022 keeps every byte it clocks in as a received byte; once its 8-entry receive FIFO
//! is full it stops sending, so every write drains the receive FIFO.

use embedded_graphics::framebuffer::{buffer_size, Framebuffer};
use embedded_graphics::pixelcolor::raw::BigEndian;
use embedded_graphics::pixelcolor::raw::RawU4;
use embedded_graphics::pixelcolor::Gray4;

use crate::regs::{self, *};

/// Display width in pixels.
pub const WIDTH: usize = 128;
/// Display height in pixels.
pub const HEIGHT: usize = 64;

/// The packed 4-bit framebuffer: two pixels per byte, the left pixel in the high nibble, which
/// is the SSD0323's column order.
pub type OledFramebuffer =
    Framebuffer<Gray4, RawU4, BigEndian, WIDTH, HEIGHT, { buffer_size::<Gray4>(WIDTH, HEIGHT) }>;

const DC_PIN: u8 = 1 << 7;
const CS_PIN: u8 = 1 << 0;

/// Controller commands (each followed by its argument bytes, all sent with D/C low).
const INIT: &[u8] = &[
    0xAE, // display off
    0xA0, 0x00, // remap: horizontal address increment, no nibble or column remap
    0xA1, 0x00, // display start line 0
    0xA2, 0x00, // display offset 0
    0xA4, // normal display
    0xA8, 0x3F, // multiplex ratio: 64 rows
    0x81, 0x50, // contrast
    0xAF, // display on
];

/// The OLED and the SSI port it hangs on.
#[derive(Debug)]
pub struct Oled {
    _private: (),
}

impl Oled {
    /// Clocks SSI0 and GPIO, configures the pins and the PL022, and initialises the panel.
    pub fn init() -> Self {
        regs::set_bits(SYSCTL_RCGC1, 1 << 4); // SSI0
        regs::set_bits(SYSCTL_RCGC2, 0b11_1101); // ports A, C, D, E, F
                                                 // SSI0 pins PA2 (clock), PA3 (frame), PA5 (transmit) to the SSI.
        regs::set_bits(GPIO_A + GPIO_AFSEL, 0b10_1100);
        regs::set_bits(GPIO_A + GPIO_DEN, 0b10_1100);
        // D/C and chip select are outputs; select the OLED (chip select high).
        regs::set_bits(GPIO_C + GPIO_DIR, u32::from(DC_PIN));
        regs::set_bits(GPIO_C + GPIO_DEN, u32::from(DC_PIN));
        regs::set_bits(GPIO_D + GPIO_DIR, u32::from(CS_PIN));
        regs::set_bits(GPIO_D + GPIO_DEN, u32::from(CS_PIN));
        regs::write(regs::gpio_data(GPIO_D, CS_PIN), u32::from(CS_PIN));
        // PL022: disabled while configuring; SPI mode 3, 8-bit frames; prescale 2; master.
        regs::write(SSI0 + SSI_CR1, 0);
        regs::write(SSI0 + SSI_CR0, 0xC7);
        regs::write(SSI0 + SSI_CPSR, 2);
        regs::write(SSI0 + SSI_CR1, 1 << 1);
        let mut oled = Self { _private: () };
        oled.command(INIT);
        oled
    }

    /// Sends the whole framebuffer.
    pub fn show(&mut self, frame: &OledFramebuffer) {
        // Column range 0..63 (two pixels per column byte) and row range 0..63.
        self.command(&[0x15, 0x00, 0x3F, 0x75, 0x00, 0x3F]);
        self.set_data_mode(true);
        for &byte in frame.data() {
            self.send(byte);
        }
        self.finish();
        self.set_data_mode(false);
    }

    fn command(&mut self, bytes: &[u8]) {
        self.set_data_mode(false);
        for &b in bytes {
            self.send(b);
        }
        self.finish();
    }

    fn set_data_mode(&mut self, data: bool) {
        let level = if data { DC_PIN } else { 0 };
        regs::write(regs::gpio_data(GPIO_C, DC_PIN), u32::from(level));
    }

    fn send(&mut self, byte: u8) {
        while regs::read(SSI0 + SSI_SR) & SSI_SR_TNF == 0 {
            self.drain();
        }
        regs::write(SSI0 + SSI_DR, u32::from(byte));
        self.drain();
    }

    /// Waits for the shift register to empty (so D/C may change) and drains the receive FIFO.
    fn finish(&mut self) {
        while regs::read(SSI0 + SSI_SR) & SSI_SR_BSY != 0 {
            self.drain();
        }
        self.drain();
    }

    fn drain(&mut self) {
        while regs::read(SSI0 + SSI_SR) & SSI_SR_RNE != 0 {
            let _ = regs::read(SSI0 + SSI_DR);
        }
    }
}
