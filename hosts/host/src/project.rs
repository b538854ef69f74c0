//! A Scratch project's files turned into a runnable program image: `project.json` parsed (with
//! scratch-vm's tolerance for dangling references), compiled, and its costumes decoded into
//! skins, with every warning collected for the host to show. Shared by the CLI and the server;
//! the semantics are the core's (`gobo::scratch::project`, `gobo::scratch::compile`).
//!
//! Scratch 2 files (`.sb2`, or its `project.json`) load too: the core converts them
//! (`gobo::scratch::project::load_any`) and this module renames their asset files
//! (`<baseLayerID>.<ext>` in the archive) to the names the converted project gives them, so
//! skins and saving see one Scratch 3 project.

use std::fmt;

use gobo::scratch::compile::{compile, CompileError};
use gobo::scratch::image::Image;
use std::borrow::Cow;

use gobo::scratch::project::{load_any, save, LoadError, LoadOptions, Project, SourceFormat};

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
    let (project, files) = load_files(files, &options).map_err(ProjectError::Load)?;
    let mut warnings: Vec<String> = project.warnings.iter().map(ToString::to_string).collect();
    let mut image = compile(&project).map_err(ProjectError::Compile)?;
    let skin_warnings = attach_skins(&mut image, &project, &files, &SkinOptions::default());
    warnings.extend(skin_warnings.iter().map(ToString::to_string));
    Ok(Compiled { image, warnings })
}

/// Loads the project held in `files`, Scratch 3 or Scratch 2. For Scratch 2 the files
/// returned are the converted ones: `project.json` is the model saved as Scratch 3 and the
/// assets are named by their `md5ext`; Scratch 3 files are returned as they are.
pub fn load_files<'f>(
    files: &'f ProjectFiles,
    options: &LoadOptions,
) -> Result<(Project, Cow<'f, ProjectFiles>), LoadError> {
    let (project, renamed) = load_any(&files.project_json, &files.assets, options)?;
    if !matches!(project.source, SourceFormat::Sb2 { .. }) {
        return Ok((project, Cow::Borrowed(files)));
    }
    let mut converted = ProjectFiles { project_json: save(&project), ..ProjectFiles::default() };
    for a in renamed {
        if let Some(bytes) = files.assets.get(&a.file) {
            converted.assets.insert(a.md5ext, bytes.clone());
        }
    }
    Ok((project, Cow::Owned(converted)))
}

/// The files as a Scratch 3 reader sees them: a Scratch 2 project converted
/// ([`load_files`]), anything else unchanged (even when it does not load, so the caller's own
/// loader reports the problem).
pub fn scratch3_files(files: &ProjectFiles) -> Cow<'_, ProjectFiles> {
    let options = LoadOptions { repair_references: true };
    match load_files(files, &options) {
        Ok((_, converted)) => converted,
        Err(_) => Cow::Borrowed(files),
    }
}

/// Compiles an edited `project` whose assets are those of `files` (the Bug Forge's buggy
/// variants, a patched candidate), attaching its costume skins.
pub fn compile_project(project: &Project, files: &ProjectFiles) -> Result<Image, ProjectError> {
    let mut image = compile(project).map_err(ProjectError::Compile)?;
    attach_skins(&mut image, project, files, &SkinOptions::default());
    Ok(image)
}
