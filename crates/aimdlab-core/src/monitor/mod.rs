//! Monitors observe and never steer: per-flow counters, delay histograms, and the sampled
//! time series.

pub mod columns;
pub mod flow_stats;
pub mod histogram;
pub mod table;
pub mod timeseries;
