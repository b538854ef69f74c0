// Build-script support shared by the board crates (`include!`d by their `build.rs`): puts the
// board's `memory.x` on the linker path, links with cortex-m-rt's `link.x`, and copies the
// program image to embed into OUT_DIR as `image.bin`: `$GOBO_KIT_IMAGE` if set, else
// `firmware/images/sample.bin`.

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
        Some(path) => PathBuf::from(path),
        None => manifest.join("../images/sample.bin"),
    };
    println!("cargo:rerun-if-changed={}", image.display());
    let bytes = fs::read(&image)
        .unwrap_or_else(|e| panic!("cannot read program image {}: {e}", image.display()));
    fs::write(out.join("image.bin"), bytes).expect("write image.bin");
}
