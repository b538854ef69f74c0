//! The renderer's side of each target when the image has skins (scratch-render attached):
//! cached transform, convex hull and bounds per instance, the silhouette MIP level each
//! costume has reached, and the queries scratch-vm makes of the renderer: fenced positions,
//! bounds, touching sprites / edge / a point, and picking. Without skins none of this runs
//! and targets behave as with no renderer. Pure geometry lives in `crate::scratch::geom`,
//! drawables and sampling in `crate::scratch::render`, `touching color` in [`super::touch_color`].

use alloc::vec::Vec;

use super::scene::rendered_direction_scale;
use crate::clamp::js_min;
use crate::scratch::geom::mip::mip_index;
use crate::scratch::geom::reach;
use crate::scratch::geom::silhouette::{hull, touching_linear, touching_nearest, HullScratch};
use crate::scratch::geom::transform::{move_angle, rotation_from_move, unit_point, Linear, Pose};
use crate::scratch::geom::{f32r, Rect, Transform, FENCE_WIDTH, STAGE_HEIGHT, STAGE_WIDTH};
use crate::scratch::image::{Skin, SkinBitmap};
use crate::scratch::render::effects::{Effects, PIXELATE, SHAPE};
use crate::scratch::value::cast::to_str_value;
use crate::scratch::value::Value;
use crate::scratch::vm::Vm;

use super::touch_memo::Query;

/// Index of the ghost effect.
const GHOST: usize = 6;

/// Cached renderer state of one instance (recomputed when its inputs change).
#[derive(Clone, Debug, Default)]
pub struct DrawCache {
    /// The direction, scale and skin the position-free part was computed for (only the
    /// translation changes while a sprite moves).
    lin_key: Option<PoseKey>,
    lin: Option<Linear>,
    /// The hull's extremes before the translation (min x, max x, min y, max y of
    /// [`Linear::hull_offset`]) for `lin` and the current hull; `None`: not computed yet.
    extremes: Option<[f64; 4]>,
    /// The costume and visibility the hull was computed for.
    hull_key: Option<(u32, bool)>,
    /// A shape effect was set since the hull was made (`setConvexHullDirty`).
    hull_dirty: bool,
    /// Hull points in the unit square ([`unit_point`]); empty: no hull (hidden or no opaque
    /// pixel).
    hull: Vec<[f64; 2]>,
    /// The largest coordinate magnitude of `hull`, at least 0.5 (the model box's corners):
    /// what [`Vm::clear_of_edges`] scales by.
    hull_reach: f64,
    /// The pose and skin the hull bounds were computed for.
    bounds_key: Option<PoseKey>,
    bounds: Option<Rect>,
    /// The sprite, costume and scale (bits) of this instance's last MIP request.
    mip_key: Option<(u32, u32, [u64; 2])>,
    /// [`reach::Reach`] for the sprite, costume and size (bits) in the key.
    reach: Option<((u32, u32, u64), reach::Reach)>,
}

/// A cache key: the bits of a pose's position, direction and scale and the skin (bits, so
/// that `-0` and `0`, which can give different transforms, are different keys). For the
/// position-free part the position is left zero.
#[derive(Clone, Copy, Debug, Eq)]
struct PoseKey([u64; 5], u32);

impl PartialEq for PoseKey {
    /// Word by word, without branches (a derived `==` on the array calls `memcmp`, which
    /// costs more than the rest of a cache hit).
    #[inline]
    fn eq(&self, o: &PoseKey) -> bool {
        let [a0, a1, a2, a3, a4] = self.0;
        let [b0, b1, b2, b3, b4] = o.0;
        ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2) | (a3 ^ b3) | (a4 ^ b4) | u64::from(self.1 ^ o.1)) == 0
    }
}

impl PoseKey {
    fn new(pose: &Pose, skin: u32) -> PoseKey {
        let [x, y] = pose.position;
        let [s0, s1] = pose.scale;
        PoseKey([x, y, pose.direction, s0, s1].map(f64::to_bits), skin)
    }

    fn linear(pose: &Pose, skin: u32) -> PoseKey {
        let [s0, s1] = pose.scale;
        PoseKey([0, 0, pose.direction.to_bits(), s0.to_bits(), s1.to_bits()], skin)
    }
}

impl DrawCache {
    /// Marks the convex hull dirty (`Drawable.setConvexHullDirty`).
    pub(crate) fn set_hull_dirty(&mut self) {
        self.hull_dirty = true;
    }
}

/// Work buffers of the touching queries and `pick`, kept by the VM so that a query allocates
/// nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct TouchScratch {
    /// `isTouchingDrawables`' candidates with their intersections.
    hits: Vec<(Probe, Rect)>,
    /// `pick`'s candidates.
    picks: Vec<Probe>,
    /// The hull's left and right chains.
    hull: HullScratch,
    /// `touching color`'s candidates.
    pub(crate) colour: crate::scratch::render::touch::ColorScratch,
    /// `touching color`'s fast bounds per instance (left, right, bottom, top).
    pub(crate) fast: Vec<Option<[f64; 4]>>,
}

/// One instance made ready for point tests (`updateCPURenderAttributes`): its transform,
/// effect uniforms, sampling mode and skin size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    t: u32,
    xf: Transform,
    effects: Effects,
    nearest: bool,
    size: [f64; 2],
}

/// Whether a skin samples nearest (`useNearest`) for a pose and effects.
fn use_nearest(skin: &Skin, pose: &Pose, effects: &Effects) -> bool {
    if !skin.vector {
        return true;
    }
    if effects.bits & SHAPE != 0 {
        return false;
    }
    if pose.direction % 90.0 != 0.0 {
        return false;
    }
    let near = |s: f64| libm::fabs(s) > 99.0 && libm::fabs(s) < 101.0;
    near(pose.scale[0]) && near(pose.scale[1])
}

/// `getLocalPosition`: a stage point in texture space, through the effect transform when an
/// effect is on and the point lies in the unit square.
fn local_position(probe: &Probe, p: [f64; 2]) -> [f64; 2] {
    let l = probe.xf.local(p);
    if probe.effects.bits != 0 && (0.0..1.0).contains(&l[0]) && (0.0..1.0).contains(&l[1]) {
        return probe.effects.transform_point_cpu(l, probe.size);
    }
    l
}

impl Vm {
    /// Whether a renderer is modelled (the image carries skins).
    #[inline]
    pub(crate) fn renders(&self) -> bool {
        !self.img.skins.is_empty()
    }

    /// The skin index of an instance's current costume.
    pub(crate) fn skin_index(&self, t: u32) -> Option<u32> {
        let i = self.insts.get(t as usize)?;
        let target = self.img.targets.get(i.sprite as usize)?;
        (*target.costume_skins.get(i.costume as usize)?)
            .filter(|&k| (k as usize) < self.img.skins.len())
    }

    /// The rendered pose (`_getRenderedDirectionAndScale`).
    pub(crate) fn pose(&self, t: u32) -> Pose {
        let i = &self.insts[t as usize];
        let (direction, scale) = rendered_direction_scale(i, false);
        Pose::new(i.x, i.y, direction, scale)
    }

    /// The instance's transform (the position-free part is cached, so a move costs only the
    /// translation; the inverse is computed here, for the point queries that need it).
    pub(crate) fn transform(&mut self, t: u32) -> Option<Transform> {
        let (lin, pose, _) = self.placed(t)?;
        Some(lin.at(pose.position))
    }

    /// The position-free part of the instance's transform, its pose and skin.
    fn placed(&mut self, t: u32) -> Option<(Linear, Pose, u32)> {
        let skin = self.skin_index(t)?;
        let pose = self.pose(t);
        if !self.cfg.geometry_cache {
            let s = &self.img.skins[skin as usize];
            let lin = Linear::new(pose.direction, pose.scale, s.size, s.rotation_center);
            return Some((lin, pose, skin));
        }
        Some((self.linear(t, &pose, skin), pose, skin))
    }

    /// The position-free part of the transform for `pose` (cached). Its rotation comes from
    /// the sine and cosine of the move angle, which the memo usually holds from the move
    /// that changed the pose ([`rotation_from_move`]; exact, else the full evaluation).
    fn linear(&mut self, t: u32, pose: &Pose, skin: u32) -> Linear {
        let key = PoseKey::linear(pose, skin);
        let cache = &self.insts[t as usize].draw;
        if let (Some(lin), true) = (cache.lin, cache.lin_key == Some(key)) {
            return lin;
        }
        let sc = self.sin_cos(move_angle(pose.direction));
        let rotation = rotation_from_move(pose.direction, sc)
            .unwrap_or_else(|| crate::scratch::geom::transform::rotation(pose.direction));
        let s = &self.img.skins[skin as usize];
        let lin = Linear::rotated(rotation, pose.scale, s.size, s.rotation_center);
        let cache = &mut self.insts[t as usize].draw;
        cache.lin_key = Some(key);
        cache.lin = Some(lin);
        cache.extremes = None;
        lin
    }

    /// Asks a costume's skin for the texture at `scale` (percent): an SVG skin makes that
    /// MIP level (`crate::scratch::geom::mip::mip_index`, the renderer's rule) and, when it
    /// is the largest so far, takes its silhouette from it.
    pub(crate) fn request_mip(&mut self, t: u32, scale: [f64; 2]) {
        // Levels only rise: asking again for the costume and scale this instance asked for
        // last changes nothing.
        let i = &self.insts[t as usize];
        let key = (i.sprite, i.costume, scale.map(f64::to_bits));
        if self.cfg.geometry_cache && i.draw.mip_key == Some(key) {
            return;
        }
        self.insts[t as usize].draw.mip_key = Some(key);
        let Some(skin) = self.skin_index(t) else { return };
        let Some(level) = mip_index(&self.img.skins[skin as usize], scale) else { return };
        let i = &self.insts[t as usize];
        let (sprite, costume) = (i.sprite as usize, i.costume as usize);
        if let Some(cur) = self.sil.get_mut(sprite).and_then(|v| v.get_mut(costume)) {
            let want = (level + 1).min(usize::from(u8::MAX)) as u8;
            if want > *cur {
                *cur = want;
                self.render_changed();
            }
        }
    }

    /// The silhouette bitmap of an instance's costume (the largest MIP requested so far).
    pub(crate) fn silhouette(&self, t: u32) -> Option<(&Skin, &SkinBitmap)> {
        let skin = &self.img.skins[self.skin_index(t)? as usize];
        let i = &self.insts[t as usize];
        let level = *self.sil.get(i.sprite as usize)?.get(i.costume as usize)?;
        let bitmap = skin.levels.get(usize::from(level.checked_sub(1)?))?;
        Some((skin, bitmap))
    }

    /// `updateCPURenderAttributes`: the transform, the silhouette level for the pose and the
    /// sampling mode. (A pixelate effect also reads the skin's uniforms, which makes its 1×
    /// level: `EffectTransform.transformPoint`.)
    fn update_cpu(&mut self, t: u32) -> Option<Probe> {
        let pose = self.pose(t);
        let xf = self.transform(t)?;
        self.request_mip(t, pose.scale);
        let effects = Effects::from_values(&self.insts[t as usize].effects);
        if effects.bits & PIXELATE != 0 {
            self.request_mip_at_100(t);
        }
        let skin = &self.img.skins[self.skin_index(t)? as usize];
        let nearest = use_nearest(skin, &pose, &effects);
        Some(Probe { t, xf, effects, nearest, size: skin.size })
    }

    /// `drawable.isTouching(point)` after [`Vm::update_cpu`].
    fn touches_point(&self, probe: &Probe, p: [f64; 2]) -> bool {
        let Some((_, bitmap)) = self.silhouette(probe.t) else { return false };
        let local = local_position(probe, p);
        if probe.nearest {
            touching_nearest(bitmap, local)
        } else {
            touching_linear(bitmap, local)
        }
    }

    /// A shape effect (fisheye, whirl, pixelate, mosaic) was set, or all effects cleared:
    /// `Drawable.updateEffect` marks the convex hull dirty, so bounds are recomputed when next
    /// asked and the fast bounds fall back to the model box until then.
    pub(crate) fn shape_effect_set(&mut self, t: u32) {
        if let Some(i) = self.insts.get_mut(t as usize) {
            if !i.draw.hull_dirty {
                i.draw.set_hull_dirty();
                self.render_changed();
            }
        }
    }

    /// Recomputes the hull when the costume or visibility changed since it was made.
    fn ensure_hull(&mut self, t: u32) {
        let Some(skin) = self.skin_index(t) else { return };
        let i = &self.insts[t as usize];
        let key = (i.costume, i.visible);
        if i.draw.hull_key == Some(key) && !i.draw.hull_dirty && !i.draw.hull.is_empty() {
            return;
        }
        let mut points = core::mem::take(&mut self.insts[t as usize].draw.hull);
        let mut work = core::mem::take(&mut self.touch.hull);
        points.clear();
        let s = &self.img.skins[skin as usize];
        let size = s.size;
        let mut reach: f64 = 0.5;
        if self.insts[t as usize].visible && size[0] != 0.0 && size[1] != 0.0 {
            if let Some(probe) = self.update_cpu(t) {
                if let Some((_, bitmap)) = self.silhouette(t) {
                    let effect = |p| probe.effects.transform_point_cpu(p, size);
                    hull(bitmap, size, effect, &mut work, &mut points);
                    for p in &mut points {
                        *p = unit_point(*p, size);
                    }
                    reach = points
                        .iter()
                        .fold(reach, |r, v| r.max(libm::fabs(v[0])).max(libm::fabs(v[1])));
                }
            }
        }
        self.touch.hull = work;
        let cache = &mut self.insts[t as usize].draw;
        // A different hull (or key, or a dirty mark cleared) changes the fast bounds other
        // queries see; remaking the same one, bit for bit (an empty hull is remade on every
        // request), changes nothing.
        let same = |a: &[f64; 2], b: &[f64; 2]| a.map(f64::to_bits) == b.map(f64::to_bits);
        let changed = cache.hull.len() != points.len()
            || !cache.hull.iter().zip(&points).all(|(a, b)| same(a, b))
            || cache.hull_key != Some(key)
            || cache.hull_dirty
            || cache.hull_reach.to_bits() != reach.to_bits();
        cache.hull = points;
        cache.hull_reach = reach;
        cache.hull_key = Some(key);
        cache.hull_dirty = false;
        cache.bounds_key = None;
        cache.extremes = None;
        if changed {
            self.render_changed();
        }
    }

    /// The bounds of the transformed hull, or the model box when there is no hull.
    fn hull_bounds(&mut self, t: u32) -> Option<Rect> {
        let (lin, pose, skin) = self.placed(t)?;
        let i = &self.insts[t as usize];
        if i.draw.hull.is_empty() {
            return Some(lin.aabb_at(pose.position));
        }
        if !self.cfg.geometry_cache {
            let xf = lin.at(pose.position);
            return Some(Rect::from_points(i.draw.hull.iter().map(|&v| xf.hull_point(v))));
        }
        let key = Some(PoseKey::new(&pose, skin));
        if i.draw.bounds_key == key {
            return i.draw.bounds;
        }
        let m = lin.translation(pose.position);
        let r = self.shifted_extremes(t, &lin, m).unwrap_or_else(|| {
            let xf = lin.at(pose.position);
            let hull = &self.insts[t as usize].draw.hull;
            Rect::from_points(hull.iter().map(|&v| xf.hull_point(v)))
        });
        let cache = &mut self.insts[t as usize].draw;
        cache.bounds_key = key;
        cache.bounds = Some(r);
        Some(r)
    }

    /// The hull bounds from the cached extremes plus the translation `[m12, m13]`: every hull
    /// point is `f32r(offset + m12)` (and `m13` for y), which never decreases as `offset`
    /// grows, so the smallest and largest points are those of the smallest and largest
    /// offsets: the same values as [`Rect::from_points`] over every point. `None` (compute
    /// point by point) where a value is not finite or zero (whose sign would depend on the
    /// points' order).
    fn shifted_extremes(&mut self, t: u32, lin: &Linear, [m12, m13]: [f64; 2]) -> Option<Rect> {
        let draw = &self.insts[t as usize].draw;
        let e = match draw.extremes {
            Some(e) => e,
            None => {
                let mut e = [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY];
                for &v in &draw.hull {
                    let [x, y] = lin.hull_offset(v);
                    e = [e[0].min(x), e[1].max(x), e[2].min(y), e[3].max(y)];
                }
                self.insts[t as usize].draw.extremes = Some(e);
                e
            }
        };
        let r = Rect {
            left: f32r(e[0] + m12),
            right: f32r(e[1] + m12),
            bottom: f32r(e[2] + m13),
            top: f32r(e[3] + m13),
        };
        let ok = |v: f64| v.is_finite() && v != 0.0;
        (ok(r.left) && ok(r.right) && ok(r.bottom) && ok(r.top)).then_some(r)
    }

    /// Whether the instance is certainly clear of the box `±limit` around the stage centre
    /// whatever its direction ([`reach::clear`]): fencing it at `at` changes nothing
    /// (`shape` false: entries 12 and 13 of its transform are compared, and the model box's
    /// right edge is never left of entry 12, and so on), or its bounds touch no stage edge
    /// (`shape` true, `at` its position: the hull or the model box). `false` (compute it)
    /// when the caches are off or there is no skin. The exact computation gives the same
    /// answer whenever this says true.
    fn clear_of_edges(&mut self, t: u32, at: [f64; 2], limit: [f64; 2], shape: bool) -> bool {
        if !self.cfg.geometry_cache {
            return false;
        }
        let i = &self.insts[t as usize];
        let key = (i.sprite, i.costume, i.size.to_bits());
        let parts = match i.draw.reach {
            Some((k, parts)) if k == key => parts,
            _ => {
                let Some(skin) = self.skin_index(t) else { return false };
                let s = &self.img.skins[skin as usize];
                let parts = reach::Reach::new(s.size, s.rotation_center, i.size);
                self.insts[t as usize].draw.reach = Some((key, parts));
                parts
            }
        };
        let i = &self.insts[t as usize];
        let r = parts.of(shape.then_some(i.draw.hull_reach));
        reach::clear([i.x, i.y], at, r, limit)
    }

    /// `renderer.getBounds`: computes the hull if needed.
    pub(crate) fn bounds(&mut self, t: u32) -> Option<Rect> {
        self.ensure_hull(t);
        self.hull_bounds(t)
    }

    /// [`Vm::bounds`] for the edge tests (`if on edge, bounce`, `touching edge`), or `None`
    /// without computing them when they certainly touch no stage edge
    /// ([`Vm::clear_of_edges`]): both tests then do nothing, as with the bounds.
    pub(crate) fn edge_bounds(&mut self, t: u32) -> Option<Rect> {
        self.ensure_hull(t);
        let i = &self.insts[t as usize];
        if self.clear_of_edges(t, [i.x, i.y], [STAGE_WIDTH / 2.0, STAGE_HEIGHT / 2.0], true) {
            return None;
        }
        self.hull_bounds(t)
    }

    /// `getFastBounds`: the hull's bounds when a current hull exists, else the model box.
    pub(crate) fn fast_bounds(&mut self, t: u32) -> Option<Rect> {
        let i = &self.insts[t as usize];
        let current = i.draw.hull_key == Some((i.costume, i.visible)) && !i.draw.hull_dirty;
        if current && !i.draw.hull.is_empty() {
            self.hull_bounds(t)
        } else {
            let (lin, pose, _) = self.placed(t)?;
            Some(lin.aabb_at(pose.position))
        }
    }

    /// `getFencedPositionOfDrawable`: where `x`, `y` ends up when kept on the stage.
    pub(crate) fn fenced_position(&mut self, t: u32, x: f64, y: f64) -> (f64, f64) {
        // The fence is at least 225 by 165 from the centre (FENCE_WIDTH 15), and the box's
        // right edge is never left of entry 12 (likewise for the others).
        if self.clear_of_edges(t, [x, y], [225.0, 165.0], false) {
            return (x, y);
        }
        let Some((lin, pose, _)) = self.placed(t) else { return (x, y) };
        let [p0, p1] = pose.position;
        let (dx, dy) = (x - p0, y - p1);
        let aabb = lin.aabb_at(pose.position);
        // `Math.min`: a NaN side (an `undefined` coordinate) makes the inset NaN, and then
        // neither coordinate is fenced.
        let inset = libm::floor(js_min(aabb.width(), aabb.height()) / 2.0);
        let (mut nx, mut ny) = (x, y);
        let sx = STAGE_WIDTH / 2.0 - js_min(FENCE_WIDTH, inset);
        if aabb.right + dx < -sx {
            nx = libm::ceil(p0 - (sx + aabb.right));
        } else if aabb.left + dx > sx {
            nx = libm::floor(p0 + (sx - aabb.left));
        }
        let sy = STAGE_HEIGHT / 2.0 - js_min(FENCE_WIDTH, inset);
        if aabb.top + dy < -sy {
            ny = libm::ceil(p1 - (sy + aabb.top));
        } else if aabb.bottom + dy > sy {
            ny = libm::floor(p1 + (sy - aabb.bottom));
        }
        (nx, ny)
    }

    /// `RenderedTarget.keepInFence` against the stage.
    pub(crate) fn keep_in_fence(&mut self, t: u32, x: f64, y: f64) -> (f64, f64) {
        let Some(mut b) = self.bounds(t) else { return (x, y) };
        let i = &self.insts[t as usize];
        let (ox, oy) = (x - i.x, y - i.y);
        b.left += ox;
        b.right += ox;
        b.top += oy;
        b.bottom += oy;
        let (hw, hh) = (STAGE_WIDTH / 2.0, STAGE_HEIGHT / 2.0);
        let (mut dx, mut dy) = (0.0, 0.0);
        if b.left < -hw {
            dx += -hw - b.left;
        }
        if b.right > hw {
            dx += hw - b.right;
        }
        if b.top > hh {
            dy += hh - b.top;
        }
        if b.bottom < -hh {
            dy += -hh - b.bottom;
        }
        (x + dx, y + dy)
    }

    /// `RenderedTarget.isTouchingEdge`.
    pub(crate) fn touching_edge(&mut self, t: u32) -> bool {
        let Some(b) = self.edge_bounds(t) else { return false };
        let (hw, hh) = (STAGE_WIDTH / 2.0, STAGE_HEIGHT / 2.0);
        b.left < -hw || b.right > hw || b.top > hh || b.bottom < -hh
    }

    /// `renderer.drawableTouching` at a client point (a 1×1 touch).
    pub(crate) fn touching_client_point(&mut self, t: u32, cx: f64, cy: f64) -> bool {
        let Some(probe) = self.update_cpu(t) else { return false };
        let p = [libm::floor(-STAGE_WIDTH / 2.0 + cx), libm::ceil(STAGE_HEIGHT / 2.0 - cy)];
        self.touches_point(&probe, p)
    }

    /// `renderer.isTouchingDrawables(t, candidates)`: pixel-exact on the silhouettes.
    pub(crate) fn touching_instances(&mut self, t: u32, candidates: &[u32]) -> bool {
        // _touchingBounds: the querying skin is asked for its 1× texture first.
        if self.skin_index(t).is_none() {
            return false;
        }
        self.request_mip_at_100(t);
        let Some(mut bounds) = self.fast_bounds(t) else { return false };
        let (hw, hh) = (STAGE_WIDTH / 2.0, STAGE_HEIGHT / 2.0);
        bounds.clamp(-hw, hw, -hh, hh);
        bounds.snap_to_int();
        if bounds.width() == 0.0 || bounds.height() == 0.0 {
            return false;
        }
        let mut hits = core::mem::take(&mut self.touch.hits);
        hits.clear();
        for &c in candidates.iter().rev() {
            if c == t || !self.insts[c as usize].visible || self.skin_index(c).is_none() {
                continue;
            }
            let Some(probe) = self.update_cpu(c) else { continue };
            let Some(mut cb) = self.fast_bounds(c) else { continue };
            cb.snap_to_int();
            if bounds.intersects(&cb) {
                hits.push((probe, Rect::intersect(&bounds, &cb)));
            }
        }
        let hit = self.scan_touching(t, &hits);
        self.touch.hits = hits;
        hit
    }

    /// The pixel scan of `isTouchingDrawables` over the union of the candidates'
    /// intersections: a point counts where `t` and some candidate both touch it.
    fn scan_touching(&mut self, t: u32, hits: &[(Probe, Rect)]) -> bool {
        let Some(first) = hits.first() else { return false };
        if !self.insts[t as usize].visible {
            return false;
        }
        let area = hits[1..].iter().fold(first.1, |a, h| Rect::union(&a, &h.1));
        let Some(me) = self.update_cpu(t) else { return false };
        let mut x = area.left;
        while x <= area.right {
            let mut y = area.bottom;
            while y <= area.top {
                if self.touches_point(&me, [x, y])
                    && hits.iter().any(|(c, _)| self.touches_point(c, [x, y]))
                {
                    return true;
                }
                y += 1.0;
            }
            x += 1.0;
        }
        false
    }

    fn request_mip_at_100(&mut self, t: u32) {
        self.request_mip(t, [100.0, 100.0]);
    }

    /// `touching <sprite>?`: the sprite's original and clones, except one being dragged (it
    /// can touch others but cannot be touched while dragged).
    pub(crate) fn touching_sprite(&mut self, t: u32, name: &str) -> bool {
        let Some(first) = self.sprite_by_name(name) else { return false };
        let sprite = self.insts[first as usize].sprite;
        self.memo_touch(t, Query::Sprite(sprite), |vm| {
            let mut candidates = core::mem::take(&mut vm.scratch_ids);
            candidates.clear();
            candidates.extend(vm.exec.iter().copied().filter(|&c| {
                let i = &vm.insts[c as usize];
                i.alive && i.sprite == sprite && !i.dragging
            }));
            let hit = vm.touching_instances(t, &candidates);
            vm.scratch_ids = candidates;
            hit
        })
    }

    /// `renderer.pick` at a client point: the topmost visible, not fully ghosted sprite whose
    /// silhouette covers the point, else the stage.
    pub(crate) fn pick(&mut self, cx: f64, cy: f64) -> u32 {
        let p = [libm::floor(-STAGE_WIDTH / 2.0 + cx), libm::ceil(STAGE_HEIGHT / 2.0 - cy)];
        let point = Rect { left: p[0], right: p[0], bottom: p[1], top: p[1] };
        let mut hit = self.stage;
        let mut candidates = core::mem::take(&mut self.touch.picks);
        candidates.clear();
        for k in 0..self.exec.len() {
            let c = self.exec[k];
            let i = &self.insts[c as usize];
            if c == self.stage || !i.alive || !i.visible || 1.0 - i.effects[GHOST] / 100.0 == 0.0 {
                continue;
            }
            let Some(b) = self.fast_bounds(c) else { continue };
            if !point.intersects(&b) {
                continue;
            }
            if let Some(probe) = self.update_cpu(c) {
                candidates.push(probe);
            }
        }
        if let Some(probe) = candidates.iter().rev().find(|c| self.touches_point(c, p)) {
            hit = probe.t;
        }
        self.touch.picks = candidates;
        hit
    }

    /// After a visible change (`EVENT_TARGET_VISUAL_CHANGE`): a target showing a speech
    /// bubble has it repositioned, which asks for its bounds (and so computes its hull).
    pub(crate) fn visual_change(&mut self, t: u32) {
        if !self.renders() {
            return;
        }
        let i = &self.insts[t as usize];
        if i.visible && i.bubble.as_ref().is_some_and(|b| !b.text.is_empty()) {
            self.ensure_hull(t);
        }
    }

    /// `RenderedTarget.isTouchingObject`: `_mouse_`, `_edge_` or a sprite name.
    pub(crate) fn touching_object(&mut self, t: u32, what: &Value) -> bool {
        if !self.renders() || t == self.stage {
            return false;
        }
        let name = to_str_value(what);
        match &*name {
            "_mouse_" => {
                if matches!(self.io.mouse_x, Value::Undefined) {
                    return false;
                }
                self.memo_touch(t, Query::Mouse, |vm| {
                    let (cx, cy) = vm.io.client;
                    vm.touching_client_point(t, cx, cy)
                })
            }
            "_edge_" => self.memo_touch(t, Query::Edge, |vm| vm.touching_edge(t)),
            other => self.touching_sprite(t, other),
        }
    }

    /// `renderer.draw()` at the end of a frame: every visible sprite asks for its texture at
    /// its scale (which can raise an SVG costume's silhouette level).
    pub(crate) fn draw_frame(&mut self) {
        if !self.renders() {
            return;
        }
        for k in 0..self.exec.len() {
            let t = self.exec[k];
            let i = &self.insts[t as usize];
            if t != self.stage && i.alive && i.visible {
                let (_, [s0, s1]) = rendered_direction_scale(i, false);
                self.request_mip(t, [f32r(s0), f32r(s1)]);
            }
        }
    }
}
