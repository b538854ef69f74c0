//! A Scratch project's files turned into a runnable program image: `project.json` parsed (with
//! scratch-vm's tolerance for dangling references), compiled, and its costumes decoded into
//! skins, with every warning collected for the host to show. Shared by the CLI and the server;
//! the semantics are the core's (`gobo::scratch::project`, `gobo::scratch::compile`).

use std::fmt;

use gobo::scratch::compile::{compile, CompileError};
use gobo::scratch::image::Image;
use gobo::scratch::project::{load_with, LoadError, LoadOptions};

use crate::sb3::ProjectFiles;
use crate::skins::{attach_skins, SkinOptions};

/// A compiled project and what was repaired or defaulted on the way.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The program image, costume skins attached.
    pub image: Image,
    /// Dropped block references and costumes replaced by the default costume, one line each.
    pub warnings: Vec<String>,
}

/// Why a project could not be compiled.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProjectError {
    /// `project.json` is not a readable project.
    Load(LoadError),
    /// The project parsed but cannot be compiled.
    Compile(CompileError),
}

impl fmt::Display for ProjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProjectError::Load(e) => write!(f, "{e}"),
            ProjectError::Compile(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProjectError {}

/// Loads and compiles `files`. Like scratch-vm, a dangling, shared or cyclic block reference
/// does not stop the project from loading: the reference is dropped with a warning; a missing
/// or undecodable costume gets the default costume, with a warning.
pub fn compile_files(files: &ProjectFiles) -> Result<Compiled, ProjectError> {
    let options = LoadOptions { repair_references: true };
    let project = load_with(&files.project_json, &options).map_err(ProjectError::Load)?;
    let mut warnings: Vec<String> = project.warnings.iter().map(ToString::to_string).collect();
    let mut image = compile(&project).map_err(ProjectError::Compile)?;
    let skin_warnings = attach_skins(&mut image, &project, files, &SkinOptions::default());
    warnings.extend(skin_warnings.iter().map(ToString::to_string));
    Ok(Compiled { image, warnings })
}
