//! Cache prefetch hints: ask the CPU to start loading memory that the event loop will read
//! soon. A hint changes no result, only when data arrives in cache; on targets without one it
//! does nothing.
//!
//! Why: with thousands of flows the state a packet hop reads (the next link, the flow at the
//! far end, the packet itself in the pool) is rarely in cache. A link's propagation pipe is a
//! FIFO of known future arrivals, so the loop can start those loads several arrivals early
//! (see `Simulator::prefetch_ahead`).

/// Hints that the cache lines covering `bytes` bytes from `ptr` will be read soon: every line
/// the range touches, so a 96-byte packet that straddles three lines gets all three. (One hint
/// per 64 bytes from `ptr`, then one for the last byte: a fixed count for a fixed size, not a
/// loop whose length depends on the alignment.)
#[inline(always)]
pub fn prefetch_bytes<T>(ptr: *const T, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let base = ptr as *const i8;
        let mut offset = 0;
        while offset < bytes {
            // SAFETY: a prefetch hint never faults and reads nothing architecturally; the
            // address need not be valid.
            unsafe { _mm_prefetch(base.wrapping_add(offset), _MM_HINT_T0) };
            offset += 64;
        }
        if bytes > 1 {
            // SAFETY: as above.
            unsafe { _mm_prefetch(base.wrapping_add(bytes - 1), _MM_HINT_T0) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (ptr, bytes);
    }
}

/// Hints that the first `bytes` bytes of `value` will be read soon.
#[inline(always)]
pub fn prefetch<T>(value: &T, bytes: usize) {
    prefetch_bytes(value as *const T, bytes.min(std::mem::size_of::<T>()));
}
