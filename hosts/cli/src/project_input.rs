//! Reading a Scratch project argument (`project.json`, a folder holding one, or `.sb3`) and
//! compiling it (`gobo_host::project`), with its warnings printed; shared by `gobo run`,
//! `gobo render`, `gobo test` and `gobo conform`.

use std::path::Path;

use gobo::scratch::image::Image;
use gobo_host::project::{load_path, LoadedProject};

/// Load and compile a project with its costume skins. Like scratch-vm, a dangling, shared or
/// cyclic block reference does not stop the project from loading: the reference is dropped
/// and a warning printed; a missing or undecodable costume gets the default costume, with a
/// warning.
pub fn load(path: &Path) -> Result<LoadedProject, String> {
    let loaded = load_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for warning in &loaded.warnings {
        eprintln!("gobo: warning: {}: {warning}", path.display());
    }
    Ok(loaded)
}

/// [`load`], keeping only the program image.
pub fn load_image(path: &Path) -> Result<Image, String> {
    load(path).map(|l| l.image)
}
