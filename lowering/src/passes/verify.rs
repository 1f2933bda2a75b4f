//! `pld-verify`: the semantic verifier as a pass.
//!
//! Docs: `docs/passes/pld-verify.md`; tests: `tests/lit/passes/pld-verify/`.
//!
//! Runs `pld_dialect::verify` on the op it is anchored on and fails when
//! any rule is broken. `pld-opt` also runs it after parsing and after every
//! pass of a pipeline.

use melior::{
    ir::{operation::OperationLike, OperationRef},
    pass::Pass,
    Context,
};
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
        let nested = nested_pld_modules(op);
        for module in &nested {
            pld_ir::diag::emit_error(
                module.location(),
                "'builtin.module' op holds pld code (pld ops, functions with a pld.kind, or a \
                 shard program converted to them) inside another module; pld's passes lower \
                 the functions of the outermost module only (its function passes would skip \
                 these): move them there",
            );
        }
        if pld_dialect::verify::verify_and_emit(op) && nested.is_empty() {
            Ok(())
        } else {
            Err(PassFailed)
        }
    }
}

/// The outermost modules nested in `root` that hold pld code (a pld op or
/// a function with a `pld.kind`): the pipelines, which start with this
/// pass, lower the functions of the outermost module only, and left these
/// half lowered with exit 0. (The verifier itself, which `pld-opt` runs
/// after parsing, accepts them: a nested module is valid IR.) A module
/// inside one of them is not named again (500 nested modules said the
/// same error 499 times).
fn nested_pld_modules<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let holding: Vec<OperationRef> = pld_ir::collect(root, |n| n == "builtin.module")
        .into_iter()
        .filter(|module| *module != root)
        .filter(|module| {
            pld_ir::all_ops(*module).iter().any(|op| {
                pld_ir::op_name(op).starts_with("pld.") || op.attribute("pld.kind").is_ok()
            })
        })
        .collect();
    // `collect` lists an op before the ops inside it.
    let mut outermost: Vec<OperationRef> = Vec::new();
    for module in holding {
        if !outermost.iter().any(|outer| encloses(*outer, module)) {
            outermost.push(module);
        }
    }
    outermost
}

/// Whether `inner` is inside `outer`.
fn encloses(outer: OperationRef, inner: OperationRef) -> bool {
    let mut parent = inner.parent_operation();
    while let Some(op) = parent {
        if op == outer {
            return true;
        }
        parent = op.parent_operation();
    }
    false
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(Verify, &IDENTITY)
}
