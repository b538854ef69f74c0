//! The code AST shared by both parsers and the printer: statements, pen colours, block kinds and
//! block counting as the reference's constraint checker counts (every node once, loop bodies once).

use alloc::vec::Vec;

/// The six pen colours `setpc` accepts, with the hex values drawn lines carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PenColor {
    Black = 1,
    Red = 2,
    Green = 3,
    Blue = 4,
    Yellow = 5,
    White = 6,
}

impl PenColor {
    /// All six.
    pub const ALL: [PenColor; 6] = [
        PenColor::Black,
        PenColor::Red,
        PenColor::Green,
        PenColor::Blue,
        PenColor::Yellow,
        PenColor::White,
    ];

    /// Parses a colour name as `setpc` accepts it.
    pub fn parse(name: &str) -> Option<PenColor> {
        PenColor::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Parses the hex form used by task lines (`#D60000`; exact spelling, upper case).
    pub fn parse_hex(hex: &str) -> Option<PenColor> {
        PenColor::ALL.into_iter().find(|c| c.hex() == hex)
    }

    /// The colour's name.
    pub fn as_str(self) -> &'static str {
        match self {
            PenColor::Black => "black",
            PenColor::Red => "red",
            PenColor::Green => "green",
            PenColor::Blue => "blue",
            PenColor::Yellow => "yellow",
            PenColor::White => "white",
        }
    }

    /// The hex value.
    pub fn hex(self) -> &'static str {
        match self {
            PenColor::Black => "#000000",
            PenColor::Red => "#D60000",
            PenColor::Green => "#009624",
            PenColor::Blue => "#0D47A1",
            PenColor::Yellow => "#FFD600",
            PenColor::White => "#FFFFFF",
        }
    }

    /// RGB components.
    pub fn rgb(self) -> (u8, u8, u8) {
        match self {
            PenColor::Black => (0x00, 0x00, 0x00),
            PenColor::Red => (0xD6, 0x00, 0x00),
            PenColor::Green => (0x00, 0x96, 0x24),
            PenColor::Blue => (0x0D, 0x47, 0xA1),
            PenColor::Yellow => (0xFF, 0xD6, 0x00),
            PenColor::White => (0xFF, 0xFF, 0xFF),
        }
    }

    /// Small code (1..=6) used in edge arrays; 0 means "no edge".
    pub fn code(self) -> u8 {
        self as u8
    }

    /// Inverse of [`PenColor::code`].
    pub fn from_code(code: u8) -> Option<PenColor> {
        PenColor::ALL.into_iter().find(|c| c.code() == code)
    }
}

/// One statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stmt {
    /// `fd` / `move_forward()`.
    Fd,
    /// `bk` / `move_backward()`.
    Bk,
    /// `lt` / `turn_left()`.
    Lt,
    /// `rt` / `turn_right()`.
    Rt,
    /// `setpc` / `setpc('red')`; `None` resets to the default (black) and reports `pen_color: null`.
    SetPc(Option<PenColor>),
    /// `repeat` / `for i in range(times):` with `times` in 1..=12.
    Repeat { times: u8, body: Vec<Stmt> },
}

impl Stmt {
    /// The block kind of this statement.
    pub fn kind(&self) -> BlockKind {
        match self {
            Stmt::Fd => BlockKind::Fd,
            Stmt::Bk => BlockKind::Bk,
            Stmt::Lt => BlockKind::Lt,
            Stmt::Rt => BlockKind::Rt,
            Stmt::SetPc(_) => BlockKind::SetPc,
            Stmt::Repeat { .. } => BlockKind::Repeat,
        }
    }
}

/// A program: the body of `run`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    /// Top-level statements.
    pub run: Vec<Stmt>,
}

/// Block kinds as constraints name them; `All` stands for every block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Fd = 0,
    Bk = 1,
    Lt = 2,
    Rt = 3,
    Repeat = 4,
    SetPc = 5,
    All = 6,
}

impl BlockKind {
    /// Number of kinds including `All`.
    pub const COUNT: usize = 7;
    /// All kinds, in index order.
    pub const ALL: [BlockKind; 7] = [
        BlockKind::Fd,
        BlockKind::Bk,
        BlockKind::Lt,
        BlockKind::Rt,
        BlockKind::Repeat,
        BlockKind::SetPc,
        BlockKind::All,
    ];

    /// Parses the JSON name (`fd`, ..., `all`).
    pub fn parse(s: &str) -> Option<BlockKind> {
        BlockKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            BlockKind::Fd => "fd",
            BlockKind::Bk => "bk",
            BlockKind::Lt => "lt",
            BlockKind::Rt => "rt",
            BlockKind::Repeat => "repeat",
            BlockKind::SetPc => "setpc",
            BlockKind::All => "all",
        }
    }

    /// Index into per-kind arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Blocks per kind, in the order of first appearance (pre-order), as the reference's
/// `block_cnt` dictionary has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlockCounts {
    counts: [u32; 6],
    order: [u8; 6],
    kinds: u8,
}

impl BlockCounts {
    /// Counts the blocks of a program.
    pub fn of(program: &Program) -> BlockCounts {
        let mut counts = BlockCounts::default();
        counts.add_body(&program.run);
        counts
    }

    fn add_body(&mut self, body: &[Stmt]) {
        for stmt in body {
            let kind = stmt.kind().index();
            if let Some(c) = self.counts.get_mut(kind) {
                if *c == 0 {
                    if let Some(slot) = self.order.get_mut(usize::from(self.kinds)) {
                        *slot = kind as u8;
                        self.kinds += 1;
                    }
                }
                *c = c.saturating_add(1);
            }
            if let Stmt::Repeat { body, .. } = stmt {
                self.add_body(body);
            }
        }
    }

    /// Blocks of one kind (`All`: the total).
    pub fn get(&self, kind: BlockKind) -> u32 {
        match kind {
            BlockKind::All => self.total(),
            k => self.counts.get(k.index()).copied().unwrap_or(0),
        }
    }

    /// Every block.
    pub fn total(&self) -> u32 {
        self.counts.iter().fold(0u32, |a, c| a.saturating_add(*c))
    }

    /// Kinds present, in order of first appearance, with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (BlockKind, u32)> + '_ {
        self.order.iter().take(usize::from(self.kinds)).map(move |&k| {
            let kind = BlockKind::ALL.get(usize::from(k)).copied().unwrap_or(BlockKind::All);
            (kind, self.get(kind))
        })
    }
}
