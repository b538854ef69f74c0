//! Packing programs into program images for a kit, and checking the kit's budgets: the image
//! must fit the flash the firmware leaves free, and the program's heap estimate must fit the
//! kit's heap. A failed check says by how much and which parts of the image are large.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::drawing::DrawingProgram;
use super::xlogo::XLogoProgram;
use super::{scratch, Kit};
use crate::drawing::actions::{Actions, ActionsError};
use crate::drawing::ui::{UiConfig, UiConfigError};
use crate::image::{self, ImageError, ProgramKind, HEADER_LEN};
use crate::scratch::image::Image as ScratchImage;
use crate::scratch::vm::{Vm, VmError};
use crate::xlogo::{self, CodeError, CodeInput, TaskError};

/// Why a program could not be packed for a kit.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PackError {
    /// This build cannot pack this kind of program yet.
    Unsupported {
        /// The kind asked for.
        kind: ProgramKind,
        /// What is missing.
        why: &'static str,
    },
    /// The XLogo task does not load.
    Task(TaskError),
    /// The XLogo code does not parse.
    Code(CodeError),
    /// The VM refuses the compiled Scratch project.
    Scratch(VmError),
    /// The drawing's actions are not an action list.
    Actions(ActionsError),
    /// The drawing's UI config does not load.
    Ui(UiConfigError),
    /// The envelope could not be written.
    Image(ImageError),
    /// The image does not fit the kit's flash budget.
    TooLarge {
        /// Kit identifier.
        kit: &'static str,
        /// Image size in bytes.
        size: usize,
        /// Flash left for the image on that kit.
        budget: usize,
        /// The image's parts, largest first: (what, bytes).
        parts: Vec<(String, usize)>,
    },
    /// The program's heap estimate exceeds the kit's heap.
    HeapTooSmall {
        /// Kit identifier.
        kit: &'static str,
        /// Estimated peak heap in bytes.
        estimate: usize,
        /// The kit's heap in bytes.
        heap: usize,
        /// The program's large heap users known before running it, largest first: (what,
        /// bytes).
        parts: Vec<(String, usize)>,
    },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported { kind, why } => write!(f, "cannot pack {kind} programs: {why}"),
            Self::Task(e) => write!(f, "task: {e}"),
            Self::Code(e) => write!(f, "code: {e}"),
            Self::Scratch(e) => write!(f, "scratch: {e}"),
            Self::Actions(e) => write!(f, "actions: {e}"),
            Self::Ui(e) => e.fmt(f),
            Self::Image(e) => e.fmt(f),
            Self::TooLarge { kit, size, budget, parts } => {
                write!(
                    f,
                    "image is {size} bytes, {} bytes over the {kit} kit's budget of {budget} bytes",
                    size.saturating_sub(*budget)
                )?;
                write_parts(f, parts)
            }
            Self::HeapTooSmall { kit, estimate, heap, parts } => {
                write!(
                    f,
                    "program needs about {estimate} bytes of heap, {} bytes more than the {kit} \
                     kit's {heap}",
                    estimate.saturating_sub(*heap)
                )?;
                write_parts(f, parts)
            }
        }
    }
}

/// `; largest parts: A n bytes, B m bytes` (nothing for no parts).
fn write_parts(f: &mut fmt::Formatter<'_>, parts: &[(String, usize)]) -> fmt::Result {
    for (i, (what, bytes)) in parts.iter().enumerate() {
        f.write_str(if i == 0 { "; largest parts: " } else { ", " })?;
        write!(f, "{what} {bytes} bytes")?;
    }
    Ok(())
}

impl core::error::Error for PackError {}

/// A packed image and what it is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// The kind of program.
    pub kind: ProgramKind,
    /// The program image bytes.
    pub image: Vec<u8>,
    /// The image's parts: (what, bytes), largest first; they add up to the image size.
    pub parts: Vec<(String, usize)>,
    /// The large heap users the program will have on the kit, largest first (costume pixels,
    /// the pen layer); empty when none is known before running it.
    pub heap_parts: Vec<(String, usize)>,
}

/// Which form XLogo code text is in: JSON when its first non-blank byte is `{`, else Python.
pub fn code_input(code: &[u8]) -> CodeInput<'_> {
    match code.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => CodeInput::Json(code),
        _ => CodeInput::Python(code),
    }
}

/// Packs an XLogo task and code after checking that the task loads and the code parses.
pub fn pack_xlogo(task: &str, code: &str) -> Result<Packed, PackError> {
    xlogo::load::task_from_slice(task.as_bytes()).map_err(PackError::Task)?;
    xlogo::parse_code(code_input(code.as_bytes())).map_err(PackError::Code)?;
    let program = XLogoProgram { task: task.into(), code: code.into() };
    let image = image::encode_payload(ProgramKind::XLogo, &program).map_err(PackError::Image)?;
    let mut parts =
        alloc::vec![(String::from("task JSON"), task.len()), (String::from("code"), code.len()),];
    let framing = image.len().saturating_sub(task.len() + code.len());
    parts.push((alloc::format!("header ({HEADER_LEN}) and length prefixes"), framing));
    parts.sort_by_key(|p| core::cmp::Reverse(p.1));
    Ok(Packed { kind: ProgramKind::XLogo, image, parts, heap_parts: Vec::new() })
}

/// Packs a compiled Scratch project (with its costume skins) for `kit`: the skins are converted
/// for the kit's display ([`scratch::fit_skins`], `divisor` 1 for full display resolution, 2 for
/// half, ...), and the VM must accept the result with the kit's budgets. The parts are the
/// largest costumes' pixels and the rest of the compiled project.
pub fn pack_scratch(mut image: ScratchImage, kit: &Kit, divisor: u32) -> Result<Packed, PackError> {
    scratch::fit_skins(&mut image, kit, divisor);
    Vm::new(image.clone(), scratch::config(kit)).map_err(PackError::Scratch)?;
    let mut parts: Vec<(String, usize)> = Vec::new();
    for (k, skin) in image.skins.iter().enumerate() {
        let bytes = skin.levels.iter().map(|l| l.rgba.len()).sum();
        parts.push((alloc::format!("costume {} pixels", costume_name(&image, k)), bytes));
    }
    let bytes = image::encode_payload(ProgramKind::Scratch, &image).map_err(PackError::Image)?;
    parts.sort_by_key(|p| core::cmp::Reverse(p.1));
    if parts.len() > MAX_PARTS {
        let rest: usize = parts.drain(MAX_PARTS..).map(|p| p.1).sum();
        parts.push((String::from("other costume pixels"), rest));
    }
    let pixels: usize = parts.iter().map(|p| p.1).sum();
    let (pen_w, pen_h) = scratch::pen_size(kit);
    let mut heap_parts = parts.clone();
    let pen = alloc::format!("pen layer {pen_w}x{pen_h} (if the pen is used)");
    heap_parts.push((pen, pen_w as usize * pen_h as usize * 4));
    heap_parts.sort_by_key(|p| core::cmp::Reverse(p.1));
    parts.push((
        String::from("scripts, variables and the rest"),
        bytes.len().saturating_sub(pixels),
    ));
    parts.sort_by_key(|p| core::cmp::Reverse(p.1));
    Ok(Packed { kind: ProgramKind::Scratch, image: bytes, parts, heap_parts })
}

/// Parts named one by one in a [`Packed`] (the rest are summed).
const MAX_PARTS: usize = 6;

/// `Target/costume` of the first costume that uses skin `k`.
fn costume_name(image: &ScratchImage, k: usize) -> String {
    for t in &image.targets {
        for (c, skin) in t.costume_skins.iter().enumerate() {
            if *skin == Some(k as u32) {
                let costume = t.costumes.get(c).map_or("?", String::as_str);
                return alloc::format!("{}/{}", t.name, costume);
            }
        }
    }
    alloc::format!("#{k}")
}

/// Packs a drawing: the model's raw action text, the UI config JSON it was written for (`None`
/// for DrawingBench's layout) and the score to show at the end, after checking that the actions
/// parse as an action list (the parser's typed error otherwise) and that the UI config loads.
pub fn pack_drawing(
    actions: &str,
    ui: Option<&str>,
    score: Option<f64>,
) -> Result<Packed, PackError> {
    let parsed = Actions::parse(actions.as_bytes()).map_err(PackError::Actions)?;
    if let Some(text) = ui {
        UiConfig::from_json(text).map_err(PackError::Ui)?;
    }
    let program = DrawingProgram { actions, ui, score };
    let image = image::encode_payload(ProgramKind::Drawing, &program).map_err(PackError::Image)?;
    let ui_len = ui.map_or(0, str::len);
    let mut parts = alloc::vec![(String::from("actions"), actions.len())];
    if ui_len > 0 {
        parts.push((String::from("UI config"), ui_len));
    }
    let framing = image.len().saturating_sub(actions.len() + ui_len);
    parts.push((alloc::format!("header ({HEADER_LEN}), length prefixes and score"), framing));
    parts.sort_by_key(|p| core::cmp::Reverse(p.1));
    let list = core::mem::size_of_val(parsed.list.as_slice());
    let heap_parts = alloc::vec![(alloc::format!("{} parsed actions", parsed.len()), list)];
    Ok(Packed { kind: ProgramKind::Drawing, image, parts, heap_parts })
}

/// Checks a packed image against `kit`'s flash budget and, given a heap estimate, its heap.
pub fn check_budgets(kit: &Kit, packed: &Packed, heap_estimate: usize) -> Result<(), PackError> {
    let budget = kit.image_budget(packed.kind) as usize;
    if packed.image.len() > budget {
        return Err(PackError::TooLarge {
            kit: kit.id,
            size: packed.image.len(),
            budget,
            parts: packed.parts.clone(),
        });
    }
    let heap = kit.heap_bytes as usize;
    if heap_estimate > heap {
        let parts = packed.heap_parts.clone();
        return Err(PackError::HeapTooSmall { kit: kit.id, estimate: heap_estimate, heap, parts });
    }
    Ok(())
}
