//! Integration tests of the reference validator, by topic: the suite's
//! fixtures through the library, and the `mcpdesc-validate` command line.

mod cli;
mod fixtures;
