//! Whole-network facts checked from Rust: conservation on varied scenarios, a parking lot on
//! an explicit topology, and determinism of the summary.

use aimdlab_core::scenario::load_json;
use serde_json::{json, Value};

fn run(s: Value, seed: Option<u64>) -> aimdlab_core::RunResult {
    let plan = load_json(&s.to_string()).expect("valid scenario");
    aimdlab_core::run(plan, seed).expect("run")
}

fn assert_conserved(r: &aimdlab_core::RunResult) {
    let p = &r.summary["packets"];
    let (s, d, x, f) = (p["sent"].as_u64().unwrap(), p["delivered"].as_u64().unwrap(), p["dropped"].as_u64().unwrap(), p["in_flight"].as_u64().unwrap());
    assert_eq!(s, d + x + f, "{p}");
}

fn dumbbell(flows: u32, buffer: &str, sack: bool, delayed_ack: bool) -> Value {
    json!({
        "duration": "20s",
        "topology": {"dumbbell": {
            "bottleneck": {"rate": "10Mbps", "delay": "20ms", "queue": {"limit": buffer}},
            "access": {"rate": "100Mbps", "delay": "1ms"}}},
        "tcp": {"mss": "1000B", "sack": sack, "delayed_ack": delayed_ack},
        "flows": [{"count": flows, "start_jitter": "1s"}]
    })
}

#[test]
fn packets_are_conserved_with_and_without_sack_and_delayed_acks() {
    for (sack, dack) in [(true, false), (false, false), (true, true), (false, true)] {
        for (flows, buffer) in [(1, "10pkt"), (5, "20pkt"), (20, "15KB")] {
            let r = run(dumbbell(flows, buffer, sack, dack), None);
            assert_conserved(&r);
            let util = r.summary["bottleneck"]["utilization"].as_f64().unwrap();
            assert!(util > 0.5, "sack={sack} dack={dack} flows={flows}: utilization {util}");
        }
    }
}

#[test]
fn newreno_recovers_multiple_losses_per_window_without_timeouts_mostly() {
    // A small buffer makes slow start lose many segments of one window; NewReno's partial
    // ACKs recover them one per RTT, SACK several per RTT. Both must deliver everything.
    for sack in [true, false] {
        let mut s = dumbbell(1, "8pkt", sack, false);
        s["flows"][0]["app"] = json!({"kind": "finite", "size": "2MB"});
        let r = run(s, None);
        assert_conserved(&r);
        let Some(aimdlab_core::monitor::table::Column::F64(done)) = r.flows.get("completion_time_s") else { panic!() };
        assert!(done[0].is_finite() && done[0] < 5.0, "sack={sack}: completion {}", done[0]);
    }
}

#[test]
fn parking_lot_long_flow_gets_less_than_the_one_hop_flows() {
    // a → b → c → d with 10 Mbps hops; one flow crosses all three, one flow on each hop.
    let link = |from: &str, to: &str| json!({"from": from, "to": to, "rate": "10Mbps", "delay": "5ms", "queue": {"limit": "30pkt"}});
    let s = json!({
        "duration": "30s", "warmup": "5s",
        "topology": {"explicit": {
            "nodes": ["a", "b", "c", "d"],
            "links": [link("a", "b"), link("b", "c"), link("c", "d")]}},
        "tcp": {"mss": "1000B"},
        "flows": [
            {"name": "long", "src": "a", "dst": "d"},
            {"name": "hop1", "src": "a", "dst": "b"},
            {"name": "hop2", "src": "b", "dst": "c"},
            {"name": "hop3", "src": "c", "dst": "d"}]
    });
    let r = run(s, None);
    assert_conserved(&r);
    let Some(aimdlab_core::monitor::table::Column::F64(g)) = r.flows.get("goodput_bps") else { panic!() };
    for (i, &hop) in g[1..].iter().enumerate() {
        assert!(g[0] < hop, "long flow {} vs hop{} {}", g[0], i + 1, hop);
        // Each hop carries about 10 Mbps of wire bytes shared by the long flow and one short one.
        assert!((g[0] + hop) > 0.85 * 10e6 * 1000.0 / 1040.0, "hop{} total {}", i + 1, g[0] + hop);
    }
}

#[test]
fn same_seed_same_summary() {
    let a = run(dumbbell(4, "20pkt", true, false), Some(9));
    let b = run(dumbbell(4, "20pkt", true, false), Some(9));
    assert_eq!(a.summary.to_string(), b.summary.to_string());
    assert_eq!(format!("{:?}", a.timeseries), format!("{:?}", b.timeseries)); // NaN-safe
}

#[test]
fn prefetching_ahead_of_arrivals_changes_no_result() {
    // Long pipes (100 Mbit/s, 40 ms: ~500 packets on the bottleneck's wire) so the lookahead
    // reaches packets, ACKs and the hosts' links; every table must be the same.
    let mut s = dumbbell(30, "100pkt", true, true);
    s["topology"]["dumbbell"]["bottleneck"] = json!({"rate": "100Mbps", "delay": "40ms", "queue": {"limit": "300pkt"}});
    s["topology"]["dumbbell"]["access"] = json!({"rate": "1Gbps", "delay": "1ms"});
    let plan = load_json(&s.to_string()).unwrap();
    let with = |on: bool| {
        let plan = plan.clone();
        aimdlab_core::run_simulator(
            || {
                let mut sim = aimdlab_core::Simulator::new(plan, None);
                sim.set_lookahead(on);
                sim
            },
            &aimdlab_core::control::RunControl::new(),
        )
        .unwrap()
    };
    let (on, off) = (with(true), with(false));
    assert!(on.summary["bottleneck"]["tx_pkts"].as_u64().unwrap() > 100_000);
    assert_eq!(on.summary.to_string(), off.summary.to_string());
    for (a, b) in [(&on.flows, &off.flows), (&on.links, &off.links), (&on.timeseries, &off.timeseries)] {
        assert_eq!(format!("{a:?}"), format!("{b:?}")); // NaN-safe
    }
}

#[test]
fn a_clock_that_stops_is_an_error_naming_the_component() {
    // Validation refuses a zero RTO; patch one into the plan to make a timer that re-arms at
    // the same instant forever, as a stall the watchdog must catch.
    let mut plan = load_json(&dumbbell(2, "50pkt", true, false).to_string()).unwrap();
    for f in &mut plan.flows[1..] {
        f.tcp.min_rto = aimdlab_core::units::SimDuration::ZERO;
        f.tcp.max_rto = aimdlab_core::units::SimDuration::ZERO;
        f.tcp.initial_rto = aimdlab_core::units::SimDuration::ZERO;
    }
    let control = aimdlab_core::control::RunControl::new();
    let err = aimdlab_core::run_simulator(
        || {
            let mut sim = aimdlab_core::Simulator::new(plan, None);
            sim.set_stall_events(100_000);
            sim
        },
        &control,
    )
    .map(|_| ())
    .unwrap_err();
    let aimdlab_core::EngineError::Stalled(msg) = err else { panic!("{err:?}") };
    assert!(msg.contains("flows[0] (flow 1, group \"group0\"): retransmission timer"), "{msg}");
    assert!(msg.contains("100001 events in a row"), "{msg}");
}

#[test]
fn a_controller_for_a_flow_without_a_window_is_an_error_not_a_panic() {
    // Flow 0 is TCP, flow 1 UDP (CBR), flow 2 DCCP CCID-3 (TFRC, rate-based): only the first
    // takes a window controller; the others, and a flow that does not exist, are refused.
    let s = json!({
        "duration": "1s",
        "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "10ms"}, "access": {"rate": "100Mbps", "delay": "1ms"}}},
        "flows": [{"count": 1}, {"transport": "udp", "app": {"kind": "cbr", "rate": "1Mbps"}}, {"transport": "dccp", "dccp": {"ccid": 3}}]
    });
    let plan = load_json(&s.to_string()).expect("valid scenario");
    assert_eq!(plan.flows.iter().map(|f| f.takes_window_controller()).collect::<Vec<_>>(), vec![true, false, false]);
    let mut sim = aimdlab_core::Simulator::new(plan, None);
    let reno = || -> Box<dyn aimdlab_core::cc::CongestionControl> { Box::new(aimdlab_core::cc::Controller::new(&aimdlab_core::cc::CcConfig::External)) };
    assert_eq!(sim.set_controller(aimdlab_core::ids::FlowId(0), reno()), Ok(()));
    assert_eq!(sim.set_controller(aimdlab_core::ids::FlowId(1), reno()), Err("flow 1 runs over UDP and has no congestion controller".into()));
    assert!(sim.set_controller(aimdlab_core::ids::FlowId(2), reno()).unwrap_err().contains("CCID-3, a rate-based control"));
    assert_eq!(sim.set_controller(aimdlab_core::ids::FlowId(9), reno()), Err("flow 9 does not exist".into()));
}
