//! Engine settings as data: each engine declares the settings it takes ([`Declared`]:
//! which [`Setting`], the values it takes, its default, a line of help), and takes
//! (setting, value) pairs as text ([`Engine::configure`]). The command line, the Python
//! module and `bench` all go through these two doors, so a value is offered, taken and
//! refused alike everywhere, and `bench --amo all` measures what the engine declares.
//!
//! Invariants:
//! - [`Engine::configure`] takes a setting only when the engine declares it, and a value
//!   only when it is one of the declared values (or any text for a setting that declares
//!   none: CaDiCaL's `NAME=VALUE` options); a setting once (CaDiCaL's options as often as
//!   there are options); and it checks the combination once, after every pair, as the
//!   SAT engine's builder does, so the order of the pairs never matters. A configured
//!   engine configured again is checked against what it already holds.
//! - [`Engine::setting`] reads back the value that `configure` took, in the declared
//!   spelling: `configure([(s, v)])` then `setting(s)` gives `v` again (a test walks every
//!   declared value of every engine).

use super::handle::Engine;
use super::Declared;
use crate::error::{Error, Result};
use crate::setting::Setting;

impl Engine {
    /// The settings the engine takes, in the order a help text lists them (its
    /// [`Algorithm::settings`](super::Algorithm::settings)).
    pub fn settings(&self) -> Vec<Declared> {
        self.algorithm().settings()
    }

    /// Whether the engine takes `setting` (an engine that runs on the CNF declares
    /// `amo`, for example).
    pub fn declares(&self, setting: Setting) -> bool {
        self.settings().iter().any(|d| d.setting == setting)
    }

    /// The engine with `pairs` of (setting, value) applied, as text: the door through
    /// which the command line, the Python module and `bench` set an engine.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a setting the engine does not declare, a value that is not
    /// one of the declared ones, and settings that do not go together (a CaDiCaL-only
    /// setting with another backend; the lazy at-most-one without CaDiCaL). The message
    /// names the settings as marks ([`Error::render`]).
    pub fn configure<'v>(
        &self,
        pairs: impl IntoIterator<Item = (Setting, &'v str)>,
    ) -> Result<Engine> {
        let declared = self.settings();
        let mut taken = Vec::new();
        for (setting, value) in pairs {
            let Some(d) = declared.iter().find(|d| d.setting == setting) else {
                let engines = with_it(setting);
                return Err(Error::Usage(if engines.is_empty() {
                    format!("{} is a setting of no engine", setting.mark())
                } else {
                    format!(
                        "{} applies to {engines} only, not {}",
                        setting.mark(),
                        Setting::Solver.is(self.name())
                    )
                }));
            };
            if !d.takes(value) {
                return Err(Error::Usage(format!(
                    "{}: the {} engine takes {}",
                    setting.is(value),
                    self.name(),
                    d.names().join(", ")
                )));
            }
            if setting != Setting::SatOption && taken.iter().any(|&(s, _)| s == setting) {
                return Err(Error::Usage(format!(
                    "{} is given twice: give it once",
                    setting.mark()
                )));
            }
            taken.push((setting, value));
        }
        if taken.is_empty() {
            return Ok(self.clone());
        }
        self.algorithm().configure(&taken)
    }

    /// The value of `setting`, as [`Engine::configure`] takes it; `None` for a setting
    /// the engine does not declare, or one left to the run (the strategy) or empty (no
    /// CaDiCaL option given).
    pub fn setting(&self, setting: Setting) -> Option<String> {
        self.algorithm().setting(setting)
    }
}

/// Where a setting applies, for the refusal of an engine without it: the engines of
/// `--solver`'s registry that declare it (`solver sat`).
fn with_it(setting: Setting) -> String {
    Engine::solvers_declaring(setting)
        .into_iter()
        .map(|name| Setting::Solver.is(name))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every engine of the registry: each declared value is taken and read back as
    /// given, and a value or a setting not declared is refused.
    #[test]
    fn every_declared_value_is_taken_and_read_back() {
        let mut seen = 0;
        for name in Engine::bench_names() {
            let engine = Engine::from_name(name).unwrap();
            if engine.available().is_err() {
                // A backend this build lacks is no value of `backend`.
                continue;
            }
            for d in engine.settings() {
                assert!(!d.help.is_empty(), "{name} {}", d.setting.name());
                if let Some(default) = d.default {
                    assert!(d.takes(default));
                    assert_eq!(engine.setting(d.setting).as_deref(), Some(default));
                }
                for value in d.names() {
                    // Taken and read back, but for the combinations only CaDiCaL runs:
                    // the lazy encoding and its own decisions with another backend. (The
                    // lazy encoding as CaDiCaL's default follows a change of backend.)
                    let get = |s: Setting| engine.setting(s).unwrap_or_default();
                    let cadical_only = get(Setting::Decide) == "solver";
                    let refused = match d.setting {
                        Setting::Amo => value == "lazy" && get(Setting::Backend) != "cadical",
                        Setting::Decide => value == "solver" && get(Setting::Backend) != "cadical",
                        Setting::Backend => value != "cadical" && cadical_only,
                        _ => false,
                    };
                    match engine.configure([(d.setting, value)]) {
                        Ok(e) => {
                            assert!(!refused, "{name} {} {value}", d.setting.name());
                            assert_eq!(e.setting(d.setting).as_deref(), Some(value));
                            seen += 1;
                        }
                        Err(e) => {
                            assert!(refused, "{name} {} {value}: {e}", d.setting.name());
                            assert!(e.to_string().contains("cadical"), "{e}");
                        }
                    }
                }
                if !d.values.is_empty() {
                    let wrong = engine.configure([(d.setting, "no-such-value")]);
                    let why = wrong.unwrap_err().to_string();
                    assert!(why.contains(&d.names().join(", ")), "{why}");
                }
            }
        }
        assert!(seen >= 10, "{seen}");
        let cadical = Engine::from_name("sat-cadical").unwrap();
        if cadical.available().is_ok() {
            let e = cadical
                .configure([
                    (Setting::SatOption, "phase=0"),
                    (Setting::SatOption, " seed = 7"),
                ])
                .unwrap();
            assert_eq!(
                e.setting(Setting::SatOption).as_deref(),
                Some("phase=0 seed=7")
            );
            for bad in ["phase", "phase=x", "phase=99999999999"] {
                let why = cadical.configure([(Setting::SatOption, bad)]).unwrap_err();
                assert!(why.to_string().starts_with("sat-option: `"), "{why}");
            }
        }
        let dlx = Engine::dlx();
        assert!(dlx.settings().is_empty());
        let refused = dlx.configure([(Setting::Amo, "product")]).unwrap_err();
        assert!(
            refused.to_string() == "amo applies to solver sat only, not solver dlx",
            "{refused}"
        );
    }

    /// A setting given twice is refused (which one would win is the order's), and a
    /// configured engine configured again keeps its CaDiCaL-only settings' rule.
    #[test]
    fn twice_is_refused_and_a_second_configure_is_checked_as_one() {
        let sat = Engine::from_name("sat").unwrap();
        let twice = sat.configure([(Setting::Force, "true"), (Setting::Force, "false")]);
        assert_eq!(
            twice.unwrap_err().to_string(),
            "force is given twice: give it once"
        );
        let solver = Engine::from_name("sat-cadical-solver").unwrap();
        if solver.available().is_ok() {
            let varisat = solver.configure([(Setting::Backend, "varisat")]);
            assert!(varisat
                .unwrap_err()
                .to_string()
                .contains("cadical backend only"));
        }
        let mrv = Engine::from_name("sat-varisat").unwrap();
        assert!(mrv.configure([(Setting::Decide, "mrv")]).is_ok());
        // The at-most-one encoding follows the backend unless it was chosen.
        let cadical = Engine::from_name("sat-cadical").unwrap();
        if cadical.available().is_ok() {
            assert_eq!(cadical.setting(Setting::Amo).as_deref(), Some("lazy"));
            let varisat = cadical.configure([(Setting::Backend, "varisat")]).unwrap();
            assert_eq!(varisat.setting(Setting::Amo).as_deref(), Some("product"));
            let back = varisat.configure([(Setting::Backend, "cadical")]).unwrap();
            assert_eq!(back.setting(Setting::Amo).as_deref(), Some("lazy"));
            let chosen = cadical.configure([(Setting::Amo, "bimander")]).unwrap();
            let kept = chosen.configure([(Setting::Backend, "varisat")]).unwrap();
            assert_eq!(kept.setting(Setting::Amo).as_deref(), Some("bimander"));
            assert!(cadical
                .configure([(Setting::Amo, "lazy"), (Setting::Backend, "varisat")])
                .is_err());
        }
        assert_eq!(
            Engine::dlx()
                .configure([(Setting::Seed, "1")])
                .unwrap_err()
                .to_string(),
            "seed is a setting of no engine"
        );
    }

    /// Every registered engine, the toy engines included: configured with the values
    /// it reads back for each setting it declares, it is the same engine; and one value
    /// changed makes another engine (equality is by name and settings).
    #[test]
    fn every_engine_round_trips_its_own_settings() {
        let mut changed = 0;
        for name in Engine::bench_names() {
            let engine = Engine::from_name(name).unwrap();
            if engine.available().is_err() {
                continue;
            }
            let values: Vec<(Setting, String)> = engine
                .settings()
                .iter()
                .filter_map(|d| Some((d.setting, engine.setting(d.setting)?)))
                .filter(|(s, _)| *s != Setting::SatOption)
                .collect();
            let again = engine
                .configure(values.iter().map(|(s, v)| (*s, v.as_str())))
                .unwrap();
            assert_eq!(again, engine, "{name}");
            for d in engine.settings() {
                let current = engine.setting(d.setting);
                let other = d
                    .names()
                    .into_iter()
                    .find(|v| Some(*v) != current.as_deref());
                if let Some(other) = other {
                    if let Ok(e) = engine.configure([(d.setting, other)]) {
                        assert_ne!(e, engine, "{name} {} {other}", d.setting.name());
                        changed += 1;
                    }
                }
            }
        }
        assert!(changed >= 5, "{changed}");
        let frontier = Engine::from_name("frontier").unwrap();
        assert_eq!(
            frontier.setting(Setting::Sweep).as_deref(),
            Some("narrowest")
        );
    }

    #[test]
    fn the_order_of_the_pairs_does_not_matter() {
        let sat = Engine::from_name("sat").unwrap();
        let a = sat.configure([(Setting::Amo, "ladder"), (Setting::Backend, "varisat")]);
        let b = sat.configure([(Setting::Backend, "varisat"), (Setting::Amo, "ladder")]);
        assert_eq!(a.unwrap(), b.unwrap());
        let lazy_first = sat.configure([(Setting::Amo, "lazy"), (Setting::Backend, "varisat")]);
        let lazy_last = sat.configure([(Setting::Backend, "varisat"), (Setting::Amo, "lazy")]);
        assert!(lazy_first.is_err() && lazy_last.is_err());
    }
}
