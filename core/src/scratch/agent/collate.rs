//! String orders the editor sorts names with: the browser's `Intl.Collator` (ICU's root
//! collation) as scratch-gui configures it for variable menus (`sensitivity: 'base'`,
//! `numeric: true`), `String.prototype.localeCompare` (tertiary strength) for ScratchWorld's
//! variable header, and JavaScript's default `Array.prototype.sort` (UTF-16 code units).
//!
//! The collation is ICU's root order for ASCII (spaces, then punctuation and symbols in the
//! CLDR order, digits, then letters with lower case before upper case at the tertiary level)
//! and for the accented Latin-1 letters (their base letter, the accent at the secondary
//! level). Other letters sort after all Latin letters and other symbols between the ASCII
//! symbols and `$`, by code point among themselves: that is where ICU puts them, but not
//! always their order, so names outside Latin-1 may sort differently from a browser.

use core::cmp::Ordering;

/// CLDR root order of the ASCII punctuation and symbols (non-ignorable), lowest first.
const PUNCT: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~";

/// Primary weights: whitespace 1..=7, ASCII punctuation 10.., other symbols by code point,
/// `$`, digits, Latin letters, other letters by code point.
const SYMBOLS: u32 = 0x100;
const DOLLAR: u32 = 0x12_0000;
const DIGIT0: u32 = 0x12_0010;
const LETTER_A: u32 = 0x12_0100;
const OTHER_LETTERS: u32 = 0x20_0000;

/// One collation element: primary weight, accent (secondary) and case (tertiary).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Elem {
    primary: u32,
    secondary: u8,
    tertiary: u8,
    /// For a run of digits in numeric mode: the run without leading zeros.
    number: Option<(usize, usize)>,
}

/// Secondary weights of the accents, in ICU's order (acute before grave, and so on).
const ACUTE: u8 = 1;
const GRAVE: u8 = 2;
const CIRCUMFLEX: u8 = 4;
const RING: u8 = 6;
const DIAERESIS: u8 = 7;
const TILDE: u8 = 9;
const CEDILLA: u8 = 12;
const STROKE: u8 = 14;

/// The Latin-1 letters ICU sorts with a base letter. Each row: the base letter, then its
/// accented forms in code point order with their accents; every form lies in U+00C0..=U+00FF.
const LATIN1_ROWS: &[(char, &str, &[u8])] = &[
    ('A', "ÀÁÂÃÄÅ", &[GRAVE, ACUTE, CIRCUMFLEX, TILDE, DIAERESIS, RING]),
    ('a', "àáâãäå", &[GRAVE, ACUTE, CIRCUMFLEX, TILDE, DIAERESIS, RING]),
    ('C', "Ç", &[CEDILLA]),
    ('c', "ç", &[CEDILLA]),
    ('D', "Ð", &[STROKE]),
    ('d', "ð", &[STROKE]),
    ('E', "ÈÉÊË", &[GRAVE, ACUTE, CIRCUMFLEX, DIAERESIS]),
    ('e', "èéêë", &[GRAVE, ACUTE, CIRCUMFLEX, DIAERESIS]),
    ('I', "ÌÍÎÏ", &[GRAVE, ACUTE, CIRCUMFLEX, DIAERESIS]),
    ('i', "ìíîï", &[GRAVE, ACUTE, CIRCUMFLEX, DIAERESIS]),
    ('N', "Ñ", &[TILDE]),
    ('n', "ñ", &[TILDE]),
    ('O', "ÒÓÔÕÖØ", &[GRAVE, ACUTE, CIRCUMFLEX, TILDE, DIAERESIS, STROKE]),
    ('o', "òóôõöø", &[GRAVE, ACUTE, CIRCUMFLEX, TILDE, DIAERESIS, STROKE]),
    ('U', "ÙÚÛÜ", &[GRAVE, ACUTE, CIRCUMFLEX, DIAERESIS]),
    ('u', "ùúûü", &[GRAVE, ACUTE, CIRCUMFLEX, DIAERESIS]),
    ('Y', "Ý", &[ACUTE]),
    ('y', "ýÿ", &[ACUTE, DIAERESIS]),
];

/// The base letter and accent of the Latin-1 letters ICU sorts with a base letter.
fn latin1(c: char) -> Option<(char, u8)> {
    // Names are mostly ASCII: only the Latin-1 letter block needs the table.
    if !('\u{c0}'..='\u{ff}').contains(&c) {
        return None;
    }
    LATIN1_ROWS.iter().find_map(|(base, forms, accents)| {
        forms.chars().position(|f| f == c).map(|k| (*base, accents[k]))
    })
}

fn elem(c: char) -> Option<Elem> {
    let plain = |primary, tertiary| Elem { primary, secondary: 0, tertiary, number: None };
    let (c, secondary) = latin1(c).unwrap_or((c, 0));
    let e = match c {
        '\t' => plain(1, 0),
        '\n' => plain(2, 0),
        '\u{b}' => plain(3, 0),
        '\u{c}' => plain(4, 0),
        '\r' => plain(5, 0),
        '\u{85}' => plain(6, 0),
        ' ' => plain(7, 0),
        '\u{a0}' => plain(7, 1),
        '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' => return None,
        '0'..='9' => plain(DIGIT0 + (c as u32 - '0' as u32), 0),
        'a'..='z' => plain(LETTER_A + 2 * (c as u32 - 'a' as u32), 0),
        'A'..='Z' => plain(LETTER_A + 2 * (c as u32 - 'A' as u32), 1),
        // After d and after z, as ICU's root order has them.
        'þ' => plain(LETTER_A + 2 * 26, 0),
        'Þ' => plain(LETTER_A + 2 * 26, 1),
        '$' => plain(DOLLAR, 0),
        _ => match PUNCT.find(c) {
            Some(i) => plain(10 + i as u32, 0),
            None if c.is_alphanumeric() => plain(OTHER_LETTERS + c as u32, 0),
            None => plain(SYMBOLS + c as u32, 0),
        },
    };
    Some(Elem { secondary, ..e })
}

/// The collation elements of `s`; in numeric mode a run of ASCII digits is one element.
fn elements(s: &str, numeric: bool) -> alloc::vec::Vec<Elem> {
    let bytes = s.as_bytes();
    let mut out = alloc::vec::Vec::with_capacity(s.len());
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if numeric && c.is_ascii_digit() {
            let mut end = i + 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
                chars.next();
            }
            let mut start = i;
            while start + 1 < end && bytes[start] == b'0' {
                start += 1;
            }
            out.push(Elem {
                primary: DIGIT0,
                secondary: 0,
                tertiary: 0,
                number: Some((start, end)),
            });
            continue;
        }
        // Expansions ICU makes for these letters.
        let expanded: &[char] = match c {
            'æ' => &['a', 'e'],
            'Æ' => &['A', 'E'],
            'ß' => &['s', 's'],
            _ => &[],
        };
        if expanded.is_empty() {
            out.extend(elem(c));
        } else {
            out.extend(
                expanded.iter().filter_map(|&c| elem(c)).map(|e| Elem { secondary: 1, ..e }),
            );
        }
    }
    out
}

fn primary_cmp(a: &str, ea: &[Elem], b: &str, eb: &[Elem]) -> Ordering {
    for (x, y) in ea.iter().zip(eb) {
        let ord = match (x.number, y.number) {
            (Some((xs, xe)), Some((ys, ye))) => {
                let (dx, dy) = (&a.as_bytes()[xs..xe], &b.as_bytes()[ys..ye]);
                dx.len().cmp(&dy.len()).then_with(|| dx.cmp(dy))
            }
            _ => x.primary.cmp(&y.primary),
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    ea.len().cmp(&eb.len())
}

fn level_cmp(ea: &[Elem], eb: &[Elem], key: impl Fn(&Elem) -> u8) -> Ordering {
    ea.iter().map(&key).cmp(eb.iter().map(&key))
}

/// `new Intl.Collator([], {sensitivity: 'base', numeric: true}).compare(a, b)`: the order
/// scratch-gui gives variable, list and message menus.
pub fn base_numeric(a: &str, b: &str) -> Ordering {
    primary_cmp(a, &elements(a, true), b, &elements(b, true))
}

/// `a.localeCompare(b)`: primary, then accents, then case (lower before upper).
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    let (ea, eb) = (elements(a, false), elements(b, false));
    primary_cmp(a, &ea, b, &eb)
        .then_with(|| level_cmp(&ea, &eb, |e| e.secondary))
        .then_with(|| level_cmp(&ea, &eb, |e| e.tertiary))
}

/// JavaScript's default sort order: UTF-16 code units.
pub fn code_units(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icu_root_order_for_ascii() {
        let mut names = alloc::vec!["b", "B", "a", "_x", "10", "9", "A", " z", "$", "-"];
        names.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(names, [" z", "_x", "-", "$", "10", "9", "a", "A", "b", "B"]);
    }

    #[test]
    fn numeric_base_collation() {
        assert_eq!(base_numeric("item2", "item10"), Ordering::Less);
        assert_eq!(base_numeric("Score", "score"), Ordering::Equal);
        assert_eq!(base_numeric("café", "cafe"), Ordering::Equal);
        assert_eq!(base_numeric("x01", "x1"), Ordering::Equal);
        assert_eq!(locale_compare("café", "cafe"), Ordering::Greater);
        assert_eq!(locale_compare("a", "a"), Ordering::Equal);
    }

    #[test]
    fn accented_forms_lie_in_the_latin1_letter_block() {
        for (_, forms, accents) in LATIN1_ROWS {
            assert_eq!(forms.chars().count(), accents.len());
            for c in forms.chars() {
                assert!(('\u{c0}'..='\u{ff}').contains(&c), "{c:?}");
                assert!(latin1(c).is_some(), "{c:?}");
            }
        }
        assert_eq!(latin1('é'), Some(('e', ACUTE)));
        assert_eq!(latin1('e'), None);
    }

    #[test]
    fn code_unit_order_puts_astral_before_high_bmp() {
        assert_eq!(code_units("\u{1F600}", "\u{FF5E}"), Ordering::Less);
        assert_eq!(code_units("B", "a"), Ordering::Less);
    }
}
