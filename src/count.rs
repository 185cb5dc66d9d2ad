//! Exact solution counts, of any size.
//!
//! A count is what `s mc` prints, what `--part` lines, checkpoints and `merge` carry, and
//! what `bench` writes. Counting engines that never visit their solutions (a memo) reach
//! numbers far past 2^64: the 16x16 box of dominoes has about 1.6 * 10^31 tilings, and
//! 20x20 more than 2^128. So a [`Count`] is an arbitrary-precision integer
//! (`num_bigint::BigUint`), not a `u64` or a `u128`: no size of puzzle makes it wrap or
//! refuse, and the engines that do visit each solution keep their own `u64` counters in
//! the hot loop (2^64 solutions at a billion a second would take 585 years) and convert
//! once, at the end of a subproblem.
//!
//! Invariants: a count is never negative and never rounded; its text form is plain
//! decimal digits (no sign, no separators), which [`Count::from_str`] reads back
//! exactly, so every file that stores a count round-trips it.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul};
use std::str::FromStr;

use num_bigint::BigUint;

/// An exact number of solutions.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Count(BigUint);

impl Count {
    /// No solutions.
    pub fn zero() -> Count {
        Count::default()
    }

    /// The count as a `u64`, when it fits.
    pub fn to_u64(&self) -> Option<u64> {
        u64::try_from(&self.0).ok()
    }

    /// The nearest `f64`, for rates and ratios (never for a count that is printed).
    pub fn to_f64(&self) -> f64 {
        // BigUint's decimal text parses as the correctly rounded f64 (infinity past
        // f64's range).
        self.0.to_string().parse().unwrap_or(f64::INFINITY)
    }

    /// Whether this is no solutions.
    pub fn is_zero(&self) -> bool {
        self.0 == BigUint::ZERO
    }

    /// The arbitrary-precision value.
    pub fn as_biguint(&self) -> &BigUint {
        &self.0
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count(BigUint::from(n))
    }
}

impl From<u128> for Count {
    fn from(n: u128) -> Count {
        Count(BigUint::from(n))
    }
}

impl From<BigUint> for Count {
    fn from(n: BigUint) -> Count {
        Count(n)
    }
}

/// Wording for messages.
impl Count {
    /// `1 solution`, `N solutions`: a count and the noun that agrees with it, for messages.
    pub fn solutions(n: impl fmt::Display) -> String {
        Count::plural(n, "solution", "solutions")
    }

    /// A number and the noun that agrees with it, for messages: `1 entry`, `0 entries`,
    /// `3 entries` (`Count::plural(n, "entry", "entries")`). The noun is singular for 1 alone, as
    /// the number is written (`1`, not `1.0`, `01` or `-1`).
    pub fn plural(n: impl fmt::Display, one: &str, many: &str) -> String {
        let n = n.to_string();
        let noun = if n == "1" { one } else { many };
        format!("{n} {noun}")
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Through `pad`, so that widths and alignment in tables apply.
        f.pad(&self.0.to_string())
    }
}

/// Why a text is not a count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCountError;

impl fmt::Display for ParseCountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a count is decimal digits only")
    }
}

impl std::error::Error for ParseCountError {}

impl FromStr for Count {
    type Err = ParseCountError;

    /// Decimal digits only: no sign, no `_`, no spaces (BigUint alone would take `+` and
    /// `_`).
    fn from_str(s: &str) -> Result<Count, ParseCountError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseCountError);
        }
        s.parse().map(Count).map_err(|_| ParseCountError)
    }
}

impl PartialEq<u64> for Count {
    fn eq(&self, other: &u64) -> bool {
        self.to_u64() == Some(*other)
    }
}

impl PartialOrd<u64> for Count {
    fn partial_cmp(&self, other: &u64) -> Option<std::cmp::Ordering> {
        Some(self.0.cmp(&BigUint::from(*other)))
    }
}

impl Add<&Count> for Count {
    type Output = Count;
    fn add(self, other: &Count) -> Count {
        Count(self.0 + &other.0)
    }
}

impl Add<u64> for Count {
    type Output = Count;
    fn add(self, other: u64) -> Count {
        Count(self.0 + other)
    }
}

impl Mul<u64> for &Count {
    type Output = Count;
    fn mul(self, other: u64) -> Count {
        Count(&self.0 * other)
    }
}

impl AddAssign<&Count> for Count {
    fn add_assign(&mut self, other: &Count) {
        self.0 += &other.0;
    }
}

impl AddAssign<u64> for Count {
    fn add_assign(&mut self, other: u64) {
        self.0 += other;
    }
}

impl<'a> Sum<&'a Count> for Count {
    fn sum<I: Iterator<Item = &'a Count>>(iter: I) -> Count {
        iter.fold(Count::zero(), |a, b| a + b)
    }
}

impl Sum<Count> for Count {
    fn sum<I: Iterator<Item = Count>>(iter: I) -> Count {
        iter.fold(Count::zero(), |a, b| a + &b)
    }
}

/// A count in JSON is a string of decimal digits: JSON readers commonly hold numbers as
/// doubles, which are exact only up to 2^53.
impl serde::Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// A published count in a puzzle file's `[expect]`: a TOML integer, or, past what TOML
/// integers hold (2^63 - 1), a string of decimal digits.
impl<'de> serde::Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a count: a non-negative integer, or a string of decimal digits")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Count, E> {
                Ok(Count::from(n))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Count, E> {
                u64::try_from(n)
                    .map(Count::from)
                    .map_err(|_| E::custom(format!("a count cannot be negative: {n}")))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Count, E> {
                s.parse()
                    .map_err(|_| E::custom(format!("a count is decimal digits only: {s:?}")))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nouns_agree_with_their_numbers() {
        assert_eq!(Count::plural(1, "entry", "entries"), "1 entry");
        assert_eq!(Count::plural(0, "entry", "entries"), "0 entries");
        assert_eq!(Count::plural(2u64, "part", "parts"), "2 parts");
        assert_eq!(
            Count::plural(Count::from(1u64), "option", "options"),
            "1 option"
        );
        assert_eq!(Count::plural(11, "option", "options"), "11 options");
        assert_eq!(Count::solutions(1), "1 solution");
        assert_eq!(Count::solutions(Count::from(21u64)), "21 solutions");
    }

    #[test]
    fn counts_past_u128_add_and_print_exactly() {
        let big: Count = "340282366920938463463374607431768211455".parse().unwrap();
        assert_eq!(big, Count::from(u128::MAX));
        let sum = big.clone() + 1;
        assert_eq!(sum.to_string(), "340282366920938463463374607431768211456");
        assert_eq!(sum.to_u64(), None);
        assert_eq!(format!("{:>5}", Count::from(42u64)), "   42");
        assert_eq!(
            [Count::from(2u64), Count::from(3u64)].iter().sum::<Count>(),
            5
        );
    }

    #[test]
    fn only_digits_are_a_count() {
        for bad in ["", "+1", "-1", "1_000", " 1", "1.0", "0x10"] {
            assert_eq!(bad.parse::<Count>(), Err(ParseCountError), "{bad:?}");
        }
        assert_eq!("007".parse::<Count>().unwrap(), 7);
    }
}
