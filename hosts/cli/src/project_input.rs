//! Reading a Scratch project argument (`project.json`, a folder holding one, `.sb3` or `.sb2`)
//! and compiling it (`gobo_host::project`); shared by `gobo run`, `render`, `test` and `conform`.

use std::path::Path;

use gobo::scratch::image::Image;
use gobo_host::project::compile_files;
use gobo_host::sb3::ProjectFiles;

/// Reads a project's files.
pub fn load_files(path: &Path) -> Result<ProjectFiles, String> {
    gobo_host::sb3::load_path(path).map_err(|e| {
        if e.names_file() {
            e.to_string()
        } else {
            format!("{}: {e}", path.display())
        }
    })
}

/// Loads and compiles a project with its costume skins, printing each warning (a dropped
/// block reference, a costume replaced by the default one) to stderr.
pub fn load_image(path: &Path) -> Result<Image, String> {
    compile_path(path, &load_files(path)?)
}

/// Loads and compiles a project without printing its warnings (a second load in one run).
pub fn load_image_quiet(path: &Path) -> Result<Image, String> {
    let files = load_files(path)?;
    compile_files(&files).map(|c| c.image).map_err(|e| format!("{}: {e}", path.display()))
}

/// Compiles files read from `path` (named in messages), printing each warning; missing
/// assets are reported once, in one line.
pub fn compile_path(path: &Path, files: &ProjectFiles) -> Result<Image, String> {
    let compiled = compile_files(files).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut missing = 0usize;
    for warning in &compiled.warnings {
        if warning.contains("is missing (using the default costume)") {
            missing += 1;
        } else {
            eprintln!("gobo: warning: {}: {warning}", path.display());
        }
    }
    if missing > 0 {
        eprintln!(
            "gobo: warning: {}: {missing} costume(s) name a missing asset and show the default costume",
            path.display()
        );
    }
    Ok(compiled.image)
}
