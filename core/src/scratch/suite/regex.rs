//! A small regular-expression matcher for suite text checks: a documented subset of JavaScript
//! syntax compiled to an NFA and run as a Pike VM, so matching takes O(pattern × text) time
//! with no backtracking. Only "does it match anywhere" is answered (no captures).
//!
//! Subset: literals; `.`; classes `[a-z]`, `[^...]`; escapes `\d \D \w \W \s \S \n \t \r` and
//! escaped punctuation; anchors `^` `$` (whole text); groups `(...)`, `(?:...)`; alternation
//! `|`; quantifiers `* + ? {n} {n,} {n,m}` (a trailing lazy `?` is accepted, it changes nothing
//! for a yes/no match). Case-insensitive matching folds with `char::to_lowercase`.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// Longest pattern accepted, in characters.
const MAX_PATTERN: usize = 1000;
/// Largest compiled program (counted repetitions expand).
const MAX_PROGRAM: usize = 20_000;
/// Largest `{n,m}` bound.
const MAX_REPEAT: u32 = 1000;

/// Why a pattern was rejected; `at` is a character offset in the pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError {
    pub at: usize,
    pub message: String,
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at, self.message)
    }
}

impl core::error::Error for RegexError {}

/// A compiled pattern.
#[derive(Clone)]
pub struct Regex {
    source: String,
    case_insensitive: bool,
    prog: Vec<Inst>,
    classes: Vec<Class>,
}

impl fmt::Debug for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Regex({:?})", self.source)
    }
}

#[derive(Debug, Clone, Copy)]
enum Inst {
    Char(char),
    Any,
    Class(usize),
    Split(usize, usize),
    Jmp(usize),
    Start,
    End,
    Match,
}

#[derive(Debug, Clone)]
struct Class {
    negated: bool,
    ranges: Vec<(char, char)>,
}

impl Class {
    fn matches(&self, c: char, ci: bool) -> bool {
        let hit = |c: char| self.ranges.iter().any(|&(a, b)| a <= c && c <= b);
        let mut found = hit(c);
        if !found && ci {
            found = c.to_lowercase().any(hit) || c.to_uppercase().any(hit);
        }
        found != self.negated
    }
}

#[derive(Debug, Clone)]
enum Node {
    Empty,
    Char(char),
    Any,
    Class(usize),
    Start,
    End,
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat { node: Box<Node>, min: u32, max: Option<u32> },
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    classes: &'a mut Vec<Class>,
    depth: usize,
}

fn err<T>(at: usize, message: &str) -> Result<T, RegexError> {
    Err(RegexError { at, message: message.to_string() })
}

const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
const SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn alt(&mut self) -> Result<Node, RegexError> {
        self.depth += 1;
        if self.depth > 100 {
            return err(self.pos, "groups nested too deeply");
        }
        let mut branches = vec![self.concat()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            branches.push(self.concat()?);
        }
        self.depth -= 1;
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(branches)
        })
    }

    fn concat(&mut self) -> Result<Node, RegexError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Ok(Node::Concat(items))
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, RegexError> {
        let at = self.pos;
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match self.braces()? {
                Some(bounds) => bounds,
                None => return Ok(atom),
            },
            _ => return Ok(atom),
        };
        // Past the quantifier character (or the closing brace).
        self.pos += 1;
        if self.peek() == Some('?') {
            self.pos += 1;
        }
        if matches!(atom, Node::Start | Node::End) {
            return err(at, "nothing to repeat");
        }
        if matches!(self.peek(), Some('*' | '+' | '?')) {
            return err(self.pos, "nothing to repeat");
        }
        Ok(Node::Repeat { node: Box::new(atom), min, max })
    }

    /// `{n}`, `{n,}`, `{n,m}`; leaves `pos` on the closing brace. `None` when the brace is a
    /// literal (JavaScript reads `{` that starts no quantifier as a character).
    fn braces(&mut self) -> Result<Option<(u32, Option<u32>)>, RegexError> {
        let start = self.pos;
        let mut i = self.pos + 1;
        let num = |i: &mut usize, chars: &[char]| -> Option<u32> {
            let s = *i;
            let mut n: u32 = 0;
            while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(d);
                *i += 1;
            }
            (*i > s).then_some(n)
        };
        let Some(min) = num(&mut i, &self.chars) else { return Ok(None) };
        let max = if self.chars.get(i) == Some(&',') {
            i += 1;
            num(&mut i, &self.chars)
        } else {
            Some(min)
        };
        if self.chars.get(i) != Some(&'}') {
            return Ok(None);
        }
        if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT) {
            return err(start, "repetition bound above 1000");
        }
        if max.is_some_and(|m| m < min) {
            return err(start, "numbers out of order in {} quantifier");
        }
        self.pos = i;
        Ok(Some((min, max)))
    }

    fn atom(&mut self) -> Result<Node, RegexError> {
        let at = self.pos;
        let Some(c) = self.peek() else { return err(at, "unexpected end") };
        self.pos += 1;
        match c {
            '(' => {
                if self.chars.get(self.pos) == Some(&'?') {
                    if self.chars.get(self.pos + 1) == Some(&':') {
                        self.pos += 2;
                    } else {
                        return err(at, "only (?:...) groups are supported");
                    }
                }
                let inner = self.alt()?;
                if self.peek() != Some(')') {
                    return err(at, "unterminated group");
                }
                self.pos += 1;
                Ok(inner)
            }
            ')' => err(at, "unmatched ')'"),
            '*' | '+' | '?' => err(at, "nothing to repeat"),
            '.' => Ok(Node::Any),
            '^' => Ok(Node::Start),
            '$' => Ok(Node::End),
            '[' => self.class(at),
            '\\' => self.escape(false).map(|e| match e {
                Escaped::Char(c) => Node::Char(c),
                Escaped::Class(ranges, negated) => Node::Class(self.add_class(ranges, negated)),
            }),
            c => Ok(Node::Char(c)),
        }
    }

    fn add_class(&mut self, ranges: Vec<(char, char)>, negated: bool) -> usize {
        self.classes.push(Class { negated, ranges });
        self.classes.len() - 1
    }

    fn escape(&mut self, in_class: bool) -> Result<Escaped, RegexError> {
        let at = self.pos;
        let Some(c) = self.peek() else { return err(at, "trailing backslash") };
        self.pos += 1;
        let class = |r: &[(char, char)], neg| Ok(Escaped::Class(r.to_vec(), neg));
        match c {
            'd' => class(DIGIT, false),
            'D' => class(DIGIT, true),
            'w' => class(WORD, false),
            'W' => class(WORD, true),
            's' => class(SPACE, false),
            'S' => class(SPACE, true),
            'n' => Ok(Escaped::Char('\n')),
            't' => Ok(Escaped::Char('\t')),
            'r' => Ok(Escaped::Char('\r')),
            'b' if in_class => Ok(Escaped::Char('\u{8}')),
            c if c.is_ascii_alphanumeric() => err(at, "unsupported escape"),
            c => Ok(Escaped::Char(c)),
        }
    }

    fn class(&mut self, at: usize) -> Result<Node, RegexError> {
        let negated = self.peek() == Some('^');
        if negated {
            self.pos += 1;
        }
        let mut ranges = Vec::new();
        let mut negated_parts: Vec<Vec<(char, char)>> = Vec::new();
        loop {
            let Some(c) = self.peek() else { return err(at, "unterminated character class") };
            self.pos += 1;
            if c == ']' {
                break;
            }
            let lo = if c == '\\' {
                match self.escape(true)? {
                    Escaped::Char(c) => c,
                    Escaped::Class(r, false) => {
                        ranges.extend(r);
                        continue;
                    }
                    Escaped::Class(r, true) => {
                        negated_parts.push(r);
                        continue;
                    }
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&c| c != ']') {
                self.pos += 1;
                let Some(hi) = self.peek() else { return err(at, "unterminated character class") };
                self.pos += 1;
                let hi = if hi == '\\' {
                    match self.escape(true)? {
                        Escaped::Char(c) => c,
                        Escaped::Class(..) => return err(self.pos, "class escape in a range"),
                    }
                } else {
                    hi
                };
                if hi < lo {
                    return err(self.pos, "range out of order in character class");
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        // A negated escape inside a class (`[\D]`): add the complement's ranges.
        for part in negated_parts {
            let mut next = '\0';
            for &(a, b) in &part {
                if a > next {
                    ranges.push((next, char::from_u32(a as u32 - 1).unwrap_or(next)));
                }
                next = char::from_u32(b as u32 + 1).unwrap_or(char::MAX);
            }
            ranges.push((next, char::MAX));
        }
        Ok(Node::Class(self.add_class(ranges, negated)))
    }
}

enum Escaped {
    Char(char),
    Class(Vec<(char, char)>, bool),
}

struct Compiler {
    prog: Vec<Inst>,
}

impl Compiler {
    fn push(&mut self, inst: Inst) -> Result<usize, RegexError> {
        if self.prog.len() >= MAX_PROGRAM {
            return err(0, "pattern too large once repetitions are expanded");
        }
        self.prog.push(inst);
        Ok(self.prog.len() - 1)
    }

    fn node(&mut self, node: &Node) -> Result<(), RegexError> {
        match node {
            Node::Empty => {}
            Node::Char(c) => {
                self.push(Inst::Char(*c))?;
            }
            Node::Any => {
                self.push(Inst::Any)?;
            }
            Node::Class(i) => {
                self.push(Inst::Class(*i))?;
            }
            Node::Start => {
                self.push(Inst::Start)?;
            }
            Node::End => {
                self.push(Inst::End)?;
            }
            Node::Concat(items) => {
                for item in items {
                    self.node(item)?;
                }
            }
            Node::Alt(branches) => {
                let mut jumps = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    if i + 1 < branches.len() {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.node(branch)?;
                        jumps.push(self.push(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.prog[split] = Inst::Split(split + 1, next);
                    } else {
                        self.node(branch)?;
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.prog[j] = Inst::Jmp(end);
                }
            }
            Node::Repeat { node, min, max } => {
                for _ in 0..*min {
                    self.node(node)?;
                }
                match max {
                    None => {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.node(node)?;
                        self.push(Inst::Jmp(split))?;
                        let end = self.prog.len();
                        self.prog[split] = Inst::Split(split + 1, end);
                    }
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.push(Inst::Split(0, 0))?);
                            self.node(node)?;
                        }
                        let end = self.prog.len();
                        for s in splits {
                            self.prog[s] = Inst::Split(s + 1, end);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl Regex {
    /// Compiles `pattern`; `case_insensitive` is JavaScript's `i` flag.
    pub fn new(pattern: &str, case_insensitive: bool) -> Result<Regex, RegexError> {
        let chars: Vec<char> = pattern.chars().collect();
        if chars.len() > MAX_PATTERN {
            return err(MAX_PATTERN, "pattern longer than 1000 characters");
        }
        let mut classes = Vec::new();
        let mut parser = Parser { chars, pos: 0, classes: &mut classes, depth: 0 };
        let ast = parser.alt()?;
        if parser.pos < parser.chars.len() {
            return err(parser.pos, "unmatched ')'");
        }
        let mut c = Compiler { prog: Vec::new() };
        c.node(&ast)?;
        c.push(Inst::Match)?;
        Ok(Regex { source: String::from(pattern), case_insensitive, prog: c.prog, classes })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// True when the pattern matches somewhere in `text` (JavaScript `RegExp.test`).
    pub fn is_match(&self, text: &str) -> bool {
        let n = self.prog.len();
        let mut clist = Threads::new(n);
        let mut nlist = Threads::new(n);
        let mut stack = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        for i in 0..=chars.len() {
            // Unanchored search: a new thread starts at every position.
            if self.add(&mut clist, &mut stack, 0, i, chars.len()) {
                return true;
            }
            let Some(&c) = chars.get(i) else { break };
            nlist.clear();
            for k in 0..clist.len {
                let pc = clist.dense[k];
                let ok = match self.prog[pc] {
                    Inst::Char(want) => self.char_eq(want, c),
                    Inst::Any => !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}'),
                    Inst::Class(ci) => self.classes[ci].matches(c, self.case_insensitive),
                    _ => false,
                };
                if ok && self.add(&mut nlist, &mut stack, pc + 1, i + 1, chars.len()) {
                    return true;
                }
            }
            core::mem::swap(&mut clist, &mut nlist);
        }
        false
    }

    fn char_eq(&self, want: char, c: char) -> bool {
        want == c || (self.case_insensitive && want.to_lowercase().eq(c.to_lowercase()))
    }

    /// Adds the epsilon closure of `pc` at position `pos`; true when it reaches `Match`.
    fn add(
        &self,
        list: &mut Threads,
        stack: &mut Vec<usize>,
        pc: usize,
        pos: usize,
        len: usize,
    ) -> bool {
        stack.clear();
        stack.push(pc);
        while let Some(pc) = stack.pop() {
            if !list.insert(pc) {
                continue;
            }
            match self.prog[pc] {
                Inst::Match => return true,
                Inst::Jmp(t) => stack.push(t),
                Inst::Split(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                Inst::Start if pos == 0 => stack.push(pc + 1),
                Inst::End if pos == len => stack.push(pc + 1),
                _ => {}
            }
        }
        false
    }
}

/// A sparse set of program counters.
struct Threads {
    dense: Vec<usize>,
    sparse: Vec<usize>,
    len: usize,
}

impl Threads {
    fn new(n: usize) -> Threads {
        Threads { dense: vec![0; n], sparse: vec![0; n], len: 0 }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn insert(&mut self, pc: usize) -> bool {
        let s = self.sparse[pc];
        if s < self.len && self.dense[s] == pc {
            return false;
        }
        self.dense[self.len] = pc;
        self.sparse[pc] = self.len;
        self.len += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Regex;

    fn m(p: &str, t: &str) -> bool {
        Regex::new(p, false).map(|r| r.is_match(t)).unwrap_or(false)
    }

    #[test]
    fn matches_the_subset() {
        assert!(m("^1 2 4 5 8$", "1 2 4 5 8"));
        assert!(!m("^1 2 4 5 8$", "12458"));
        assert!(m("score: \\d+", "your score: 42!"));
        assert!(m("^(ab|cd)+$", "abcdab"));
        assert!(!m("^(ab|cd)+$", "abc"));
        assert!(m("^a{2,3}$", "aaa"));
        assert!(!m("^a{2,3}$", "aaaa"));
        assert!(m("[^0-9]", "12x"));
        assert!(!m("^[^0-9]+$", "12x"));
        assert!(m("x{", "x{"));
        assert!(m("^\\s*$", "  "));
        assert!(m("(?:he|she) said", "she said"));
        assert!(Regex::new("HELLO", true).map(|r| r.is_match("oh hello")).unwrap_or(false));
    }

    #[test]
    fn pathological_patterns_stay_linear() {
        let text = "a".repeat(5000);
        let r = Regex::new("^(a+)+$", false).unwrap_or_else(|_| panic!("compiles"));
        assert!(r.is_match(&text));
        let r = Regex::new("^(a|a)*b$", false).unwrap_or_else(|_| panic!("compiles"));
        assert!(!r.is_match(&text));
    }

    #[test]
    fn rejects_bad_patterns() {
        for p in ["(", "a)", "[a-", "*a", "a**", "\\", "(?=a)", "z{5,2}", "a{2000}", "[z-a]"] {
            assert!(Regex::new(p, false).is_err(), "{p}");
        }
    }
}
