//! Random polycube puzzles with a planted solution (`polycover generate polycubes`): a
//! box cut into face-connected pieces, written as a puzzle file.
//!
//! # How the box is cut
//!
//! The piece sizes are drawn first, each within `--sizes`, summing to the box's volume.
//! The pieces are then grown one at a time. Each starts at a free cell with the fewest
//! free neighbours (ties at random), so that corners and pockets are taken before they
//! could be cut off, and grows by random free face-neighbours, never one whose taking
//! would split the free cells in two. The free cells therefore stay face-connected, and
//! the last piece, what is left, is a piece of its drawn size. A piece that cannot grow
//! to its size starts the cut again, with the generator where it is, so a seed always
//! gives the same puzzle.
//!
//! Pieces of the same shape up to rotation become one piece with a `count`.
//!
//! # Unique and unsatisfiable instances
//!
//! `unique` draws cuts until the puzzle has exactly one solution up to rotations: the
//! caller's [`Counter`] (the binary's runs a native engine) stops at a second solution,
//! so a rejected draw costs milliseconds. `unsat` then mirrors one chiral piece of such a
//! puzzle (its mirror image is another shape, of the same volume and bounding box, so the
//! instance is not trivially unsolvable) and keeps the result only when the counter finds
//! no solution; else it tries the next chiral piece, then a new unique puzzle. This
//! module names no engine: puzzle kinds know nothing of engines, so the counting comes in
//! as a callback.
//!
//! Invariants: a request whose box a puzzle file may not hold (a side beyond
//! `MAX_COORDINATE`) is refused before anything is drawn; the text parses as a polycube
//! puzzle of the given box; without `unsat`
//! the cut is one of its solutions; the same arguments give the same text.

use rand_pcg::rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::error::{Error, Result};
use crate::geometry::{Cell, Shape, MAX_COORDINATE};
use crate::puzzle::Puzzle;
use crate::setting::Setting;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Generator {
    /// The box to cut, in cells along x, y and z; each side from 1 to
    /// `MAX_COORDINATE`.
    pub size: [usize; 3],
    /// How many pieces to cut the box into (before equal shapes merge into counts).
    pub pieces: usize,
    /// Each piece's cell count, from `.0` to `.1`.
    pub sizes: (usize, usize),
    /// The generator's seed: the same request gives the same text.
    pub seed: u64,
    /// Keep drawing until the puzzle has exactly one solution up to rotations.
    pub unique: bool,
    /// Make a unique puzzle unsolvable by mirroring one chiral piece (see the module
    /// documentation).
    pub unsat: bool,
}

/// A generated puzzle file, and how it was found: by random draws
/// ([`Generator::generate`]), or by the design search after they failed
/// ([`Generator::unique_or_unsat`]).
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle file's text, TOML that parses as a polycube puzzle.
    pub text: String,
    /// How many puzzles were drawn and counted (1 without `unique` or `unsat`).
    pub tries: u64,
    /// The seed of the design search that gave the puzzle, after the draws failed;
    /// `None` when a random draw gave it.
    pub seed: Option<u64>,
    /// Moves the design search that gave the puzzle tried (0 when a draw gave it).
    pub tried: u64,
    /// Seconds the design searches took, all seeds together.
    pub seconds: f64,
}

impl Generator {
    /// A random coloured-cube puzzle (Instant Insanity) with `h` cubes and `h` colours,
    /// as puzzle-file text; with `solvable`, a solution is planted. The same seed gives
    /// the same text.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] when `h` is not from 1 to 26.
    pub fn colored_cubes(h: usize, seed: u64, solvable: bool) -> Result<String> {
        crate::puzzle::colored::generate(h, seed, solvable)
    }

    /// The piece sizes when none are asked for: one below to one above the mean size
    /// (`volume / pieces`), at least 1.
    pub fn default_sizes(size: [usize; 3], pieces: usize) -> (usize, usize) {
        let volume: usize = size.iter().product();
        let mean = volume as f64 / pieces.max(1) as f64;
        (
            (mean.floor() as usize).saturating_sub(1).max(1),
            mean.ceil() as usize + 1,
        )
    }

    /// Generates the puzzle asked for, `count` deciding `unique` and `unsat`.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a request no box can meet, [`Error::Failed`] when no puzzle
    /// is found in the draws allowed, and what `count` returns.
    pub fn generate(&self, count: &mut Counter<'_>) -> Result<Generated> {
        self.generate_with_progress(&mut |_| {}, count)
    }

    /// [`Generator::generate`], telling `progress` the number of puzzles drawn so far
    /// before each new draw for `unique` or `unsat` (a hard request can draw for a long
    /// time).
    ///
    /// # Errors
    ///
    /// As [`Generator::generate`].
    pub fn generate_with_progress(
        &self,
        progress: &mut dyn FnMut(u64),
        count: &mut Counter<'_>,
    ) -> Result<Generated> {
        let r = self;
        check(r)?;
        let mut rng = Pcg64Mcg::seed_from_u64(r.seed);
        let mut tries = 0u64;
        match draw(r, &mut rng, &mut tries, MAX_PUZZLES, progress, count)? {
            Some(found) => Ok(Generated {
                text: render(r, &found.pieces, found.mirrored, None),
                tries,
                seed: None,
                tried: 0,
                seconds: 0.0,
            }),
            None => Err(Error::Failed(format!(
                "no puzzle found in {tries} draws; try other {}, {} or {}",
                Setting::Sizes.mark(),
                Setting::Pieces.mark(),
                Setting::Seed.mark()
            ))),
        }
    }
}

/// Gives up after this many cuts that cannot be completed (a box and sizes that hardly
/// admit a cut), or this many puzzles drawn for `unique` or `unsat`.
const MAX_CUTS: u64 = 100_000;
const MAX_PUZZLES: u64 = 100_000;

/// Counts the solutions of a drawn puzzle up to rotations, up to the given number (it may
/// stop there); `Ok(None)` when it gave up (a time limit), and the draw is passed over.
/// Called only for `unique` and `unsat`.
pub type Counter<'a> = dyn FnMut(&Puzzle, u64) -> Result<Option<u64>> + 'a;

/// A puzzle the draws found: the cut, and for `unsat` the piece to mirror.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// The pieces, cells in box coordinates.
    pub(crate) pieces: Vec<Vec<Cell>>,
    /// The piece whose mirror image the puzzle has (`unsat`).
    pub(crate) mirrored: Option<usize>,
}

/// Draws for `r` until `tries` (the draws so far, counted on) reaches `limit`: the first
/// draw that meets `unique` or `unsat` (the first draw at all without them), or `None`
/// with `rng` where the draws left it. `progress` hears the draws so far before each
/// draw for `unique` or `unsat`.
pub(crate) fn draw(
    r: &Generator,
    rng: &mut Pcg64Mcg,
    tries: &mut u64,
    limit: u64,
    progress: &mut dyn FnMut(u64),
    count: &mut Counter<'_>,
) -> Result<Option<Found>> {
    while *tries < limit {
        if r.unique || r.unsat {
            progress(*tries);
        }
        *tries += 1;
        let pieces = cut(r, rng)?;
        if !r.unique && !r.unsat {
            return Ok(Some(Found {
                pieces,
                mirrored: None,
            }));
        }
        let drawn = *tries;
        let stopped = |e: Error| match e {
            Error::Interrupted(_) => Error::Interrupted(format!(
                "after {} drawn, none kept",
                crate::count::Count::plural(drawn, "puzzle", "puzzles")
            )),
            e => e,
        };
        let text = render(r, &pieces, None, None);
        if solutions(&text, 2, count).map_err(stopped)? != Some(1) {
            continue;
        }
        if !r.unsat {
            return Ok(Some(Found {
                pieces,
                mirrored: None,
            }));
        }
        if let Some(k) = mirror(r, &pieces, rng, count).map_err(stopped)? {
            return Ok(Some(Found {
                pieces,
                mirrored: Some(k),
            }));
        }
    }
    Ok(None)
}

/// The `unsat` step on a puzzle with exactly one solution (`pieces`): its chiral pieces
/// in random order, the first whose mirror image leaves the puzzle without a solution
/// by `count`; `None` when no mirror does.
pub(crate) fn mirror(
    r: &Generator,
    pieces: &[Vec<Cell>],
    rng: &mut Pcg64Mcg,
    count: &mut Counter<'_>,
) -> Result<Option<usize>> {
    let mut chiral: Vec<usize> = (0..pieces.len())
        .filter(|&k| {
            let s = Shape::new(pieces[k].clone());
            s.canonical() != s.mirrored().canonical()
        })
        .collect();
    shuffle(rng, &mut chiral);
    for k in chiral {
        let text = render(r, pieces, Some(k), None);
        if solutions(&text, 1, count)? == Some(0) {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// Refuses a request no cut can meet: a side, `pieces` or a size bound of 0, bounds out
/// of order, a box a puzzle file may not hold or this generator cut, sizes that cannot
/// fill the box.
pub(crate) fn check(r: &Generator) -> Result<()> {
    let (lo, hi) = r.sizes;
    if r.size.contains(&0) || r.pieces == 0 || lo == 0 || lo > hi {
        return Err(Error::Usage(format!(
            "the box's sides, {} and the {} bounds must be at least 1, \
             and {} needs A <= B",
            Setting::Pieces.mark(),
            Setting::Sizes.mark(),
            Setting::Sizes.is("A-B"),
        )));
    }
    if let Some(side) = r.size.iter().find(|&&n| n > MAX_COORDINATE as usize) {
        // The puzzle file's own limit, checked here so that no file is written that
        // every command then refuses.
        return Err(Error::Usage(format!(
            "{}: a side of {side} cells is beyond the \
             {MAX_COORDINATE} a puzzle file's `box` may have",
            Setting::Box.is(r.size.map(|n| n.to_string()).join(","))
        )));
    }
    // Sides of at most 1024 cells: no overflow.
    let volume: usize = r.size.iter().product();
    if volume > 4096 {
        return Err(Error::Usage(format!(
            "a box of {volume} cells is beyond the 4096 this generator \
             cuts"
        )));
    }
    if volume < r.pieces.saturating_mul(lo) || volume > r.pieces.saturating_mul(hi) {
        return Err(Error::Usage(format!(
            "{} pieces of {lo} to {hi} cells cannot fill a box of \
             {volume} cells",
            r.pieces
        )));
    }
    Ok(())
}

/// The solutions of the puzzle `text`, by `count` (see [`Counter`]).
fn solutions(text: &str, at_most: u64, count: &mut Counter<'_>) -> Result<Option<u64>> {
    // Named as what it is: line N of this text is line N of the file `generate` writes
    // (there is no file of this name to open).
    let puzzle = Puzzle::parse("the generated puzzle", text)?;
    count(&puzzle, at_most)
}

/// A random cut of the box into `r.pieces` face-connected pieces (cells in box
/// coordinates).
pub(crate) fn cut(r: &Generator, rng: &mut Pcg64Mcg) -> Result<Vec<Vec<Cell>>> {
    let [x, y, z] = r.size;
    let volume = x * y * z;
    let cell = |i: usize| [(i % x) as i32, ((i / x) % y) as i32, (i / (x * y)) as i32];
    let index = |c: Cell| c[0] as usize + x * (c[1] as usize + y * c[2] as usize);
    let neighbours = |i: usize| {
        let c = cell(i);
        let mut out = Vec::with_capacity(6);
        for a in 0..3 {
            for d in [-1i32, 1] {
                let mut n = c;
                n[a] += d;
                if n[a] >= 0 && (n[a] as usize) < r.size[a] {
                    out.push(index(n));
                }
            }
        }
        out
    };
    for _ in 0..MAX_CUTS {
        let sizes = draw_sizes(r, volume, rng);
        let mut free = vec![true; volume];
        let mut left = volume;
        let mut pieces: Vec<Vec<usize>> = Vec::with_capacity(r.pieces);
        let mut stuck = false;
        for &size in &sizes[..sizes.len() - 1] {
            // The free cell with the fewest free neighbours, ties at random.
            let degree = |i: usize| neighbours(i).iter().filter(|&&n| free[n]).count();
            let fewest = (0..volume).filter(|&i| free[i]).map(degree).min();
            let Some(fewest) = fewest else {
                stuck = true;
                break;
            };
            let starts: Vec<usize> = (0..volume)
                .filter(|&i| free[i] && degree(i) == fewest)
                .collect();
            let start = starts[below(rng, starts.len())];
            free[start] = false;
            left -= 1;
            let mut piece = vec![start];
            while piece.len() < size {
                let mut frontier: Vec<usize> = piece
                    .iter()
                    .flat_map(|&p| neighbours(p))
                    .filter(|&n| free[n])
                    .collect();
                frontier.sort_unstable();
                frontier.dedup();
                shuffle(rng, &mut frontier);
                let next = frontier.into_iter().find(|&n| {
                    free[n] = false;
                    let ok = connected(&free, left - 1, &neighbours);
                    free[n] = true;
                    ok
                });
                let Some(n) = next else { break };
                free[n] = false;
                left -= 1;
                piece.push(n);
            }
            if piece.len() < size || !connected(&free, left, &neighbours) {
                stuck = true;
                break;
            }
            pieces.push(piece);
        }
        if stuck {
            continue;
        }
        pieces.push((0..volume).filter(|&i| free[i]).collect());
        return Ok(pieces
            .into_iter()
            .map(|p| p.into_iter().map(cell).collect())
            .collect());
    }
    Err(Error::Failed(format!(
        "no cut of the box into {} pieces of {} to {} cells found in \
         {MAX_CUTS} tries",
        r.pieces, r.sizes.0, r.sizes.1
    )))
}

/// Whether the `count` free cells are face-connected (none counts as connected).
fn connected(free: &[bool], count: usize, neighbours: &dyn Fn(usize) -> Vec<usize>) -> bool {
    let Some(first) = free.iter().position(|&f| f) else {
        return true;
    };
    let mut seen = vec![false; free.len()];
    seen[first] = true;
    let mut stack = vec![first];
    let mut reached = 1;
    while let Some(i) = stack.pop() {
        for n in neighbours(i) {
            if free[n] && !seen[n] {
                seen[n] = true;
                reached += 1;
                stack.push(n);
            }
        }
    }
    reached == count
}

/// Piece sizes within the bounds, summing to `volume`, in random order.
fn draw_sizes(r: &Generator, volume: usize, rng: &mut Pcg64Mcg) -> Vec<usize> {
    let (lo, hi) = r.sizes;
    let mut sizes = vec![lo; r.pieces];
    let mut extra = volume - lo * r.pieces;
    while extra > 0 {
        let k = below(rng, r.pieces);
        if sizes[k] < hi {
            sizes[k] += 1;
            extra -= 1;
        }
    }
    sizes
}

/// The puzzle file: the box and the pieces, same shapes merged into counts; `mirrored`
/// replaces that piece by its mirror image; `how`, a comment line after the first two,
/// says how the puzzle was found.
pub(crate) fn render(
    r: &Generator,
    pieces: &[Vec<Cell>],
    mirrored: Option<usize>,
    how: Option<&str>,
) -> String {
    let mut shapes: Vec<(Shape, usize)> = Vec::new();
    for (k, cells) in pieces.iter().enumerate() {
        let mut shape = Shape::new(cells.clone());
        if mirrored == Some(k) {
            shape = shape.mirrored();
        }
        let canonical = shape.canonical();
        match shapes.iter_mut().find(|(s, _)| s.canonical() == canonical) {
            Some((_, n)) => *n += 1,
            None => shapes.push((shape, 1)),
        }
    }
    let [x, y, z] = r.size;
    let (lo, hi) = r.sizes;
    let mut flags = String::new();
    if r.unique {
        flags.push_str(" --unique");
    }
    if r.unsat {
        flags.push_str(" --unsat");
    }
    let mut out = format!(
        "# polycover generate polycubes --box {x},{y},{z} --pieces {} --sizes {lo}-{hi} \
         --seed {}{flags}\n",
        r.pieces, r.seed
    );
    out.push_str(match (r.unique, r.unsat) {
        (_, true) => {
            "# No solution: one chiral piece of a puzzle with a unique solution, mirrored.\n"
        }
        (true, false) => "# Exactly one solution up to rotations.\n",
        _ => "# A random cut of the box: it has at least that solution.\n",
    });
    if let Some(how) = how {
        out.push_str(&format!("# {how}\n"));
    }
    out.push_str(&format!(
        "name = \"Random {} pieces in {x}x{y}x{z} (seed {})\"\nbox = [{x}, {y}, {z}]\n",
        r.pieces, r.seed
    ));
    if r.unique || r.unsat {
        out.push_str(&format!(
            "\n[expect]\nrotations = {}\n",
            if r.unsat { 0 } else { 1 }
        ));
    }
    for (k, (shape, n)) in shapes.iter().enumerate() {
        let cells: Vec<String> = shape
            .cells()
            .iter()
            .map(|c| format!("[{},{},{}]", c[0], c[1], c[2]))
            .collect();
        out.push_str(&format!(
            "\n[[piece]]\n{}cells = [{}]\n",
            named(k),
            cells.join(", ")
        ));
        if *n > 1 {
            out.push_str(&format!("count = {n}\n"));
        }
    }
    out
}

/// The `name` line of the `k`th piece of a generated file, and its `symbol` line where
/// the name's first letter is another piece's symbol already (from the 27th piece on,
/// `AA` would take `A`'s): a-z, 0-9, then Greek and Cyrillic letters, then CJK
/// ideographs, so that every generated file reads back.
pub(crate) fn named(k: usize) -> String {
    let name = name(k);
    if k < 26 {
        return format!("name = \"{name}\"\n");
    }
    let i = k - 26;
    // Each run of candidates as (first code point, how many), gaps left out (the Greek
    // final sigma, the unassigned capital).
    let runs: [(u32, u32); 7] = [
        ('a' as u32, 26),
        ('0' as u32, 10),
        (0x3B1, 17), // α..ρ
        (0x3C3, 7),  // σ..ω
        (0x391, 17), // Α..Ρ
        (0x3A3, 7),  // Σ..Ω
        (0x410, 64), // А..я
    ];
    let mut at = i as u32;
    let mut symbol = None;
    for (first, len) in runs {
        if at < len {
            symbol = char::from_u32(first + at);
            break;
        }
        at -= len;
    }
    let symbol = symbol
        .or_else(|| char::from_u32(0x4E00 + at))
        .expect("a CJK ideograph");
    format!("name = \"{name}\"\nsymbol = \"{symbol}\"\n")
}

/// A, B, ..., Z, AA, AB, ...
pub(crate) fn name(k: usize) -> String {
    let letter = |i: usize| (b'A' + i as u8) as char;
    if k < 26 {
        letter(k).to_string()
    } else {
        format!("{}{}", letter(k / 26 - 1), letter(k % 26))
    }
}

fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    // The modulo's bias is below 2^-40 for n under 2^24: immaterial for a puzzle.
    (rng.next_u64() % n as u64) as usize
}

fn shuffle<T>(rng: &mut Pcg64Mcg, xs: &mut [T]) {
    for k in (1..xs.len()).rev() {
        xs.swap(k, below(rng, k + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binary's counter, as `Puzzle::count_drawn` has it.
    fn count(puzzle: &Puzzle, at_most: u64) -> Result<Option<u64>> {
        use crate::engine::{Engine, RunOptions};
        use crate::puzzle::SymmetryMode;
        let problem = puzzle.compile(SymmetryMode::Rotations)?;
        let (found, report) =
            problem.count_up_to(&Engine::bits(), &RunOptions::default(), at_most)?;
        Ok((found >= at_most || report.complete).then_some(found))
    }

    fn request(seed: u64) -> Generator {
        Generator {
            size: [4, 4, 4],
            pieces: 13,
            sizes: (4, 6),
            seed,
            unique: false,
            unsat: false,
        }
    }

    /// Every cut fills the box with face-connected pieces of the drawn sizes, and the
    /// puzzle it writes has a solution.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
    fn a_cut_is_a_solution_of_its_puzzle() {
        for seed in 0..20 {
            let r = request(seed);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let pieces = cut(&r, &mut rng).unwrap();
            assert_eq!(pieces.len(), 13);
            let mut seen = std::collections::HashSet::new();
            for p in &pieces {
                assert!((4..=6).contains(&p.len()), "{p:?}");
                assert!(Shape::new(p.clone()).is_face_connected(), "{p:?}");
                for c in p {
                    assert!(seen.insert(*c));
                }
            }
            assert_eq!(seen.len(), 64);
            let text = render(&r, &pieces, None, None);
            assert_eq!(
                solutions(&text, 1, &mut count).unwrap(),
                Some(1),
                "seed {seed}:\n{text}"
            );
        }
    }

    #[test]
    fn a_seed_gives_one_puzzle() {
        let a = request(5).generate(&mut count).unwrap().text;
        assert_eq!(a, request(5).generate(&mut count).unwrap().text);
        assert_ne!(a, request(6).generate(&mut count).unwrap().text);
    }

    #[test]
    fn impossible_sizes_are_refused() {
        let mut r = request(1);
        r.sizes = (6, 8);
        assert!(matches!(r.generate(&mut count), Err(Error::Usage(_))));
        r.sizes = (5, 4);
        assert!(matches!(r.generate(&mut count), Err(Error::Usage(_))));
    }
}
