//! How the command line words what the library's messages name: a [`Setting`] as its
//! flag. One function, imported by the commands and given to the lab as a value, so that
//! no other crate words a flag.

use polycover::Setting;

/// A setting as the command line spells it, `--NAME` and its value (`--symmetry none`):
/// how the command line words the settings the library's messages name
/// ([`polycover::Error::render`]), and the lab's bench rows (`bench::Plan::words`).
pub(crate) fn flag(setting: Setting, value: Option<&str>) -> String {
    match value {
        Some(v) => format!("--{} {v}", setting.name()),
        None => format!("--{}", setting.name()),
    }
}
