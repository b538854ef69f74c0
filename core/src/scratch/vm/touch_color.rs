//! The VM's side of `touching color?` and `color is touching color?`: the renderer's MIP
//! requests, the fast bounds and the candidate drawables taken from the targets, handed to
//! the renderer's scan (`crate::scratch::render::touch`, which holds the arithmetic).

use crate::clamp::clamp;
use alloc::vec::Vec;

use crate::scratch::render::touch::{self, relabel, Cand, Rect};

use super::scene::{costume_skin, drawable_of};
use super::Vm;

impl Vm {
    /// `isTouchingColor(drawable of t, color, mask)`.
    pub(crate) fn touching_color(&mut self, t: u32, color: [u8; 3], mask: Option<[u8; 3]>) -> bool {
        // `_touchingBounds` makes the asker's 1× texture, `_candidatesTouching` updates every
        // visible candidate's CPU attributes (its silhouette at its scale), then the asker's.
        self.request_mip(t, [100.0, 100.0]);
        for k in 0..self.exec.len() {
            let o = self.exec[k];
            let Some(i) = self.insts.get(o as usize) else { continue };
            let is_stage = o == self.stage;
            if o != t && i.alive && (i.visible || is_stage) {
                let scale = if is_stage { [100.0, 100.0] } else { self.pose(o).scale };
                self.request_mip(o, scale);
            }
        }
        if t != self.stage {
            let scale = self.pose(t).scale;
            self.request_mip(t, scale);
        }
        // `getFastBounds` of the asker and of every sprite candidate (the hull's bounds while
        // a current hull exists, else the model box): they decide the candidates, the area
        // scanned and the switch to the GPU path.
        let mut fast = core::mem::take(&mut self.touch.fast);
        fast.clear();
        fast.resize(self.insts.len(), None);
        for k in 0..self.exec.len() {
            let o = self.exec[k];
            let live = self.insts.get(o as usize).is_some_and(|i| i.alive && (i.visible || o == t));
            if o != self.stage && live {
                if let Some(slot) = fast.get_mut(o as usize) {
                    *slot = self.fast_bounds(o).map(|r| [r.left, r.right, r.bottom, r.top]);
                }
            }
        }
        let mut cands = relabel(core::mem::take(&mut self.touch.colour.0));
        let hit = self.touching_color_in(t, color, mask, &fast, &mut cands);
        self.touch.colour.0 = relabel(cands);
        self.touch.fast = fast;
        hit
    }

    /// [`Vm::touching_color`] with a candidate list to fill.
    fn touching_color_in<'a>(
        &'a self,
        t: u32,
        color: [u8; 3],
        mask: Option<[u8; 3]>,
        fast: &[Option<[f64; 4]>],
        cands: &mut Vec<(Cand<'a>, Rect)>,
    ) -> bool {
        cands.clear();
        let img = self.image();
        let Some(me) = self.insts.get(t as usize) else { return false };
        let Some(skin) = costume_skin(img, me) else { return false };
        let Some(mut d) = drawable_of(skin, me, t == self.stage, 1.0) else {
            return false;
        };
        // The silhouette is the largest level made so far ([`Vm::touching_color`] made them).
        let Some((_, sil)) = self.silhouette(t) else { return false };
        d.sil = sil;
        // `_touchingBounds`: the fast bounds clamped to the stage, snapped.
        let b = fast.get(t as usize).copied().flatten().unwrap_or(d.bounds);
        let mine = Rect::snapped([
            clamp(b[0], -240.0, 240.0),
            clamp(b[1], -240.0, 240.0),
            clamp(b[2], -180.0, 180.0),
            clamp(b[3], -180.0, 180.0),
        ]);
        if mine.right - mine.left == 0.0 || mine.top - mine.bottom == 0.0 {
            return false;
        }
        // Candidates, top layer first.
        for (k, &o) in self.exec.iter().enumerate().rev() {
            if k == 0 {
                if let Some(p) = self.pen_layer() {
                    let r = Rect { left: -240.0, right: 240.0, bottom: -180.0, top: 180.0 };
                    if mine.intersects(&r) {
                        cands.push((Cand::Pen(p), mine.intersect(&r)));
                    }
                }
            }
            if o == t {
                continue;
            }
            let Some(i) = self.insts.get(o as usize) else { continue };
            let is_stage = o == self.stage;
            if !i.alive || !(i.visible || is_stage) {
                continue;
            }
            let Some(mut cd) = costume_skin(img, i).and_then(|s| drawable_of(s, i, is_stage, 1.0))
            else {
                continue;
            };
            // No level made yet (under a pixel): an empty silhouette samples transparent.
            let Some((_, sil)) = self.silhouette(o) else { continue };
            cd.sil = sil;
            let r = Rect::snapped(fast.get(o as usize).copied().flatten().unwrap_or(cd.bounds));
            if mine.intersects(&r) {
                cands.push((Cand::Costume(cd), mine.intersect(&r)));
            }
        }
        touch::scan(&d, mine, cands, color, mask)
    }
}
