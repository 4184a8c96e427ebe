//! Monitors observe and never steer: what reads a run into its results — the declarations of
//! every result column (`columns.rs`) with their units and ranges (`unit.rs`), the sampled time
//! series (`sampling.rs`, `timeseries.rs`), the congestion-window traces as a table
//! (`cwnd_trace_table.rs`), each flow's max-min fair share (`fair_share.rs`). The counters the
//! parts keep live with them: a flow's (`flow/stats.rs`), a link's (`net/link_stats.rs`), a
//! sender's (`transport/sender_stats.rs`, `transport/cwnd_trace.rs`), delay histograms
//! (`delay_histogram.rs`), libpcap capture (`net/pcap.rs`); none of them reads this folder.

pub mod columns;
pub mod cwnd_trace_table;
pub mod fair_share;
pub mod sampling;
pub mod table;
pub mod timeseries;
pub mod unit;
