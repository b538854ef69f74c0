//! Visual evidence of a run (SPEC §3.7, `docs/evidence.md`): a project runs under a scenario
//! on the virtual clock, its stage is drawn by the core's renderer every `every` frames, and
//! the pictures become PNG frames, keyframes (the samples where the picture changes most), a
//! contact sheet of the keyframes and an animated PNG. With a gold project, every picture
//! shows gold (left) and candidate (right) side by side. Same inputs, same bytes.

use std::fmt;

use gobo::scratch::image::Image;
use gobo::scratch::oracle::Work;
use gobo::scratch::render::{render, Framebuffer};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::vm::{Config, Vm, VmError};
use serde::{Deserialize, Serialize};

use crate::png::{encode_png, PixelFormat, PngError};

/// Stage width and height of a picture (one side).
pub const STAGE: (u32, u32) = (480, 360);
/// Gap between the two sides of a side-by-side picture, in pixels.
pub const GAP: u32 = 8;
/// Most pictures one recording keeps.
pub const MAX_IMAGES: u64 = 2000;

/// What to record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordConfig {
    /// Frames to run (frames 0..frames).
    pub frames: u64,
    /// Keep every `every`-th frame (0, every, 2·every, ...).
    pub every: u64,
    /// Keyframes to choose.
    pub keyframes: usize,
    /// Frames per virtual second (the animation's delay is `every / fps` s).
    pub fps: u32,
    /// Block randomness seed.
    pub seed: u32,
}

impl Default for RecordConfig {
    fn default() -> Self {
        RecordConfig { frames: 300, every: 3, keyframes: 4, fps: 30, seed: 1 }
    }
}

/// A recording's parameters as a caller gives them (`gobo record`'s flags, `POST /v1/record`'s
/// fields, `gobo.scratch.record`'s keyword arguments); absent frames and seed come from the
/// scenario, else 300 frames and seed 1.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecordParams {
    /// Keep every N-th frame (default 3).
    pub every: u64,
    /// Frames to run.
    pub frames: Option<u64>,
    /// Keyframes on the contact sheet (default 4).
    pub keyframes: usize,
    /// Block randomness seed.
    pub seed: Option<u32>,
}

impl Default for RecordParams {
    fn default() -> Self {
        let d = RecordConfig::default();
        RecordParams { every: d.every, frames: None, keyframes: d.keyframes, seed: None }
    }
}

impl RecordParams {
    /// The configuration for a run of `scenario`.
    pub fn config(&self, scenario: &Scenario) -> RecordConfig {
        let d = RecordConfig::default();
        RecordConfig {
            frames: self.frames.or(scenario.frames).unwrap_or(d.frames),
            every: self.every,
            keyframes: self.keyframes,
            seed: self.seed.or(scenario.seed).unwrap_or(d.seed),
            ..d
        }
    }
}

/// Why a recording could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum EvidenceError {
    /// A parameter is out of range.
    Config(String),
    /// The VM refused a program image (`gold` says which).
    Vm { gold: bool, error: VmError },
    /// Encoding a picture failed.
    Png(PngError),
}

impl fmt::Display for EvidenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvidenceError::Config(e) => write!(f, "configuration: {e}"),
            EvidenceError::Vm { gold, error } => {
                write!(f, "{} project: {error}", if *gold { "gold" } else { "the" })
            }
            EvidenceError::Png(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EvidenceError {}

/// One recorded picture.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sample {
    /// The frame after whose step the stage was drawn (0-based).
    pub frame: u64,
    /// Its virtual time, in seconds.
    pub t: f64,
    /// The file name of its PNG (`frame-NNNNN.png`).
    pub file: String,
    /// Fraction of the picture's pixels that differ from the previous sample (1 for the
    /// first).
    pub change: f64,
}

/// A recording: the pictures and what describes them (`manifest.json`).
#[derive(Debug, Clone, Serialize)]
pub struct Evidence {
    /// Picture width and height (twice the stage and a gap wide, side by side).
    pub width: u32,
    pub height: u32,
    /// Gold left, candidate right.
    pub side_by_side: bool,
    /// Every sample, in frame order.
    pub samples: Vec<Sample>,
    /// Indices into `samples` of the keyframes, in frame order.
    pub keyframes: Vec<usize>,
    /// The parameters.
    pub config: RecordConfig,
    /// Engine work: frames stepped and block operations run (both programs), images written
    /// and their bytes.
    pub work: Work,
    /// PNG bytes of each sample (not in the manifest).
    #[serde(skip)]
    pub pngs: Vec<Vec<u8>>,
    /// The contact sheet PNG (keyframes, two per row, at half size).
    #[serde(skip)]
    pub sheet: Vec<u8>,
    /// The animated PNG of every sample.
    #[serde(skip)]
    pub animation: Vec<u8>,
}

/// The contact sheet's file name in a recording folder.
pub const SHEET_FILE: &str = "sheet.png";
/// The animated PNG's file name in a recording folder.
pub const ANIMATION_FILE: &str = "clip.png";

impl Evidence {
    /// The manifest (`manifest.json`, `gobo record --json`): the recording's fields, with
    /// `sheet` and `animation` naming their files.
    pub fn manifest(&self) -> serde_json::Value {
        let mut m = serde_json::to_value(self).unwrap_or_default();
        m["sheet"] = SHEET_FILE.into();
        m["animation"] = ANIMATION_FILE.into();
        m
    }

    /// Every picture of the recording by file name: the samples in frame order, then the
    /// contact sheet and the animation (what `gobo record -o DIR` writes beside the manifest).
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        let samples = self.samples.iter().zip(&self.pngs).map(|(s, p)| (s.file.as_str(), &p[..]));
        samples.chain([(SHEET_FILE, &self.sheet[..]), (ANIMATION_FILE, &self.animation[..])])
    }
}

struct Side {
    vm: Vm,
    fb: Framebuffer,
}

impl Side {
    fn new(image: Image, cfg: &RecordConfig, gold: bool) -> Result<Side, EvidenceError> {
        let config = Config { fps: cfg.fps, seed: cfg.seed, ..Config::default() };
        let vm = Vm::new(image, config).map_err(|error| EvidenceError::Vm { gold, error })?;
        Ok(Side { vm, fb: Framebuffer::new(STAGE.0, STAGE.1) })
    }
}

fn check(cfg: &RecordConfig) -> Result<(), EvidenceError> {
    let bad = |m: String| Err(EvidenceError::Config(m));
    if cfg.every == 0 {
        return bad("every must be at least 1".into());
    }
    if cfg.frames == 0 || cfg.frames > gobo::scratch::forge::MAX_FRAMES {
        return bad("frames must be 1..=108000".into());
    }
    if cfg.frames.div_ceil(cfg.every) > MAX_IMAGES {
        return bad(format!("frames / every must be at most {MAX_IMAGES} pictures"));
    }
    if !(1..=1000).contains(&cfg.fps) {
        return bad("fps must be 1..=1000".into());
    }
    Ok(())
}

/// Records `candidate` (and `gold` beside it, when given) under `scenario`.
pub fn record(
    candidate: Image,
    gold: Option<Image>,
    scenario: &Scenario,
    cfg: &RecordConfig,
) -> Result<Evidence, EvidenceError> {
    check(cfg)?;
    let mut sides = Vec::new();
    if let Some(g) = gold {
        sides.push(Side::new(g, cfg, true)?);
    }
    sides.push(Side::new(candidate, cfg, false)?);
    let n = sides.len() as u32;
    let (width, height) = (STAGE.0 * n + GAP * (n - 1), STAGE.1);
    let mut work = Work::default();
    let mut pngs: Vec<Vec<u8>> = Vec::new();
    let mut samples = Vec::new();
    let mut inputs = Vec::new();
    let mut prev: Option<Vec<u8>> = None;
    let count = cfg.frames.div_ceil(cfg.every);
    let png = |w, h, px: &[u8]| encode_png(w, h, PixelFormat::Rgb8, px).map_err(EvidenceError::Png);
    let enc = |e: png::EncodingError| EvidenceError::Png(PngError::Encode(e.to_string()));
    let mut animation = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut animation, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_animated(count as u32, 0).map_err(enc)?;
        let every = u16::try_from(cfg.every).unwrap_or(u16::MAX);
        encoder.set_frame_delay(every, u16::try_from(cfg.fps).unwrap_or(u16::MAX)).map_err(enc)?;
        let mut writer = encoder.write_header().map_err(enc)?;
        for f in 0..cfg.frames {
            inputs.clear();
            inputs.extend(scenario.at(f).map(|(_, _, input)| input.clone()));
            for s in &mut sides {
                s.vm.step_frame(&inputs);
                work.frames += 1;
            }
            if !f.is_multiple_of(cfg.every) {
                continue;
            }
            let mut rgb = vec![255u8; (width * height * 3) as usize];
            for (i, s) in sides.iter_mut().enumerate() {
                let Ok(()) = render(&s.vm, &mut s.fb);
                blit(&mut rgb, width, s.fb.rgb(), STAGE.0, i as u32 * (STAGE.0 + GAP), 0);
            }
            let change = prev.as_ref().map_or(1.0, |p| changed(p, &rgb));
            samples.push(Sample {
                frame: f,
                t: f as f64 / f64::from(cfg.fps),
                file: format!("frame-{f:05}.png"),
                change,
            });
            pngs.push(png(width, height, &rgb)?);
            writer.write_image_data(&rgb).map_err(enc)?;
            prev = Some(rgb);
        }
        writer.finish().map_err(enc)?;
    }
    work.runs = u64::from(n);
    work.block_ops = sides.iter().map(|s| s.vm.block_ops()).sum();
    let keyframes = keyframes(&samples, cfg.keyframes);
    let pictures: Vec<Vec<u8>> =
        keyframes.iter().map(|&k| decode(&pngs[k])).collect::<Result<_, _>>()?;
    let (sw, sh, sheet_px) = sheet(&pictures, width, height);
    let sheet = png(sw, sh, &sheet_px)?;
    work.images = pngs.len() as u64 + 2;
    work.image_bytes = pngs.iter().map(|p| p.len() as u64).sum::<u64>()
        + sheet.len() as u64
        + animation.len() as u64;
    Ok(Evidence {
        width,
        height,
        side_by_side: n == 2,
        samples,
        keyframes,
        config: cfg.clone(),
        work,
        pngs,
        sheet,
        animation,
    })
}

/// The RGB pixels of a PNG this module wrote.
fn decode(bytes: &[u8]) -> Result<Vec<u8>, EvidenceError> {
    let err = |e: png::DecodingError| EvidenceError::Png(PngError::Encode(e.to_string()));
    let mut reader = png::Decoder::new(bytes).read_info().map_err(err)?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(info.buffer_size());
    Ok(buf)
}

/// Copies a `w`-wide RGB picture into `dst` (`dst_w` wide) at `(x, y)`.
fn blit(dst: &mut [u8], dst_w: u32, src: &[u8], w: u32, x: u32, y: u32) {
    let row = (w * 3) as usize;
    for (r, line) in src.chunks_exact(row).enumerate() {
        let at = (((y as usize + r) * dst_w as usize) + x as usize) * 3;
        if let Some(d) = dst.get_mut(at..at + row) {
            d.copy_from_slice(line);
        }
    }
}

/// Fraction of pixels that differ between two pictures of one size.
fn changed(a: &[u8], b: &[u8]) -> f64 {
    let px = a.len() / 3;
    let diff = a.chunks_exact(3).zip(b.chunks_exact(3)).filter(|(p, q)| p != q).count();
    if px == 0 {
        0.0
    } else {
        diff as f64 / px as f64
    }
}

/// The first sample and the `k - 1` samples that change the picture most (ties: the earlier),
/// in frame order; samples that change nothing are never chosen after the first.
pub fn keyframes(samples: &[Sample], k: usize) -> Vec<usize> {
    if samples.is_empty() || k == 0 {
        return Vec::new();
    }
    let mut rest: Vec<usize> = (1..samples.len()).filter(|&i| samples[i].change > 0.0).collect();
    rest.sort_by(|&a, &b| samples[b].change.total_cmp(&samples[a].change).then(a.cmp(&b)));
    rest.truncate(k - 1);
    rest.push(0);
    rest.sort_unstable();
    rest
}

/// The keyframes at half size, two per row, on white with a gap.
fn sheet(keys: &[Vec<u8>], w: u32, h: u32) -> (u32, u32, Vec<u8>) {
    let (hw, hh) = (w / 2, h / 2);
    let cols = keys.len().clamp(1, 2) as u32;
    let rows = (keys.len() as u32).div_ceil(2).max(1);
    let (sw, sh) = (cols * hw + (cols - 1) * GAP, rows * hh + (rows - 1) * GAP);
    let mut out = vec![255u8; (sw * sh * 3) as usize];
    for (i, picture) in keys.iter().enumerate() {
        let half = halve(picture, w, h);
        let (c, r) = (i as u32 % 2, i as u32 / 2);
        blit(&mut out, sw, &half, hw, c * (hw + GAP), r * (hh + GAP));
    }
    (sw, sh, out)
}

/// A picture at half size (each output pixel the mean of a 2×2 block).
fn halve(px: &[u8], w: u32, h: u32) -> Vec<u8> {
    let (hw, hh) = (w / 2, h / 2);
    let mut out = Vec::with_capacity((hw * hh * 3) as usize);
    let at = |x: u32, y: u32, c: usize| u32::from(px[((y * w + x) * 3) as usize + c]);
    for y in 0..hh {
        for x in 0..hw {
            for c in 0..3 {
                let s = at(2 * x, 2 * y, c)
                    + at(2 * x + 1, 2 * y, c)
                    + at(2 * x, 2 * y + 1, c)
                    + at(2 * x + 1, 2 * y + 1, c);
                out.push(((s + 2) / 4) as u8);
            }
        }
    }
    out
}
