//! The rules for the numbers a run takes (threads, timeout, samples, seed), in one
//! place: the command line's value parsers and the Python module both call these, so the
//! same value is taken or refused alike, with the same message.
//!
//! Each rule reads the value as written (the command line's text; a Python number's
//! `str`/`repr`), so that any integer, negative or past 64 bits, is refused with the
//! rule's message rather than an overflow of its own. A refusal is an [`Error::Usage`]:
//! the command line's exit 2, the Python module's `PuzzleError`.
//!
//! The rules:
//! - threads: a whole number from 0 to [`MAX_THREADS`]; 0 is the number of cores this
//!   process may use.
//! - timeout: a positive number of seconds. A timeout longer than a [`Duration`] holds
//!   (2^64 s, about 585 billion years), `inf` included, is no timeout: it comes back as
//!   [`NO_TIMEOUT`], which [`crate::stop::Stop::after`] turns into no deadline.
//! - samples (how many solutions to draw): a whole number from 1 to 2^64 - 1.
//! - seed: a whole number from 0 to 2^64 - 1.
//!
//! A program on the library reads them as [`RunOptions`]'s associated functions
//! ([`RunOptions::parse_threads`], ...), next to the options they fill.

use std::time::Duration;

use crate::engine::{RunOptions, MAX_THREADS};
use crate::error::{Error, Result};

/// The timeout that never comes: what [`timeout`] gives for `inf` and for a number of
/// seconds past what a [`Duration`] holds. No clock reaches it, so a deadline of now plus
/// it is none.
pub(crate) const NO_TIMEOUT: Duration = Duration::MAX;

/// The number of cores this process may use (its affinity and cgroup quota): the
/// default thread count, and what a thread count of 0 means.
pub(crate) fn default_threads() -> usize {
    crate::schedule::cores()
}

/// A thread count from 1 to [`MAX_THREADS`], or 0 for the number of cores this process
/// may use.
pub(crate) fn threads(text: &str) -> Result<usize> {
    match text.trim().parse::<usize>() {
        Ok(0) => Ok(default_threads()),
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(Error::Usage(format!(
            "`{text}`: the thread count must be a whole number from 0 (the number of \
             cores) to {MAX_THREADS}"
        ))),
    }
}

/// A timeout: a positive number of seconds; past what a [`Duration`] holds (`inf`
/// included), [`NO_TIMEOUT`].
pub(crate) fn timeout(text: &str) -> Result<Duration> {
    let x: f64 = text
        .trim()
        .parse()
        .map_err(|_| Error::Usage(format!("`{text}` is not a number of seconds")))?;
    // `x > 0.0` is false for NaN too, which must be refused as well.
    if x.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return Err(Error::Usage(format!("`{text}`: the time must be positive")));
    }
    Ok(Duration::try_from_secs_f64(x).unwrap_or(NO_TIMEOUT))
}

/// How many solutions to draw: a whole number from 1 to 2^64 - 1.
pub(crate) fn samples(text: &str) -> Result<u64> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(Error::Usage(format!(
            "`{text}`: the number of solutions to draw must be a whole number from 1 to {}",
            u64::MAX
        ))),
    }
}

/// A seed of random draws: a whole number from 0 to 2^64 - 1.
pub(crate) fn seed(text: &str) -> Result<u64> {
    text.trim().parse::<u64>().map_err(|_| {
        Error::Usage(format!(
            "`{text}`: the seed must be a whole number from 0 to {}",
            u64::MAX
        ))
    })
}

/// The rules, where a program on the library finds them: next to the options they fill.
impl RunOptions<'_> {
    /// The number of cores this process may use (its affinity and cgroup quota): the
    /// default thread count of a program on the library, and what a thread count of 0
    /// means.
    pub fn default_threads() -> usize {
        default_threads()
    }

    /// A thread count as written: a whole number from 1 to the most threads (1024), or
    /// 0 for [`RunOptions::default_threads`]; anything else is an [`Error::Usage`] that
    /// says so.
    ///
    /// ```
    /// use polycover::RunOptions;
    /// assert_eq!(RunOptions::parse_threads("4").unwrap(), 4);
    /// assert!(RunOptions::parse_threads("-1").is_err());
    /// ```
    pub fn parse_threads(text: &str) -> Result<usize> {
        threads(text)
    }

    /// A timeout as written: a positive number of seconds. Past what a [`Duration`]
    /// holds (`inf` included) it is [`Duration::MAX`], which [`crate::stop::Stop::after`]
    /// turns into no deadline.
    pub fn parse_timeout(text: &str) -> Result<Duration> {
        timeout(text)
    }

    /// How many solutions to draw, as written: a whole number from 1 to 2^64 - 1.
    pub fn parse_samples(text: &str) -> Result<u64> {
        samples(text)
    }

    /// A seed of random draws, as written: a whole number from 0 to 2^64 - 1.
    pub fn parse_seed(text: &str) -> Result<u64> {
        seed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_take_0_to_the_most_and_0_is_every_core() {
        assert_eq!(threads("0").unwrap(), default_threads());
        assert_eq!(threads("1").unwrap(), 1);
        assert_eq!(threads(&MAX_THREADS.to_string()).unwrap(), MAX_THREADS);
        for bad in ["-1", "1025", "1180591620717411303424", "1.5", "x", ""] {
            let e = threads(bad).unwrap_err();
            assert!(matches!(e, Error::Usage(_)), "{bad}");
            assert!(e.to_string().contains("the thread count must be"), "{e}");
        }
    }

    #[test]
    fn a_timeout_is_positive_and_past_the_clock_is_none() {
        assert_eq!(timeout("1.5").unwrap(), Duration::from_millis(1500));
        for never in ["inf", "1e300", "18446744073709551616"] {
            assert_eq!(timeout(never).unwrap(), NO_TIMEOUT, "{never}");
        }
        assert!(crate::stop::Stop::after(NO_TIMEOUT).deadline().is_none());
        for bad in ["0", "-1", "-inf", "nan", "-0"] {
            let e = timeout(bad).unwrap_err().to_string();
            assert!(e.ends_with("the time must be positive"), "{e}");
        }
        assert!(timeout("x")
            .unwrap_err()
            .to_string()
            .contains("not a number"));
    }

    #[test]
    fn samples_and_seeds_are_64_bit_whole_numbers() {
        assert_eq!(samples("1").unwrap(), 1);
        assert_eq!(samples(&u64::MAX.to_string()).unwrap(), u64::MAX);
        assert_eq!(seed("0").unwrap(), 0);
        assert_eq!(seed(&u64::MAX.to_string()).unwrap(), u64::MAX);
        for bad in ["0", "-1", "18446744073709551616", "x"] {
            assert!(samples(bad).is_err(), "{bad}");
        }
        for bad in ["-1", "18446744073709551616", "1.0", "x"] {
            assert!(seed(bad).is_err(), "{bad}");
        }
    }
}
