//! Scratch 2 projects: a `.sb2` `project.json` converted into the one project model
//! ([`Project`]) the way scratch-vm 5.0.300's `serialization/sb2.js` deserializes it, so the
//! result runs like the reference and saves as Scratch 3 ([`super::save`]).
//!
//! What the conversion reproduces: the opcode table with its argument maps (`specmap.rs`);
//! the shadow blocks made for inputs (Scratch 2 defaults when a reporter covers them, colours
//! as `#rrggbb`); variable ids `<target>-<name>-<type>` and scratch-vm's rule that a sprite
//! variable named like a global one takes the global's id; broadcast messages (lower-cased,
//! the empty name becoming `messageN`); custom block definitions and calls (argument ids
//! `input0`...); block comments; costumes (`baseLayerMD5`, the stage's centre at 240, 180 times
//! the bitmap resolution, asset ids from the md5 of the archive's `<baseLayerID>.<ext>` file),
//! sounds (`<soundID>.<ext>`); stage and sprite properties; monitors (with scratch-vm's ids);
//! layer order (the order of `children`) and the sprite list order (`indexInLibrary`, sorted
//! with V8's own `Array.prototype.sort`, [`crate::scratch::value::sort`]); and how many ids
//! (`uid()`) scratch-vm draws while loading, which the reference traces report.
//!
//! Where scratch-vm reads a property the Scratch 2 editor always writes with one JSON type
//! (positions, sizes, names, costume and sound records), another type is refused with a
//! [`LoadError`] naming the place; inside scripts, values keep JavaScript's coercions. Input
//! that makes scratch-vm throw (for example a selector such as `constructor`, or a monitor of a
//! sprite that does not exist) is refused too.
//!
//! Not reproduced: merging Scratch 1.4 text layers into their costume (the base layer is used),
//! and the Scratch 2 SVG fix-ups scratch-svg-renderer applies when a renderer is attached
//! (costume files are passed on unchanged). Reading the `.sb2` archive is `gobo-host`'s job.

mod emit;
mod jsval;
mod monitors;
mod object;
mod script;
mod specmap;

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::{LoadError, Path};
use super::json::Json;
use super::load::load_json;
use super::model::{Project, SourceFormat};

/// A converted Scratch 2 project.
#[derive(Debug, Clone, PartialEq)]
pub struct Sb2Project {
    /// The project in the Scratch 3 model.
    pub project: Project,
    /// Which archive file each costume or sound asset of the model was read from.
    pub assets: Vec<AssetFile>,
}

/// An asset of a converted project: the archive member it comes from and the name (`md5ext`)
/// the converted project gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetFile {
    /// The member name in the `.sb2` archive, e.g. `"3.png"`.
    pub file: String,
    /// The asset's name in the converted project, `<md5 of the bytes>.<format>`.
    pub md5ext: String,
}

/// Whether a parsed `project.json` is a Scratch 2 project: it passes the stage checks of
/// scratch-parser's Scratch 2 schema (an object with `objName`, `costumes`,
/// `currentCostumeIndex`, `penLayerMD5`, `tempoBPM` and `children` of the right types).
/// scratch-vm tries this before the Scratch 3 schema.
pub fn is_sb2(root: &Json) -> bool {
    object::check_stage(root, &Path::ROOT).is_ok()
}

/// The archive members a Scratch 2 project reads: each costume's `<baseLayerID>.<ext>` (and
/// Scratch 1.4 text layer `<textLayerID>.png`) and each sound's `<soundID>.<ext>`, in file order
/// without duplicates. Hosts use it to pick the files of an unpacked project folder.
pub fn member_names(root: &Json) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut objects = alloc::vec![root];
    while let Some(obj) = objects.pop() {
        let list = |k: &str| match obj.get(k) {
            Some(Json::Array(items)) => items.as_slice(),
            _ => &[],
        };
        let mut found: Vec<String> = Vec::new();
        for c in list("costumes") {
            found.extend(object::costume_file(c));
            found.extend(object::text_layer_file(c));
        }
        found.extend(list("sounds").iter().filter_map(object::sound_file));
        for n in found {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        objects.extend(list("children").iter().rev().filter(|c| c.get("objName").is_some()));
    }
    names
}

/// Converts a Scratch 2 `project.json` (bytes) into the project model. `files` holds the
/// other members of the `.sb2` archive by name (empty for a bare `project.json`); they only
/// decide the converted asset ids.
pub fn load_sb2(json: &[u8], files: &BTreeMap<String, Vec<u8>>) -> Result<Sb2Project, LoadError> {
    let text = super::json::strip_backspace_escapes(json);
    let root = Json::parse(&text).map_err(|e| LoadError::from_json(&e))?;
    load_sb2_json(&root, files)
}

/// [`load_sb2`] from an already parsed document.
pub fn load_sb2_json(
    root: &Json,
    files: &BTreeMap<String, Vec<u8>>,
) -> Result<Sb2Project, LoadError> {
    object::check_stage(root, &Path::ROOT)?;
    // The module-load `uid()` of sb2.js (the empty broadcast name), counted like the Scratch 3
    // loader counts it.
    let mut loader = Loader {
        files,
        blocks: Vec::new(),
        uid_calls: 1,
        next_id: 0,
        extensions: Vec::new(),
        messages: Vec::new(),
        broadcast_fields: Vec::new(),
        globals: BTreeMap::new(),
        assets: Vec::new(),
        monitors: Vec::new(),
        cloud: 0,
    };
    let targets = loader.stage(root)?;
    let (json, assets) = emit::project(&mut loader, targets);
    let mut project = load_json(json)?;
    project.source = SourceFormat::Sb2 { load_uid_calls: loader.uid_calls };
    Ok(Sb2Project { project, assets })
}

/// The parent of a block as scratch-vm stores it (`undefined` for a procedure prototype).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parent {
    Undefined,
    Null,
    Block(usize),
}

/// A block as the loader builds it, before it is written as Scratch 3 JSON. Block references
/// are indices into [`Loader::blocks`].
#[derive(Debug, Clone)]
struct VmBlock {
    id: String,
    opcode: String,
    inputs: Vec<VmInput>,
    fields: Vec<VmField>,
    next: Option<usize>,
    parent: Parent,
    shadow: bool,
    top_level: bool,
    /// Workspace position of a script's first block.
    xy: Option<(f64, f64)>,
    mutation: Option<Json>,
    /// Index of the attached comment in the target's comments.
    comment: Option<usize>,
    /// Blocks created along with this one (inputs, shadows, the prototype), in order.
    children: Vec<usize>,
}

#[derive(Debug, Clone)]
struct VmInput {
    name: String,
    block: Option<usize>,
    shadow: Option<usize>,
}

#[derive(Debug, Clone)]
struct VmField {
    name: String,
    /// `None` is JavaScript `undefined` (an argument the file leaves out).
    value: Option<Json>,
    /// The variable, list or broadcast id.
    id: Option<String>,
}

impl VmBlock {
    fn new(id: String, opcode: &str) -> VmBlock {
        VmBlock {
            id,
            opcode: String::from(opcode),
            inputs: Vec::new(),
            fields: Vec::new(),
            next: None,
            parent: Parent::Null,
            shadow: false,
            top_level: false,
            xy: None,
            mutation: None,
            comment: None,
            children: Vec::new(),
        }
    }

    /// `block.fields[name] = ...`: replaces a field of that name in place, else appends.
    fn set_field(&mut self, field: VmField) -> usize {
        match self.fields.iter().position(|f| f.name == field.name) {
            Some(i) => {
                self.fields[i] = field;
                i
            }
            None => {
                self.fields.push(field);
                self.fields.len() - 1
            }
        }
    }

    /// `block.inputs[name] = {block: null, shadow: null}`.
    fn set_input(&mut self, name: &str) -> usize {
        let input = VmInput { name: String::from(name), block: None, shadow: None };
        match self.inputs.iter().position(|i| i.name == name) {
            Some(i) => {
                self.inputs[i] = input;
                i
            }
            None => {
                self.inputs.push(input);
                self.inputs.len() - 1
            }
        }
    }
}

/// A workspace comment of a target (`scriptComments`).
#[derive(Debug, Clone)]
struct VmComment {
    id: String,
    text: Json,
    x: Json,
    y: Json,
    width: Json,
    height: Json,
    minimized: bool,
    block: CommentBlock,
}

/// What a comment is attached to while scripts are being read.
#[derive(Debug, Clone, Copy, PartialEq)]
enum CommentBlock {
    None,
    /// The flattened block index the file gives (resolved when that block is made).
    Index(f64),
    Block(usize),
}

/// A converted target before it is written as Scratch 3 JSON.
#[derive(Debug, Clone)]
struct VmTarget {
    id: String,
    is_stage: bool,
    name: String,
    /// `(id, name, value, cloud)` in insertion order.
    variables: Vec<(String, String, Json, bool)>,
    /// `(id, name, items)`.
    lists: Vec<(String, String, Json)>,
    /// `(id, name)`, the stage only.
    broadcasts: Vec<(String, String)>,
    /// Blocks in the order scratch-vm created them.
    blocks: Vec<usize>,
    comments: Vec<VmComment>,
    current_costume: Json,
    costumes: Vec<Json>,
    sounds: Vec<Json>,
    /// Scratch 3 properties in the order the Scratch 3 serializer writes them.
    props: Vec<(&'static str, Json)>,
    /// `indexInLibrary` (`undefined` for the stage).
    pane_order: Option<Json>,
}

/// One key of the broadcast message map: a lower-cased name, or the empty name (which
/// scratch-vm keys by a random id until it is renamed `messageN`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum MsgKey {
    Empty,
    Name(String),
}

/// Conversion state shared by all targets.
#[derive(Debug)]
struct Loader<'f> {
    files: &'f BTreeMap<String, Vec<u8>>,
    blocks: Vec<VmBlock>,
    /// `uid()` calls made so far.
    uid_calls: u64,
    next_id: u64,
    /// Extension ids, in the order first used.
    extensions: Vec<String>,
    /// The global broadcast message map: `(key, id)` in insertion order.
    messages: Vec<(MsgKey, String)>,
    /// Every broadcast field made: `(block, field index)`.
    broadcast_fields: Vec<(usize, usize)>,
    /// Names the stage registered: `"<name>-<type>"` → variable id.
    globals: BTreeMap<String, String>,
    assets: Vec<AssetFile>,
    /// Monitor records, in the order scratch-vm adds them.
    monitors: Vec<monitors::VmMonitor>,
    /// Cloud variables made (scratch-vm allows 10).
    cloud: u32,
}

impl Loader<'_> {
    /// A fresh id for a block or comment (scratch-vm draws a random `uid()`; these are
    /// deterministic and never look like array indices).
    fn new_id(&mut self, prefix: char) -> String {
        self.next_id += 1;
        alloc::format!("{prefix}{}", self.next_id)
    }

    fn add_block(&mut self, b: VmBlock) -> usize {
        self.blocks.push(b);
        self.blocks.len() - 1
    }

    fn note_extension(&mut self, opcode: &str) {
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
        let prefix = opcode.find('_').map_or("", |i| &opcode[..i]);
        if !prefix.is_empty()
            && !CORE.contains(&prefix)
            && !self.extensions.iter().any(|e| e == prefix)
        {
            self.extensions.push(String::from(prefix));
        }
    }

    /// `getVariableId(name, type)` of scratch-vm's `generateVariableIdGetter(targetId,
    /// topLevel)`: the stage registers every name it asks for; a sprite reuses a registered
    /// global's id, else makes its own.
    fn var_id(&mut self, target: &str, top_level: bool, name: Option<&Json>, list: bool) -> String {
        let ty = if list { "list" } else { "" };
        let text = jsval::to_string(name);
        let key = alloc::format!("{text}-{ty}");
        let id = alloc::format!("{target}-{}-{ty}", jsval::replace_unsafe(&text));
        if top_level {
            self.globals.insert(key, id.clone());
            return id;
        }
        self.globals.get(&key).cloned().unwrap_or(id)
    }

    /// `broadcastMsgMapUpdater(name, field)`: registers a message (lower-cased) and returns its
    /// id. A name that is not a string makes scratch-vm throw (`toLowerCase`).
    fn message_id(&mut self, name: Option<&Json>, path: &Path) -> Result<String, LoadError> {
        let Some(Json::String(name)) = name else {
            return Err(path.invalid("a broadcast message name must be a string"));
        };
        let lower = crate::scratch::value::case::to_lower(name);
        if lower == "__proto__" {
            // Assigning it sets the map's prototype instead: scratch-vm ends with no message.
            return Err(path.invalid("a broadcast named __proto__ (scratch-vm mishandles it)"));
        }
        let (key, id) = if lower.is_empty() {
            (MsgKey::Empty, String::from("broadcastMsgId-"))
        } else {
            let id = alloc::format!("broadcastMsgId-{}", jsval::replace_unsafe(&lower));
            (MsgKey::Name(lower), id)
        };
        match self.messages.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = id.clone(),
            None => self.messages.push((key, id.clone())),
        }
        Ok(id)
    }
}
