//! The strict parser for the Python-style code models are prompted to write:
//!
//! ```text
//! def run():
//!     move_forward()
//!     for i in range(3):
//!         turn_left()
//!     setpc('red')
//! ```
//!
//! Anything outside the grammar in `docs/xlogo.md` is a [`CodeError::Format`] with a 1-based
//! line and byte column; a well-formed program with a `range` count outside 1..12 or a pen colour
//! outside the six is [`CodeError::Invalid`], as the same program in JSON form would be.
//! Indentation follows Python's rules (any consistent width of spaces; tabs are rejected);
//! blank lines and `#` comments are allowed anywhere; `pass` is a no-op statement.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{PenColor, Program, Stmt};
use super::error::CodeError;
use super::limits::{MAX_CODE_DEPTH, MAX_PROGRAM_NODES};

/// Parses Python-style source text.
pub fn parse(src: &[u8]) -> Result<Program, CodeError> {
    Parser::default().run(src)
}

fn format_err(line: usize, column: usize, message: impl Into<String>) -> CodeError {
    CodeError::Format { line, column, message: message.into() }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok<'a> {
    Name(&'a str),
    /// A decimal integer literal (None when it overflows i64).
    Int(Option<i64>),
    Str(&'a [u8]),
    Punct(u8),
}

#[derive(Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    col: usize,
}

const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Splits one line (without its newline) into tokens; `#` starts a comment.
fn tokenize(line: &[u8], lineno: usize, start: usize) -> Result<Vec<Token<'_>>, CodeError> {
    let mut toks = Vec::new();
    let mut i = start;
    while let Some(&b) = line.get(i) {
        let col = i + 1;
        match b {
            b' ' | b'\x0c' => i += 1,
            b'#' => break,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let end = line[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(line.len(), |p| i + p);
                // Identifier bytes are ASCII, so this cannot fail.
                let name = core::str::from_utf8(line.get(i..end).unwrap_or_default())
                    .map_err(|_| format_err(lineno, col, "invalid identifier"))?;
                toks.push(Token { tok: Tok::Name(name), col });
                i = end;
            }
            b'0'..=b'9' => {
                let end = line[i..].iter().position(|c| !c.is_ascii_alphanumeric() && *c != b'_');
                let end = end.map_or(line.len(), |p| i + p);
                let digits = line.get(i..end).unwrap_or_default();
                if !digits.iter().all(u8::is_ascii_digit) {
                    return Err(format_err(
                        lineno,
                        col,
                        "only decimal integer literals are allowed",
                    ));
                }
                if digits.len() > 1 && digits.first() == Some(&b'0') {
                    return Err(format_err(lineno, col, "leading zeros in an integer literal"));
                }
                let value = digits
                    .iter()
                    .try_fold(0i64, |acc, d| acc.checked_mul(10)?.checked_add(i64::from(d - b'0')));
                toks.push(Token { tok: Tok::Int(value), col });
                i = end;
            }
            b'\'' | b'"' => {
                let body_start = i + 1;
                let rest = line.get(body_start..).unwrap_or_default();
                let Some(len) = rest.iter().position(|c| *c == b || *c == b'\\') else {
                    return Err(format_err(lineno, col, "unterminated string literal"));
                };
                if rest.get(len) == Some(&b'\\') {
                    return Err(format_err(
                        lineno,
                        col + 1 + len,
                        "escapes are not allowed in strings",
                    ));
                }
                toks.push(Token { tok: Tok::Str(rest.get(..len).unwrap_or_default()), col });
                i = body_start + len + 1;
            }
            b'(' | b')' | b':' | b',' | b'-' => {
                toks.push(Token { tok: Tok::Punct(b), col });
                i += 1;
            }
            b'\t' => return Err(format_err(lineno, col, "tab characters are not allowed")),
            0x80..=0xff => {
                return Err(format_err(lineno, col, "non-ASCII character outside a comment"))
            }
            _ => {
                return Err(format_err(
                    lineno,
                    col,
                    format!("unexpected character {:?}", b as char),
                ))
            }
        }
    }
    Ok(toks)
}

/// The statement a line holds.
enum LineStmt {
    Def,
    Simple(Option<Stmt>),
    For { times: i64 },
}

/// An open block: its indentation and the statements collected so far.
struct Frame {
    indent: usize,
    stmts: Vec<Stmt>,
    /// `Some(times)` for a `for` body, `None` for the body of `run`.
    times: Option<u8>,
}

/// Line-by-line parser state. `frames[0]` is the body of `run`; each `for` adds a frame.
#[derive(Default)]
struct Parser {
    frames: Vec<Frame>,
    nodes: usize,
    seen_def: bool,
    /// Set after a line ending in `:`: (line, column, times for a `for`).
    pending: Option<(usize, usize, Option<u8>)>,
}

impl Parser {
    fn run(mut self, src: &[u8]) -> Result<Program, CodeError> {
        let src = src.strip_prefix(b"\xef\xbb\xbf").unwrap_or(src);
        let mut lineno = 0usize;
        for raw in src.split(|b| *b == b'\n') {
            lineno += 1;
            let line = raw.strip_suffix(b"\r").unwrap_or(raw);
            let indent = line.iter().take_while(|b| **b == b' ').count();
            if line.get(indent) == Some(&b'\t') {
                return Err(format_err(lineno, indent + 1, "tabs are not allowed in indentation"));
            }
            let toks = tokenize(line, lineno, indent)?;
            if toks.is_empty() {
                continue; // blank or comment-only
            }
            self.indentation(lineno, indent)?;
            self.statement(lineno, indent, &toks)?;
        }
        self.finish(lineno.max(1))
    }

    /// Opens or closes blocks so that the current frame is the one a line at `indent` belongs to.
    fn indentation(&mut self, lineno: usize, indent: usize) -> Result<(), CodeError> {
        if let Some((hline, _, times)) = self.pending.take() {
            let outer = self.frames.last().map_or(0, |f| f.indent);
            if indent <= outer || (self.frames.is_empty() && indent == 0) {
                return Err(format_err(
                    lineno,
                    indent + 1,
                    format!("expected an indented block after line {hline}"),
                ));
            }
            if self.frames.len() > MAX_CODE_DEPTH {
                return Err(format_err(
                    lineno,
                    indent + 1,
                    format!("blocks nested deeper than {MAX_CODE_DEPTH}"),
                ));
            }
            self.frames.push(Frame { indent, stmts: Vec::new(), times });
            return Ok(());
        }
        let Some(top) = self.frames.last().map(|f| f.indent) else {
            // Before the body of run(): only `def run():` at column 1.
            if indent > 0 {
                return Err(format_err(lineno, 1, "unexpected indent"));
            }
            return Ok(());
        };
        if indent > top {
            return Err(format_err(lineno, 1, "unexpected indent"));
        }
        while self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.indent > indent) {
            self.close_frame();
        }
        match self.frames.last().map(|f| f.indent) {
            Some(i) if i == indent => Ok(()),
            _ if indent == 0 => Err(format_err(lineno, 1, "nothing may follow the body of run()")),
            _ => Err(format_err(lineno, 1, "unindent does not match any outer indentation level")),
        }
    }

    fn statement(
        &mut self,
        lineno: usize,
        indent: usize,
        toks: &[Token<'_>],
    ) -> Result<(), CodeError> {
        let col = indent + 1;
        match parse_stmt(toks, lineno)? {
            LineStmt::Def if self.seen_def => {
                Err(format_err(lineno, col, "only one function, run(), may be defined"))
            }
            LineStmt::Def => {
                self.seen_def = true;
                self.pending = Some((lineno, col, None));
                Ok(())
            }
            _ if !self.seen_def => Err(format_err(lineno, col, "expected `def run():`")),
            LineStmt::Simple(None) => Ok(()),
            LineStmt::Simple(Some(stmt)) => {
                self.count_node(lineno, col)?;
                if let Some(frame) = self.frames.last_mut() {
                    frame.stmts.push(stmt);
                }
                Ok(())
            }
            LineStmt::For { times } => {
                if !(1..=12).contains(&times) {
                    return Err(CodeError::Invalid {
                        path: format!("line {lineno}"),
                        message: format!("range({times}): the count must be in 1..12"),
                    });
                }
                self.count_node(lineno, col)?;
                self.pending = Some((lineno, col, Some(times as u8)));
                Ok(())
            }
        }
    }

    fn count_node(&mut self, lineno: usize, col: usize) -> Result<(), CodeError> {
        self.nodes += 1;
        if self.nodes > MAX_PROGRAM_NODES {
            return Err(format_err(
                lineno,
                col,
                format!("more than {MAX_PROGRAM_NODES} statements"),
            ));
        }
        Ok(())
    }

    /// Pops the innermost `for` block into its parent as a repeat statement.
    fn close_frame(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        if let Some(frame) = self.frames.pop() {
            if let Some(parent) = self.frames.last_mut() {
                parent
                    .stmts
                    .push(Stmt::Repeat { times: frame.times.unwrap_or(1), body: frame.stmts });
            }
        }
    }

    fn finish(mut self, last_line: usize) -> Result<Program, CodeError> {
        if let Some((hline, hcol, _)) = self.pending {
            return Err(format_err(hline, hcol, "expected an indented block"));
        }
        if !self.seen_def {
            return Err(format_err(last_line, 1, "expected `def run():`"));
        }
        while self.frames.len() > 1 {
            self.close_frame();
        }
        let body = self.frames.pop().map(|f| f.stmts).unwrap_or_default();
        Ok(Program { run: body })
    }
}

fn expect_end(toks: &[Token<'_>], at: usize, lineno: usize) -> Result<(), CodeError> {
    match toks.get(at) {
        None => Ok(()),
        Some(t) => Err(format_err(lineno, t.col, "expected the end of the line")),
    }
}

fn expect(
    toks: &[Token<'_>],
    at: usize,
    want: &Tok<'_>,
    what: &str,
    lineno: usize,
    eol: usize,
) -> Result<(), CodeError> {
    match toks.get(at) {
        Some(t) if t.tok == *want => Ok(()),
        Some(t) => Err(format_err(lineno, t.col, format!("expected {what}"))),
        None => Err(format_err(lineno, eol, format!("expected {what}"))),
    }
}

fn parse_stmt(toks: &[Token<'_>], lineno: usize) -> Result<LineStmt, CodeError> {
    let first = toks.first().map_or(1, |t| t.col);
    let eol = toks.last().map_or(first, |t| t.col + 1);
    let Some(Token { tok: Tok::Name(head), col }) = toks.first() else {
        return Err(format_err(lineno, first, "expected a statement"));
    };
    let col = *col;
    let lp = Tok::Punct(b'(');
    let rp = Tok::Punct(b')');
    let colon = Tok::Punct(b':');
    match *head {
        "def" => {
            expect(toks, 1, &Tok::Name("run"), "`run` (the only function allowed)", lineno, eol)?;
            expect(toks, 2, &lp, "`(`", lineno, eol)?;
            expect(toks, 3, &rp, "`)` (run takes no parameters)", lineno, eol)?;
            expect(toks, 4, &colon, "`:`", lineno, eol)?;
            expect_end(toks, 5, lineno)?;
            Ok(LineStmt::Def)
        }
        "pass" => {
            expect_end(toks, 1, lineno)?;
            Ok(LineStmt::Simple(None))
        }
        "move_forward" | "move_backward" | "turn_left" | "turn_right" => {
            expect(toks, 1, &lp, "`(`", lineno, eol)?;
            expect(toks, 2, &rp, "`)` (this command takes no arguments)", lineno, eol)?;
            expect_end(toks, 3, lineno)?;
            Ok(LineStmt::Simple(Some(match *head {
                "move_forward" => Stmt::Fd,
                "move_backward" => Stmt::Bk,
                "turn_left" => Stmt::Lt,
                _ => Stmt::Rt,
            })))
        }
        "setpc" => {
            expect(toks, 1, &lp, "`(`", lineno, eol)?;
            let color = match toks.get(2) {
                Some(Token { tok: Tok::Name("None"), .. }) => None,
                Some(Token { tok: Tok::Str(s), col: scol }) => {
                    let name = core::str::from_utf8(s).unwrap_or("");
                    match PenColor::parse(name) {
                        Some(c) => Some(c),
                        None => {
                            return Err(CodeError::Invalid {
                                path: format!("line {lineno}"),
                                message: format!(
                                    "setpc({}) at column {scol}: the colour must be one of red, black, blue, green, yellow, white or None",
                                    alloc::string::String::from_utf8_lossy(s)
                                ),
                            })
                        }
                    }
                }
                Some(t) => {
                    return Err(format_err(lineno, t.col, "expected a colour string or None"))
                }
                None => return Err(format_err(lineno, eol, "expected a colour string or None")),
            };
            expect(toks, 3, &rp, "`)`", lineno, eol)?;
            expect_end(toks, 4, lineno)?;
            Ok(LineStmt::Simple(Some(Stmt::SetPc(color))))
        }
        "for" => {
            match toks.get(1) {
                Some(Token { tok: Tok::Name(var), .. }) if !KEYWORDS.contains(var) => {}
                Some(t) => return Err(format_err(lineno, t.col, "expected a loop variable name")),
                None => return Err(format_err(lineno, eol, "expected a loop variable name")),
            }
            expect(toks, 2, &Tok::Name("in"), "`in`", lineno, eol)?;
            expect(toks, 3, &Tok::Name("range"), "`range`", lineno, eol)?;
            expect(toks, 4, &lp, "`(`", lineno, eol)?;
            let (negative, at) = match toks.get(5) {
                Some(Token { tok: Tok::Punct(b'-'), .. }) => (true, 6),
                _ => (false, 5),
            };
            let times = match toks.get(at) {
                Some(Token { tok: Tok::Int(v), .. }) => {
                    v.map(|v| if negative { -v } else { v }).unwrap_or(i64::MAX)
                }
                Some(t) => {
                    return Err(format_err(lineno, t.col, "range() takes one integer literal"))
                }
                None => return Err(format_err(lineno, eol, "range() takes one integer literal")),
            };
            expect(toks, at + 1, &rp, "`)` (range takes one argument)", lineno, eol)?;
            expect(toks, at + 2, &colon, "`:`", lineno, eol)?;
            expect_end(toks, at + 3, lineno)?;
            Ok(LineStmt::For { times })
        }
        other => Err(format_err(lineno, col, format!("unknown statement `{other}`"))),
    }
}
