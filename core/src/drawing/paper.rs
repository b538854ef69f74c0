//! Profile `paper`: the weighted sum the DrawingBench paper describes (tools .20, colours .20,
//! segments .15, coverage .10, position .15, size .10, syntax .05, bounds .05), with every
//! criterion measured on what the drawing app would draw ([`super::replay`]) and coverage on the
//! rendered canvas ([`super::raster`]). The task's `position_constraint`, `size_constraint` and
//! `corner_placement`, which the published evaluator ignores, are evaluated here. The exact
//! rules are in `docs/drawing.md` ("Profile paper").

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::actions::{Actions, Kind};
use super::raster::Canvas;
use super::replay::{replay, Op, Point};
use super::task::{Criteria, Half, PositionConstraint};
use super::ui::UiConfig;

/// The eight criteria with their weights, in the paper's order.
pub const WEIGHTS: [(&str, f64); 8] = [
    ("tools", 0.20),
    ("colors", 0.20),
    ("segments", 0.15),
    ("coverage", 0.10),
    ("position", 0.15),
    ("size", 0.10),
    ("syntax", 0.05),
    ("bounds", 0.05),
];

/// Something the app drew: a pen/eraser stroke, a dot, a shape or a fill.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drawn {
    /// The tool (`pen`, `eraser`, `fill`, `line`, `rectangle`, `circle`).
    pub tool: &'static str,
    /// RGB colour.
    pub rgb: [u8; 3],
    /// Bounding box in canvas coordinates: (min x, min y, max x, max y).
    pub bbox: (f64, f64, f64, f64),
}

impl Drawn {
    fn center(&self) -> Point {
        ((self.bbox.0 + self.bbox.2) / 2.0, (self.bbox.1 + self.bbox.3) / 2.0)
    }

    fn size(&self) -> (f64, f64) {
        (self.bbox.2 - self.bbox.0, self.bbox.3 - self.bbox.1)
    }
}

fn bbox_of(points: &[Point]) -> (f64, f64, f64, f64) {
    let mut b = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for &(x, y) in points {
        b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
    }
    b
}

/// Everything the replay draws, strokes merged, in drawing order.
pub fn drawn_objects(actions: &Actions, ui: &UiConfig) -> Vec<Drawn> {
    let mut out: Vec<Drawn> = Vec::new();
    let mut current_stroke: Option<(usize, usize)> = None; // (stroke id, index in out)
    replay(actions, ui, |_, op, pen| {
        let (tool, bbox) = match op {
            Op::Segment { from, to, stroke } => {
                let tool = if pen.erase { "eraser" } else { "pen" };
                if let Some((id, at)) = current_stroke {
                    if id == stroke {
                        if let Some(d) = out.get_mut(at) {
                            let b = bbox_of(&[from, to]);
                            d.bbox = (
                                d.bbox.0.min(b.0),
                                d.bbox.1.min(b.1),
                                d.bbox.2.max(b.2),
                                d.bbox.3.max(b.3),
                            );
                        }
                        return;
                    }
                }
                current_stroke = Some((stroke, out.len()));
                (tool, bbox_of(&[from, to]))
            }
            Op::Dot(p) => (if pen.erase { "eraser" } else { "pen" }, bbox_of(&[p])),
            Op::Line(a, b) => ("line", bbox_of(&[a, b])),
            Op::Rect(a, b) => ("rectangle", bbox_of(&[a, b])),
            Op::Circle(c, r) => ("circle", (c.0 - r, c.1 - r, c.0 + r, c.1 + r)),
            Op::Fill(p) => ("fill", bbox_of(&[p])),
        };
        out.push(Drawn { tool, rgb: pen.rgb, bbox });
    });
    out
}

/// The `paper` verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct PaperResult {
    /// Each criterion's value in [0, 1], in [`WEIGHTS`] order.
    pub values: [f64; 8],
    /// Which criteria had nothing to check (they score 1).
    pub not_applicable: [bool; 8],
    /// Σ weight × value, rounded to 3 places.
    pub score: f64,
    /// Number of drawn objects.
    pub objects: usize,
}

impl PaperResult {
    /// `{profile, score, criteria: {name: {weight, value, applicable}}, objects}`.
    pub fn to_json(&self) -> Value {
        let mut crit = Map::new();
        for (k, (name, weight)) in WEIGHTS.iter().enumerate() {
            let mut c = Map::new();
            c.insert("weight".into(), Value::from(*weight));
            c.insert("value".into(), Value::from(self.values.get(k).copied().unwrap_or(0.0)));
            c.insert(
                "applicable".into(),
                Value::from(!self.not_applicable.get(k).copied().unwrap_or(false)),
            );
            crit.insert(String::from(*name), Value::Object(c));
        }
        let mut m = Map::new();
        m.insert("profile".into(), Value::from("paper"));
        m.insert("score".into(), Value::from(self.score));
        m.insert("criteria".into(), Value::Object(crit));
        m.insert("objects".into(), Value::from(self.objects));
        Value::Object(m)
    }

    /// The verdict for input that is not an action list: every criterion 0.
    pub fn not_a_list() -> PaperResult {
        PaperResult { values: [0.0; 8], not_applicable: [false; 8], score: 0.0, objects: 0 }
    }
}

fn ratio(have: usize, want: usize) -> f64 {
    if want == 0 {
        1.0
    } else {
        (have as f64 / want as f64).min(1.0)
    }
}

/// Scores a parsed action list under the `paper` profile.
pub fn evaluate(actions: &Actions, c: &Criteria, ui: &UiConfig) -> PaperResult {
    let objects = drawn_objects(actions, ui);
    let (w, h) = (ui.width.v, ui.height.v);
    let mut values = [1.0f64; 8];
    let mut na = [false; 8];

    // Tools: distinct required tools that drew something.
    let mut tools: Vec<&str> = c.required_tools.iter().flatten().map(String::as_str).collect();
    tools.sort_unstable();
    tools.dedup();
    na[0] = tools.is_empty();
    values[0] =
        ratio(tools.iter().filter(|t| objects.iter().any(|o| o.tool == **t)).count(), tools.len());

    // Colours: distinct required colours (case-insensitive) some non-eraser object was drawn in.
    let mut colors: Vec<String> =
        c.required_colors.iter().flatten().map(|h| h.to_ascii_uppercase()).collect();
    colors.sort_unstable();
    colors.dedup();
    na[1] = colors.is_empty();
    let drew_in = |hex: &str| {
        let rgb = super::replay::hex_rgb(hex);
        objects.iter().any(|o| o.tool != "eraser" && o.rgb == rgb)
    };
    values[1] = ratio(colors.iter().filter(|h| h.len() == 7 && drew_in(h)).count(), colors.len());

    // Segments: drawn objects against min_segments.
    let min_seg = c.min_segments.map_or(0.0, |n| n.v);
    let has_seg = min_seg > 0.0;
    na[2] = !has_seg;
    values[2] = if min_seg > 0.0 { (objects.len() as f64 / min_seg).min(1.0) } else { 1.0 };

    // Coverage: 20×20 cells of the rendered canvas holding any non-white pixel.
    let min_cov = c.min_coverage.map_or(0.0, |n| n.v);
    let has_cov = min_cov > 0.0;
    na[3] = !has_cov;
    if min_cov > 0.0 {
        let canvas = Canvas::render(actions, ui);
        values[3] = (f64::from(covered_cells(&canvas)) / 400.0 / min_cov).min(1.0);
    }

    // Position: the constraint kinds present, averaged.
    let mut parts = Vec::new();
    if let Some(p) = &c.position {
        parts.push(position(p, &objects, ui));
    }
    if c.corner_placement {
        let corner = |o: &Drawn, right: bool, bottom: bool| {
            let (x, y) = o.center();
            (if right { x >= 0.75 * w } else { x < 0.25 * w })
                && (if bottom { y >= 0.75 * h } else { y < 0.25 * h })
        };
        let hit = [(false, false), (true, false), (false, true), (true, true)]
            .iter()
            .filter(|(r, b)| objects.iter().any(|o| corner(o, *r, *b)))
            .count();
        parts.push(hit as f64 / 4.0);
    }
    na[4] = parts.is_empty();
    if !parts.is_empty() {
        values[4] = parts.iter().sum::<f64>() / parts.len() as f64;
    }

    // Size: the best-matching object's bounding box.
    na[5] = c.size.is_none();
    if let Some(s) = c.size {
        let score = |o: &Drawn| {
            let (ow, oh) = o.size();
            let over = (libm::fabs(ow - s.width) - s.tolerance)
                .max(libm::fabs(oh - s.height) - s.tolerance);
            if over <= 0.0 {
                1.0
            } else {
                (1.0 - over / s.width.max(s.height).max(1.0)).max(0.0)
            }
        };
        values[5] = objects.iter().map(score).fold(0.0, f64::max);
    }

    // Syntax: well-formed actions; bounds: drawing points on the canvas.
    let list = &actions.list;
    let ok = list
        .iter()
        .filter(|a| {
            let coords_ok = [a.x, a.y].iter().flatten().all(|&v| actions.num(v).is_ok());
            let kind_ok =
                matches!(a.kind, Kind::MoveTo | Kind::Click | Kind::MouseDown | Kind::MouseUp);
            kind_ok && coords_ok && (a.kind != Kind::MoveTo || a.has_xy())
        })
        .count();
    na[6] = list.is_empty();
    values[6] = ratio(ok, list.len());
    let (inside, total) = drawing_points(actions, ui);
    na[7] = total == 0;
    values[7] = ratio(inside, total);

    let sum: f64 = WEIGHTS.iter().zip(values.iter()).map(|((_, wt), v)| wt * v).sum();
    PaperResult {
        values,
        not_applicable: na,
        score: super::pyfmt::round_python(sum, 3),
        objects: objects.len(),
    }
}

fn position(p: &PositionConstraint, objects: &[Drawn], ui: &UiConfig) -> f64 {
    let (w, h) = (ui.width.v, ui.height.v);
    match p {
        PositionConstraint::Half(half) => {
            let Some(first) = objects.first() else { return 0.0 };
            let (x, y) = first.center();
            let ok = match half {
                Half::Left => x < w / 2.0,
                Half::Right => x >= w / 2.0,
                Half::Above => y < h / 2.0,
                Half::Below => y >= h / 2.0,
            };
            if ok {
                1.0
            } else {
                0.0
            }
        }
        PositionConstraint::Box { x_min, x_max, y_min, y_max } => {
            if objects.is_empty() {
                return 0.0;
            }
            let (ox, oy) = (ui.offset_x.v, ui.offset_y.v);
            let inside = |o: &&Drawn| {
                let (a, b, c, d) = (o.bbox.0 + ox, o.bbox.1 + oy, o.bbox.2 + ox, o.bbox.3 + oy);
                x_min.is_none_or(|m| a >= m)
                    && y_min.is_none_or(|m| b >= m)
                    && x_max.is_none_or(|m| c <= m)
                    && y_max.is_none_or(|m| d <= m)
            };
            objects.iter().filter(inside).count() as f64 / objects.len() as f64
        }
    }
}

/// Cells of the 20×20 grid holding a pixel that is not opaque white.
pub fn covered_cells(canvas: &Canvas) -> u32 {
    let (w, h) = (canvas.width() as usize, canvas.height() as usize);
    let mut cells = [false; 400];
    for (i, px) in canvas.rgba().chunks_exact(4).enumerate() {
        if px != [255, 255, 255, 255] {
            let (x, y) = (i % w, i / w);
            let cell = (y * 20 / h).min(19) * 20 + (x * 20 / w).min(19);
            if let Some(c) = cells.get_mut(cell) {
                *c = true;
            }
        }
    }
    cells.iter().filter(|c| **c).count() as u32
}

/// (inside, total) over drawing points: mouseDown / mouseUp with coordinates and moveTo while
/// the mouse is down, inside the canvas `[ox, ox+w] × [oy, oy+h]`.
fn drawing_points(actions: &Actions, ui: &UiConfig) -> (usize, usize) {
    let (ox, oy, w, h) = (ui.offset_x.v, ui.offset_y.v, ui.width.v, ui.height.v);
    let (mut inside, mut total, mut down) = (0, 0, false);
    for a in &actions.list {
        let counts = match a.kind {
            Kind::MouseDown => {
                down = true;
                true
            }
            Kind::MouseUp => {
                down = false;
                true
            }
            Kind::MoveTo => down,
            _ => false,
        };
        if !counts {
            continue;
        }
        let (Some(x), Some(y)) = (a.x, a.y) else { continue };
        let (Ok(x), Ok(y)) = (actions.num(x), actions.num(y)) else { continue };
        total += 1;
        if x >= ox && x <= ox + w && y >= oy && y <= oy + h {
            inside += 1;
        }
    }
    (inside, total)
}
