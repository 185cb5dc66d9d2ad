//! Numbers from Python for the library's rules (`RunOptions::parse_threads`, ..., the
//! command line's):
//! each is read as its text (an int's `str`, a float's `repr`), so that the rule takes or
//! refuses it in the command line's words however large or negative it is, never with an
//! `OverflowError` of the conversion's own.
//!
//! A value of another type (`str`, `None`, a `bool` for a number) is a `TypeError`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

/// A Python int (or anything with `__index__`; not a `bool`), as its decimal text.
pub(crate) struct Whole(pub(crate) String);

/// A Python int or float (or anything with `__float__`; not a `bool`), as its text: a
/// number of seconds.
pub(crate) struct Seconds(pub(crate) String);

impl From<u64> for Whole {
    fn from(n: u64) -> Whole {
        Whole(n.to_string())
    }
}

/// The decimal text of an int, or `None` when `obj` is not one.
fn int_text(obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Some(obj.str()?.to_string()));
    }
    if obj.get_type().hasattr("__index__")? {
        return Ok(Some(obj.call_method0("__index__")?.str()?.to_string()));
    }
    Ok(None)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Whole> {
        int_text(&obj)?.map(Whole).ok_or_else(|| {
            PyTypeError::new_err(format!("'{}' object is not an integer", type_name(&obj)))
        })
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Seconds {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Seconds> {
        if let Some(text) = int_text(&obj)? {
            return Ok(Seconds(text));
        }
        let float = obj.is_instance_of::<PyFloat>()
            || (!obj.is_instance_of::<PyBool>() && obj.get_type().hasattr("__float__")?);
        if !float {
            return Err(PyTypeError::new_err(format!(
                "'{}' object is not a number of seconds",
                type_name(&obj)
            )));
        }
        let x = obj.py().get_type::<PyFloat>().call1((&*obj,))?;
        Ok(Seconds(x.repr()?.to_string()))
    }
}
