//! The CPOG file as it is written: operations, added clauses and deletions, with the
//! numbers the checker gives them, and what the deletions at the end need of the graph.
//!
//! The format (Bryant, Nawrocki, Avigad, Heule, SAT 2023; the checker's parser is the
//! reference): input clauses are numbered `1..=m` as in the CNF; each later line that adds
//! clauses takes the next numbers. `ID p NODE LIT.. 0` is a product (an AND of children
//! over disjoint variables) and adds `NODE -c1 .. -ck` then `-NODE ci` for each child;
//! `ID s NODE A B HINT.. 0` a sum of two children that cannot both hold (the hints, from
//! defining clauses only, prove it by unit propagation) and adds `-NODE A B`, `NODE -A`,
//! `NODE -B`; `ID a LIT.. 0 HINT.. 0` adds a clause by reverse unit propagation (each
//! hint must turn unit or conflict, in order); `d ID HINT.. 0` deletes a clause, which
//! the hints must prove from what remains; `r NODE` names the root.
//!
//! Invariants: node numbers run from `num_vars + 1` without gaps, children before
//! parents (the checker evaluates the count in that order); clause numbers only grow.

use std::io::{self, Write};

/// One operation of the graph, for the deletions at the end.
pub(crate) struct Node {
    /// Its first defining clause.
    pub cid: u32,
    pub sum: bool,
    /// Its children, in `kids[start..start + len]`.
    pub start: u32,
    pub len: u32,
}

/// The writer and the graph written so far.
pub(crate) struct Out<W: Write> {
    w: W,
    num_vars: u32,
    next_cid: u32,
    pub nodes: Vec<Node>,
    pub kids: Vec<i32>,
    /// Added clauses in order: (clause number, hints in `hints[start..start + len]`).
    pub lemmas: Vec<(u32, u32, u32)>,
    pub hints: Vec<u32>,
    line: Vec<u8>,
    pub bytes: u64,
}

/// Appends `v` in decimal and a space: straight into the line, as this runs for every
/// number of files of gigabytes.
pub(super) fn push_int(line: &mut Vec<u8>, v: i64) {
    let mut digits = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        line.push(b'-');
    }
    line.extend_from_slice(&digits[k..]);
    line.push(b' ');
}

impl<W: Write> Out<W> {
    pub fn new(w: W, num_vars: u32, num_clauses: u32) -> Out<W> {
        Out {
            w,
            num_vars,
            next_cid: num_clauses + 1,
            nodes: Vec::new(),
            kids: Vec::new(),
            lemmas: Vec::new(),
            hints: Vec::new(),
            line: Vec::with_capacity(256),
            bytes: 0,
        }
    }

    fn flush_line(&mut self) -> io::Result<()> {
        if self.line.last() == Some(&b' ') {
            self.line.pop();
        }
        self.line.push(b'\n');
        self.bytes += self.line.len() as u64;
        self.w.write_all(&self.line)?;
        self.line.clear();
        Ok(())
    }

    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        self.line.extend_from_slice(b"c ");
        self.line.extend_from_slice(text.as_bytes());
        self.flush_line()
    }

    /// The next node's number.
    pub fn next_node(&self) -> i32 {
        (self.num_vars as usize + 1 + self.nodes.len()) as i32
    }

    /// A product of `children`; returns its node.
    pub fn product(&mut self, children: &[i32]) -> io::Result<i32> {
        let node = self.next_node();
        let cid = self.next_cid;
        push_int(&mut self.line, cid as i64);
        self.line.extend_from_slice(b"p ");
        push_int(&mut self.line, node as i64);
        for &c in children {
            push_int(&mut self.line, c as i64);
        }
        self.line.push(b'0');
        self.flush_line()?;
        self.nodes.push(Node {
            cid,
            sum: false,
            start: self.kids.len() as u32,
            len: children.len() as u32,
        });
        self.kids.extend_from_slice(children);
        self.next_cid += children.len() as u32 + 1;
        Ok(node)
    }

    /// A sum of `a` and `b`, with the hints that prove them exclusive.
    pub fn sum(&mut self, a: i32, b: i32, hints: &[u32]) -> io::Result<i32> {
        let node = self.next_node();
        let cid = self.next_cid;
        push_int(&mut self.line, cid as i64);
        self.line.extend_from_slice(b"s ");
        for v in [node, a, b] {
            push_int(&mut self.line, v as i64);
        }
        for &h in hints {
            push_int(&mut self.line, h as i64);
        }
        self.line.push(b'0');
        self.flush_line()?;
        self.nodes.push(Node {
            cid,
            sum: true,
            start: self.kids.len() as u32,
            len: 2,
        });
        self.kids.extend_from_slice(&[a, b]);
        self.next_cid += 3;
        Ok(node)
    }

    /// Adds `clause` by reverse unit propagation on `hints`; returns its number.
    pub fn lemma(&mut self, clause: &[i32], hints: &[u32]) -> io::Result<u32> {
        let cid = self.next_cid;
        self.next_cid += 1;
        push_int(&mut self.line, cid as i64);
        self.line.extend_from_slice(b"a ");
        for &l in clause {
            push_int(&mut self.line, l as i64);
        }
        self.line.extend_from_slice(b"0 ");
        for &h in hints {
            push_int(&mut self.line, h as i64);
        }
        self.line.push(b'0');
        self.flush_line()?;
        self.lemmas
            .push((cid, self.hints.len() as u32, hints.len() as u32));
        self.hints.extend_from_slice(hints);
        Ok(cid)
    }

    /// Deletes clause `cid`, proved from what remains by `hints`.
    pub fn delete(&mut self, cid: u32, hints: &[u32]) -> io::Result<()> {
        self.line.extend_from_slice(b"d ");
        push_int(&mut self.line, cid as i64);
        for &h in hints {
            push_int(&mut self.line, h as i64);
        }
        self.line.push(b'0');
        self.flush_line()
    }

    /// Names the root.
    pub fn root(&mut self, node: i32) -> io::Result<()> {
        self.line.extend_from_slice(b"r ");
        push_int(&mut self.line, node as i64);
        self.flush_line()
    }

    /// The node record of `node`.
    pub fn node(&self, node: i32) -> &Node {
        &self.nodes[(node as u32 - self.num_vars - 1) as usize]
    }

    pub fn children(&self, node: i32) -> &[i32] {
        let n = self.node(node);
        &self.kids[n.start as usize..(n.start + n.len) as usize]
    }

    /// The defining clause `-P child` of product `p`.
    pub fn child_clause(&self, p: i32, child: i32) -> u32 {
        let pos = self
            .children(p)
            .iter()
            .position(|&c| c == child)
            .expect("a child of the product");
        self.node(p).cid + 1 + pos as u32
    }

    /// The chain of binary sums over `products`, each with the literal only it holds
    /// true (the others hold it false): innermost first, none for fewer than two. Each
    /// sum's exclusivity is proved from the products' definitions and the sums inside.
    pub fn sum_chain(&mut self, products: &[(i32, i32)]) -> io::Result<Vec<i32>> {
        let mut sums: Vec<i32> = Vec::new();
        let k = products.len();
        if k < 2 {
            return Ok(sums);
        }
        let mut inner = products[k - 1].0;
        for t in (0..k - 1).rev() {
            let mut hints = Vec::new();
            let p_t = products[t].0;
            for &(p_s, x) in &products[t + 1..] {
                hints.push(self.child_clause(p_t, -x));
                hints.push(self.child_clause(p_s, x));
            }
            // The sums inside, innermost first: the last, `inner`, conflicts.
            for &s in &sums {
                hints.push(self.node(s).cid);
            }
            let s = self.sum(p_t, inner, &hints)?;
            sums.push(s);
            inner = s;
        }
        Ok(sums)
    }

    pub fn into_inner(self) -> W {
        self.w
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_are_written_as_decimal() {
        let mut line = Vec::new();
        for v in [-120, 0, 7, i64::MIN] {
            super::push_int(&mut line, v);
        }
        assert_eq!(line, b"-120 0 7 -9223372036854775808 ");
    }
}
