//! The stage and sprites of a Scratch 2 project (`parseScratchObject`,
//! `parseScratchAssets`): variables, lists, comments, scripts, costumes, sounds and
//! properties, the broadcast messages the stage collects, and the monitors among its
//! children. Also the stage checks of scratch-parser's Scratch 2 schema.

use alloc::string::String;
use alloc::vec::Vec;

use super::jsval::{self, num_json, to_number, truthy};
use super::script::{TargetCx, WORKSPACE_X_SCALE, WORKSPACE_Y_SCALE};
use super::{AssetFile, CommentBlock, Loader, MsgKey, VmComment, VmTarget};
use crate::scratch::project::error::{LoadError, Path};
use crate::scratch::project::json::{Json, Num};
use crate::scratch::value::case::to_lower;

/// The checks scratch-parser's `sb2_schema.json` makes (JSON Schema `properties` on arrays
/// check nothing, so costume, sound and variable records are not checked there).
pub(super) fn check_stage(root: &Json, path: &Path) -> Result<(), LoadError> {
    let Json::Object(_) = root else {
        return Err(path.type_err("an object", root));
    };
    let get = |k: &'static str| root.get(k);
    let need = |k: &'static str| get(k).ok_or_else(|| path.missing(k));
    let ty = |k: &'static str, ok: fn(&Json) -> bool, what: &'static str| match get(k) {
        Some(v) if !ok(v) => Err(path.key(k).type_err(what, v)),
        _ => Ok(()),
    };
    let is_str = |v: &Json| matches!(v, Json::String(_));
    let is_arr = |v: &Json| matches!(v, Json::Array(_));
    let is_num = |v: &Json| matches!(v, Json::Number(_));
    for k in ["objName", "costumes", "currentCostumeIndex", "penLayerMD5", "tempoBPM", "children"] {
        need(k)?;
    }
    ty("objName", is_str, "a string")?;
    for k in ["costumes", "children", "variables", "lists", "scripts", "sounds"] {
        ty(k, is_arr, "an array")?;
    }
    ty("penLayerMD5", |v| matches!(v, Json::String(_) | Json::Null), "a string or null")?;
    ty("tempoBPM", is_num, "a number")?;
    let range = |k: &'static str, lo: f64, hi: f64| match get(k) {
        Some(Json::Number(n)) if !(lo..=hi).contains(&n.as_f64()) => {
            Err(LoadError::OutOfRange { path: path.key(k).render(), value: n.as_f64() })
        }
        Some(
            v @ (Json::Null | Json::Bool(_) | Json::String(_) | Json::Array(_) | Json::Object(_)),
        ) => Err(path.key(k).type_err("a number", v)),
        _ => Ok(()),
    };
    range("currentCostumeIndex", 0.0, f64::INFINITY)?;
    range("penLayerID", -1.0, f64::INFINITY)?;
    range("videoAlpha", 0.0, 100.0)?;
    if let Some(Json::Array(children)) = get("children") {
        for (i, c) in children.iter().enumerate() {
            if !matches!(c, Json::Object(_)) {
                return Err(path.key("children").index(i).type_err("an object", c));
            }
        }
    }
    if let Some(info) = get("info") {
        let p = path.key("info");
        let Json::Object(_) = info else { return Err(p.type_err("an object", info)) };
        for k in ["flashVersion", "swfVersion", "userAgent"] {
            if let Some(v) = info.get(k).filter(|v| !is_str(v)) {
                return Err(p.key(k).type_err("a string", v));
            }
        }
        if let Some(v) = info.get("videoOn").filter(|v| !matches!(v, Json::Bool(_))) {
            return Err(p.key("videoOn").type_err("a boolean", v));
        }
        if let Some(v) = info.get("savedExtensions").filter(|v| !is_arr(v)) {
            return Err(p.key("savedExtensions").type_err("an array", v));
        }
    }
    Ok(())
}

fn number(v: &Json, path: &Path) -> Result<f64, LoadError> {
    match v {
        Json::Number(n) => Ok(n.as_f64()),
        other => Err(path.type_err("a number", other)),
    }
}

fn string<'j>(v: &'j Json, path: &Path) -> Result<&'j str, LoadError> {
    match v {
        Json::String(s) => Ok(s),
        other => Err(path.type_err("a string", other)),
    }
}

fn array<'j>(v: &'j Json, path: &Path) -> Result<&'j [Json], LoadError> {
    match v {
        Json::Array(items) => Ok(items),
        other => Err(path.type_err("an array", other)),
    }
}

/// `StringUtil.splitFirst(text, '.')`.
fn split_first(text: &str) -> (&str, Option<&str>) {
    match text.find('.') {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    }
}

/// The archive member a costume record reads: `<baseLayerID>.<extension of baseLayerMD5>`
/// (`png` when it has none); `None` when the record cannot name one.
pub(super) fn costume_file(c: &Json) -> Option<String> {
    let Some(Json::String(md5ext)) = c.get("baseLayerMD5") else { return None };
    let ext = match split_first(md5ext).1 {
        Some(e) if !e.is_empty() => e,
        _ => "png",
    };
    Some(alloc::format!("{}.{ext}", jsval::to_string(c.get("baseLayerID"))))
}

/// The member holding a costume's Scratch 1.4 text layer, `<textLayerID>.png`.
pub(super) fn text_layer_file(c: &Json) -> Option<String> {
    let id = c.get("textLayerID").filter(|v| truthy(Some(v)))?;
    Some(alloc::format!("{}.png", jsval::to_string(Some(id))))
}

/// The archive member a sound record reads: `<soundID>.<lower-cased extension of md5>`.
pub(super) fn sound_file(snd: &Json) -> Option<String> {
    let Some(Json::String(md5ext)) = snd.get("md5") else { return None };
    let ext = to_lower(split_first(md5ext).1?);
    Some(alloc::format!("{}.{ext}", jsval::to_string(snd.get("soundID"))))
}

impl Loader<'_> {
    /// The stage and everything under it, sprites in the order scratch-vm lists them, each
    /// with its layer.
    pub(super) fn stage(&mut self, root: &Json) -> Result<Vec<(VmTarget, usize)>, LoadError> {
        let targets = self.object(root, &Path::ROOT, true)?;
        // reorderParsedTargets: layer = parse order; list order = indexInLibrary.
        let mut numbered: Vec<(VmTarget, usize)> =
            targets.into_iter().enumerate().map(|(i, t)| (t, i)).collect();
        let keys: Vec<f64> =
            numbered.iter().map(|(t, _)| to_number(t.pane_order.as_ref())).collect();
        let mut order: Vec<usize> = (0..numbered.len()).collect();
        crate::scratch::value::sort::js_sort(&mut order, |&a, &b| keys[a] - keys[b]);
        let mut slots: Vec<Option<(VmTarget, usize)>> = numbered.drain(..).map(Some).collect();
        Ok(order.into_iter().filter_map(|i| slots[i].take()).collect())
    }

    /// `parseScratchObject` for a stage or sprite: the target, then the targets of its
    /// children (depth first), then its monitors.
    fn object(
        &mut self,
        obj: &Json,
        path: &Path,
        top_level: bool,
    ) -> Result<Vec<VmTarget>, LoadError> {
        let name_json = obj.get("objName").ok_or_else(|| path.missing("objName"))?;
        let mut name = String::from(string(name_json, &path.key("objName"))?);
        // A stage named otherwise is renamed, and the monitors that named it follow.
        let rename_from = (top_level && name != "Stage")
            .then(|| core::mem::replace(&mut name, String::from("Stage")));
        self.uid_calls += 1;
        let id = alloc::format!("t{}", self.next_id + 1);
        self.next_id += 1;
        if top_level {
            self.globals.clear();
            self.messages.clear();
        }
        let mut t = VmTarget {
            id,
            is_stage: top_level,
            name,
            variables: Vec::new(),
            lists: Vec::new(),
            broadcasts: Vec::new(),
            blocks: Vec::new(),
            comments: Vec::new(),
            current_costume: Json::Number(Num::Int(0)),
            costumes: Vec::new(),
            sounds: Vec::new(),
            props: Vec::new(),
            pane_order: None,
        };
        if let Some(vars) = obj.get("variables") {
            let p = path.key("variables");
            for (i, v) in array(vars, &p)?.iter().enumerate() {
                self.variable(&mut t, v, &p.index(i), top_level)?;
            }
        }
        if let Some(comments) = obj.get("scriptComments") {
            let p = path.key("scriptComments");
            for (i, c) in array(comments, &p)?.iter().enumerate() {
                let comment = self.comment(c, &p.index(i))?;
                t.comments.push(comment);
            }
        }
        if let Some(scripts) = obj.get("scripts") {
            let tid = t.id.clone();
            let mut cx =
                TargetCx { id: &tid, top_level, comments: Some(&mut t.comments), broadcasts: true };
            let mut created = Vec::new();
            self.scripts(&mut cx, scripts, &path.key("scripts"), &mut created)?;
            t.blocks = created;
        }
        // Comments still naming a block index had their block deleted: workspace comments.
        for c in &mut t.comments {
            if let CommentBlock::Index(_) = c.block {
                c.block = CommentBlock::None;
            }
        }
        // updateTargetSpecificBlocks: click hats follow the kind of target.
        for &b in &t.blocks {
            let op = &mut self.blocks[b].opcode;
            if top_level && op == "event_whenthisspriteclicked" {
                *op = String::from("event_whenstageclicked");
            } else if !top_level && op == "event_whenstageclicked" {
                *op = String::from("event_whenthisspriteclicked");
            }
        }
        if let Some(lists) = obj.get("lists") {
            let p = path.key("lists");
            for (i, l) in array(lists, &p)?.iter().enumerate() {
                self.list(&mut t, l, &p.index(i), top_level)?;
            }
        }
        self.assets_of(&mut t, obj, path, top_level)?;
        properties(&mut t, obj, path, top_level)?;
        let mut targets = alloc::vec![t];
        let mut monitors = Vec::new();
        if let Some(children) = obj.get("children") {
            let p = path.key("children");
            for (i, child) in array(children, &p)?.iter().enumerate() {
                let cp = p.index(i);
                if !matches!(child, Json::Object(_)) {
                    return Err(cp.type_err("an object", child));
                }
                if child.get("objName").is_some() {
                    let sub = self.object(child, &cp, false)?;
                    targets.extend(sub);
                } else {
                    monitors.push((child, i));
                }
            }
        }
        if top_level {
            self.finish_messages(&mut targets[0]);
        }
        let children_path = path.key("children");
        for (child, i) in monitors {
            let cp = children_path.index(i);
            self.monitor(child, &cp, &targets, rename_from.as_deref())?;
        }
        Ok(targets)
    }

    fn variable(
        &mut self,
        t: &mut VmTarget,
        v: &Json,
        path: &Path,
        top_level: bool,
    ) -> Result<(), LoadError> {
        let name = v.get("name").ok_or_else(|| path.missing("name"))?;
        let name = String::from(string(name, &path.key("name"))?);
        let value = v.get("value").cloned().unwrap_or(Json::Null);
        if matches!(value, Json::Array(_) | Json::Object(_)) {
            return Err(path.key("value").type_err("a number, string or boolean", &value));
        }
        let cloud = truthy(v.get("isPersistent")) && top_level && self.cloud < 10;
        if cloud {
            self.cloud += 1;
        }
        let id = self.var_id(&t.id.clone(), top_level, Some(&Json::String(name.clone())), false);
        let entry = (id, name, value, cloud);
        match t.variables.iter_mut().find(|e| e.0 == entry.0) {
            Some(slot) => *slot = entry,
            None => t.variables.push(entry),
        }
        Ok(())
    }

    fn list(
        &mut self,
        t: &mut VmTarget,
        l: &Json,
        path: &Path,
        top_level: bool,
    ) -> Result<(), LoadError> {
        let name = l.get("listName").ok_or_else(|| path.missing("listName"))?;
        let name = String::from(string(name, &path.key("listName"))?);
        let contents = l.get("contents").ok_or_else(|| path.missing("contents"))?;
        let items = array(contents, &path.key("contents"))?;
        for (i, item) in items.iter().enumerate() {
            if matches!(item, Json::Array(_) | Json::Object(_)) {
                return Err(path
                    .key("contents")
                    .index(i)
                    .type_err("a number, string or boolean", item));
            }
        }
        let id = self.var_id(&t.id.clone(), top_level, Some(&Json::String(name.clone())), true);
        let entry = (id, name, contents.clone());
        match t.lists.iter_mut().find(|e| e.0 == entry.0) {
            Some(slot) => *slot = entry,
            None => t.lists.push(entry),
        }
        Ok(())
    }

    /// `[x, y, width, height, fullSize, blockIndex, text]`.
    fn comment(&mut self, c: &Json, path: &Path) -> Result<VmComment, LoadError> {
        let parts = array(c, path)?;
        let num = |i: usize| -> Result<f64, LoadError> {
            match parts.get(i) {
                Some(v) => number(v, &path.index(i)),
                None => {
                    Err(path.invalid("a comment is [x, y, width, height, full size, block, text]"))
                }
            }
        };
        let (x, y, w, h, index) = (num(0)?, num(1)?, num(2)?, num(3)?, num(5)?);
        let text = match parts.get(6) {
            Some(t @ Json::String(_)) => t.clone(),
            None => Json::Null,
            Some(other) => return Err(path.index(6).type_err("a string", other)),
        };
        let block = index >= 0.0;
        self.uid_calls += 1;
        let id = self.new_id('c');
        // Comment sizes are at least 20 (`Comment.MIN_WIDTH`, `MIN_HEIGHT`).
        let size = |v: f64| num_json(if v.is_nan() { v } else { v.max(20.0) });
        Ok(VmComment {
            id,
            text,
            x: if block { Json::Null } else { num_json(x * WORKSPACE_X_SCALE) },
            y: if block { Json::Null } else { num_json(y * WORKSPACE_Y_SCALE) },
            width: size(w * WORKSPACE_X_SCALE),
            height: size(h * WORKSPACE_Y_SCALE),
            minimized: !truthy(parts.get(4)),
            block: if block { CommentBlock::Index(index) } else { CommentBlock::None },
        })
    }

    /// Costumes and sounds, with the archive files they are read from.
    fn assets_of(
        &mut self,
        t: &mut VmTarget,
        obj: &Json,
        path: &Path,
        top_level: bool,
    ) -> Result<(), LoadError> {
        if let Some(costumes) = obj.get("costumes") {
            let p = path.key("costumes");
            for (i, c) in array(costumes, &p)?.iter().enumerate() {
                let costume = self.costume(c, &p.index(i), top_level)?;
                t.costumes.push(costume);
            }
        }
        if let Some(sounds) = obj.get("sounds") {
            let p = path.key("sounds");
            for (i, s) in array(sounds, &p)?.iter().enumerate() {
                let sound = self.sound(s, &p.index(i))?;
                t.sounds.push(sound);
            }
        }
        Ok(())
    }

    fn costume(&mut self, c: &Json, path: &Path, stage: bool) -> Result<Json, LoadError> {
        let Json::Object(_) = c else { return Err(path.type_err("an object", c)) };
        let name = c.get("costumeName").ok_or_else(|| path.missing("costumeName"))?;
        let name = string(name, &path.key("costumeName"))?;
        let res = match c.get("bitmapResolution") {
            None => 1.0,
            Some(v) => number(v, &path.key("bitmapResolution"))?,
        };
        let res = if res == 0.0 || res.is_nan() { 1.0 } else { res };
        let center = |k: &'static str, stage_value: f64| -> Result<Option<Json>, LoadError> {
            if stage {
                return Ok(Some(num_json(stage_value * res)));
            }
            match c.get(k) {
                None => Ok(None),
                Some(v) => Ok(Some(num_json(number(v, &path.key(k))?))),
            }
        };
        let (cx, cy) = (center("rotationCenterX", 240.0)?, center("rotationCenterY", 180.0)?);
        let md5ext = c.get("baseLayerMD5").ok_or_else(|| path.missing("baseLayerMD5"))?;
        let md5ext = string(md5ext, &path.key("baseLayerMD5"))?;
        let (md5, ext) = split_first(md5ext);
        let (ext, md5ext) = match ext {
            Some(e) if !e.is_empty() => (String::from(e), String::from(md5ext)),
            _ => (String::from("png"), alloc::format!("{md5ext}.png")),
        };
        let format = to_lower(&ext);
        let file = costume_file(c).unwrap_or_default();
        // A Scratch 1.4 text layer whose file is missing stops scratch-vm reading the costume
        // from the archive.
        let text_layer_missing = match c.get("textLayerMD5") {
            Some(v) if truthy(Some(v)) => {
                string(v, &path.key("textLayerMD5"))?;
                text_layer_file(c).is_none_or(|f| !self.files.contains_key(&f))
            }
            _ => false,
        };
        let found = (!text_layer_missing).then(|| self.files.get(&file)).flatten();
        let (asset_id, md5ext) = match found {
            Some(bytes) => {
                let id = crate::md5::hex(bytes);
                let name = alloc::format!("{id}.{format}");
                self.assets.push(AssetFile { file, md5ext: name.clone() });
                (id, name)
            }
            None => (String::from(md5), md5ext),
        };
        // After loading, the data format is the lower-cased extension of the asset name.
        let data_format = to_lower(split_first(&md5ext).1.unwrap_or(""));
        let s = |v: &str| Json::String(String::from(v));
        let mut o = alloc::vec![
            (String::from("name"), s(name)),
            (String::from("bitmapResolution"), num_json(res)),
            (String::from("dataFormat"), s(&data_format)),
            (String::from("assetId"), s(&asset_id)),
            (String::from("md5ext"), s(&md5ext)),
        ];
        if let Some(x) = cx {
            o.push((String::from("rotationCenterX"), x));
        }
        if let Some(y) = cy {
            o.push((String::from("rotationCenterY"), y));
        }
        Ok(Json::Object(o))
    }

    fn sound(&mut self, snd: &Json, path: &Path) -> Result<Json, LoadError> {
        let Json::Object(_) = snd else { return Err(path.type_err("an object", snd)) };
        let name = snd.get("soundName").ok_or_else(|| path.missing("soundName"))?;
        let name = string(name, &path.key("soundName"))?;
        let md5ext = snd.get("md5").ok_or_else(|| path.missing("md5"))?;
        let md5ext = string(md5ext, &path.key("md5"))?;
        let (md5, Some(ext)) = split_first(md5ext) else {
            return Err(path
                .key("md5")
                .invalid("a sound's md5 needs an extension (scratch-vm fails)"));
        };
        let ext = to_lower(ext);
        let file = sound_file(snd).unwrap_or_default();
        let (asset_id, md5ext) = match self.files.get(&file) {
            Some(bytes) => {
                let id = crate::md5::hex(bytes);
                let format = if ext == "mp3" { "mp3" } else { "wav" };
                let name = alloc::format!("{id}.{format}");
                self.assets.push(AssetFile { file, md5ext: name.clone() });
                (id, name)
            }
            None => (String::from(md5), String::from(md5ext)),
        };
        let data_format = to_lower(split_first(&md5ext).1.unwrap_or(""));
        let s = |v: &str| Json::String(String::from(v));
        let mut o = alloc::vec![
            (String::from("name"), s(name)),
            (String::from("assetId"), s(&asset_id)),
            (String::from("dataFormat"), s(&data_format)),
        ];
        if let Some(f) = snd.get("format") {
            o.push((String::from("format"), f.clone()));
        }
        for k in ["rate", "sampleCount"] {
            if let Some(v) = snd.get(k) {
                let n = number(v, &path.key(k))?;
                o.push((String::from(k), num_json(n)));
            }
        }
        o.push((String::from("md5ext"), s(&md5ext)));
        Ok(Json::Object(o))
    }

    /// After every target is read: the empty message name becomes a fresh `messageN`, and
    /// the messages become the stage's broadcasts (array-index names first, as JavaScript
    /// lists object keys).
    fn finish_messages(&mut self, stage: &mut VmTarget) {
        if let Some(pos) = self.messages.iter().position(|(k, _)| *k == MsgKey::Empty) {
            let mut n = 1u64;
            let taken = |n: u64, msgs: &[(MsgKey, String)]| {
                let name = alloc::format!("message{n}");
                msgs.iter().any(|(k, _)| *k == MsgKey::Name(name.clone()))
            };
            while taken(n, &self.messages) {
                n += 1;
            }
            let name = alloc::format!("message{n}");
            let (_, id) = self.messages.remove(pos);
            self.messages.push((MsgKey::Name(name.clone()), id));
            for &(b, f) in &self.broadcast_fields {
                let field = &mut self.blocks[b].fields[f];
                if matches!(&field.value, Some(Json::String(v)) if v.is_empty()) {
                    field.value = Some(Json::String(name.clone()));
                }
            }
        }
        let mut names: Vec<(Option<u32>, usize, String, String)> = self
            .messages
            .iter()
            .enumerate()
            .filter_map(|(i, (k, id))| match k {
                MsgKey::Name(n) => Some((jsval::array_index(n), i, n.clone(), id.clone())),
                MsgKey::Empty => None,
            })
            .collect();
        names.sort_by_key(|(index, i, _, _)| (index.is_none(), index.unwrap_or(0), *i));
        for (_, _, name, id) in names {
            match stage.broadcasts.iter_mut().find(|(bid, _)| *bid == id) {
                Some(slot) => slot.1 = name,
                None => stage.broadcasts.push((id, name)),
            }
        }
    }
}

/// Stage and sprite properties, in the order the Scratch 3 serializer writes them.
fn properties(t: &mut VmTarget, obj: &Json, path: &Path, stage: bool) -> Result<(), LoadError> {
    let num = |k: &'static str| -> Result<Option<f64>, LoadError> {
        obj.get(k).map(|v| number(v, &path.key(k))).transpose()
    };
    let boolean = |k: &'static str| -> Result<Option<bool>, LoadError> {
        match obj.get(k) {
            None => Ok(None),
            Some(Json::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(path.key(k).type_err("a boolean", v)),
        }
    };
    if let Some(index) = num("currentCostumeIndex")? {
        let count = match obj.get("costumes") {
            Some(Json::Array(c)) => c.len() as f64,
            _ => return Err(path.missing("costumes")),
        };
        // MathUtil.clamp(Math.floor(index), 0, count - 1); no costume at all gives 0 here
        // (scratch-vm would store -1, which no Scratch 3 file can hold).
        let i = libm::floor(index).max(0.0).min(count - 1.0).max(0.0);
        t.current_costume = num_json(i);
    }
    t.pane_order = obj.get("indexInLibrary").cloned();
    t.props.push(("volume", Json::Number(Num::Int(100))));
    if stage {
        let tempo = num("tempoBPM")?.unwrap_or(60.0);
        let transparency = num("videoAlpha")?.map_or(50.0, |a| 100.0 - 100.0 * a);
        let video = match obj.get("info").and_then(|i| i.get("videoOn")) {
            Some(Json::Bool(false)) => "off",
            _ => "on",
        };
        t.props.push(("tempo", num_json(tempo)));
        t.props.push(("videoTransparency", num_json(transparency)));
        t.props.push(("videoState", Json::String(String::from(video))));
        t.props.push(("textToSpeechLanguage", Json::Null));
        return Ok(());
    }
    let x = num("scratchX")?.unwrap_or(0.0);
    let y = num("scratchY")?.unwrap_or(0.0);
    // Sometimes outside -179..180: wrapped like RenderedTarget.setDirection.
    let direction =
        num("direction")?.map_or(90.0, |d| d - libm::floor((d + 179.0) / 360.0) * 360.0);
    let size = num("scale")?.map_or(100.0, |s| s * 100.0);
    let style = match obj.get("rotationStyle") {
        Some(Json::String(s)) if s == "none" => "don't rotate",
        Some(Json::String(s)) if s == "leftRight" => "left-right",
        _ => "all around",
    };
    t.props.push(("visible", Json::Bool(boolean("visible")?.unwrap_or(true))));
    t.props.push(("x", num_json(x)));
    t.props.push(("y", num_json(y)));
    t.props.push(("size", num_json(size)));
    t.props.push(("direction", num_json(direction)));
    t.props.push(("draggable", Json::Bool(boolean("isDraggable")?.unwrap_or(false))));
    t.props.push(("rotationStyle", Json::String(String::from(style))));
    Ok(())
}
