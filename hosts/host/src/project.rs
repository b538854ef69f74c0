//! A Scratch project ready to run, from any input a host takes: a path (an `.sb3`, a folder
//! holding `project.json`, or a `project.json` file) or bytes in memory (an `.sb3` archive or
//! `project.json` text). Loads the files, parses and compiles the project, attaches costume
//! skins, and returns the warnings for the host to print. Shared by the CLI and the Python
//! package; the semantics are the core's.

use std::fmt;
use std::path::Path;

use gobo::scratch::compile::{compile, CompileError};
use gobo::scratch::image::Image;
use gobo::scratch::project::{load_with, LoadError, LoadOptions};

use crate::sb3::{self, Limits, ProjectFiles, Sb3Error};
use crate::skins::{attach_skins, SkinOptions};

/// A loaded, compiled project.
#[derive(Debug, Clone)]
pub struct LoadedProject {
    /// The program image, costume skins attached.
    pub image: Image,
    /// The `project.json` text (test suites are checked against it).
    pub project_json: Vec<u8>,
    /// MD5 (hex) of what the project was read from, as the reference trace's `meta.md5`: the
    /// `.sb3` bytes, or `project.json` for a folder or a bare `project.json` (`None` when that
    /// file could not be read again).
    pub md5: Option<String>,
    /// Problems that did not stop the project from loading (dropped block references,
    /// costumes replaced by the default costume), one sentence each. The compiler's notes are
    /// in [`Image::warnings`].
    pub warnings: Vec<String>,
}

/// Why a project could not be loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProjectError {
    /// The files could not be read (I/O, zip, limits).
    Files(Sb3Error),
    /// `project.json` is not a project.
    Load(LoadError),
    /// The project does not compile.
    Compile(CompileError),
}

impl fmt::Display for ProjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProjectError::Files(e) => write!(f, "{e}"),
            ProjectError::Load(e) => write!(f, "{e}"),
            ProjectError::Compile(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProjectError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProjectError::Files(e) => Some(e),
            ProjectError::Load(e) => Some(e),
            ProjectError::Compile(e) => Some(e),
        }
    }
}

/// Reads project files held in memory: an `.sb3` archive (zip bytes) or `project.json` text
/// (then without assets: every costume gets the default costume, with a warning).
pub fn files_from_bytes(bytes: &[u8]) -> Result<ProjectFiles, Sb3Error> {
    if bytes.starts_with(b"PK") {
        sb3::read_sb3(bytes, &Limits::default())
    } else {
        Ok(ProjectFiles { project_json: bytes.to_vec(), ..ProjectFiles::default() })
    }
}

/// Loads and compiles project files. Like scratch-vm, a dangling, shared or cyclic block
/// reference does not stop the project from loading: the reference is dropped with a warning;
/// a missing or undecodable costume gets the default costume, with a warning. `md5` is the
/// hash to report for the project (see [`LoadedProject::md5`]).
pub fn load_files(
    files: &ProjectFiles,
    md5: Option<String>,
) -> Result<LoadedProject, ProjectError> {
    let options = LoadOptions { repair_references: true };
    let project = load_with(&files.project_json, &options).map_err(ProjectError::Load)?;
    let mut warnings: Vec<String> = project.warnings.iter().map(ToString::to_string).collect();
    let mut image = compile(&project).map_err(ProjectError::Compile)?;
    let skin_warnings = attach_skins(&mut image, &project, files, &SkinOptions::default());
    warnings.extend(skin_warnings.iter().map(ToString::to_string));
    Ok(LoadedProject { image, project_json: files.project_json.clone(), md5, warnings })
}

/// [`load_files`] on an `.sb3` file, a folder holding `project.json`, or a `project.json`.
pub fn load_path(path: &Path) -> Result<LoadedProject, ProjectError> {
    let files = sb3::load_path(path).map_err(ProjectError::Files)?;
    // The reference hashes the file it was given; for a folder, its project.json.
    let hashed = if path.is_dir() { path.join("project.json") } else { path.to_path_buf() };
    let md5 = std::fs::read(&hashed).ok().map(|bytes| gobo::md5::hex(&bytes));
    load_files(&files, md5)
}

/// [`load_files`] on bytes in memory ([`files_from_bytes`]); the MD5 is the bytes'.
pub fn load_bytes(bytes: &[u8]) -> Result<LoadedProject, ProjectError> {
    let files = files_from_bytes(bytes).map_err(ProjectError::Files)?;
    load_files(&files, Some(gobo::md5::hex(bytes)))
}
