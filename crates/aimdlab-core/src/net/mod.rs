//! The network: packets, egress queues and links.

pub mod ack_options;
pub mod link;
pub mod link_layer;
pub mod link_stats;
pub mod loss;
pub mod packet;
pub mod packet_pool;
pub mod pcap;
pub mod queue;
pub mod routing;
