//! Reading a Scratch project argument (`project.json`, a folder holding one, or `.sb3`) and
//! compiling it; shared by `gobo run` and `gobo conform`.

use std::path::Path;

use gobo::scratch::compile::compile;
use gobo::scratch::image::Image;
use gobo::scratch::project::load;

/// The bytes of `project.json` for a path.
pub fn project_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let file = if path.is_dir() { path.join("project.json") } else { path.to_path_buf() };
    if file.extension().is_some_and(|e| e.eq_ignore_ascii_case("sb3")) {
        return Err(format!("{}: .sb3 archives need the gobo-host sb3 reader", path.display()));
    }
    std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))
}

/// Load and compile a project.
pub fn load_image(path: &Path) -> Result<Image, String> {
    let bytes = project_bytes(path)?;
    let project = load(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    compile(&project).map_err(|e| format!("{}: {e}", path.display()))
}
