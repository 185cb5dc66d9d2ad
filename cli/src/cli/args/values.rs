//! The values of the command line's options: mirrors of the core enums, and the parsers
//! of threads and seconds (CaDiCaL's options are the SAT engine's to parse).
//!
//! Invariants: each mirror has the core enum's variants and doc comments (they are the
//! help texts, so `--help`, the completions and the man page read the same), converted
//! both ways by exhaustive matches: a variant added to a core type fails to compile here
//! until the command line offers it.

use std::time::Duration;

use clap::ValueEnum;
use polycover::RunOptions;

use crate::export::Format as ExportFormat;
use crate::sat::Amo;
use crate::sat::Projection;
use crate::suite::Status as SuiteStatus;
use polycover::SymmetryMode;

/// A mirror of a core enum for clap: the same variants, with their help texts, and
/// exhaustive conversions both ways.
macro_rules! value_enum {
    ($(#[$meta:meta])* $name:ident => $core:ident { $($(#[$vmeta:meta])* $variant:ident,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
        pub(in crate::cli) enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl From<$name> for $core {
            fn from(v: $name) -> $core {
                match v {
                    $($name::$variant => $core::$variant,)*
                }
            }
        }

        impl From<$core> for $name {
            fn from(v: $core) -> $name {
                match v {
                    $($core::$variant => $name::$variant,)*
                }
            }
        }
    };
}

value_enum! {
    /// `--amo`.
    AmoArg => Amo {
        /// One binary clause per pair: no auxiliary variables, quadratic size.
        Pairwise,
        /// A ladder (order encoding) of n-1 auxiliary variables.
        Ladder,
        /// Binary (log) encoding of the chosen index.
        Bitwise,
        /// Groups of 4 with a commander variable each, recursively.
        Commander,
        /// Groups of 4 with bitwise-encoded commanders.
        Bimander,
        /// Chen's 2-product: a grid of row and column variables.
        Product,
        /// Only at-least-one clauses for cells and pieces; CaDiCaL's propagator enforces
        /// at-most-one as it searches (--backend cadical; no CNF file).
        Lazy,
    }
}

value_enum! {
    /// `suite --status`.
    SuiteStatusArg => SuiteStatus {
        /// Every instance a planted cut: satisfiable.
        Sat,
        /// Every instance the `--unsat` derivation: unsatisfiable.
        Unsat,
        /// Odd seeds planted cuts, even seeds `--unsat`.
        Mixed,
    }
}

value_enum! {
    /// `--projection`.
    ProjectionArg => Projection {
        /// `c t pmc` and `c p show 1 .. N 0` (model-counting competition format; d4, ganak).
        Show,
        /// `c ind 1 .. N 0` (CryptoMiniSat, ApproxMC).
        Ind,
        /// No projection line.
        None,
    }
}

value_enum! {
    /// `export --format`.
    ExportFormatArg => ExportFormat {
        /// Knuth's exact-cover input (dlx1, dlx2; dlx3 for pieces with copies).
        Dlx,
        /// A BurrTools `.xmpuzzle` (gzipped XML) that BurrTools opens.
        Burrtools,
        /// A MiniZinc model: one 0/1 variable per placement, one sum per item.
        Mzn,
        /// The same model in OPB, the pseudo-Boolean competition format.
        Opb,
        /// The pieces for 3-D printing as binary STL: one file per piece copy in a
        /// directory, or all in one `.stl` file.
        Stl,
        /// The pieces for 3-D printing as one 3MF file, each piece copy its own object.
        #[value(name = "3mf")]
        ThreeMf,
    }
}

value_enum! {
    /// `--symmetry`.
    SymmetryArg => SymmetryMode {
        /// Every solution counts.
        None,
        /// Solutions that differ by a rotation of the target are the same (the default).
        Rotations,
        /// Rotations and mirror images of the target are the same; the piece set must be its
        /// own mirror image.
        Reflections,
        /// Coloured cubes: columns that differ by a turn of the whole stack (about the
        /// vertical axis, or upside down) are the same (their default).
        Stack,
    }
}

/// The values of a SAT option (`--backend`, `--decide`, `--strategy`), each with its
/// help: what the SAT engine declares for the setting, so the command line offers
/// exactly what the engine takes (a build without CaDiCaL refuses `--backend cadical`
/// as the arguments are parsed, before any work or output).
pub(crate) fn declared_values(setting: polycover::Setting) -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        crate::cli::engines::declared_with_help(setting)
            .into_iter()
            .map(|(name, help)| clap::builder::PossibleValue::new(name).help(help)),
    )
}

/// `--threads`: the library's rule ([`RunOptions::parse_threads`]): 0 (every core) to
/// [`RunOptions::MAX_THREADS`].
pub(super) fn parse_threads(s: &str) -> polycover::Result<usize> {
    polycover::RunOptions::parse_threads(s)
}

/// `--seed`: the library's rule ([`RunOptions::parse_seed`]).
pub(super) fn parse_seed(s: &str) -> polycover::Result<u64> {
    polycover::RunOptions::parse_seed(s)
}

/// `enumerate --limit`: at least 1.
pub(super) fn parse_limit(s: &str) -> polycover::Result<u64> {
    whole(s, "the number of solutions", 1, u64::MAX)
}

/// `bench --repeat`: at least 1.
pub(super) fn parse_repeat(s: &str) -> polycover::Result<u32> {
    whole(s, "the number of runs", 1, u32::MAX.into()).map(|n| n as u32)
}

/// `generate --draws`: 0 designs at once.
pub(super) fn parse_draws(s: &str) -> polycover::Result<u64> {
    whole(s, "the number of draws", 0, u64::MAX)
}

/// `sample -n`: the library's rule ([`RunOptions::parse_samples`]).
pub(super) fn parse_samples(s: &str) -> polycover::Result<u64> {
    polycover::RunOptions::parse_samples(s)
}

/// `bench --threads`: one thread count or a comma-separated list of them, each from 0 to
/// [`RunOptions::MAX_THREADS`], where 0 is the available parallelism (`RunOptions::default_threads`).
/// The list comes back sorted, its smallest first (the speed-ups' reference); a count
/// given twice is refused, while a 0 that resolves to a listed count merges with it.
pub(super) fn parse_thread_list(s: &str) -> std::result::Result<ThreadList, String> {
    let mut given = Vec::new();
    for part in s.split(',') {
        let n = match part.trim().parse::<usize>() {
            Ok(n) if n <= RunOptions::MAX_THREADS => n,
            _ => {
                return Err(format!(
                    "`{}`: each thread count must be a whole number from 0 (every core) to \
                     {}",
                    part.trim(),
                    RunOptions::MAX_THREADS
                ))
            }
        };
        if given.contains(&n) {
            return Err(format!("`{s}`: the thread count {n} is given twice"));
        }
        given.push(n);
    }
    let mut counts: Vec<usize> = given
        .into_iter()
        .map(|n| {
            if n == 0 {
                polycover::RunOptions::default_threads()
            } else {
                n
            }
        })
        .collect();
    counts.sort_unstable();
    counts.dedup();
    Ok(ThreadList(counts))
}

/// The thread counts of `bench --threads`, sorted and distinct, never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::cli) struct ThreadList(pub(in crate::cli) Vec<usize>);

/// A memory size: bytes, or a number with K, M, G or T (powers of 1024; `4G`, `512M`,
/// `1.5G`), at least 1 MiB and at most 2^60 bytes.
pub(super) fn parse_memory(s: &str) -> std::result::Result<usize, String> {
    let t = s.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((at, _)) => (&t[..at], t[at..].to_ascii_uppercase()),
        None => (t, String::new()),
    };
    let shift = match unit.trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "`{s}`: a memory size is a number with K, M, G or T, like 4G"
            ))
        }
    };
    let x: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: a memory size is a number with K, M, G or T, like 4G"))?;
    if x.is_nan() {
        return Err(format!(
            "`{s}`: a memory size is a number with K, M, G or T, like 4G"
        ));
    }
    let bytes = x * (1u64 << shift) as f64;
    // A budget past 2^60 bytes (1024 P) is past any machine: a typo, or an overflow.
    const MOST: f64 = (1u64 << 60) as f64;
    if bytes > MOST {
        return Err(format!(
            "`{s}`: the memory size is too large: at most 1048576T"
        ));
    }
    // NaN was refused above.
    if bytes < (1 << 20) as f64 {
        return Err(format!("`{s}`: the memory size must be at least 1M"));
    }
    Ok(bytes as usize)
}

/// `--timeout` and other seconds: the library's rule ([`RunOptions::parse_timeout`]), a
/// positive number of seconds, where `inf` (or more than a clock counts) is no timeout.
pub(super) fn parse_seconds(s: &str) -> polycover::Result<Duration> {
    polycover::RunOptions::parse_timeout(s)
}

/// The values of `--solver`, with their help, from the engine registry: a new engine
/// registered for `--solver` shows up here and in `--help` by itself.
pub(crate) fn solver_values() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        crate::cli::engines::solvers()
            .into_iter()
            .map(|(name, about)| clap::builder::PossibleValue::new(name).help(about)),
    )
}

/// `--box X,Y,Z`: three positive sides.
pub(super) fn parse_box(s: &str) -> Result<[usize; 3], String> {
    let sides: Vec<usize> = s
        .split(',')
        .map(|v| v.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("`{s}`: expected three whole numbers, like 4,4,4"))?;
    match sides[..] {
        [x, y, z] if x > 0 && y > 0 && z > 0 => Ok([x, y, z]),
        _ => Err(format!(
            "`{s}`: expected three sides of at least 1, like 4,4,4"
        )),
    }
}

/// `--sizes A-B` (or one size, `A`): 1 <= A <= B.
pub(super) fn parse_size_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}`: expected A-B with 1 <= A <= B, like 4-6");
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// `--seeds A-B` (or one seed, `A`): A <= B.
pub(super) fn parse_seed_range(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{s}`: expected A-B with A <= B, like 1-20");
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let a: u64 = a.trim().parse().map_err(|_| bad())?;
    let b: u64 = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// A whole number from `min` to `max`, `what` naming it in the message (`the cap`): the
/// command line's counts that have no rule of the library's.
fn whole(text: &str, what: &str, min: u64, max: u64) -> polycover::Result<u64> {
    match text.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(polycover::Error::Usage(format!(
            "`{text}`: {what} must be a whole number from {min} to {max}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(v: impl ValueEnum) -> String {
        v.to_possible_value()
            .expect("no variant is skipped")
            .get_name()
            .to_string()
    }

    /// Each mirror offers the core variants under the names the core gives them (in
    /// `c` lines, bench rows and checkpoints).
    #[test]
    fn mirrors_name_their_core_variants_alike() {
        for amo in Amo::EVERY {
            assert_eq!(name(AmoArg::from(amo)), amo.name());
            assert_eq!(Amo::from(AmoArg::from(amo)), amo);
        }
        for m in SymmetryArg::value_variants() {
            assert_eq!(name(*m), SymmetryMode::from(*m).as_str());
        }
        for s in SuiteStatusArg::value_variants() {
            assert_eq!(name(*s), SuiteStatus::from(*s).name());
        }
    }

    /// `--amo`'s mirror (typed, as `dimacs` and `bench` take encodings without an
    /// engine) offers exactly the values the SAT engine declares
    /// ([`polycover::Engine::settings`]); the other SAT options take theirs from the
    /// engine ([`declared_values`]).
    #[test]
    fn the_sat_options_offer_what_the_engine_declares() {
        use crate::cli::engines::declared_values;
        use polycover::Setting;
        fn names<T: ValueEnum>() -> Vec<String> {
            T::value_variants()
                .iter()
                .map(|v| name(v.clone()))
                .collect()
        }
        let declared =
            |s| -> Vec<String> { declared_values(s).into_iter().map(String::from).collect() };
        assert_eq!(names::<AmoArg>(), declared(Setting::Amo));
    }
}
