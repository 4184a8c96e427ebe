//! Monitors observe and never steer: the flow monitor (receiver-side counters, one-way delay),
//! the link monitor (transmissions, queue, queuing delay), delay histograms, the sampled time
//! series, congestion-window traces of chosen flows, libpcap traces of chosen links, each
//! flow's max-min fair share (`fair_share.rs`), and the declarations of every result column
//! (`columns.rs`) with their units and ranges (`unit.rs`).

pub mod columns;
pub mod cwnd_trace;
pub mod fair_share;
pub mod flow_stats;
pub mod histogram;
pub mod link_stats;
pub mod pcap;
pub mod sampling;
pub mod sender_stats;
pub mod table;
pub mod timeseries;
pub mod unit;
