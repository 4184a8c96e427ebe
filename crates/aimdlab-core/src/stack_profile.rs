//! Stack profiles (`tcp.profile`): run a flow as the RFCs, Linux, ns-3 or ns-2 would. This
//! file is the choice itself and what it means below the transports (link framing, queue
//! presets, device queues); what it means for TCP is `transport::tcp::profile`, and for a
//! controller `crate::profile_presets`. The table of every behaviour with the source it
//! mimics is `docs/explanation/profiles.md`.

use crate::units::Bytes;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Whose TCP a flow runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StackProfile {
    /// The RFCs (aimdlab's own defaults: RFC 5681, 6675, 6298, 6928).
    #[default]
    Rfc,
    /// Linux (kernel 6.x defaults).
    Linux,
    /// Linux 2.6.31, the kernel NCTUns 6.0 runs its simulated hosts on (New-AIMD's papers).
    Linux26,
    /// ns-3 3.44's native TCP.
    Ns3,
    /// ns-2.35's one-way agents (Agent/TCP/Reno and its TCPSink).
    Ns2,
}

impl StackProfile {
    /// Link-layer framing bytes per packet the stack's links count when a link does not say:
    /// Ethernet on the wire for Linux (14 header + 4 FCS + 8 preamble + 12 inter-frame gap,
    /// as NCTUns counts it), ns-3's 2-byte PPP header of a point-to-point device, none for
    /// the RFC profile and ns-2 (whose links carry IP sizes).
    pub fn link_framing(self) -> Bytes {
        match self {
            StackProfile::Rfc | StackProfile::Ns2 => Bytes(0),
            StackProfile::Linux | StackProfile::Linux26 => Bytes(38),
            StackProfile::Ns3 => Bytes(2),
        }
    }

    /// Fields a link's queue of discipline `kind` takes from the profile when its table does
    /// not set them: Linux's RED is `sch_red` (`variant = "linux"`).
    pub fn queue_presets(self, kind: &str) -> serde_json::Map<String, serde_json::Value> {
        let mut presets = serde_json::Map::new();
        if matches!(self, StackProfile::Linux | StackProfile::Linux26) && kind == "red" {
            presets.insert("variant".into(), "linux".into());
        }
        presets
    }

    /// Packets the device queue under the queue discipline holds when a link does not say:
    /// one for ns-3 (the ns-3 peer's `PointToPointNetDevice` `TxQueue` of `"1p"`, with
    /// traffic control waking the discipline as it empties), none otherwise (the Linux
    /// profile leaves the driver ring out: with BQL it holds about what the wire does).
    pub fn device_queue_pkts(self) -> u64 {
        match self {
            StackProfile::Ns3 => 1,
            StackProfile::Rfc | StackProfile::Ns2 | StackProfile::Linux | StackProfile::Linux26 => 0,
        }
    }
}
