//! Hostile inputs a demanding new user tried (odd paths, FIFOs, huge numbers, tiny
//! timeouts, garbage answers), each pinned here after its fix.

use crate::common::{polycover, stderr, stdout};

/// Twelve dominoes in a 4x6 box: loads and counts in milliseconds.
const DOMINOES_4X6: &str = "tests/fixtures/dominoes-4x6.toml";

/// `count` and `solve` answer on an `s` line even when `--timeout` passes before the
/// search starts (while the pieces are placed): `s UNKNOWN` and exit 1, as a search the
/// timeout stops, not an error without any `s` line.
#[test]
fn a_timeout_before_the_search_still_ends_on_s_unknown() {
    for command in ["count", "solve"] {
        let o = polycover(&[command, DOMINOES_4X6, "--timeout", "1e-9"]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{command}: {out}{}", stderr(&o));
        assert_eq!(
            out.lines().last(),
            Some("s UNKNOWN"),
            "{command}: {out}{}",
            stderr(&o)
        );
        assert!(out.contains("c stopped by the timeout"), "{command}: {out}");
        assert!(!out.contains("s mc"), "{command}: {out}");
    }
}
