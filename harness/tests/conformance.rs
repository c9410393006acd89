//! The whole suite against the reference validator, one trial per case.
//!
//! `cargo test --test conformance -- --list` lists the cases;
//! `MCPDESC_SUITE_DIR=path` runs a suite working tree instead of the
//! built-in one.

fn main() {
    mcpdesc_conformance::libtest::main(mcpdesc_validator::ReferenceValidator::new());
}
