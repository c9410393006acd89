//! Claims: the rules a validator says it checks.

use mcpdesc_protocol::Implementation;

use crate::suite::catalog::RuleIndex;

/// How many of the catalogs' rules a validator claims to check: those its
/// implementation metadata lists in `rules`, or all when it lists none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claims {
    /// Rules of the catalogs that the validator claims.
    pub claimed: usize,
    /// Rules in the catalogs.
    pub catalog: usize,
}

impl Claims {
    /// The claims of `implementation` over the catalogs' `rules`.
    pub fn of(implementation: &Implementation, rules: &RuleIndex) -> Claims {
        let catalog = rules.iter().count();
        let claimed = match &implementation.rules {
            None => catalog,
            Some(listed) => rules
                .iter()
                .filter(|rule| listed.contains(&rule.id))
                .count(),
        };
        Claims { claimed, catalog }
    }
}
