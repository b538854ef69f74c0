//! The `project.json` loader: JSON bytes → [`Project`], checking types and shapes and naming
//! the JSON path of the first problem. Blocks are loaded by [`super::load_blocks`].

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::{LoadError, Path};
use super::json::{strip_backspace_escapes, Json};
use super::load_blocks::load_blocks;
use super::model::{
    Broadcast, Comment, Costume, Extra, List, Meta, Monitor, Project, Sound, Target, Variable,
};
use super::read::{array, boolean, literal, number, number_in, object, opt_string, string};
use super::refs::Report;
use super::sb2::{is_sb2, load_sb2_json, AssetFile};

/// Largest integer a JavaScript number holds exactly; bounds counts such as `sampleCount`.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// How [`load_with`] treats broken block references.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Instead of failing on a dangling, shared or cyclic block reference, drop the reference
    /// and record the problem in [`Project::warnings`]. scratch-vm loads such projects (a
    /// missing block ends its script or reads as an empty input), so real projects saved with
    /// such damage still run.
    pub repair_references: bool,
}

/// Loads a `project.json` (Scratch 3 format), strictly.
///
/// Opcodes are not validated. Fails with a [`LoadError`] naming the place of the first problem:
/// malformed JSON, a wrong type, a dangling, shared or cyclic block reference, an impossible
/// number, or a project without exactly one stage.
pub fn load(bytes: &[u8]) -> Result<Project, LoadError> {
    load_with(bytes, &LoadOptions::default())
}

/// Loads a `project.json` with options (e.g. repairing broken block references).
///
/// Like scratch-parser, escaped backspaces (`\b`, `\u0008`) are removed from the text first.
pub fn load_with(bytes: &[u8], options: &LoadOptions) -> Result<Project, LoadError> {
    let text = strip_backspace_escapes(bytes);
    let root = Json::parse(&text).map_err(|e| LoadError::from_json(&e))?;
    load_json_with(root, options)
}

/// Loads a Scratch 3 or a Scratch 2 `project.json`: like scratch-vm, a document that passes
/// the Scratch 2 checks ([`is_sb2`]) is converted ([`super::sb2`]), anything else is read as
/// Scratch 3. `files` holds the other members of the archive by name (they decide a Scratch 2
/// project's asset names, see [`AssetFile`]); for Scratch 3 the returned list is empty.
pub fn load_any(
    bytes: &[u8],
    files: &BTreeMap<String, Vec<u8>>,
    options: &LoadOptions,
) -> Result<(Project, Vec<AssetFile>), LoadError> {
    let text = strip_backspace_escapes(bytes);
    let root = Json::parse(&text).map_err(|e| LoadError::from_json(&e))?;
    if is_sb2(&root) || (root.get("objName").is_some() && root.get("targets").is_none()) {
        let converted = load_sb2_json(&root, files)?;
        return Ok((converted.project, converted.assets));
    }
    Ok((load_json_with(root, options)?, Vec::new()))
}

/// Loads a project from an already parsed [`Json`] tree, strictly.
pub fn load_json(root: Json) -> Result<Project, LoadError> {
    load_json_with(root, &LoadOptions::default())
}

/// Loads a project from an already parsed [`Json`] tree, with options.
pub fn load_json_with(root: Json, options: &LoadOptions) -> Result<Project, LoadError> {
    let mut report = Report { repair: options.repair_references, warnings: Vec::new() };
    let path = Path::ROOT;
    let mut targets = None;
    let mut monitors = Vec::new();
    let mut extensions = Vec::new();
    let mut meta = None;
    let mut extra = Extra::new();
    for (key, value) in object(root, &path)? {
        let p = path.key(&key);
        match key.as_str() {
            "targets" => {
                let mut list = Vec::new();
                for (i, t) in array(value, &p)?.into_iter().enumerate() {
                    list.push(load_target(t, &p.index(i), &mut report)?);
                }
                targets = Some(list);
            }
            "monitors" => {
                for (i, m) in array(value, &p)?.into_iter().enumerate() {
                    monitors.push(load_monitor(m, &p.index(i))?);
                }
            }
            "extensions" => {
                for (i, e) in array(value, &p)?.into_iter().enumerate() {
                    extensions.push(string(e, &p.index(i))?);
                }
            }
            "meta" => meta = Some(load_meta(value, &p)?),
            _ => extra.push((key, value)),
        }
    }
    let targets = targets.ok_or_else(|| path.missing("targets"))?;
    let stages = targets.iter().filter(|t| t.is_stage).count();
    if stages != 1 {
        return Err(path
            .key("targets")
            .invalid("a project needs exactly one target with isStage true"));
    }
    Ok(Project {
        targets,
        monitors,
        extensions,
        meta,
        extra,
        warnings: report.warnings,
        source: Default::default(),
    })
}

fn load_meta(node: Json, path: &Path) -> Result<Meta, LoadError> {
    let mut meta = Meta { semver: None, vm: None, agent: None, extra: Extra::new() };
    for (key, value) in object(node, path)? {
        let p = path.key(&key);
        match key.as_str() {
            "semver" => meta.semver = Some(string(value, &p)?),
            "vm" => meta.vm = Some(string(value, &p)?),
            "agent" => meta.agent = Some(string(value, &p)?),
            _ => meta.extra.push((key, value)),
        }
    }
    Ok(meta)
}

fn load_target(node: Json, path: &Path, report: &mut Report) -> Result<Target, LoadError> {
    let pairs = object(node, path)?;
    let mut t = Target {
        is_stage: false,
        name: String::new(),
        variables: Vec::new(),
        lists: Vec::new(),
        broadcasts: Vec::new(),
        blocks: Default::default(),
        comments: Vec::new(),
        current_costume: None,
        costumes: Vec::new(),
        sounds: Vec::new(),
        layer_order: None,
        volume: None,
        tempo: None,
        video_state: None,
        video_transparency: None,
        text_to_speech_language: None,
        visible: None,
        x: None,
        y: None,
        size: None,
        direction: None,
        draggable: None,
        rotation_style: None,
        extra: Extra::new(),
    };
    let mut name = None;
    let mut is_stage = None;
    let mut blocks = None;
    for (key, value) in pairs {
        let p = path.key(&key);
        match key.as_str() {
            "isStage" => is_stage = Some(boolean(value, &p)?),
            "name" => name = Some(string(value, &p)?),
            "variables" => t.variables = load_variables(value, &p)?,
            "lists" => t.lists = load_lists(value, &p)?,
            "broadcasts" => {
                for (id, v) in object(value, &p)? {
                    let name = string(v, &p.key(&id))?;
                    t.broadcasts.push(Broadcast { id, name });
                }
            }
            "blocks" => blocks = Some(value),
            "comments" => {
                for (id, v) in object(value, &p)? {
                    let c = load_comment(id, v, &p)?;
                    t.comments.push(c);
                }
            }
            "currentCostume" => t.current_costume = Some(number_in(value, &p, 0.0, MAX_SAFE)?),
            "costumes" => {
                for (i, c) in array(value, &p)?.into_iter().enumerate() {
                    t.costumes.push(load_costume(c, &p.index(i))?);
                }
            }
            "sounds" => {
                for (i, s) in array(value, &p)?.into_iter().enumerate() {
                    t.sounds.push(load_sound(s, &p.index(i))?);
                }
            }
            "layerOrder" => t.layer_order = Some(number_in(value, &p, 0.0, MAX_SAFE)?),
            "volume" => t.volume = Some(number(value, &p)?),
            "tempo" => t.tempo = Some(number(value, &p)?),
            "videoState" => t.video_state = Some(value),
            "videoTransparency" => t.video_transparency = Some(number(value, &p)?),
            "textToSpeechLanguage" => t.text_to_speech_language = Some(value),
            "visible" => t.visible = Some(boolean(value, &p)?),
            "x" => t.x = Some(number(value, &p)?),
            "y" => t.y = Some(number(value, &p)?),
            "size" => t.size = Some(number(value, &p)?),
            "direction" => t.direction = Some(number(value, &p)?),
            "draggable" => t.draggable = Some(boolean(value, &p)?),
            "rotationStyle" => t.rotation_style = Some(string(value, &p)?),
            _ => t.extra.push((key, value)),
        }
    }
    t.is_stage = is_stage.ok_or_else(|| path.missing("isStage"))?;
    t.name = name.ok_or_else(|| path.missing("name"))?;
    if let Some(blocks) = blocks {
        t.blocks = load_blocks(blocks, &path.key("blocks"), report)?;
    }
    Ok(t)
}

fn load_variables(node: Json, path: &Path) -> Result<Vec<Variable>, LoadError> {
    let mut out = Vec::new();
    for (id, v) in object(node, path)? {
        let p = path.key(&id);
        let mut items = array(v, &p)?.into_iter();
        let (Some(name), Some(value)) = (items.next(), items.next()) else {
            return Err(p.invalid("a variable is [name, value] or [name, value, isCloud]"));
        };
        let is_cloud = match items.next() {
            Some(c) => Some(boolean(c, &p.index(2))?),
            None => None,
        };
        if items.next().is_some() {
            return Err(p.invalid("a variable is [name, value] or [name, value, isCloud]"));
        }
        let name = string(name, &p.index(0))?;
        let value = literal(value, &p.index(1))?;
        out.push(Variable { id, name, value, is_cloud });
    }
    Ok(out)
}

fn load_lists(node: Json, path: &Path) -> Result<Vec<List>, LoadError> {
    let mut out = Vec::new();
    for (id, v) in object(node, path)? {
        let p = path.key(&id);
        let mut parts = array(v, &p)?.into_iter();
        let (Some(name), Some(items), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(p.invalid("a list is [name, [items...]]"));
        };
        let name = string(name, &p.index(0))?;
        let ip = p.index(1);
        let mut values = Vec::new();
        for (i, item) in array(items, &ip)?.into_iter().enumerate() {
            values.push(literal(item, &ip.index(i))?);
        }
        out.push(List { id, name, items: values });
    }
    Ok(out)
}

fn load_comment(id: String, node: Json, parent: &Path) -> Result<Comment, LoadError> {
    let path = parent.key(&id);
    let mut block_id = None;
    let mut text = String::new();
    let mut extra = Extra::new();
    for (key, value) in object(node, &path)? {
        let p = path.key(&key);
        match key.as_str() {
            "blockId" => block_id = opt_string(value, &p)?,
            "text" => text = string(value, &p)?,
            _ => extra.push((key, value)),
        }
    }
    Ok(Comment { id, block_id, text, extra })
}

fn load_costume(node: Json, path: &Path) -> Result<Costume, LoadError> {
    let mut c = Costume {
        name: String::new(),
        asset_id: None,
        md5ext: None,
        data_format: None,
        bitmap_resolution: None,
        rotation_center_x: None,
        rotation_center_y: None,
        extra: Extra::new(),
    };
    let mut name = None;
    for (key, value) in object(node, path)? {
        let p = path.key(&key);
        match key.as_str() {
            "name" => name = Some(string(value, &p)?),
            "assetId" => c.asset_id = Some(string(value, &p)?),
            "md5ext" => c.md5ext = Some(string(value, &p)?),
            "dataFormat" => c.data_format = Some(string(value, &p)?),
            "bitmapResolution" => {
                c.bitmap_resolution = Some(number_in(value, &p, f64::MIN_POSITIVE, 1024.0)?)
            }
            "rotationCenterX" => c.rotation_center_x = Some(number(value, &p)?),
            "rotationCenterY" => c.rotation_center_y = Some(number(value, &p)?),
            _ => c.extra.push((key, value)),
        }
    }
    c.name = name.ok_or_else(|| path.missing("name"))?;
    Ok(c)
}

fn load_sound(node: Json, path: &Path) -> Result<Sound, LoadError> {
    let mut s = Sound {
        name: String::new(),
        asset_id: None,
        md5ext: None,
        data_format: None,
        rate: None,
        sample_count: None,
        extra: Extra::new(),
    };
    let mut name = None;
    for (key, value) in object(node, path)? {
        let p = path.key(&key);
        match key.as_str() {
            "name" => name = Some(string(value, &p)?),
            "assetId" => s.asset_id = Some(string(value, &p)?),
            "md5ext" => s.md5ext = Some(string(value, &p)?),
            "dataFormat" => s.data_format = Some(string(value, &p)?),
            "rate" => s.rate = Some(number_in(value, &p, 0.0, MAX_SAFE)?),
            "sampleCount" => s.sample_count = Some(number_in(value, &p, 0.0, MAX_SAFE)?),
            _ => s.extra.push((key, value)),
        }
    }
    s.name = name.ok_or_else(|| path.missing("name"))?;
    Ok(s)
}

pub(crate) fn load_monitor(node: Json, path: &Path) -> Result<Monitor, LoadError> {
    let mut id = None;
    let mut opcode = None;
    let mut m = Monitor {
        id: String::new(),
        mode: None,
        opcode: String::new(),
        params: Vec::new(),
        sprite_name: None,
        visible: None,
        extra: Extra::new(),
    };
    for (key, value) in object(node, path)? {
        let p = path.key(&key);
        match key.as_str() {
            "id" => id = Some(string(value, &p)?),
            "mode" => m.mode = Some(string(value, &p)?),
            "opcode" => opcode = Some(string(value, &p)?),
            "params" => m.params = object(value, &p)?,
            "spriteName" => m.sprite_name = opt_string(value, &p)?,
            "visible" => m.visible = Some(boolean(value, &p)?),
            _ => m.extra.push((key, value)),
        }
    }
    m.id = id.ok_or_else(|| path.missing("id"))?;
    m.opcode = opcode.ok_or_else(|| path.missing("opcode"))?;
    Ok(m)
}
