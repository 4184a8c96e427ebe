//! The simulator: owns every link and flow in arenas, runs the event loop, and turns what
//! the monitors saw into a `RunResult`.

use crate::app::Source;
use crate::cc::CongestionControl;
use crate::control::{RunControl, PUBLISH_EVERY_EVENTS};
use crate::event::{Event, EventQueue};
use crate::flow::Flow;
use crate::ids::{FlowId, LinkId, NodeId};
use crate::monitor::sampling::{flow_values, link_values, LinkTotals};
use crate::monitor::timeseries::{FlowSeries, LinkSeries};
use crate::net::link::Link;
use crate::net::packet::{Packet, PacketKind};
use crate::net::packet_pool::PacketPool;
use crate::result::{self, RunParts, RunResult};
use crate::rng::{derive_stream, StreamKind};
use crate::scenario::Plan;
use crate::transport::interface::{TransportReceiver, TransportSender};
use crate::transport::outbox::{Outbox, TimerRequest};
use crate::units::{SimDuration, SimTime};
use rand::Rng;

mod lookahead;

/// Packets counted at the hosts for the conservation check
/// `sent = delivered + dropped + in flight` (drops and packets in flight are the links').
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketCounters {
    /// Packets injected by hosts (data and ACKs).
    pub sent: u64,
    /// Packets that reached their destination host.
    pub delivered: u64,
}

/// One simulation run.
pub struct Simulator {
    pub(crate) plan: Plan,
    pub(crate) seed: u64,
    pub(crate) now: SimTime,
    pub(crate) end: SimTime,
    events: EventQueue,
    /// The packets on the links' wires.
    wire: PacketPool,
    pub(crate) links: Vec<Link>,
    pub(crate) flows: Vec<Flow>,
    /// What an endpoint sends and asks for, lent to each endpoint call (boxed, so lending
    /// and returning it moves a pointer, not the struct).
    outbox: Option<Box<Outbox>>,
    pub(crate) flow_series: FlowSeries,
    pub(crate) link_series: LinkSeries,
    pub(crate) monitored: Vec<LinkId>,
    last_link_sample: Vec<LinkTotals>,
    state_buf: Vec<(&'static str, f64)>,
    pub(crate) counters: PacketCounters,
    pub(crate) events_processed: u64,
    pub(crate) window_start: SimTime,
    stall_events: u64,
    /// Whether arrivals prefetch what the arrivals behind them will read (`prefetch_ahead`).
    lookahead: bool,
}

/// Flows from which the event loop prefetches ahead of arrivals. Below, the state the packets
/// touch stays in cache and the hints are pure cost; above, they pay (the figures:
/// `docs/explanation/benchmarks.md`, "Choices kept for speed").
pub const LOOKAHEAD_FROM_FLOWS: usize = 2_000;

/// Events in a row at one simulated instant after which a run counts as stalled. A legitimate
/// burst (every flow starting at t = 0, a sample of every flow) is a few events per flow;
/// 2^26 is far above that at the 100,000-flow limit and takes a few seconds to reach.
pub const STALL_EVENTS: u64 = 1 << 26;

/// A run whose clock stopped moving: the last event's component, the instant and how many
/// events ran there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stall {
    /// The simulated instant where the clock stopped.
    pub at: SimTime,
    /// The component whose event came last, in words.
    pub component: String,
    /// Events run at that instant.
    pub events: u64,
}

impl std::fmt::Display for Stall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the simulated clock stopped at {}: {} events in a row at that instant, the last from {}; a parameter makes it fire without delay",
            self.at, self.events, self.component
        )
    }
}

impl Simulator {
    /// Builds the network and flows of `plan` (kept for the run: routes, names); `seed`
    /// overrides the plan's seed.
    pub fn new(plan: Plan, seed: Option<u64>) -> Self {
        let seed = seed.unwrap_or(plan.seed);
        let links: Vec<Link> = plan
            .links
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let mut link = Link::new(LinkId(i as u32), l.from, l.to, l.rate, l.delay, l.layer, &l.queue, &l.loss, seed);
                if l.pcap {
                    link.start_capture();
                }
                link
            })
            .collect();
        let flows: Vec<Flow> = plan
            .flows
            .iter()
            .enumerate()
            .map(|(i, fp)| {
                let mut rng = derive_stream(seed, StreamKind::Flow, i as u64);
                let jitter = if fp.start_jitter.0 > 0 { rng.gen_range(0..fp.start_jitter.0) } else { 0 };
                let mut flow = Flow::new(FlowId(i as u32), fp, SimTime::ZERO + fp.start + SimDuration(jitter), rng);
                flow.stats.window_from = SimTime::ZERO + plan.warmup;
                flow
            })
            .collect();
        let monitored: Vec<LinkId> = (0..plan.links.len()).filter(|&i| plan.links[i].monitor).map(|i| LinkId(i as u32)).collect();
        // Room for the samples: the flows' series reserve address space for all of theirs (up
        // to `FlowSeries::MAX_RESERVED_ROWS`), memory only as rows are written; the links'
        // for the first rows only.
        let samples = (plan.duration.0 / plan.sample_interval.0) as usize;
        let rows = |n: usize| samples.saturating_mul(n).min(1 << 16);
        let mut sim = Simulator {
            seed,
            now: SimTime::ZERO,
            end: SimTime::ZERO + plan.duration,
            events: EventQueue::new(),
            wire: PacketPool::new(),
            flow_series: FlowSeries::with_capacity(samples, plan.sampled_flows.len()),
            link_series: LinkSeries::with_capacity(rows(monitored.len())),
            last_link_sample: vec![LinkTotals::default(); monitored.len()],
            monitored,
            links,
            flows,
            outbox: Some(Box::default()),
            state_buf: Vec::with_capacity(8),
            counters: PacketCounters::default(),
            events_processed: 0,
            window_start: SimTime::ZERO,
            stall_events: STALL_EVENTS,
            lookahead: plan.flows.len() >= LOOKAHEAD_FROM_FLOWS,
            plan,
        };
        for f in &sim.flows {
            sim.events.schedule(f.start_at, Event::FlowStart(f.id));
        }
        for (i, fp) in sim.plan.flows.iter().enumerate() {
            if let Some(stop) = fp.stop {
                sim.events.schedule(SimTime::ZERO + stop, Event::FlowStop(FlowId(i as u32)));
            }
        }
        if sim.plan.warmup > SimDuration::ZERO {
            sim.events.schedule(SimTime::ZERO + sim.plan.warmup, Event::WarmupEnd);
        }
        sim.events.schedule(SimTime::ZERO + sim.plan.sample_interval, Event::Sample);
        sim
    }

    /// Replaces flow `flow`'s controller (e.g. with one written in Python); an error, naming
    /// the flow, for a flow without a window controller (`FlowPlan::takes_window_controller`)
    /// or one that does not exist.
    pub fn set_controller(&mut self, flow: FlowId, cc: Box<dyn CongestionControl>) -> Result<(), String> {
        let Some(f) = self.flows.get_mut(flow.idx()) else {
            return Err(format!("flow {} does not exist", flow.0));
        };
        f.sender.set_controller(cc).map_err(|why| format!("flow {} {why}", flow.0))
    }

    /// Sets how many events in a row at one instant count as a stalled clock (default
    /// `STALL_EVENTS`).
    pub fn set_stall_events(&mut self, events: u64) {
        self.stall_events = events;
    }

    /// Turns prefetching ahead of arrivals on or off (default: on from
    /// `LOOKAHEAD_FROM_FLOWS` flows). It changes only speed, never a result.
    pub fn set_lookahead(&mut self, on: bool) {
        self.lookahead = on;
    }

    /// Number of flows.
    pub fn num_flows(&self) -> usize {
        self.flows.len()
    }

    /// Runs to the end of the scenario and reports.
    pub fn run(self) -> RunResult {
        self.run_controlled(&RunControl::new()).expect("an uncancelled run completes")
    }

    /// Runs to the end, publishing the simulated clock to `control` and stopping early (with
    /// `None`) if it is cancelled.
    pub fn run_controlled(self, control: &RunControl) -> Option<RunResult> {
        match self.run_checked(control) {
            Ok(r) => r,
            Err(stall) => panic!("{stall}"),
        }
    }

    /// Runs to the end like `run_controlled`, but reports a stalled clock (more than
    /// `STALL_EVENTS` events in a row at one instant) as an error naming the component
    /// whose event came last, instead of looping forever.
    pub fn run_checked(mut self, control: &RunControl) -> Result<Option<RunResult>, Stall> {
        let mut same_instant = 0u64;
        while let Some((t, ev)) = self.events.pop() {
            if t > self.end {
                break;
            }
            if t == self.now {
                same_instant += 1;
                if same_instant > self.stall_events {
                    return Err(Stall { at: t, component: self.describe(ev), events: same_instant });
                }
            } else {
                same_instant = 0;
            }
            self.now = t;
            self.events_processed += 1;
            if self.events_processed & (PUBLISH_EVERY_EVENTS - 1) == 0 {
                control.publish(t.0);
                if control.is_cancelled() {
                    return Ok(None);
                }
            }
            self.handle(ev);
        }
        self.now = self.end;
        control.publish(self.end.0);
        Ok(Some(result::collect(self.into_parts())))
    }

    /// Hands the finished run's parts to the result builder.
    fn into_parts(mut self) -> RunParts {
        let mut after_end = EventQueue::new();
        for l in &mut self.links {
            l.finish(self.end, &mut after_end, &mut self.wire);
        }
        // What each flow still holds at the end, for its loss rate (`FlowStats::held_at_end`).
        let flows = &mut self.flows;
        for l in &self.links {
            l.for_each_held(&self.wire, &mut |p| {
                if p.kind == PacketKind::Data {
                    flows[p.flow.idx()].stats.held_at_end(p.sent_at);
                }
            });
        }
        RunParts {
            plan: self.plan,
            seed: self.seed,
            end: self.end,
            window_start: self.window_start,
            links: self.links,
            flows: self.flows,
            flow_series: self.flow_series,
            link_series: self.link_series,
            packets_sent: self.counters.sent,
            packets_delivered: self.counters.delivered,
            events_processed: self.events_processed,
        }
    }

    /// The component an event belongs to, in words, e.g. `flow 3 (group "reno")'s retransmission timer`.
    fn describe(&self, ev: Event) -> String {
        let flow = |f: FlowId, what: &str| {
            let p = &self.plan.flows[f.idx()];
            format!("flows[{}] (flow {}, group {:?}): {what}", p.group, f.0, p.group_name)
        };
        let link = |l: LinkId, what: &str| format!("link {:?}: {what}", self.plan.links[l.idx()].name);
        match ev {
            Event::LinkTxDone(l) => link(l, "end of transmission"),
            Event::LinkArrival(l) => link(l, "arrival at the far end"),
            Event::Timer(f, kind) => flow(f, kind.describe()),
            Event::FlowStart(f) => flow(f, "start"),
            Event::FlowStop(f) => flow(f, "stop"),
            Event::Sample => "the time-series sampler (check sample_interval)".into(),
            Event::WarmupEnd => "the end of the warm-up".into(),
            Event::AppTimer(f) => flow(f, "application timer (check app.rate, app.on, app.off)"),
            Event::HostRelease(f) => flow(f, "send-jitter release (check tcp.send_jitter)"),
        }
    }

    #[inline]
    fn handle(&mut self, ev: Event) {
        match ev {
            Event::LinkArrival(l) => {
                let p = self.links[l.idx()].on_arrival(self.now, &mut self.events, &mut self.wire);
                if self.lookahead {
                    self.prefetch_ahead(l);
                }
                let node = self.links[l.idx()].to;
                if node == p.dst {
                    self.deliver(p);
                } else {
                    self.forward(p, node);
                }
            }
            Event::LinkTxDone(l) => self.links[l.idx()].on_tx_done(self.now, &mut self.events, &mut self.wire),
            Event::Timer(f, kind) => {
                let mut out = self.lend_outbox();
                let flow = &mut self.flows[f.idx()];
                let origin = if kind.at_sender() {
                    flow.sender.on_timer(kind, self.now, &mut out);
                    flow.src
                } else {
                    flow.receiver.on_timer(kind, self.now, &mut out);
                    flow.dst
                };
                self.flush(out, f, origin);
            }
            Event::AppTimer(f) => self.app_timer(f),
            Event::HostRelease(f) => {
                let flow = &mut self.flows[f.idx()];
                let (_, p) = flow.release.pop_front().expect("a release event has a packet");
                if let Some(&(next, _)) = flow.release.front() {
                    self.events.schedule(next, Event::HostRelease(f));
                }
                let origin = flow.src;
                let first_link = self.plan.routes.only_link(origin);
                self.counters.sent += 1;
                flow.sent_in_window += (p.sent_at >= SimTime::ZERO + self.plan.warmup) as u64;
                self.forward_from(p, origin, first_link);
            }
            Event::FlowStart(f) => {
                let mut out = self.lend_outbox();
                let flow = &mut self.flows[f.idx()];
                flow.sender.start(self.now, &mut out);
                let origin = flow.src;
                if let Some(t) = flow.app.start(self.now, &mut flow.rng) {
                    self.events.schedule(t, Event::AppTimer(f));
                }
                self.flush(out, f, origin);
            }
            Event::FlowStop(f) => {
                let flow = &mut self.flows[f.idx()];
                flow.sender.stop_app();
                flow.app.stop();
            }
            Event::Sample => self.sample(),
            Event::WarmupEnd => self.start_window(),
        }
    }

    /// The link `p`, arriving at `node`, goes on to (none if `node` is its destination).
    #[inline]
    pub(crate) fn onward_link(&self, node: NodeId, p: &Packet) -> Option<LinkId> {
        if node == p.dst {
            None
        } else {
            self.plan.routes.next_link(node, p.dst)
        }
    }

    /// Sends `p`, now at `node`, on towards its destination.
    #[inline(always)]
    fn forward(&mut self, p: Packet, node: NodeId) {
        self.forward_from(p, node, None);
    }

    /// `forward` from a host whose only link, if it has one, is `only_link` (routing's
    /// `only_link`; `None`: look the route up).
    #[inline(always)]
    fn forward_from(&mut self, p: Packet, node: NodeId, only_link: Option<LinkId>) {
        let link = match only_link {
            Some(l) => l,
            None => self.plan.routes.next_link(node, p.dst).expect("routes are validated when the scenario is compiled"),
        };
        self.links[link.idx()].enqueue(p, self.now, &mut self.events, &mut self.wire);
    }

    /// The application of `f` may offer a message.
    fn app_timer(&mut self, f: FlowId) {
        let mut out = self.lend_outbox();
        let flow = &mut self.flows[f.idx()];
        let step = flow.app.on_timer(self.now, &mut flow.rng);
        if step.write != crate::app::Write::Nothing {
            flow.sender.offer(step.write, self.now, &mut out);
        }
        if let Some(t) = step.next {
            self.events.schedule(t, Event::AppTimer(f));
        }
        let origin = flow.src;
        self.flush(out, f, origin);
    }

    /// `p` reached its destination host.
    #[inline]
    fn deliver(&mut self, p: Packet) {
        self.counters.delivered += 1;
        let now = self.now;
        let mut out = self.lend_outbox();
        let fid = p.flow;
        let flow = &mut self.flows[fid.idx()];
        match p.kind {
            PacketKind::Data => {
                let arrival = flow.receiver.on_packet(&p, now, &mut out);
                let payload = if arrival.first_arrival { p.size.0 - flow.data_header.0 } else { 0 };
                flow.stats.on_arrival(p.size.0, payload, p.sent_at, now);
                let done = |total: u64| flow.receiver.rcv_nxt() == Some(total);
                if arrival.in_order_advance > 0 && flow.total_segments.is_some_and(done) && flow.stats.completed_at.is_none() {
                    flow.stats.completed_at = Some(now);
                }
                let origin = flow.dst;
                self.flush(out, fid, origin);
            }
            PacketKind::Ack => {
                flow.sender.on_packet(&p, now, &mut out);
                let origin = flow.src;
                self.flush(out, fid, origin);
            }
        }
    }

    /// Injects an endpoint's packets at `origin` (data packets of a flow with send jitter
    /// wait out their delay first) and schedules its timers.
    #[inline]
    fn flush(&mut self, mut out: Box<Outbox>, flow: FlowId, origin: NodeId) {
        let (jitter, first_link, window_from) = {
            let f = &self.flows[flow.idx()];
            (f.send_jitter > SimDuration::ZERO && origin == f.src, self.plan.routes.only_link(origin), SimTime::ZERO + self.plan.warmup)
        };
        let mut sent_in_window = 0;
        for i in 0..out.packets.len() {
            let p = out.packets[i];
            if jitter && p.kind == PacketKind::Data {
                let f = &mut self.flows[flow.idx()];
                let delay = SimDuration(f.rng.gen_range(0..f.send_jitter.0));
                let at = f.release.back().map_or(self.now, |&(t, _)| t).max(self.now + delay);
                f.release.push_back((at, p));
                if f.release.len() == 1 {
                    self.events.schedule(at, Event::HostRelease(flow));
                }
                continue;
            }
            self.counters.sent += 1;
            sent_in_window += (p.kind == PacketKind::Data && p.sent_at >= window_from) as u64;
            self.forward_from(p, origin, first_link);
        }
        self.flows[flow.idx()].sent_in_window += sent_in_window;
        for (kind, request) in out.requests() {
            match request {
                TimerRequest::Keep => {}
                TimerRequest::Set(t) if kind.is_exact() => {
                    let lane = self.events.lane(kind as u32, t.saturating_since(self.now), self.flows.len());
                    self.events.set_exact(lane, flow.0, self.now, Event::Timer(flow, kind));
                }
                TimerRequest::Set(t) => self.events.schedule(t, Event::Timer(flow, kind)),
                TimerRequest::Cancel => self.events.cancel_exact(kind as u32, flow.0),
            }
        }
        out.clear();
        self.outbox = Some(out);
    }

    /// The outbox, empty, for one endpoint call (`flush` returns it).
    #[inline(always)]
    fn lend_outbox(&mut self) -> Box<Outbox> {
        self.outbox.take().expect("the outbox is returned by every flush")
    }

    fn sample(&mut self) {
        let interval = self.plan.sample_interval;
        let t = self.now.as_secs_f64();
        for &id in &self.plan.sampled_flows {
            let f = &mut self.flows[id.idx()];
            let values = flow_values(f, interval);
            self.state_buf.clear();
            let buf = &mut self.state_buf;
            f.sender.state_vars(&mut |name, v| buf.push((name, v)));
            self.flow_series.push(t, f.id.0 as u64, values, &self.state_buf);
        }
        for (i, &l) in self.monitored.iter().enumerate() {
            let link = &mut self.links[l.idx()];
            link.settle(self.now, &mut self.events, &mut self.wire);
            let values = link_values(link, self.now, interval, &mut self.last_link_sample[i]);
            self.link_series.push(t, l.0 as u64, values);
        }
        let next = self.now + interval;
        if next <= self.end {
            self.events.schedule(next, Event::Sample);
        }
    }

    fn start_window(&mut self) {
        self.window_start = self.now;
        for l in &mut self.links {
            l.start_window(self.now, &mut self.events, &mut self.wire);
        }
        for f in &mut self.flows {
            f.sender.start_window();
            f.receiver.start_window();
            f.stats.start_window();
        }
    }

    /// Total events scheduled so far.
    pub fn events_scheduled(&self) -> u64 {
        self.events.scheduled_total()
    }
}
