//! RED as Linux's `sch_red` decides (`variant = "linux"` on a RED queue; the `linux` profile's
//! default): the rules of `include/net/red.h` (`red_calc_qavg`, `red_calc_qavg_from_idle_time`,
//! `red_action`, `red_mark_probability`, `red_random`) and `net/sched/sch_red.c`
//! (`red_enqueue`), with the idle-damping table that iproute2's `tc_red_eval_idle_damping`
//! (`tc/tc_red.c`) hands the kernel.
//!
//! Where it differs from ns-2's RED (`red.rs`):
//! - The decision looks at the average alone: no exemption while at most one packet waits.
//! - The count: `qcount = −1` below `min_th` and after a forced action; between the thresholds
//!   `++qcount`, and when it reaches 0 a random `qR`, uniform in `[0, Δ/max_p)` (Δ =
//!   `max_th − min_th`), is drawn and the packet passes. Then a packet is marked once
//!   `(avg − min_th)·qcount ≥ qR`, i.e. `p_b·qcount ≥ u` with `u` uniform in [0, 1); after a
//!   mark `qcount = 0` and a new `qR` is drawn. Marks are thus spaced uniformly over
//!   `1..1/p_b` packets (mean about `1/(2·p_b)`), with no `wait`.
//! - No gentle region: `avg ≥ max_th` is a forced action. No byte-mode scaling of `p_b`.
//! - ECN (`red_enqueue`): an early action marks an ECN-capable packet, else drops it; a forced
//!   action also marks ECN-capable packets unless `harddrop` (`mark_forced = false` here).
//! - `W = 2^−Wlog`: `w_q` is rounded to the nearest power of two.
//! - After an idle period the average shrinks by `2^−Stab[t >> Scell_log]` (t the idle time
//!   in 1.024 µs scheduler ticks, `psched_get_time`), with Stab[i] = ⌊(i·2^Scell_log)·lW⌋,
//!   lW = −ln(1 − W)/(ticks to send `mean_pkt_size`), capped at 31; where the table gives 0,
//!   by the linear part `avg·t/2^Scell_log`, at most half of it.
//!
//! The kernel keeps the average in fixed point with `Wlog` fraction bits; here it is an f64
//! (the difference is below one byte or packet). Kernels before 3.3 rounded `max_p` down to
//! `Δ/2^Plog`; this follows the later kernels, whose `max_P` is exact.

use crate::rng::RngStream;
use crate::units::{Rate, SimDuration};
use rand::Rng;

/// A scheduler tick (`PSCHED_SHIFT` = 10: nanoseconds >> 10), picoseconds.
const TICK_PS: u64 = 1_024_000;

/// The most halvings the idle table applies (`tc_red_eval_idle_damping` caps its entries at 31).
const STAB_MAX_SHIFT: u8 = 31;

/// What `red_action` decides for an arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinuxRedAction {
    /// `RED_DONT_MARK`.
    Pass,
    /// `RED_PROB_MARK`: an early mark (or drop).
    Early,
    /// `RED_HARD_MARK`: the average is at or above `max_th`.
    Forced,
}

/// The state `sch_red` keeps beside the average: the count and the cached random number,
/// and the idle-damping table of its link.
#[derive(Clone, Debug)]
pub struct LinuxRed {
    /// `qcount`: packets since the last mark, −1 outside the marking region.
    qcount: i64,
    /// `qR`, in units of the average: uniform in `[0, Δ/max_p)`.
    q_r: f64,
    /// `Δ/max_p`, the range `qR` is drawn from.
    q_r_range: f64,
    /// `Stab`: halvings of the average per idle cell.
    stab: [u8; 256],
    /// `Scell_log`: an idle cell is `2^scell_log` ticks.
    scell_log: u32,
}

/// `Wlog` for a weight `w_q`: the nearest integer to −log2(w_q), at least 1 (tc picks it so).
pub fn wlog(w_q: f64) -> u32 {
    (-w_q.log2()).round().clamp(1.0, 31.0) as u32
}

impl LinuxRed {
    /// The state of a fresh queue (`red_set_parms`: `qcount = −1`) on a link of `rate`, with
    /// thresholds `min_th < max_th`, `max_p` and weight `2^−wlog`; `mean_pkt_size_bytes` is
    /// tc's `avpkt`.
    pub fn new(min_th: f64, max_th: f64, max_p: f64, wlog: u32, rate: Rate, mean_pkt_size_bytes: u64) -> Self {
        let (stab, scell_log) = idle_damping_table(wlog, rate, mean_pkt_size_bytes);
        LinuxRed { qcount: -1, q_r: 0.0, q_r_range: (max_th - min_th) / max_p, stab, scell_log }
    }

    /// `red_calc_qavg_from_idle_time`: the average after the queue was idle for `idle`.
    pub fn avg_after_idle(&self, avg: f64, idle: SimDuration) -> f64 {
        let scell_max = 255u64 << self.scell_log;
        let ticks = (idle.0 / TICK_PS).min(scell_max);
        let shift = self.stab[((ticks >> self.scell_log) & 255) as usize];
        if shift > 0 {
            return avg / (1u64 << shift) as f64;
        }
        // "Approximate initial part of exponent with linear function."
        let decrease = avg * ticks as f64 / (1u64 << self.scell_log) as f64;
        if decrease < avg / 2.0 {
            avg - decrease
        } else {
            avg / 2.0
        }
    }

    /// `red_action`: the decision for an arrival with the average at `avg`.
    pub fn action(&mut self, avg: f64, min_th: f64, max_th: f64, rng: &mut RngStream) -> LinuxRedAction {
        if avg < min_th {
            self.qcount = -1;
            return LinuxRedAction::Pass;
        }
        if avg >= max_th {
            self.qcount = -1;
            return LinuxRedAction::Forced;
        }
        self.qcount += 1;
        if self.qcount == 0 {
            self.q_r = self.draw(rng);
            return LinuxRedAction::Pass;
        }
        // red_mark_probability: !((avg − min_th)·qcount < qR).
        if (avg - min_th) * self.qcount as f64 >= self.q_r {
            self.qcount = 0;
            self.q_r = self.draw(rng);
            return LinuxRedAction::Early;
        }
        LinuxRedAction::Pass
    }

    /// `red_random`: a new `qR`.
    fn draw(&self, rng: &mut RngStream) -> f64 {
        rng.gen::<f64>() * self.q_r_range
    }
}

/// iproute2's `tc_red_eval_idle_damping`: the table of halvings per idle cell, and the cell
/// size `Scell_log`, for weight `2^−wlog` on a link of `rate` with packets of `avpkt` bytes.
pub fn idle_damping_table(wlog: u32, rate: Rate, avpkt: u64) -> ([u8; 256], u32) {
    let xmit_ticks = (avpkt as f64 * 8.0 / rate.bps as f64) * 1e12 / TICK_PS as f64;
    let w = 1.0 / (1u64 << wlog) as f64;
    let l_w = -(1.0 - w).ln() / xmit_ticks;
    let max_time = STAB_MAX_SHIFT as f64 / l_w;
    let scell_log = (0..32u32).find(|&c| max_time / ((1u64 << c) as f64) < 512.0).unwrap_or(31);
    let mut stab = [0u8; 256];
    for (i, s) in stab.iter_mut().enumerate().take(255).skip(1) {
        *s = ((((i as u64) << scell_log) as f64 * l_w) as u64).min(STAB_MAX_SHIFT as u64) as u8;
    }
    stab[255] = STAB_MAX_SHIFT;
    (stab, scell_log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{derive_stream, StreamKind};

    /// The average by hand, `red_calc_qavg_no_idle_time` with W = 2^−2 = 1/4 from a 0
    /// average: arrivals seeing backlogs 8, 8, 0, 16 give 2, 3.5, 2.625, 5.96875; with
    /// min_th 3 and max_th 5 they are below, between, below and above the thresholds, so
    /// `red_action` passes, passes (qcount −1 → 0: a qR is drawn), passes (qcount back to −1)
    /// and forces (qcount −1) — ns-2's rules would not act on the last while at most one
    /// packet waits, nor would a forced action there mark.
    #[test]
    fn a_hand_computed_sequence_of_averages_and_decisions() {
        let w = 1.0 / (1u64 << wlog(0.25)) as f64;
        assert_eq!(w, 0.25);
        let mut red = LinuxRed::new(3.0, 5.0, 0.1, 2, Rate { bps: 10_000_000 }, 1000);
        let mut rng = derive_stream(1, StreamKind::Aqm, 0);
        let mut avg = 0.0;
        let mut seen = vec![];
        for backlog in [8.0, 8.0, 0.0, 16.0] {
            avg += w * (backlog - avg);
            seen.push((avg, red.action(avg, 3.0, 5.0, &mut rng), red.qcount));
        }
        let expected =
            [(2.0, LinuxRedAction::Pass, -1), (3.5, LinuxRedAction::Pass, 0), (2.625, LinuxRedAction::Pass, -1), (5.96875, LinuxRedAction::Forced, -1)];
        assert_eq!(seen, expected);
    }

    /// Between the thresholds, the mark comes at the first qcount with
    /// (avg − min_th)·qcount ≥ qR: for a qR set by hand, exactly where that says.
    #[test]
    fn marks_at_the_first_count_that_reaches_the_cached_random_number() {
        let mut red = LinuxRed::new(5.0, 15.0, 0.1, 9, Rate { bps: 10_000_000 }, 1000);
        let mut rng = derive_stream(2, StreamKind::Aqm, 0);
        assert_eq!(red.action(7.0, 5.0, 15.0, &mut rng), LinuxRedAction::Pass); // qcount 0: draw
        red.q_r = 9.0; // (7 − 5)·qcount ≥ 9 first at qcount 5
        let actions: Vec<_> = (0..5).map(|_| red.action(7.0, 5.0, 15.0, &mut rng)).collect();
        assert_eq!(actions, [LinuxRedAction::Pass, LinuxRedAction::Pass, LinuxRedAction::Pass, LinuxRedAction::Pass, LinuxRedAction::Early]);
        assert_eq!(red.qcount, 0);
        assert!(red.q_r >= 0.0 && red.q_r < 100.0); // redrawn in [0, Δ/max_p) = [0, 100)
    }

    /// At a fixed average the gap between marks is uniform on 1..1/p_b (qcount from 1 after
    /// a mark), so the mark fraction is 1/E[gap] ≈ 2·p_b/(1 + p_b) — the ns-2 rule without
    /// `wait` gives 2·p_b; with it, half as many marks. A drawn sequence must match.
    #[test]
    fn measured_mark_fraction_at_a_fixed_average_matches_the_spacing() {
        let (min_th, max_th, max_p, avg) = (5.0, 15.0, 0.1, 10.0);
        let p_b: f64 = max_p * (avg - min_th) / (max_th - min_th); // 0.05
        let mut red = LinuxRed::new(min_th, max_th, max_p, 9, Rate { bps: 10_000_000 }, 1000);
        let mut rng = derive_stream(3, StreamKind::Aqm, 0);
        let n = 400_000;
        let marks = (0..n).filter(|_| red.action(avg, min_th, max_th, &mut rng) == LinuxRedAction::Early).count();
        // gap = ⌈u/p_b⌉ for u uniform in [0, 1): values 1..20, each with probability p_b.
        let mean_gap: f64 = (1..=20).map(|g| g as f64 * p_b).sum();
        let expected = 1.0 / mean_gap;
        let f = marks as f64 / n as f64;
        assert!((f - expected).abs() / expected < 0.03, "{f} vs {expected}");
    }

    /// The idle table for W = 2^−9 at 10 Mbit/s with 1000-byte packets (800 µs, 781.25 ticks
    /// each): lW = −ln(1 − 2^−9)/781.25, 31/lW ≈ 1.24e7 ticks, so Scell_log = 15 (the first c
    /// with 31/lW/2^c < 512), and Stab[i] = ⌊i·2^15·lW⌋: Stab[1] = 0, Stab[13] = 1.
    #[test]
    fn the_idle_table_is_the_one_tc_computes() {
        let (stab, scell_log) = idle_damping_table(9, Rate { bps: 10_000_000 }, 1000);
        let l_w = -(1.0 - 1.0 / 512.0f64).ln() / 781.25;
        assert_eq!(scell_log, 15);
        assert!((31.0 / l_w / 32768.0) < 512.0 && (31.0 / l_w / 16384.0) >= 512.0);
        assert_eq!((stab[0], stab[1], stab[12], stab[13], stab[255]), (0, 0, 0, 1, 31));
        assert_eq!(stab[13], (13.0 * 32768.0 * l_w) as u8);
        // Idle for 100 cells: 2^−Stab[100] of the average.
        let red = LinuxRed::new(5.0, 15.0, 0.1, 9, Rate { bps: 10_000_000 }, 1000);
        let idle = SimDuration(100 * (1 << 15) * TICK_PS);
        assert_eq!(red.avg_after_idle(64.0, idle), 64.0 / (1u64 << stab[100]) as f64);
        // A short idle spell (half a cell): the linear part, avg·t/2^Scell_log.
        let idle = SimDuration((1 << 14) * TICK_PS);
        assert_eq!(red.avg_after_idle(64.0, idle), 32.0);
        let idle = SimDuration((1 << 12) * TICK_PS);
        assert_eq!(red.avg_after_idle(64.0, idle), 64.0 - 64.0 / 8.0);
    }
}
