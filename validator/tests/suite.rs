//! The whole conformance suite against the reference validator, one trial
//! per case, from inside the validator crate.
//!
//! The harness's own `conformance` test does the same, but cargo-mutants
//! mutates one package and runs only that package's tests; this target lets
//! `scripts/mutants` judge every mutant of the validator by the suite alone
//! (see `docs/maintaining.md`). `cargo test -p mcpdesc-validator --test suite`
//! runs it; the `MCPDESC_*` variables of `libtest::main` apply.

//!
//! The reference is held to take every case: one it answered `skipped` (as
//! a mutant that drops a rule's mapping might) fails, rather than being an
//! ignored trial.

fn main() {
    mcpdesc_conformance::libtest::main_taking_every_case(
        mcpdesc_validator::ReferenceValidator::new(),
    );
}
