//! Scratch project files from disk: `.sb3` and `.sb2` archives (zip), folders holding
//! `project.json` and bare `project.json` files, read into [`ProjectFiles`] (the JSON bytes plus assets by name)
//! with limits against hostile archives, and written back to `.sb3`.
//!
//! Limits ([`Limits`]) are checked while inflating, never trusted from zip headers: entry
//! count, bytes per entry and total bytes. Entry names must be file names as Scratch writes
//! them, optionally inside one folder (no deeper nesting, no `..`, no absolute or drive paths);
//! macOS clutter (`__MACOSX/`, `.DS_Store`) is skipped. Parsing `project.json` is the
//! core's job (`gobo::scratch::project::load`); this module only moves bytes.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Cursor, Read, Write};
use std::path::{Path, PathBuf};

use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

/// Bounds on what an archive or folder may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most entries an archive may list (directories included).
    pub max_entries: usize,
    /// Most bytes one entry (or file) may inflate to.
    pub max_entry_bytes: u64,
    /// Most bytes all entries together may inflate to.
    pub max_total_bytes: u64,
}

impl Default for Limits {
    /// 1000 entries, 64 MiB per entry, 256 MiB in total: well above the projects the Scratch
    /// website accepts, far below what a zip bomb inflates to.
    fn default() -> Self {
        Limits { max_entries: 1000, max_entry_bytes: 64 << 20, max_total_bytes: 256 << 20 }
    }
}

/// A project's files: `project.json` bytes and asset bytes by file name (`md5ext`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectFiles {
    /// The bytes of `project.json` (not yet parsed).
    pub project_json: Vec<u8>,
    /// Assets by file name, e.g. `"83a9787d4cb6f3b7632b4ddfebf74367.wav"`.
    pub assets: BTreeMap<String, Vec<u8>>,
}

/// Why project files could not be read or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum Sb3Error {
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// A file named `.sb3` that is not a zip archive at all.
    NotZip {
        /// The file.
        path: PathBuf,
    },
    /// The archive is not a readable zip file.
    Zip {
        /// What the zip reader reported.
        message: String,
    },
    /// The archive lists more entries than [`Limits::max_entries`].
    TooManyEntries {
        /// Entries listed.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// One entry or file inflates past [`Limits::max_entry_bytes`].
    EntryTooLarge {
        /// Entry or file name.
        name: String,
        /// The limit.
        limit: u64,
    },
    /// All entries together inflate past [`Limits::max_total_bytes`].
    TotalTooLarge {
        /// The limit.
        limit: u64,
    },
    /// An entry name that is not a flat file name (`..`, absolute, nested folders...).
    BadEntryName {
        /// The name as stored (lossy UTF-8).
        name: String,
    },
    /// Two entries with the same name.
    DuplicateEntry {
        /// The name.
        name: String,
    },
    /// No `project.json` in the archive or folder.
    MissingProjectJson {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// `project.json` names an asset that is absent ([`check_assets`]).
    MissingAsset {
        /// The asset file name.
        name: String,
    },
    /// An asset that is not what its name says ([`check_assets`]).
    BadAsset {
        /// The asset file name.
        name: String,
        /// What is wrong.
        reason: &'static str,
    },
}

impl Sb3Error {
    /// Whether the message already names the file it is about (then a host prints it as it is,
    /// and otherwise after the path it was reading).
    pub fn names_file(&self) -> bool {
        matches!(
            self,
            Sb3Error::Io { .. } | Sb3Error::NotZip { .. } | Sb3Error::MissingProjectJson { .. }
        )
    }
}

impl fmt::Display for Sb3Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sb3Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Sb3Error::NotZip { path } => write!(
                f,
                "{}: not a zip archive (an .sb3 file is a zip of project.json and its assets)",
                path.display()
            ),
            Sb3Error::Zip { message } => write!(f, "not a readable .sb3 (zip) archive: {message}"),
            Sb3Error::TooManyEntries { count, limit } => {
                write!(f, "archive lists {count} entries, more than the limit of {limit}")
            }
            Sb3Error::EntryTooLarge { name, limit } => {
                write!(f, "{name}: inflates past the limit of {limit} bytes")
            }
            Sb3Error::TotalTooLarge { limit } => {
                write!(f, "archive inflates past the total limit of {limit} bytes")
            }
            Sb3Error::BadEntryName { name } => {
                write!(f, "{name:?}: not a plain file name (folders, '..' and absolute paths are refused)")
            }
            Sb3Error::DuplicateEntry { name } => write!(f, "{name}: listed twice"),
            Sb3Error::MissingProjectJson { path } => {
                write!(f, "{}: no project.json", path.display())
            }
            Sb3Error::MissingAsset { name } => {
                write!(f, "{name}: asset named by project.json is missing")
            }
            Sb3Error::BadAsset { name, reason } => write!(f, "{name}: {reason}"),
        }
    }
}

impl std::error::Error for Sb3Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Sb3Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<ZipError> for Sb3Error {
    fn from(e: ZipError) -> Self {
        Sb3Error::Zip { message: e.to_string() }
    }
}

/// Reads a project from `path`: an `.sb3` archive, a folder holding `project.json` (assets
/// beside it or in `assets/`), or a bare `project.json` (assets beside it), with default
/// [`Limits`]. Assets `project.json` names but the folder lacks are left out (see
/// [`check_assets`]).
pub fn load_path(path: &Path) -> Result<ProjectFiles, Sb3Error> {
    load_path_with(path, &Limits::default())
}

/// [`load_path`] with explicit limits.
pub fn load_path_with(path: &Path, limits: &Limits) -> Result<ProjectFiles, Sb3Error> {
    let io_err = |source| Sb3Error::Io { path: path.to_path_buf(), source };
    let meta = std::fs::metadata(path).map_err(io_err)?;
    if meta.is_dir() {
        let json = path.join("project.json");
        if !json.is_file() {
            return Err(Sb3Error::MissingProjectJson { path: path.to_path_buf() });
        }
        return load_folder(&json, path, limits);
    }
    let mut head = [0u8; 2];
    let n = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).map_err(io_err)?;
    if head[..n] == *b"PK" {
        // The compressed archive is never larger than what it may inflate to.
        let bytes = read_capped(path, limits.max_total_bytes)?;
        return read_sb3(&bytes, limits);
    }
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sb3")) {
        return Err(Sb3Error::NotZip { path: path.to_path_buf() });
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    load_folder(path, dir, limits)
}

/// Reads a whole file, failing if it is longer than `cap` bytes.
fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, Sb3Error> {
    let io_err = |source| Sb3Error::Io { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(io_err)?;
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(io_err)?;
    if bytes.len() as u64 > cap {
        return Err(Sb3Error::EntryTooLarge { name: path.display().to_string(), limit: cap });
    }
    Ok(bytes)
}

/// A `project.json` file plus the assets it names, found in `dir` or `dir/assets`.
fn load_folder(json: &Path, dir: &Path, limits: &Limits) -> Result<ProjectFiles, Sb3Error> {
    let project_json = read_capped(json, limits.max_entry_bytes)?;
    let mut files = ProjectFiles { project_json, assets: BTreeMap::new() };
    let mut total = files.project_json.len() as u64;
    for name in asset_names(&files.project_json) {
        if check_name(&name).is_err() {
            continue;
        }
        let found =
            [dir.join(&name), dir.join("assets").join(&name)].into_iter().find(|p| p.is_file());
        let Some(file) = found else { continue };
        let bytes = read_capped(&file, limits.max_entry_bytes)?;
        total += bytes.len() as u64;
        if total > limits.max_total_bytes {
            return Err(Sb3Error::TotalTooLarge { limit: limits.max_total_bytes });
        }
        files.assets.insert(name, bytes);
    }
    Ok(files)
}

/// What the reference harness reports of a project's assets in a trace's meta line
/// (`missingAssets`, `packedFromJson`; `prepareProject` of `../shared/refvm/lib/refvm.js`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AssetLoad {
    /// Distinct costume and sound files a bare `project.json` names that were not found beside
    /// it or in `assets/` (0 for an `.sb3`, which the reference loads as it is).
    pub missing: usize,
    /// A bare `project.json` with every asset found: the reference packs them into an `.sb3`.
    pub packed_from_json: bool,
}

impl AssetLoad {
    /// For `files` read from an `.sb3` archive (`archive`) or from a bare `project.json`
    /// (a file or a folder's). A JSON document without a `targets` list (Scratch 2) counts
    /// nothing, as the reference does.
    pub fn of(files: &ProjectFiles, archive: bool) -> AssetLoad {
        let has_targets = serde_json::from_slice::<serde_json::Value>(&files.project_json)
            .is_ok_and(|v| v.get("targets").is_some_and(serde_json::Value::is_array));
        if archive || !has_targets {
            return AssetLoad::default();
        }
        let names = asset_names(&files.project_json);
        let missing = names.iter().filter(|n| !files.assets.contains_key(*n)).count();
        AssetLoad { missing, packed_from_json: missing == 0 }
    }
}

/// Whether `path` is a file starting with the zip signature (an `.sb3`); a folder is not.
pub fn is_archive(path: &Path) -> bool {
    let mut head = [0u8; 2];
    path.is_file()
        && std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && head == *b"PK"
}

/// The `md5ext` names of every costume and sound, in file order, without duplicates; for a
/// Scratch 2 `project.json`, the archive members it reads (`<baseLayerID>.<ext>`...).
/// Unparsable JSON names none (the core loader reports the JSON error).
pub fn asset_names(project_json: &[u8]) -> Vec<String> {
    let Ok(root) = serde_json::from_slice::<serde_json::Value>(project_json) else {
        return Vec::new();
    };
    if root.get("objName").is_some() && root.get("targets").is_none() {
        return match gobo::scratch::project::Json::parse(project_json) {
            Ok(tree) => gobo::scratch::project::sb2::member_names(&tree),
            Err(_) => Vec::new(),
        };
    }
    let mut names = Vec::new();
    let targets = root.get("targets").and_then(|t| t.as_array());
    for target in targets.into_iter().flatten() {
        for kind in ["costumes", "sounds"] {
            let assets = target.get(kind).and_then(|c| c.as_array());
            for asset in assets.into_iter().flatten() {
                let name = match asset.get("md5ext").and_then(|m| m.as_str()) {
                    Some(m) => Some(m.to_string()),
                    None => match (asset.get("assetId"), asset.get("dataFormat")) {
                        (
                            Some(serde_json::Value::String(id)),
                            Some(serde_json::Value::String(f)),
                        ) => Some(format!("{id}.{f}")),
                        _ => None,
                    },
                };
                if let Some(name) = name {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        }
    }
    names
}

/// Checks that an entry name is a flat file name as Scratch writes it.
fn check_name(name: &str) -> Result<(), Sb3Error> {
    let bad = name.is_empty()
        || name.contains(['/', '\\', ':', '\0'])
        || name == "."
        || name == ".."
        || name.len() > 255;
    if bad {
        Err(Sb3Error::BadEntryName { name: name.to_string() })
    } else {
        Ok(())
    }
}

/// Whether an archive entry is operating-system clutter that Scratch ignores: macOS resource
/// forks under `__MACOSX/` and hidden files such as `.DS_Store`. Such entries are not
/// inflated; names that climb out of the archive are refused all the same.
fn is_clutter(name: &str) -> Result<bool, Sb3Error> {
    let climbs = name.starts_with('/')
        || name.contains(['\\', ':', '\0'])
        || name.split('/').any(|part| part == "..");
    if climbs {
        return Err(Sb3Error::BadEntryName { name: name.to_string() });
    }
    // Hidden files (`.DS_Store`, `._a.png`) are clutter in the folder level too: a zipped
    // folder carries them as `p/.DS_Store`, and writing the files back puts them at the top.
    let file = name.rsplit('/').next().unwrap_or(name);
    Ok(name.starts_with("__MACOSX/") || file.starts_with('.'))
}

/// The file name of an entry: `name`, or `folder/name` with one folder level (scratch-vm finds
/// `project.json` and assets there too, as in a folder zipped by hand). Deeper paths are refused.
fn flat_name(entry: &str) -> Result<&str, Sb3Error> {
    let name = match entry.split_once('/') {
        Some((folder, name)) => {
            check_name(folder)?;
            name
        }
        None => entry,
    };
    check_name(name).map_err(|_| Sb3Error::BadEntryName { name: entry.to_string() })?;
    Ok(name)
}

/// Reads an `.sb3` archive held in memory.
pub fn read_sb3(bytes: &[u8], limits: &Limits) -> Result<ProjectFiles, Sb3Error> {
    let mut archive = ZipArchive::new(Cursor::new(bytes))?;
    if archive.len() > limits.max_entries {
        return Err(Sb3Error::TooManyEntries { count: archive.len(), limit: limits.max_entries });
    }
    let mut project_json = None;
    let mut assets = BTreeMap::new();
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let entry = archive.by_index(i)?;
        let raw_name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if is_clutter(&raw_name)? {
            continue;
        }
        if entry.is_dir() {
            // One folder level, as a re-zipped project has it (`origin/`), and no deeper.
            check_name(raw_name.trim_end_matches('/'))?;
            continue;
        }
        let name = flat_name(&raw_name)?;
        let remaining = limits.max_total_bytes.saturating_sub(total);
        let cap = limits.max_entry_bytes.min(remaining);
        let mut data = Vec::new();
        // Inflate at most one byte past the limit, whatever the header claims.
        entry
            .take(cap.saturating_add(1))
            .read_to_end(&mut data)
            .map_err(|e| Sb3Error::Zip { message: format!("{raw_name}: {e}") })?;
        if data.len() as u64 > cap {
            return Err(if cap < limits.max_entry_bytes {
                Sb3Error::TotalTooLarge { limit: limits.max_total_bytes }
            } else {
                Sb3Error::EntryTooLarge { name: name.to_string(), limit: limits.max_entry_bytes }
            });
        }
        total += data.len() as u64;
        let name = name.to_string();
        if name == "project.json" {
            if project_json.replace(data).is_some() {
                return Err(Sb3Error::DuplicateEntry { name });
            }
        } else if assets.insert(name.clone(), data).is_some() {
            return Err(Sb3Error::DuplicateEntry { name });
        }
    }
    let project_json = project_json
        .ok_or_else(|| Sb3Error::MissingProjectJson { path: PathBuf::from("project.json") })?;
    Ok(ProjectFiles { project_json, assets })
}

/// Reads a project held in memory: an `.sb3` archive (bytes starting with the zip signature
/// `PK`) or the bytes of a bare `project.json` (anything else; parsing it is the core's job),
/// which must fit [`Limits::max_entry_bytes`].
pub fn read_bytes(bytes: &[u8], limits: &Limits) -> Result<ProjectFiles, Sb3Error> {
    if bytes.starts_with(b"PK") {
        return read_sb3(bytes, limits);
    }
    if bytes.len() as u64 > limits.max_entry_bytes {
        return Err(Sb3Error::EntryTooLarge {
            name: "project.json".to_string(),
            limit: limits.max_entry_bytes,
        });
    }
    Ok(ProjectFiles { project_json: bytes.to_vec(), assets: BTreeMap::new() })
}

/// Checks that every costume and sound `project.json` names is present and that each costume
/// asset looks like its `dataFormat` (PNG, JPEG or SVG signature).
pub fn check_assets(files: &ProjectFiles) -> Result<(), Sb3Error> {
    for name in asset_names(&files.project_json) {
        let Some(bytes) = files.assets.get(&name) else {
            return Err(Sb3Error::MissingAsset { name });
        };
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        let reason = match ext.to_ascii_lowercase().as_str() {
            "png" if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") => "not a PNG image",
            "jpg" | "jpeg" if !bytes.starts_with(b"\xff\xd8\xff") => "not a JPEG image",
            "svg" if !looks_like_svg(bytes) => "not an SVG image",
            _ => continue,
        };
        return Err(Sb3Error::BadAsset { name, reason });
    }
    Ok(())
}

fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    text.contains("<svg")
}

/// Writes project files as an `.sb3` archive: `project.json` first, then the assets sorted by
/// name, deflated at level 6, with fixed timestamps (1980-01-01) and permissions, so the same
/// files give the same bytes.
pub fn write_sb3(files: &ProjectFiles) -> Result<Vec<u8>, Sb3Error> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(6))
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644);
    let entries = std::iter::once(("project.json", &files.project_json))
        .chain(files.assets.iter().map(|(n, b)| (n.as_str(), b)));
    for (name, bytes) in entries {
        check_name(name)?;
        zip.start_file(name, options)?;
        zip.write_all(bytes).map_err(|e| Sb3Error::Zip { message: format!("{name}: {e}") })?;
    }
    Ok(zip.finish()?.into_inner())
}

/// Writes project files to an `.sb3` file.
pub fn save_path(path: &Path, files: &ProjectFiles) -> Result<(), Sb3Error> {
    let bytes = write_sb3(files)?;
    std::fs::write(path, bytes).map_err(|source| Sb3Error::Io { path: path.to_path_buf(), source })
}

/// A project's files with a new `project.json` and every asset of the original kept
/// byte-for-byte, written as a deterministic `.sb3` ([`write_sb3`]); returns the archive and
/// its SHA-256 (lower-case hex), which can key caches.
pub fn repack(files: &ProjectFiles, project_json: Vec<u8>) -> Result<(Vec<u8>, String), Sb3Error> {
    let out = ProjectFiles { project_json, assets: files.assets.clone() };
    let bytes = write_sb3(&out)?;
    let hash = sha256_hex(&bytes);
    Ok((bytes, hash))
}

/// SHA-256 of bytes as lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}
