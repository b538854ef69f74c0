//! Shrinking a diverging program: greedy passes that remove sprites, scripts, custom blocks,
//! scenario events, frames, stack blocks (or replace a C-block by its body) and reporters (a
//! literal instead), keeping each change while the program still diverges, until a whole pass
//! changes nothing or the run budget is spent.

use super::gen::{Block, Expr, ProjectDef};

/// Reference runs per minimization by default.
pub const MAX_RUNS: u64 = 600;

/// Visits every stack (script bodies, custom block bodies, C-block branches) in a fixed order.
fn stacks_mut(def: &mut ProjectDef, f: &mut dyn FnMut(&mut Vec<Block>)) {
    fn walk(stack: &mut Vec<Block>, f: &mut dyn FnMut(&mut Vec<Block>)) {
        f(stack);
        for b in stack.iter_mut() {
            for branch in &mut b.branches {
                walk(branch, f);
            }
        }
    }
    for s in &mut def.stage {
        walk(&mut s.body, f);
    }
    for sp in &mut def.sprites {
        for s in &mut sp.scripts {
            walk(&mut s.body, f);
        }
        for p in &mut sp.procs {
            walk(&mut p.body, f);
        }
    }
}

/// Visits every argument list (of stack blocks and of reporters) in a fixed order.
fn exprs_mut(def: &mut ProjectDef, f: &mut dyn FnMut(&mut Vec<Expr>)) {
    fn walk_expr(args: &mut Vec<Expr>, f: &mut dyn FnMut(&mut Vec<Expr>)) {
        f(args);
        for e in args.iter_mut() {
            if let Expr::Rep(_, _, inner) = e {
                walk_expr(inner, f);
            }
        }
    }
    stacks_mut(def, &mut |stack| {
        for b in stack.iter_mut() {
            walk_expr(&mut b.args, f);
        }
    });
}

fn count_stacks(def: &ProjectDef) -> Vec<usize> {
    let mut d = def.clone();
    let mut lens = Vec::new();
    stacks_mut(&mut d, &mut |s| lens.push(s.len()));
    lens
}

fn count_exprs(def: &ProjectDef) -> Vec<usize> {
    let mut d = def.clone();
    let mut lens = Vec::new();
    exprs_mut(&mut d, &mut |a| lens.push(a.len()));
    lens
}

/// Applies `edit` to the `n`-th stack of a copy.
fn edit_stack(def: &ProjectDef, n: usize, edit: &dyn Fn(&mut Vec<Block>)) -> ProjectDef {
    let mut d = def.clone();
    let mut k = 0;
    stacks_mut(&mut d, &mut |s| {
        if k == n {
            edit(s);
        }
        k += 1;
    });
    d
}

fn edit_exprs(def: &ProjectDef, n: usize, edit: &dyn Fn(&mut Vec<Expr>)) -> ProjectDef {
    let mut d = def.clone();
    let mut k = 0;
    exprs_mut(&mut d, &mut |a| {
        if k == n {
            edit(a);
        }
        k += 1;
    });
    d
}

/// The candidates of one pass, coarse first.
fn candidates(def: &ProjectDef) -> Vec<ProjectDef> {
    let mut out = Vec::new();
    for i in 0..def.sprites.len() {
        let mut d = def.clone();
        d.sprites.remove(i);
        out.push(d);
    }
    for i in 0..def.stage.len() {
        let mut d = def.clone();
        d.stage.remove(i);
        out.push(d);
    }
    for (k, sp) in def.sprites.iter().enumerate() {
        for i in 0..sp.scripts.len() {
            let mut d = def.clone();
            d.sprites[k].scripts.remove(i);
            out.push(d);
        }
        for i in 0..sp.procs.len() {
            let mut d = def.clone();
            d.sprites[k].procs[i].body.clear();
            if d != *def {
                out.push(d);
            }
        }
    }
    for i in 0..def.events.len() {
        let mut d = def.clone();
        d.events.remove(i);
        out.push(d);
    }
    if !def.frames.is_multiple_of(31) {
        let mut d = def.clone();
        d.frames = 0;
        out.push(d);
        let mut d = def.clone();
        d.frames = (def.frames % 31) / 2;
        out.push(d);
    }
    for (n, len) in count_stacks(def).into_iter().enumerate() {
        for i in 0..len {
            out.push(edit_stack(def, n, &|s| {
                s.remove(i);
            }));
            out.push(edit_stack(def, n, &|s| {
                let body = s[i].branches.first().cloned().unwrap_or_default();
                if !s[i].branches.is_empty() {
                    s.splice(i..=i, body);
                }
            }));
        }
    }
    for (n, len) in count_exprs(def).into_iter().enumerate() {
        for i in 0..len {
            out.push(edit_exprs(def, n, &|a| {
                if matches!(a[i], Expr::Rep(..) | Expr::Var(_) | Expr::List(_) | Expr::Param(_)) {
                    a[i] = Expr::Int(0);
                }
            }));
            out.push(edit_exprs(def, n, &|a| {
                if let Expr::Rep(_, _, inner) = &a[i] {
                    if let Some(first) = inner.first().cloned() {
                        a[i] = first;
                    }
                }
            }));
        }
    }
    out.retain(|d| d != def);
    out
}

/// Shrinks `def` while `diverges` holds, making at most `max_runs` checks; returns the smallest
/// program found and the number of checks made.
pub fn minimize(
    def: &ProjectDef,
    max_runs: u64,
    mut diverges: impl FnMut(&ProjectDef) -> bool,
) -> (ProjectDef, u64) {
    let mut best = def.clone();
    let mut runs = 0u64;
    'passes: loop {
        let mut changed = false;
        for cand in candidates(&best) {
            if runs >= max_runs {
                break 'passes;
            }
            if cand.size() > best.size() {
                continue;
            }
            runs += 1;
            if diverges(&cand) {
                best = cand;
                changed = true;
                // Candidates were built from the old program: start a new pass.
                break;
            }
        }
        if !changed {
            break;
        }
    }
    (best, runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::program_def;

    /// A planted "divergence" that depends on one reporter survives; everything else goes.
    #[test]
    fn shrinks_to_what_matters() {
        let has_mod = |d: &ProjectDef| {
            d.program(crate::diff::gen::Profile::Full).project_json.contains("operator_mod")
        };
        let def = (0..5000)
            .map(|i| program_def(7, i))
            .find(|d| has_mod(d) && d.size() > 20)
            .expect("a program with mod");
        let (small, runs) = minimize(&def, MAX_RUNS, |d| has_mod(d));
        assert!(has_mod(&small));
        assert!(small.size() < def.size() / 2, "{} -> {}", def.size(), small.size());
        assert!(runs <= MAX_RUNS);
    }
}
