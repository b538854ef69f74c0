//! `series` checks: one measure of a probe's (or a sprite's position's) frame-to-frame series
//! over a window: the largest step ("no teleport"), the path travelled, distinct values,
//! changes, direction reversals, peaks, and the gaps in time between changes. Evaluating the
//! other checks lives in `eval.rs`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::describe::num;
use super::eval::{instance, probe, Outcome};
use super::model::{Measure, NumMatch, Track};
use super::observe::Snapshot;
use crate::scratch::value::cast::to_number;

/// One sample: a number (`y` unused) or a position, and its frame.
#[derive(Clone, Copy)]
struct Sample {
    x: f64,
    y: f64,
    frame: u64,
}

fn samples(window: &[Snapshot], track: &Track) -> Vec<Sample> {
    window
        .iter()
        .filter_map(|s| match track {
            Track::Number(p) => {
                probe(s, p).map(|v| Sample { x: to_number(&v), y: 0.0, frame: s.frame })
            }
            Track::Position { sprite, clone } => instance(s, &sprite.resolved, *clone)
                .map(|o| Sample { x: o.x, y: o.y, frame: s.frame }),
        })
        .collect()
}

fn step(a: &Sample, b: &Sample) -> f64 {
    libm::hypot(b.x - a.x, b.y - a.y)
}

fn same(a: &Sample, b: &Sample) -> bool {
    a.x == b.x && a.y == b.y
}

/// The signs (+1 / -1) of the non-zero changes of a number series, in order.
fn turns(s: &[Sample]) -> Vec<i8> {
    s.windows(2)
        .filter_map(|w| match w[1].x - w[0].x {
            d if d > 0.0 => Some(1),
            d if d < 0.0 => Some(-1),
            _ => None,
        })
        .collect()
}

/// Judges `measure` of `track` over the frames of `window` against `expect`.
pub(crate) fn judge(
    window: &[Snapshot],
    fps: u32,
    track: &Track,
    measure: Measure,
    expect: &NumMatch,
) -> Outcome {
    let s = samples(window, track);
    if s.is_empty() {
        return Outcome { ok: false, observed: String::from("it was never observed") };
    }
    let frames = s.len();
    let (value, observed): (f64, String) = match measure {
        Measure::MaxStep => {
            let m = s.windows(2).map(|w| step(&w[0], &w[1])).fold(0.0, f64::max);
            (m, format!("its largest step was {} in {frames} frames", num(m)))
        }
        Measure::Path => {
            let p: f64 = s.windows(2).map(|w| step(&w[0], &w[1])).sum();
            (p, format!("it travelled {} in {frames} frames", num(p)))
        }
        Measure::Distinct => {
            let mut seen: Vec<Sample> = Vec::new();
            for x in &s {
                if !seen.iter().any(|y| same(x, y)) {
                    seen.push(*x);
                }
            }
            let n = seen.len() as f64;
            (n, format!("it took {} distinct values in {frames} frames", num(n)))
        }
        Measure::Changes => {
            let n = s.windows(2).filter(|w| !same(&w[0], &w[1])).count() as f64;
            (n, format!("it changed {} times in {frames} frames", num(n)))
        }
        Measure::Reversals => {
            let n = turns(&s).windows(2).filter(|w| w[0] != w[1]).count() as f64;
            (n, format!("it reversed {} times in {frames} frames", num(n)))
        }
        Measure::Peaks => {
            let n = turns(&s).windows(2).filter(|w| w[0] > 0 && w[1] < 0).count() as f64;
            (n, format!("it peaked {} times in {frames} frames", num(n)))
        }
        Measure::Range => {
            let lo = s.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
            let hi = s.iter().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
            (
                hi - lo,
                format!(
                    "it ranged over {} (from {} to {}) in {frames} frames",
                    num(hi - lo),
                    num(lo),
                    num(hi)
                ),
            )
        }
        Measure::AboveMin | Measure::BelowMax => {
            let last = s[s.len() - 1].x;
            let (v, word) = if measure == Measure::AboveMin {
                (last - s.iter().map(|p| p.x).fold(f64::INFINITY, f64::min), "above its lowest")
            } else {
                (
                    s.iter().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max) - last,
                    "below its highest",
                )
            };
            (v, format!("it ended {} {word} in {frames} frames", num(v)))
        }
        Measure::ShortestGap | Measure::LongestGap => {
            let at: Vec<u64> =
                s.windows(2).filter(|w| !same(&w[0], &w[1])).map(|w| w[1].frame).collect();
            if at.len() < 2 {
                let observed = format!("it changed {} times: no gap between changes", at.len());
                return Outcome { ok: false, observed };
            }
            let gaps = at.windows(2).map(|w| (w[1] - w[0]) as f64 / f64::from(fps));
            let (g, word) = if measure == Measure::ShortestGap {
                (gaps.fold(f64::INFINITY, f64::min), "shortest")
            } else {
                (gaps.fold(0.0, f64::max), "longest")
            };
            (g, format!("the {word} gap between its {} changes was {} s", at.len(), num(g)))
        }
    };
    Outcome { ok: expect.test(value), observed }
}
