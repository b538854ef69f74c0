//! Costume decoding: sizes and rotation centres as scratch-render computes them, pixel values,
//! hostile images (huge headers, external references in SVG, garbage), and every costume of
//! the `.sb3` fixtures in `../shared` decoding without a panic.

#[path = "../../../tests-support/reference.rs"]
mod reference;

use std::path::{Path, PathBuf};

use gobo::scratch::project::{self, Costume, Num};
use gobo_host::costume::{decode_costume, CostumeError};
use gobo_host::png::{encode_png, PixelFormat};
use gobo_host::sb3;

fn costume(format: &str, resolution: Option<i64>, center: Option<(f64, f64)>) -> Costume {
    Costume {
        name: "c".into(),
        asset_id: None,
        md5ext: None,
        data_format: Some(format.into()),
        bitmap_resolution: resolution.map(Num::Int),
        rotation_center_x: center.map(|c| Num::Float(c.0)),
        rotation_center_y: center.map(|c| Num::Float(c.1)),
        extra: Vec::new(),
    }
}

#[test]
fn png_bitmap_is_sized_by_its_resolution() {
    let pixels: Vec<u8> = (0..4 * 2 * 4).map(|i| i as u8).collect();
    let bytes = encode_png(4, 2, PixelFormat::Rgba8, &pixels).unwrap();
    let img = decode_costume(&costume("png", Some(2), Some((4.0, 1.0))), &bytes, 1.0).unwrap();
    assert_eq!((img.width, img.height), (4, 2));
    assert_eq!(img.rgba, pixels);
    assert_eq!(img.resolution, 2.0);
    assert_eq!(img.size, [2.0, 1.0]);
    assert_eq!(img.rotation_center, [2.0, 0.5]);
    // RGB input gains an opaque alpha; no rotation centre means the middle.
    let rgb = [10u8, 20, 30, 40, 50, 60];
    let bytes = encode_png(2, 1, PixelFormat::Rgb8, &rgb).unwrap();
    let img = decode_costume(&costume("png", None, None), &bytes, 1.0).unwrap();
    assert_eq!(img.rgba, [10, 20, 30, 255, 40, 50, 60, 255]);
    assert_eq!(img.rotation_center, [1.0, 0.5]);
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[test]
fn huge_or_broken_bitmaps_are_refused() {
    // A valid PNG header claiming 100000 × 100000 pixels.
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(100_000u32.to_be_bytes());
    ihdr.extend(100_000u32.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend(13u32.to_be_bytes());
    bytes.extend(&ihdr);
    bytes.extend(crc32(&ihdr).to_be_bytes());
    for chunk in [&b"IDAT"[..], b"IEND"] {
        bytes.extend(0u32.to_be_bytes());
        bytes.extend(chunk);
        bytes.extend(crc32(chunk).to_be_bytes());
    }
    let e = decode_costume(&costume("png", Some(1), None), &bytes, 1.0).unwrap_err();
    assert!(matches!(e, CostumeError::BadSize { .. }), "{e}");
    for format in ["png", "jpg", "svg"] {
        let e = decode_costume(&costume(format, Some(1), None), b"GIF89a....", 1.0).unwrap_err();
        assert!(matches!(e, CostumeError::Decode { .. }), "{format}: {e}");
    }
    let e = decode_costume(&costume("gif", Some(1), None), b"GIF89a", 1.0).unwrap_err();
    assert!(matches!(e, CostumeError::UnsupportedFormat { .. }), "{e}");
}

const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="10 20 40 30">
  <rect x="10" y="20" width="20" height="30" fill="#ff0000"/>
  <rect x="30" y="20" width="20" height="30" fill="#0000ff" fill-opacity="0.5"/>
</svg>"##;

fn pixel(img: &gobo_host::costume::CostumeImage, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * img.width + x) * 4) as usize;
    [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]]
}

#[test]
fn svg_is_sized_by_its_view_box() {
    let img =
        decode_costume(&costume("svg", Some(1), Some((30.0, 35.0))), SVG.as_bytes(), 1.0).unwrap();
    assert_eq!((img.width, img.height), (40, 30));
    assert_eq!(img.size, [40.0, 30.0]);
    assert_eq!(img.rotation_center, [20.0, 15.0]);
    assert_eq!(pixel(&img, 5, 5), [255, 0, 0, 255]);
    let blue = pixel(&img, 35, 5);
    assert_eq!((blue[2], blue[3]), (255, 128), "{blue:?}");
    // Twice the scale: twice the pixels, the same stage size.
    let img = decode_costume(&costume("svg", Some(1), None), SVG.as_bytes(), 2.0).unwrap();
    assert_eq!((img.width, img.height), (80, 60));
    assert_eq!(img.size, [40.0, 30.0]);
    assert_eq!(img.rotation_center, [10.0, -5.0]);
    // width/height attributes that differ from the viewBox do not change the size.
    let wide = SVG.replace(r#"width="40" height="30""#, r#"width="400" height="300""#);
    let img = decode_costume(&costume("svg", Some(1), None), wide.as_bytes(), 1.0).unwrap();
    assert_eq!((img.width, img.height), (40, 30));
    assert_eq!(pixel(&img, 5, 5), [255, 0, 0, 255]);
    // A fractional size truncates like a canvas.
    let frac = SVG.replace("viewBox=\"10 20 40 30\"", "viewBox=\"10 20 40.7 30.2\"");
    let img = decode_costume(&costume("svg", Some(1), None), frac.as_bytes(), 1.0).unwrap();
    assert_eq!((img.width, img.height), (40, 30));
    assert_eq!(img.size, [40.7, 30.2]);
}

#[test]
fn hostile_svg_is_refused() {
    let external = [
        r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="http://example.invalid/a.png" width="1" height="1"/></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href = 'other.svg#a'/></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(http://x/y#g)" width="1" height="1"/></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><style>@import "http://x/s.css";</style></svg>"#,
        r#"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>"#,
    ];
    for svg in external {
        let e = decode_costume(&costume("svg", Some(1), None), svg.as_bytes(), 1.0).unwrap_err();
        assert!(matches!(e, CostumeError::ExternalReference { .. }), "{svg}: {e}");
    }
    // Internal references are fine.
    let ok = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs><rect width="4" height="4" fill="url(#g)"/></svg>"##;
    decode_costume(&costume("svg", Some(1), None), ok.as_bytes(), 1.0).unwrap();
    let huge = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100000 100000"/>"#;
    let e = decode_costume(&costume("svg", Some(1), None), huge.as_bytes(), 1.0).unwrap_err();
    assert!(matches!(e, CostumeError::BadSize { .. }), "{e}");
    let deep = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4">{}{}</svg>"#,
        "<g>".repeat(5000),
        "</g>".repeat(5000)
    );
    let e = decode_costume(&costume("svg", Some(1), None), deep.as_bytes(), 1.0).unwrap_err();
    assert!(matches!(e, CostumeError::Decode { .. }), "{e}");
    // 99 groups inside the root: the deepest nesting accepted (100) still renders.
    let ok = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4">{}<rect width="4" height="4" fill="#00ff00"/>{}</svg>"##,
        "<g>".repeat(98),
        "</g>".repeat(98)
    );
    let img = decode_costume(&costume("svg", Some(1), None), ok.as_bytes(), 1.0).unwrap();
    assert_eq!(pixel(&img, 1, 1), [0, 255, 0, 255]);
    let e = decode_costume(&costume("svg", Some(1), None), b"\xff\xfe<svg", 1.0).unwrap_err();
    assert!(matches!(e, CostumeError::Decode { .. }), "{e}");
}

fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GOBO_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    dir.is_dir().then_some(dir)
}

#[test]
fn jpeg_from_shared_decodes() {
    let Some(shared) = shared_dir() else {
        reference::skipped("costume::jpeg_from_shared_decodes", "../shared is absent");
        return;
    };
    reference::ran("costume::jpeg_from_shared_decodes");
    let path = shared.join(
        "refvm/node_modules/scratch-storage/test/fixtures/assets/fe5e3566965f9de793beeffce377d054.jpg",
    );
    let Ok(bytes) = std::fs::read(&path) else {
        reference::skipped(
            "costume::jpeg_from_shared_decodes",
            &format!("{} is absent (npm install not run)", path.display()),
        );
        return;
    };
    reference::ran("costume::jpeg_from_shared_decodes");
    let img = decode_costume(&costume("jpg", Some(2), None), &bytes, 1.0).unwrap();
    assert_eq!(img.rgba.len(), (img.width * img.height * 4) as usize);
    assert_eq!(img.size, [f64::from(img.width) / 2.0, f64::from(img.height) / 2.0]);
    assert!(img.rgba.chunks(4).all(|p| p[3] == 255));
}

#[test]
fn every_costume_of_the_shared_fixtures_decodes() {
    let Some(shared) = shared_dir() else {
        reference::skipped(
            "costume::every_costume_of_the_shared_fixtures_decodes",
            "../shared is absent",
        );
        return;
    };
    reference::ran("costume::every_costume_of_the_shared_fixtures_decodes");
    let mut paths = Vec::new();
    let mut dirs = vec![shared.join("refvm/fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "sb3") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let (mut decoded, mut failures) = (0, Vec::new());
    for path in &paths {
        let files = sb3::load_path(path).unwrap();
        let project = project::load(&files.project_json).unwrap();
        for c in project.targets.iter().flat_map(|t| &t.costumes) {
            let Some(bytes) = c.md5ext.as_ref().and_then(|m| files.assets.get(m)) else {
                continue;
            };
            match decode_costume(c, bytes, 1.0) {
                Ok(img) => {
                    assert_eq!(img.rgba.len(), (img.width * img.height * 4) as usize);
                    decoded += 1;
                }
                Err(e) => failures.push(format!("{}: {}: {e}", path.display(), c.name)),
            }
        }
    }
    println!("decoded {decoded} costumes of {} fixtures", paths.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
