//! The rules for the numbers a run takes (`src/limits.rs`, issue 46) through the command
//! line: each case of `tests/fixtures/limits.txt` (which the Python module's tests run
//! too) is taken or refused with the rule's words and exit 2; and every numeric option
//! takes a leading minus as a value, so that its own parser refuses it rather than clap
//! reading it as an unknown option.

use crate::common::*;

/// One line of `tests/fixtures/limits.txt`: the rule, the value, and `None` when it is
/// taken, else the words of its refusal.
fn cases() -> Vec<(String, String, Option<String>)> {
    let path = format!(
        "{}/tests/fixtures/limits.txt",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.splitn(4, ' ');
            let (rule, value, verdict) = (
                words.next().unwrap().to_string(),
                words.next().unwrap().to_string(),
                words.next().unwrap(),
            );
            match verdict {
                "taken" => (rule, value, None),
                "refused" => (rule, value, Some(words.next().unwrap().to_string())),
                _ => panic!("{l}: neither taken nor refused"),
            }
        })
        .collect()
}

/// The command that tries `value` under `rule`.
fn command(rule: &str, value: &str) -> Vec<String> {
    let args: &[&str] = match rule {
        "threads" => &["count", "soma", "--threads"],
        "timeout" => &["count", "soma", "--timeout"],
        "samples" => &["sample", "soma", "--seed", "1", "-n"],
        "seed" => &["sample", "soma", "--seed"],
        _ => panic!("no command tries the rule {rule}"),
    };
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(value.to_string());
    args
}

#[test]
fn the_shared_cases_are_taken_or_refused_with_the_rules_words() {
    let cases = cases();
    assert!(cases.len() > 20);
    for (rule, value, refusal) in cases {
        let args = command(&rule, &value);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = polycover(&args);
        let err = stderr(&out);
        match refusal {
            None => assert_eq!(out.status.code(), Some(0), "{args:?}: {err}"),
            Some(words) => {
                assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
                let said = format!("`{value}`: {words}");
                assert!(err.contains(&said), "{args:?}: {err}\nwanted: {said}");
            }
        }
    }
}

/// `--timeout inf` and a timeout past the clock are no timeout, in every command that
/// takes one.
#[test]
fn an_endless_timeout_is_no_timeout() {
    for timeout in ["inf", "1e300"] {
        for args in [
            &["count", "soma", "--timeout", timeout][..],
            &["solve", "soma", "--timeout", timeout],
            &["enumerate", "soma", "--limit", "1", "--timeout", timeout],
            &["sample", "soma", "--seed", "1", "--timeout", timeout],
        ] {
            let out = polycover(args);
            assert!(
                matches!(out.status.code(), Some(0 | 10)),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
}

/// A negative number given to a numeric option reaches the option's parser, which
/// refuses it in its own words (exit 2), instead of clap's "unexpected argument".
#[test]
fn a_negative_number_is_refused_by_its_options_parser() {
    let cases: &[&[&str]] = &[
        &["count", "soma", "--timeout"],
        &["count", "soma", "--threads"],
        &["count", "soma", "--memory"],
        &["solve", "soma", "--timeout"],
        &["enumerate", "soma", "--timeout"],
        &["enumerate", "soma", "--limit"],
        &["sample", "soma", "-n"],
        &["sample", "soma", "--count"],
        &["sample", "soma", "--seed"],
        &["sample", "soma", "--memory"],
        &["sample", "soma", "--timeout"],
        &["design", "--box", "2,2,2", "--timeout"],
        &["design", "--box", "2,2,2", "--seed"],
        &["design", "--box", "2,2,2", "--cap"],
        &["design", "--box", "2,2,2", "--pieces"],
        &["generate", "polycubes", "--seed"],
        &["generate", "polycubes", "--pieces"],
        &["generate", "polycubes", "--draws"],
        &["generate", "colored-cubes", "--cubes"],
        &["bench", "--threads"],
        &["bench", "--repeat"],
        &["bench", "--timeout"],
        &["suite", "out", "--count-timeout"],
        &["export", "soma", "--format", "stl", "--solution"],
    ];
    for case in cases {
        let flag = match *case.last().unwrap() {
            "-n" => "--count",
            flag => flag,
        };
        for negative in ["-1", "-2.5"] {
            let mut args = case.to_vec();
            args.push(negative);
            let out = polycover(&args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(&format!("invalid value '{negative}' for '{flag}")),
                "{args:?}: {err}"
            );
        }
    }
    // The rules' own words, for the flags of issue 46.
    let out = polycover(&["design", "--timeout", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`-1`: the time must be positive"),
        "{}",
        stderr(&out)
    );
    let out = polycover(&["count", "soma", "--threads", "-1"]);
    assert!(
        stderr(&out).contains("`-1`: the thread count must be"),
        "{}",
        stderr(&out)
    );
}
