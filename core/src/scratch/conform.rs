//! scratch-vm's execute-fixture protocol (`test/integration/execute.js`, as the reference
//! harness's `conformance.js` runs it): a project reports through SAY events whose first word
//! is `plan N`, `pass`, `fail` or `end`; it passes when it ends, nothing failed and the plan
//! matches. One idle frame runs before the green flag, like upstream's already-running VM.

use crate::scratch::value::case;
use alloc::string::String;
use alloc::vec::Vec;

use super::image::Image;
use super::value::cast::to_str_value;
use super::vm::{Config, Input, Vm, VmError};

/// Outcome of one fixture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The announced plan.
    pub plan: Option<i64>,
    /// Passing assertions.
    pub pass: u32,
    /// Failing assertions (messages).
    pub failures: Vec<String>,
    /// Whether `end` was said.
    pub ended: bool,
    /// Frames run.
    pub frames: u64,
    /// Threads were still running after the frame budget.
    pub timed_out: bool,
}

impl Outcome {
    /// The TAP verdict: ended, no failure, plan matches.
    pub fn ok(&self) -> bool {
        let plan_ok =
            self.plan.is_none_or(|p| p == i64::from(self.pass) + self.failures.len() as i64);
        !self.timed_out && self.failures.is_empty() && self.ended && plan_ok
    }
}

fn report(o: &mut Outcome, text: &str) {
    let trimmed = text.trim_start();
    let word_end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let (cmd, rest) = if text.starts_with(char::is_whitespace) {
        ("", text)
    } else {
        (&text[..word_end.min(text.len())], &text[word_end.min(text.len())..])
    };
    let rest = rest.trim();
    match case::to_lower(cmd).as_str() {
        "pass" => o.pass += 1,
        "fail" => o.failures.push(String::from(rest)),
        "plan" => {
            if o.plan.is_some() {
                o.failures.push(String::from("tried to set plan more than once"));
            }
            let n = super::value::number::parse_js_number(rest);
            o.plan = Some(if n.is_finite() { n as i64 } else { -1 });
        }
        "end" => {
            if o.ended {
                o.failures.push(String::from("tried to end more than once"));
            }
            o.ended = true;
        }
        _ => {}
    }
}

/// Run one compiled fixture under the protocol, for at most `max_frames` frames.
pub fn run_fixture(img: Image, cfg: Config, max_frames: u64) -> Result<Outcome, VmError> {
    let mut vm = Vm::new(img, cfg)?;
    let mut o = Outcome::default();
    let collect = |vm: &Vm, o: &mut Outcome| {
        for e in &vm.events().says {
            let t = to_str_value(&e.text);
            report(o, &t);
        }
    };
    vm.step_frame(&[]);
    collect(&vm, &mut o);
    vm.step_frame(&[Input::GreenFlag]);
    collect(&vm, &mut o);
    while vm.thread_count() > 0 && !o.ended {
        if vm.frame() >= max_frames {
            o.timed_out = true;
            break;
        }
        vm.step_frame(&[]);
        collect(&vm, &mut o);
    }
    if !o.timed_out && vm.thread_count() > 0 {
        vm.step_frame(&[]);
        collect(&vm, &mut o);
    }
    o.frames = vm.frame();
    Ok(o)
}
