//! RED, Random Early Detection (S. Floyd and V. Jacobson, "Random Early Detection Gateways
//! for Congestion Avoidance", IEEE/ACM ToN 1(4), 1993), as ns-2's `red.cc` implements it —
//! the version the papers of this field ran.
//!
//! - Average queue (§4): `avg ← (1 − w_q)·avg + w_q·q` at every arrival; after an idle
//!   period, `avg ← (1 − w_q)^m·avg` first, with m the whole packets of `mean_pkt_size` the
//!   link could have sent while idle (ns-2: from the end of the last transmission).
//! - Early marking/dropping (§4, ns-2 `drop_early`): for `min_th ≤ avg < max_th`,
//!   `p_b = max_p·(avg − min_th)/(max_th − min_th)`; gentle RED extends the ramp linearly
//!   from `max_p` at `max_th` to 1 at `2·max_th`. In byte mode `p_b` is scaled by
//!   `size / mean_pkt_size`. Drops are spaced by the count of packets since the last one:
//!   `p_a = p_b / (1 − count·p_b)`, or with `wait` (ns-2's default)
//!   `p_a = p_b / (2 − count·p_b)` once `count·p_b ≥ 1` and 0 before (ns-2 `modify_p`).
//! - Above `max_th` (gentle: `2·max_th`) every arrival is a forced drop. Early drops of
//!   ECN-capable packets become CE marks when `ecn` is on (RFC 3168 §7); forced drops stay
//!   drops unless `mark_forced` (ns-3's `UseHardDrop = false`).
//! - As in ns-2, no early drop while the queue holds at most one packet, and the first
//!   arrival above `min_th` after a spell below it only starts the count. Every drop
//!   restarts the count, an overflow of the buffer too (`enque`: `qlen >= qlim` is a
//!   forced drop, and a forced drop sets `count = 0`).
//!
//! `variant = "linux"` runs the same parameters under Linux `sch_red`'s rules instead
//! (`red_linux.rs`: the decision on the average alone, its count and cached random number, no
//! gentle region, forced marks with ECN); the `linux` stack profile selects it.
//!
//! Automatic parameters (Floyd, Gummadi, Shenker, "Adaptive RED", 2001, §5):
//! `min_th = max(5, target_delay·C/2)` packets, `max_th = 3·min_th`, `w_q = 1 − e^(−1/C)`,
//! with C the link rate in packets of `mean_pkt_size` per second.

use super::droptail::push_or_overflow;
use super::red_linux::{wlog, LinuxRed, LinuxRedAction};
use super::fifo::PacketFifo;
use super::log::{DropCause, QueueLog};
use crate::net::packet::{Ecn, Packet};
use crate::rng::RngStream;
use crate::units::parse::PacketsOrBytes;
use crate::units::{Rate, SimTime};
use rand::Rng;
use super::discipline::QueueDiscipline;
use super::params::{check_limit, check_probability, limit_in_pkts, DisciplineSpec};
use crate::error::ParamError;
use crate::units::quantity::{BufferSize, Duration, Size};
use crate::units::{Bytes, SimDuration};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Whose RED rules a queue follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RedVariant {
    /// ns-2's `red.cc` (also ns-3's `RedQueueDisc`).
    #[default]
    Ns2,
    /// Linux's `sch_red` (`include/net/red.h`).
    Linux,
}

/// Resolved RED parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct RedConfig {
    /// Whose rules decide.
    pub variant: RedVariant,
    /// Buffer capacity.
    pub limit: PacketsOrBytes,
    /// Thresholds and average in bytes (true) or packets (false).
    pub byte_mode: bool,
    /// Minimum threshold (packets or bytes).
    pub min_th: f64,
    /// Maximum threshold (packets or bytes).
    pub max_th: f64,
    /// Marking probability at `max_th`.
    pub max_p: f64,
    /// EWMA weight of the average queue.
    pub w_q: f64,
    /// Gentle RED.
    pub gentle: bool,
    /// ns-2's `wait` spacing of drops.
    pub wait: bool,
    /// Typical packet size, bytes (idle decay, byte mode).
    pub mean_pkt_size: u64,
    /// Mark ECN-capable packets instead of dropping them early.
    pub ecn: bool,
    /// Also mark (not drop) above the maximum threshold.
    pub mark_forced: bool,
}

/// The marking/dropping probability `p_a` of an arrival (ns-2 `drop_early` + `modify_p`):
/// `avg` the average queue, `count` packets since the last mark or drop (this one included),
/// `size_ratio` the packet size over `mean_pkt_size` (1 in packet mode).
pub fn mark_probability(cfg: &RedConfig, avg: f64, count: u64, size_ratio: f64) -> f64 {
    let mut p_b = if avg < cfg.max_th {
        cfg.max_p * (avg - cfg.min_th) / (cfg.max_th - cfg.min_th)
    } else {
        cfg.max_p + (1.0 - cfg.max_p) * (avg - cfg.max_th) / cfg.max_th
    };
    p_b = (p_b * size_ratio).clamp(0.0, 1.0);
    let c = count as f64;
    let p_a = if cfg.wait {
        if c * p_b < 1.0 {
            0.0
        } else if c * p_b < 2.0 {
            p_b / (2.0 - c * p_b)
        } else {
            1.0
        }
    } else if c * p_b < 1.0 {
        p_b / (1.0 - c * p_b)
    } else {
        1.0
    };
    p_a.clamp(0.0, 1.0)
}

/// A RED queue.
pub struct Red {
    cfg: RedConfig,
    fifo: PacketFifo,
    avg: f64,
    count: u64,
    above_min: bool,
    /// When the link went idle with nothing queued (ns-2: when the last packet's transmission
    /// ended; Linux: when the queue emptied), until the next arrival.
    idle_since: Option<SimTime>,
    /// The link's rate (ns-2's idle period starts when the last packet has been sent).
    rate: Rate,
    /// Packets of `mean_pkt_size` the link sends per second.
    ptc: f64,
    /// Linux's count, random number and idle table (`variant = "linux"` only).
    linux: Option<LinuxRed>,
}

impl Red {
    /// An empty RED queue on a link of `rate`.
    pub fn new(cfg: &RedConfig, rate: Rate) -> Self {
        Red {
            fifo: PacketFifo::new(),
            avg: 0.0,
            count: 0,
            above_min: false,
            idle_since: Some(SimTime::ZERO),
            ptc: rate.bps as f64 / (8.0 * cfg.mean_pkt_size as f64),
            rate,
            linux: (cfg.variant == RedVariant::Linux)
                .then(|| LinuxRed::new(cfg.min_th, cfg.max_th, cfg.max_p, wlog(cfg.w_q), rate, cfg.mean_pkt_size)),
            cfg: cfg.clone(),
        }
    }

    /// The queue the average follows: bytes in byte mode, else packets.
    fn queue_len(&self) -> f64 {
        if self.cfg.byte_mode {
            self.fifo.len_bytes() as f64
        } else {
            self.fifo.len_pkts() as f64
        }
    }

    fn update_avg(&mut self, now: SimTime) {
        let q = self.queue_len();
        let w = self.cfg.w_q;
        if let Some(t0) = self.idle_since.take() {
            // (ns-2: `m = int(ptc * (now - idletime_))`, whole packets)
            let m = (now.saturating_since(t0).as_secs_f64() * self.ptc).floor();
            self.avg *= (1.0 - w).powf(m);
        }
        self.avg = (1.0 - w) * self.avg + w * q;
    }

    /// Offers `p` at `now`: queued (possibly CE-marked) or dropped. Returns whether queued.
    /// The variant's rules decide whether the arrival is congested; an early action, or a
    /// forced one with `mark_forced`, marks an ECN-capable packet instead of dropping it.
    pub fn enqueue(&mut self, mut p: Packet, now: SimTime, rng: &mut RngStream, log: &mut QueueLog) -> bool {
        let congested = if self.linux.is_some() { self.decide_linux(now, rng) } else { self.decide_ns2(&p, now, rng) };
        let cfg = &self.cfg;
        if let Some(cause) = congested {
            let may_mark = cfg.ecn && p.ecn != Ecn::NotEct && (cause == DropCause::Early || cfg.mark_forced);
            if may_mark {
                p.ecn = Ecn::Ce;
                log.ecn_marks += 1;
            } else {
                log.drop(cause);
                return false;
            }
        }
        let queued = push_or_overflow(&mut self.fifo, cfg.limit, p, log);
        if !queued && self.linux.is_none() {
            // ns-2 counts an overflow as a forced drop: it restarts the count as well.
            self.count = 0;
        }
        queued
    }

    /// `sch_red`'s `red_enqueue` up to its decision: the average (`red_calc_qavg`), then
    /// `red_action`.
    fn decide_linux(&mut self, now: SimTime, rng: &mut RngStream) -> Option<DropCause> {
        let q = self.queue_len();
        let linux = self.linux.as_mut().expect("a Linux RED queue has its state");
        let cfg = &self.cfg;
        match self.idle_since.take() {
            Some(t0) => self.avg = linux.avg_after_idle(self.avg, now.saturating_since(t0)),
            None => self.avg += cfg.w_q * (q - self.avg),
        }
        match linux.action(self.avg, cfg.min_th, cfg.max_th, rng) {
            LinuxRedAction::Pass => None,
            LinuxRedAction::Early => Some(DropCause::Early),
            LinuxRedAction::Forced => Some(DropCause::Forced),
        }
    }

    /// ns-2's `RedQueue::enque` up to its decision (an early or forced action restarts the
    /// count).
    fn decide_ns2(&mut self, p: &Packet, now: SimTime, rng: &mut RngStream) -> Option<DropCause> {
        self.update_avg(now);
        let cfg = &self.cfg;
        let mut congested = None;
        // ns-2's `qlen > 1` counts what the average counts: bytes in byte mode (`qib_`), so
        // there it holds with one packet waiting; packets otherwise.
        if self.avg >= cfg.min_th && self.queue_len() > 1.0 {
            let forced_from = if cfg.gentle { 2.0 * cfg.max_th } else { cfg.max_th };
            if self.avg >= forced_from {
                congested = Some(DropCause::Forced);
            } else if !self.above_min {
                self.above_min = true;
                self.count = 1;
            } else {
                self.count += 1;
                let ratio = if cfg.byte_mode { p.size.0 as f64 / cfg.mean_pkt_size as f64 } else { 1.0 };
                let p_a = mark_probability(cfg, self.avg, self.count, ratio);
                if rng.gen::<f64>() < p_a {
                    congested = Some(DropCause::Early);
                }
            }
        } else {
            self.above_min = false;
            self.count = 0;
        }
        if congested.is_some() {
            self.count = 0;
        }
        congested
    }

    /// Takes the head packet at `now`. When it leaves the queue empty, the idle period starts:
    /// under ns-2's rules when its transmission ends (ns-2's `deque` finds nothing only when
    /// the link asks for the next packet; the packet's own bytes, no link framing), under
    /// Linux's at once.
    pub fn dequeue(&mut self, now: SimTime) -> Option<Packet> {
        let p = self.fifo.pop();
        if self.fifo.is_empty() && (p.is_some() || self.idle_since.is_none()) {
            let sent = match (&p, &self.linux) {
                (Some(p), None) => self.rate.serialization_time(p.size),
                _ => SimDuration::ZERO,
            };
            self.idle_since = Some(now + sent);
        }
        p
    }
}

/// RED's parameters (`queue = { kind = "red", min_th = "5pkt", max_th = "15pkt" }`),
/// defaults from ns-2 and Floyd & Jacobson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RedSpec {
    /// Capacity in packets (`"100pkt"`) or bytes (`"150KB"`). Default `"100pkt"`.
    pub limit: BufferSize,
    /// Minimum threshold, `"5pkt"` or bytes (byte mode). Default `"5pkt"` (ns-2).
    pub min_th: Option<BufferSize>,
    /// Maximum threshold, in the unit of `min_th`. Default `"15pkt"` (ns-2).
    pub max_th: Option<BufferSize>,
    /// Marking probability at `max_th`, in (0, 1]. Default 0.1 (ns-2 `linterm_ = 10`).
    pub max_p: f64,
    /// Weight of the average queue, in (0, 1]. Default 0.002 (Floyd & Jacobson).
    pub w_q: Option<f64>,
    /// Whose rules decide: `"ns2"` (ns-2's `red.cc`, also ns-3's) or `"linux"` (`sch_red`).
    /// Default `"ns2"`; the `linux` stack profile makes it `"linux"`.
    pub variant: RedVariant,
    /// Gentle ramp from `max_p` at `max_th` to 1 at `2·max_th`. Default true (ns-2); Linux's
    /// `sch_red` has none.
    pub gentle: Option<bool>,
    /// ns-2's `wait` spacing between drops. Default true (ns-2); not in Linux's `sch_red`.
    pub wait: Option<bool>,
    /// Typical packet size for the idle-time decay and byte mode. Default `"500B"` (ns-2).
    pub mean_pkt_size: Size,
    /// Set min_th, max_th and w_q from the link rate (Adaptive RED, Floyd et al. 2001):
    /// min_th = max(5, target·C/2), max_th = 3·min_th, w_q = 1 − exp(−1/C). Default false.
    pub auto: bool,
    /// With `auto`: the target delay. Default `"5ms"`.
    pub target: Option<Duration>,
    /// Mark (not drop) ECN-capable packets also above the maximum threshold. Default false
    /// for ns-2 (ns-3's `UseHardDrop`), true for Linux (`sch_red` without `harddrop`).
    pub mark_forced: Option<bool>,
    /// Mark ECN-capable packets (CE) instead of dropping them early. Default false.
    pub ecn: bool,
}

impl Default for RedSpec {
    fn default() -> Self {
        RedSpec {
            limit: BufferSize(PacketsOrBytes::Packets(100)),
            min_th: None,
            max_th: None,
            max_p: 0.1,
            w_q: None,
            variant: RedVariant::Ns2,
            gentle: None,
            wait: None,
            mean_pkt_size: Size(Bytes(500)),
            auto: false,
            target: None,
            mark_forced: None,
            ecn: false,
        }
    }
}

impl DisciplineSpec for RedSpec {
    const KIND: &'static str = "red";
    type Config = RedConfig;
    type Queue = Box<Red>;
    fn resolve(&self, rate: Rate) -> Result<RedConfig, ParamError> {
        let limit = check_limit(self.limit.0)?;
        let mean_pkt_size = self.mean_pkt_size.0 .0;
        if mean_pkt_size == 0 {
            return Err(ParamError { field: "mean_pkt_size", message: "\"0B\" is not allowed; expected a packet size > 0".into() });
        }
        let (min_th, max_th, w_q, byte_mode);
        if self.auto {
            for (field, given) in [("min_th", self.min_th.is_some()), ("max_th", self.max_th.is_some()), ("w_q", self.w_q.is_some())] {
                if given {
                    return Err(ParamError { field, message: "is set automatically when auto = true; remove it or set auto = false".into() });
                }
            }
            // Adaptive RED §5: C in packets of mean_pkt_size per second.
            let c = rate.bps as f64 / (8.0 * mean_pkt_size as f64);
            let target = self.target.map(|d| d.0).unwrap_or(SimDuration::from_millis(5)).as_secs_f64();
            min_th = (target * c / 2.0).max(5.0);
            max_th = 3.0 * min_th;
            w_q = 1.0 - (-1.0 / c).exp();
            byte_mode = false;
        } else {
            if self.target.is_some() {
                return Err(ParamError { field: "target", message: "applies to RED only with auto = true".into() });
            }
            let min = self.min_th.map(|t| t.0).unwrap_or(PacketsOrBytes::Packets(5));
            let max = self.max_th.map(|t| t.0).unwrap_or(PacketsOrBytes::Packets(15));
            let (lo, hi, bytes) = match (min, max) {
                (PacketsOrBytes::Packets(a), PacketsOrBytes::Packets(b)) => (a as f64, b as f64, false),
                (PacketsOrBytes::Bytes(a), PacketsOrBytes::Bytes(b)) => (a.0 as f64, b.0 as f64, true),
                _ => {
                    let message = "is in a different unit from min_th; give both in packets (\"5pkt\") or both in bytes (\"7500B\")".into();
                    return Err(ParamError { field: "max_th", message });
                }
            };
            if lo >= hi {
                return Err(ParamError { field: "min_th", message: format!("{lo} is not below max_th ({hi}); expected min_th < max_th") });
            }
            min_th = lo;
            max_th = hi;
            byte_mode = bytes;
            w_q = check_probability("w_q", self.w_q.unwrap_or(0.002), true)?;
        }
        let max_p = check_probability("max_p", self.max_p, true)?;
        let linux = self.variant == RedVariant::Linux;
        // sch_red's weight is 2^−Wlog.
        let w_q = if linux { 1.0 / (1u64 << wlog(w_q)) as f64 } else { w_q };
        for (field, given) in [("gentle", self.gentle), ("wait", self.wait)] {
            if linux && given == Some(true) {
                return Err(ParamError { field, message: "true is not a rule of Linux's sch_red; remove it, or set variant = \"ns2\"".into() });
            }
        }
        Ok(RedConfig {
            variant: self.variant,
            limit,
            byte_mode,
            min_th,
            max_th,
            max_p,
            w_q,
            gentle: !linux && self.gentle.unwrap_or(true),
            wait: !linux && self.wait.unwrap_or(true),
            mean_pkt_size,
            ecn: self.ecn,
            mark_forced: self.mark_forced.unwrap_or(linux),
        })
    }
    fn build(c: &RedConfig, rate: Rate, _salt: u64) -> Box<Red> {
        Box::new(Red::new(c, rate))
    }
    fn limit_pkts(c: &RedConfig) -> u64 {
        limit_in_pkts(c.limit)
    }
}

impl QueueDiscipline for Red {
    #[inline]
    fn enqueue(&mut self, p: Packet, now: SimTime, rng: &mut RngStream, log: &mut QueueLog) -> bool {
        Red::enqueue(self, p, now, rng, log)
    }
    #[inline]
    fn dequeue(&mut self, now: SimTime, _log: &mut QueueLog) -> Option<Packet> {
        Red::dequeue(self, now)
    }
    #[inline]
    fn len_pkts(&self) -> u64 {
        self.fifo.len_pkts()
    }
    #[inline]
    fn len_bytes(&self) -> u64 {
        self.fifo.len_bytes()
    }
    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.fifo.iter().for_each(f)
    }
    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("red_avg", self.avg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{derive_stream, StreamKind};

    fn cfg(wait: bool) -> RedConfig {
        RedConfig {
            variant: RedVariant::Ns2,
            limit: PacketsOrBytes::Packets(1000),
            byte_mode: false,
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.1,
            w_q: 0.002,
            gentle: true,
            wait,
            mean_pkt_size: 1000,
            ecn: false,
            mark_forced: false,
        }
    }

    #[test]
    fn probability_follows_the_ramps() {
        let c = cfg(false);
        // p_b = 0.1·(10 − 5)/10 = 0.05; count 1 → p_a = 0.05/(1 − 0.05).
        assert!((mark_probability(&c, 10.0, 1, 1.0) - 0.05 / 0.95).abs() < 1e-12);
        // Gentle region: p_b = 0.1 + 0.9·(22.5 − 15)/15 = 0.55; count 1 → 0.55/0.45 ≥ 1 → 1.
        assert_eq!(mark_probability(&c, 22.5, 1, 1.0), 1.0);
        assert!((mark_probability(&c, 16.5, 0, 1.0) - (0.1 + 0.9 * 0.1)).abs() < 1e-12);
        // wait: nothing before count·p_b reaches 1, then p_b/(2 − count·p_b).
        let w = cfg(true);
        assert_eq!(mark_probability(&w, 10.0, 19, 1.0), 0.0);
        assert!((mark_probability(&w, 10.0, 30, 1.0) - 0.05 / (2.0 - 1.5)).abs() < 1e-12);
        // Byte mode scales p_b by the packet's share of the mean size.
        assert!((mark_probability(&c, 10.0, 0, 0.5) - 0.025).abs() < 1e-12);
    }

    /// ns-2's `RedQueue::enque` tests `qlen > 1` with `qlen` in bytes in byte mode: one packet
    /// waiting is enough there for the early-drop logic to run (in packet mode two are needed).
    #[test]
    fn in_byte_mode_one_waiting_packet_lets_red_act() {
        use crate::ids::{FlowId, NodeId};
        for (byte_mode, acts) in [(true, true), (false, false)] {
            let mut c = cfg(false);
            c.byte_mode = byte_mode;
            if byte_mode {
                (c.min_th, c.max_th) = (5000.0, 15000.0);
            }
            let mut red = Red::new(&c, Rate::from_bps(10_000_000));
            red.fifo.push(Packet::data(FlowId(0), NodeId(0), 0, Bytes(1000), SimTime::ZERO));
            red.avg = 2.0 * c.min_th; // (an average above min_th; update_avg moves it little)
            red.idle_since = None;
            let mut rng = derive_stream(1, StreamKind::Aqm, 0);
            let p = Packet::data(FlowId(0), NodeId(0), 1, Bytes(1000), SimTime::ZERO);
            red.decide_ns2(&p, SimTime::ZERO, &mut rng);
            assert_eq!(red.above_min, acts, "byte_mode = {byte_mode}");
        }
    }

    /// ns-2 counts a buffer overflow as a forced drop, and every forced drop restarts the
    /// count (`RedQueue::enque`): with `wait`, the arrivals right after an overflow are not
    /// dropped early, however long the count had run before it. Found by crosscheck: without
    /// the restart, 16 SACK flows on a 1.5 Mbit/s RED link timed out 8 % more than in ns-2.35.
    #[test]
    fn an_overflow_restarts_the_count() {
        use crate::ids::{FlowId, NodeId};
        let mut c = cfg(true);
        c.limit = PacketsOrBytes::Packets(12);
        (c.w_q, c.max_p) = (1.0, 0.5); // (the average is the queue: at 12, p_b = 0.5·7/10 = 0.35)
        let mut red = Red::new(&c, Rate::from_bps(10_000_000));
        let pkt = |seq| Packet::data(FlowId(0), NodeId(0), seq, Bytes(1000), SimTime::ZERO);
        for seq in 0..12 {
            red.fifo.push(pkt(seq));
        }
        red.idle_since = None;
        (red.above_min, red.count) = (true, 1);
        let mut log = QueueLog::default();
        let mut rng = derive_stream(1, StreamKind::Aqm, 0);
        // count 2: 2·0.35 < 1, no early drop under `wait`; the full buffer drops it.
        assert!(!red.enqueue(pkt(12), SimTime::ZERO, &mut rng, &mut log));
        assert_eq!((log.overflow, log.early, red.count), (1, 0, 0));
        // The next arrival sees an average of 20 (gentle: p_b = 0.5 + 0.5·5/15 = 2/3). Had the
        // count run on (3·2/3 ≥ 2) it would be dropped for sure; restarted, 1·2/3 < 1 spares it.
        red.fifo.pop();
        (red.cfg.w_q, red.avg) = (0.0, 20.0);
        assert!(red.enqueue(pkt(13), SimTime::ZERO, &mut rng, &mut log), "dropped early right after an overflow");
        assert_eq!((log.overflow, log.early, red.count), (1, 0, 1));
    }

    /// ns-2's idle period starts when the last packet's transmission ends (its `deque` finds
    /// the queue empty only when the link asks for the next packet), and counts whole packets
    /// of `mean_pkt_size` (`m = int(ptc · idle)`).
    #[test]
    fn the_idle_decay_counts_whole_packets_from_the_end_of_the_last_transmission() {
        use crate::ids::{FlowId, NodeId};
        let mut c = cfg(false);
        c.w_q = 0.5;
        let mut red = Red::new(&c, Rate::from_bps(1_000_000)); // (1000 B take 8 ms: ptc = 125/s)
        let pkt = |seq| Packet::data(FlowId(0), NodeId(0), seq, Bytes(1000), SimTime::ZERO);
        red.fifo.push(pkt(0));
        red.idle_since = None;
        red.avg = 8.0;
        red.dequeue(SimTime::ZERO); // (sent from 0 to 8 ms; idle from 8 ms)
        let (mut log, mut rng) = (QueueLog::default(), derive_stream(1, StreamKind::Aqm, 0));
        // At 28 ms: 20 ms idle = 2.5 packet times, m = 2; then the arrival's own step (q = 0).
        red.enqueue(pkt(1), SimTime::from_millis(28), &mut rng, &mut log);
        assert_eq!(red.avg, 8.0 * 0.5f64.powi(3));
    }

    /// With the average held fixed and `count` including the arriving packet (ns-2), the gap
    /// between drops is uniform on 1..1/p_b − 1 without `wait` (mean 1/(2·p_b)) and on
    /// 1/p_b..2/p_b − 1 with it (mean 1.5/p_b − 1/2); the measured drop fraction must match.
    #[test]
    fn measured_drop_fraction_at_a_fixed_average_matches_the_formula() {
        for (wait, expected) in [(false, 2.0 * 0.05), (true, 1.0 / (1.5 / 0.05 - 0.5))] {
            let c = cfg(wait);
            let mut rng = derive_stream(3, StreamKind::Aqm, 0);
            let (mut count, mut drops) = (0u64, 0u64);
            let n = 400_000;
            for _ in 0..n {
                count += 1;
                if rng.gen::<f64>() < mark_probability(&c, 10.0, count, 1.0) {
                    drops += 1;
                    count = 0;
                }
            }
            let f = drops as f64 / n as f64;
            assert!((f - expected).abs() / expected < 0.03, "wait={wait}: {f} vs {expected}");
        }
    }
}
