//! Memory-mapped registers of the LM3S6965 peripherals the kit uses (system control, GPIO
//! ports, SSI0), as plain volatile reads and writes at fixed addresses.

/// System control: run-mode clock gating.
pub const SYSCTL_RCGC1: usize = 0x400F_E104;
/// System control: run-mode clock gating of the GPIO ports.
pub const SYSCTL_RCGC2: usize = 0x400F_E108;

/// GPIO port A (SSI0 pins).
pub const GPIO_A: usize = 0x4000_4000;
/// GPIO port C (pin 7: OLED data/command).
pub const GPIO_C: usize = 0x4000_6000;
/// GPIO port D (pin 0: OLED chip select).
pub const GPIO_D: usize = 0x4000_7000;
/// GPIO port E (pins 0-3: gamepad up, down, left, right).
pub const GPIO_E: usize = 0x4002_4000;
/// GPIO port F (pin 1: gamepad select).
pub const GPIO_F: usize = 0x4002_5000;

/// GPIO register offsets.
pub const GPIO_DIR: usize = 0x400;
/// Alternate function select.
pub const GPIO_AFSEL: usize = 0x420;
/// Pull-up enable.
pub const GPIO_PUR: usize = 0x510;
/// Digital enable.
pub const GPIO_DEN: usize = 0x51C;

/// SSI0 (an ARM PL022).
pub const SSI0: usize = 0x4000_8000;
/// Control 0: frame format, data size, clock rate.
pub const SSI_CR0: usize = 0x00;
/// Control 1: enable, master/slave.
pub const SSI_CR1: usize = 0x04;
/// Data FIFO.
pub const SSI_DR: usize = 0x08;
/// Status.
pub const SSI_SR: usize = 0x0C;
/// Clock prescale.
pub const SSI_CPSR: usize = 0x10;
/// Status: transmit FIFO not full.
pub const SSI_SR_TNF: u32 = 1 << 1;
/// Status: receive FIFO not empty.
pub const SSI_SR_RNE: u32 = 1 << 2;
/// Status: busy.
pub const SSI_SR_BSY: u32 = 1 << 4;

/// Reads the 32-bit register at `addr`.
pub fn read(addr: usize) -> u32 {
    // SAFETY: callers pass addresses of this chip's peripheral registers (constants above),
    // which are always mapped and have no read side effects beyond the FIFO pop of SSI_DR.
    unsafe { core::ptr::read_volatile(addr as *const u32) }
}

/// Writes the 32-bit register at `addr`.
pub fn write(addr: usize, value: u32) {
    // SAFETY: as for `read`; the firmware is single-threaded and owns these peripherals.
    unsafe { core::ptr::write_volatile(addr as *mut u32, value) }
}

/// Sets `bits` in the register at `addr`.
pub fn set_bits(addr: usize, bits: u32) {
    write(addr, read(addr) | bits);
}

/// The GPIO data register address that reads or writes exactly the pins in `mask`
/// (Stellaris GPIO masks data accesses with address bits 2..9).
pub fn gpio_data(port: usize, mask: u8) -> usize {
    port + (usize::from(mask) << 2)
}
