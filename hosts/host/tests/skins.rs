//! Costume skins for a compiled project: bitmap resolution rules, SVG MIP levels, shared
//! skins, and scratch-vm's default costume for missing or broken assets.

use std::collections::BTreeMap;

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::vm::{Config, Vm};
use gobo_host::png::{encode_png, PixelFormat};
use gobo_host::sb3::ProjectFiles;
use gobo_host::skins::{attach_skins, SkinOptions, SkinProblem};

const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="-5 -5 40 20"><rect x="-5" y="-5" width="40" height="20" fill="#f00"/></svg>"##;

fn project(costumes: &str) -> Vec<u8> {
    format!(
        r#"{{"targets":[{{"isStage":true,"name":"Stage","costumes":[]}},
        {{"isStage":false,"name":"S","size":100,"costumes":[{costumes}]}}],"meta":{{"semver":"3.0.0"}}}}"#
    )
    .into_bytes()
}

fn costume(name: &str, md5ext: &str, res: u32, center: Option<(f64, f64)>) -> String {
    let c = center
        .map_or(String::new(), |(x, y)| format!(r#","rotationCenterX":{x},"rotationCenterY":{y}"#));
    format!(
        r#"{{"name":"{name}","md5ext":"{md5ext}","assetId":"x","dataFormat":"png","bitmapResolution":{res}{c}}}"#
    )
}

fn build(
    json: Vec<u8>,
    assets: &[(&str, Vec<u8>)],
) -> (gobo::scratch::image::Image, Vec<SkinProblem>) {
    let p = load(&json).unwrap();
    let mut img = compile(&p).unwrap();
    let files = ProjectFiles {
        project_json: json,
        assets: assets.iter().map(|(n, b)| (n.to_string(), b.clone())).collect::<BTreeMap<_, _>>(),
    };
    let warnings = attach_skins(&mut img, &p, &files, &SkinOptions::default());
    (img, warnings.into_iter().map(|w| w.problem).collect())
}

#[test]
fn bitmaps_become_resolution_two() {
    let px: Vec<u8> = (0..4 * 2 * 4).map(|i| i as u8).collect();
    let png = encode_png(4, 2, PixelFormat::Rgba8, &px).unwrap();
    let json = project(&format!(
        "{},{}",
        costume("a", "a.png", 2, Some((4.0, 1.0))),
        costume("b", "b.png", 1, Some((3.0, 1.0)))
    ));
    let (img, problems) = build(json, &[("a.png", png.clone()), ("b.png", png)]);
    assert!(problems.is_empty());
    let skins = &img.targets[1].costume_skins;
    let a = &img.skins[skins[0].unwrap() as usize];
    assert_eq!((a.size, a.rotation_center, a.vector), ([2.0, 1.0], [2.0, 0.5], false));
    assert_eq!(
        (a.levels.len(), a.levels[0].scale, &a.levels[0].rgba, a.levels[0].width),
        (1, 2.0, &px, 4)
    );
    // Resolution 1: pixels doubled (nearest neighbour), centre doubled, then resolution 2.
    let b = &img.skins[skins[1].unwrap() as usize];
    assert_eq!((b.size, b.rotation_center), ([4.0, 2.0], [3.0, 1.0]));
    assert_eq!((b.levels[0].width, b.levels[0].height), (8, 4));
    assert_eq!(&b.levels[0].rgba[..8], &[px[0], px[1], px[2], px[3], px[0], px[1], px[2], px[3]]);
    assert_eq!(&b.levels[0].rgba[32..40], &b.levels[0].rgba[..8]);
    Vm::new(img, Config::default()).unwrap();
}

#[test]
fn svg_has_mip_levels_and_viewbox_centre() {
    let c = r#"{"name":"v","md5ext":"v.svg","assetId":"v","dataFormat":"svg","rotationCenterX":15,"rotationCenterY":5}"#;
    let (img, problems) =
        build(project(&format!("{c},{c}")), &[("v.svg", SVG.as_bytes().to_vec())]);
    assert!(problems.is_empty());
    let skins = &img.targets[1].costume_skins;
    assert_eq!(skins[0], skins[1], "identical costumes share a skin");
    let s = &img.skins[skins[0].unwrap() as usize];
    assert!(s.vector);
    assert_eq!((s.size, s.rotation_center), ([40.0, 20.0], [20.0, 10.0]));
    let scales: Vec<f64> = s.levels.iter().map(|l| l.scale).collect();
    // 1/16 is the smallest level with a whole pixel on the short side; the size limit lets
    // the sprite reach 18× (min(720 / 40, 540 / 20)), so levels go up to 32× (40 × 32 is
    // within the 2048-pixel texture limit).
    assert_eq!(scales, [1.0 / 16.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0]);
    let one = &s.levels[4];
    assert_eq!((one.width, one.height), (40, 20));
    assert_eq!(&one.rgba[..4], &[255, 0, 0, 255]);
    let sixteen = &s.levels[8];
    assert_eq!((sixteen.width, sixteen.height), (640, 320));
}

#[test]
fn upscaled_levels_respect_the_budget() {
    let c = r#"{"name":"v","md5ext":"v.svg","assetId":"v","dataFormat":"svg"}"#;
    let json = project(c);
    let p = load(&json).unwrap();
    let mut img = compile(&p).unwrap();
    let files = ProjectFiles {
        project_json: json,
        assets: [("v.svg".to_string(), SVG.as_bytes().to_vec())].into_iter().collect(),
    };
    // 2× is 80 × 40 × 4 = 12,800 bytes; 4× needs 51,200 more.
    attach_skins(&mut img, &p, &files, &SkinOptions { budget_bytes: 20_000 });
    let s = &img.skins[0];
    assert_eq!(s.levels.last().map(|l| l.scale), Some(2.0));
    // No rotation centre: half the size, minus the viewBox origin (scratch-render's
    // calculateRotationCenter, then the viewBox compensation).
    assert_eq!(s.rotation_center, [25.0, 15.0]);
}

#[test]
fn missing_and_broken_assets_get_the_default_costume() {
    let json = project(&format!(
        "{},{},{}",
        costume("gone", "gone.png", 2, None),
        costume("bad", "bad.png", 1, None),
        r#"{"name":"ext","md5ext":"e.svg","assetId":"e","dataFormat":"svg"}"#
    ));
    let ext = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="file:///etc/passwd"/></svg>"#;
    let (img, problems) =
        build(json, &[("bad.png", b"not a png".to_vec()), ("e.svg", ext.as_bytes().to_vec())]);
    assert_eq!(problems.len(), 3);
    assert!(matches!(&problems[0], SkinProblem::MissingAsset { name } if name == "gone.png"));
    assert!(matches!(problems[1], SkinProblem::Costume(_)));
    assert!(matches!(
        problems[2],
        SkinProblem::Costume(gobo_host::costume::CostumeError::ExternalReference { .. })
    ));
    let skin = |i: usize| &img.skins[img.targets[1].costume_skins[i].unwrap() as usize];
    assert_eq!(
        (skin(0).size, skin(0).rotation_center, skin(0).vector),
        ([64.0, 64.0], [32.0, 32.0], false)
    );
    assert_eq!(skin(1).size, [128.0, 128.0]);
    assert_eq!((skin(2).size, skin(2).vector), ([128.0, 128.0], true));
    assert!(skin(2).levels[0].rgba.chunks(4).all(|p| p[3] == 255));
    Vm::new(img, Config::default()).unwrap();
}

#[test]
fn inconsistent_skins_are_refused_by_the_vm() {
    let (mut img, _) = build(project(&costume("gone", "gone.png", 2, None)), &[]);
    img.skins[0].levels[0].rgba.pop();
    assert!(Vm::new(img.clone(), Config::default()).is_err());
    img.skins.clear();
    assert!(Vm::new(img, Config::default()).is_err());
}

/// A PNG signature and an IHDR chunk claiming `w × h` RGBA pixels, with no image data.
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let crc = gobo::image::crc32(&ihdr);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend_from_slice(&13u32.to_be_bytes());
    out.extend_from_slice(&ihdr);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// An SVG whose `<use>` elements reference each other 4 deep per level over 30 levels
/// (4^29 rectangles once expanded).
fn use_bomb() -> String {
    let mut defs = String::from(r#"<g id="l0"><rect width="1" height="1" fill="red"/></g>"#);
    for i in 1..30 {
        defs.push_str(&format!(r#"<g id="l{i}">"#));
        for _ in 0..4 {
            defs.push_str(&format!(r##"<use href="#l{}"/>"##, i - 1));
        }
        defs.push_str("</g>");
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs>{defs}</defs><use href="#l29"/></svg>"##
    )
}

/// What a hostile asset must be refused with.
type Expect = fn(&SkinProblem) -> bool;

#[test]
fn hostile_assets_get_typed_errors_and_bounded_memory() {
    use gobo_host::costume::CostumeError as E;
    let good = encode_png(4, 4, PixelFormat::Rgba8, &[200; 64]).unwrap();
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        ("noise.png", (0..200u8).collect(), |p| matches!(p, SkinProblem::Costume(E::Decode { .. }))),
        ("noise.jpg", vec![0xff, 0xd8, 0xff, 0x00, 1, 2, 3], |p| {
            matches!(p, SkinProblem::Costume(E::Decode { .. }))
        }),
        ("noise.svg", vec![0xff, 0xfe, 0, b'<'], |p| {
            matches!(p, SkinProblem::Costume(E::Decode { .. }))
        }),
        ("empty.png", vec![], |p| matches!(p, SkinProblem::Costume(E::Decode { .. }))),
        ("anim.gif", b"GIF89a\x01\x00\x01\x00".to_vec(), |p| {
            matches!(p, SkinProblem::Costume(E::UnsupportedFormat { .. }))
        }),
        ("short.png", good[..good.len() - 20].to_vec(), |p| {
            matches!(p, SkinProblem::Costume(E::Decode { .. }))
        }),
        ("huge.png", png_header(100_000, 100_000), |p| {
            matches!(p, SkinProblem::Costume(E::BadSize { .. } | E::Decode { .. }))
        }),
        ("zero.png", png_header(0, 5), |p| {
            matches!(p, SkinProblem::Costume(E::BadSize { .. } | E::Decode { .. }))
        }),
        (
            "http.svg",
            br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><image href="http://example.invalid/x.png" width="8" height="8"/></svg>"#.to_vec(),
            |p| matches!(p, SkinProblem::Costume(E::ExternalReference { .. })),
        ),
        (
            "file.svg",
            br#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 8 8"><image xlink:href="file:///etc/passwd" width="8" height="8"/></svg>"#.to_vec(),
            |p| matches!(p, SkinProblem::Costume(E::ExternalReference { .. })),
        ),
        ("bomb.svg", use_bomb().into_bytes(), |p| {
            matches!(p, SkinProblem::Costume(E::Decode { .. }))
        }),
        (
            "wide.svg",
            br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000000 1000000"/>"#.to_vec(),
            |p| matches!(p, SkinProblem::Costume(E::BadSize { .. })),
        ),
    ];
    let costumes: Vec<String> = cases
        .iter()
        .map(|(name, _, _)| {
            let format = name.rsplit('.').next().unwrap();
            format!(
                r#"{{"name":"{name}","md5ext":"{name}","assetId":"x","dataFormat":"{format}","bitmapResolution":2}}"#
            )
        })
        .collect();
    let assets: Vec<(&str, Vec<u8>)> = cases.iter().map(|(n, b, _)| (*n, b.clone())).collect();
    let (img, problems) = build(project(&costumes.join(",")), &assets);
    assert_eq!(problems.len(), cases.len(), "{problems:?}");
    for ((name, _, expected), problem) in cases.iter().zip(&problems) {
        assert!(expected(problem), "{name}: {problem:?}");
    }
    // Every costume got the default costume: well-formed skins, memory bounded by them.
    let bytes: usize = img.skins.iter().flat_map(|s| &s.levels).map(|l| l.rgba.len()).sum();
    assert!(img.skins.iter().all(|s| s.check().is_ok()));
    assert!(bytes <= cases.len() * 128 * 128 * 4 * 2, "{bytes} bytes of pixels");
    let mut vm = Vm::new(img, Config::default()).unwrap();
    vm.step_frame(&[gobo::scratch::vm::Input::GreenFlag]);
}

#[test]
fn the_budget_bounds_upscaled_levels_across_the_project() {
    // Twelve different 100 × 80 SVGs on a sprite that can grow to 540 %: their 2×, 4× and 8×
    // levels would need 12 × (128,000 + 512,000 + 2,048,000) bytes; the budget is 300,000.
    let svgs: Vec<String> = (0..12)
        .map(|k| {
            format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 80"><rect width="{}" height="80" fill="#00f"/></svg>"##,
                50 + k
            )
        })
        .collect();
    let costumes: Vec<String> = (0..12)
        .map(|k| {
            format!(r#"{{"name":"c{k}","md5ext":"c{k}.svg","assetId":"c{k}","dataFormat":"svg"}}"#)
        })
        .collect();
    let json = project(&costumes.join(","));
    let p = load(&json).unwrap();
    let mut img = compile(&p).unwrap();
    let files = ProjectFiles {
        project_json: json,
        assets: (0..12).map(|k| (format!("c{k}.svg"), svgs[k].clone().into_bytes())).collect(),
    };
    let budget = 300_000;
    assert!(attach_skins(&mut img, &p, &files, &SkinOptions { budget_bytes: budget }).is_empty());
    let upscaled: u64 = img
        .skins
        .iter()
        .flat_map(|s| &s.levels)
        .filter(|l| l.scale > 1.0)
        .map(|l| l.rgba.len() as u64)
        .sum();
    assert!(upscaled <= budget, "{upscaled} bytes above 1x");
    // In passes: two 2× levels fit (256,000 bytes), no 4× one; every skin keeps its 1× level.
    let doubled = img.skins.iter().filter(|s| s.levels.iter().any(|l| l.scale == 2.0)).count();
    assert_eq!((doubled, upscaled), (2, 256_000));
    assert!(img.skins.iter().all(|s| s.levels.iter().any(|l| l.scale == 1.0)));
    assert!(img.skins.iter().all(|s| s.levels.iter().all(|l| l.scale <= 2.0)));
    Vm::new(img, Config::default()).unwrap();
}
