//! An external validator seen as an in-process [`Validator`], for the
//! commands that take one (such as `bless --validator`).

use mcpdesc_protocol::{Implementation, Reply, ValidateRequest, Validator, ValidatorError};

use super::Pool;

/// A [`Pool`] of external validator processes behind the [`Validator`]
/// trait. A case the validator fails on (a crash, a timeout, a reply that
/// breaks the contract) is answered with [`Reply::Error`] saying what
/// happened, so that a caller treats it as not judged.
#[derive(Debug)]
pub struct PoolValidator {
    pool: Pool,
}

impl PoolValidator {
    /// Wraps a started pool.
    pub fn new(pool: Pool) -> PoolValidator {
        PoolValidator { pool }
    }
}

impl Validator for PoolValidator {
    fn implementation(&self) -> Implementation {
        self.pool.implementation().clone()
    }

    fn validate(&self, request: &ValidateRequest) -> Reply {
        self.pool.call(request).unwrap_or_else(|failure| {
            Reply::Error(ValidatorError {
                message: crate::emit::text::failure_text(&failure.kind),
            })
        })
    }
}
