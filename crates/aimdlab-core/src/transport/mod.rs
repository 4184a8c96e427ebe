//! Transports: what the simulator asks of one (`interface`) and the list of them
//! (`registry`, which holds a flow's two endpoints); TCP (`tcp`), UDP (`udp`) and DCCP
//! (`dccp`), each in its own folder or file, sharing the RTT estimator and segment sizes. Controllers are separate
//! (`crate::cc`) and shared by all transports; applications are in `crate::app`.

pub mod arrival;
pub mod congestion_window;
pub mod cwnd_trace;
pub mod dccp;
pub mod interface;
pub mod lazy_timer;
pub mod outbox;
pub mod registry;
pub mod rtt;
pub mod segments;
pub mod sender_stats;
pub mod tcp;
pub mod timer;
pub mod udp;
