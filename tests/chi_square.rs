//! Pearson's chi-square test of uniformity, for the sampler's tests: the integration
//! tests of `polycover sample`, and (included by `src/lib.rs` in its test build) the unit
//! tests of `src/engine/sample.rs` and of the memo's unranking.

/// Pearson's statistic for `counts` (one per outcome, zeros included) against equal
/// expectations.
pub fn statistic(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    let expected = n as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// The upper 0.001 quantile of the chi-square distribution with `df` degrees of freedom,
/// by Wilson and Hilferty's cube-root normal approximation (1931): within 0.5% of the
/// exact quantile from 30 degrees of freedom up (359.0 exact at 280, 358.9 here).
pub fn critical_0001(df: usize) -> f64 {
    // The standard normal's upper 0.001 quantile.
    const Z: f64 = 3.090_232;
    let k = df as f64;
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + Z * a.sqrt()).powi(3)
}

/// Whether a chi-square test rejects "uniform" at p = 0.001; prints what it saw.
pub fn rejects_uniform(counts: &[u64]) -> bool {
    assert!(
        counts.len() > 30,
        "the approximation wants 30 outcomes or more"
    );
    let chi2 = statistic(counts);
    let critical = critical_0001(counts.len() - 1);
    eprintln!(
        "chi-square {chi2:.1} on {} degrees of freedom, critical value {critical:.1} at p = 0.001",
        counts.len() - 1
    );
    chi2 > critical
}
