//! Typed indices into the simulator's arenas (`Vec<Link>`, `Vec<Flow>`, ...).

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            /// The arena index.
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

typed_id!(
    /// A node (host or router) of the topology.
    NodeId
);
typed_id!(
    /// A unidirectional link (egress queue + serializer + propagation delay).
    LinkId
);
typed_id!(
    /// A transport flow (one sender, one receiver).
    FlowId
);
