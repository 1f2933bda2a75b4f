//! The shape of a pld pass and its wrapping as an MLIR external pass.

use melior::{
    ir::{r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass, RunExternalPass},
    ContextRef,
};

/// A pass failed; the reasons were emitted as MLIR diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassFailed;

impl std::fmt::Display for PassFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("pass failed (see the diagnostics)")
    }
}

impl std::error::Error for PassFailed {}

/// A pass's error reporting: each error is emitted at its op at once, and
/// [`Report::finish`] fails the pass if there was any.
#[derive(Default)]
pub struct Report {
    failed: bool,
}

impl Report {
    /// Emits an error about `op` (see [`crate::ir::error`]).
    pub fn error(&mut self, op: OperationRef, message: &str) {
        crate::ir::error(op, message);
        self.failed = true;
    }

    /// The pass's result.
    pub fn finish(self) -> Result<(), PassFailed> {
        if self.failed {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

/// A pld pass. It reports problems as MLIR diagnostics at the offending
/// op's location and returns [`PassFailed`] to fail the pipeline.
pub trait PldPass: Clone + 'static {
    /// Pipeline name, e.g. `pld-verify`.
    const ARGUMENT: &'static str;
    /// Human-readable name used in IR dumps, e.g. `PldVerify`.
    const NAME: &'static str;
    /// One-line summary for `--list-passes`.
    const SUMMARY: &'static str;

    /// Runs the pass on `op` (the op the pass manager anchors it on).
    fn run(&self, op: OperationRef) -> Result<(), PassFailed>;
}

/// Adapts a [`PldPass`] to melior's external-pass interface.
#[derive(Clone)]
struct External<P>(P);

impl<'c, P: PldPass> RunExternalPass<'c> for External<P> {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, op: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        if self.0.run(op).is_err() {
            pass.signal_failure();
        }
    }
}

/// Unique identity of one pass type, as MLIR requires. Each pass declares
/// one `static` of this type and hands it to [`external`].
#[repr(align(8))]
pub struct PassIdentity;

/// Wraps `pass` as an MLIR pass that runs on any op.
pub fn external<P: PldPass>(pass: P, identity: &'static PassIdentity) -> Pass {
    create_external(
        External(pass),
        TypeId::create(identity),
        P::NAME,
        P::ARGUMENT,
        P::SUMMARY,
        "",
        &[],
    )
}
