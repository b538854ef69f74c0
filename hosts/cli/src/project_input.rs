//! Reading a Scratch project argument (`project.json`, a folder holding one, or `.sb3`) and
//! compiling it; shared by `gobo run` and `gobo conform`.

use std::path::Path;

use gobo::scratch::compile::compile;
use gobo::scratch::image::Image;
use gobo::scratch::project::{load_with, LoadOptions};
use gobo_host::skins::{attach_skins, SkinOptions};

/// Load and compile a project with its costume skins. Like scratch-vm, a dangling, shared or
/// cyclic block reference does not stop the project from loading: the reference is dropped
/// and a warning printed; a missing or undecodable costume gets the default costume, with a
/// warning.
pub fn load_image(path: &Path) -> Result<Image, String> {
    let files = gobo_host::sb3::load_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let options = LoadOptions { repair_references: true };
    let project =
        load_with(&files.project_json, &options).map_err(|e| format!("{}: {e}", path.display()))?;
    for warning in &project.warnings {
        eprintln!("gobo: warning: {}: {warning}", path.display());
    }
    let mut image = compile(&project).map_err(|e| format!("{}: {e}", path.display()))?;
    let skin_options = SkinOptions::default();
    for warning in attach_skins(&mut image, &project, &files, &skin_options) {
        eprintln!("gobo: warning: {}: {warning}", path.display());
    }
    Ok(image)
}
