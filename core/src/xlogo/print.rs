//! AST → Python-style source, in the exact layout of the oracle's `code_py`: 4-space indent,
//! loop variables `i`, `j`, `k`, ... by nesting depth, `pass` for an empty body, `setpc('red')`
//! / `setpc(None)`, no trailing newline. [`crate::xlogo::python::parse`] reads it back.

use alloc::string::String;

use super::ast::{Program, Stmt};

const LOOP_VARS: &[u8] = b"ijklmnopqrstuvwxyzabcdefgh";

/// Renders a program as Python-style source.
pub fn to_python(program: &Program) -> String {
    let mut out = String::from("def run():");
    body(&mut out, &program.run, 1);
    out
}

fn body(out: &mut String, stmts: &[Stmt], depth: usize) {
    if stmts.is_empty() {
        line(out, depth, "pass");
        return;
    }
    for stmt in stmts {
        match stmt {
            Stmt::Fd => line(out, depth, "move_forward()"),
            Stmt::Bk => line(out, depth, "move_backward()"),
            Stmt::Lt => line(out, depth, "turn_left()"),
            Stmt::Rt => line(out, depth, "turn_right()"),
            Stmt::SetPc(None) => line(out, depth, "setpc(None)"),
            Stmt::SetPc(Some(c)) => {
                newline(out, depth);
                out.push_str("setpc('");
                out.push_str(c.as_str());
                out.push_str("')");
            }
            Stmt::Repeat { times, body: inner } => {
                newline(out, depth);
                out.push_str("for ");
                push_loop_var(out, depth - 1);
                out.push_str(" in range(");
                push_u8(out, *times);
                out.push_str("):");
                body(out, inner, depth + 1);
            }
        }
    }
}

fn push_loop_var(out: &mut String, level: usize) {
    let letter = LOOP_VARS.get(level % LOOP_VARS.len()).copied().unwrap_or(b'i');
    out.push(char::from(letter));
    if level >= LOOP_VARS.len() {
        push_u8(out, (level / LOOP_VARS.len()).min(255) as u8);
    }
}

fn push_u8(out: &mut String, n: u8) {
    if n >= 100 {
        out.push(char::from(b'0' + n / 100));
    }
    if n >= 10 {
        out.push(char::from(b'0' + (n / 10) % 10));
    }
    out.push(char::from(b'0' + n % 10));
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("    ");
    }
}

fn line(out: &mut String, depth: usize, text: &str) {
    newline(out, depth);
    out.push_str(text);
}
