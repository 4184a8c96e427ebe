//! What one data arrival meant for a flow's receiver, whatever its transport.

/// What one data arrival meant for the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataArrival {
    /// The segment had not been received before (not a duplicate).
    pub first_arrival: bool,
    /// Segments that became deliverable in order to the application.
    pub in_order_advance: u64,
}
