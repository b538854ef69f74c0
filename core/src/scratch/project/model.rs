//! The Scratch 3 project model: targets, variables, lists, broadcasts, costumes, sounds,
//! comments, monitors and metadata, as loaded from `project.json`. Blocks live in
//! [`super::blocks`].
//!
//! Every struct keeps the keys the loader does not know in an `extra` list (file order), so
//! saving writes them back. Numbers keep their JSON form ([`Num`]); values that may be a number
//! or a string in Scratch keep which one they were ([`Literal`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::blocks::Blocks;
use super::error::LoadError;
use super::json::{Json, Num};

/// Keys of an object the loader does not interpret, in file order, saved back verbatim.
pub type Extra = Vec<(String, Json)>;

/// A scalar as written in the file: a variable value, list item, field value or primitive
/// value. `[4, "10"]` stays `Text("10")`, a variable value `0` stays `Number(Int(0))`.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A JSON number.
    Number(Num),
    /// A JSON string.
    Text(String),
    /// A JSON boolean.
    Bool(bool),
    /// JSON `null`.
    Null,
}

/// A whole `project.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Project {
    /// The stage and the sprites, in file order (the stage is normally first).
    pub targets: Vec<Target>,
    /// Variable and list monitors, in file order.
    pub monitors: Vec<Monitor>,
    /// Extension ids the project uses (e.g. `"pen"`), in file order.
    pub extensions: Vec<String>,
    /// The `meta` object, if present.
    pub meta: Option<Meta>,
    /// Unknown top-level keys.
    pub extra: Extra,
    /// Problems repaired while loading (only with
    /// [`LoadOptions::repair_references`](super::LoadOptions)); not saved.
    pub warnings: Vec<LoadError>,
    /// The file format the project was read from; not saved.
    pub source: SourceFormat,
}

/// The file format a [`Project`] was read from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SourceFormat {
    /// Scratch 3 `project.json`.
    #[default]
    Sb3,
    /// Scratch 2, converted by [`super::sb2`].
    Sb2 {
        /// How many ids (`uid()`) scratch-vm's Scratch 2 loader draws for this project, from
        /// process start to the end of loading (see [`Project::load_uid_calls`]).
        load_uid_calls: u64,
    },
}

impl Project {
    /// The index of the stage target in [`Project::targets`] (the loader guarantees exactly one).
    pub fn stage_index(&self) -> usize {
        self.targets.iter().position(|t| t.is_stage).unwrap_or(0)
    }

    /// The stage target.
    pub fn stage(&self) -> Option<&Target> {
        self.targets.iter().find(|t| t.is_stage)
    }

    /// How many times scratch-vm 5.0.300 calls `uid()` from process start to the end of
    /// loading this project in the reference harness (`../shared/refvm`, whose trace reports
    /// the count as `end.uidCalls`): one when its Scratch 2 serializer module loads
    /// (`emptyStringName`), one per target (the `Target` constructor), and one per compressed
    /// primitive array the Scratch 3 deserializer expands (`deserializeInputDesc`). A project
    /// converted from Scratch 2 reports what the Scratch 2 loader drew instead (one per
    /// target, block, input, custom block prototype, comment and watched block).
    pub fn load_uid_calls(&self) -> u64 {
        if let SourceFormat::Sb2 { load_uid_calls } = self.source {
            return load_uid_calls;
        }
        let primitives: u64 = self.targets.iter().map(|t| t.blocks.primitive_arrays()).sum();
        1 + self.targets.len() as u64 + primitives
    }
}

/// The `meta` object: which program wrote the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    /// Project format version, e.g. `"3.0.0"`.
    pub semver: Option<String>,
    /// scratch-vm version that wrote the file.
    pub vm: Option<String>,
    /// Browser user agent of the writer.
    pub agent: Option<String>,
    /// Other keys (e.g. `origin`).
    pub extra: Extra,
}

/// The stage or a sprite. Properties absent from the file are `None`; scratch-vm's defaults
/// apply to them (x 0, y 0, size 100, direction 90, visible, rotation style "all around",
/// volume 100, tempo 60, video state "on", transparency 50).
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// `true` for the stage.
    pub is_stage: bool,
    /// Target name (`"Stage"` for the stage).
    pub name: String,
    /// Variables by id, in file order (the stage's are global).
    pub variables: Vec<Variable>,
    /// Lists by id, in file order (the stage's are global).
    pub lists: Vec<List>,
    /// Broadcast messages by id, in file order (normally only on the stage).
    pub broadcasts: Vec<Broadcast>,
    /// The target's blocks, index-based with resolved references.
    pub blocks: Blocks,
    /// Workspace comments, in file order.
    pub comments: Vec<Comment>,
    /// Index of the current costume (scratch-vm clamps it to the costume list).
    pub current_costume: Option<Num>,
    /// Costumes, in order.
    pub costumes: Vec<Costume>,
    /// Sounds, in order.
    pub sounds: Vec<Sound>,
    /// Layer order (0 is the stage, sprites from 1 upward).
    pub layer_order: Option<Num>,
    /// Volume, 0 to 100.
    pub volume: Option<Num>,
    /// Stage only: music tempo in beats per minute.
    pub tempo: Option<Num>,
    /// Stage only: `"on"`, `"off"` or `"on-flipped"` (may be `null`).
    pub video_state: Option<Json>,
    /// Stage only: video transparency, 0 to 100.
    pub video_transparency: Option<Num>,
    /// Stage only: text-to-speech language (a string or `null`).
    pub text_to_speech_language: Option<Json>,
    /// Sprite only: whether the sprite is shown.
    pub visible: Option<bool>,
    /// Sprite only: x position.
    pub x: Option<Num>,
    /// Sprite only: y position.
    pub y: Option<Num>,
    /// Sprite only: size in percent.
    pub size: Option<Num>,
    /// Sprite only: direction in degrees (90 is right).
    pub direction: Option<Num>,
    /// Sprite only: draggable in the player.
    pub draggable: Option<bool>,
    /// Sprite only: `"all around"`, `"left-right"` or `"don't rotate"`.
    pub rotation_style: Option<String>,
    /// Unknown keys of the target object.
    pub extra: Extra,
}

/// A variable: `"id": [name, value]` or `[name, value, isCloud]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Unique id within the target (the key of the `variables` map).
    pub id: String,
    /// Name shown in the editor; two targets may reuse a name with different ids.
    pub name: String,
    /// Initial value, number or string as in the file.
    pub value: Literal,
    /// The third array element, when present (`true` for cloud variables).
    pub is_cloud: Option<bool>,
}

/// A list: `"id": [name, [items...]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct List {
    /// Unique id within the target.
    pub id: String,
    /// Name shown in the editor.
    pub name: String,
    /// Initial items.
    pub items: Vec<Literal>,
}

/// A broadcast message: `"id": name`.
#[derive(Debug, Clone, PartialEq)]
pub struct Broadcast {
    /// Message id.
    pub id: String,
    /// Message name (what `when I receive` matches, case-insensitively).
    pub name: String,
}

/// A workspace comment, attached to a block or floating.
#[derive(Debug, Clone, PartialEq)]
pub struct Comment {
    /// Comment id (the key of the `comments` map).
    pub id: String,
    /// The block the comment is attached to (`null` when floating).
    pub block_id: Option<String>,
    /// The comment text.
    pub text: String,
    /// Other keys (`x`, `y`, `width`, `height`, `minimized`).
    pub extra: Extra,
}

/// Costume metadata; the image itself is an asset named by `md5ext`.
#[derive(Debug, Clone, PartialEq)]
pub struct Costume {
    /// Costume name.
    pub name: String,
    /// Asset id (md5 of the file).
    pub asset_id: Option<String>,
    /// Asset file name, `assetId.dataFormat`.
    pub md5ext: Option<String>,
    /// `"svg"`, `"png"`, `"jpg"`...
    pub data_format: Option<String>,
    /// Pixels per stage unit of a bitmap (2 for Scratch 3 bitmaps, 1 for vectors).
    pub bitmap_resolution: Option<Num>,
    /// Rotation centre x, in costume pixels.
    pub rotation_center_x: Option<Num>,
    /// Rotation centre y, in costume pixels.
    pub rotation_center_y: Option<Num>,
    /// Other keys.
    pub extra: Extra,
}

/// Sound metadata; the audio is an asset named by `md5ext`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sound {
    /// Sound name.
    pub name: String,
    /// Asset id (md5 of the file).
    pub asset_id: Option<String>,
    /// Asset file name, `assetId.dataFormat`.
    pub md5ext: Option<String>,
    /// `"wav"`, `"mp3"`...
    pub data_format: Option<String>,
    /// Sample rate in Hz.
    pub rate: Option<Num>,
    /// Number of samples (duration = sample count / rate).
    pub sample_count: Option<Num>,
    /// Other keys.
    pub extra: Extra,
}

/// A variable or list monitor on the stage.
#[derive(Debug, Clone, PartialEq)]
pub struct Monitor {
    /// Monitor id (for variables, the variable id).
    pub id: String,
    /// `"default"`, `"large"`, `"slider"` or `"list"`.
    pub mode: Option<String>,
    /// The reporter opcode, e.g. `"data_variable"`.
    pub opcode: String,
    /// Block fields of the reporter, e.g. `{"VARIABLE": "my var"}`.
    pub params: Vec<(String, Json)>,
    /// Owning sprite name, or `null` for globals.
    pub sprite_name: Option<String>,
    /// Whether the monitor is shown.
    pub visible: Option<bool>,
    /// Other keys (`value`, `width`, `height`, `x`, `y`, `sliderMin`, `sliderMax`, `isDiscrete`).
    pub extra: Extra,
}
