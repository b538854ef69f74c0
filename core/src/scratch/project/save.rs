//! The `project.json` writer: [`Project`] → compact JSON bytes that [`super::load`] reads back
//! into an equal model. Known keys come first in a fixed order, then the `extra` keys in the
//! order they were loaded; saving a loaded-then-saved project again is byte-identical.

use alloc::string::String;
use alloc::vec::Vec;

use super::blocks::{Block, BlockForm, Blocks, Input, InputValue, Primitive};
use super::json::{Json, Num};
use super::model::{
    Comment, Costume, Extra, List, Meta, Monitor, Project, Sound, Target, Variable,
};
use super::read::literal_to_json;

/// Writes a project as compact `project.json` bytes.
pub fn save(project: &Project) -> Vec<u8> {
    project_json(project).to_bytes()
}

/// The project as a [`Json`] tree.
pub fn project_json(project: &Project) -> Json {
    let mut o = Obj::default();
    o.put("targets", Json::Array(project.targets.iter().map(target).collect()));
    o.put("monitors", Json::Array(project.monitors.iter().map(monitor).collect()));
    let extensions = project.extensions.iter().cloned().map(Json::String).collect();
    o.put("extensions", Json::Array(extensions));
    if let Some(m) = &project.meta {
        o.put("meta", meta(m));
    }
    o.finish(&project.extra)
}

/// An object under construction.
#[derive(Default)]
struct Obj(Vec<(String, Json)>);

impl Obj {
    fn put(&mut self, key: &str, value: Json) {
        self.0.push((String::from(key), value));
    }

    fn opt<T>(&mut self, key: &str, value: &Option<T>, f: impl FnOnce(&T) -> Json) {
        if let Some(v) = value {
            self.put(key, f(v));
        }
    }

    fn finish(mut self, extra: &Extra) -> Json {
        self.0.extend(extra.iter().cloned());
        Json::Object(self.0)
    }
}

fn s(text: &str) -> Json {
    Json::String(String::from(text))
}

fn n(num: &Num) -> Json {
    Json::Number(*num)
}

fn opt_s(text: &Option<String>) -> Json {
    text.as_deref().map_or(Json::Null, s)
}

fn meta(m: &Meta) -> Json {
    let mut o = Obj::default();
    o.opt("semver", &m.semver, |v| s(v));
    o.opt("vm", &m.vm, |v| s(v));
    o.opt("agent", &m.agent, |v| s(v));
    o.finish(&m.extra)
}

fn target(t: &Target) -> Json {
    let mut o = Obj::default();
    o.put("isStage", Json::Bool(t.is_stage));
    o.put("name", s(&t.name));
    o.put("variables", Json::Object(t.variables.iter().map(variable).collect()));
    o.put("lists", Json::Object(t.lists.iter().map(list).collect()));
    let broadcasts = t.broadcasts.iter().map(|b| (b.id.clone(), s(&b.name)));
    o.put("broadcasts", Json::Object(broadcasts.collect()));
    o.put("blocks", blocks(&t.blocks));
    o.put("comments", Json::Object(t.comments.iter().map(comment).collect()));
    o.opt("currentCostume", &t.current_costume, n);
    o.put("costumes", Json::Array(t.costumes.iter().map(costume).collect()));
    o.put("sounds", Json::Array(t.sounds.iter().map(sound).collect()));
    o.opt("layerOrder", &t.layer_order, n);
    o.opt("volume", &t.volume, n);
    o.opt("tempo", &t.tempo, n);
    o.opt("videoState", &t.video_state, Json::clone);
    o.opt("videoTransparency", &t.video_transparency, n);
    o.opt("textToSpeechLanguage", &t.text_to_speech_language, Json::clone);
    o.opt("visible", &t.visible, |b| Json::Bool(*b));
    o.opt("x", &t.x, n);
    o.opt("y", &t.y, n);
    o.opt("size", &t.size, n);
    o.opt("direction", &t.direction, n);
    o.opt("draggable", &t.draggable, |b| Json::Bool(*b));
    o.opt("rotationStyle", &t.rotation_style, |v| s(v));
    o.finish(&t.extra)
}

fn variable(v: &Variable) -> (String, Json) {
    let mut items = Vec::from([s(&v.name), literal_to_json(&v.value)]);
    if let Some(cloud) = v.is_cloud {
        items.push(Json::Bool(cloud));
    }
    (v.id.clone(), Json::Array(items))
}

fn list(l: &List) -> (String, Json) {
    let items = Json::Array(l.items.iter().map(literal_to_json).collect());
    (l.id.clone(), Json::Array(Vec::from([s(&l.name), items])))
}

fn comment(c: &Comment) -> (String, Json) {
    let mut o = Obj::default();
    o.put("blockId", opt_s(&c.block_id));
    o.put("text", s(&c.text));
    (c.id.clone(), o.finish(&c.extra))
}

fn costume(c: &Costume) -> Json {
    let mut o = Obj::default();
    o.put("name", s(&c.name));
    o.opt("bitmapResolution", &c.bitmap_resolution, n);
    o.opt("dataFormat", &c.data_format, |v| s(v));
    o.opt("assetId", &c.asset_id, |v| s(v));
    o.opt("md5ext", &c.md5ext, |v| s(v));
    o.opt("rotationCenterX", &c.rotation_center_x, n);
    o.opt("rotationCenterY", &c.rotation_center_y, n);
    o.finish(&c.extra)
}

fn sound(snd: &Sound) -> Json {
    let mut o = Obj::default();
    o.put("name", s(&snd.name));
    o.opt("assetId", &snd.asset_id, |v| s(v));
    o.opt("dataFormat", &snd.data_format, |v| s(v));
    o.opt("rate", &snd.rate, n);
    o.opt("sampleCount", &snd.sample_count, n);
    o.opt("md5ext", &snd.md5ext, |v| s(v));
    o.finish(&snd.extra)
}

pub(crate) fn monitor(m: &Monitor) -> Json {
    let mut o = Obj::default();
    o.put("id", s(&m.id));
    o.opt("mode", &m.mode, |v| s(v));
    o.put("opcode", s(&m.opcode));
    o.put("params", Json::Object(m.params.clone()));
    o.put("spriteName", opt_s(&m.sprite_name));
    o.opt("visible", &m.visible, |b| Json::Bool(*b));
    o.finish(&m.extra)
}

pub(crate) fn blocks(blocks: &Blocks) -> Json {
    let pairs = blocks.as_slice().iter().map(|b| (b.id.clone(), block(blocks, b)));
    Json::Object(pairs.collect())
}

fn block_id(blocks: &Blocks, idx: Option<super::blocks::BlockIdx>) -> Json {
    match idx.and_then(|i| blocks.get(i)) {
        Some(b) => s(&b.id),
        None => Json::Null,
    }
}

fn block(blocks: &Blocks, b: &Block) -> Json {
    if let BlockForm::Primitive(kind) = b.form {
        return top_level_primitive(kind, b);
    }
    let mut o = Obj::default();
    o.put("opcode", s(&b.opcode));
    o.put("next", block_id(blocks, b.next));
    o.put("parent", block_id(blocks, b.parent));
    let inputs = b.inputs.iter().map(|i| (i.name.clone(), input(blocks, i)));
    o.put("inputs", Json::Object(inputs.collect()));
    let fields = b.fields.iter().map(|f| {
        let mut items = Vec::from([literal_to_json(&f.value)]);
        if f.has_id_slot || f.id.is_some() {
            items.push(opt_s(&f.id));
        }
        (f.name.clone(), Json::Array(items))
    });
    o.put("fields", Json::Object(fields.collect()));
    o.put("shadow", Json::Bool(b.shadow));
    o.put("topLevel", Json::Bool(b.top_level));
    o.opt("x", &b.x, n);
    o.opt("y", &b.y, n);
    o.opt("comment", &b.comment, |v| s(v));
    o.opt("mutation", &b.mutation, |m| Json::Object(m.raw.clone()));
    o.finish(&b.extra)
}

/// Writes an expanded top-level primitive back in its compressed array form.
fn top_level_primitive(kind: super::blocks::PrimitiveKind, b: &Block) -> Json {
    let code = Json::Number(Num::Int(kind.code()));
    let field = b.fields.first();
    let value = field.map_or(Json::Null, |f| literal_to_json(&f.value));
    if !kind.is_reference() {
        return Json::Array(Vec::from([code, value]));
    }
    let id = field.map_or(Json::Null, |f| opt_s(&f.id));
    let mut items = Vec::from([code, value, id]);
    if let (Some(x), Some(y)) = (b.x, b.y) {
        items.push(Json::Number(x));
        items.push(Json::Number(y));
    }
    Json::Array(items)
}

fn input(blocks: &Blocks, i: &Input) -> Json {
    let mut items =
        Vec::from([Json::Number(Num::Int(i.kind as i64)), input_value(blocks, &i.value)]);
    if i.shadow.is_some() || i.kind == super::blocks::InputKind::Obscured {
        items.push(input_value(blocks, &i.shadow));
    }
    Json::Array(items)
}

fn input_value(blocks: &Blocks, v: &Option<InputValue>) -> Json {
    match v {
        None => Json::Null,
        Some(InputValue::Block(idx)) => block_id(blocks, Some(*idx)),
        Some(InputValue::Primitive(p)) => primitive(p),
    }
}

fn primitive(p: &Primitive) -> Json {
    let code = Json::Number(Num::Int(p.kind().code()));
    match p {
        Primitive::Literal { value, .. } => Json::Array(Vec::from([code, literal_to_json(value)])),
        Primitive::Reference { name, id, .. } => Json::Array(Vec::from([code, s(name), s(id)])),
    }
}
