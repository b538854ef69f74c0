//! Reading a Scratch project argument (`project.json`, a folder holding one, or `.sb3`) and
//! compiling it; shared by `gobo run` and `gobo conform`.

use std::path::Path;

use gobo::scratch::compile::compile;
use gobo::scratch::image::Image;
use gobo::scratch::project::{load_with, LoadOptions};

/// The bytes of `project.json` for a path (via the `.sb3` reader of `gobo-host`).
pub fn project_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let files = gobo_host::sb3::load_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(files.project_json)
}

/// Load and compile a project. Like scratch-vm, a dangling, shared or cyclic block reference
/// does not stop the project from loading: the reference is dropped and a warning printed.
pub fn load_image(path: &Path) -> Result<Image, String> {
    let bytes = project_bytes(path)?;
    let options = LoadOptions { repair_references: true };
    let project = load_with(&bytes, &options).map_err(|e| format!("{}: {e}", path.display()))?;
    for warning in &project.warnings {
        eprintln!("gobo: warning: {}: {warning}", path.display());
    }
    compile(&project).map_err(|e| format!("{}: {e}", path.display()))
}
