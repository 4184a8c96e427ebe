//! The registry of built-in congestion controllers: one line per controller (its variant
//! name and its parameter struct, see [`ControllerParams`]). From that list the macro below
//! makes the resolved choice [`CcConfig`], the per-flow [`Controller`] (built-ins by value,
//! dispatched statically on the hot path; `Custom` boxes any other implementation, e.g. one
//! written in Python), name lookup, and the JSON Schema of every `cc` table.
//!
//! The list itself is the `registry!` invocation in `cc/mod.rs`. Adding a controller: a new
//! file with the controller and its parameter struct, and one line in that list (the line
//! also declares the file's module).

use super::params::ControllerParams;
use crate::error::ScenarioError;
use crate::stack_profile::StackProfile;
use schemars::gen::SchemaGenerator;
use schemars::schema::{InstanceType, Schema, SchemaObject};
use serde_json::Value;

/// A controller chosen by a scenario: the name it was chosen under and its checked parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen<P> {
    /// The registered name, e.g. `"iiad"` (one of `P::NAMES`).
    pub name: &'static str,
    /// The parameters: the name's defaults overlaid with the scenario's fields.
    pub params: P,
}

/// Reads the parameters `given` at `path` for controller `key` if `P` registers that name:
/// the defaults, overlaid with the stack `profile`'s, then with the fields given,
/// deserialized, then checked.
pub fn choose<P: ControllerParams>(key: &str, given: &[(&String, &Value)], path: &str, profile: StackProfile) -> Result<Option<Chosen<P>>, ScenarioError> {
    let Some(&(name, defaults)) = P::NAMES.iter().find(|(n, _)| *n == key) else {
        return Ok(None);
    };
    let mut fields = crate::overlay::fields_of(&defaults());
    for (field, value) in crate::profile_presets::presets(profile, P::NAMES[0].0, crate::profile_presets::Table::Cc) {
        fields.insert(field.to_string(), value);
    }
    let params: P = crate::overlay::read_table(fields, given.iter().copied(), &format!("{name:?}"), &[], path)?;
    params.check(name).map_err(|e| ScenarioError::new(format!("{path}.{}", e.field), e.message))?;
    Ok(Some(Chosen { name, params }))
}

/// The schema of a `cc` table for `P`: its parameters plus a required `name`.
pub fn table_schema<P: ControllerParams>(gen: &mut SchemaGenerator) -> Schema {
    let mut s = P::json_schema(gen).into_object();
    let names: Vec<Value> = P::NAMES.iter().map(|(n, _)| Value::from(*n)).collect();
    let mut name = SchemaObject { instance_type: Some(InstanceType::String.into()), enum_values: Some(names), ..Default::default() };
    name.metadata().description = Some("The controller.".into());
    let object = s.object();
    object.properties.insert("name".into(), Schema::Object(name));
    object.required.insert("name".into());
    Schema::Object(s)
}

/// The name under which a scenario asks for a controller written in Python (installed
/// through the API; until then the flow runs Reno).
pub const EXTERNAL_NAME: &str = "python";

/// Declares the controllers' modules and makes, from the list, `CcConfig`, `Controller`,
/// `controller_names`, `table_schemas` and `resolve_registered` in the invoking module.
macro_rules! registry {
    ($($module:ident :: $variant:ident ( $params:ident )),* $(,)?) => {
        $( #[allow(missing_docs)] pub mod $module; )*
        $( pub use $module::$params; )*

        /// A resolved controller choice from the scenario.
        #[derive(Clone, Debug, PartialEq)]
        pub enum CcConfig {
            $(
                #[allow(missing_docs)]
                $variant($crate::cc::registry::Chosen<$params>),
            )*
            /// A controller supplied at run time through the API (e.g. written in Python);
            /// until one is installed the flow runs Reno.
            External,
        }

        /// A flow's controller: built-ins by value (static dispatch), others boxed.
        pub enum Controller {
            $(
                #[allow(missing_docs)]
                $variant(<$params as $crate::cc::params::ControllerParams>::Controller),
            )*
            /// Any other implementation of the trait.
            Custom(Box<dyn $crate::cc::congestion_control::CongestionControl>),
        }

        impl CcConfig {
            /// TCP settings the stack `profile`'s implementation of the controller implies
            /// (`crate::profile_presets`).
            pub fn profile_tcp_presets(&self, profile: $crate::stack_profile::StackProfile) -> Vec<(&'static str, serde_json::Value)> {
                match self {
                    $( CcConfig::$variant(_) => $crate::profile_presets::presets(profile, <$params as $crate::cc::params::ControllerParams>::NAMES[0].0, $crate::profile_presets::Table::Tcp), )*
                    CcConfig::External => Vec::new(),
                }
            }

            /// Whether the controller needs ECN and the exact echo (see
            /// `ControllerParams::NEEDS_ACCURATE_ECN`).
            pub fn needs_accurate_ecn(&self) -> bool {
                match self {
                    $( CcConfig::$variant(_) => <$params as $crate::cc::params::ControllerParams>::NEEDS_ACCURATE_ECN, )*
                    CcConfig::External => false,
                }
            }
        }

        impl Controller {
            /// A new controller of the flow for the choice `cfg`.
            pub fn new(cfg: &CcConfig) -> Self {
                match cfg {
                    $( CcConfig::$variant(c) => Controller::$variant(<$params as $crate::cc::params::ControllerParams>::build(&c.params, c.name)), )*
                    CcConfig::External => Controller::Reno(<RenoParams as $crate::cc::params::ControllerParams>::build(&RenoParams::default(), "reno")),
                }
            }
        }

        impl $crate::cc::congestion_control::CongestionControl for Controller {
            fn name(&self) -> &'static str {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.name())
            }
            #[inline]
            fn cong_avoid(&mut self, w: &mut $crate::cc::window::Window, ev: &$crate::cc::congestion_control::AckEvent, acked_pkts: u64) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.cong_avoid(w, ev, acked_pkts))
            }
            fn ssthresh(&mut self, w: &$crate::cc::window::Window, ev: &$crate::cc::congestion_control::CongestionEvent) -> f64 {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.ssthresh(w, ev))
            }
            fn init(&mut self, w: &mut $crate::cc::window::Window) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.init(w))
            }
            fn wants_rate_samples(&self) -> bool {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.wants_rate_samples())
            }
            #[inline]
            fn on_ack(&mut self, w: &mut $crate::cc::window::Window, ev: &$crate::cc::congestion_control::AckEvent) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.on_ack(w, ev))
            }
            fn on_ack_arrival(&mut self, ev: &$crate::cc::congestion_control::AckArrival) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.on_ack_arrival(ev))
            }
            fn on_congestion(&mut self, w: &mut $crate::cc::window::Window, ev: &$crate::cc::congestion_control::CongestionEvent) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.on_congestion(w, ev))
            }
            fn on_state_change(&mut self, w: &mut $crate::cc::window::Window, from: $crate::cc::ca_phase::CaPhase, to: $crate::cc::ca_phase::CaPhase, now: $crate::units::SimTime) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.on_state_change(w, from, to, now))
            }
            fn on_window_set(&mut self, w: &$crate::cc::window::Window) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.on_window_set(w))
            }
            fn pacing_rate(&self) -> Option<$crate::units::Rate> {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.pacing_rate())
            }
            fn pacing_rate_pps(&self) -> Option<f64> {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.pacing_rate_pps())
            }
            fn sets_window_in_recovery(&self) -> bool {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.sets_window_in_recovery())
            }
            fn state_vars(&self, w: &$crate::cc::window::Window, publish: &mut dyn FnMut(&'static str, f64)) {
                $crate::cc::registry::dispatch!(self, [$($variant),*], c => c.state_vars(w, publish))
            }
        }

        /// Every name a scenario may give, in registry order, then `"python"`.
        pub fn controller_names() -> Vec<&'static str> {
            let mut names = Vec::new();
            $( names.extend(<$params as $crate::cc::params::ControllerParams>::NAMES.iter().map(|(n, _)| *n)); )*
            names.push($crate::cc::registry::EXTERNAL_NAME);
            names
        }

        /// The JSON Schema of each controller's `cc` table, in registry order.
        pub fn table_schemas(gen: &mut schemars::gen::SchemaGenerator) -> Vec<schemars::schema::Schema> {
            vec![$( $crate::cc::registry::table_schema::<$params>(gen), )*]
        }

        /// Resolves controller `key` (lower case, `_` between words) with the parameters
        /// `given` at `path` under the stack `profile`; `None` if no controller has that name.
        pub fn resolve_registered(key: &str, given: &[(&String, &serde_json::Value)], path: &str, profile: $crate::stack_profile::StackProfile) -> Result<Option<CcConfig>, $crate::error::ScenarioError> {
            if key == $crate::cc::registry::EXTERNAL_NAME {
                if let Some((field, _)) = given.first() {
                    return Err($crate::error::ScenarioError::new(format!("{path}.{field}"), "is not a parameter of \"python\"; the controller object carries its own"));
                }
                return Ok(Some(CcConfig::External));
            }
            $(
                if let Some(c) = $crate::cc::registry::choose::<$params>(key, given, path, profile)? {
                    return Ok(Some(CcConfig::$variant(c)));
                }
            )*
            Ok(None)
        }
    };
}

/// A `match` over every `Controller` variant applying one expression.
macro_rules! dispatch {
    ($self:expr, [$($variant:ident),*], $c:ident => $e:expr) => {
        match $self {
            $( Controller::$variant($c) => $e, )*
            Controller::Custom($c) => $e,
        }
    };
}
pub(crate) use {dispatch, registry};
