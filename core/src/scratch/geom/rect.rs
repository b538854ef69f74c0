//! scratch-render's `Rectangle`: left/right/bottom/top in stage units (+y up).

use crate::clamp::{js_max, js_min};

/// An axis-aligned rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub left: f64,
    /// Right edge.
    pub right: f64,
    /// Bottom edge.
    pub bottom: f64,
    /// Top edge.
    pub top: f64,
}

impl Rect {
    /// The bounding box of points (`initFromPointsAABB`); empty input gives an inverted box.
    pub fn from_points(points: impl Iterator<Item = [f64; 2]>) -> Rect {
        let mut r = Rect {
            left: f64::INFINITY,
            right: f64::NEG_INFINITY,
            bottom: f64::INFINITY,
            top: f64::NEG_INFINITY,
        };
        for [x, y] in points {
            if x < r.left {
                r.left = x;
            }
            if x > r.right {
                r.right = x;
            }
            if y > r.top {
                r.top = y;
            }
            if y < r.bottom {
                r.bottom = y;
            }
        }
        r
    }

    /// Whether two rectangles overlap or touch.
    pub fn intersects(&self, o: &Rect) -> bool {
        self.left <= o.right && o.left <= self.right && self.top >= o.bottom && o.top >= self.bottom
    }

    /// Clamps into `left..right`, `bottom..top` (`Rectangle.clamp`, with `Math.max`/`Math.min`: NaN
    /// edges stay NaN).
    pub fn clamp(&mut self, left: f64, right: f64, bottom: f64, top: f64) {
        self.left = js_max(self.left, left);
        self.right = js_min(self.right, right);
        self.bottom = js_max(self.bottom, bottom);
        self.top = js_min(self.top, top);
        self.left = js_min(self.left, right);
        self.right = js_max(self.right, left);
        self.bottom = js_min(self.bottom, top);
        self.top = js_max(self.top, bottom);
    }

    /// Pushes the edges out to integers.
    pub fn snap_to_int(&mut self) {
        self.left = libm::floor(self.left);
        self.right = libm::ceil(self.right);
        self.bottom = libm::floor(self.bottom);
        self.top = libm::ceil(self.top);
    }

    /// The intersection of two rectangles.
    pub fn intersect(a: &Rect, b: &Rect) -> Rect {
        Rect {
            left: js_max(a.left, b.left),
            right: js_min(a.right, b.right),
            top: js_min(a.top, b.top),
            bottom: js_max(a.bottom, b.bottom),
        }
    }

    /// The union of two rectangles.
    pub fn union(a: &Rect, b: &Rect) -> Rect {
        Rect {
            left: js_min(a.left, b.left),
            right: js_max(a.right, b.right),
            top: js_max(a.top, b.top),
            bottom: js_min(a.bottom, b.bottom),
        }
    }

    /// Width (absolute).
    pub fn width(&self) -> f64 {
        libm::fabs(self.left - self.right)
    }

    /// Height (absolute).
    pub fn height(&self) -> f64 {
        libm::fabs(self.top - self.bottom)
    }
}
