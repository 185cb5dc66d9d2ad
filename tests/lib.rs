//! All integration tests, built as one binary.

mod bench;
mod cli;
mod colored;
mod common;
mod counts;
mod errors;
mod external;
mod geometry;
mod sat;
