//! `.sb3` reading and writing: round trips (our own archives and every `.sb3` of
//! `../shared/refvm/fixtures`), folders and bare `project.json`, and hostile archives built
//! here (zip bomb, too many entries, lying headers, traversal names, missing project.json,
//! missing or non-image assets): each gives a typed error, never a panic.

#[path = "../../../tests-support/reference.rs"]
mod reference;

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use gobo::scratch::project;
use gobo_host::sb3::{self, Limits, ProjectFiles, Sb3Error};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const SVG: &[u8] = b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\" height=\"2\"/>";

fn project_json() -> Vec<u8> {
    br#"{"targets":[{"isStage":true,"name":"Stage","costumes":[
        {"name":"b","assetId":"aa","md5ext":"aa.svg","dataFormat":"svg"}],
        "sounds":[{"name":"s","assetId":"cc","md5ext":"cc.wav","dataFormat":"wav"}]},
      {"isStage":false,"name":"S","costumes":[
        {"name":"c","assetId":"bb","md5ext":"bb.png","dataFormat":"png"}]}]}"#
        .to_vec()
}

fn files() -> ProjectFiles {
    let mut f = ProjectFiles { project_json: project_json(), ..Default::default() };
    f.assets.insert("aa.svg".into(), SVG.to_vec());
    f.assets.insert("bb.png".into(), PNG.to_vec());
    f.assets.insert("cc.wav".into(), b"RIFF....WAVE".to_vec());
    f
}

/// Builds a zip from `(name, bytes)` entries, deflated or stored.
fn zip_of(entries: &[(&str, &[u8])], deflate: bool) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let method = if deflate { CompressionMethod::Deflated } else { CompressionMethod::Stored };
    let options = SimpleFileOptions::default().compression_method(method);
    for (name, bytes) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-sb3-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn write_then_read_gives_the_same_files_and_stable_bytes() {
    let f = files();
    let bytes = sb3::write_sb3(&f).unwrap();
    let back = sb3::read_sb3(&bytes, &Limits::default()).unwrap();
    assert_eq!(back, f);
    assert_eq!(sb3::write_sb3(&back).unwrap(), bytes);
    sb3::check_assets(&back).unwrap();
}

#[test]
fn load_path_reads_sb3_folder_assets_folder_and_bare_json() {
    let dir = temp_dir("paths");
    let f = files();
    // .sb3 file
    let sb3_path = dir.join("p.sb3");
    sb3::save_path(&sb3_path, &f).unwrap();
    assert_eq!(sb3::load_path(&sb3_path).unwrap(), f);
    // folder with assets beside project.json
    let flat = dir.join("flat");
    std::fs::create_dir_all(&flat).unwrap();
    std::fs::write(flat.join("project.json"), &f.project_json).unwrap();
    for (name, bytes) in &f.assets {
        std::fs::write(flat.join(name), bytes).unwrap();
    }
    assert_eq!(sb3::load_path(&flat).unwrap(), f);
    // bare project.json: same assets beside it
    assert_eq!(sb3::load_path(&flat.join("project.json")).unwrap(), f);
    // folder with assets/ and one asset missing
    let nested = dir.join("nested");
    std::fs::create_dir_all(nested.join("assets")).unwrap();
    std::fs::write(nested.join("project.json"), &f.project_json).unwrap();
    std::fs::write(nested.join("assets/aa.svg"), SVG).unwrap();
    let got = sb3::load_path(&nested).unwrap();
    assert_eq!(got.assets.keys().collect::<Vec<_>>(), ["aa.svg"]);
    assert!(matches!(
        sb3::check_assets(&got),
        Err(Sb3Error::MissingAsset { name }) if name == "cc.wav"
    ));
    // a folder without project.json, and a path that does not exist
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(matches!(sb3::load_path(&empty), Err(Sb3Error::MissingProjectJson { .. })));
    assert!(matches!(sb3::load_path(&dir.join("nope.sb3")), Err(Sb3Error::Io { .. })));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn zip_bomb_stops_at_the_entry_limit() {
    let zeros = vec![0u8; 8 << 20];
    let bomb = zip_of(&[("project.json", b"{}"), ("aa.svg", &zeros)], true);
    assert!(bomb.len() < 64 << 10, "compressed {} bytes", bomb.len());
    let limits = Limits { max_entry_bytes: 1 << 20, ..Limits::default() };
    let e = sb3::read_sb3(&bomb, &limits).unwrap_err();
    assert!(
        matches!(&e, Sb3Error::EntryTooLarge { name, limit: 1048576 } if name == "aa.svg"),
        "{e}"
    );
    // Many entries each under the limit, together over the total.
    let chunk = vec![7u8; 600 << 10];
    let entries: Vec<(String, &[u8])> = (0..5).map(|i| (format!("{i}.png"), &chunk[..])).collect();
    let refs: Vec<(&str, &[u8])> = entries.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let limits = Limits { max_entry_bytes: 1 << 20, max_total_bytes: 2 << 20, ..Limits::default() };
    let e = sb3::read_sb3(&zip_of(&refs, true), &limits).unwrap_err();
    assert!(matches!(e, Sb3Error::TotalTooLarge { limit } if limit == 2 << 20), "{e}");
}

#[test]
fn a_thousand_and_one_entries_are_refused() {
    let names: Vec<String> = (0..1000).map(|i| format!("{i:032x}.png")).collect();
    let mut entries: Vec<(&str, &[u8])> = vec![("project.json", b"{}")];
    entries.extend(names.iter().map(|n| (n.as_str(), PNG)));
    let e = sb3::read_sb3(&zip_of(&entries, false), &Limits::default()).unwrap_err();
    assert!(matches!(e, Sb3Error::TooManyEntries { count: 1001, limit: 1000 }), "{e}");
}

#[test]
fn lying_size_headers_are_not_trusted() {
    let payload = vec![b'x'; 100];
    let mut bytes = zip_of(&[("project.json", b"{}"), ("a.svg", &payload)], false);
    // Claim 10 bytes uncompressed in both the local header and the central directory.
    let patch = |bytes: &mut Vec<u8>, sig: &[u8; 4], offset: usize| {
        let mut at = 0;
        while let Some(p) = bytes[at..].windows(4).position(|w| w == sig) {
            let header = at + p;
            let name_len = u16::from_le_bytes([bytes[header + 26], bytes[header + 27]]);
            let name_at = if sig == b"PK\x01\x02" { 46 } else { 30 };
            let name = &bytes[header + name_at..header + name_at + usize::from(name_len)];
            if name == b"a.svg" {
                bytes[header + offset..header + offset + 4].copy_from_slice(&10u32.to_le_bytes());
            }
            at = header + 4;
        }
    };
    patch(&mut bytes, b"PK\x03\x04", 22);
    patch(&mut bytes, b"PK\x01\x02", 24);
    let limits = Limits { max_entry_bytes: 50, ..Limits::default() };
    match sb3::read_sb3(&bytes, &limits) {
        Err(Sb3Error::EntryTooLarge { .. }) | Err(Sb3Error::Zip { .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn traversal_and_nested_names_are_refused() {
    for name in ["../evil.png", "/abs.png", "a/b/c.png", "..\\x.png", "C:x.png", "__MACOSX/../x"] {
        let bytes = zip_of(&[("project.json", b"{}"), (name, PNG)], true);
        let e = sb3::read_sb3(&bytes, &Limits::default()).unwrap_err();
        assert!(matches!(&e, Sb3Error::BadEntryName { name: n } if n == name), "{name}: {e}");
    }
    // macOS clutter is skipped, not inflated.
    let bytes = zip_of(
        &[("project.json", b"{}"), ("__MACOSX/._a.png", b"junk"), (".DS_Store", b"junk")],
        true,
    );
    let f = sb3::read_sb3(&bytes, &Limits::default()).unwrap();
    assert!(f.assets.is_empty());
    // Hidden files in the folder level too (found by fuzzing: `p/.png` was read as an asset
    // `.png` that a write → read round trip then dropped as clutter).
    let bytes = zip_of(&[("p/project.json", b"{}"), ("p/.png", PNG), ("p/.DS_Store", b"x")], true);
    let f = sb3::read_sb3(&bytes, &Limits::default()).unwrap();
    assert!(f.assets.is_empty(), "{:?}", f.assets.keys());
    let back = sb3::read_sb3(&sb3::write_sb3(&f).unwrap(), &Limits::default()).unwrap();
    assert_eq!(back, f);
    // One folder level is read as if flat, as scratch-vm does.
    let bytes = zip_of(&[("p/", b""), ("p/project.json", b"{}"), ("p/a.png", PNG)], true);
    let f = sb3::read_sb3(&bytes, &Limits::default()).unwrap();
    assert_eq!(f.project_json, b"{}");
    assert_eq!(f.assets.keys().collect::<Vec<_>>(), ["a.png"]);
    let bytes = zip_of(&[("project.json", b"{}"), ("p/project.json", b"{}")], true);
    assert!(matches!(
        sb3::read_sb3(&bytes, &Limits::default()),
        Err(Sb3Error::DuplicateEntry { .. })
    ));
    // Writing refuses them too.
    let mut f = files();
    f.assets.insert("../x.png".into(), PNG.to_vec());
    assert!(matches!(sb3::write_sb3(&f), Err(Sb3Error::BadEntryName { .. })));
}

#[test]
fn missing_project_json_duplicates_and_garbage_are_typed_errors() {
    let bytes = zip_of(&[("aa.svg", SVG)], true);
    assert!(matches!(
        sb3::read_sb3(&bytes, &Limits::default()),
        Err(Sb3Error::MissingProjectJson { .. })
    ));
    let bytes = zip_of(&[("project.json", b"{}")], true);
    assert!(matches!(
        sb3::read_sb3(b"PK\x03\x04 not really a zip", &Limits::default()),
        Err(Sb3Error::Zip { .. })
    ));
    assert!(matches!(
        sb3::read_sb3(&bytes[..bytes.len() / 2], &Limits::default()),
        Err(Sb3Error::Zip { .. })
    ));
}

#[test]
fn missing_and_non_image_assets_are_reported() {
    let mut f = files();
    f.assets.remove("cc.wav");
    assert!(matches!(
        sb3::check_assets(&f),
        Err(Sb3Error::MissingAsset { name }) if name == "cc.wav"
    ));
    let mut f = files();
    f.assets.insert("bb.png".into(), b"GIF89a not a png".to_vec());
    assert!(matches!(
        sb3::check_assets(&f),
        Err(Sb3Error::BadAsset { name, .. }) if name == "bb.png"
    ));
    let mut f = files();
    f.assets.insert("aa.svg".into(), b"hello".to_vec());
    assert!(matches!(sb3::check_assets(&f), Err(Sb3Error::BadAsset { .. })));
}

fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GOBO_SHARED") {
        Some(d) => PathBuf::from(d),
        // hosts/host → the checkout root → ../shared beside it.
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    dir.is_dir().then_some(dir)
}

fn sb3_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            sb3_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "sb3") {
            out.push(p);
        }
    }
}

/// Loads, saves and reloads one `.sb3`; returns what went wrong.
fn round_trip_sb3(path: &Path) -> Result<(), String> {
    let files = sb3::load_path(path).map_err(|e| e.to_string())?;
    sb3::check_assets(&files).map_err(|e| format!("assets: {e}"))?;
    let first = project::load(&files.project_json).map_err(|e| format!("load: {e}"))?;
    let json = project::save(&first);
    let second = project::load(&json).map_err(|e| format!("reload: {e}"))?;
    if first != second {
        return Err("load → save → load changed the model".into());
    }
    if project::save(&second) != json {
        return Err("save → load → save is not byte-stable".into());
    }
    let resaved = ProjectFiles { project_json: json, assets: files.assets.clone() };
    let archive = sb3::write_sb3(&resaved).map_err(|e| e.to_string())?;
    let back = sb3::read_sb3(&archive, &Limits::default()).map_err(|e| e.to_string())?;
    if back != resaved {
        return Err(".sb3 write → read changed the files".into());
    }
    Ok(())
}

#[test]
fn round_trip_every_shared_sb3_fixture() {
    let Some(shared) = shared_dir() else {
        reference::skipped("sb3::round_trip_every_shared_sb3_fixture", "../shared is absent");
        return;
    };
    reference::ran("sb3::round_trip_every_shared_sb3_fixture");
    let mut paths = Vec::new();
    sb3_files(&shared.join("refvm/fixtures"), &mut paths);
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| round_trip_sb3(p).err().map(|e| format!("{}: {e}", p.display())))
        .collect();
    println!("round-tripped {} of {} .sb3 fixtures", paths.len() - failures.len(), paths.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
