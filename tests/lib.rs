//! All integration tests, built as one binary.

mod architecture;
#[cfg(feature = "c-solvers")]
mod backends;
mod bench;
mod burrtools;
mod chi_square;
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
mod flat;
mod generate;
mod geometry;
mod golden;
mod html;
mod lazy;
mod memo;
mod mesh;
mod outputs;
mod parts;
mod pictures;
mod proofs;
mod properties;
mod ranges;
mod readme;
mod reliability;
mod sample;
mod sat;
mod suite;
