//! A DCCP flow's settings, `DccpConfig`: the `dccp` table of a flow group, each field declared
//! once with its default and checked together. Header sizes follow RFC 4340 §5 with 48-bit sequence numbers
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

/// The `dccp` table of a flow group (`transport = "dccp"`): a DCCP flow's settings. A table
/// gives the fields it changes; the others keep their defaults. Payload size per packet is the
/// group's `tcp.mss`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DccpConfig {
    /// Congestion Control ID: 2 (TCP-like, RFC 4341; the window is run by the group's `cc`,
    /// default Reno) or 3 (TFRC, RFC 4342).
    pub ccid: u8,
    /// CCID-2: the receiver acknowledges every `ack_ratio` data packets (RFC 4341 §6.1; 2 is
    /// the RFC's default).
    pub ack_ratio: u32,
    /// CCID-2: adapt the Ack Ratio to congestion on the ACK path (RFC 4341 §6.1.2): double it
    /// when ACKs are lost in a window, lower it by one after cwnd/(R² − R) windows without
    /// ACK loss, never below `ack_ratio` nor above ⌈cwnd/2⌉.
    pub ack_ratio_adapt: bool,
    /// CCID-2: a packet is lost once this many packets sent after it are acknowledged
    /// (RFC 4341 §5, NUMDUPACK).
    pub numdupack: u32,
    /// CCID-2: initial congestion window, packets. Unset: RFC 3390's
    /// min(4, max(2, ⌊4380 B / mss⌋)), as RFC 4341 §5 says (3 for a 1460-byte payload).
    pub initial_cwnd: Option<u32>,
    /// CCID-2: initial slow-start threshold, packets (at least 2). Unset: unbounded.
    pub initial_ssthresh: Option<u32>,
    /// CCID-2: longest the receiver waits before acknowledging fewer than `ack_ratio`
    /// packets (our choice: TCP's delayed-ACK timeout here; RFC 4341 leaves it open).
    pub ack_delay: Duration,
    /// Lower bound of the retransmission (CCID-2) timeout: RFC 4341 §5 lifts TCP's 1 s
    /// minimum since DCCP does not retransmit; 200 ms is Linux's.
    pub min_rto: Duration,
    /// The timeout before the first RTT sample (RFC 6298's 1 s, which RFC 4341 §5 follows).
    pub initial_rto: Duration,
    /// Upper bound of the backed-off timeout (RFC 6298 §2.5 allows one of at least 60 s).
    pub max_rto: Duration,
    /// Messages the send buffer holds while the CCID does not let them leave (our choice).
    pub send_buffer: u32,
    /// `"drop_oldest"`, `"drop_newest"` or `"block"`: what a full send buffer does with one
    /// more message.
    pub buffer_policy: BufferPolicy,
    /// Header bytes of a data packet: IPv4 (20) + DCCP generic header with 48-bit sequence
    /// numbers (16), RFC 4340 §5.1.
    pub data_header: Size,
    /// Header bytes of an acknowledgement before its options: IPv4 (20) + generic header
    /// (16) + acknowledgement number subheader (8), RFC 4340 §5.3. A CCID-2 ACK adds its Ack
    /// Vector option (2 bytes + one per run of up to 64 packets, RFC 4340 §11.4, padded to 4
    /// bytes); a CCID-3 feedback packet its options (RFC 4342 §8).
    pub ack_header: Size,
    /// ECN (RFC 4340 §12): data packets are sent ECN-capable and a CE mark counts as a
    /// congestion signal.
    pub ecn: bool,
    /// CCID-3: the TFRC controller's settings (CCID-3 only).
    pub tfrc: Option<crate::cc::tfrc::TfrcParams>,
}

impl Default for DccpConfig {
    fn default() -> Self {
        DccpConfig {
            ccid: 2,
            ack_ratio: 2,
            ack_ratio_adapt: true,
            numdupack: 3,
            initial_cwnd: None,
            initial_ssthresh: None,
            ack_delay: Duration(SimDuration::from_millis(40)),
            min_rto: Duration(SimDuration::from_millis(200)),
            initial_rto: Duration(SimDuration::from_secs(1)),
            max_rto: Duration(SimDuration::from_secs(60)),
            send_buffer: 64,
            buffer_policy: BufferPolicy::DropOldest,
            data_header: Size(Bytes(36)),
            ack_header: Size(Bytes(44)),
            ecn: false,
            tfrc: None,
        }
    }
}

impl DccpConfig {
    /// The `dccp` table `table` (None: every default) read and checked; errors name
    /// `path.field`.
    pub fn resolve(table: Option<&serde_json::Value>, path: &str) -> Result<Self, ScenarioError> {
        let given = match table {
            Some(serde_json::Value::Object(m)) => m.clone(),
            Some(other) => return Err(ScenarioError::new(path, format!("{other} is not a table"))),
            None => serde_json::Map::new(),
        };
        let c: DccpConfig = crate::overlay::read_table(crate::overlay::fields_of(&DccpConfig::default()), &given, "the dccp table", &[], path)?;
        c.check().map_err(|(field, message)| ScenarioError::new(format!("{path}.{field}"), message))?;
        if let Some(t) = &c.tfrc {
            t.check().map_err(|e| e.at(&format!("{path}.tfrc")))?;
        }
        Ok(c)
    }

    /// The initial congestion window for a payload of `mss`, packets (`initial_cwnd`, else
    /// RFC 3390's).
    pub fn initial_cwnd_pkts(&self, mss: Bytes) -> u32 {
        self.initial_cwnd.unwrap_or((4380 / mss.0.max(1)).clamp(2, 4) as u32)
    }

    /// The initial slow-start threshold, packets (∞ when unset).
    pub fn initial_ssthresh_pkts(&self) -> f64 {
        self.initial_ssthresh.map_or(f64::INFINITY, f64::from)
    }

    /// TFRC's settings (its defaults when the table gives none).
    pub fn tfrc(&self) -> crate::cc::tfrc::TfrcParams {
        self.tfrc.clone().unwrap_or_default()
    }

    /// Checks the values: `(field, what is wrong)`.
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
        if let Some(n) = self.initial_cwnd.filter(|&n| n == 0 || n > 1_000_000) {
            return Err(("initial_cwnd", format!("{n} is out of range; expected 1 to 1000000 packets")));
        }
        if let Some(n) = self.initial_ssthresh.filter(|&n| n < 2) {
            return Err(("initial_ssthresh", format!("{n} is too small; expected at least 2 packets")));
        }
        let (ack_delay, min_rto, initial_rto, max_rto) = (self.ack_delay.0, self.min_rto.0, self.initial_rto.0, self.max_rto.0);
        if ack_delay == SimDuration::ZERO || ack_delay > SimDuration::from_secs(10) {
            return Err(("ack_delay", format!("{ack_delay} is out of range; expected more than 0s and at most 10s")));
        }
        if max_rto < SimDuration::from_millis(1) || max_rto > SimDuration::from_secs(3600) {
            return Err(("max_rto", format!("{max_rto} is out of range; expected 1ms to 3600s")));
        }
        if min_rto < SimDuration::from_millis(1) || min_rto > max_rto {
            return Err(("min_rto", format!("{min_rto} is out of range; expected 1ms to {max_rto} (max_rto)")));
        }
        if initial_rto < min_rto || initial_rto > max_rto {
            return Err(("initial_rto", format!("{initial_rto} is out of range; expected {min_rto} (min_rto) to {max_rto} (max_rto)")));
        }
        if self.send_buffer == 0 || self.send_buffer > 1_000_000 {
            return Err(("send_buffer", format!("{} is out of range; expected 1 to 1000000 messages", self.send_buffer)));
        }
        if self.data_header.0 .0 > 1000 {
            return Err(("data_header", format!("{} bytes is out of range; expected 0B to 1000B", self.data_header.0 .0)));
        }
        if self.ack_header.0 .0 == 0 || self.ack_header.0 .0 > 1000 {
            return Err(("ack_header", format!("{} bytes is out of range; expected 1B to 1000B", self.ack_header.0 .0)));
        }
        if self.tfrc.is_some() && self.ccid != 3 {
            return Err(("tfrc", "applies only to CCID-3; set ccid = 3 or remove the tfrc table".into()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_the_dccp_table_reaches_the_settings() {
        let table = serde_json::json!({
            "ccid": 3, "ack_ratio": 4, "ack_ratio_adapt": false, "numdupack": 5, "initial_cwnd": 7, "initial_ssthresh": 30,
            "ack_delay": "10ms", "min_rto": "1s", "initial_rto": "2s", "max_rto": "30s", "send_buffer": 8, "buffer_policy": "block",
            "data_header": "40B", "ack_header": "48B", "ecn": true, "tfrc": { "oscillation_damping": true },
        });
        let base = DccpConfig::default();
        let c = DccpConfig::resolve(Some(&table), "flows[0].dccp").unwrap();
        let (before, after) = (serde_json::to_value(&base).unwrap(), serde_json::to_value(&c).unwrap());
        for key in table.as_object().unwrap().keys() {
            assert_ne!(before[key], after[key], "dccp.{key} did not reach the settings");
        }
        for key in before.as_object().unwrap().keys() {
            assert!(table.get(key).is_some(), "dccp.{key} is not in this test");
        }
        assert_eq!(DccpConfig::resolve(None, "d").unwrap(), base);
        assert_eq!(base.initial_cwnd_pkts(Bytes(1460)), 3);
        assert_eq!(base.initial_ssthresh_pkts(), f64::INFINITY);
    }

    #[test]
    fn a_value_out_of_range_is_named_with_its_table() {
        let table = serde_json::json!({ "ack_ratio": 0 });
        let e = DccpConfig::resolve(Some(&table), "flows[2].dccp").unwrap_err();
        assert_eq!(e.to_string(), "flows[2].dccp.ack_ratio: 0 is out of range; expected 1 to 65535 data packets per ACK");
        let e = DccpConfig::resolve(Some(&serde_json::json!({ "tfrc": {} })), "flows[2].dccp").unwrap_err();
        assert_eq!(e.to_string(), "flows[2].dccp.tfrc: applies only to CCID-3; set ccid = 3 or remove the tfrc table");
        let e = DccpConfig::resolve(Some(&serde_json::json!({ "initial_rto": "100ms" })), "d").unwrap_err();
        assert_eq!(e.to_string(), "d.initial_rto: 100ms is out of range; expected 200ms (min_rto) to 60s (max_rto)");
    }
}
