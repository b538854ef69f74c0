//! The trace writer: one JSON line per frame in exactly the schema of the reference harness
//! (`docs/trace.md`): same keys in the same order, numbers formatted as JavaScript's
//! `JSON.stringify`, special numbers tagged `{"$n":"NaN"|"Infinity"|"-Infinity"|"-0"}` and
//! `undefined` as `{"$u":1}`.

use alloc::string::String;
use core::fmt::Write;

use super::image::ops::EFFECT_NAMES;
use super::value::number::JsNum;
use super::value::Value;
use super::vm::observe::Observation;
use super::vm::Vm;

/// Append a JSON string literal as `JSON.stringify` writes it.
pub fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Append a sprite coordinate: a number, or `{"$u":1}` when it is `undefined`.
fn push_coordinate(out: &mut String, n: f64, undefined: bool) {
    if undefined {
        out.push_str("{\"$u\":1}");
    } else {
        push_num(out, n);
    }
}

/// Append a number with the trace's tags for NaN, ±Infinity and -0.
pub fn push_num(out: &mut String, n: f64) {
    if n.is_nan() {
        out.push_str("{\"$n\":\"NaN\"}");
    } else if n == f64::INFINITY {
        out.push_str("{\"$n\":\"Infinity\"}");
    } else if n == f64::NEG_INFINITY {
        out.push_str("{\"$n\":\"-Infinity\"}");
    } else if n == 0.0 && n.is_sign_negative() {
        out.push_str("{\"$n\":\"-0\"}");
    } else {
        out.push_str(JsNum(n).as_str(&mut ryu_js::Buffer::new()));
    }
}

/// Append a value as the trace encodes it.
pub fn push_value(out: &mut String, v: &Value) {
    match v {
        Value::Num(n) => push_num(out, *n),
        Value::Str(s) => push_json_str(out, s),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Undefined => out.push_str("{\"$u\":1}"),
    }
}

fn push_effects(out: &mut String, e: &[f64; 7]) {
    out.push('{');
    for (k, name) in EFFECT_NAMES.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_json_str(out, name);
        out.push(':');
        push_num(out, e[k]);
    }
    out.push('}');
}

/// `{name: value}` with JavaScript object semantics: a repeated name keeps its first
/// position and its last value.
fn push_named<T>(out: &mut String, items: &[(alloc::rc::Rc<str>, T)], f: impl Fn(&mut String, &T)) {
    out.push('{');
    let mut first = true;
    for (k, (name, _)) in items.iter().enumerate() {
        if items[..k].iter().any(|(n, _)| n == name) {
            continue;
        }
        let last = items.iter().rev().find(|(n, _)| n == name).map_or(&items[k].1, |p| &p.1);
        if !first {
            out.push(',');
        }
        first = false;
        push_json_str(out, name);
        out.push(':');
        f(out, last);
    }
    out.push('}');
}

#[allow(clippy::ptr_arg)] // called through `push_named` with `&Vec<Value>` items
fn push_list(out: &mut String, l: &alloc::vec::Vec<Value>) {
    out.push('[');
    for (k, v) in l.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_value(out, v);
    }
    out.push(']');
}

/// One frame line (without the newline). `actions` lists the scenario actions of the frame.
pub fn frame_line(o: &Observation, actions: &[&str]) -> String {
    let mut s = String::with_capacity(512);
    let _ = write!(s, "{{\"f\":{},\"t\":", o.f);
    push_num(&mut s, o.t);
    s.push_str(",\"timer\":");
    push_num(&mut s, o.timer);
    let _ = write!(
        s,
        ",\"threads\":{},\"redraw\":{},\"clones\":{},\"broadcasts\":[",
        o.threads, o.redraw, o.clones
    );
    for (k, b) in o.events.broadcasts.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        push_json_str(&mut s, b);
    }
    s.push_str("],\"says\":[");
    for (k, e) in o.events.says.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"target\":");
        push_json_str(&mut s, &e.target);
        s.push_str(if e.think {
            ",\"type\":\"think\",\"text\":"
        } else {
            ",\"type\":\"say\",\"text\":"
        });
        push_value(&mut s, &e.text);
        s.push('}');
    }
    s.push_str("],\"questions\":[");
    for (k, q) in o.events.questions.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        match q {
            Some(q) => push_json_str(&mut s, q),
            None => s.push_str("null"),
        }
    }
    s.push_str("],\"answer\":");
    push_json_str(&mut s, &o.answer);
    let _ = write!(s, ",\"stage\":{{\"costume\":{},\"costumeName\":", o.stage.costume);
    match &o.stage.costume_name {
        Some(n) => push_json_str(&mut s, n),
        None => s.push_str("null"),
    }
    s.push_str(",\"effects\":");
    push_effects(&mut s, &o.stage.effects);
    s.push_str(",\"volume\":");
    push_num(&mut s, o.stage.volume);
    s.push_str(",\"tempo\":");
    push_num(&mut s, o.stage.tempo);
    s.push_str("},\"globals\":{\"vars\":");
    push_named(&mut s, &o.globals, push_value);
    s.push_str(",\"lists\":");
    push_named(&mut s, &o.global_lists, push_list);
    s.push_str("},\"sprites\":[");
    for (k, sp) in o.sprites.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"name\":");
        push_json_str(&mut s, &sp.name);
        let _ = write!(s, ",\"clone\":{},\"x\":", sp.clone);
        push_coordinate(&mut s, sp.x, sp.undefined[0]);
        s.push_str(",\"y\":");
        push_coordinate(&mut s, sp.y, sp.undefined[1]);
        s.push_str(",\"dir\":");
        push_num(&mut s, sp.dir);
        s.push_str(",\"size\":");
        push_num(&mut s, sp.size);
        let _ = write!(s, ",\"costume\":{},\"costumeName\":", sp.costume);
        match &sp.costume_name {
            Some(n) => push_json_str(&mut s, n),
            None => s.push_str("null"),
        }
        let _ = write!(s, ",\"visible\":{},\"layer\":{},\"rot\":", sp.visible, sp.layer);
        push_json_str(&mut s, sp.rot);
        let _ = write!(s, ",\"drag\":{},\"effects\":", sp.drag);
        push_effects(&mut s, &sp.effects);
        s.push_str(",\"volume\":");
        push_num(&mut s, sp.volume);
        s.push_str(",\"bubble\":");
        match &sp.bubble {
            Some(b) => {
                s.push_str(if b.think {
                    "{\"type\":\"think\",\"text\":"
                } else {
                    "{\"type\":\"say\",\"text\":"
                });
                push_json_str(&mut s, &b.text);
                s.push('}');
            }
            None => s.push_str("null"),
        }
        s.push_str(",\"vars\":");
        push_named(&mut s, &sp.vars, push_value);
        s.push_str(",\"lists\":");
        push_named(&mut s, &sp.lists, push_list);
        s.push('}');
    }
    s.push(']');
    if !actions.is_empty() {
        s.push_str(",\"actions\":[");
        for (k, a) in actions.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            push_json_str(&mut s, a);
        }
        s.push(']');
    }
    s.push('}');
    s
}

/// Run options echoed in the meta line.
#[derive(Clone, Debug)]
pub struct MetaInfo<'a> {
    /// Project path as given.
    pub project: &'a str,
    /// Frames requested: the most the run goes to. The end line says how many ran (fewer
    /// when `until_idle` stopped it or a budget halted it).
    pub frames: u64,
    /// Whether the run stops after two idle frames (`--until-idle`).
    pub until_idle: bool,
    /// Calendar epoch as given (ISO 8601).
    pub epoch: &'a str,
    /// MD5 (hex) of the project file as given (`project.json` or `.sb3` bytes), as the
    /// reference computes it; `None` writes `null`. [`crate::md5::hex`] computes it.
    pub md5: Option<&'a str>,
    /// Distinct costume and sound files a bare `project.json` names that were not found
    /// beside it (the reference's `missingAssets`; 0 for an `.sb3`).
    pub missing_assets: usize,
    /// Whether a bare `project.json` had all its assets (the reference then packs them into
    /// an `.sb3`: `packedFromJson`).
    pub packed_from_json: bool,
}

/// The first line: `{"meta":{...}}` with the reference's keys (gobo's values).
pub fn meta_line(vm: &Vm, m: &MetaInfo<'_>) -> String {
    let c = vm.config();
    let mut s =
        String::from("{\"meta\":{\"scratchVm\":\"5.0.300\",\"engine\":\"gobo\",\"project\":");
    push_json_str(&mut s, m.project);
    s.push_str(",\"md5\":");
    match m.md5 {
        Some(h) => push_json_str(&mut s, h),
        None => s.push_str("null"),
    }
    let _ = write!(
        s,
        ",\"frames\":{},\"seed\":{},\"fps\":{},\"renderer\":\"none\",\"ticksPerFrame\":{},\"warpChecks\":{},\"turbo\":{},\"audio\":\"{}\",\"drag\":\"{}\",\"untilIdle\":{},\"epoch\":",
        m.frames,
        c.seed,
        c.fps,
        c.ticks_per_frame,
        c.warp_checks,
        c.turbo,
        c.audio.name(),
        c.drag.name(),
        m.until_idle
    );
    push_json_str(&mut s, m.epoch);
    let _ = write!(
        s,
        ",\"stubUnknownSkins\":null,\"packedFromJson\":{},\"missingAssets\":{},\"targets\":[",
        m.packed_from_json, m.missing_assets
    );
    for (k, t) in vm.image().targets.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        push_json_str(&mut s, &t.name);
    }
    s.push_str("]}}");
    s
}

/// The last line: `{"end":{frames, blockRandomCalls, uidCalls}}`, plus `stop` (reason,
/// limit, frame, target) when a budget halted the run (`docs/trace.md`).
pub fn end_line(vm: &Vm) -> String {
    let mut s = alloc::format!(
        "{{\"end\":{{\"frames\":{},\"blockRandomCalls\":{},\"uidCalls\":{}",
        vm.frame(),
        vm.random_calls(),
        vm.uid_calls()
    );
    if let Some(stop) = vm.stopped() {
        let _ = write!(
            s,
            ",\"stop\":{{\"reason\":\"{}\",\"limit\":{},\"frame\":{},\"target\":",
            stop.reason.name(),
            stop.limit,
            stop.frame
        );
        match &stop.target {
            Some(t) => push_json_str(&mut s, t),
            None => s.push_str("null"),
        }
        s.push('}');
    }
    s.push_str("}}");
    s
}

/// Run `frames` frames of `sc` on `vm`, emitting one trace line per frame (no meta/end
/// lines). With `until_idle`, stop after two frames without threads once no event is pending;
/// stop when a budget halts the run ([`Vm::stopped`]).
pub fn run_frames(
    vm: &mut Vm,
    sc: &super::scenario::Scenario,
    frames: u64,
    until_idle: bool,
    emit: &mut dyn FnMut(&str),
) {
    let mut idle = 0u32;
    let mut inputs = alloc::vec::Vec::new();
    let mut names: alloc::vec::Vec<&str> = alloc::vec::Vec::new();
    for f in 0..frames {
        inputs.clear();
        names.clear();
        for (_, name, input) in sc.at(f) {
            inputs.push(input.clone());
            names.push(name);
        }
        vm.step_frame(&inputs);
        if vm.stopped().is_some() {
            // The frame in which a budget ran out is abandoned (no line), as the reference's is.
            break;
        }
        let o = vm.observe();
        emit(&frame_line(&o, &names));
        if until_idle {
            idle = if o.threads == 0 { idle + 1 } else { 0 };
            if idle >= 2 && !sc.pending_after(f) {
                break;
            }
        }
    }
}
