//! SVG costumes: refuse external references, read the root `viewBox`, rasterise with resvg so
//! that the viewBox fills ⌊size × scale⌋ pixels, as scratch-render's `SVGSkin` does.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::costume::{check_pixels, CostumeError, CostumeImage};

/// Deepest element nesting accepted: the SVG parser and rasteriser recurse per level, and
/// Scratch's editor writes a handful of levels.
pub(crate) const MAX_DEPTH: usize = 100;

/// A parsed SVG costume, ready to be rasterised at any scale ([`SvgCostume::render`]).
pub struct SvgCostume {
    tree: usvg::Tree,
    /// The skin size in stage units: the root `viewBox` width and height.
    pub size: [f64; 2],
    /// The rotation centre in stage units from the viewBox's top-left corner.
    pub rotation_center: [f64; 2],
}

impl std::fmt::Debug for SvgCostume {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SvgCostume")
            .field("size", &self.size)
            .field("rotation_center", &self.rotation_center)
            .finish_non_exhaustive()
    }
}

impl SvgCostume {
    /// Parses an SVG costume; `center` is the costume's rotation centre in SVG units (`None`:
    /// the viewBox centre, as scratch-render's `calculateRotationCenter`).
    pub fn parse(bytes: &[u8], center: Option<[f64; 2]>) -> Result<SvgCostume, CostumeError> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| CostumeError::Decode { format: "svg", message: e.to_string() })?;
        refuse_external(text)?;
        if nesting_depth(text) > MAX_DEPTH {
            return Err(CostumeError::Decode {
                format: "svg",
                message: format!("elements nested deeper than {MAX_DEPTH}"),
            });
        }
        let err = |e: usvg::Error| CostumeError::Decode { format: "svg", message: e.to_string() };
        let options = usvg::Options { resources_dir: None, ..usvg::Options::default() };
        let tree = usvg::Tree::from_data(bytes, &options).map_err(err)?;
        let intrinsic = tree.size();
        let [x, y, width, height] = root_view_box(text).unwrap_or([
            0.0,
            0.0,
            f64::from(intrinsic.width()),
            f64::from(intrinsic.height()),
        ]);
        let [cx, cy] = center.unwrap_or([width / 2.0, height / 2.0]);
        Ok(SvgCostume { tree, size: [width, height], rotation_center: [cx - x, cy - y] })
    }

    /// Rasterises at `scale` pixels per stage unit into ⌊size × scale⌋ pixels.
    pub fn render(&self, scale: f64) -> Result<CostumeImage, CostumeError> {
        let [width, height] = self.size;
        let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
        let (pw, ph) = ((width * scale).floor(), (height * scale).floor());
        check_pixels(pw, ph)?;
        // check_pixels bounds both sides to 1..=MAX_PIXELS, so the casts are exact.
        let mut pixmap = Pixmap::new(pw as u32, ph as u32)
            .ok_or(CostumeError::BadSize { width: pw, height: ph })?;
        // usvg maps the viewBox onto its intrinsic size; stretch that onto the viewBox size.
        let intrinsic = self.tree.size();
        let sx = scale * width / f64::from(intrinsic.width());
        let sy = scale * height / f64::from(intrinsic.height());
        resvg::render(
            &self.tree,
            Transform::from_scale(sx as f32, sy as f32),
            &mut pixmap.as_mut(),
        );
        let rgba = pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        Ok(CostumeImage {
            width: pixmap.width(),
            height: pixmap.height(),
            rgba,
            resolution: scale,
            size: self.size,
            rotation_center: self.rotation_center,
        })
    }
}

/// Decodes an SVG costume (see [`crate::costume::decode_costume`]).
pub(crate) fn decode_svg(
    bytes: &[u8],
    center: [Option<f64>; 2],
    scale: f64,
) -> Result<CostumeImage, CostumeError> {
    let center = match center {
        [Some(x), Some(y)] => Some([x, y]),
        _ => None,
    };
    SvgCostume::parse(bytes, center)?.render(scale)
}

/// Refuses references to anything outside the document: `href`s and `url(...)`s that are not
/// `#fragment` or `data:`, CSS `@import`, and external entities.
fn refuse_external(text: &str) -> Result<(), CostumeError> {
    let external = |reference: &str| CostumeError::ExternalReference {
        reference: reference.chars().take(200).collect(),
    };
    let internal = |value: &str| {
        let v = value.trim_start().trim_start_matches(['"', '\'']).trim_start();
        v.starts_with('#') || v.starts_with("data:")
    };
    let lower = text.to_ascii_lowercase();
    for (at, _) in lower.match_indices("href") {
        let rest = lower[at + 4..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else { continue };
        let rest = rest.trim_start();
        let value = rest.get(1..).unwrap_or("");
        let end = value.find(['"', '\'']).unwrap_or(value.len());
        if !internal(&value[..end]) {
            return Err(external(&value[..end]));
        }
    }
    for (at, _) in lower.match_indices("url(") {
        let value = &lower[at + 4..];
        let end = value.find(')').unwrap_or(value.len());
        if !internal(&value[..end]) {
            return Err(external(&value[..end]));
        }
    }
    if lower.contains("@import") {
        return Err(external("@import"));
    }
    if lower.contains("<!entity") && (lower.contains("system") || lower.contains("public")) {
        return Err(external("<!ENTITY ... SYSTEM>"));
    }
    Ok(())
}

/// The `viewBox` of the root `<svg>` element, if it has a valid one (zero sizes allowed).
fn root_view_box(text: &str) -> Option<[f64; 4]> {
    let start = text.match_indices("<svg").map(|(i, _)| i).find(|&i| {
        text[i + 4..].starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/')
    })?;
    let tag_end = text[start..].find('>').map_or(text.len(), |e| start + e);
    let tag = &text[start..tag_end];
    let at = tag
        .match_indices("viewBox")
        .map(|(i, _)| i)
        .find(|&i| i > 0 && tag[..i].ends_with(|c: char| c.is_whitespace()))?;
    let rest = tag[at + 7..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    let value = &value[..value.find(quote)?];
    let mut nums = value.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty());
    let mut out = [0.0; 4];
    for slot in &mut out {
        *slot = nums.next()?.parse::<f64>().ok().filter(|v| v.is_finite())?;
    }
    // A zero width or height is kept (scratch-render then makes an empty skin); a negative
    // one is not a viewBox.
    (nums.next().is_none() && out[2] >= 0.0 && out[3] >= 0.0).then_some(out)
}

/// The deepest element nesting of an XML text (comments, CDATA, declarations and quoted
/// attribute values skipped). Tolerant: malformed text gives some number; the parser reports
/// the real error.
fn nesting_depth(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut max, mut i) = (0usize, 0usize, 0usize);
    let skip_to = |from: usize, end: &str| {
        text.get(from..).and_then(|t| t.find(end)).map_or(bytes.len(), |e| from + e + end.len())
    };
    while let Some(off) = text.get(i..).and_then(|t| t.find('<')) {
        i += off;
        let rest = &text[i..];
        if rest.starts_with("<!--") {
            i = skip_to(i, "-->");
        } else if rest.starts_with("<![CDATA[") {
            i = skip_to(i, "]]>");
        } else if rest.starts_with("<!") || rest.starts_with("<?") {
            i = skip_to(i, ">");
        } else if rest.starts_with("</") {
            depth = depth.saturating_sub(1);
            i = skip_to(i, ">");
        } else {
            // A start tag: find its end outside quotes.
            let mut j = i + 1;
            let mut quote = None;
            while let Some(&b) = bytes.get(j) {
                match quote {
                    Some(q) if b == q => quote = None,
                    Some(_) => {}
                    None if b == b'"' || b == b'\'' => quote = Some(b),
                    None if b == b'>' => break,
                    None => {}
                }
                j += 1;
            }
            if bytes.get(j.wrapping_sub(1)) != Some(&b'/') {
                depth += 1;
                max = max.max(depth);
            }
            i = j + 1;
        }
    }
    max
}
