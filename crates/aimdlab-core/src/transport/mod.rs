//! Transports: the reliable TCP-like sender and receiver, their scoreboard, RTT estimator,
//! and configuration. Controllers are separate (`crate::cc`) and shared by all transports.

pub mod config;
pub mod outbox;
pub mod receiver;
pub mod rtt;
pub mod scoreboard;
pub mod segments;
pub mod sender;
pub mod udp_onoff;
