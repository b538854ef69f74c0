//! Dragging sprites with the mouse as scratch-gui's stage does it (`vm::drag`): the 3-pixel
//! threshold, the grab offset, the 400 ms long press, no click hats after a drag, motion
//! blocks ignored while dragged, go to front, the player and editor styles, and no dragging
//! at all with `DragStyle::None` (the reference harnesses). The reference harnesses cannot
//! drag, so the expected positions are worked out from scratch-gui's `stage.jsx` and
//! scratch-vm's `setXY(x, y, force)` by hand in each test.

use gobo::scratch::compile::compile;
use gobo::scratch::image::{Image, Skin, SkinBitmap};
use gobo::scratch::project::load;
use gobo::scratch::vm::drag::DragStyle;
use gobo::scratch::vm::{Config, Input, Vm};

/// `D` (draggable) at (0, 0) below `N` (not draggable) at (100, 0), both 40×40 squares
/// centred on their position. Clicking `D` or `N` counts in `clicks`/`nclicks`; the message
/// `go` starts `D` moving right by 1 each frame.
const PROJECT: &str = r##"{"targets":[
 {"isStage":true,"name":"Stage","variables":{"c":["clicks",0],"n":["nclicks",0]},"lists":{},
  "broadcasts":{"m":"go"},"blocks":{},"currentCostume":0,
  "costumes":[{"name":"b","assetId":"b","md5ext":"b.png","dataFormat":"png"}],"sounds":[]},
 {"isStage":false,"name":"D","variables":{},"lists":{},"broadcasts":{},"currentCostume":0,
  "costumes":[{"name":"c","assetId":"c","md5ext":"c.png","dataFormat":"png"}],
  "sounds":[],"x":0,"y":0,"size":100,"direction":90,"visible":true,"draggable":true,
  "layerOrder":1,
  "blocks":{
   "a":{"opcode":"event_whenthisspriteclicked","next":"b","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
   "b":{"opcode":"data_changevariableby","next":null,"parent":"a","inputs":{"VALUE":[1,[4,"1"]]},"fields":{"VARIABLE":["clicks","c"]},"shadow":false,"topLevel":false},
   "g":{"opcode":"event_whenbroadcastreceived","next":"f","parent":null,"inputs":{},"fields":{"BROADCAST_OPTION":["go","m"]},"shadow":false,"topLevel":true,"x":0,"y":200},
   "f":{"opcode":"control_forever","next":null,"parent":"g","inputs":{"SUBSTACK":[2,"x"]},"fields":{},"shadow":false,"topLevel":false},
   "x":{"opcode":"motion_changexby","next":null,"parent":"f","inputs":{"DX":[1,[4,"1"]]},"fields":{},"shadow":false,"topLevel":false}
  }},
 {"isStage":false,"name":"N","variables":{},"lists":{},"broadcasts":{},"currentCostume":0,
  "costumes":[{"name":"c","assetId":"c","md5ext":"c.png","dataFormat":"png"}],
  "sounds":[],"x":100,"y":0,"size":100,"direction":90,"visible":true,"draggable":false,
  "layerOrder":2,
  "blocks":{
   "a":{"opcode":"event_whenthisspriteclicked","next":"b","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
   "b":{"opcode":"data_changevariableby","next":null,"parent":"a","inputs":{"VALUE":[1,[4,"1"]]},"fields":{"VARIABLE":["nclicks","n"]},"shadow":false,"topLevel":false}
  }}],"meta":{"semver":"3.0.0"}}"##;

fn opaque(w: u32, h: u32) -> Skin {
    Skin {
        size: [f64::from(w), f64::from(h)],
        rotation_center: [f64::from(w) / 2.0, f64::from(h) / 2.0],
        vector: false,
        levels: vec![SkinBitmap {
            scale: 1.0,
            width: w,
            height: h,
            rgba: vec![200; (w * h * 4) as usize],
        }],
    }
}

fn image() -> Image {
    let mut img = compile(&load(PROJECT.as_bytes()).expect("load")).expect("compile");
    img.skins = vec![opaque(480, 360), opaque(40, 40)];
    for (k, t) in img.targets.iter_mut().enumerate() {
        t.costume_skins = vec![Some(u32::from(k > 0))];
    }
    img
}

fn vm(drag: DragStyle) -> Vm {
    let mut vm = Vm::new(image(), Config { drag, ..Config::default() }).expect("vm");
    vm.step_frame(&[Input::GreenFlag]);
    vm
}

fn down(x: f64, y: f64) -> Input {
    Input::MouseDown(Some(x), Some(y))
}

fn up(x: f64, y: f64) -> Input {
    Input::MouseUp(Some(x), Some(y))
}

fn to(x: f64, y: f64) -> Input {
    Input::MouseMove(x, y)
}

/// (x, y, visible, layer) of a sprite.
fn pose(vm: &Vm, name: &str) -> (f64, f64, bool, i64) {
    let o = vm.observe();
    let s = o.sprites.iter().find(|s| &*s.name == name).expect("sprite");
    (s.x, s.y, s.visible, s.layer)
}

fn global(vm: &Vm, name: &str) -> String {
    let o = vm.observe();
    o.globals.iter().find(|(n, _)| &**n == name).map(|(_, v)| v.to_string()).unwrap_or_default()
}

#[test]
fn a_draggable_sprite_follows_the_mouse_keeping_the_grab_offset() {
    let mut vm = vm(DragStyle::Player);
    assert_eq!(pose(&vm, "D").3, 1, "D starts below N");
    vm.step_frame(&[down(5.0, 5.0)]);
    // One pixel is within the 3-pixel threshold: no drag yet.
    vm.step_frame(&[to(6.0, 5.0)]);
    assert_eq!(pose(&vm, "D"), (0.0, 0.0, true, 1));
    // Past the threshold the drag starts where the button went down, (5, 5) on the stage,
    // i.e. 5 right of and 5 above D's centre; the sprite keeps that offset under the mouse
    // and comes to the front.
    vm.step_frame(&[to(25.0, 15.0)]);
    assert_eq!(pose(&vm, "D"), (20.0, 10.0, true, 2));
    vm.step_frame(&[to(-100.5, -40.0)]);
    assert_eq!(pose(&vm, "D"), (-105.5, -45.0, true, 2));
    // Releasing after a drag starts no click hats.
    vm.step_frame(&[up(-100.5, -40.0)]);
    vm.step_frame(&[]);
    assert_eq!(pose(&vm, "D"), (-105.5, -45.0, true, 2));
    assert_eq!(global(&vm, "clicks"), "0");
    // A click without moving: a draggable sprite's click hats start on release.
    vm.step_frame(&[down(-105.0, -45.0)]);
    assert_eq!(global(&vm, "clicks"), "0");
    vm.step_frame(&[up(-105.0, -45.0)]);
    vm.step_frame(&[]);
    assert_eq!(global(&vm, "clicks"), "1");
    assert_eq!(pose(&vm, "D").0, -105.5, "a click does not move it");
}

#[test]
fn a_dragged_sprite_is_fenced_like_any_move() {
    let mut vm = vm(DragStyle::Player);
    vm.step_frame(&[down(0.0, 0.0)]);
    // Far off the right edge: setXY(x, y, true) still keeps a sliver of the sprite on the
    // stage, as motion blocks do (the fence leaves min(15, half the size) inside).
    vm.step_frame(&[to(400.0, 0.0)]);
    let (x, y, ..) = pose(&vm, "D");
    assert_eq!(y, 0.0);
    assert!(x > 240.0 && x < 280.0, "fenced at the edge, not at 400: {x}");
}

#[test]
fn blocks_do_not_move_a_dragged_sprite() {
    let mut vm = vm(DragStyle::Player);
    vm.step_frame(&[Input::Broadcast("go".into())]);
    // `change x by 1` each frame: 1 after the broadcast's frame.
    let x0 = pose(&vm, "D").0;
    assert_eq!(x0, 1.0);
    vm.step_frame(&[down(x0, 0.0)]);
    // The press is not a drag yet: the loop moved D on to x1 = 2 in that frame, so the grab
    // point is 1 left of its centre when the drag starts.
    let x1 = pose(&vm, "D").0;
    assert_eq!(x1, 2.0);
    vm.step_frame(&[to(x0, 50.0)]);
    // D sits at (x0 + 1, 50) = (x1, 50) under the mouse and stays there while held.
    for _ in 0..5 {
        vm.step_frame(&[]);
        assert_eq!(pose(&vm, "D").0, x1, "change x is ignored while dragged");
    }
    assert_eq!(pose(&vm, "D").1, 50.0);
    vm.step_frame(&[up(x0, 50.0)]);
    // Released: the loop moves it again from where it was dropped.
    assert_eq!(pose(&vm, "D"), (x1 + 1.0, 50.0, true, 2));
}

#[test]
fn holding_the_button_400_ms_starts_a_drag() {
    // The timer fires after the frame's inputs once 12 frames (400 ms at 30 fps) have
    // passed since the press. A release 12 frames after the press comes first and cancels it
    // (a click); one 13 frames after finds a drag (no click).
    for (held, clicks) in [(12, "1"), (13, "0")] {
        let mut vm = vm(DragStyle::Player);
        vm.step_frame(&[down(0.0, 0.0)]);
        for _ in 1..held {
            vm.step_frame(&[]);
        }
        vm.step_frame(&[up(0.0, 0.0)]);
        vm.step_frame(&[]);
        assert_eq!(global(&vm, "clicks"), clicks, "held {held} frames");
        // A long press brings it to the front even without moving.
        assert_eq!(pose(&vm, "D").3, if clicks == "0" { 2 } else { 1 });
    }
}

#[test]
fn the_player_does_not_drag_a_sprite_that_is_not_draggable() {
    let mut vm = vm(DragStyle::Player);
    vm.step_frame(&[down(100.0, 0.0)]);
    // Click hats of a non-draggable sprite start on the press.
    vm.step_frame(&[to(150.0, 20.0)]);
    assert_eq!(global(&vm, "nclicks"), "1");
    vm.step_frame(&[up(150.0, 20.0)]);
    assert_eq!(pose(&vm, "N"), (100.0, 0.0, true, 2));
}

#[test]
fn the_editor_drags_any_sprite_hidden_and_places_it_on_drop() {
    let mut vm = vm(DragStyle::Editor);
    vm.step_frame(&[down(100.0, 0.0)]);
    vm.step_frame(&[to(150.0, 20.0)]);
    // Hidden while dragged, not moved until the drop.
    assert_eq!(pose(&vm, "N"), (100.0, 0.0, false, 2));
    vm.step_frame(&[to(160.0, -30.0)]);
    vm.step_frame(&[up(160.0, -30.0)]);
    assert_eq!(pose(&vm, "N"), (160.0, -30.0, true, 2));
    // Dropped outside the stage: shown again where it was.
    vm.step_frame(&[down(160.0, -30.0)]);
    vm.step_frame(&[to(300.0, -30.0)]);
    vm.step_frame(&[up(300.0, -30.0)]);
    assert_eq!(pose(&vm, "N"), (160.0, -30.0, true, 2));
    // D, draggable, behaves the same in the editor; it comes to the front.
    vm.step_frame(&[down(0.0, 0.0)]);
    vm.step_frame(&[to(-50.0, 10.0)]);
    vm.step_frame(&[up(-50.0, 10.0)]);
    assert_eq!(pose(&vm, "D"), (-50.0, 10.0, true, 2));
}

#[test]
fn without_a_gui_nothing_drags() {
    let mut vm = vm(DragStyle::None);
    vm.step_frame(&[down(0.0, 0.0)]);
    vm.step_frame(&[to(50.0, 50.0)]);
    for _ in 0..15 {
        vm.step_frame(&[]);
    }
    vm.step_frame(&[up(50.0, 50.0)]);
    vm.step_frame(&[]);
    assert_eq!(pose(&vm, "D"), (0.0, 0.0, true, 1));
    // The release lands on the stage (D is not under the pointer any more): no click of D.
    assert_eq!(global(&vm, "clicks"), "0");
    // Press and release on D: the draggable sprite's click hats start on the release.
    vm.step_frame(&[down(0.0, 0.0)]);
    vm.step_frame(&[to(20.0, 0.0)]);
    vm.step_frame(&[up(10.0, 0.0)]);
    vm.step_frame(&[]);
    assert_eq!(global(&vm, "clicks"), "1");
}
