//! Transparent huge pages for the large buffers a run writes front to back (the sampled time
//! series): a hint to Linux to back them with 2 MiB pages instead of 4 KiB ones.
//!
//! Why: a buffer that grows to tens of megabytes takes a page fault for every 4 KiB it
//! reaches, and a fault costs far more than writing the page (the figures, and a caveat for
//! virtual machines that hand free memory back to their host: `docs/explanation/benchmarks.md`,
//! "Choices kept for speed"). Most Linux systems ship transparent huge pages in `madvise`
//! mode, used only where asked for. A hint changes no result, only how memory is mapped;
//! where the kernel refuses it or the target is not Linux it does nothing. Only buffers that
//! span a huge page or more are advised.

/// The size of a transparent huge page on x86-64 and most arm64 Linux systems, bytes.
pub const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Advises the kernel to back the allocated capacity of `v` (written or not) with transparent
/// huge pages, if it spans at least one huge page.
#[inline]
pub fn advise_vec<T>(v: &Vec<T>) {
    advise(v.as_ptr() as usize, v.capacity() * std::mem::size_of::<T>());
}

/// `advise_vec` on the memory `[start, start + bytes)`: its whole pages.
fn advise(start: usize, bytes: usize) {
    if bytes < HUGE_PAGE_BYTES {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        const MADV_HUGEPAGE: i32 = 14;
        extern "C" {
            fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
        }
        // Whole pages, the partial first and last ones included: advising part of a mapping
        // splits it, and the split-off ends could then never be huge pages.
        let first = start & !(PAGE - 1);
        let end = (start + bytes).next_multiple_of(PAGE);
        // SAFETY: every page of the range holds part of one live allocation (a vector's
        // capacity), so it is mapped; MADV_HUGEPAGE changes no contents (of the allocation
        // or of a neighbour sharing its first or last page), and a refusal (an old kernel,
        // huge pages turned off) is harmless, so its result is ignored.
        unsafe { madvise(first as *mut u8, end - first, MADV_HUGEPAGE) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advised_vectors_keep_their_contents_small_and_large() {
        for n in [10usize, HUGE_PAGE_BYTES / 8 + 3, 3 * HUGE_PAGE_BYTES / 8] {
            let mut v: Vec<u64> = Vec::with_capacity(n);
            advise_vec(&v);
            v.extend(0..n as u64);
            advise_vec(&v);
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64), "{n} values intact");
        }
    }
}
