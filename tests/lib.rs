//! All integration tests, built as one binary.

mod architecture;
mod bench;
mod burrtools;
mod cli;
mod cnf;
mod colored;
mod common;
mod counts;
mod cp;
mod drawing;
mod errors;
mod exit_codes;
mod export;
mod external;
mod geometry;
mod golden;
mod memo;
mod outputs;
mod parts;
mod pictures;
mod properties;
mod ranges;
mod readme;
mod reliability;
mod sat;
