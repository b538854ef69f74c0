//! The evaluation hot path does not allocate: once an `Emulator`'s buffers have grown, evaluating
//! programs (item goals, draw goals, crashes) performs zero heap allocations. Proven with a
//! counting global allocator.

#![allow(unsafe_code)] // a GlobalAlloc impl is unsafe by definition; it only forwards to System.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use gobo::xlogo::{load, python, Emulator, World};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn example(name: &str) -> Vec<u8> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/xlogo").join(name);
    std::fs::read(path).expect("example")
}

#[test]
fn evaluating_does_not_allocate_after_warm_up() {
    let find = World::new(&load::task_from_slice(&example("find-strawberry.json")).expect("task"));
    let draw = World::new(&load::task_from_slice(&example("draw-square.json")).expect("task"));
    let programs: Vec<_> = [
        "def run():\n    turn_right()\n    for i in range(2):\n        move_forward()\n    turn_left()\n    for i in range(2):\n        move_forward()",
        "def run():\n    for i in range(2):\n        move_forward()",
        "def run():\n    setpc('red')\n    for i in range(4):\n        move_forward()\n        turn_right()",
        "def run():\n    for i in range(12):\n        for j in range(12):\n            turn_left()\n            move_forward()\n            move_backward()",
    ]
    .iter()
    .map(|s| python::parse(s.as_bytes()).expect("parses"))
    .collect();
    let mut emulator = Emulator::new();
    // Warm-up grows every buffer to its largest size.
    for world in [&find, &draw] {
        for p in &programs {
            emulator.evaluate(world, p);
        }
    }
    let before = ALLOCS.load(Ordering::Relaxed);
    let mut successes = 0;
    for _ in 0..100 {
        for world in [&find, &draw] {
            for p in &programs {
                successes += usize::from(emulator.evaluate(world, p).success());
            }
        }
    }
    let allocations = ALLOCS.load(Ordering::Relaxed) - before;
    assert_eq!(allocations, 0, "allocations during 800 evaluations");
    assert_eq!(successes, 200, "the two solutions succeed every time");
}
