//! The stage renderer at kit sizes (128×64, 240×240) and at 480×360 on a hand-built image:
//! placement scaled to the output, hidden sprites skipped, the pen layer under sprites, and
//! the allocations of one render call counted (one small vector of layers, nothing per pixel).

#![allow(unsafe_code)] // a GlobalAlloc impl is unsafe by definition; it only forwards to System.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use gobo::scratch::compile::compile;
use gobo::scratch::image::{Image, Skin, SkinBitmap};
use gobo::scratch::project::load;
use gobo::scratch::render::{render, Framebuffer};
use gobo::scratch::vm::{Config, Input, Vm};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A bitmap skin of one colour, `w × h` stage units, centred.
fn solid(w: u32, h: u32, rgba: [u8; 4]) -> Skin {
    Skin {
        size: [f64::from(w), f64::from(h)],
        rotation_center: [f64::from(w) / 2.0, f64::from(h) / 2.0],
        vector: false,
        levels: vec![SkinBitmap {
            scale: 1.0,
            width: w,
            height: h,
            rgba: rgba.iter().copied().cycle().take((w * h * 4) as usize).collect(),
        }],
    }
}

const PROJECT: &str = r##"{"targets":[
 {"isStage":true,"name":"Stage","variables":{},"lists":{},"broadcasts":{},"blocks":{},
  "costumes":[{"name":"b","assetId":"a","md5ext":"a.png","dataFormat":"png","rotationCenterX":240,"rotationCenterY":180}],
  "currentCostume":0,"sounds":[],"volume":100,"layerOrder":0},
 {"isStage":false,"name":"Red","variables":{},"lists":{},"broadcasts":{},
  "blocks":{"f":{"opcode":"event_whenflagclicked","next":"d","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
            "d":{"opcode":"pen_penDown","next":"m","parent":"f","inputs":{},"fields":{},"shadow":false,"topLevel":false},
            "m":{"opcode":"motion_changexby","next":null,"parent":"d","inputs":{"DX":[1,[4,"-120"]]},"fields":{},"shadow":false,"topLevel":false}},
  "costumes":[{"name":"r","assetId":"r","md5ext":"r.png","dataFormat":"png","rotationCenterX":20,"rotationCenterY":20}],
  "currentCostume":0,"sounds":[],"volume":100,"layerOrder":1,"visible":true,"x":120,"y":0,"size":100,"direction":90,"draggable":false,"rotationStyle":"all around"},
 {"isStage":false,"name":"Hidden","variables":{},"lists":{},"broadcasts":{},"blocks":{},
  "costumes":[{"name":"r","assetId":"r","md5ext":"r.png","dataFormat":"png","rotationCenterX":20,"rotationCenterY":20}],
  "currentCostume":0,"sounds":[],"volume":100,"layerOrder":2,"visible":false,"x":0,"y":100,"size":100,"direction":90,"draggable":false,"rotationStyle":"all around"}
]}"##;

fn image() -> Image {
    let mut img = compile(&load(PROJECT.as_bytes()).expect("load")).expect("compile");
    img.skins = vec![solid(480, 360, [255, 255, 255, 255]), solid(40, 40, [255, 0, 0, 255])];
    img.targets[0].costume_skins = vec![Some(0)];
    img.targets[1].costume_skins = vec![Some(1)];
    img.targets[2].costume_skins = vec![Some(1)];
    img
}

/// A VM after the green flag, with a `w × h` pen layer (a kit asks for its display's size).
fn vm(w: u32, h: u32) -> Vm {
    let mut vm = Vm::new(image(), Config::default()).expect("vm");
    vm.set_pen_layer_size(w, h);
    vm.step_frame(&[Input::GreenFlag]);
    vm
}

/// The stage point at the centre of output pixel (`x`, `y`) of a `w × h` output.
fn pixel_of(fb: &Framebuffer, sx: f64, sy: f64) -> [u8; 3] {
    let (w, h) = (f64::from(fb.width()), f64::from(fb.height()));
    let x = ((sx + 240.0) * w / 480.0).floor() as u32;
    let y = ((180.0 - sy) * h / 360.0).floor() as u32;
    fb.pixel(x, y)
}

#[test]
fn renders_at_every_kit_size() {
    // The sprite moved from x=120 to x=0 with its pen down: a blue (default pen) line lies
    // under it from 0 to 120 at y=0.
    for (w, h) in [(480, 360), (128, 64), (240, 240)] {
        let vm = vm(w, h);
        let red = vm.observe().sprites.into_iter().find(|s| &*s.name == "Red").expect("Red");
        assert_eq!(red.x, 0.0);
        let mut fb = Framebuffer::new(w, h);
        let Ok(()) = render(&vm, &mut fb);
        assert_eq!(pixel_of(&fb, 0.0, 0.0), [255, 0, 0], "{w}x{h}: sprite at the centre");
        // The 1-pixel line is offset half a pixel up; on a smaller layer it is thinner than a
        // pixel and blends with the backdrop.
        let line = pixel_of(&fb, 80.0, 0.5);
        if w == 480 {
            assert_eq!(line, [0, 0, 255], "pen line");
        } else {
            assert!(line[2] == 255 && line[0] < 255 && line[0] == line[1], "{w}x{h}: {line:?}");
        }
        assert_eq!(pixel_of(&fb, -100.0, 60.0), [255, 255, 255], "{w}x{h}: backdrop");
        assert_eq!(pixel_of(&fb, 0.0, 100.0), [255, 255, 255], "{w}x{h}: hidden sprite");
        assert_eq!(pixel_of(&fb, 15.0, 15.0), [255, 0, 0], "{w}x{h}: sprite corner");
        assert_eq!(pixel_of(&fb, 25.0, 25.0), [255, 255, 255], "{w}x{h}: outside the sprite");
    }
}

#[test]
fn one_render_allocates_once_not_per_pixel() {
    let vm = vm(128, 64);
    let mut fb = Framebuffer::new(128, 64);
    let Ok(()) = render(&vm, &mut fb);
    let before = ALLOCS.with(Cell::get);
    let Ok(()) = render(&vm, &mut fb);
    let n = ALLOCS.with(Cell::get) - before;
    assert_eq!(n, 1, "the layer list only");
}
