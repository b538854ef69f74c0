//! The comparison table: one row per workload, gobo's figure beside each reference's, with the
//! ratio gobo / reference (every unit is "higher is better", so a ratio above 1 means gobo is
//! faster).

use std::fmt::Write as _;

use crate::gobo_side::Outcome;
use crate::reference::Row;

/// A number with an SI suffix and three significant digits (`2.18 M`, `812`, `41.3 k`).
pub fn si(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    let (scaled, suffix) = match v.abs() {
        a if a >= 1e9 => (v / 1e9, " G"),
        a if a >= 1e6 => (v / 1e6, " M"),
        a if a >= 1e4 => (v / 1e3, " k"),
        _ => (v, ""),
    };
    let digits = match scaled.abs() {
        a if a >= 100.0 => 0,
        a if a >= 10.0 => 1,
        _ => 2,
    };
    format!("{scaled:.digits$}{suffix}")
}

/// One line of the table.
#[derive(Debug, Clone)]
pub struct Line {
    pub workload: String,
    pub unit: String,
    pub gobo: Outcome,
}

/// Renders the table as Markdown; `columns` are the reference names in order, `rows` every
/// reference result. Cells: the figure, then `(×ratio)` when gobo has a figure; `-` when that
/// reference does not run the workload; a `!` marks gobo or a reference missing the expected
/// end state (or its oracle).
pub fn markdown(lines: &[Line], columns: &[String], rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = write!(out, "| workload | unit | gobo |");
    for c in columns {
        let _ = write!(out, " {c} |");
    }
    out.push('\n');
    out.push_str("|---|---|---:|");
    for _ in columns {
        out.push_str("---:|");
    }
    out.push('\n');
    for line in lines {
        let gobo = match &line.gobo {
            Outcome::Figure(f) => Some(f.value),
            Outcome::Unavailable(_) => None,
        };
        let gobo_cell = match &line.gobo {
            Outcome::Figure(f) if f.note.is_some() => format!("{} !", si(f.value)),
            Outcome::Figure(f) => si(f.value),
            Outcome::Unavailable(why) => why.clone(),
        };
        let _ = write!(out, "| {} | {} | {} |", line.workload, line.unit, gobo_cell);
        for c in columns {
            let found = rows.iter().find(|r| column_of(r) == *c && r.workload == line.workload);
            let cell = match found {
                None => "-".to_string(),
                Some(r) => {
                    let mark = if r.checked { "" } else { " !" };
                    match gobo {
                        Some(g) if r.value > 0.0 => {
                            format!("{}{mark} (×{})", si(r.value), si(g / r.value))
                        }
                        _ => format!("{}{mark}", si(r.value)),
                    }
                }
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}

/// The column a row belongs to: its implementation name up to the first space after the
/// project name (`scratch-vm 5.0.300` → `scratch-vm 5.0.300`); kept whole.
pub fn column_of(r: &Row) -> String {
    r.implementation.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn si_keeps_three_digits() {
        assert_eq!(si(2_175_489.1), "2.18 M");
        assert_eq!(si(809.4), "809");
        assert_eq!(si(41_300.0), "41.3 k");
        assert_eq!(si(4.13), "4.13");
        assert_eq!(si(177e6), "177 M");
    }
}
