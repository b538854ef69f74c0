//! Sound timing without audio output (`vm::sound`), on the fixture projects in
//! `fixtures/scratch/sound/`. Each script ends with `set <flag> to 1` after the block under
//! test; the test records the first frame after which the flag is 1, i.e. the frame in which
//! the waiting thread went on.
//!
//! The rule (docs/stage.md, "Sound"): the green flag is given at frame 0 (t = 0); frame k runs
//! at t = k * 1000 / 30 ms. A sound started at t with duration d = sampleCount / rate / r
//! (r = 2^(pitch / 120)) ends at t + d, and the waiting thread goes on in the first frame k
//! with k * 1000 / 30 >= t + d. A `stop` emitted by a block (stop all sounds, a replay) and the
//! `Promise.resolve()` of set/change effect and volume let the thread go on in the next frame.

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::value::Value;
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::{Config, Input, Vm};

fn vm(name: &str, audio: AudioMode) -> Vm {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/scratch/sound")
        .join(name);
    let bytes = std::fs::read(p).expect("fixture");
    let img = compile(&load(&bytes).expect("load")).expect("compile");
    Vm::new(img, Config { audio, ..Config::default() }).expect("vm")
}

fn is_one(v: &Value) -> bool {
    matches!(v, Value::Str(s) if &**s == "1")
}

/// Run `frames` frames (green flag at frame 0) and return, for each (sprite, clone serial,
/// variable), the first frame after which it was 1 (None: never).
fn first_frames(vm: &mut Vm, frames: u64, watch: &[(&str, u32, &str)]) -> Vec<Option<u64>> {
    let mut out = vec![None; watch.len()];
    for f in 0..frames {
        let inputs = if f == 0 { vec![Input::GreenFlag] } else { vec![] };
        vm.step_frame(&inputs);
        let o = vm.observe();
        for (k, (sprite, clone, var)) in watch.iter().enumerate() {
            let Some(s) = o.sprites.iter().find(|s| &*s.name == *sprite && s.clone == *clone)
            else {
                continue;
            };
            let set = s.vars.iter().any(|(n, v)| &**n == *var && is_one(v));
            if set && out[k].is_none() {
                out[k] = Some(f);
            }
        }
    }
    out
}

#[test]
fn play_until_done_resumes_on_the_first_frame_at_or_after_the_end() {
    let watch = [
        ("S", 0, "fa"), // 48000 / 48000 = 1 s: 1000 ms is frame 30 exactly
        ("S", 0, "fb"), // 11025 / 22050 = 0.5 s: 500 ms is frame 15 exactly
        ("S", 0, "fc"), // 4410 / 44100 = 0.1 s: 100 ms is frame 3 exactly
        ("S", 0, "fd"), // 4851 / 44100 = 0.11 s: 110 ms, frame 3 is 100 ms, frame 4 133.3 ms
        // "6" is no name: parseInt 6, wrapped into 1..4 gives sound 2 ("b", 0.5 s)
        ("N", 0, "fn"),
        // pitch 60: rate 2^0.5, set-effect yields to frame 1 (33.3 ms); 33.3 + 707.1 =
        // 740.4 ms: frame 22 is 733.3, frame 23 is 766.7
        ("P", 0, "fp"),
        // pitch 1000 clamps to 360: rate 8, 33.3 + 125 = 158.3 ms: frame 5 (166.7)
        ("Q", 0, "fq"),
        // pitch 120 (rate 2) set at 500 ms while playing: 0.5 s left takes 0.25 s, ends at
        // 750 ms: frame 23 (766.7; frame 22 is 733.3)
        ("M", 0, "fm"),
    ];
    let got = first_frames(&mut vm("durations.json", AudioMode::Timed), 40, &watch);
    let want = [30, 15, 3, 4, 15, 23, 5, 23].map(Some);
    assert_eq!(got, want, "{watch:?}");
}

#[test]
fn without_an_audio_engine_nothing_waits() {
    // The reference harnesses: play until done goes on at once; only the effect blocks'
    // Promise.resolve() moves P and Q to frame 1.
    let watch = [
        ("S", 0, "fa"),
        ("S", 0, "fd"),
        ("N", 0, "fn"),
        ("P", 0, "fp"),
        ("Q", 0, "fq"),
        ("M", 0, "fm"),
    ];
    let got = first_frames(&mut vm("durations.json", AudioMode::None), 5, &watch);
    assert_eq!(got, [0, 0, 0, 1, 1, 0].map(Some));
}

#[test]
fn stop_all_sounds_releases_the_waiter_next_frame() {
    // wait 0.2 ends in frame 6 (200 ms), which stops all sounds (fs in frame 6); the 'stop'
    // resolves the waiter's promise after that step: ft in frame 7, not 30.
    let watch = [("T", 0, "ft"), ("T", 0, "fs")];
    let got = first_frames(&mut vm("stop_all.json", AudioMode::Timed), 40, &watch);
    assert_eq!(got, [Some(7), Some(6)]);
}

#[test]
fn the_stop_button_ends_sounds_and_kills_waiters() {
    let mut vm = vm("stop_all.json", AudioMode::Timed);
    vm.step_frame(&[Input::GreenFlag]);
    vm.step_frame(&[Input::StopAll]);
    for _ in 0..40 {
        vm.step_frame(&[]);
    }
    let o = vm.observe();
    assert_eq!(o.threads, 0);
    assert!(o.sprites[0].vars.iter().all(|(_, v)| !is_one(v)), "{:?}", o.sprites[0]);
}

#[test]
fn replaying_a_sound_restarts_it_and_releases_the_earlier_waiter() {
    let watch = [
        // R: replay at 500 ms (frame 15) stops the first playback: r1 goes on in frame 16;
        // the new playback ends at 1500 ms = frame 45.
        ("R", 0, "r1"),
        ("R", 0, "r2"),
        // R2: two plays in frame 0: the second is within scratch-audio's 25 ms start window,
        // so it emits 'stop' (s1 in frame 1) without restarting: s2 at the original end, 30.
        ("R2", 0, "s1"),
        ("R2", 0, "s2"),
        // R3: `play` (no wait) at 500 ms also restarts it: u1 in frame 16; u2 at once (15).
        ("R3", 0, "u1"),
        ("R3", 0, "u2"),
    ];
    let got = first_frames(&mut vm("replay.json", AudioMode::Timed), 50, &watch);
    assert_eq!(got, [16, 45, 1, 30, 16, 15].map(Some));
}

#[test]
fn a_clone_shares_the_sprite_players_and_copies_the_effects() {
    // Parent plays 1 s at 0. wait 0.3 ends in frame 9 (300 ms), set pan yields to frame 10,
    // which creates the clone; the clone sets pitch -60 (yields to frame 11, 366.7 ms) and
    // plays the same sound: the bank stops the parent's playback (p in frame 12). The clone's
    // 1 s at rate 2^-0.5 lasts 1414.2 ms: ends at 1780.9 ms, frame 54 (1800; 53 is 1766.7).
    let mut vm = vm("clones.json", AudioMode::Timed);
    let watch = [("C", 0, "p"), ("C", 1, "q")];
    let got = first_frames(&mut vm, 60, &watch);
    assert_eq!(got, [Some(12), Some(54)]);
    // Instance 2 is the clone (stage 0, sprite 1): pan copied from the parent.
    assert_eq!(vm.sound_effects(1), Some([0.0, 50.0]));
    assert_eq!(vm.sound_effects(2), Some([-60.0, 50.0]));
}

#[test]
fn effects_clamp_clear_and_reset_on_green_flag() {
    let mut vm = vm("effects.json", AudioMode::None);
    // frame 0: set pitch 1000 (clamped to 360), yield; frame 1: change pan by -250
    // (clamped to -100), yield
    vm.step_frame(&[Input::GreenFlag]);
    vm.step_frame(&[]);
    assert_eq!(vm.sound_effects(1), Some([360.0, -100.0]));
    // frame 2: e1 = 1, change pan by 30, yield
    vm.step_frame(&[]);
    assert_eq!(vm.sound_effects(1), Some([360.0, -70.0]));
    // frame 3: the unknown ECHO effect neither changes anything nor yields: e2 = 1, clear,
    // e3 = 1 in the same frame
    vm.step_frame(&[]);
    assert_eq!(vm.sound_effects(1), Some([0.0, 0.0]));
    let o = vm.observe();
    assert!(o.sprites[0].vars.iter().any(|(n, v)| &**n == "e3" && is_one(v)));
    // A second green flag clears the effects (PROJECT_STOP_ALL, PROJECT_START) before the
    // script sets pitch again: pan is 0 after that frame.
    let mut vm = vm_at_pitch_and_pan();
    vm.step_frame(&[Input::GreenFlag]);
    assert_eq!(vm.sound_effects(1), Some([360.0, 0.0]));
}

/// The effects fixture after frame 1: pitch 360, pan -100.
fn vm_at_pitch_and_pan() -> Vm {
    let mut v = vm("effects.json", AudioMode::Timed);
    v.step_frame(&[Input::GreenFlag]);
    v.step_frame(&[]);
    assert_eq!(v.sound_effects(1), Some([360.0, -100.0]));
    v
}

#[test]
fn change_volume_yields_until_the_next_frame() {
    // Promise.resolve() from _updateVolume: a loop changes the volume once per frame.
    let project = br#"{"targets":[
{"isStage":true,"name":"Stage","variables":{},"lists":{},"broadcasts":{},"blocks":{},"costumes":[{"name":"c","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}],"sounds":[]},
{"isStage":false,"name":"V","variables":{},"lists":{},"broadcasts":{},"blocks":{
"h":{"opcode":"event_whenflagclicked","next":"f","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
"f":{"opcode":"control_forever","next":null,"parent":"h","inputs":{"SUBSTACK":[2,"c"]},"fields":{},"shadow":false,"topLevel":false},
"c":{"opcode":"sound_changevolumeby","next":null,"parent":"f","inputs":{"VOLUME":[1,[4,"-7"]]},"fields":{},"shadow":false,"topLevel":false}
},"costumes":[{"name":"c","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}],"sounds":[]}
],"monitors":[],"extensions":[],"meta":{"semver":"3.0.0"}}"#;
    let img = compile(&load(project).expect("load")).expect("compile");
    let mut vm = Vm::new(img, Config::default()).expect("vm");
    vm.step_frame(&[Input::GreenFlag]);
    assert_eq!(vm.observe().sprites[0].volume, 93.0);
    vm.step_frame(&[]);
    vm.step_frame(&[]);
    assert_eq!(vm.observe().sprites[0].volume, 79.0);
    for _ in 0..20 {
        vm.step_frame(&[]);
    }
    assert_eq!(vm.observe().sprites[0].volume, 0.0, "clamped at 0");
}
