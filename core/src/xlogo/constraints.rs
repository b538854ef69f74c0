//! The code-constraint checker: `at_most`, `exactly` and `start_by` over block counts, with the
//! reference's quirk that per-type limits are consulted only for block types the code uses.

use super::ast::{BlockCounts, BlockKind, Program};
use super::task::Constraints;

/// `cons_ok`. Where the reference throws (a key in both `exactly` and `at_most` once it is
/// consulted; a `start_by` longer than the program), gobo reports a constraint failure.
pub(crate) fn check(cons: &Constraints, counts: &BlockCounts, program: &Program) -> bool {
    for (kind, n) in counts.iter() {
        if !within(cons, kind, n) {
            return false;
        }
    }
    if !within(cons, BlockKind::All, counts.total()) {
        return false;
    }
    for (i, (kind, _)) in cons.start_by.iter().enumerate() {
        match program.run.get(i) {
            Some(stmt) if Some(stmt.kind()) == *kind => {}
            _ => return false,
        }
    }
    true
}

fn within(cons: &Constraints, kind: BlockKind, n: u32) -> bool {
    let k = kind.index();
    let exactly = cons.exactly.get(k).copied().flatten();
    let at_most = cons.at_most.get(k).copied().flatten();
    if exactly.is_some() && at_most.is_some() {
        return false;
    }
    let n = i64::from(n);
    let max_ok = exactly.or(at_most).is_none_or(|m| n <= m);
    let min_ok = n >= exactly.unwrap_or(0);
    max_ok && min_ok
}
