//! The process's allocator: mimalloc (the HTTP server and the batch commands allocate from
//! several threads at once, where it costs well under the system allocator), with a counter of
//! live bytes that `gobo pack` switches on to measure the kit application's peak heap.
//!
//! Counting is off except inside [`peak_of`], so the other commands pay one relaxed load per
//! allocation and no shared writes.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

use mimalloc::MiMalloc;

/// mimalloc, counting live bytes while [`COUNTING`] is set.
struct Heap;

static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus bytes freed while counting (negative when blocks from before are
/// freed).
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn count(delta: isize) {
    let live = LIVE.fetch_add(delta, Ordering::Relaxed) + delta;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn size(layout: Layout) -> isize {
    isize::try_from(layout.size()).unwrap_or(isize::MAX)
}

// A global allocator must implement the unsafe `GlobalAlloc`.
#[allow(unsafe_code)]
// SAFETY: every call is forwarded unchanged to mimalloc; the counters only observe sizes.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { MiMalloc.alloc(layout) };
        if !ptr.is_null() && COUNTING.load(Ordering::Relaxed) {
            count(size(layout));
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !ptr.is_null() && COUNTING.load(Ordering::Relaxed) {
            count(size(layout));
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            count(-size(layout));
        }
        // SAFETY: same contract as the caller's.
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let new = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !new.is_null() && COUNTING.load(Ordering::Relaxed) {
            count(isize::try_from(new_size).unwrap_or(isize::MAX) - size(layout));
        }
        new
    }
}

#[global_allocator]
static HEAP: Heap = Heap;

/// Runs `f` with counting on (one thread at a time: `gobo pack` is single-threaded) and
/// returns its result with the peak of the bytes it held live beyond what was live before.
pub fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    LIVE.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    let r = f();
    COUNTING.store(false, Ordering::Relaxed);
    (r, usize::try_from(PEAK.load(Ordering::Relaxed)).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_counts_what_was_live_at_once() {
        let ((), peak) = peak_of(|| {
            let a = vec![0u8; 1 << 20];
            drop(a);
            let b = vec![0u8; 1 << 19];
            let c = vec![0u8; 1 << 19];
            drop((b, c));
        });
        assert!((1 << 20..(1 << 20) + 4096).contains(&peak), "{peak}");
    }
}
