//! A DCCP flow's settings: the `dccp` table of a flow group, its defaults, checks and the
//! resolved `DccpConfig`. Header sizes follow RFC 4340 §5 with 48-bit sequence numbers
//! (X = 1), the form every DCCP packet type may use: generic header 16 bytes, the
//! acknowledgement subheader 8 more; plus a 20-byte IPv4 header.

use crate::error::ScenarioError;
use crate::units::quantity::{Duration, Size};
use crate::units::{Bytes, SimDuration};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the sender does with a message the application offers while its send buffer is full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BufferPolicy {
    /// Discard the oldest waiting message to make room (stale media is worth least).
    #[default]
    DropOldest,
    /// Discard the message offered.
    DropNewest,
    /// Back-pressure: the application waits with the message it is writing until the buffer
    /// has room, and makes none of the messages its schedule would have made meanwhile
    /// (counted in `app_drops`); memory stays within the bound plus that one message.
    Block,
}

/// The `dccp` table of a flow group (`transport = "dccp"`). Payload size per packet is the
/// group's `tcp.mss`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DccpParams {
    /// Congestion Control ID: 2 (TCP-like, RFC 4341; the window is run by the group's `cc`,
    /// default Reno) or 3 (TFRC, RFC 4342). Default 2.
    pub ccid: Option<u8>,
    /// CCID-2: the receiver acknowledges every `ack_ratio` data packets (RFC 4341 §6.1).
    /// Default 2 (the RFC's default).
    pub ack_ratio: Option<u32>,
    /// CCID-2: adapt the Ack Ratio to congestion on the ACK path (RFC 4341 §6.1.2): double it
    /// when ACKs are lost in a window, lower it by one after cwnd/(R² − R) windows without
    /// ACK loss, never below `ack_ratio` nor above ⌈cwnd/2⌉. Default true.
    pub ack_ratio_adapt: Option<bool>,
    /// CCID-2: a packet is lost once this many packets sent after it are acknowledged
    /// (RFC 4341 §5, NUMDUPACK). Default 3.
    pub numdupack: Option<u32>,
    /// CCID-2: initial congestion window, packets. Default RFC 3390's
    /// min(4, max(2, ⌊4380 B / mss⌋)), as RFC 4341 §5 says (3 for a 1460-byte payload).
    pub initial_cwnd: Option<u32>,
    /// CCID-2: initial slow-start threshold, packets. Default: unbounded.
    pub initial_ssthresh: Option<u32>,
    /// CCID-2: longest the receiver waits before acknowledging fewer than `ack_ratio`
    /// packets. Default `"40ms"` (our choice: TCP's delayed-ACK timeout here; RFC 4341
    /// leaves it open).
    pub ack_delay: Option<Duration>,
    /// Lower bound of the retransmission (CCID-2) timeout. Default `"200ms"`: RFC 4341 §5
    /// lifts TCP's 1 s minimum since DCCP does not retransmit; 200 ms is Linux's.
    pub min_rto: Option<Duration>,
    /// Messages the send buffer holds while the CCID does not let them leave. Default 64
    /// (our choice).
    pub send_buffer: Option<u32>,
    /// `"drop_oldest"` (default), `"drop_newest"` or `"block"`: what a full send buffer does
    /// with one more message.
    pub buffer_policy: Option<BufferPolicy>,
    /// Header bytes of a data packet. Default `"36B"`: IPv4 (20) + DCCP generic header with
    /// 48-bit sequence numbers (16), RFC 4340 §5.1.
    pub data_header: Option<Size>,
    /// Header bytes of an acknowledgement before its options. Default `"44B"`: IPv4 (20) +
    /// generic header (16) + acknowledgement number subheader (8), RFC 4340 §5.3. A CCID-2
    /// ACK adds its Ack Vector option (2 bytes + one per run of up to 64 packets, RFC 4340
    /// §11.4, padded to 4 bytes); a CCID-3 feedback packet its options (RFC 4342 §8).
    pub ack_header: Option<Size>,
    /// ECN (RFC 4340 §12): data packets are sent ECN-capable and a CE mark counts as a
    /// congestion signal. Default false.
    pub ecn: Option<bool>,
    /// CCID-3: the TFRC controller's settings.
    pub tfrc: Option<crate::cc::tfrc::TfrcParams>,
}

/// A DCCP flow's resolved settings. Field names are the `dccp` table's where the table has
/// the field: the table is laid over the defaults by name (`overlay.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DccpConfig {
    /// 2 or 3.
    pub ccid: u8,
    /// Ack Ratio asked of the receiver (its floor when adapting).
    pub ack_ratio: u32,
    /// Whether the Ack Ratio adapts.
    pub ack_ratio_adapt: bool,
    /// NUMDUPACK.
    pub numdupack: u32,
    /// Initial congestion window, packets.
    #[serde(rename = "initial_cwnd")]
    pub initial_cwnd_pkts: u32,
    /// Initial slow-start threshold, packets (∞: unbounded).
    #[serde(rename = "initial_ssthresh", with = "crate::units::serde_text::unbounded")]
    pub initial_ssthresh_pkts: f64,
    /// Longest wait of an acknowledgement.
    #[serde(with = "crate::units::serde_text::duration")]
    pub ack_delay: SimDuration,
    /// RTO lower bound.
    #[serde(with = "crate::units::serde_text::duration")]
    pub min_rto: SimDuration,
    /// RTO before the first RTT sample.
    #[serde(with = "crate::units::serde_text::duration")]
    pub initial_rto: SimDuration,
    /// RTO upper bound.
    #[serde(with = "crate::units::serde_text::duration")]
    pub max_rto: SimDuration,
    /// Send buffer bound, messages.
    #[serde(rename = "send_buffer")]
    pub send_buffer_pkts: u32,
    /// What a full buffer does.
    pub buffer_policy: BufferPolicy,
    /// Header bytes of a data packet.
    #[serde(with = "crate::units::serde_text::bytes")]
    pub data_header: Bytes,
    /// Header bytes of an acknowledgement before its options.
    #[serde(with = "crate::units::serde_text::bytes")]
    pub ack_header: Bytes,
    /// Data packets are ECN-capable.
    pub ecn: bool,
    /// TFRC's settings (CCID-3).
    pub tfrc: crate::cc::tfrc::TfrcParams,
}

impl DccpConfig {
    /// The defaults for a payload of `mss` bytes per packet.
    pub fn defaults(mss: Bytes) -> Self {
        DccpConfig {
            ccid: 2,
            ack_ratio: 2,
            ack_ratio_adapt: true,
            numdupack: 3,
            initial_cwnd_pkts: (4380 / mss.0.max(1)).clamp(2, 4) as u32,
            initial_ssthresh_pkts: f64::INFINITY,
            ack_delay: SimDuration::from_millis(40),
            min_rto: SimDuration::from_millis(200),
            initial_rto: SimDuration::from_secs(1),
            max_rto: SimDuration::from_secs(60),
            send_buffer_pkts: 64,
            buffer_policy: BufferPolicy::DropOldest,
            data_header: Bytes(36),
            ack_header: Bytes(44),
            ecn: false,
            tfrc: crate::cc::tfrc::TfrcParams::default(),
        }
    }

    /// Resolves the table `p` at `path` for a payload of `mss` bytes: its fields laid over the
    /// defaults by name, then checked.
    pub fn resolve(p: &DccpParams, mss: Bytes, path: &str) -> Result<Self, ScenarioError> {
        let mut given = crate::overlay::given_fields(p);
        if let Some(v) = p.initial_ssthresh {
            if v < 2 {
                return Err(ScenarioError::new(format!("{path}.initial_ssthresh"), format!("{v} is too small; expected at least 2 packets")));
            }
        }
        given.remove("tfrc");
        let mut c = crate::overlay::overlay(&DccpConfig::defaults(mss), given, path)?;
        c.check().map_err(|(field, message)| ScenarioError::new(format!("{path}.{field}"), message))?;
        if let Some(t) = &p.tfrc {
            if c.ccid != 3 {
                return Err(ScenarioError::new(format!("{path}.tfrc"), "applies only to CCID-3; set ccid = 3 or remove the tfrc table"));
            }
            t.check().map_err(|e| e.at(&format!("{path}.tfrc")))?;
            c.tfrc = t.clone();
        }
        Ok(c)
    }

    /// The ranges the settings must lie in: `Err((field, message))` for the first that does
    /// not (the scenario's `dccp` table names it).
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if self.ccid != 2 && self.ccid != 3 {
            return Err(("ccid", format!("{} is not a CCID aimdlab has; expected 2 (TCP-like) or 3 (TFRC)", self.ccid)));
        }
        if self.ack_ratio == 0 || self.ack_ratio > u16::MAX as u32 {
            return Err(("ack_ratio", format!("{} is out of range; expected 1 to 65535 data packets per ACK", self.ack_ratio)));
        }
        if self.numdupack == 0 || self.numdupack > 1000 {
            return Err(("numdupack", format!("{} is out of range; expected 1 to 1000 packets", self.numdupack)));
        }
        if self.initial_cwnd_pkts == 0 || self.initial_cwnd_pkts > 1_000_000 {
            return Err(("initial_cwnd", format!("{} is out of range; expected 1 to 1000000 packets", self.initial_cwnd_pkts)));
        }
        if self.ack_delay == SimDuration::ZERO || self.ack_delay > SimDuration::from_secs(10) {
            return Err(("ack_delay", format!("{} is out of range; expected more than 0s and at most 10s", self.ack_delay)));
        }
        if self.min_rto < SimDuration::from_millis(1) || self.min_rto > self.max_rto {
            return Err(("min_rto", format!("{} is out of range; expected 1ms to {}", self.min_rto, self.max_rto)));
        }
        if self.send_buffer_pkts == 0 || self.send_buffer_pkts > 1_000_000 {
            return Err(("send_buffer", format!("{} is out of range; expected 1 to 1000000 messages", self.send_buffer_pkts)));
        }
        if self.data_header.0 > 1000 {
            return Err(("data_header", format!("{} bytes is out of range; expected 0B to 1000B", self.data_header.0)));
        }
        if self.ack_header.0 == 0 || self.ack_header.0 > 1000 {
            return Err(("ack_header", format!("{} bytes is out of range; expected 1B to 1000B", self.ack_header.0)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod overlay_tests {
    use super::*;

    #[test]
    fn every_field_of_the_dccp_table_reaches_the_resolved_settings() {
        let table = serde_json::json!({
            "ccid": 3, "ack_ratio": 4, "ack_ratio_adapt": false, "numdupack": 5, "initial_cwnd": 7, "initial_ssthresh": 30,
            "ack_delay": "10ms", "min_rto": "1s", "send_buffer": 8, "buffer_policy": "block", "data_header": "40B",
            "ack_header": "48B", "ecn": true, "tfrc": { "oscillation_damping": true },
        });
        let p: DccpParams = serde_json::from_value(table.clone()).unwrap();
        let base = DccpConfig::defaults(Bytes(1000));
        let c = DccpConfig::resolve(&p, Bytes(1000), "flows[0].dccp").unwrap();
        let (before, after) = (serde_json::to_value(&base).unwrap(), serde_json::to_value(&c).unwrap());
        for key in table.as_object().unwrap().keys() {
            assert_ne!(before[key], after[key], "dccp.{key} did not reach the settings");
        }
        let listed = serde_json::to_value(DccpParams::default()).unwrap();
        for key in listed.as_object().unwrap().keys() {
            assert!(table.get(key).is_some(), "dccp.{key} is not in this test");
        }
        assert_eq!(DccpConfig::resolve(&DccpParams::default(), Bytes(1000), "d").unwrap(), base);
    }

    #[test]
    fn a_value_out_of_range_is_named_with_its_table() {
        let p: DccpParams = serde_json::from_value(serde_json::json!({ "ack_ratio": 0 })).unwrap();
        let e = DccpConfig::resolve(&p, Bytes(1000), "flows[2].dccp").unwrap_err();
        assert_eq!(e.to_string(), "flows[2].dccp.ack_ratio: 0 is out of range; expected 1 to 65535 data packets per ACK");
    }
}
