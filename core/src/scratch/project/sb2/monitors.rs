//! Scratch 2 watchers → monitor records (`parseMonitorObject`): the watched block is read like
//! any block, its id follows scratch-vm's monitor ids (the variable id, or
//! `<target>_xposition`-style ids of `runtime.monitorBlockInfo`), and records with the same id
//! merge as `runtime.requestAddMonitor` merges them.

use alloc::string::String;
use alloc::vec::Vec;

use super::jsval::{self, truthy};
use super::script::{Src, TargetCx};
use super::specmap;
use super::{Loader, VmTarget};
use crate::scratch::project::error::{LoadError, Path};
use crate::scratch::project::json::{Json, Num};

/// A monitor record as the Scratch 3 serializer writes it: `(key, value)` pairs, and the id.
#[derive(Debug, Clone)]
pub(super) struct VmMonitor {
    pub(super) id: String,
    pub(super) pairs: Vec<(String, Json)>,
}

impl Loader<'_> {
    /// One watcher among the stage's children (`targets` are the stage and its sprites in
    /// parse order; `renamed` is the stage's original name if it was not "Stage").
    pub(super) fn monitor(
        &mut self,
        child: &Json,
        path: &Path,
        targets: &[VmTarget],
        renamed: Option<&str>,
    ) -> Result<(), LoadError> {
        let list_name = child.get("listName");
        let (cmd, param, mode) = match list_name {
            Some(name) => (
                Json::String(String::from("contentsOfList:")),
                Some(name),
                Some(Json::String(String::from("list"))),
            ),
            None => (
                child.get("cmd").cloned().unwrap_or(Json::Null),
                child.get("param"),
                child.get("mode").cloned(),
            ),
        };
        // `specMap[cmd]`: unknown commands are skipped; inherited names make scratch-vm throw.
        let key = jsval::to_string(Some(&cmd));
        if specmap::is_object_builtin(&key) || key == "whenSensorGreaterThan" {
            return Err(path.key("cmd").invalid("a watcher command scratch-vm fails on"));
        }
        let Some(spec) = specmap::lookup(&key, false) else { return Ok(()) };
        let ext = spec.opcode.find('_').map_or("", |i| &spec.opcode[..i]);
        if ext == "videoSensing" {
            return Ok(());
        }
        const CORE: [&str; 11] = [
            "argument",
            "control",
            "data",
            "event",
            "looks",
            "math",
            "motion",
            "operator",
            "procedures",
            "sensing",
            "sound",
        ];
        let visible = child.get("visible");
        if !CORE.contains(&ext)
            && !ext.is_empty()
            && !self.extensions.iter().any(|e| e == ext)
            && !truthy(visible)
        {
            return Ok(());
        }
        // The target: named by `target` (the stage's old name means the stage), or for a list
        // watcher without one, the last target owning a list of that name.
        let mut target_name: Option<String> = match child.get("target") {
            Some(Json::String(n)) if renamed == Some(n.as_str()) => Some(String::from("Stage")),
            Some(Json::String(n)) => Some(n.clone()),
            Some(other) => return Err(path.key("target").type_err("a string", other)),
            None => None,
        };
        let mut target = None;
        if child.get("target").is_none() {
            for (i, t) in targets.iter().enumerate() {
                if t.lists
                    .iter()
                    .any(|l| list_name.is_some_and(|n| matches!(n, Json::String(s) if *s == l.1)))
                {
                    target = Some(i);
                    target_name = Some(t.name.clone());
                }
            }
        }
        let target = target.or_else(|| {
            target_name.as_ref().and_then(|n| targets.iter().position(|t| t.name == *n))
        });
        let Some(ti) = target else {
            return Err(
                path.invalid("a watcher of a target that does not exist (scratch-vm fails)")
            );
        };
        let t = &targets[ti];
        let tid = t.id.clone();
        let mut cx = TargetCx { id: &tid, top_level: false, comments: None, broadcasts: false };
        let mut index = 0.0;
        let src = Src::Monitor { cmd: &cmd, param };
        let Some(b) = self.block(&mut cx, src, path, &mut index, None)? else { return Ok(()) };
        let fields: Vec<(String, Json)> = {
            let block = &self.blocks[b];
            let mut f: Vec<(String, Json)> = Vec::new();
            let mut put = |name: &str, value: &Option<Json>| {
                let v = value.clone().unwrap_or(Json::Null);
                match f.iter_mut().find(|(k, _)| k == name) {
                    Some(slot) => slot.1 = v,
                    None => f.push((String::from(name), v)),
                }
            };
            for field in &block.fields {
                put(&field.name, &field.value);
            }
            for input in &block.inputs {
                if let Some(i) = input.block {
                    for field in &self.blocks[i].fields {
                        put(&field.name, &field.value);
                    }
                }
            }
            f
        };
        let opcode = self.blocks[b].opcode.clone();
        let id = match key.as_str() {
            "getVar:" => self.var_id(&tid, false, param, false),
            "contentsOfList:" => self.var_id(&tid, false, param, true),
            _ => monitor_id(&opcode, &tid, &fields).unwrap_or_else(|| opcode.clone()),
        };
        let s = |v: &str| Json::String(String::from(v));
        let mode = match mode {
            Some(Json::Number(Num::Int(1))) => s("default"),
            Some(Json::Number(Num::Int(2))) => s("large"),
            Some(Json::Number(Num::Int(3))) => s("slider"),
            Some(v) => v,
            None => s("default"),
        };
        let sprite =
            if t.is_stage { Json::Null } else { target_name.map_or(Json::Null, Json::String) };
        let copy = |k: &str| child.get(k).cloned();
        let mut pairs: Vec<(String, Option<Json>)> = alloc::vec![
            (String::from("id"), Some(s(&id))),
            (String::from("mode"), Some(mode.clone())),
            (String::from("opcode"), Some(s(&opcode))),
            (String::from("params"), Some(Json::Object(fields))),
            (String::from("spriteName"), Some(sprite)),
            (String::from("value"), Some(s(""))),
            (String::from("width"), copy("width")),
            (String::from("height"), copy("height")),
            (String::from("x"), copy("x")),
            (String::from("y"), copy("y")),
            (String::from("visible"), copy("visible")),
        ];
        if mode != s("list") {
            for k in ["sliderMin", "sliderMax", "isDiscrete"] {
                pairs.push((String::from(k), copy(k)));
            }
        }
        // A record with the same id updates the earlier one: values present replace.
        match self.monitors.iter_mut().find(|m| m.id == id) {
            Some(m) => {
                for (k, v) in pairs.into_iter() {
                    let Some(v) = v.filter(|v| !matches!(v, Json::Null)) else { continue };
                    match m.pairs.iter_mut().find(|(mk, _)| *mk == k) {
                        Some(slot) => slot.1 = v,
                        None => m.pairs.push((k, v)),
                    }
                }
            }
            None => {
                let pairs = pairs.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect();
                self.monitors.push(VmMonitor { id, pairs });
            }
        }
        Ok(())
    }
}

/// `runtime.monitorBlockInfo[opcode].getId(targetId, fields)` for the core blocks that have
/// one (extension monitors use the opcode).
fn monitor_id(opcode: &str, target: &str, fields: &[(String, Json)]) -> Option<String> {
    let with_args = |base: String| {
        let mut id = base;
        for (k, v) in fields {
            let text = jsval::to_string(Some(v));
            id.push('_');
            if k == "CURRENTMENU" {
                id.push_str(&crate::scratch::value::case::to_lower(&text));
            } else {
                id.push_str(&text);
            }
        }
        id
    };
    Some(match opcode {
        "motion_xposition" => alloc::format!("{target}_xposition"),
        "motion_yposition" => alloc::format!("{target}_yposition"),
        "motion_direction" => alloc::format!("{target}_direction"),
        "looks_size" => alloc::format!("{target}_size"),
        "looks_costumenumbername" => with_args(alloc::format!("{target}_costumenumbername")),
        "looks_backdropnumbername" => with_args(String::from("backdropnumbername")),
        "sound_volume" => alloc::format!("{target}_volume"),
        "sensing_answer" => String::from("answer"),
        "sensing_loudness" => String::from("loudness"),
        "sensing_timer" => String::from("timer"),
        "sensing_current" => with_args(String::from("current")),
        _ => return None,
    })
}
