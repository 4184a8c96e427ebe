//! What a multiplicative decrease multiplies: the congestion window, as Linux and the papers
//! cut it, or the data in flight when the loss is detected, as ns-3's congestion ops do —
//! `GetSsThresh(tcb, bytesInFlight)` returns a fraction of `bytesInFlight` in `TcpNewReno`
//! (RFC 5681 eq. 4), `TcpHighSpeed`, `TcpHtcp`, `TcpIllinois`, `TcpVeno`, `TcpYeah` and
//! `TcpScalable` (ns-3.44 `src/internet/model/tcp-*.cc`), while `TcpCubic`, `TcpBic`,
//! `TcpLinuxReno`, `TcpVegas` and `TcpDctcp` use cwnd. The `ns3` profile presets `flight` for
//! the former (`crate::profile_presets`). The two differ when the window does not limit
//! sending (an application-limited or receive-window-limited flow) or after cwnd grew during
//! the round trip that ended in the loss.

use super::congestion_event::CongestionEvent;
use super::window::Window;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a cut multiplies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CutBase {
    /// The congestion window (Linux, the AIMD papers).
    #[default]
    Cwnd,
    /// The packets in flight when the loss is detected (ns-3's `bytesInFlight`).
    Flight,
}

impl CutBase {
    /// The packets the cut multiplies: cwnd, or the packets in flight at `ev`.
    #[inline]
    pub fn pkts(self, w: &Window, ev: &CongestionEvent) -> f64 {
        match self {
            CutBase::Cwnd => w.cwnd_pkts,
            CutBase::Flight => ev.pkts_in_flight as f64,
        }
    }
}
