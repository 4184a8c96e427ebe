//! TCP: the reliable sender (`sender`) with its loss detection and recovery, the receiver,
//! the SACK scoreboard, PRR and RACK, and the settings of both (`config`).

pub mod config;
pub mod prr;
pub mod rack;
pub mod receiver;
pub mod scoreboard;
pub mod sender;
pub mod window_policy;
