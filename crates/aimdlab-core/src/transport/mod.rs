//! Transports: a flow's two endpoints (`endpoint`), TCP's reliable sender and receiver with
//! their scoreboard, RTT estimator and configuration, UDP, and DCCP (`dccp`). Controllers are separate
//! (`crate::cc`) and shared by all transports; applications are in `crate::app`.

pub mod config;
pub mod dccp;
pub mod endpoint;
pub mod lazy_timer;
pub mod outbox;
pub mod profile;
pub mod prr;
pub mod rack;
pub mod receiver;
pub mod rtt;
pub mod scoreboard;
pub mod segments;
pub mod sender;
pub mod timer;
pub mod udp;
