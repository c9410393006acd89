//! The findings of one validation run, collected as the rules report them.

use mcpdesc_protocol::{Diagnostic, Severity};

use crate::pointer::Pointer;

/// Diagnostics gathered from every rule, in the order they were found.
#[derive(Debug, Default)]
pub(crate) struct Report {
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// Records that `rule` is broken at `at`.
    pub(crate) fn error(&mut self, rule: &'static str, at: &Pointer, message: impl Into<String>) {
        self.push(rule, at, Severity::Error, message.into());
    }

    /// Records a warning of `rule` at `at`.
    pub(crate) fn warning(&mut self, rule: &'static str, at: &Pointer, message: impl Into<String>) {
        self.push(rule, at, Severity::Warning, message.into());
    }

    /// Takes every finding of `other` in, each moved to `at`: what a rule
    /// found inside a referenced value is reported where the reference is.
    pub(crate) fn absorb_at(&mut self, other: Report, at: &Pointer) {
        for mut diagnostic in other.diagnostics {
            diagnostic.path = at.as_str().to_owned();
            self.diagnostics.push(diagnostic);
        }
    }

    fn push(&mut self, rule: &'static str, at: &Pointer, severity: Severity, message: String) {
        self.diagnostics
            .push(Diagnostic::new(rule, at.as_str(), severity).with_message(message));
    }

    /// The findings sorted by (rule, path, severity), each triple once.
    pub(crate) fn finish(mut self) -> Vec<Diagnostic> {
        self.diagnostics
            .sort_by(|a, b| (&a.rule, &a.path, a.severity).cmp(&(&b.rule, &b.path, b.severity)));
        self.diagnostics.dedup_by(|later, earlier| {
            later.rule == earlier.rule
                && later.path == earlier.path
                && later.severity == earlier.severity
        });
        self.diagnostics
    }
}
