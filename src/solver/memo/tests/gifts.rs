//! Giving work away: a count that gives stores no partial count, idle workers take
//! options from a running count, and Burnside's weighted quotients give and count alike.

use super::*;

/// A share that wants work once, and keeps what it is given.
struct WantsOnce {
    wanted: std::cell::Cell<bool>,
    given: std::cell::RefCell<Vec<Vec<u32>>>,
}

impl crate::solver::backtrack::Share for WantsOnce {
    fn wanted(&self) -> bool {
        self.wanted.replace(false)
    }

    fn give(&self, prefixes: Vec<Vec<u32>>) {
        self.given.borrow_mut().extend(prefixes);
    }
}

/// A share that wants work at every chance, and keeps what it is given.
#[derive(Default)]
struct WantsAlways {
    given: std::cell::RefCell<Vec<Vec<u32>>>,
}

impl crate::solver::backtrack::Share for WantsAlways {
    fn wanted(&self) -> bool {
        true
    }

    fn give(&self, prefixes: Vec<Vec<u32>>) {
        self.given.borrow_mut().extend(prefixes);
    }
}

/// A strip of `n` cells with `d` dominoes and `n - 2d` monominoes (copies of two
/// pieces), and its reflection: under it a pair of dominoes is one option of weight 2,
/// which stops fitting when one domino is left.
fn strip(n: u32, d: u32) -> (Matrix, crate::symmetry::Symmetry) {
    let mut items: Vec<Item> = (0..n).map(|c| Item::exact(format!("c{c}"), 1)).collect();
    items.push(Item::exact("domino", d));
    items.push(Item::exact("monomino", n - 2 * d));
    let mut m = Matrix::new(items);
    let mut image = Vec::new();
    // Monominoes first, so that a level tries its domino pair last and can give it away
    // untried.
    for c in 0..n {
        m.push_option(&[c, n + 1]);
    }
    for c in 0..n - 1 {
        m.push_option(&[c, c + 1, n]);
    }
    // Monomino c maps to monomino n-1-c, domino c (option n+c) to domino n-2-c.
    for c in 0..n {
        image.push(n - 1 - c);
    }
    for c in 0..n - 1 {
        image.push(n + (n - 2 - c));
    }
    let mut cells: Vec<u32> = (0..n).rev().collect();
    cells.extend([n, n + 1]);
    let g = crate::symmetry::Symmetry {
        items: cells,
        options: image,
        name: "mirror".into(),
    };
    (m, g)
}

/// Burnside's quotients are weighted (an option orbit covers a piece as often as it has
/// options), and a weighted search gives options away unchecked: a search that gives at
/// every chance, whose gifts give again, sums to the count of a search that gives
/// nothing, with no table and with one. On the strip some gifts end in an option that
/// does not fit (a pair of dominoes when one is left); the 8x8 dominoes and Soma check
/// every class of their groups.
#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
fn weighted_quotients_give_work_away_and_count_the_same() {
    let mut quotients = Vec::new();
    let (m, g) = strip(40, 7);
    quotients.push(("strip".to_string(), crate::burnside::Quotient::new(&m, &g)));
    for name in ["dominoes-8x8", "soma"] {
        let problem = crate::problem::Problem::load(name, None).unwrap();
        let group = problem.reduction.group();
        for (k, _size) in crate::burnside::classes(group) {
            let g = &group.elements()[k];
            let q = crate::burnside::Quotient::new(&problem.compiled.matrix, g);
            quotients.push((format!("{name}, class {k}"), q));
        }
    }
    let mut unfitting = 0;
    let mut gifts = 0;
    for (name, q) in &quotients {
        let input = Input::from(q);
        let words = Search::new(&input, &never).key_words();
        for memory in [0, 16 * MIB] {
            if memory == 0 && name.starts_with("dominoes") {
                continue; // 13 million tilings one by one
            }
            let mut table = Table::new(words, memory);
            let alone = Search::new(&input, &never).count(&mut table).unwrap();
            let share = WantsAlways::default();
            let mut table = Table::new(words, memory);
            let mut search = Search::new(&input, &never);
            search.sharing(&share);
            let mut sum = Count::ZERO;
            let mut todo = vec![Vec::new()];
            while let Some(prefix) = todo.pop() {
                if let Some((&last, before)) = prefix.split_last() {
                    let mut probe = Search::new(&input, &never);
                    before.iter().for_each(|&o| probe.push(o));
                    unfitting += usize::from(!probe.fits(last));
                }
                sum.add(&count_after(&mut search, &prefix, &mut table).unwrap());
                let given = share.given.take();
                gifts += given.len();
                todo.extend(given);
            }
            assert_eq!(sum.into_big(), alone.into_big(), "{name}, memory {memory}");
        }
    }
    assert!(gifts > 100, "{gifts} gifts");
    assert!(
        unfitting > 0,
        "no gift ended in an option that does not fit"
    );
}

/// A count that gave options away returns the rest, the given prefixes count what it
/// gave, and the cut count is not stored: counting the root again from the same table
/// finds the whole number, not the part (8x8 dominoes, 12,988,816 tilings).
#[test]
fn a_count_that_gave_work_away_stores_no_partial_count() {
    let m = Input::from(&dominoes(8, 8));
    let want = Count::Small(12_988_816);
    let share = WantsOnce {
        wanted: std::cell::Cell::new(true),
        given: Default::default(),
    };
    let mut table = Table::new(Search::new(&m, &never).key_words(), 64 * MIB);
    let mut search = Search::new(&m, &never);
    search.sharing(&share);
    let mut sum = search.count(&mut table).unwrap();
    let given = share.given.take();
    assert!(!given.is_empty());
    assert_ne!(sum, want, "the gift took nothing");
    let mut alone = Search::new(&m, &never);
    for prefix in &given {
        for &o in prefix {
            alone.push(o);
        }
        sum.add(&alone.count(&mut table).unwrap());
        for &o in prefix.iter().rev() {
            alone.pop(o);
        }
    }
    assert_eq!(sum, want);
    assert_eq!(alone.count(&mut table).unwrap(), want);
    assert_eq!(search.count(&mut table).unwrap(), want);
}

/// The most unbalanced split, one root holding the whole search, on four workers: the
/// three that find the pool empty count options the busy search gives away, so every
/// worker visits nodes, and the count is exact although the cut counts are not stored
/// (16x16 dominoes, A004003(8)). A root that stands for 3 merged prefixes gives pieces
/// that count 3 times, and its count is reported once, whole.
///
/// The box is large enough (768,000 nodes) that a worker woken late still finds work:
/// on 12x12 (33,000 nodes, a few milliseconds) a loaded 2-core machine left one worker
/// without a job in about one run of ten, the others having taken every gift before it
/// woke. The stop callback also holds every search back for its first 0.2 s, so that
/// threads slow to start are waiting while the root's search is young.
#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
fn idle_workers_take_options_from_a_running_count() {
    let m = Input::from(&dominoes(16, 16));
    let want = 2_444_888_770_250_892_795_802_079_170_816u128;
    for (times, shared) in [(1, true), (3, true), (1, false)] {
        let heard = Mutex::new(Vec::new());
        let report = |root: usize, c: &Count| heard.lock().unwrap().push((root, c.clone()));
        let start = std::time::Instant::now();
        let slow_start = || {
            let young = std::time::Duration::from_millis(200);
            if let Some(rest) = young.checked_sub(start.elapsed()) {
                std::thread::sleep(rest);
            }
            false
        };
        let s = Settings {
            stop: &slow_start,
            ..settings(4, 64 * MIB, shared)
        };
        let root = Job {
            class: 0,
            prefix: Vec::new(),
            times,
        };
        let run = run(&[&m], &[s.memory], vec![root], 4, &s, Some(&report));
        let all = BigUint::from(want) * times;
        let got = run.count.map(Count::into_big);
        assert_eq!(got, Ok(all.clone()), "times {times}, shared {shared}");
        let heard: Vec<_> = heard.into_inner().unwrap();
        let heard: Vec<_> = heard.into_iter().map(|(r, c)| (r, c.into_big())).collect();
        assert_eq!(heard, [(0, all)]);
        assert!(
            run.workers.iter().all(|&n| n > 0),
            "idle: {:?}, shared {shared}",
            run.workers
        );
    }
}
