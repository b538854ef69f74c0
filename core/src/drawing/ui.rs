//! The drawing app's UI model: canvas placement on screen, tool, colour and size buttons, read
//! from a UI-config JSON (the layout of DrawingBench's `docs/UI_CONFIG.json`) or built by
//! [`UiConfig::drawingbench_default`]. Coordinates here are SCREEN coordinates; the canvas
//! origin is at (`offset_x`, `offset_y`). Hit-test rules live with the evaluator, not here.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::pyjson::{self, PyValue};

/// A number from a config or task file, remembering whether Python saw an int or a float
/// (which decides how messages print it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num {
    /// The value.
    pub v: f64,
    /// Whether it was an int (or bool) in the JSON.
    pub int: bool,
}

impl Num {
    /// An int-valued number.
    pub const fn int(v: i64) -> Num {
        Num { v: v as f64, int: true }
    }

    /// Python's `type(n).__name__`.
    pub fn type_name(self) -> &'static str {
        if self.int {
            "int"
        } else {
            "float"
        }
    }

    /// Reads a JSON number (`true`/`false` count as 1/0, as in Python).
    pub fn from_py(v: &PyValue) -> Option<Num> {
        match v {
            PyValue::Int(i) => Some(Num { v: *i as f64, int: true }),
            PyValue::BigInt(b) => Some(Num { v: b.approx, int: true }),
            PyValue::Bool(b) => Some(Num { v: f64::from(u8::from(*b)), int: true }),
            PyValue::Float(f) => Some(Num { v: *f, int: false }),
            _ => None,
        }
    }
}

impl fmt::Display for Num {
    /// Python's `str()` of the number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.int && self.v.abs() < 9.007_199_254_740_992e15 {
            write!(f, "{}", self.v as i64)
        } else {
            f.write_str(&super::pyfmt::float_repr(self.v))
        }
    }
}

/// A tool button.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolButton {
    /// Config key, which is also the tool's name in task criteria (`pen`, `eraser`, …).
    pub key: String,
    /// Centre x on screen.
    pub x: Num,
    /// Centre y on screen.
    pub y: Num,
}

/// A colour button.
#[derive(Debug, Clone, PartialEq)]
pub struct ColorButton {
    /// Config key (`black`, `red`, …).
    pub key: String,
    /// Centre x on screen.
    pub x: Num,
    /// Centre y on screen.
    pub y: Num,
    /// `#RRGGBB`, as tasks spell required colours.
    pub hex: String,
    /// Display name (`Black`, `Red`, …).
    pub name: String,
}

/// A brush-size button.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeButton {
    /// Config key (`small`, …).
    pub key: String,
    /// Centre x on screen.
    pub x: Num,
    /// Centre y on screen.
    pub y: Num,
    /// Line width in pixels.
    pub value: f64,
}

/// The whole UI layout, buttons in config order (the evaluator's hit tests take the first match).
#[derive(Debug, Clone, PartialEq)]
pub struct UiConfig {
    /// Canvas width in pixels.
    pub width: Num,
    /// Canvas height in pixels.
    pub height: Num,
    /// Screen x of the canvas's left edge.
    pub offset_x: Num,
    /// Screen y of the canvas's top edge.
    pub offset_y: Num,
    /// Tool buttons.
    pub tools: Vec<ToolButton>,
    /// Colour buttons.
    pub colors: Vec<ColorButton>,
    /// Size buttons.
    pub sizes: Vec<SizeButton>,
    /// `tolerance` (loaded, unused by the reference evaluator).
    pub tolerance: Num,
}

/// Why a UI config could not be read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum UiConfigError {
    /// The text is not JSON.
    Json(pyjson::JsonError),
    /// A field is missing or has the wrong type; `path` is a JSON path such as `tools.pen.x`.
    Field {
        /// Where.
        path: String,
        /// What was expected there.
        expected: &'static str,
    },
}

impl fmt::Display for UiConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UiConfigError::Json(e) => write!(f, "UI config: {e}"),
            UiConfigError::Field { path, expected } => {
                write!(f, "UI config: `{path}` must be {expected}")
            }
        }
    }
}

impl core::error::Error for UiConfigError {}

fn field_err(path: &[&str], expected: &'static str) -> UiConfigError {
    UiConfigError::Field { path: path.join("."), expected }
}

fn num_at(v: &PyValue, path: &[&str]) -> Result<Num, UiConfigError> {
    let mut cur = v;
    for key in path {
        cur = cur.get(key).ok_or_else(|| field_err(path, "present"))?;
    }
    Num::from_py(cur).ok_or_else(|| field_err(path, "a number"))
}

fn str_at(v: &PyValue, path: &[&str]) -> Result<String, UiConfigError> {
    let mut cur = v;
    for key in path {
        cur = cur.get(key).ok_or_else(|| field_err(path, "present"))?;
    }
    match cur {
        PyValue::Str(s) => Ok(s.clone()),
        _ => Err(field_err(path, "a string")),
    }
}

fn entries<'v>(v: &'v PyValue, key: &str) -> Result<&'v [(String, PyValue)], UiConfigError> {
    match v.get(key) {
        Some(PyValue::Dict(items)) => Ok(items),
        None => Ok(&[]),
        Some(_) => Err(field_err(&[key], "an object")),
    }
}

impl UiConfig {
    /// Reads a UI config from JSON text.
    pub fn from_json(text: &str) -> Result<UiConfig, UiConfigError> {
        let root = pyjson::parse(text).map_err(UiConfigError::Json)?;
        UiConfig::from_value(&root)
    }

    /// Reads a UI config from a parsed JSON value.
    pub fn from_value(root: &PyValue) -> Result<UiConfig, UiConfigError> {
        let mut tools = Vec::new();
        for (key, t) in entries(root, "tools")? {
            let k = key.as_str();
            tools.push(ToolButton {
                key: key.clone(),
                x: num_at(t, &["x"]).map_err(|_| field_err(&["tools", k, "x"], "a number"))?,
                y: num_at(t, &["y"]).map_err(|_| field_err(&["tools", k, "y"], "a number"))?,
            });
        }
        let mut colors = Vec::new();
        for (key, c) in entries(root, "colors")? {
            let k = key.as_str();
            let num = |f: &'static str| {
                num_at(c, &[f]).map_err(|_| field_err(&["colors", k, f], "a number"))
            };
            let text = |f: &'static str| {
                str_at(c, &[f]).map_err(|_| field_err(&["colors", k, f], "a string"))
            };
            colors.push(ColorButton {
                key: key.clone(),
                x: num("x")?,
                y: num("y")?,
                hex: text("hex")?,
                name: text("name")?,
            });
        }
        let mut sizes = Vec::new();
        for (key, s) in entries(root, "sizes")? {
            let k = key.as_str();
            let num = |f: &'static str| {
                num_at(s, &[f]).map_err(|_| field_err(&["sizes", k, f], "a number"))
            };
            sizes.push(SizeButton {
                key: key.clone(),
                x: num("x")?,
                y: num("y")?,
                value: num("value")?.v,
            });
        }
        Ok(UiConfig {
            width: num_at(root, &["canvas", "width"])?,
            height: num_at(root, &["canvas", "height"])?,
            offset_x: num_at(root, &["canvas", "offset_x"])?,
            offset_y: num_at(root, &["canvas", "offset_y"])?,
            tools,
            colors,
            sizes,
            tolerance: num_at(root, &["tolerance"]).unwrap_or(Num::int(12)),
        })
    }

    /// The layout DrawingBench's published evaluator uses: a 1000×700 canvas at (90, 70), six
    /// tools in a column at x = 35, eight colours in a row at y = 25 with a 24 px pitch, three
    /// sizes (2, 5, 10 px).
    pub fn drawingbench_default() -> UiConfig {
        let tool =
            |key: &str, y: i64| ToolButton { key: key.into(), x: Num::int(35), y: Num::int(y) };
        let color = |key: &str, k: i64, hex: &str, name: &str| ColorButton {
            key: key.into(),
            x: Num::int(405 + 24 * k),
            y: Num::int(25),
            hex: hex.into(),
            name: name.into(),
        };
        let size = |key: &str, y: i64, value: f64| SizeButton {
            key: key.into(),
            x: Num::int(35),
            y: Num::int(y),
            value,
        };
        UiConfig {
            width: Num::int(1000),
            height: Num::int(700),
            offset_x: Num::int(90),
            offset_y: Num::int(70),
            tools: alloc::vec![
                tool("pen", 45),
                tool("eraser", 125),
                tool("fill", 205),
                tool("line", 285),
                tool("rectangle", 365),
                tool("circle", 445),
            ],
            colors: alloc::vec![
                color("black", 0, "#000000", "Black"),
                color("red", 1, "#FF0000", "Red"),
                color("green", 2, "#00FF00", "Green"),
                color("blue", 3, "#0000FF", "Blue"),
                color("yellow", 4, "#FFFF00", "Yellow"),
                color("magenta", 5, "#FF00FF", "Magenta"),
                color("cyan", 6, "#00FFFF", "Cyan"),
                color("white", 7, "#FFFFFF", "White"),
            ],
            sizes: alloc::vec![
                size("small", 525, 2.0),
                size("medium", 605, 5.0),
                size("large", 685, 10.0)
            ],
            tolerance: Num::int(12),
        }
    }

    /// The tool button named `key`.
    pub fn tool(&self, key: &str) -> Option<&ToolButton> {
        self.tools.iter().find(|t| t.key == key)
    }

    /// The display name of a colour hex, if a button has it.
    pub fn color_name(&self, hex: &str) -> Option<&str> {
        self.colors.iter().find(|c| c.hex == hex).map(|c| c.name.as_str())
    }
}
