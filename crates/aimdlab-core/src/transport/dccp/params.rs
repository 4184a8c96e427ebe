//! A DCCP flow's settings: the `dccp` table of a flow group, its defaults, checks and the
//! resolved `DccpConfig`. Header sizes follow RFC 4340 §5 with 48-bit sequence numbers
//! (X = 1), the form every DCCP packet type may use: generic header 16 bytes, the
//! acknowledgement subheader 8 more; plus a 20-byte IPv4 header.

use crate::error::ScenarioError;
use crate::scenario::quantity::{Duration, Size};
use crate::units::{Bytes, SimDuration};
use schemars::JsonSchema;
use serde::Deserialize;

/// What the sender does with a message the application offers while its send buffer is full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
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
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
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

/// A DCCP flow's resolved settings.
#[derive(Clone, Debug, PartialEq)]
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
    pub initial_cwnd_pkts: u32,
    /// Initial slow-start threshold, packets (∞: unbounded).
    pub initial_ssthresh_pkts: f64,
    /// Longest wait of an acknowledgement.
    pub ack_delay: SimDuration,
    /// RTO lower bound.
    pub min_rto: SimDuration,
    /// RTO before the first RTT sample.
    pub initial_rto: SimDuration,
    /// RTO upper bound.
    pub max_rto: SimDuration,
    /// Send buffer bound, messages.
    pub send_buffer_pkts: u32,
    /// What a full buffer does.
    pub buffer_policy: BufferPolicy,
    /// Header bytes of a data packet.
    pub data_header: Bytes,
    /// Header bytes of an acknowledgement before its options.
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

    /// Resolves the table `p` at `path` for a payload of `mss` bytes.
    pub fn resolve(p: &DccpParams, mss: Bytes, path: &str) -> Result<Self, ScenarioError> {
        let mut c = DccpConfig::defaults(mss);
        let bad = |field: &str, message: String| Err(ScenarioError::new(format!("{path}.{field}"), message));
        if let Some(v) = p.ccid {
            if v != 2 && v != 3 {
                return bad("ccid", format!("{v} is not a CCID aimdlab has; expected 2 (TCP-like) or 3 (TFRC)"));
            }
            c.ccid = v;
        }
        if let Some(v) = p.ack_ratio {
            if v == 0 || v > u16::MAX as u32 {
                return bad("ack_ratio", format!("{v} is out of range; expected 1 to 65535 data packets per ACK"));
            }
            c.ack_ratio = v;
        }
        if let Some(v) = p.ack_ratio_adapt {
            c.ack_ratio_adapt = v;
        }
        if let Some(v) = p.numdupack {
            if v == 0 || v > 1000 {
                return bad("numdupack", format!("{v} is out of range; expected 1 to 1000 packets"));
            }
            c.numdupack = v;
        }
        if let Some(v) = p.initial_cwnd {
            if v == 0 || v > 1_000_000 {
                return bad("initial_cwnd", format!("{v} is out of range; expected 1 to 1000000 packets"));
            }
            c.initial_cwnd_pkts = v;
        }
        if let Some(v) = p.initial_ssthresh {
            if v < 2 {
                return bad("initial_ssthresh", format!("{v} is too small; expected at least 2 packets"));
            }
            c.initial_ssthresh_pkts = v as f64;
        }
        if let Some(d) = p.ack_delay {
            if d.0 == SimDuration::ZERO || d.0 > SimDuration::from_secs(10) {
                return bad("ack_delay", format!("{} is out of range; expected more than 0s and at most 10s", d.0));
            }
            c.ack_delay = d.0;
        }
        if let Some(d) = p.min_rto {
            if d.0 < SimDuration::from_millis(1) || d.0 > c.max_rto {
                return bad("min_rto", format!("{} is out of range; expected 1ms to {}", d.0, c.max_rto));
            }
            c.min_rto = d.0;
        }
        if let Some(v) = p.send_buffer {
            if v == 0 || v > 1_000_000 {
                return bad("send_buffer", format!("{v} is out of range; expected 1 to 1000000 messages"));
            }
            c.send_buffer_pkts = v;
        }
        if let Some(v) = p.buffer_policy {
            c.buffer_policy = v;
        }
        if let Some(h) = p.data_header {
            if h.0 .0 > 1000 {
                return bad("data_header", format!("{} bytes is out of range; expected 0B to 1000B", h.0 .0));
            }
            c.data_header = h.0;
        }
        if let Some(h) = p.ack_header {
            if h.0 .0 == 0 || h.0 .0 > 1000 {
                return bad("ack_header", format!("{} bytes is out of range; expected 1B to 1000B", h.0 .0));
            }
            c.ack_header = h.0;
        }
        if let Some(v) = p.ecn {
            c.ecn = v;
        }
        if let Some(t) = &p.tfrc {
            if c.ccid != 3 {
                return bad("tfrc", "applies only to CCID-3; set ccid = 3 or remove the tfrc table".to_string());
            }
            t.check().map_err(|e| e.at(&format!("{path}.tfrc")))?;
            c.tfrc = t.clone();
        }
        Ok(c)
    }
}
