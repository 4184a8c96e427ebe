//! The registry of applications: one line per application in the `app_registry!` list of
//! `app/mod.rs` (its module, its variant name and its parameter struct, see
//! [`AppParams`](super::params::AppParams)). From that list the macro makes the resolved
//! [`AppConfig`](super::AppConfig), the per-flow [`Application`](super::Application)
//! (dispatched statically), lookup by `kind`, and the JSON Schema of every `app` table.
//!
//! Adding an application (a source): a new file with it, its parameter struct and their
//! trait impls, and one line in that list (the line also declares the file's module).

/// Declares the applications' modules and makes, from the list, `AppConfig`, `Application`,
/// `app_kinds`, `table_schemas`, `kinds_accepting` and `resolve_kind` in the invoking
/// module. The first line is the default application.
macro_rules! app_registry {
    ($($module:ident :: $variant:ident ( $spec:ident )),* $(,)?) => {
        $( #[allow(missing_docs)] pub mod $module; )*
        $( pub use $module::$spec; )*

        /// An application resolved for one flow.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AppConfig {
            $(
                #[allow(missing_docs)]
                $variant(<$spec as $crate::app::params::AppParams>::Config),
            )*
        }

        /// A flow's running application.
        pub enum Application {
            $(
                #[allow(missing_docs)]
                $variant(<$spec as $crate::app::params::AppParams>::App),
            )*
        }

        impl AppConfig {
            /// Whether the application offers messages on its own timer.
            pub fn self_paced(&self) -> bool {
                match self { $( AppConfig::$variant(_) => <$spec as $crate::app::params::AppParams>::SELF_PACED, )* }
            }
            /// The payload bytes of a finite transfer.
            pub fn transfer_bytes(&self) -> Option<u64> {
                match self { $( AppConfig::$variant(c) => <$spec as $crate::app::params::AppParams>::transfer_bytes(c), )* }
            }
            /// The largest message it writes at one instant, bytes, with the field that sets it.
            pub fn largest_message(&self) -> Option<(&'static str, u64)> {
                match self { $( AppConfig::$variant(c) => <$spec as $crate::app::params::AppParams>::largest_message(c), )* }
            }
            /// Bytes its configuration holds beyond its struct, shared by the flows of its group
            /// (a trace's frames).
            pub fn held_bytes(&self) -> u64 {
                match self { $( AppConfig::$variant(c) => <$spec as $crate::app::params::AppParams>::held_bytes(c), )* }
            }
            /// The highest rate at which it offers payload, bits/s (self-paced sources only).
            pub fn peak_bps(&self) -> Option<f64> {
                match self { $( AppConfig::$variant(c) => <$spec as $crate::app::params::AppParams>::peak_bps(c), )* }
            }
            /// The `kind` it was chosen as.
            pub fn kind(&self) -> &'static str {
                match self { $( AppConfig::$variant(_) => <$spec as $crate::app::params::AppParams>::KIND, )* }
            }
        }

        impl Application {
            /// The application of one flow whose data packets are `packet` bytes on the wire.
            pub fn new(cfg: &AppConfig, packet: $crate::units::Bytes) -> Self {
                match cfg { $( AppConfig::$variant(c) => Application::$variant(<$spec as $crate::app::params::AppParams>::build(c, packet)), )* }
            }
        }

        impl $crate::app::source::Source for Application {
            fn start(&mut self, now: $crate::units::SimTime, rng: &mut $crate::rng::RngStream) -> Option<$crate::units::SimTime> {
                match self { $( Application::$variant(a) => $crate::app::source::Source::start(a, now, rng), )* }
            }
            fn on_timer(&mut self, now: $crate::units::SimTime, rng: &mut $crate::rng::RngStream) -> $crate::app::source::AppStep {
                match self { $( Application::$variant(a) => $crate::app::source::Source::on_timer(a, now, rng), )* }
            }
            fn stop(&mut self) {
                match self { $( Application::$variant(a) => $crate::app::source::Source::stop(a), )* }
            }
        }

        /// Every `kind` a scenario may give, the default first.
        pub fn app_kinds() -> Vec<&'static str> {
            vec![$( <$spec as $crate::app::params::AppParams>::KIND, )*]
        }

        /// The JSON Schema of each application's `app` table, in registry order.
        pub fn table_schemas(gen: &mut schemars::gen::SchemaGenerator) -> Vec<schemars::schema::Schema> {
            let default = app_kinds()[0];
            vec![$(
                $crate::kind_table::kind_schema::<$spec>(gen, <$spec as $crate::app::params::AppParams>::KIND, <$spec as $crate::app::params::AppParams>::KIND == default),
            )*]
        }

        /// The kinds whose parameters include `field` (for error messages).
        pub fn kinds_accepting(field: &str) -> Vec<&'static str> {
            let mut kinds = Vec::new();
            $(
                if $crate::kind_table::accepts::<$spec>(field) {
                    kinds.push(<$spec as $crate::app::params::AppParams>::KIND);
                }
            )*
            kinds
        }

        /// Resolves application `kind` with the fields `given` (without `kind`) at `path`
        /// for a flow whose data packets are `packet` bytes; `None` if no application has
        /// that kind.
        pub fn resolve_kind(kind: &str, given: &serde_json::Map<String, serde_json::Value>, packet: $crate::units::Bytes, path: &str) -> Result<Option<AppConfig>, $crate::error::ScenarioError> {
            $(
                if kind == <$spec as $crate::app::params::AppParams>::KIND {
                    let spec: $spec = $crate::kind_table::read_fields(given, kind, path)?;
                    let config = <$spec as $crate::app::params::AppParams>::resolve(&spec, packet).map_err(|e| e.at(path))?;
                    return Ok(Some(AppConfig::$variant(config)));
                }
            )*
            Ok(None)
        }
    };
}
pub(crate) use app_registry;
