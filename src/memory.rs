//! Large tables that cost memory only as they fill.
//!
//! A transposition table of 4 GiB must answer `isready` at once and take resident memory only
//! for the pages the search writes. [`ZeroedTable`] asks the allocator for *zeroed* memory with
//! an alignment it serves through `calloc`; for large blocks `calloc` maps fresh pages that the
//! system hands out, already zero, when they are first touched. (Rust's allocator zero-fills
//! by hand any block whose alignment exceeds 16 bytes, which touches every page up front; the
//! table therefore over-allocates by one alignment unit and aligns inside the block itself.)
//! Clearing a table means taking a fresh block, and the old block is released on a helper
//! thread, so neither costs time proportional to the size.

use std::alloc::Layout;
use std::ptr::NonNull;

/// Types for which all-zero bytes are a valid value, and which need no drop.
///
/// # Safety
/// The implementor guarantees that a value whose bytes are all zero is a valid value of the
/// type, and that the type has no drop glue.
pub unsafe trait Zeroable {}

/// The alignment `calloc` serves (the allocator's minimum on 64-bit Unix and Windows).
const CALLOC_ALIGN: usize = 16;

/// A fixed-length slice of `T`, initially all zero, in memory that the system provides lazily.
pub struct ZeroedTable<T: Zeroable> {
    /// The block as allocated (for freeing).
    base: NonNull<u8>,
    layout: Layout,
    /// The first element, aligned for `T` inside the block.
    first: NonNull<T>,
    len: usize,
}

// SAFETY: the table owns its elements exclusively, like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for ZeroedTable<T> {}
// SAFETY: shared access hands out `&[T]` only, like a `Box<[T]>`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedTable<T> {}

/// Blocks from this size on are asked to be backed by huge pages.
const HUGE_FROM: usize = 4 << 20;

/// The largest block [`ZeroedTable::new`] asks huge pages for. A huge page is resident as a
/// whole once one byte of it is written, so a search's table of gigabytes would cost most of
/// its memory after a short search (tests/hash_memory.rs holds tables to cost memory only as
/// they fill); up to this size the whole table costs little. A table that will be filled
/// anyway asks for them at any size ([`ZeroedTable::new_filled`]).
const HUGE_UP_TO: usize = 256 << 20;

/// Asks Linux to back the block with transparent huge pages (`madvise(MADV_HUGEPAGE)`, which
/// the common `madvise` setting of `/sys/kernel/mm/transparent_hugepage/enabled` waits for):
/// a table of gigabytes, probed at random, then takes one page fault and one TLB entry per
/// 2 MiB instead of per 4 KiB. Only the whole pages inside the block are named; a refusal
/// (an old kernel, THP off) changes nothing, so the result is ignored.
fn ask_for_huge_pages(start: *mut u8, bytes: usize, up_to: usize) {
    #[cfg(target_os = "linux")]
    if (HUGE_FROM..=up_to).contains(&bytes) {
        const PAGE: usize = 4096;
        let skip = start.align_offset(PAGE);
        let len = (bytes - skip) / PAGE * PAGE;
        // SAFETY: `start + skip .. + len` lies inside the block just allocated and is
        // page-aligned; the advice changes how pages are backed, never their contents.
        unsafe {
            libc::madvise(start.add(skip).cast(), len, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes, up_to, HUGE_FROM);
}

impl<T: Zeroable> ZeroedTable<T> {
    /// An empty table (no allocation).
    pub fn empty() -> Self {
        ZeroedTable {
            base: NonNull::dangling(),
            layout: Layout::new::<()>(),
            first: NonNull::dangling(),
            len: 0,
        }
    }

    /// `len` zero elements, or `None` when the memory cannot be had (or `len` is absurd); on
    /// huge pages from 4 MiB to 256 MiB (`HUGE_UP_TO`), on small pages (resident only as they
    /// are written) above.
    pub fn new(len: usize) -> Option<Self> {
        Self::allocate(len, HUGE_UP_TO)
    }

    /// As [`ZeroedTable::new`], on huge pages at any size from 4 MiB: for a table that will be
    /// filled anyway (a solver's), which then takes a page fault and a TLB entry per 2 MiB.
    pub fn new_filled(len: usize) -> Option<Self> {
        Self::allocate(len, usize::MAX)
    }

    fn allocate(len: usize, huge_up_to: usize) -> Option<Self> {
        const { assert!(!std::mem::needs_drop::<T>()) };
        if len == 0 || std::mem::size_of::<T>() == 0 {
            return Some(ZeroedTable {
                len,
                ..Self::empty()
            });
        }
        let align = std::mem::align_of::<T>();
        let bytes = std::mem::size_of::<T>()
            .checked_mul(len)?
            .checked_add(align.saturating_sub(CALLOC_ALIGN))?;
        let layout = Layout::from_size_align(bytes, CALLOC_ALIGN.min(align.max(1))).ok()?;
        // SAFETY: the layout has a non-zero size.
        let base = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = base.as_ptr().align_offset(align);
        // SAFETY: the block holds `offset + len · size_of::<T>()` bytes (the slack added above
        // covers any offset below `align`), so `first` and the `len` elements after it lie inside
        // it; all bytes are zero, a valid `T` by `Zeroable`.
        let first = unsafe { NonNull::new_unchecked(base.as_ptr().add(offset) as *mut T) };
        ask_for_huge_pages(base.as_ptr(), bytes, huge_up_to);
        Some(ZeroedTable {
            base,
            layout,
            first,
            len,
        })
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Replaces the table by a zeroed one of the same length and releases the old memory on a
    /// helper thread. Returns `false` (and keeps the old contents) when the memory cannot be had.
    pub fn clear(&mut self) -> bool
    where
        T: Send + 'static,
    {
        let Some(fresh) = Self::new(self.len) else {
            return false;
        };
        std::mem::replace(self, fresh).release();
        true
    }

    /// Frees the table; a large one on a helper thread, since unmapping gigabytes of written
    /// pages takes a while and nobody needs to wait for it.
    pub fn release(self)
    where
        T: Send + 'static,
    {
        if self.layout.size() >= 1 << 24 {
            // Where no thread can be had, the failed spawn drops the closure, freeing it here.
            let _ = std::thread::Builder::new()
                .name("table-release".into())
                .spawn(move || drop(self));
        }
    }
}

impl<T: Zeroable> Drop for ZeroedTable<T> {
    fn drop(&mut self) {
        if self.layout.size() > 0 {
            // SAFETY: `base` was returned by `alloc_zeroed` with exactly this layout; `T` needs
            // no drop, so the elements need no destructor.
            unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
        }
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedTable<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `first` points to `len` initialised elements (or is dangling with `len` 0).
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for ZeroedTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

/// The resident memory of this process in bytes (Linux: `/proc/self/statm`), for tests and
/// reports; `None` where the system does not say.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics of zero are valid; no drop glue.
    unsafe impl Zeroable for Line {}

    /// The smaps flag `THPeligible` of the mapping that holds `addr` (Linux), if found.
    #[cfg(target_os = "linux")]
    fn huge_page_eligible(addr: usize) -> Option<bool> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = range.split_once('-')
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                inside = (a..b).contains(&addr);
            } else if inside && let Some(flag) = line.strip_prefix("THPeligible:") {
                return Some(flag.trim() == "1");
            }
        }
        None
    }

    /// A large table is advised onto huge pages; a small one is left alone (skipped with the
    /// reason where the system has transparent huge pages off).
    #[cfg(target_os = "linux")]
    #[test]
    fn large_tables_ask_for_huge_pages() {
        let setting = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .unwrap_or_default();
        if !setting.contains("[madvise]") && !setting.contains("[always]") {
            eprintln!(
                "SKIPPED: transparent huge pages are off here ({})",
                setting.trim()
            );
            return;
        }
        let large = ZeroedTable::<Line>::new((64 << 20) / 64).unwrap();
        let middle = large.first.as_ptr() as usize + (32 << 20);
        assert_eq!(huge_page_eligible(middle), Some(true), "64 MiB table");
        // Above 256 MiB only a table that will be filled asks (nothing is written here).
        let lazy = ZeroedTable::<Line>::new((512 << 20) / 64).unwrap();
        let filled = ZeroedTable::<Line>::new_filled((512 << 20) / 64).unwrap();
        let at = |t: &ZeroedTable<Line>| t.first.as_ptr() as usize + (256 << 20);
        if setting.contains("[madvise]") {
            assert_eq!(
                huge_page_eligible(at(&lazy)),
                Some(false),
                "512 MiB search table"
            );
        }
        assert_eq!(
            huge_page_eligible(at(&filled)),
            Some(true),
            "512 MiB solver table"
        );
        if setting.contains("[madvise]") {
            let small = ZeroedTable::<Line>::new(1000).unwrap();
            let at = small.first.as_ptr() as usize;
            assert_ne!(huge_page_eligible(at), Some(true), "a 64 KB table");
        }
    }

    #[test]
    fn elements_are_zero_aligned_and_writable() {
        let mut t = ZeroedTable::<Line>::new(1000).unwrap();
        assert_eq!(t.len(), 1000);
        assert_eq!(t.as_ptr() as usize % 64, 0);
        assert!(t.iter().all(|l| l.0.iter().all(|w| w.load(Relaxed) == 0)));
        t[999].0[7].store(5, Relaxed);
        assert_eq!(t[999].0[7].load(Relaxed), 5);
        assert!(t.clear());
        assert_eq!(t[999].0[7].load(Relaxed), 0);
        assert!(ZeroedTable::<Line>::new(usize::MAX / 2).is_none());
        assert!(ZeroedTable::<Line>::new(0).unwrap().is_empty());
    }

    /// The point of the type: a gigabyte costs (almost) no resident memory until touched, and
    /// a clear does not touch it either. Fails when the block is zero-filled by hand, as the
    /// allocator does for alignments above 16.
    #[test]
    fn a_large_table_is_not_resident_until_touched() {
        let Some(before) = resident_bytes() else {
            return; // not Linux: nothing to measure
        };
        let mut t = ZeroedTable::<Line>::new((1 << 30) / 64).unwrap();
        assert!(t.clear());
        let after = resident_bytes().unwrap();
        assert!(
            after < before + (256 << 20),
            "1 GiB table made {} MiB resident",
            (after.saturating_sub(before)) >> 20
        );
        t[12345].0[0].store(1, Relaxed);
        assert_eq!(t[12345].0[0].load(Relaxed), 1);
    }
}
