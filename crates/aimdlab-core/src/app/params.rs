//! What an application's parameter struct provides to the registry: its `kind` name, its
//! defaults (in `Default`), its checks and resolution for a flow whose packets are a given
//! size on the wire, and how it offers data: on its own timer (it paces itself: UDP may carry
//! it, TCP sends only what it offered) or as a transfer the TCP sender reads from.

use super::source::Source;
use crate::error::ParamError;
use crate::units::limits::{fmt_rate, MIN_SOURCE_GAP};
use crate::units::{Bytes, Rate, PS_PER_SEC};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// An application's parameters as a scenario gives them (`app = { kind = "onoff", ... }`).
pub trait AppParams: Clone + Debug + Default + DeserializeOwned + serde::Serialize + JsonSchema {
    /// The `kind` a scenario gives, e.g. `"onoff"`.
    const KIND: &'static str;
    /// Whether it offers messages on its own timer (else it is read by a TCP sender).
    const SELF_PACED: bool;
    /// The parameters resolved for one flow.
    type Config: Clone + Debug + PartialEq;
    /// The running application.
    type App: Source;
    /// Checks the values for a flow whose data packets are `packet` bytes on the wire.
    fn resolve(&self, packet: Bytes) -> Result<Self::Config, ParamError>;
    /// The application of one flow.
    fn build(config: &Self::Config, packet: Bytes) -> Self::App;
    /// The payload bytes of a finite transfer (`None`: unlimited, or self-paced).
    fn transfer_bytes(_config: &Self::Config) -> Option<u64> {
        None
    }
    /// The largest message it writes at one instant (a video frame), bytes, with the field
    /// that sets it; `None` for one packet at a time.
    fn largest_message(_config: &Self::Config) -> Option<(&'static str, u64)> {
        None
    }
    /// Bytes the configuration holds beyond its struct, shared by the flows of a group (a
    /// trace's frames), for the memory estimate.
    fn held_bytes(_config: &Self::Config) -> u64 {
        0
    }
    /// The highest rate at which a self-paced source offers payload, bits/s (`None`: it is
    /// read by its sender as the window allows), for the memory estimate of the packets
    /// `tcp.send_jitter` holds back.
    fn peak_bps(_config: &Self::Config) -> Option<f64> {
        None
    }
}

/// A self-paced source's `rate` must leave at least `MIN_SOURCE_GAP` between its `packet`-byte
/// packets, else its timer would fire again at (almost) the same instant forever.
pub fn check_source_rate(rate: Rate, packet: Bytes) -> Result<Rate, ParamError> {
    if rate.serialization_time(packet) >= MIN_SOURCE_GAP {
        return Ok(rate);
    }
    let bits_ps = packet.0 as f64 * 8.0 * PS_PER_SEC as f64;
    let message = format!(
        "{} sends a {}-byte packet every {:.3}ps; expected at least {MIN_SOURCE_GAP} between packets (a rate up to {} for this packet size)",
        fmt_rate(rate.bps as f64),
        packet.0,
        bits_ps / rate.bps as f64,
        fmt_rate(bits_ps / MIN_SOURCE_GAP.0 as f64)
    );
    Err(ParamError { field: "rate", message })
}

/// Most packets one application message (a video frame) may make: 10,000 (a 14.6 MB frame of
/// 1460-byte payloads, far above any real frame). A larger one would put that many packets
/// on the wire at one instant.
pub const MAX_MESSAGE_PKTS: u64 = 10_000;
