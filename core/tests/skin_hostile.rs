//! Hostile skins in a program image: `Vm::new` refuses malformed costume pixels with a typed
//! error naming the skin and the fault (zero or huge sizes, buffers shorter or longer than
//! width × height × 4, levels out of order, bad scales), also after a postcard round trip
//! through the program image envelope; well-formed but odd skins (non power-of-two levels,
//! a 1-pixel level for a large costume) run touching queries and renders without panicking.

use gobo::image::{decode, encode_payload, ProgramKind};
use gobo::scratch::compile::compile;
use gobo::scratch::image::{Image, Skin, SkinBitmap, SkinFault};
use gobo::scratch::project::load;
use gobo::scratch::render::{render, Framebuffer};
use gobo::scratch::vm::{Config, Input, Vm, VmError};

/// A sprite that moves, whirls and asks touching questions every frame.
const PROJECT: &str = r##"{"targets":[
 {"isStage":true,"name":"Stage","variables":{"v":["hits",0]},"lists":{},"broadcasts":{},"blocks":{},
  "currentCostume":0,"costumes":[{"name":"b","assetId":"b","md5ext":"b.png","dataFormat":"png"}],
  "sounds":[]},
 {"isStage":false,"name":"S","variables":{},"lists":{},"broadcasts":{},
  "currentCostume":0,"costumes":[{"name":"c","assetId":"c","md5ext":"c.svg","dataFormat":"svg"}],
  "sounds":[],"x":0,"y":0,"size":100,"direction":90,"visible":true,
  "blocks":{
   "a":{"opcode":"event_whenflagclicked","next":"b","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
   "b":{"opcode":"control_forever","next":null,"parent":"a","inputs":{"SUBSTACK":[2,"c"]},"fields":{},"shadow":false,"topLevel":false},
   "c":{"opcode":"motion_movesteps","next":"d","parent":"b","inputs":{"STEPS":[1,[4,"9"]]},"fields":{},"shadow":false,"topLevel":false},
   "d":{"opcode":"looks_changeeffectby","next":"e","parent":"c","inputs":{"CHANGE":[1,[4,"7"]]},"fields":{"EFFECT":["WHIRL",null]},"shadow":false,"topLevel":false},
   "e":{"opcode":"motion_ifonedgebounce","next":"f","parent":"d","inputs":{},"fields":{},"shadow":false,"topLevel":false},
   "f":{"opcode":"control_if","next":null,"parent":"e","inputs":{"CONDITION":[2,"g"],"SUBSTACK":[2,"h"]},"fields":{},"shadow":false,"topLevel":false},
   "g":{"opcode":"sensing_touchingcolor","next":null,"parent":"f","inputs":{"COLOR":[1,[9,"#ffffff"]]},"fields":{},"shadow":false,"topLevel":false},
   "h":{"opcode":"data_changevariableby","next":null,"parent":"f","inputs":{"VALUE":[1,[4,"1"]]},"fields":{"VARIABLE":["hits","v"]},"shadow":false,"topLevel":false}
  }}],"meta":{"semver":"3.0.0"}}"##;

fn level(w: u32, h: u32, scale: f64) -> SkinBitmap {
    let rgba = (0..w * h).flat_map(|i| [255, (i % 251) as u8, 0, 255]).collect();
    SkinBitmap { scale, width: w, height: h, rgba }
}

fn image(sprite: Skin) -> Image {
    let mut img = compile(&load(PROJECT.as_bytes()).expect("load")).expect("compile");
    let backdrop = Skin {
        size: [480.0, 360.0],
        rotation_center: [240.0, 180.0],
        vector: false,
        levels: vec![SkinBitmap {
            scale: 1.0,
            width: 480,
            height: 360,
            rgba: vec![255; 480 * 360 * 4],
        }],
    };
    img.skins = vec![backdrop, sprite];
    for (k, t) in img.targets.iter_mut().enumerate() {
        t.costume_skins = vec![Some(k as u32)];
    }
    img
}

fn good() -> Skin {
    Skin {
        size: [20.0, 10.0],
        rotation_center: [10.0, 5.0],
        vector: true,
        levels: vec![level(10, 5, 0.5), level(20, 10, 1.0), level(40, 20, 2.0)],
    }
}

/// `Vm::new`'s answer, directly and after a trip through the program image envelope.
fn refusal(skin: Skin) -> Option<VmError> {
    let img = image(skin);
    let bytes = encode_payload(ProgramKind::Scratch, &img).expect("encode");
    let decoded = decode(&bytes).expect("envelope");
    let again: Image = decoded.payload_as(ProgramKind::Scratch).expect("payload");
    let direct = Vm::new(img, Config::default()).err();
    assert_eq!(direct, Vm::new(again, Config::default()).err());
    direct
}

fn fault(skin: Skin) -> SkinFault {
    match refusal(skin) {
        Some(VmError::BadSkin { skin: 1, fault }) => fault,
        other => panic!("expected a refusal of skin 1, got {other:?}"),
    }
}

#[test]
fn malformed_skins_are_refused_with_the_fault() {
    let with = |f: &dyn Fn(&mut Skin)| {
        let mut s = good();
        f(&mut s);
        s
    };
    assert_eq!(fault(with(&|s| s.size = [f64::NAN, 1.0])), SkinFault::BadSize);
    assert_eq!(fault(with(&|s| s.size = [-1.0, 1.0])), SkinFault::BadSize);
    assert_eq!(fault(with(&|s| s.size = [1e9, 1e9])), SkinFault::BadSize);
    assert_eq!(fault(with(&|s| s.size = [f64::INFINITY, 0.0])), SkinFault::BadSize);
    assert_eq!(fault(with(&|s| s.rotation_center = [0.0, f64::INFINITY])), SkinFault::BadCentre);
    assert_eq!(fault(with(&|s| s.levels.clear())), SkinFault::NoLevels);
    assert_eq!(fault(with(&|s| s.levels[1].scale = 0.0)), SkinFault::BadScale { level: 1 });
    assert_eq!(fault(with(&|s| s.levels[2].scale = f64::NAN)), SkinFault::BadScale { level: 2 });
    assert_eq!(fault(with(&|s| s.levels.swap(0, 1))), SkinFault::NotAscending { level: 1 });
    assert_eq!(fault(with(&|s| s.levels[2].scale = 1.0)), SkinFault::NotAscending { level: 2 });
    assert_eq!(
        fault(
            with(&|s| s.levels[0] = SkinBitmap { scale: 0.5, width: 0, height: 5, rgba: vec![] })
        ),
        SkinFault::EmptyLevel { level: 0 }
    );
    assert_eq!(
        fault(with(&|s| {
            s.levels[1].rgba.pop();
        })),
        SkinFault::PixelCount { level: 1, expected: 800, found: 799 }
    );
    assert_eq!(
        fault(with(&|s| s.levels[0].rgba.extend_from_slice(&[0; 4]))),
        SkinFault::PixelCount { level: 0, expected: 200, found: 204 }
    );
    // Dimensions whose product overflows are a count mismatch, not an overflow.
    assert_eq!(
        fault(with(&|s| s.levels[0].width = u32::MAX)),
        SkinFault::PixelCount { level: 0, expected: u64::from(u32::MAX) * 5 * 4, found: 200 }
    );
    assert_eq!(refusal(good()), None);
}

/// Runs 60 frames (touching colour, bounce, a whirl that changes every frame) and renders.
fn runs(skin: Skin) -> f64 {
    let mut vm = Vm::new(image(skin), Config::default()).expect("accepted");
    vm.step_frame(&[Input::GreenFlag]);
    for _ in 0..60 {
        vm.step_frame(&[Input::MouseDown(Some(0.0), Some(0.0))]);
        vm.step_frame(&[Input::MouseUp(Some(0.0), Some(0.0))]);
    }
    let mut fb = Framebuffer::new(96, 72);
    render(&vm, &mut fb).expect("render");
    let obs = vm.observe();
    let hits = obs.globals.iter().find(|(n, _)| &**n == "hits").map(|(_, v)| v.to_string());
    hits.and_then(|h| h.parse().ok()).unwrap_or(f64::NAN)
}

#[test]
fn odd_but_well_formed_skins_run() {
    // The sprite touches the white backdrop whenever it has an opaque pixel on the stage.
    assert!(runs(good()) > 0.0);
    // A 1 × 1 level for a large costume, scales that are not powers of two, a zero-size skin
    // (scratch-render's empty image), a skin far larger than its one level.
    let mut odd = good();
    odd.levels = vec![level(1, 1, 0.01), level(3, 7, 0.3), level(50, 9, 1.7)];
    assert!(runs(odd) >= 0.0);
    let empty = Skin { size: [0.0, 0.0], rotation_center: [0.0, 0.0], ..good() };
    assert_eq!(runs(empty), 0.0);
    let wide = Skin {
        size: [4000.0, 2.0],
        rotation_center: [2000.0, 1.0],
        vector: false,
        levels: vec![level(2, 2, 2.0)],
    };
    assert!(runs(wide) >= 0.0);
}
