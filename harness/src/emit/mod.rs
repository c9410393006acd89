//! Emitters: each turns the [`Event`]s of a run into one output (the human
//! report, JSON lines, a JSON report file). Several run side by side, each
//! seeing every event in the same order.

#[cfg(feature = "reports")]
pub mod badge;
#[cfg(feature = "reports")]
pub mod diff;
pub mod escape;
#[cfg(feature = "reports")]
pub mod files;
pub mod github;
pub mod human;
pub mod json;
#[cfg(feature = "reports")]
pub(crate) mod markdown;
#[cfg(feature = "reports")]
pub mod matrix;
pub mod paint;
#[cfg(feature = "reports")]
pub mod regression;
pub mod show;
#[cfg(feature = "reports")]
pub mod statement;
pub mod text;

use std::io;

use crate::event::Event;

/// Something that makes an output from a run's events.
pub trait Emitter {
    /// Takes the next event.
    ///
    /// # Errors
    ///
    /// The error of writing the output.
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()>;
}

/// Every emitter of a run, fed in turn.
#[derive(Default)]
pub struct Emitters<'a> {
    emitters: Vec<Box<dyn Emitter + 'a>>,
}

impl<'a> Emitters<'a> {
    /// Adds an emitter.
    pub fn push(&mut self, emitter: impl Emitter + 'a) {
        self.emitters.push(Box::new(emitter));
    }
}

impl Emitter for Emitters<'_> {
    fn emit(&mut self, event: &Event<'_>) -> io::Result<()> {
        for emitter in &mut self.emitters {
            emitter.emit(event)?;
        }
        Ok(())
    }
}
