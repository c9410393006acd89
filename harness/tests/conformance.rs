//! The whole suite against the reference validator, one trial per case.
//!
//! `cargo test --test conformance -- --list` lists the cases;
//! `MCPDESC_SUITE_DIR=path` runs a suite working tree instead of the
//! built-in one, `MCPDESC_LEVEL=verdict|rules|exact` judges at that level
//! (see `libtest::main` for every variable).

fn main() {
    mcpdesc_conformance::libtest::main(mcpdesc_validator::ReferenceValidator::new());
}
