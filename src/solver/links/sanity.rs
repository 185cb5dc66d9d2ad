//! The checks of [`Links`]: every list walked, in debug builds where a search starts and
//! ends, and by the tests.

use super::{Hook, Links};

impl<H: Hook> Links<H> {
    /// Checks every link. Returns the first inconsistency found.
    pub(crate) fn sanity(&self) -> Result<(), String> {
        let n_items = self.left.len() - 1;
        let mut p = self.right[0];
        let mut steps = 0;
        while p != 0 {
            if self.left[self.right[p as usize] as usize] != p {
                return Err(format!("header list broken at {p}"));
            }
            if !self.unit[p as usize] {
                return Err(format!("non-unit item {p} on the header list"));
            }
            p = self.right[p as usize];
            steps += 1;
            if steps > n_items {
                return Err("header list does not return to the root".into());
            }
        }
        for h in 1..=n_items as u32 {
            let mut count = 0;
            let mut q = self.down(h);
            while q != h {
                if self.up(self.down(q)) != q {
                    return Err(format!("column {h} broken at node {q}"));
                }
                if self.top(q) != h {
                    return Err(format!("node {q} in column {h} has top {}", self.top(q)));
                }
                count += 1;
                q = self.down(q);
                if count > self.nodes.len() {
                    return Err(format!("column {h} does not return to its header"));
                }
            }
            if count != self.len(h) as usize {
                return Err(format!(
                    "column {h} has {count} nodes but len {}",
                    self.len(h)
                ));
            }
        }
        // The spacers round each option lead back to its ends (see the module docs).
        for (o, &(start, end)) in self.span.iter().enumerate() {
            let (before, after) = (self.node(start - 1), self.node(end));
            if before.top != 0 || before.down != end - 1 || after.top != 0 || after.up != start {
                return Err(format!("the spacers of option {o} are broken"));
            }
        }
        Ok(())
    }

    /// Whether unit item `h` is on the header list (not yet covered).
    pub(crate) fn listed(&self, h: u32) -> bool {
        let mut p = self.right[0];
        while p != 0 {
            if p == h {
                return true;
            }
            p = self.right[p as usize];
        }
        false
    }
}
