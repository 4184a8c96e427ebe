//! What a machine's memory gives a packet simulator: the time of a cache-line load whose
//! address depends on the previous load (a pointer chase: one flow's state leading to the
//! next) and of loads whose addresses are all known up front (what prefetching at best
//! achieves), over working sets of 1 MiB to 256 MiB backed by huge pages where Linux grants
//! them.
//!
//!     cargo run --release -p aimdlab-core --example load_latency
//!
//! The flow-scaling benchmark (`benches/engine.py --scaling`) slows down where the state its
//! flows touch outgrows the size at which the dependent load jumps from a few nanoseconds to
//! a hundred or more: that size, not the L3 size the processor reports, is the cache a run
//! really has (on a shared virtual machine it can be far smaller).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Bytes of one cache line: every load below touches a line of its own.
const LINE_BYTES: usize = 64;
/// Loads timed per working set.
const LOADS: usize = 1 << 23;

/// One cache line holding the index of the next line to visit.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct Line {
    next: usize,
    _pad: [u8; LINE_BYTES - 8],
}

/// Lines visited in one random cycle through all of them, as a vector of lines on huge pages.
fn random_cycle(lines: usize, rng: &mut rand_pcg::Pcg64Mcg) -> Vec<Line> {
    let mut order: Vec<usize> = (0..lines).collect();
    order.shuffle(rng);
    let mut v = vec![Line { next: 0, _pad: [0; LINE_BYTES - 8] }; lines];
    aimdlab_core::huge_pages::advise_vec(&v);
    for w in 0..lines {
        v[order[w]].next = order[(w + 1) % lines];
    }
    v
}

/// Nanoseconds per load when each address comes from the previous load.
fn dependent_ns(v: &[Line]) -> f64 {
    let mut at = 0;
    for _ in 0..v.len() {
        at = v[at].next; // warm: map every page, fill what fits in cache
    }
    let t0 = Instant::now();
    for _ in 0..LOADS {
        at = std::hint::black_box(v[at].next);
    }
    t0.elapsed().as_nanos() as f64 / LOADS as f64
}

/// Nanoseconds per load when the addresses are independent (drawn up front).
fn independent_ns(v: &[Line], rng: &mut rand_pcg::Pcg64Mcg) -> f64 {
    let picks: Vec<u32> = (0..LOADS).map(|_| rng.gen_range(0..v.len() as u32)).collect();
    let t0 = Instant::now();
    let mut sum = 0usize;
    for &i in &picks {
        sum = sum.wrapping_add(v[i as usize].next);
    }
    std::hint::black_box(sum);
    t0.elapsed().as_nanos() as f64 / LOADS as f64
}

fn main() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
    println!("{:>10} {:>16} {:>18}", "working set", "dependent ns", "independent ns");
    for mib in [1usize, 2, 4, 6, 8, 12, 16, 32, 64, 256] {
        let v = random_cycle(mib * (1 << 20) / LINE_BYTES, &mut rng);
        let dep = dependent_ns(&v);
        let ind = independent_ns(&v, &mut rng);
        println!("{:>7} MiB {:>16.1} {:>18.1}", mib, dep, ind);
    }
}
