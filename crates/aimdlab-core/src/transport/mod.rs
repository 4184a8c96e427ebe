//! Transports: a flow's two endpoints (`endpoint`), TCP's reliable sender and receiver with
//! their scoreboard, RTT estimator and configuration, UDP, and DCCP (`dccp`). Controllers are separate
//! (`crate::cc`) and shared by all transports; applications are in `crate::app`.

pub mod arrival;
pub mod dccp;
pub mod endpoint;
pub mod lazy_timer;
pub mod outbox;
pub mod profile;
pub mod rtt;
pub mod segments;
pub mod tcp;
pub mod timer;
pub mod udp;
