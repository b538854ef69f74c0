//! What the renderer is shown of the VM: each target's drawable (its costume's skin, the
//! rendered direction and scale, position and effects), the layer list with the pen layer
//! and the bubbles ([`Scene`], which `crate::scratch::render::render` draws), and the pen
//! layer itself. The renderer's per-target caches and the touching queries live in
//! [`super::drawable`].

use alloc::vec::Vec;

use crate::scratch::image::{Image, Skin};
use crate::scratch::pen::PenLayer;
use crate::scratch::render::effects::Effects;
use crate::scratch::render::{BubbleSpec, Drawable, Layer, Scene};

use super::target::{Instance, RotationStyle};
use super::Vm;

/// The skin of a target's current costume.
pub(crate) fn costume_skin<'a>(img: &'a Image, i: &Instance) -> Option<&'a Skin> {
    let t = img.targets.get(i.sprite as usize)?;
    let k = (*t.costume_skins.get(i.costume as usize)?)?;
    img.skins.get(k as usize)
}

/// Direction and scale as `RenderedTarget._getRenderedDirectionAndScale` gives them.
pub fn rendered_direction_scale(i: &Instance, is_stage: bool) -> (f64, [f64; 2]) {
    if is_stage {
        return (90.0, [100.0, 100.0]);
    }
    match i.rotation {
        RotationStyle::AllAround => (i.direction, [i.size, i.size]),
        RotationStyle::DontRotate => (90.0, [i.size, i.size]),
        RotationStyle::LeftRight => {
            let flip = if i.direction < 0.0 { -1.0 } else { 1.0 };
            (90.0, [flip * i.size, i.size])
        }
    }
}

/// A target's drawable (`None` without a skin for its costume) at `out_scale` output pixels
/// per stage unit.
pub fn drawable_of<'a>(
    skin: &'a Skin,
    i: &Instance,
    is_stage: bool,
    out_scale: f64,
) -> Option<Drawable<'a>> {
    let (dir, scale) = rendered_direction_scale(i, is_stage);
    let pos = if is_stage { [0.0, 0.0] } else { [i.x, i.y] };
    Drawable::new(skin, pos, dir, scale, Effects::from_values(&i.effects), out_scale)
}

impl Scene for Vm {
    fn layers<'a>(&'a self, out_scale: f64, out: &mut Vec<Layer<'a>>) {
        let img = self.image();
        for (k, &t) in self.exec.iter().enumerate() {
            let Some(i) = self.insts.get(t as usize) else { continue };
            let is_stage = t == self.stage;
            if i.alive && (i.visible || is_stage) {
                if let Some(d) =
                    costume_skin(img, i).and_then(|s| drawable_of(s, i, is_stage, out_scale))
                {
                    out.push(Layer::Costume(d));
                }
            }
            if k == 0 {
                if let Some(p) = self.pen_layer() {
                    out.push(Layer::Pen(p));
                }
            }
        }
    }

    fn bubbles<'a>(&'a self, out: &mut Vec<BubbleSpec<'a>>) {
        for &t in &self.exec {
            let Some(i) = self.insts.get(t as usize) else { continue };
            let Some(b) = i.bubble.as_ref() else { continue };
            if !i.visible || !i.alive || b.text.is_empty() || t == self.stage {
                continue;
            }
            let mut bounds = costume_skin(self.image(), i)
                .and_then(|s| drawable_of(s, i, false, 1.0))
                .map_or([i.x, i.x, i.y, i.y], |d| d.bounds);
            // A position that is not a number (`undefined`, NaN): scratch-render's bubble
            // bounds are empty on that axis (left +∞, right -∞; bottom +∞), which puts the
            // bubble at the stage's left edge for x and its top edge for y (`Math.min(top,
            // bottom + height)`; the approximation reads `top` for the slice's bottom).
            if !(bounds[0].is_finite() && bounds[1].is_finite()) {
                bounds[0] = f64::INFINITY;
                bounds[1] = f64::NEG_INFINITY;
            }
            if !(bounds[2].is_finite() && bounds[3].is_finite()) {
                bounds[2] = f64::INFINITY;
                bounds[3] = f64::INFINITY;
            }
            out.push(BubbleSpec { bounds, text: &b.text, think: b.think });
        }
    }
}

impl Vm {
    /// The pen layer, allocated on first use (`_getPenLayerID`).
    pub(crate) fn pen_layer_mut(&mut self) -> &mut PenLayer {
        // The caller draws on it (or clears it): `touching color` sees the pen layer.
        self.render_changed();
        let [w, h] = self.pen_size;
        self.pen_layer.get_or_insert_with(|| PenLayer::new(w, h))
    }

    /// The pen layer, if a pen block has run.
    pub fn pen_layer(&self) -> Option<&PenLayer> {
        self.pen_layer.as_ref()
    }

    /// Size of the pen layer allocated on first use (default 480×360, scratch-render's native
    /// size; a kit may choose its display's size). Has no effect once the layer exists.
    pub fn set_pen_layer_size(&mut self, width: u32, height: u32) {
        self.pen_size = [width.max(1), height.max(1)];
    }
}
