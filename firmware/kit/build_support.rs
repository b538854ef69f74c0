// Build-script support shared by the board crates (`include!`d by their `build.rs`): puts the
// board's `memory.x` on the linker path, links with cortex-m-rt's `link.x`, and copies the
// program image to embed into OUT_DIR as `image.bin`: `$GOBO_KIT_IMAGE` if set and not empty,
// else `firmware/images/sample.bin`. It also sets `cfg(gobo_program = "scratch")` when the
// image's header says Scratch (kind byte 1) and `cfg(gobo_program = "drawing")` for a drawing
// (kind byte 3), so the board links only the player it needs (the Scratch VM and the XLogo
// emulator do not both fit 256 KiB of flash); anything else, including an image the kit will
// reject, gets `cfg(gobo_program = "xlogo")` and the XLogo player.

fn prepare_board_build() {
    use std::path::PathBuf;
    use std::{env, fs};

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    fs::copy(manifest.join("memory.x"), out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg=-Tlink.x");
    println!("cargo:rerun-if-changed=memory.x");

    println!("cargo:rerun-if-env-changed=GOBO_KIT_IMAGE");
    let image = match env::var_os("GOBO_KIT_IMAGE") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => manifest.join("../images/sample.bin"),
    };
    println!("cargo:rerun-if-changed={}", image.display());
    let bytes = fs::read(&image)
        .unwrap_or_else(|e| panic!("cannot read program image {}: {e}", image.display()));
    println!(
        "cargo::rustc-check-cfg=cfg(gobo_program, values(\"scratch\", \"xlogo\", \"drawing\"))"
    );
    let kind = if bytes.len() > 6 && bytes.starts_with(b"GOBO") { bytes[6] } else { 0 };
    let program = match kind {
        1 => "scratch",
        3 => "drawing",
        _ => "xlogo",
    };
    println!("cargo::rustc-cfg=gobo_program=\"{program}\"");
    fs::write(out.join("image.bin"), bytes).expect("write image.bin");
}
