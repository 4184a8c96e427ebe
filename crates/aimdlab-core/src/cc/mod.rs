//! Congestion control: the window-controller interface ([`congestion_control`]) and the
//! rate-controller one ([`rate_control`], TFRC in [`tfrc`]), each controller
//! with its parameter struct (one file each), and the registry list below that makes them
//! selectable by name from a scenario (`cc = { name = "gaimd", beta = 0.875 }`, read by
//! [`spec`]).
//!
//! Adding a controller: one new file (the controller, and a parameter struct implementing
//! [`params::ControllerParams`] whose defaults are the paper's values) plus one line in the
//! `registry!` list below.

pub mod ca_phase;
pub mod congestion_control;
pub mod congestion_event;
pub mod cut_base;
pub mod hystart;
pub mod params;
pub mod rate_control;
pub mod rate_sample;
pub mod registry;
pub mod rtt_round;
pub mod spec;
#[cfg(test)]
pub mod testing;
pub mod tfrc;
pub mod window;

pub use ca_phase::CaPhase;
pub use congestion_control::{AckArrival, AckEvent, CongestionControl, CongestionEvent, CongestionKind};
pub use window::Window;

// The built-in controllers, `module::Variant(ParamsStruct)`: one line each.
registry::registry! {
    reno::Reno(RenoParams),
    gaimd::Gaimd(GaimdParams),
    new_aimd::NewAimd(NewAimdParams),
    mr_aimd::MrAimd(MrAimdParams),
    cubic::Cubic(CubicParams),
    binomial::Binomial(BinomialParams),
    aiad::Aiad(AiadParams),
    mimd::Mimd(MimdParams),
    tw::Tw(TwParams),
    scalable::Scalable(ScalableParams),
    highspeed::HighSpeed(HighSpeedParams),
    htcp::Htcp(HtcpParams),
    bic::Bic(BicParams),
    illinois::Illinois(IllinoisParams),
    westwood::Westwood(WestwoodParams),
    vegas::Vegas(VegasParams),
    veno::Veno(VenoParams),
    yeah::Yeah(YeahParams),
    dctcp::Dctcp(DctcpParams),
    bbr::Bbr(BbrParams),
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn one_ack_is_one_step_of_growth_whatever_it_acknowledges() {
        // The transport makes one growth step of an ACK under `cwnd_growth = "per_ack"` (RFC
        // 5681), one of each segment under `per_segment`. So a controller grows by the step,
        // not by the segments it stands for: an ACK of two segments (delayed ACKs) in
        // congestion avoidance grows the window as an ACK of one does. Two count segments by
        // their definition: CUBIC's Reno estimate (RFC 9438 §4.3: W_est += α·segments_acked
        // / cwnd) and MIMD (×increase a round trip whatever the ACK ratio; mimd.rs).
        let mut differ = Vec::new();
        for name in controller_names().into_iter().filter(|n| !["cubic", "mimd"].contains(n)) {
            let cfg = resolve_registered(name, &[], "cc", crate::stack_profile::StackProfile::Rfc).unwrap().unwrap();
            let after = |last: u64| {
                let mut cc = testing::windowed(Controller::new(&cfg), 100.0, 50.0);
                for _ in 0..3 {
                    cc.on_ack(&testing::ack(1));
                }
                cc.on_ack(&testing::ack(last));
                cc
            };
            let (one, two) = (after(1), after(2));
            if (one.cwnd_pkts() - two.cwnd_pkts()).abs() > 1e-12 {
                differ.push((name, one.cwnd_pkts(), two.cwnd_pkts()));
            }
        }
        assert!(differ.is_empty(), "{differ:?}");
    }

    #[test]
    fn a_flows_controller_stays_as_small_as_cubic_makes_it() {
        // Every flow holds a `Controller` inline: one larger than CUBIC's state goes in a box
        // (BBR, Illinois, YeAH), so a new controller does not grow every flow.
        let cubic = std::mem::size_of::<super::cubic::Cubic>();
        assert!(std::mem::size_of::<super::Controller>() <= cubic + 8, "{} bytes", std::mem::size_of::<super::Controller>());
    }
}
