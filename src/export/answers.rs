//! Reading back what solvers print for the linear models ([`super::linear`]), for
//! `polycover decode`: MiniZinc's `x = [0, 1, ...]` lines (one per solution, as the model
//! prints them, with or without a closing `;`) and pseudo-Boolean competition output (`s ...`, `v x1 -x2 ...`).
//!
//! Both become the same [`Answer`]s as DIMACS output, with variable k meaning option
//! k-1, so one decoder checks every route. Text that is neither is left to the DIMACS
//! reader (`None`).

use crate::error::{Error, Result};
use crate::sat::dimacs::Answer;

/// MiniZinc's lines that end a search without a solution.
const MINIZINC_UNSATISFIABLE: &str = "=====UNSATISFIABLE=====";
const MINIZINC_UNKNOWN: &str = "=====UNKNOWN=====";

/// The answers in `text`, if it is MiniZinc or OPB solver output. MiniZinc output is
/// known by a solution line or by a status line alone: an unsatisfiable model prints
/// no `x = [...]`.
///
/// # Errors
///
/// `Some(Err(_))`, an [`Error::Model`] at the line concerned, for a MiniZinc `x = [...]`
/// line that is cut short or holds a value other than 0 or 1, or for a pseudo-Boolean
/// `v` line with a token that is not `xN` or `-xN`.
pub fn parse(text: &str, name: &str) -> Option<Result<Vec<Answer>>> {
    if text
        .lines()
        .map(str::trim)
        .any(|l| l.starts_with("x = [") || l == MINIZINC_UNSATISFIABLE || l == MINIZINC_UNKNOWN)
    {
        return Some(minizinc(text, name));
    }
    let opb = text.lines().any(|l| {
        l.strip_prefix("v ")
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|t| t.trim_start_matches('-').starts_with('x'))
    });
    opb.then(|| pseudo_boolean(text, name))
}

fn bad(name: &str, line: usize, reason: String) -> Error {
    Error::Model {
        location: format!("{name}:{line}"),
        reason,
    }
}

fn minizinc(text: &str, name: &str) -> Result<Vec<Answer>> {
    let mut answers = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line == MINIZINC_UNSATISFIABLE {
            answers.push(Answer::Unsatisfiable);
            continue;
        }
        if line == MINIZINC_UNKNOWN {
            answers.push(Answer::Unknown);
            continue;
        }
        let Some(list) = line.strip_prefix("x = [") else {
            continue;
        };
        // `x = [...];` (a statement, as some output items print it) is the same line.
        let list = list.trim_end();
        let list = list.strip_suffix(';').map_or(list, str::trim_end);
        let list = list
            .strip_suffix(']')
            .ok_or_else(|| bad(name, k + 1, "the x = [...] line is cut short".into()))?;
        let mut lits = Vec::new();
        for (v, value) in list.split(',').map(str::trim).enumerate() {
            let var = v as i64 + 1;
            match value {
                "1" | "true" => lits.push(var),
                "0" | "false" => lits.push(-var),
                other => {
                    return Err(bad(
                        name,
                        k + 1,
                        format!("x[{var}] is {other:?}, not 0 or 1"),
                    ))
                }
            }
        }
        answers.push(Answer::Satisfiable(lits));
    }
    Ok(answers)
}

fn pseudo_boolean(text: &str, name: &str) -> Result<Vec<Answer>> {
    let mut status = None;
    let mut lits = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if let Some(s) = line.strip_prefix("s ") {
            status = Some(s.trim().to_string());
        } else if let Some(values) = line.strip_prefix("v ") {
            for token in values.split_whitespace() {
                let (sign, var) = match token.strip_prefix('-') {
                    Some(rest) => (-1, rest),
                    None => (1, token),
                };
                let n: i64 = var
                    .strip_prefix('x')
                    .and_then(|d| d.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or_else(|| {
                        bad(name, k + 1, format!("{token:?} is not a literal xN or -xN"))
                    })?;
                lits.push(sign * n);
            }
        }
    }
    Ok(vec![match status.as_deref() {
        Some("UNSATISFIABLE") => Answer::Unsatisfiable,
        Some("SATISFIABLE") | Some("OPTIMUM FOUND") | None if !lits.is_empty() => {
            Answer::Satisfiable(lits)
        }
        _ => Answer::Unknown,
    }])
}
