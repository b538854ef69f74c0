//! Stage geometry as scratch-render 2.2.84 computes it, as pure functions over skins: the
//! drawable transform (in `Float32Array` precision, as scratch-render stores it), rectangles,
//! silhouette sampling and the convex hull of a costume's opaque pixels. The VM keeps the
//! per-target state and caches (`crate::scratch::vm::drawable`); this module holds no state.
//! See `docs/stage-geometry.md` for what is exact and what is approximated.

pub mod mip;
pub mod reach;
pub mod rect;
pub mod silhouette;
pub mod transform;

pub use rect::Rect;
pub use transform::Transform;

/// Stage width in stage units.
pub const STAGE_WIDTH: f64 = 480.0;
/// Stage height in stage units.
pub const STAGE_HEIGHT: f64 = 360.0;
/// How far a sprite may be pushed out of the stage (scratch-render's `FENCE_WIDTH`).
pub const FENCE_WIDTH: f64 = 15.0;

/// A value rounded to `f32`, as stored in a `Float32Array`.
#[inline]
pub fn f32r(x: f64) -> f64 {
    x as f32 as f64
}
