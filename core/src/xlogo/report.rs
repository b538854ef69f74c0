//! `xlogo report`: the benchmark's three rates (success, format, no crash) over verdict rows,
//! overall and per aspect of each task dimension ([`super::dims`]), as XLogoMiniProg §5.1 and
//! Fig. 8 report them. Rows arrive one at a time (hosts stream the file), or all at once with
//! their tasks ([`report_of`]); reading files is the host's part.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use serde::Serialize;
use serde_json::Value;

use super::batch::Summary;
use super::dims::{classify, id_key, task_row, Dimension, Dimensions};

/// The aspect name of rows whose task (or reference code) is unknown.
pub const UNKNOWN: &str = "unknown";

/// Counts and rates of one group of rows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rates {
    /// Rows in the group.
    pub rows: usize,
    /// Rows with `error_type == "OK"`.
    pub success: usize,
    /// Rows whose code parsed (not `FORMAT_ERROR`).
    pub format_ok: usize,
    /// Rows that ran without crashing (OK or a goal/constraint failure).
    pub no_crash: usize,
    /// `success / rows` (0 without rows).
    pub success_rate: f64,
    /// `format_ok / rows`.
    pub format_rate: f64,
    /// `no_crash / rows`.
    pub no_crash_rate: f64,
}

impl From<Summary> for Rates {
    fn from(s: Summary) -> Rates {
        Rates {
            rows: s.rows,
            success: s.success,
            format_ok: s.format_ok,
            no_crash: s.no_crash,
            success_rate: s.rate(s.success),
            format_rate: s.rate(s.format_ok),
            no_crash_rate: s.rate(s.no_crash),
        }
    }
}

/// The rates of one aspect of a dimension.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AspectRates {
    /// The aspect (`"Math"`, `"<=3"`, ... or `"unknown"`).
    pub aspect: &'static str,
    /// Its rates.
    #[serde(flatten)]
    pub rates: Rates,
}

/// One dimension's aspects, in the paper's order, only those with rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DimensionRates {
    /// The dimension's JSON name (`task_type`, `constraints`, `concepts`, `length`, `grid_size`).
    pub dimension: &'static str,
    /// Its aspects.
    pub aspects: Vec<AspectRates>,
}

/// The report: overall rates, rows whose id matched no task, and the per-dimension tables.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Every row.
    pub overall: Rates,
    /// Rows without a known task (counted overall and as `unknown` aspects).
    pub unmatched: usize,
    /// Per dimension (empty when no row had a known task).
    pub by: Vec<DimensionRates>,
}

/// Accumulates rows into a [`Report`].
#[derive(Debug, Clone, Default)]
pub struct ReportBuilder {
    overall: Summary,
    unmatched: usize,
    /// Per dimension: one summary per aspect, then one for `unknown` (at most 5 + 1).
    by: [[Summary; 6]; 5],
}

impl ReportBuilder {
    /// An empty builder.
    pub fn new() -> ReportBuilder {
        ReportBuilder::default()
    }

    /// Adds a verdict row (as `xlogo eval --batch` writes it) of a task with dimensions `dims`
    /// (`None`: the task is unknown).
    pub fn add(&mut self, row: &Value, dims: Option<&Dimensions>) {
        self.overall.add(row);
        if dims.is_none() {
            self.unmatched += 1;
        }
        for (d, dim) in Dimension::ALL.into_iter().enumerate() {
            let aspects = dim.aspects();
            let aspect = dims.and_then(|x| x.aspect(dim));
            let i = aspect.and_then(|a| aspects.iter().position(|x| *x == a));
            let slot = i.unwrap_or(aspects.len());
            if let Some(s) = self.by.get_mut(d).and_then(|g| g.get_mut(slot)) {
                s.add(row);
            }
        }
    }

    /// The report.
    pub fn finish(&self) -> Report {
        let any_known = self.unmatched < self.overall.rows;
        let mut by = Vec::new();
        if any_known {
            for (dim, groups) in Dimension::ALL.into_iter().zip(&self.by) {
                let names = dim.aspects().iter().copied().chain([UNKNOWN]);
                let aspects = names
                    .zip(groups)
                    .filter(|(_, s)| s.rows > 0)
                    .map(|(aspect, s)| AspectRates { aspect, rates: Rates::from(*s) })
                    .collect();
                by.push(DimensionRates { dimension: dim.name(), aspects });
            }
        }
        Report { overall: Rates::from(self.overall), unmatched: self.unmatched, by }
    }
}

/// The report of verdict `rows` whose tasks are among `tasks` (task rows as [`task_row`]
/// reads them, matched by [`id_key`] of each verdict row's `id`), held in memory (the server's
/// and Python's `report`; the CLI streams its files through [`ReportBuilder`]). Also returns
/// how many task rows could not be read (their verdict rows count as unknown).
pub fn report_of<'a>(
    rows: impl IntoIterator<Item = &'a Value>,
    tasks: impl IntoIterator<Item = &'a Value>,
) -> (Report, usize) {
    let mut dims: BTreeMap<String, Dimensions> = BTreeMap::new();
    let mut unreadable = 0;
    for t in tasks {
        match task_row(t) {
            Ok(r) => {
                if let Some(key) = r.key {
                    dims.insert(key, classify(&r.task, r.reference.as_ref()));
                }
            }
            Err(_) => unreadable += 1,
        }
    }
    let mut builder = ReportBuilder::new();
    for row in rows {
        builder.add(row, row.get("id").and_then(|id| dims.get(&id_key(id))));
    }
    (builder.finish(), unreadable)
}

impl Report {
    /// The report as JSON (the shape `gobo xlogo report --json` prints).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The report as Markdown tables (rates in percent, counts beside them).
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let o = &self.overall;
        let _ = writeln!(
            out,
            "{} rows: success {}, format {}, no crash {}",
            o.rows,
            pct(o.success, o.success_rate),
            pct(o.format_ok, o.format_rate),
            pct(o.no_crash, o.no_crash_rate)
        );
        if self.unmatched > 0 {
            let _ = writeln!(out, "{} rows matched no task", self.unmatched);
        }
        for d in &self.by {
            let _ = writeln!(out, "\n| {} | rows | success | format | no crash |", d.dimension);
            out.push_str("|---|---:|---:|---:|---:|\n");
            for a in &d.aspects {
                let r = &a.rates;
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} |",
                    a.aspect,
                    r.rows,
                    pct(r.success, r.success_rate),
                    pct(r.format_ok, r.format_rate),
                    pct(r.no_crash, r.no_crash_rate)
                );
            }
        }
        out
    }
}

fn pct(count: usize, rate: f64) -> String {
    format!("{:.2} % ({count})", rate * 100.0)
}
