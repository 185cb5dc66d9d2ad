//! The exact covers of a bare matrix, by the DLX with no symmetry reduction: the
//! reference count of a matrix that no puzzle compiled (one read back from another
//! program's format).
//!
//! Invariant: every exact cover is visited once, as its sorted options.

use std::ops::ControlFlow;

use crate::stop::Stop;

impl crate::matrix::Matrix {
    /// Visits every exact cover of this matrix (sorted options), found by the DLX on this
    /// thread with no symmetry reduction, until `f` returns `Break` or `stop` says stop;
    /// returns whether the walk ran to the end. The reference listing of a bare matrix,
    /// one read back from another program's format, say.
    ///
    /// ```
    /// use polycover::{Item, Matrix, Stop};
    /// // Items a and b; options {0}, {1} and {0, 1}: two exact covers.
    /// let mut m = Matrix::new(vec![Item::exact("a", 1), Item::exact("b", 1)]);
    /// for option in [&[0][..], &[1], &[0, 1]] {
    ///     m.push_option(option);
    /// }
    /// let mut covers = Vec::new();
    /// assert!(m.for_each_cover(&Stop::new(), &mut |c| {
    ///     covers.push(c.to_vec());
    ///     std::ops::ControlFlow::Continue(())
    /// }));
    /// covers.sort();
    /// assert_eq!(covers, [vec![0, 1], vec![2]]);
    /// assert_eq!(m.count_covers(), 2);
    /// ```
    pub fn for_each_cover(
        &self,
        stop: &Stop,
        f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> bool {
        let none = crate::symmetry::Reduction::none(self);
        !crate::solver::for_each(&none, &crate::solver::dlx, stop, f).stopped
    }

    /// The number of exact covers of this matrix, counted by the DLX on this thread with
    /// no symmetry reduction ([`Matrix::for_each_cover`]).
    ///
    /// [`Matrix::for_each_cover`]: crate::matrix::Matrix::for_each_cover
    pub fn count_covers(&self) -> u64 {
        let none = crate::symmetry::Reduction::none(self);
        crate::solver::count(
            &none,
            &crate::solver::dlx,
            None,
            1,
            &Stop::new(),
            None,
            None,
        )
        .solutions
    }
}
