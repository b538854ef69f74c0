//! The program heap: a fixed-size linked-list allocator (`embedded-alloc`) over a static
//! buffer, wrapped to record the high-water mark reported in `docs/firmware.md`.

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicUsize, Ordering};

use embedded_alloc::LlffHeap;

/// A global allocator over a fixed region that remembers the most bytes ever in use.
pub struct PeakHeap {
    heap: LlffHeap,
    peak: AtomicUsize,
    size: AtomicUsize,
}

impl PeakHeap {
    /// A heap with no memory yet; call [`PeakHeap::init`] before the first allocation.
    pub const fn empty() -> Self {
        Self { heap: LlffHeap::empty(), peak: AtomicUsize::new(0), size: AtomicUsize::new(0) }
    }

    /// Hands the heap its memory.
    ///
    /// # Safety
    /// Call once, before any allocation, with a region of `size` bytes at `start` that nothing
    /// else uses for the rest of the program.
    pub unsafe fn init(&self, start: usize, size: usize) {
        self.size.store(size, Ordering::Relaxed);
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.heap.init(start, size) }
    }

    /// Bytes in use now.
    pub fn used(&self) -> usize {
        self.heap.used()
    }

    /// The most bytes in use at any time since boot.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Heap size in bytes.
    pub fn size(&self) -> usize {
        self.size.load(Ordering::Relaxed)
    }
}

// SAFETY: forwards to `LlffHeap`, which is a correct allocator; only bookkeeping is added.
unsafe impl GlobalAlloc for PeakHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { self.heap.alloc(layout) };
        if !ptr.is_null() {
            self.peak.fetch_max(self.heap.used(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { self.heap.dealloc(ptr, layout) }
    }
}
