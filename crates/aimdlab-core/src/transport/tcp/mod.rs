//! TCP: the reliable sender (`sender`) with its congestion state (`state`), loss recovery
//! variants (`recovery`) and the stack's window rules (`window_policy`); the receiver, the
//! SACK scoreboard, PRR and RACK, and the settings of both (`config`).

pub mod config;
pub mod controller_rtt;
pub mod cwnd_use;
pub mod delivery_rate;
pub mod pcap;
pub mod profile;
pub mod prr;
pub mod rack;
pub mod receiver;
pub mod recovery;
pub mod scoreboard;
pub mod sender;
pub mod state;
pub mod transport;
pub mod window_policy;
