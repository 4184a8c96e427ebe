//! Applications: what a flow offers its transport — bulk (always has data), finite (a
//! transfer of a fixed size, read by the TCP sender), and sources on their own timer (the
//! flow's `AppTimer` event): ON/OFF, CBR, VBR video (synthetic H.263-like), a frame-size
//! trace, and VoIP — carried by UDP, DCCP or, application-limited, TCP. Each is one
//! file with its parameter struct, made selectable by `kind` through the list below.
//!
//! Adding an application: one new file plus one line in the
//! `app_registry!` list.

pub mod params;
pub mod registry;
pub mod source;
pub mod spec;

pub use onoff::{OnOffParams, OnOffSource};
pub use source::{AppStep, Source, Write};

// The applications, `module::Variant(ParamsStruct)`: one line each; the first is the default.
registry::app_registry! {
    bulk::Bulk(BulkSpec),
    finite::Finite(FiniteSpec),
    onoff::OnOff(OnOffSpec),
    cbr::Cbr(CbrSpec),
    vbr::Vbr(VbrSpec),
    trace::Trace(TraceSpec),
    voip::Voip(VoipSpec),
}
