//! The task model as the loader produces it: grid of tiles, items, target lines, turtle, goal
//! (objectives over CNF specs) and code constraints. Pure data; the emulator reads the
//! precomputed [`crate::xlogo::World`] built from it.

use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{BlockKind, PenColor};

/// A heading: 0 = North (towards y-1, up), 1 = East (x+1), 2 = South (y+1), 3 = West (x-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Dir {
    /// The heading with the given index modulo 4.
    pub fn from_index(i: u8) -> Dir {
        match i & 3 {
            0 => Dir::North,
            1 => Dir::East,
            2 => Dir::South,
            _ => Dir::West,
        }
    }

    /// 0..=3 as in the task JSON.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// Counter-clockwise quarter turn (`lt`).
    pub fn left(self) -> Dir {
        Dir::from_index(self.index().wrapping_add(3))
    }

    /// Clockwise quarter turn (`rt`).
    pub fn right(self) -> Dir {
        Dir::from_index(self.index().wrapping_add(1))
    }

    /// The opposite heading (the direction `bk` moves in).
    pub fn back(self) -> Dir {
        Dir::from_index(self.index().wrapping_add(2))
    }

    /// (dx, dy) of one step; y grows downwards.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }

    /// Lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
}

/// The turtle's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turtle {
    /// Column, 0 = leftmost.
    pub x: i32,
    /// Row, 0 = top.
    pub y: i32,
    /// Heading.
    pub dir: Dir,
}

/// Walls on the four sides of a cell, as bits (`Walls::TOP` ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Walls(pub u8);

impl Walls {
    /// Wall on the top (north) side.
    pub const TOP: u8 = 1;
    /// Wall on the right (east) side.
    pub const RIGHT: u8 = 2;
    /// Wall on the bottom (south) side.
    pub const BOTTOM: u8 = 4;
    /// Wall on the left (west) side.
    pub const LEFT: u8 = 8;

    /// The bit of the side a turtle leaves through when moving in `dir`.
    pub fn bit_for(dir: Dir) -> u8 {
        match dir {
            Dir::North => Walls::TOP,
            Dir::East => Walls::RIGHT,
            Dir::South => Walls::BOTTOM,
            Dir::West => Walls::LEFT,
        }
    }

    /// Whether the side faced when moving in `dir` has a wall.
    pub fn has(self, dir: Dir) -> bool {
        self.0 & Walls::bit_for(dir) != 0
    }
}

/// One cell of the bounding box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tile {
    /// Listed in the task JSON. Unlisted cells are `allowed=false, exist=false` without walls.
    pub listed: bool,
    /// `exist` flag (default true for listed tiles).
    pub exist: bool,
    /// `allowed` flag; false = forbidden area.
    pub allowed: bool,
    /// Walls declared on this cell.
    pub walls: Walls,
}

impl Tile {
    /// The cell the reference synthesises for a hole in the bounding box.
    pub const MISSING: Tile = Tile { listed: false, exist: false, allowed: false, walls: Walls(0) };
}

/// Item names the reference knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemName {
    Strawberry,
    Lemon,
    Triangle,
    Rectangle,
    Cross,
    Circle,
    /// A capital letter `A`..=`Z` (stored as its ASCII byte).
    Letter(u8),
}

impl ItemName {
    /// Parses a name as the reference spells it.
    pub fn parse(s: &str) -> Option<ItemName> {
        Some(match s {
            "strawberry" => ItemName::Strawberry,
            "lemon" => ItemName::Lemon,
            "triangle" => ItemName::Triangle,
            "rectangle" => ItemName::Rectangle,
            "cross" => ItemName::Cross,
            "circle" => ItemName::Circle,
            _ => match s.as_bytes() {
                [b] if b.is_ascii_uppercase() => ItemName::Letter(*b),
                _ => return None,
            },
        })
    }

    /// The name as the task JSON spells it.
    pub fn as_str(self) -> &'static str {
        const LETTERS: [&str; 26] = [
            "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q",
            "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
        ];
        match self {
            ItemName::Strawberry => "strawberry",
            ItemName::Lemon => "lemon",
            ItemName::Triangle => "triangle",
            ItemName::Rectangle => "rectangle",
            ItemName::Cross => "cross",
            ItemName::Circle => "circle",
            ItemName::Letter(b) => {
                LETTERS.get(usize::from(b.wrapping_sub(b'A'))).copied().unwrap_or("?")
            }
        }
    }
}

/// Item colours the reference knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemColor {
    Red,
    Blue,
    Yellow,
    Green,
    Black,
    Orange,
    Purple,
    Pink,
}

impl ItemColor {
    /// All eight, in a fixed order.
    pub const ALL: [ItemColor; 8] = [
        ItemColor::Red,
        ItemColor::Blue,
        ItemColor::Yellow,
        ItemColor::Green,
        ItemColor::Black,
        ItemColor::Orange,
        ItemColor::Purple,
        ItemColor::Pink,
    ];

    /// Parses a colour name.
    pub fn parse(s: &str) -> Option<ItemColor> {
        ItemColor::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The colour's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemColor::Red => "red",
            ItemColor::Blue => "blue",
            ItemColor::Yellow => "yellow",
            ItemColor::Green => "green",
            ItemColor::Black => "black",
            ItemColor::Orange => "orange",
            ItemColor::Purple => "purple",
            ItemColor::Pink => "pink",
        }
    }
}

/// An item on a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// What it is.
    pub name: ItemName,
    /// Its colour (`null` in the JSON is `None`).
    pub color: Option<ItemColor>,
    /// How many (1..=4).
    pub count: u8,
}

impl Item {
    /// Whether the reference's item model (its SMT item properties) admits this combination:
    /// strawberries are red with count 1..4, lemons yellow, triangles/rectangles/crosses red,
    /// green or blue, circles any of the eight colours, letters black; all but strawberries have
    /// count 1. For any other item the reference's goal check is unsatisfiable (or throws, for a
    /// `null` colour), so every item goal fails.
    pub fn is_consistent(&self) -> bool {
        use ItemColor::*;
        let Some(color) = self.color else { return false };
        let color_ok = match self.name {
            ItemName::Strawberry => color == Red,
            ItemName::Lemon => color == Yellow,
            ItemName::Triangle | ItemName::Rectangle | ItemName::Cross => {
                matches!(color, Red | Green | Blue)
            }
            ItemName::Circle => true,
            ItemName::Letter(_) => color == Black,
        };
        let count_ok = match self.name {
            ItemName::Strawberry => (1..=4).contains(&self.count),
            _ => self.count == 1,
        };
        color_ok && count_ok
    }
}

/// The colour of a target line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineColor {
    /// One of the six hex colours the pen can draw.
    Pen(PenColor),
    /// A colour given by name (`"red"`): the reference converts it to hex, which never equals a
    /// drawn colour, so such a line can never be matched.
    Unmatchable(String),
}

/// A target line (axis-aligned, endpoints at cell centres, possibly several cells long).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// First endpoint column.
    pub x1: i32,
    /// First endpoint row.
    pub y1: i32,
    /// Second endpoint column.
    pub x2: i32,
    /// Second endpoint row.
    pub y2: i32,
    /// Colour.
    pub color: LineColor,
}

/// What a literal tests about a cell's item. An empty cell has name `noname`, colour `nocolor`
/// and count 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Atom {
    /// The item has this name (`None` = `noname`, i.e. the cell is empty).
    Name(Option<ItemName>),
    /// The item has this colour (`None` = `nocolor`, i.e. the cell is empty).
    Color(Option<ItemColor>),
    /// The item count equals this (the reference throws on count literals; gobo evaluates them).
    Count(u32),
}

/// A possibly negated atom (`neg: 1`; the reference throws on negation, gobo evaluates NOT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Literal {
    /// The test.
    pub atom: Atom,
    /// Negated.
    pub neg: bool,
}

/// A CNF over a cell's item: clauses combined with AND, literals in a clause with OR.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Spec {
    /// The clauses.
    pub clauses: Vec<Vec<Literal>>,
}

/// Objective names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectiveKind {
    Find,
    FindOnly,
    Forbid,
    CollectAll,
    Sum,
    Concat,
    Draw,
}

impl ObjectiveKind {
    /// Parses an objective name.
    pub fn parse(s: &str) -> Option<ObjectiveKind> {
        Some(match s {
            "find" => ObjectiveKind::Find,
            "findonly" => ObjectiveKind::FindOnly,
            "forbid" => ObjectiveKind::Forbid,
            "collectall" => ObjectiveKind::CollectAll,
            "sum" => ObjectiveKind::Sum,
            "concat" => ObjectiveKind::Concat,
            "draw" => ObjectiveKind::Draw,
            _ => return None,
        })
    }

    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectiveKind::Find => "find",
            ObjectiveKind::FindOnly => "findonly",
            ObjectiveKind::Forbid => "forbid",
            ObjectiveKind::CollectAll => "collectall",
            ObjectiveKind::Sum => "sum",
            ObjectiveKind::Concat => "concat",
            ObjectiveKind::Draw => "draw",
        }
    }
}

/// One objective of the goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Objective {
    /// Which.
    pub kind: ObjectiveKind,
    /// Its specs (empty for `draw`: the target is `Task::lines`).
    pub specs: Vec<Spec>,
    /// `total_cnt` of a `sum`.
    pub total_cnt: Option<i64>,
}

/// The goal: objectives in document order. `null` in the JSON (synthetic draw tasks) loads as a
/// single `draw` objective.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Goal {
    /// The objectives.
    pub objectives: Vec<Objective>,
}

impl Goal {
    /// A `draw` objective anywhere makes every other objective irrelevant.
    pub fn is_draw(&self) -> bool {
        self.objectives.iter().any(|o| o.kind == ObjectiveKind::Draw)
    }
}

/// Code constraints, resolved to the block kinds the checker consults.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Constraints {
    /// `at_most` per [`BlockKind`] index (`All` included).
    pub at_most: [Option<i64>; BlockKind::COUNT],
    /// `exactly` per [`BlockKind`] index.
    pub exactly: [Option<i64>; BlockKind::COUNT],
    /// `start_by`: the block kind each leading statement must have (`None`: a name no block has),
    /// with the name as written.
    pub start_by: Vec<(Option<BlockKind>, String)>,
}

impl Constraints {
    /// No constraint at all.
    pub fn is_empty(&self) -> bool {
        self.at_most.iter().all(Option::is_none)
            && self.exactly.iter().all(Option::is_none)
            && self.start_by.is_empty()
    }
}

/// A loaded task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// `id`, if present (numbers are kept as their JSON text).
    pub id: Option<String>,
    /// Free-text description (not used for checking).
    pub description: String,
    /// Rows of the bounding box (`max(tile.y) + 1`).
    pub rows: i32,
    /// Columns of the bounding box (`max(tile.x) + 1`).
    pub cols: i32,
    /// Row-major cells, `rows * cols` of them.
    pub tiles: Vec<Tile>,
    /// Items (at most one per cell: a later item on the same cell replaces an earlier one).
    pub items: Vec<Item>,
    /// Target lines.
    pub lines: Vec<Line>,
    /// The turtle's start.
    pub turtle: Turtle,
    /// The goal.
    pub goal: Goal,
    /// The code constraints.
    pub constraints: Constraints,
}

impl Task {
    /// The tile at (x, y), if inside the bounding box.
    pub fn tile(&self, x: i32, y: i32) -> Option<&Tile> {
        if x < 0 || y < 0 || x >= self.cols || y >= self.rows {
            return None;
        }
        self.tiles.get((y * self.cols + x) as usize)
    }

    /// The item at (x, y), if any.
    pub fn item_at(&self, x: i32, y: i32) -> Option<&Item> {
        self.items.iter().rev().find(|i| i.x == x && i.y == y)
    }
}
