//! Board build: memory layout, linker script and the embedded program image
//! (see `firmware/kit/build_support.rs`).

include!("../kit/build_support.rs");

fn main() {
    prepare_board_build();
}
