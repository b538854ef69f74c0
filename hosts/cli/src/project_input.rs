//! Reading a Scratch project argument (`project.json`, a folder holding one, `.sb3` or `.sb2`)
//! and compiling it (`gobo_host::project`); shared by `gobo run`, `render`, `test` and `conform`.

use std::path::Path;

use gobo::scratch::image::Image;
use gobo_host::project::compile_files;
use gobo_host::sb3::ProjectFiles;

/// Reads a project's files.
pub fn load_files(path: &Path) -> Result<ProjectFiles, String> {
    gobo_host::sb3::load_path(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Loads and compiles a project with its costume skins, printing each warning (a dropped
/// block reference, a costume replaced by the default one) to stderr.
pub fn load_image(path: &Path) -> Result<Image, String> {
    compile_path(path, &load_files(path)?)
}

/// Compiles files read from `path` (named in messages), printing each warning.
pub fn compile_path(path: &Path, files: &ProjectFiles) -> Result<Image, String> {
    let compiled = compile_files(files).map_err(|e| format!("{}: {e}", path.display()))?;
    for warning in &compiled.warnings {
        eprintln!("gobo: warning: {}: {warning}", path.display());
    }
    Ok(compiled.image)
}
