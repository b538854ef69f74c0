//! Building the firmware workspace (`firmware/`) for the emulated kit with a chosen program
//! image, one build at a time (the image is baked in at build time). Builds use the release
//! profile: the Scratch VM fits the kit's 256 KiB of flash only size-optimised with LTO.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::{env, fs};

/// The bare-metal target of the emulated kit.
pub const TARGET: &str = "thumbv7m-none-eabi";

static BUILD_LOCK: Mutex<()> = Mutex::new(());

/// The repository root (parent of `hosts/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Why the kit tests cannot run here, if they cannot: no `qemu-system-arm` on PATH, or no
/// standard library for [`TARGET`].
pub fn missing_prerequisite() -> Option<String> {
    let qemu = Command::new("qemu-system-arm").arg("--version").output();
    if !qemu.map(|o| o.status.success()).unwrap_or(false) {
        return Some("qemu-system-arm not found".into());
    }
    let libdir = Command::new("rustc")
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    match libdir {
        Some(dir) if dir.join("libcore.rlib").exists() || has_core(&dir) => None,
        _ => Some(format!("rust target {TARGET} not installed")),
    }
}

fn has_core(dir: &Path) -> bool {
    fs::read_dir(dir)
        .map(|entries| {
            entries.flatten().any(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
        })
        .unwrap_or(false)
}

/// A scratch directory for this test process.
pub fn scratch_dir() -> PathBuf {
    let dir = env::temp_dir().join(format!("gobo-kit-tests-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn cargo(args: &[&str], image: Option<&Path>) -> Vec<serde_json::Value> {
    let root = repo_root();
    let mut cmd = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args)
        .arg("--manifest-path")
        .arg(root.join("firmware/Cargo.toml"))
        .arg("--target-dir")
        .arg(root.join("firmware/target"))
        .args(["--target", TARGET, "--release", "--locked", "--message-format=json"]);
    for var in ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_TARGET_DIR"] {
        cmd.env_remove(var);
    }
    match image {
        Some(path) => cmd.env("GOBO_KIT_IMAGE", path),
        None => cmd.env_remove("GOBO_KIT_IMAGE"),
    };
    let out = cmd.output().expect("run cargo");
    assert!(
        out.status.success(),
        "firmware build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn executable(messages: &[serde_json::Value], name: &str) -> PathBuf {
    messages
        .iter()
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo built no executable {name}"))
}

/// Builds the emulated-kit firmware embedding `image` and returns a copy of the ELF named
/// `label` in the scratch directory (so later builds do not overwrite it).
pub fn build_with_image(image: &[u8], label: &str) -> PathBuf {
    let _guard = BUILD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch_dir();
    let image_path = dir.join(format!("{label}.bin"));
    fs::write(&image_path, image).expect("write image");
    let messages = cargo(
        &["build", "-p", "gobo-kit-lm3s6965", "--bin", "gobo-kit-lm3s6965"],
        Some(&image_path),
    );
    let elf = dir.join(format!("{label}.elf"));
    fs::copy(executable(&messages, "gobo-kit-lm3s6965"), &elf).expect("copy firmware");
    elf
}

/// Builds the firmware with its default image (`firmware/images/sample.bin`).
pub fn build_default(label: &str) -> PathBuf {
    let _guard = BUILD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let messages = cargo(&["build", "-p", "gobo-kit-lm3s6965", "--bin", "gobo-kit-lm3s6965"], None);
    let elf = scratch_dir().join(format!("{label}.elf"));
    fs::copy(executable(&messages, "gobo-kit-lm3s6965"), &elf).expect("copy firmware");
    elf
}

/// Builds the on-chip unit-test binary and returns its path.
pub fn build_onchip_tests() -> PathBuf {
    let _guard = BUILD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let messages = cargo(&["build", "-p", "gobo-kit-lm3s6965", "--test", "onchip"], None);
    executable(&messages, "onchip")
}
