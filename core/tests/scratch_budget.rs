//! Runaway Scratch programs halt on the budgets of `Config` with the documented stop reason
//! (`docs/trace.md`, "Budgets"), within a bounded number of frames and a bounded peak of heap
//! memory, counted by a global allocator. One test per program in
//! `tests/fixtures/scratch/runaway/`, with the default budgets and with small ones; and the
//! register tier, which compiles the blocks the budgets charge, halts exactly as the
//! interpreter does (the runaway programs and generated projects, `tier_gen`).

#![allow(unsafe_code)] // a GlobalAlloc impl is unsafe by definition; it only forwards to System.

mod tier_gen;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::{end_line, frame_line, run_frames};
use gobo::scratch::value::Value;
use gobo::scratch::vm::{Config, StopReason, Vm};

struct Counting;

thread_local! {
    /// Live bytes allocated by this thread, and their peak since the last reset.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn add(n: isize) {
    let _ = LIVE.try_with(|l| {
        let v = l.get() + n;
        l.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const MIB: usize = 1 << 20;

/// Runs `name` for up to 300 frames; returns the stop, the frames run, the trace's end line
/// and the peak of heap bytes above the level before loading.
fn run(name: &str, cfg: Config) -> (gobo::scratch::vm::Stop, u64, String, usize) {
    let path = format!("{}/tests/fixtures/scratch/runaway/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("fixture");
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let img = compile(&load(&bytes).expect("load")).expect("compile");
    let mut vm = Vm::new(img, cfg).expect("vm");
    let mut lines = 0u64;
    run_frames(&mut vm, &Scenario::green_flag(), 300, false, &mut |_| lines += 1);
    let end = end_line(&vm);
    let stop = vm.stopped().cloned().unwrap_or_else(|| panic!("{name} ran 300 frames unhalted"));
    assert_eq!(lines, vm.frame(), "one trace line per completed frame");
    drop(vm);
    let peak = (PEAK.with(Cell::get) - base).max(0) as usize;
    (stop, lines, end, peak)
}

fn small() -> Config {
    Config {
        max_string_len: 4 * MIB,
        max_list_bytes: 16 * MIB,
        max_memory: 32 * MIB,
        max_call_depth: 100_000,
        ..Config::default()
    }
}

/// `(fixture, reason with the defaults, frame, reason with the small budgets)`.
macro_rules! runaway {
    ($name:ident, $reason:expr, $frame:expr, $small:expr) => {
        #[test]
        fn $name() {
            let name = stringify!($name);
            let (stop, frames, end, peak) = run(name, Config::default());
            println!("{name}: {stop}; peak {} MiB; {end}", peak / MIB);
            assert_eq!(stop.reason, $reason, "{name}: {stop}");
            assert_eq!((stop.frame, frames), ($frame, $frame), "{name}: {stop}");
            assert_eq!(stop.target.as_deref(), Some("Child"));
            assert!(
                end.contains(&format!("\"stop\":{{\"reason\":\"{}\"", $reason.name())),
                "{end}"
            );
            // The default ceiling is 1 GiB of accounted memory; a string being built may exist
            // twice (the scratch buffer and the value) on top of it.
            assert!(peak < 1536 * MIB, "{name}: peak {} MiB", peak / MIB);

            let cfg = small();
            let (stop, _, _, peak) = run(name, cfg.clone());
            println!("{name} (small budgets): {stop}; peak {} MiB", peak / MIB);
            assert_eq!(stop.reason, $small, "{name}: {stop}");
            let bound = cfg.max_memory + 3 * cfg.max_string_len + 8 * MIB;
            assert!(peak <= bound, "{name}: peak {} MiB > {} MiB", peak / MIB, bound / MIB);
        }
    };
}

// `set v to (join v v)` forever: the reference (scratch-vm 5.0.300 in Node) throws
// `RangeError: Invalid string length` in frame 0 when the string would pass 2^29 - 24 units,
// and prints no frame line; gobo halts in the same frame.
runaway!(join_doubling, StopReason::StringLength, 0, StopReason::StringLength);
// A loop adding fresh 16 MiB strings to a list (the reference runs out of memory at ~4 GB).
runaway!(list_of_big_strings, StopReason::ListBytes, 0, StopReason::StringLength);
// A run-without-screen-refresh custom block calling itself without a base case.
runaway!(recursion, StopReason::CallDepth, 0, StopReason::CallDepth);

/// The budget on list bytes follows clones (which copy their sprite's lists) and deletions.
#[test]
fn memory_estimate_counts_what_the_program_holds() {
    let path =
        format!("{}/tests/fixtures/scratch/runaway/join_doubling.json", env!("CARGO_MANIFEST_DIR"));
    let img = compile(&load(&std::fs::read(path).unwrap()).unwrap()).unwrap();
    let cfg = Config { max_string_len: 1000, ..Config::default() };
    let mut vm = Vm::new(img, cfg).unwrap();
    let before = vm.memory_estimate();
    run_frames(&mut vm, &Scenario::green_flag(), 5, false, &mut |_| {});
    let stop = vm.stopped().expect("halted");
    assert_eq!(stop.reason, StopReason::StringLength);
    // v holds 512 bytes ("ab" doubled 8 times) when the next join would pass 1000.
    assert!(vm.memory_estimate() >= before + 512, "{} vs {before}", vm.memory_estimate());
    // A halted VM stays halted: no more frames run.
    let f = vm.frame();
    vm.step_frame(&[]);
    assert_eq!(vm.frame(), f);
}

/// Every runaway program halts identically with the register tier on and off (same stop,
/// same trace lines, same end line), with small budgets and with tiny ones.
#[test]
fn runaways_halt_the_same_with_the_tier_on_or_off() {
    let tiny = Config {
        max_string_len: 1000,
        max_list_bytes: 64 * 1024,
        max_memory: MIB,
        max_call_depth: 500,
        ..Config::default()
    };
    for name in ["join_doubling", "list_of_big_strings", "recursion"] {
        for base in [small(), tiny.clone()] {
            let path = format!(
                "{}/tests/fixtures/scratch/runaway/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let bytes = std::fs::read(&path).expect("fixture");
            let [(on, regions), (off, _)] = [true, false].map(|tier| {
                let img = compile(&load(&bytes).expect("load")).expect("compile");
                let mut vm = Vm::new(img, Config { tier, ..base.clone() }).expect("vm");
                let regions = vm.tier_regions();
                let mut lines = Vec::new();
                run_frames(&mut vm, &Scenario::green_flag(), 300, false, &mut |l| {
                    lines.push(l.to_string())
                });
                ((vm.stopped().cloned(), lines, end_line(&vm), state(&vm)), regions)
            });
            assert!(off.0.is_some(), "{name} ran 300 frames unhalted");
            assert_eq!(on, off, "{name}: tier on vs off");
            // The loops of `join` and `add to list` run in the tier (the recursion has no
            // loop).
            if name != "recursion" {
                assert!(regions > 0, "{name}: no loop compiled");
            }
        }
    }
}

/// A value exactly (every NaN is one NaN in JavaScript).
fn exact(v: &Value) -> String {
    match v {
        Value::Num(n) if n.is_nan() => "NaN".into(),
        Value::Num(n) => format!("n{:016x}", n.to_bits()),
        Value::Str(s) => format!("s{s:?}"),
        Value::Bool(b) => format!("b{b}"),
        Value::Undefined => "u".into(),
    }
}

/// Every variable and list item of every target, exactly.
fn state(vm: &Vm) -> String {
    let o = vm.observe();
    let mut out = String::new();
    let vars = o
        .globals
        .iter()
        .map(|v| ("stage", v))
        .chain(o.sprites.iter().flat_map(|s| s.vars.iter().map(move |v| (&*s.name, v))));
    for (who, (n, v)) in vars {
        out.push_str(&format!("{who}.{n}={} ", exact(v)));
    }
    let lists = o
        .global_lists
        .iter()
        .map(|l| ("stage", l))
        .chain(o.sprites.iter().flat_map(|s| s.lists.iter().map(move |l| (&*s.name, l))));
    for (who, (n, items)) in lists {
        let items: Vec<String> = items.iter().map(exact).collect();
        out.push_str(&format!("{who}.{n}=[{}] ", items.join(",")));
    }
    out
}

/// Generated projects (`tier_gen`: `join`, `letter of`, `length of`, `contains` and every list
/// block in loops, `if`s, warp and plain procedures) under budgets small enough that most
/// halt: with the tier on and off, the same stop (reason, limit, frame, sprite), every frame's
/// trace line and exact state, the random draws and the end line. Each budget the blocks
/// charge must halt some of them.
#[test]
fn generated_projects_halt_the_same_with_the_tier_on_or_off() {
    let mut reasons = Vec::new();
    let mut regions = 0;
    for seed in 0..160u64 {
        let json = tier_gen::project(seed);
        let mut rng = tier_gen::Rng::new(seed ^ 0x5EED);
        let base = Config {
            seed: seed as u32,
            warp_checks: [3, 50, 1000][rng.below(3)],
            ticks_per_frame: [1, 4, 50][rng.below(3)],
            max_list_len: 60,
            max_string_len: [8, 24, 2000][rng.below(3)],
            max_list_bytes: [400, 1500, 1 << 20][rng.below(3)],
            max_memory: [2_500, 6_000, 1 << 24][rng.below(3)],
            max_frame_work: [30, 300, 3000, 1 << 30, 1 << 30][rng.below(5)],
            ..Config::default()
        };
        let [(on, n), (off, _)] = [true, false].map(|tier| {
            let img = compile(&load(json.as_bytes()).expect("load")).expect("compile");
            let mut vm = Vm::new(img, Config { tier, ..base.clone() }).expect("vm");
            let n = vm.tier_regions();
            let mut frames = Vec::new();
            let sc = Scenario::green_flag();
            for f in 0..30 {
                let inputs: Vec<_> = sc.at(f).map(|(_, _, i)| i.clone()).collect();
                vm.step_frame(&inputs);
                frames.push(frame_line(&vm.observe(), &[]));
                frames.push(state(&vm));
            }
            ((vm.stopped().cloned(), frames, vm.random_calls(), end_line(&vm)), n)
        });
        assert_eq!(on.0, off.0, "seed {seed}: stop, tier on vs off\n{json}");
        if let Some(i) = on.1.iter().zip(&off.1).position(|(a, b)| a != b) {
            panic!(
                "seed {seed}: frame {} differs\ntier:        {}\ninterpreter: {}\n{json}",
                i / 2,
                on.1[i],
                off.1[i]
            );
        }
        assert_eq!(on, off, "seed {seed}: tier on vs off");
        if let Some(stop) = on.0 {
            reasons.push(stop.reason);
        }
        regions += n;
    }
    println!("{} of 160 halted; {regions} regions", reasons.len());
    for want in
        [StopReason::Work, StopReason::ListBytes, StopReason::StringLength, StopReason::Memory]
    {
        assert!(reasons.contains(&want), "no generated project halted on {want:?}: {reasons:?}");
    }
    assert!(regions > 160, "only {regions} regions compiled");
}
