//! Validation of a scenario's `cc` entry: the name, and the parameters that belong to it.

use super::gaimd::{tcp_friendly_alpha_td, tcp_friendly_alpha_to};
use super::{CcConfig, MrAimdParams, NewAimdReading};
use crate::scenario::schema::{AlphaSpec, CcSpec, CcTable};
use crate::scenario::ScenarioError;

/// Controller names a scenario may use.
pub const CONTROLLER_NAMES: &[&str] = &["reno", "gaimd", "new_aimd", "mr_aimd", "cubic", "binomial", "iiad", "sqrt", "python"];

type Res<T> = Result<T, ScenarioError>;

fn err<T>(path: String, message: impl Into<String>) -> Res<T> {
    Err(ScenarioError::new(path, message))
}

/// Resolves a scenario's `cc` entry found at `path`.
pub fn resolve(spec: &CcSpec, path: &str) -> Res<CcConfig> {
    let (table, name_path) = match spec {
        CcSpec::Name(n) => (CcTable { name: n.clone(), ..Default::default() }, path.to_string()),
        CcSpec::Table(t) => (t.clone(), format!("{path}.name")),
    };
    let name = table.name.to_ascii_lowercase().replace('-', "_");
    let t = &table;
    let given: [(&str, bool); 11] = [
        ("alpha", t.alpha.is_some()),
        ("beta", t.beta.is_some()),
        ("friendly_curve", t.friendly_curve.is_some()),
        ("reading", t.reading.is_some()),
        ("a", t.a.is_some()),
        ("a_prime", t.a_prime.is_some()),
        ("a_prime_ecn", t.a_prime_ecn.is_some()),
        ("b", t.b.is_some()),
        ("a_prime_reset_rtts", t.a_prime_reset_rtts.is_some()),
        ("k", t.k.is_some()),
        ("l", t.l.is_some()),
    ];
    let allowed: &[&str] = match name.as_str() {
        "reno" | "newreno" | "cubic" | "python" => &[],
        "gaimd" => &["alpha", "beta", "friendly_curve"],
        "new_aimd" => &["alpha", "beta", "reading"],
        "mr_aimd" => &["a", "a_prime", "a_prime_ecn", "b", "a_prime_reset_rtts"],
        "binomial" => &["alpha", "beta", "k", "l"],
        "iiad" | "sqrt" => &["alpha", "beta"],
        _ => {
            return err(name_path, format!("{:?} is not a known controller; expected one of {CONTROLLER_NAMES:?}", table.name));
        }
    };
    for (field, is_given) in given {
        if is_given && !allowed.contains(&field) {
            let accepted = if allowed.is_empty() { "it takes no parameters".to_string() } else { format!("it takes {}", allowed.join(", ")) };
            return err(format!("{path}.{field}"), format!("is not a parameter of {name:?}; {accepted}"));
        }
    }
    let beta = |default: f64| -> Res<f64> {
        let b = t.beta.unwrap_or(default);
        if !(b.is_finite() && b > 0.0 && b < 1.0) {
            return err(format!("{path}.beta"), format!("{b} is outside (0, 1); expected a decrease factor 0 < β < 1"));
        }
        Ok(b)
    };
    let positive = |v: Option<f64>, default: f64, field: &str| -> Res<f64> {
        let x = v.unwrap_or(default);
        if !(x.is_finite() && x > 0.0) {
            return err(format!("{path}.{field}"), format!("{x} is not positive; expected a number > 0"));
        }
        Ok(x)
    };
    let plain_alpha = |default: f64| -> Res<f64> {
        match &t.alpha {
            None => Ok(default),
            Some(AlphaSpec::Value(a)) => positive(Some(*a), default, "alpha"),
            Some(AlphaSpec::Named(s)) => err(format!("{path}.alpha"), format!("{s:?} is not a number; expected α > 0")),
        }
    };
    Ok(match name.as_str() {
        "reno" | "newreno" => CcConfig::Reno,
        "python" => CcConfig::External,
        "cubic" => CcConfig::Cubic,
        "gaimd" => {
            let beta = beta(0.5)?;
            let alpha = match &t.alpha {
                None => 1.0,
                Some(AlphaSpec::Value(a)) => positive(Some(*a), 1.0, "alpha")?,
                Some(AlphaSpec::Named(s)) if s == "tcp-friendly" || s == "tcp_friendly" => match t.friendly_curve.as_deref().unwrap_or("to") {
                    "to" => tcp_friendly_alpha_to(beta),
                    "td" => tcp_friendly_alpha_td(beta),
                    other => return err(format!("{path}.friendly_curve"), format!("{other:?} is not a curve; expected \"to\" (eq. 7) or \"td\" (eq. 6)")),
                },
                Some(AlphaSpec::Named(s)) => return err(format!("{path}.alpha"), format!("{s:?} is not valid; expected a number > 0 or \"tcp-friendly\"")),
            };
            if t.friendly_curve.is_some() && !matches!(t.alpha, Some(AlphaSpec::Named(_))) {
                return err(format!("{path}.friendly_curve"), "applies only with alpha = \"tcp-friendly\"");
            }
            CcConfig::Gaimd { alpha, beta }
        }
        "new_aimd" => {
            let reading = match t.reading.as_deref().unwrap_or("epoch") {
                "epoch" => NewAimdReading::Epoch,
                "literal" => NewAimdReading::Literal,
                other => return err(format!("{path}.reading"), format!("{other:?} is not a reading; expected \"epoch\" or \"literal\"")),
            };
            CcConfig::NewAimd { reading, alpha: plain_alpha(1.0)?, beta: beta(0.5)? }
        }
        "mr_aimd" => {
            let d = MrAimdParams::default();
            let b = t.b.unwrap_or(d.b);
            if !(b.is_finite() && b > 0.0 && b < 1.0) {
                return err(format!("{path}.b"), format!("{b} is outside (0, 1); expected 0 < b < 1"));
            }
            let reset = t.a_prime_reset_rtts.unwrap_or(d.a_prime_reset_rtts);
            if !(reset.is_finite() && reset >= 0.0) {
                return err(format!("{path}.a_prime_reset_rtts"), format!("{reset} is negative; expected a number of RTTs ≥ 0"));
            }
            CcConfig::MrAimd(MrAimdParams {
                a_init: positive(t.a, d.a_init, "a")?,
                a_prime_init: positive(t.a_prime, d.a_prime_init, "a_prime")?,
                a_prime_ecn: positive(t.a_prime_ecn, d.a_prime_ecn, "a_prime_ecn")?,
                b,
                a_prime_reset_rtts: reset,
            })
        }
        "binomial" | "iiad" | "sqrt" => {
            let (label, k0, l0): (&'static str, f64, f64) = match name.as_str() {
                "iiad" => ("iiad", 1.0, 0.0),
                "sqrt" => ("sqrt", 0.5, 0.5),
                _ => ("binomial", 1.0, 0.0),
            };
            let k = t.k.unwrap_or(k0);
            let l = t.l.unwrap_or(l0);
            for (field, v) in [("k", k), ("l", l)] {
                if !(v.is_finite() && (0.0..=2.0).contains(&v)) {
                    return err(format!("{path}.{field}"), format!("{v} is outside [0, 2]; expected an exponent 0 ≤ {field} ≤ 2"));
                }
            }
            CcConfig::Binomial { name: label, k, l, alpha: plain_alpha(1.0)?, beta: beta(0.5)? }
        }
        _ => unreachable!("names were checked above"),
    })
}
