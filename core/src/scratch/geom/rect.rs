//! scratch-render's `Rectangle`: left/right/bottom/top in stage units (+y up).

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

    /// Clamps into `left..right`, `bottom..top` (`Rectangle.clamp`).
    pub fn clamp(&mut self, left: f64, right: f64, bottom: f64, top: f64) {
        self.left = self.left.max(left);
        self.right = self.right.min(right);
        self.bottom = self.bottom.max(bottom);
        self.top = self.top.min(top);
        self.left = self.left.min(right);
        self.right = self.right.max(left);
        self.bottom = self.bottom.min(top);
        self.top = self.top.max(bottom);
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
            left: a.left.max(b.left),
            right: a.right.min(b.right),
            top: a.top.min(b.top),
            bottom: a.bottom.max(b.bottom),
        }
    }

    /// The union of two rectangles.
    pub fn union(a: &Rect, b: &Rect) -> Rect {
        Rect {
            left: a.left.min(b.left),
            right: a.right.max(b.right),
            top: a.top.max(b.top),
            bottom: a.bottom.min(b.bottom),
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
