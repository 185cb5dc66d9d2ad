//! `Cnf`: the formula `polycover dimacs` writes, for PySAT and other solvers in Python.
//!
//! Invariant: variable `o + 1` is option `o` of the puzzle's matrix (the primary
//! variables `1..=num_primary`, the `c p show` projection); models projected on them are
//! the distinct solutions, so a solution's blocking clause negates its primary variables.

use std::sync::Arc;

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use polycover::sat::Formula;
use polycover::sat::Projection;
use polycover::Problem;

use crate::numbers::Whole;
use crate::solution::Solution;
use crate::to_py;

/// A puzzle's CNF: clauses as lists of DIMACS literals, the variable map, the projection.
#[pyclass(frozen, module = "polycover")]
pub struct Cnf {
    problem: Problem,
    formula: Arc<Formula>,
}

impl Cnf {
    pub(crate) fn new(problem: Problem, formula: Arc<Formula>) -> Cnf {
        Cnf { problem, formula }
    }
}

#[pymethods]
impl Cnf {
    /// The clauses, each a list of non-zero DIMACS literals (made anew at each access).
    #[getter]
    fn clauses(&self) -> Vec<Vec<i32>> {
        self.formula.clauses().collect()
    }

    /// The number of variables, auxiliary ones included.
    #[getter]
    fn num_vars(&self) -> u32 {
        self.formula.num_vars
    }

    /// The number of primary variables: one per option (placement), `1..=num_primary`.
    #[getter]
    fn num_primary(&self) -> u32 {
        self.formula.num_primary
    }

    /// The `c p show` projection: the primary variables, on which models are solutions.
    #[getter]
    fn projection(&self) -> Vec<u32> {
        (1..=self.formula.num_primary).collect()
    }

    /// The variable map: each primary variable and its placement, as the `c v` lines say.
    #[getter]
    fn variables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(py);
        for o in 0..self.formula.num_primary {
            map.set_item(o + 1, self.problem.puzzle().describe_option(o))?;
        }
        Ok(map)
    }

    /// The at-most-one encoding's name.
    #[getter]
    fn amo(&self) -> &'static str {
        self.formula.amo.name()
    }

    /// The symmetry mode whose symmetry-breaking clauses the formula holds.
    #[getter]
    fn symmetry(&self) -> &'static str {
        self.problem.mode().as_str()
    }

    /// The DIMACS text `polycover dimacs` writes, with its `c` lines and the `c p show`
    /// projection.
    fn dimacs(&self) -> PyResult<String> {
        let mut text = Vec::new();
        self.formula
            .write(&mut text, &self.problem, Projection::Show)
            .map_err(|e| to_py(e.into()))?;
        Ok(String::from_utf8_lossy(&text).into_owned())
    }

    /// The formula as a `pysat.formula.CNF` (needs PySAT: `pip install python-sat`).
    fn to_pysat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let formula = py.import("pysat.formula").map_err(|e| {
            PyImportError::new_err(format!(
                "to_pysat needs PySAT (pip install python-sat): {e}"
            ))
        })?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("from_clauses", self.clauses())?;
        formula.getattr("CNF")?.call((), Some(&kwargs))
    }

    /// The solution a model stands for: `model` lists DIMACS literals (PySAT's
    /// `get_model()`, or a solver's `v` lines), every primary variable among them.
    /// Raises `PuzzleError` when the true placements are not a solution.
    fn decode(&self, model: &Bound<'_, PyAny>) -> PyResult<Solution> {
        // A str is a sequence too: say what is wanted, not how extraction failed.
        if model.is_instance_of::<pyo3::types::PyString>() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "decode takes the model as a list of integers (DIMACS literals, as PySAT's \
                 get_model() gives), not a string: split a solver's `v` lines into integers",
            ));
        }
        let model: Vec<Whole> = model.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "decode takes the model as a list of integers (DIMACS literals), not {}",
                model
                    .get_type()
                    .name()
                    .map_or_else(|_| "that".into(), |n| n.to_string())
            ))
        })?;
        let model = model
            .iter()
            .map(|l| {
                l.0.parse::<i64>().map_err(|_| {
                    to_py(polycover::Error::Model {
                        location: "model".into(),
                        reason: format!("{} is not a DIMACS literal (past 64 bits)", l.0),
                    })
                })
            })
            .collect::<PyResult<Vec<i64>>>()?;
        let options = self
            .problem
            .matrix()
            .decode_model(&model, "model")
            .map_err(to_py)?;
        Ok(Solution::new(self.problem.puzzle().clone(), options))
    }

    /// The clause that forbids `solution` (its primary variables, negated): add it to
    /// enumerate the distinct solutions one model at a time.
    fn blocking(&self, solution: &Solution) -> Vec<i64> {
        solution_options(solution)
            .iter()
            .map(|&o| -(i64::from(o) + 1))
            .collect()
    }
}

fn solution_options(solution: &Solution) -> Vec<u32> {
    solution.options_ref().to_vec()
}
