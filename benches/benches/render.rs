//! Render phase: the core's stage renderer drawing a stage (bitmap backdrop, twelve rotated
//! and scaled sprites, two with effects, a pen layer) into an RGB framebuffer at 480×360 and at
//! the kits' 128×64 and 240×240. The workload is built here (solid-colour skins) so the bench
//! needs no image decoder.

use criterion::{criterion_group, criterion_main, Criterion};
use gobo::scratch::compile::compile;
use gobo::scratch::image::{Image, Skin, SkinBitmap};
use gobo::scratch::project::load;
use gobo::scratch::render::{render, Framebuffer};
use gobo::scratch::vm::{Config, Input, Vm};

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

fn stage() -> Vm {
    let sprite = |k: usize| {
        let effect = match k {
            3 => {
                r#","blocks":{"f":{"opcode":"event_whenflagclicked","next":"e","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},"e":{"opcode":"looks_seteffectto","next":null,"parent":"f","inputs":{"VALUE":[1,[4,"40"]]},"fields":{"EFFECT":["WHIRL",null]},"shadow":false,"topLevel":false}}"#
            }
            7 => {
                r#","blocks":{"f":{"opcode":"event_whenflagclicked","next":"e","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},"e":{"opcode":"looks_seteffectto","next":null,"parent":"f","inputs":{"VALUE":[1,[4,"60"]]},"fields":{"EFFECT":["COLOR",null]},"shadow":false,"topLevel":false}}"#
            }
            _ => r#","blocks":{}"#,
        };
        format!(
            r#"{{"isStage":false,"name":"S{k}","variables":{{}},"lists":{{}},"broadcasts":{{}}{effect},"costumes":[{{"name":"c","assetId":"c","md5ext":"c.png","dataFormat":"png","rotationCenterX":20,"rotationCenterY":20}}],"currentCostume":0,"sounds":[],"volume":100,"layerOrder":{},"visible":true,"x":{},"y":{},"size":{},"direction":{},"draggable":false,"rotationStyle":"all around"}}"#,
            k + 1,
            -200 + 36 * k as i32,
            (k as i32 % 5) * 60 - 120,
            80 + 10 * k,
            90 + 17 * k
        )
    };
    let sprites: Vec<String> = (0..12).map(sprite).collect();
    let json = format!(
        r#"{{"targets":[{{"isStage":true,"name":"Stage","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{}},"costumes":[{{"name":"b","assetId":"b","md5ext":"b.png","dataFormat":"png","rotationCenterX":240,"rotationCenterY":180}}],"currentCostume":0,"sounds":[],"volume":100,"layerOrder":0}},{}]}}"#,
        sprites.join(",")
    );
    let mut img: Image = compile(&load(json.as_bytes()).expect("load")).expect("compile");
    img.skins = vec![solid(480, 360, [240, 236, 220, 255]), solid(40, 40, [40, 120, 220, 255])];
    for (k, t) in img.targets.iter_mut().enumerate() {
        t.costume_skins = vec![Some(if k == 0 { 0 } else { 1 })];
    }
    let mut vm = Vm::new(img, Config::default()).expect("vm");
    vm.step_frame(&[Input::GreenFlag]);
    vm
}

fn render_phase(c: &mut Criterion) {
    let vm = stage();
    let mut group = c.benchmark_group("render/stage");
    for (w, h) in [(480, 360), (240, 240), (128, 64)] {
        let mut fb = Framebuffer::new(w, h);
        group.bench_function(format!("{w}x{h}"), |b| {
            b.iter(|| {
                let Ok(()) = render(std::hint::black_box(&vm), &mut fb);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, render_phase);
criterion_main!(benches);
