//! The link's layout, queueing and serialization, driven directly.

use super::*;
use crate::ids::FlowId;
use crate::net::loss::LossTarget;
use crate::units::parse::PacketsOrBytes;
use crate::units::Bytes;

const US: u64 = 1_000_000; // picoseconds

/// A 8 Gbit/s link (1000-byte packets take 1 µs) with a DropTail queue of `limit`.
fn link(delay_us: u64, limit: u64, loss: LossModel) -> Link {
    framed_link(delay_us, limit, loss, 0)
}

/// `link` with `framing` link-layer bytes per packet.
fn framed_link(delay_us: u64, limit: u64, loss: LossModel, framing: u64) -> Link {
    layered_link(delay_us, limit, loss, LinkLayer { framing: Bytes(framing), device_queue_pkts: 0 })
}

/// `link` with the link layer `layer`.
fn layered_link(delay_us: u64, limit: u64, loss: LossModel, layer: LinkLayer) -> Link {
    let queue = QueueConfig::DropTail(PacketsOrBytes::Packets(limit));
    Link::new(LinkId(0), NodeId(0), NodeId(1), Rate::from_bps(8_000_000_000), SimDuration(delay_us * US), layer, &queue, &loss, 1)
}

#[test]
fn what_a_packet_on_an_idle_link_touches_lies_on_its_first_two_cache_lines() {
    use std::mem::{align_of, offset_of};
    assert_eq!(align_of::<Link>(), 64, "every link starts a cache line");
    let line = |offset: usize| offset / 64;
    let end = |offset: usize, size: usize| line(offset + size - 1);
    assert_eq!(end(offset_of!(Link, none_waiting), 1), 0, "serializer, pipe, node and flags on line 0");
    let stats = offset_of!(Link, stats);
    let histogram = stats + offset_of!(LinkStats, queuing_delay);
    assert_eq!(line(offset_of!(Link, framing_bytes)), 1);
    // tx_pkts, tx_bytes, busy time, and the histogram's count and zero count.
    assert_eq!((line(stats), end(histogram, 16)), (1, 1), "a transmission's counters on line 1");
    assert_eq!(LINK_HOT_BYTES, 2 * 64, "what the event loop prefetches of a link");
    assert!(line(offset_of!(Link, queue)) >= 2, "the queue below, read only when packets wait");
}

#[test]
fn the_waiting_flag_follows_the_queue_through_drops_and_departures() {
    for device in [0, 1] {
        let mut l = layered_link(5, 2, LossModel::None, LinkLayer { framing: Bytes(0), device_queue_pkts: device });
        let (mut events, mut pool) = (EventQueue::default(), PacketPool::default());
        for seq in 0..6 {
            l.enqueue(pkt(seq), SimTime(seq), &mut events, &mut pool);
            assert_eq!(l.none_waiting, l.waiting_pkts() == 0, "after offering packet {seq}");
        }
        while let Some((t, ev)) = events.pop() {
            match ev {
                Event::LinkArrival(_) => drop(l.on_arrival(t, &mut events, &mut pool)),
                Event::LinkTxDone(_) => l.on_tx_done(t, &mut events, &mut pool),
                other => panic!("unexpected {other:?}"),
            }
            assert_eq!(l.none_waiting, l.waiting_pkts() == 0, "at {t:?}");
        }
        assert!(l.none_waiting && l.packets_held() == 0, "drained");
    }
}

#[test]
fn a_device_queue_holds_one_more_packet_outside_the_discipline() {
    for (device, delivered, qdisc_len) in [(0, 3, 2), (1, 4, 2), (3, 6, 2)] {
        let mut l = layered_link(5, 2, LossModel::None, LinkLayer { framing: Bytes(0), device_queue_pkts: device });
        let (mut events, mut pool) = (EventQueue::default(), PacketPool::default());
        for seq in 0..8 {
            l.enqueue(pkt(seq), SimTime::ZERO, &mut events, &mut pool);
        }
        assert_eq!(l.queue.len_pkts(), qdisc_len, "the discipline holds its limit");
        assert_eq!(l.packets_held(), delivered, "one on the wire, {device} in the device queue, 2 in the discipline");
        let (arrived, _) = run(&mut l, &mut events, &mut pool);
        let seqs: Vec<u64> = arrived.iter().map(|a| a.1).collect();
        assert_eq!(seqs, (0..delivered).collect::<Vec<_>>(), "in order, back to back");
        assert_eq!(arrived.last().unwrap().0, 5 + delivered, "the last leaves after {delivered} serializations");
    }
}

fn pkt(seq: u64) -> Packet {
    Packet::data(FlowId(0), NodeId(1), seq, Bytes(1000), SimTime::ZERO)
}

/// Runs the link's events; returns (arrival time µs, seq) of every packet that reached
/// the far end, and how many `LinkTxDone` events ran.
fn run(l: &mut Link, events: &mut EventQueue, pool: &mut PacketPool) -> (Vec<(u64, u64)>, usize) {
    let (mut arrived, mut tx_done) = (vec![], 0);
    while let Some((t, ev)) = events.pop() {
        match ev {
            Event::LinkArrival(_) => arrived.push((t.0 / US, l.on_arrival(t, events, pool).seq)),
            Event::LinkTxDone(_) => {
                tx_done += 1;
                l.on_tx_done(t, events, pool)
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    (arrived, tx_done)
}

#[test]
fn a_droptail_link_serializes_back_to_back_without_departure_events() {
    let mut l = link(5, 3, LossModel::None);
    let mut events = EventQueue::new();
    let mut pool = PacketPool::new();
    for seq in 0..6 {
        l.enqueue(pkt(seq), SimTime::ZERO, &mut events, &mut pool);
    }
    // One on the wire, three waiting, two over the limit.
    assert_eq!(l.stats.log.overflow, 2);
    let (arrived, tx_done) = run(&mut l, &mut events, &mut pool);
    // Each leaves when the one before has been serialized: 1 µs apart, plus 5 µs.
    assert_eq!(arrived, vec![(6, 0), (7, 1), (8, 2), (9, 3)]);
    assert_eq!(tx_done, 0);
    l.finish(SimTime(20 * US), &mut events, &mut pool);
    assert!(pool.is_empty(), "every packet reached the far end");
    assert_eq!(l.stats.tx_pkts, 4);
    // Waits of 0, 1, 2 and 3 µs.
    assert!((l.stats.queuing_delay.mean_ms() - 0.0015).abs() < 1e-12);
    // Queue lengths 3, 2, 1 over the first three µs: 6 packet·µs over 20 µs.
    assert!((l.mean_queue_pkts(SimTime(20 * US)) - 0.3).abs() < 1e-12);
    assert!((l.utilization(SimTime(20 * US)) - 0.2).abs() < 1e-12);
}

#[test]
fn a_packet_offered_at_the_instant_of_a_departure_finds_the_departing_one_queued() {
    let mut l = link(5, 1, LossModel::None);
    let mut events = EventQueue::new();
    let mut pool = PacketPool::new();
    l.enqueue(pkt(0), SimTime::ZERO, &mut events, &mut pool);
    l.enqueue(pkt(1), SimTime::ZERO, &mut events, &mut pool);
    // Packet 1 leaves the queue at 1 µs; packet 2, offered then, finds it still there
    // (a full 1-packet queue) and is dropped.
    l.enqueue(pkt(2), SimTime(US), &mut events, &mut pool);
    assert_eq!(l.stats.log.overflow, 1);
    // Offered just after, packet 3 finds room.
    l.enqueue(pkt(3), SimTime(US + 1), &mut events, &mut pool);
    assert_eq!(run(&mut l, &mut events, &mut pool).0, vec![(6, 0), (7, 1), (8, 3)]);
}

#[test]
fn a_sample_sees_the_queue_before_a_departure_due_at_its_instant() {
    let mut l = link(5, 10, LossModel::None);
    let mut events = EventQueue::new();
    let mut pool = PacketPool::new();
    for seq in 0..3 {
        l.enqueue(pkt(seq), SimTime::ZERO, &mut events, &mut pool);
    }
    l.settle(SimTime(US), &mut events, &mut pool);
    assert_eq!(l.queue.len_pkts(), 2, "packet 1 leaves at 1 µs, after the sample");
    l.settle(SimTime(US + 1), &mut events, &mut pool);
    assert_eq!(l.queue.len_pkts(), 1);
}

#[test]
fn a_lossy_link_still_drains_its_queue() {
    // Every packet is lost on the wire, so no arrival touches the link: it wakes itself.
    let loss = LossModel::Bernoulli { rate: 1.0, applies_to: LossTarget::Both, retries: 0 };
    let mut l = link(5, 10, loss);
    let mut events = EventQueue::new();
    let mut pool = PacketPool::new();
    for seq in 0..4 {
        l.enqueue(pkt(seq), SimTime::ZERO, &mut events, &mut pool);
    }
    let (arrived, tx_done) = run(&mut l, &mut events, &mut pool);
    assert!(arrived.is_empty());
    assert_eq!(tx_done, 3, "one wake-up as each lost packet's serialization ends");
    assert_eq!(l.stats.tx_pkts, 4);
    assert_eq!(l.stats.log.link_error, 4);
    assert_eq!(l.packets_held(), 0);
    // Idle again at 4 µs: a packet offered at 10 µs starts at once.
    l.enqueue(pkt(9), SimTime(10 * US), &mut events, &mut pool);
    assert_eq!(l.busy_until, SimTime(11 * US));
}

#[test]
fn framing_lengthens_each_serialization_but_not_the_byte_counts() {
    // 1000-byte packets with 1000 bytes of framing take 2 µs each at 8 Gbit/s.
    let mut l = framed_link(0, 10, LossModel::None, 1000);
    let (mut events, mut pool) = (EventQueue::new(), PacketPool::new());
    for seq in 0..3 {
        l.enqueue(pkt(seq), SimTime::ZERO, &mut events, &mut pool);
    }
    let (arrived, _) = run(&mut l, &mut events, &mut pool);
    assert_eq!(arrived, vec![(2, 0), (4, 1), (6, 2)]);
    assert_eq!(l.stats.window_tx_bytes(), 3000, "IP bytes, without the framing");
    assert_eq!(l.busy_ps_until(SimTime(6 * US)), 6 * US, "busy the whole 6 µs");
}
