//! The goal checker: decides `goal_ok` from the visited trace (start cell included, revisits
//! kept) or the drawn edges, exactly as the reference's SMT formulas evaluate with fixed items.

use super::world::{bit, Bits, GoalCheck, Target, World};

/// Checks the goal. `trace` holds the cell index of every visited position in order;
/// `visited` is the set of those cells; `edges` the drawn edge colours.
pub(crate) fn check(world: &World, trace: &[u32], visited: &[u64], edges: &[u8]) -> bool {
    match &world.goal {
        GoalCheck::Draw => edges == world.target_edges.as_slice(),
        GoalCheck::Items { items_ok, target, forbids } => {
            if !items_ok {
                return false;
            }
            if forbids.iter().any(|f| intersects(f, visited)) {
                return false;
            }
            match target {
                None => true,
                Some(Target::Find(s)) => intersects(s, visited),
                Some(Target::CollectAll(s)) => {
                    intersects(s, visited) && s.iter().zip(visited).all(|(s, v)| s & !v == 0)
                }
                Some(Target::Sum(s, total)) => {
                    let mut sum = 0i64;
                    for (cell, count) in world.counts.iter().enumerate() {
                        if bit(s, cell) && bit(visited, cell) {
                            sum += i64::from(*count);
                        }
                    }
                    sum == *total
                }
                Some(Target::Concat(specs)) => concat(specs, trace),
            }
        }
    }
}

fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(a, b)| a & b != 0)
}

/// `concat S1..Sk`: each spec matches exactly one position of the trace; and for every position
/// p ≥ 1, a match of S(i+1) needs an earlier match of Si, and a match of Si forbids an earlier
/// match of S(i+1).
fn concat(specs: &[Bits], trace: &[u32]) -> bool {
    for s in specs {
        if trace.iter().filter(|c| bit(s, **c as usize)).count() != 1 {
            return false;
        }
    }
    for pair in specs.windows(2) {
        let [cur, next] = pair else { continue };
        let mut seen_cur = trace.first().is_some_and(|c| bit(cur, *c as usize));
        let mut seen_next = trace.first().is_some_and(|c| bit(next, *c as usize));
        for &cell in trace.iter().skip(1) {
            let m_cur = bit(cur, cell as usize);
            let m_next = bit(next, cell as usize);
            if m_next && !seen_cur {
                return false;
            }
            if m_cur && seen_next {
                return false;
            }
            seen_cur |= m_cur;
            seen_next |= m_next;
        }
    }
    true
}
