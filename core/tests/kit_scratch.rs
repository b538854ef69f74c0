//! Scratch on a classroom kit: costumes converted for the display, the packed image played by
//! the kit app (green flag at boot, kit keys as Scratch keys), the stage drawn in its 4:3 area
//! exactly as the stage renderer draws it, the pen layer sized to the heap, and budgets that
//! name the large costumes.

use gobo::image::{self, ProgramKind};
use gobo::kit::pack::{self, PackError};
use gobo::kit::scratch::{self as kit_scratch, Player};
use gobo::kit::{App, Buttons, Kit, Program, Shown, CLUE, LM3S6965};
use gobo::scratch::compile::compile;
use gobo::scratch::image::{Image, Skin, SkinBitmap};
use gobo::scratch::project::load;
use gobo::scratch::render::{self, Framebuffer};
use gobo::scratch::vm::Vm;

/// `Ball`: the green flag puts it at (-60, 0) with its pen down (size 8) and says "hi" for one
/// second; the right arrow moves it 20 steps, space turns it 15 degrees.
const PROJECT: &str = r##"{"targets":[
 {"isStage":true,"name":"Stage","variables":{},"lists":{},"broadcasts":{},"blocks":{},
  "currentCostume":0,"costumes":[{"name":"sky","assetId":"b","md5ext":"b.png","dataFormat":"png"}],
  "sounds":[]},
 {"isStage":false,"name":"Ball","variables":{},"lists":{},"broadcasts":{},"currentCostume":0,
  "costumes":[{"name":"ball","assetId":"c","md5ext":"c.png","dataFormat":"png"}],
  "sounds":[],"x":0,"y":0,"size":100,"direction":90,"visible":true,"draggable":false,
  "layerOrder":1,
  "blocks":{
   "f":{"opcode":"event_whenflagclicked","next":"g","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
   "g":{"opcode":"motion_gotoxy","next":"p","parent":"f","inputs":{"X":[1,[4,"-60"]],"Y":[1,[4,"0"]]},"fields":{},"shadow":false,"topLevel":false},
   "p":{"opcode":"pen_setPenSizeTo","next":"d","parent":"g","inputs":{"SIZE":[1,[4,"8"]]},"fields":{},"shadow":false,"topLevel":false},
   "d":{"opcode":"pen_penDown","next":"s","parent":"p","inputs":{},"fields":{},"shadow":false,"topLevel":false},
   "s":{"opcode":"looks_sayforsecs","next":null,"parent":"d","inputs":{"MESSAGE":[1,[10,"hi"]],"SECS":[1,[4,"1"]]},"fields":{},"shadow":false,"topLevel":false},
   "k":{"opcode":"event_whenkeypressed","next":"m","parent":null,"inputs":{},"fields":{"KEY_OPTION":["right arrow",null]},"shadow":false,"topLevel":true,"x":0,"y":200},
   "m":{"opcode":"motion_changexby","next":null,"parent":"k","inputs":{"DX":[1,[4,"20"]]},"fields":{},"shadow":false,"topLevel":false},
   "t":{"opcode":"event_whenkeypressed","next":"u","parent":null,"inputs":{},"fields":{"KEY_OPTION":["space",null]},"shadow":false,"topLevel":true,"x":0,"y":300},
   "u":{"opcode":"motion_turnright","next":null,"parent":"t","inputs":{"DEGREES":[1,[4,"15"]]},"fields":{},"shadow":false,"topLevel":false}
  }}],"meta":{"semver":"3.0.0"}}"##;

/// A bitmap skin of `w × h` stage units at resolution 2 whose pixel (x, y) is `color(x, y)`.
fn skin(w: u32, h: u32, color: impl Fn(u32, u32) -> [u8; 4]) -> Skin {
    let color = &color;
    let rgba = (0..2 * h).flat_map(|y| (0..2 * w).flat_map(move |x| color(x, y))).collect();
    Skin {
        size: [f64::from(w), f64::from(h)],
        rotation_center: [f64::from(w) / 2.0, f64::from(h) / 2.0],
        vector: false,
        levels: vec![SkinBitmap { scale: 2.0, width: 2 * w, height: 2 * h, rgba }],
    }
}

/// The project with a uniform sky-blue backdrop and a 40×40 ball: a yellow disc with a dark
/// stripe, transparent around it.
fn image() -> Image {
    let mut img = compile(&load(PROJECT.as_bytes()).expect("load")).expect("compile");
    let ball = skin(40, 40, |x, y| {
        let (dx, dy) = (f64::from(x) - 39.5, f64::from(y) - 39.5);
        match (dx * dx + dy * dy).sqrt() {
            r if r > 38.0 => [0, 0, 0, 0],
            _ if (36..44).contains(&x) => [30, 30, 30, 255],
            _ => [255, 211, 63, 255],
        }
    });
    img.skins = vec![skin(480, 360, |_, _| [42, 77, 143, 255]), ball];
    for (k, t) in img.targets.iter_mut().enumerate() {
        t.costume_skins = vec![Some(k as u32)];
    }
    img
}

fn ball(vm: &Vm) -> (f64, f64, f64) {
    let o = vm.observe();
    let s = o.sprites.iter().find(|s| &*s.name == "Ball").expect("Ball");
    (s.x, s.y, s.dir)
}

fn player<'a>(app: &'a App<'_>) -> &'a Player {
    match app.program() {
        Some(gobo::kit::AnyProgram::Scratch(p)) => p,
        other => panic!("not playing Scratch: {other:?}"),
    }
}

#[test]
fn costumes_are_converted_for_the_display() {
    let mut img = image();
    kit_scratch::fit_skins(&mut img, &LM3S6965, 1);
    let scale = 85.0 / 480.0;
    assert_eq!(kit_scratch::display_scale(&LM3S6965), scale);
    // The uniform backdrop becomes one pixel of its colour; sizes stay in stage units.
    let sky = &img.skins[0];
    assert_eq!((sky.levels.len(), sky.levels[0].width, sky.levels[0].height), (1, 1, 1));
    assert_eq!(sky.levels[0].rgba, [42, 77, 143, 255]);
    assert_eq!(sky.size, [480.0, 360.0]);
    // The ball: 40 stage units at 85/480 pixels each, rounded up: 8 × 8.
    let b = &img.skins[1];
    assert!(!b.vector);
    assert_eq!((b.levels[0].width, b.levels[0].height, b.levels[0].scale), (8, 8, scale));
    assert_eq!(b.size, [40.0, 40.0]);
    assert_eq!(b.rotation_center, [20.0, 20.0]);
    let px = |x: usize, y: usize| {
        let i = (y * 8 + x) * 4;
        <[u8; 4]>::try_from(&b.levels[0].rgba[i..i + 4]).unwrap()
    };
    assert_eq!(px(0, 0)[3], 0, "corner outside the disc stays transparent");
    assert_eq!(px(1, 4), [255, 211, 63, 255], "inside the disc keeps its colour");
    let stripe = px(4, 4);
    assert!(stripe[0] < 200 && stripe[3] == 255, "the stripe darkens its column: {stripe:?}");

    // Colour kits round colours to RGB565; greyscale kits keep them (touching color needs hues).
    let mut img = image();
    kit_scratch::fit_skins(&mut img, &CLUE, 1);
    assert_eq!(img.skins[0].levels[0].rgba, [42 & 0xf8, 77 & 0xfc, 143 & 0xf8, 255]);
    assert_eq!(img.skins[1].levels[0].width, 20, "40 units at 240/480 pixels each");
    // A divisor halves the resolution again.
    let mut img = image();
    kit_scratch::fit_skins(&mut img, &CLUE, 2);
    assert_eq!(img.skins[1].levels[0].width, 10);
}

#[test]
fn the_stage_keeps_its_shape_and_the_pen_fits_the_heap() {
    let area = kit_scratch::stage_area(LM3S6965.display);
    assert_eq!(
        (area.top_left.x, area.top_left.y, area.size.width, area.size.height),
        (21, 0, 85, 64)
    );
    let area = kit_scratch::stage_area(CLUE.display);
    assert_eq!(
        (area.top_left.x, area.top_left.y, area.size.width, area.size.height),
        (0, 30, 240, 180)
    );
    assert_eq!(kit_scratch::pen_size(&LM3S6965), (85, 64));
    assert_eq!(kit_scratch::pen_size(&CLUE), (120, 90), "240x180x4 bytes is over half the heap");
    let cfg = kit_scratch::config(&LM3S6965);
    assert_eq!(cfg.max_clones, 22);
    assert!(cfg.max_list_len <= LM3S6965.heap_bytes as usize / 16);
}

#[test]
fn a_packed_project_plays_on_the_kit_with_its_keys() {
    let packed = pack::pack_scratch(image(), &LM3S6965, 1).expect("pack");
    assert_eq!(packed.kind, ProgramKind::Scratch);
    assert_eq!(image::decode(&packed.image).unwrap().kind, ProgramKind::Scratch);
    pack::check_budgets(&LM3S6965, &packed, 0).expect("fits the emulated kit");
    let total: usize = packed.parts.iter().map(|p| p.1).sum();
    assert_eq!(total, packed.image.len());

    let mut app = App::boot(&LM3S6965, &packed.image);
    assert_eq!(app.error_message(), None);
    // Frame 1 clicks the green flag: the ball goes to (-60, 0) and says hi.
    assert!(app.step(Buttons::NONE));
    assert_eq!(ball(player(&app).vm()), (-60.0, 0.0, 90.0));
    assert!(matches!(app.shown(), Shown::Scratch { threads: 1 }), "{}", app.shown());
    // Nothing changes while the bubble shows; its end is a change; then the project waits.
    let changes: Vec<u32> = (2..=45).filter(|_| app.step(Buttons::NONE)).collect();
    assert_eq!(changes.len(), 1, "only the bubble's end changes the picture: {changes:?}");
    assert_eq!(app.shown(), Shown::Scratch { threads: 0 });
    // Right arrow (held for three frames: one key press) moves it 20 steps, once.
    for _ in 0..3 {
        app.step(Buttons::RIGHT);
    }
    app.step(Buttons::NONE);
    assert_eq!(ball(player(&app).vm()), (-40.0, 0.0, 90.0));
    // Select is space: a turn; held for a second it also clicks the green flag.
    app.step(Buttons::SELECT);
    assert_eq!(ball(player(&app).vm()).2, 105.0);
    for _ in 0..29 {
        app.step(Buttons::SELECT);
    }
    assert_eq!(ball(player(&app).vm()).0, -60.0, "the green flag ran again");
}

#[test]
fn the_kit_draws_the_stage_renderer_picture_in_the_stage_area() {
    let packed = pack::pack_scratch(image(), &LM3S6965, 1).expect("pack");
    let mut app = App::boot(&LM3S6965, &packed.image);
    for _ in 0..3 {
        app.step(Buttons::NONE);
    }
    app.step(Buttons::RIGHT);
    let mut screen = Framebuffer::new(128, 64);
    app.draw(&mut screen).unwrap();
    let mut stage = Framebuffer::new(85, 64);
    render::render(player(&app).vm(), &mut stage).unwrap();
    for y in 0..64 {
        for x in 0..128 {
            let want = if (21..106).contains(&x) { stage.pixel(x - 21, y) } else { [0, 0, 0] };
            assert_eq!(screen.pixel(x, y), want, "({x}, {y})");
        }
    }
    // The picture shows the backdrop, the ball and the pen line it drew.
    assert!(stage.rgb().chunks(3).any(|p| p == [42, 77, 143]), "backdrop");
    assert!(stage.rgb().chunks(3).any(|p| p == [255, 211, 63]), "ball");
}

#[test]
fn the_player_alone_plays_only_scratch() {
    let packed = pack::pack_xlogo(
        include_str!("fixtures/kit/square-task.json"),
        include_str!("fixtures/kit/square-code.py"),
    )
    .unwrap();
    let app = App::<Player>::boot_as(&LM3S6965, &packed.image);
    assert_eq!(app.error_message(), Some("xlogo programs cannot be played by this build"));
    let scratch = pack::pack_scratch(image(), &LM3S6965, 1).unwrap();
    let img = image::decode(&scratch.image).unwrap();
    assert!(<Player as Program>::load(&LM3S6965, &img).is_ok());
}

#[test]
fn over_budget_projects_name_their_largest_costumes() {
    let mut img = image();
    // A backdrop of stripes cannot shrink to one pixel: 85 × 64 pixels of 4 bytes.
    img.skins[0] = skin(480, 360, |x, _| [(x % 256) as u8, 0, 0, 255]);
    let packed = pack::pack_scratch(img, &LM3S6965, 1).unwrap();
    assert_eq!(packed.parts[0], ("costume Stage/sky pixels".to_string(), 85 * 64 * 4));
    let tiny = Kit {
        firmware_flash: gobo::kit::FirmwareFlash {
            xlogo: 0,
            scratch: LM3S6965.flash_bytes - 1000,
            drawing: 0,
        },
        ..LM3S6965
    };
    let err = pack::check_budgets(&tiny, &packed, 0).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, PackError::TooLarge { budget: 1000, .. }), "{text}");
    assert!(text.contains("largest parts: costume Stage/sky pixels 21760 bytes"), "{text}");
    // A heap estimate over the kit's heap names the known heap users: pen layer and costumes.
    let fits = pack::pack_scratch(image(), &LM3S6965, 1).unwrap();
    let err = pack::check_budgets(&LM3S6965, &fits, 100_000).unwrap_err();
    let text = err.to_string();
    let over = 100_000 - LM3S6965.heap_bytes;
    assert!(
        text.starts_with(&format!(
            "program needs about 100000 bytes of heap, {over} bytes more than the lm3s6965 kit's \
             45056; largest parts: pen layer 85x64 (if the pen is used) 21760 bytes, costume \
             Ball/ball pixels 256 bytes, costume Stage/sky pixels 4 bytes"
        )),
        "{text}"
    );
    // Half the resolution: a quarter of the pixels.
    let mut img = image();
    img.skins[0] = skin(480, 360, |x, _| [(x % 256) as u8, 0, 0, 255]);
    let half = pack::pack_scratch(img, &LM3S6965, 2).unwrap();
    assert_eq!(half.parts[0].1, 43 * 32 * 4);
}

#[test]
fn a_project_the_vm_refuses_is_a_typed_error() {
    let mut img = image();
    img.skins[1].levels.clear();
    let err = pack::pack_scratch(img, &LM3S6965, 1).unwrap_err();
    assert!(matches!(err, PackError::Scratch(_)), "{err}");
    assert!(err.to_string().starts_with("scratch: "), "{err}");
    let mut img = image();
    img.version += 1;
    assert!(matches!(pack::pack_scratch(img, &LM3S6965, 1), Err(PackError::Scratch(_))));
}
