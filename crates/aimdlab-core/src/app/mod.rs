//! Applications: what a flow offers its transport. Bulk (always has data until the flow's
//! `stop`) and finite (a transfer of a fixed size) are read by the TCP sender through its
//! segment sizes; the ON/OFF source offers messages on its own timer (the flow's
//! `AppTimer` event). CBR and VBR video sources come next, as files here.

pub mod onoff;

use onoff::OnOffSource;

/// A flow's application.
pub enum Application {
    /// Always has data until the flow stops.
    Bulk,
    /// A transfer of this many payload bytes.
    Finite(u64),
    /// Messages at a constant rate during Pareto ON periods.
    OnOff(OnOffSource),
}
