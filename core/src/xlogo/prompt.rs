//! Prompts: a task rendered as text for a language model, in two styles. `Nl` describes the
//! world in sentences; `Ascii` draws it as a character grid with a legend. Both end with the
//! goal, the constraints and the Python-style API. (The benchmark's own prompt text is not
//! public; this format is gobo's, specified in `docs/xlogo.md`.)

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::ast::{BlockKind, PenColor};
use super::task::*;

/// Prompt style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptStyle {
    /// Natural-language description of every notable cell.
    Nl,
    /// A character grid with a legend.
    Ascii,
}

/// Renders the prompt for a task.
pub fn prompt(task: &Task, style: PromptStyle) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "You control a turtle on a grid of {} row(s) and {} column(s). A cell is written (x, y): x is the column (0 = leftmost), y is the row (0 = top).",
        task.rows, task.cols
    );
    let t = task.turtle;
    let _ = writeln!(
        out,
        "The turtle starts at ({}, {}) facing {}. North is up (y - 1), east is right (x + 1), south is down (y + 1), west is left (x - 1).",
        t.x, t.y, t.dir.name()
    );
    out.push('\n');
    match style {
        PromptStyle::Nl => describe_cells(task, &mut out),
        PromptStyle::Ascii => draw_grid(task, &mut out),
    }
    if task.goal.is_draw() {
        out.push('\n');
        match style {
            PromptStyle::Nl => describe_lines(task, &mut out),
            PromptStyle::Ascii => draw_picture(task, &mut out),
        }
    }
    out.push('\n');
    let _ = writeln!(out, "Goal: {}", goal_text(&task.goal));
    let cons = constraints_text(&task.constraints);
    if !cons.is_empty() {
        let _ = writeln!(out, "Constraints: {cons}");
    }
    out.push('\n');
    out.push_str(API);
    out
}

const API: &str = "Rules: moving into a wall, a forbidden cell, a missing cell or off the grid crashes the program. Every move draws a line in the pen colour (black unless set). Stepping on a cell visits its item.
Write a Python function `run()` using only these statements:
  move_forward()  move_backward()  turn_left()  turn_right()
  setpc(color)    with color one of 'red', 'black', 'blue', 'green', 'yellow', 'white' or None
  for i in range(k):   with k an integer from 1 to 12, followed by an indented body
Answer with the code only, for example:
def run():
    move_forward()
    for i in range(2):
        turn_left()
";

fn item_text(item: &Item) -> String {
    let color = item.color.map_or("", ItemColor::as_str);
    let name = match item.name {
        ItemName::Letter(_) => format!("letter {}", item.name.as_str()),
        n => String::from(n.as_str()),
    };
    let mut s = String::new();
    if item.count > 1 {
        let _ = write!(s, "{} ", item.count);
    }
    if !color.is_empty() && !matches!(item.name, ItemName::Strawberry | ItemName::Lemon) {
        let _ = write!(s, "{color} ");
    }
    s.push_str(&name);
    if item.count > 1 {
        s.push('s');
    }
    s
}

fn describe_cells(task: &Task, out: &mut String) {
    let _ = writeln!(out, "Cells (any cell not listed is empty, allowed and has no walls):");
    for y in 0..task.rows {
        for x in 0..task.cols {
            let Some(tile) = task.tile(x, y) else { continue };
            let mut parts: Vec<String> = Vec::new();
            if !tile.listed || !tile.exist {
                parts.push(String::from("missing (not part of the grid)"));
            } else if !tile.allowed {
                parts.push(String::from("forbidden"));
            }
            let sides: Vec<&str> = [
                (Dir::North, "top"),
                (Dir::East, "right"),
                (Dir::South, "bottom"),
                (Dir::West, "left"),
            ]
            .into_iter()
            .filter(|(d, _)| tile.walls.has(*d))
            .map(|(_, s)| s)
            .collect();
            if !sides.is_empty() {
                parts.push(format!("wall on the {} side", join_and(&sides)));
            }
            if let Some(item) = task.item_at(x, y) {
                parts.push(format!("holds a {}", item_text(item)));
            }
            if x == task.turtle.x && y == task.turtle.y {
                parts.push(String::from("the turtle starts here"));
            }
            if !parts.is_empty() {
                let _ = writeln!(out, "- ({x}, {y}): {}", parts.join("; "));
            }
        }
    }
}

fn line_color_name(c: &LineColor) -> &str {
    match c {
        LineColor::Pen(p) => p.as_str(),
        LineColor::Unmatchable(s) => s.as_str(),
    }
}

fn describe_lines(task: &Task, out: &mut String) {
    let _ = writeln!(out, "The picture to draw (lines between cell centres):");
    for l in &task.lines {
        let _ = writeln!(
            out,
            "- from ({}, {}) to ({}, {}) in {}",
            l.x1,
            l.y1,
            l.x2,
            l.y2,
            line_color_name(&l.color)
        );
    }
    if task.lines.is_empty() {
        let _ = writeln!(out, "- nothing (draw no line at all)");
    }
}

fn dir_arrow(d: Dir) -> char {
    match d {
        Dir::North => '^',
        Dir::East => '>',
        Dir::South => 'v',
        Dir::West => '<',
    }
}

/// The grid: `+` corners, `---` / `|` walls, `...` / `:` the open edge of the world; a cell
/// shows the turtle's arrow and the key of its item, `XXX` when forbidden, `///` when missing.
fn draw_grid(task: &Task, out: &mut String) {
    let mut legend: Vec<String> = Vec::new();
    let mut keys: Vec<(i32, i32, char)> = Vec::new();
    for item in &task.items {
        let key = char::from(b'a' + (keys.len() % 26) as u8);
        keys.push((item.x, item.y, key));
        legend.push(format!("{key} = {} at ({}, {})", item_text(item), item.x, item.y));
    }
    let walls = |x: i32, y: i32| task.tile(x, y).map_or(Walls(0), |t| t.walls);
    out.push_str("   ");
    for x in 0..task.cols {
        let _ = write!(out, "  {x:<2}");
    }
    out.push('\n');
    for y in 0..=task.rows {
        // Horizontal border above row y.
        out.push_str("   ");
        for x in 0..task.cols {
            out.push('+');
            let wall = walls(x, y - 1).has(Dir::South) || walls(x, y).has(Dir::North);
            let edge = y == 0 || y == task.rows;
            out.push_str(if wall {
                "---"
            } else if edge {
                "..."
            } else {
                "   "
            });
        }
        out.push_str("+\n");
        if y == task.rows {
            break;
        }
        let _ = write!(out, "{y:>2} ");
        for x in 0..=task.cols {
            let wall = walls(x - 1, y).has(Dir::East) || walls(x, y).has(Dir::West);
            let edge = x == 0 || x == task.cols;
            out.push(if wall {
                '|'
            } else if edge {
                ':'
            } else {
                ' '
            });
            if x == task.cols {
                break;
            }
            let tile = task.tile(x, y).copied().unwrap_or(Tile::MISSING);
            let turtle = task.turtle.x == x && task.turtle.y == y;
            let key = keys.iter().rev().find(|k| k.0 == x && k.1 == y).map(|k| k.2);
            let cell = if !tile.listed || !tile.exist {
                String::from("///")
            } else if !tile.allowed {
                String::from("XXX")
            } else {
                let mut c = String::from(" ");
                c.push(if turtle { dir_arrow(task.turtle.dir) } else { ' ' });
                c.push(key.unwrap_or(' '));
                c
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Legend: ^ > v < the turtle and its heading, --- and | walls, ... and : the edge of the grid (no wall), XXX forbidden, /// missing."
    );
    for l in legend {
        let _ = writeln!(out, "  {l}");
    }
}

fn color_letter(c: &LineColor) -> char {
    match c {
        LineColor::Pen(PenColor::Black) => 'k',
        LineColor::Pen(PenColor::Red) => 'r',
        LineColor::Pen(PenColor::Green) => 'g',
        LineColor::Pen(PenColor::Blue) => 'b',
        LineColor::Pen(PenColor::Yellow) => 'y',
        LineColor::Pen(PenColor::White) => 'w',
        LineColor::Unmatchable(_) => '?',
    }
}

/// The target picture: `o` at cell centres, segments drawn with their colour's letter.
fn draw_picture(task: &Task, out: &mut String) {
    let (rows, cols) = (task.rows.max(0) as usize, task.cols.max(0) as usize);
    let (h, w) = (2 * rows.saturating_sub(1) + 1, 4 * cols.saturating_sub(1) + 1);
    let mut canvas: Vec<Vec<char>> = (0..h).map(|_| alloc::vec![' '; w]).collect();
    for y in 0..rows {
        for x in 0..cols {
            if let Some(c) = canvas.get_mut(2 * y).and_then(|r| r.get_mut(4 * x)) {
                *c = 'o';
            }
        }
    }
    for l in &task.lines {
        let ch = color_letter(&l.color);
        let (xa, xb) = (l.x1.min(l.x2) as usize, l.x1.max(l.x2) as usize);
        let (ya, yb) = (l.y1.min(l.y2) as usize, l.y1.max(l.y2) as usize);
        if ya == yb {
            for x in xa..xb {
                if let Some(row) = canvas.get_mut(2 * ya) {
                    for dx in 1..4 {
                        if let Some(c) = row.get_mut(4 * x + dx) {
                            *c = if dx == 2 { ch } else { '-' };
                        }
                    }
                }
            }
        } else {
            for y in ya..yb {
                if let Some(c) = canvas.get_mut(2 * y + 1).and_then(|r| r.get_mut(4 * xa)) {
                    *c = ch;
                }
            }
        }
    }
    let _ = writeln!(out, "The picture to draw (o = cell centre; k black, r red, g green, b blue, y yellow, w white):");
    for row in canvas {
        let line: String = row.into_iter().collect();
        let _ = writeln!(out, "   {}", line.trim_end());
    }
}

fn join_and(parts: &[&str]) -> String {
    match parts {
        [] => String::new(),
        [one] => String::from(*one),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn literal_text(lit: &Literal) -> String {
    let base = match lit.atom {
        Atom::Name(Some(n)) => String::from(n.as_str()),
        Atom::Name(None) => String::from("empty cell"),
        Atom::Color(Some(c)) => String::from(c.as_str()),
        Atom::Color(None) => String::from("uncoloured"),
        Atom::Count(k) => format!("count {k}"),
    };
    if lit.neg {
        format!("not {base}")
    } else {
        base
    }
}

/// A spec as words: colour clauses before name clauses ("red circle").
pub fn spec_text(spec: &Spec) -> String {
    let is_name = |c: &Vec<Literal>| c.iter().all(|l| matches!(l.atom, Atom::Name(_)));
    let mut words: Vec<String> = Vec::new();
    for clause in spec
        .clauses
        .iter()
        .filter(|c| !is_name(c))
        .chain(spec.clauses.iter().filter(|c| is_name(c)))
    {
        let lits: Vec<String> = clause.iter().map(literal_text).collect();
        words.push(lits.join(" or "));
    }
    words.join(" ")
}

fn plural(text: &str, n: i64) -> String {
    if n == 1 {
        return String::from(text);
    }
    match text.strip_suffix("strawberry") {
        Some(head) => format!("{head}strawberries"),
        None => format!("{text}s"),
    }
}

/// The goal as a sentence.
pub fn goal_text(goal: &Goal) -> String {
    if goal.is_draw() {
        return String::from("Draw the picture.");
    }
    let mut main: Vec<String> = Vec::new();
    let mut forbids: Vec<String> = Vec::new();
    for o in &goal.objectives {
        let first = o.specs.first().map(spec_text).unwrap_or_default();
        match o.kind {
            ObjectiveKind::Find => main.push(format!("Find the {first}")),
            ObjectiveKind::FindOnly => {
                main.push(format!("Find only the {first} (step on no other item)"))
            }
            ObjectiveKind::Forbid => forbids.push(first),
            ObjectiveKind::CollectAll => {
                let all_colour = o.specs.first().is_some_and(|s| {
                    s.clauses.iter().flatten().all(|l| matches!(l.atom, Atom::Color(_)))
                });
                let what = if all_colour { format!("{first} objects") } else { plural(&first, 2) };
                main.push(format!("Collect all {what}"));
            }
            ObjectiveKind::Sum => {
                let n = o.total_cnt.unwrap_or(0);
                main.push(format!("Collect exactly {n} {}", plural(&first, n)));
            }
            ObjectiveKind::Concat => {
                let parts: Vec<String> = o.specs.iter().map(spec_text).collect();
                let mut s = String::new();
                for (i, p) in parts.iter().enumerate() {
                    if i == 0 {
                        let _ = write!(s, "First find the {p}");
                    } else if i + 1 == parts.len() {
                        let _ = write!(s, ", finally the {p}");
                    } else {
                        let _ = write!(s, ", then the {p}");
                    }
                }
                main.push(s);
            }
            ObjectiveKind::Draw => {}
        }
    }
    let mut s =
        if main.is_empty() { String::from("Run without crashing") } else { main.join(" and ") };
    if !forbids.is_empty() {
        let refs: Vec<&str> = forbids.iter().map(String::as_str).collect();
        let _ = write!(s, " without stepping on a {}", join_and(&refs));
    }
    s.push('.');
    s
}

fn block_name(k: BlockKind) -> &'static str {
    match k {
        BlockKind::Fd => "'forward'",
        BlockKind::Bk => "'backward'",
        BlockKind::Lt => "'left'",
        BlockKind::Rt => "'right'",
        BlockKind::Repeat => "'repeat'",
        BlockKind::SetPc => "'set pen color'",
        BlockKind::All => "commands",
    }
}

fn limits_text(limits: &[Option<i64>; BlockKind::COUNT], zero: bool) -> Vec<String> {
    BlockKind::ALL
        .into_iter()
        .filter_map(|k| {
            let n = limits.get(k.index()).copied().flatten()?;
            match (n == 0, zero) {
                (true, true) => Some(String::from(block_name(k))),
                (false, false) => Some(format!("{n} {}", block_name(k))),
                _ => None,
            }
        })
        .collect()
}

/// The constraints as a sentence (empty when there are none). Counts are of blocks: a loop and
/// everything in its body count once.
pub fn constraints_text(c: &Constraints) -> String {
    let mut rules: Vec<String> = Vec::new();
    if !c.start_by.is_empty() {
        let names: Vec<String> = c
            .start_by
            .iter()
            .map(|(k, s)| k.map_or_else(|| format!("'{s}'"), |k| String::from(block_name(k))))
            .collect();
        rules.push(format!("Start by using {}", names.join(", ")));
    }
    for (limits, word) in [(&c.exactly, "exactly"), (&c.at_most, "at most")] {
        let parts = limits_text(limits, false);
        if !parts.is_empty() {
            let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
            rules.push(format!("Use {word} {}", join_and(&refs)));
        }
    }
    for limits in [&c.exactly, &c.at_most] {
        for name in limits_text(limits, true) {
            rules.push(format!("Don't use {name}"));
        }
    }
    match rules.as_slice() {
        [] => String::new(),
        [one] => format!("{one}. (A loop and each statement count as one command each.)"),
        many => {
            let mut s = String::from("Follow these rules:");
            for (i, r) in many.iter().enumerate() {
                let _ = write!(s, " ({}) {r}.", char::from(b'a' + (i % 26) as u8));
            }
            s.push_str(" (A loop and each statement count as one command each.)");
            s
        }
    }
}
