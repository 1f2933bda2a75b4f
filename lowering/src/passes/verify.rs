//! `pld-verify`: the semantic verifier as a pass.
//!
//! Docs: `docs/passes/pld-verify.md`; tests: `tests/lit/passes/pld-verify/`.
//!
//! Runs `pld_dialect::verify` on the op it is anchored on and fails when
//! any rule is broken. `pld-opt` also runs it after parsing and after every
//! pass of a pipeline.

use melior::{ir::OperationRef, pass::Pass, Context};
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass};

#[derive(Clone, Default)]
pub struct Verify;

impl PldPass for Verify {
    const ARGUMENT: &'static str = "pld-verify";
    const NAME: &'static str = "PldVerify";
    const SUMMARY: &'static str =
        "Check the semantic rules of the pld dialect (docs/dialect.md) and report each violation at its op";

    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, _context: &Context, op: OperationRef) -> Result<(), PassFailed> {
        if pld_dialect::verify::verify_and_emit(op) {
            Ok(())
        } else {
            Err(PassFailed)
        }
    }
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(Verify, &IDENTITY)
}
