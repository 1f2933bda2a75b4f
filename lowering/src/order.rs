//! The order the pipelines keep, checked by the passes that must come after
//! the collective rewrites (`pld-materialize-dist-tensor-ctx`,
//! `pld-insert-comm-fence`): run before them, the rewrites would emit ops
//! those passes never saw (unresolved contexts, unfenced stores), and the
//! result would be wrong without a word.

use melior::ir::OperationRef;
use pld_dialect::{collective::CollectiveKind, enums::FuncKind, query::function_kind};
use pld_ir::{self as ir, pass::Report};

/// The pass that rewrites the collectives of a function of `kind`, if any
/// must run before the late passes.
fn rewriter(kind: FuncKind) -> Option<&'static str> {
    match kind {
        FuncKind::InCore => Some("pld-lower-composite-ops"),
        FuncKind::Chip => Some("pld-lower-l2-tensor-collectives"),
        // HOST collectives keep their own order (pld-host-pipeline); device
        // kernels of other kinds hold no collective.
        FuncKind::Host | FuncKind::Aiv | FuncKind::Aic => None,
    }
}

/// Reports, as errors of `pass`, every collective of `function` that its
/// rail's rewrite has not lowered yet.
pub fn refuse_unlowered(report: &mut Report, function: OperationRef, pass: &str) {
    let Some(rewriter) = function_kind(function).ok().flatten().and_then(rewriter) else {
        return;
    };
    for op in ir::collect(function, |n| CollectiveKind::from_op_name(n).is_some()) {
        report.error(
            op,
            &format!(
                "is not lowered yet: {rewriter} must run before {pass}, which comes after \
                 every collective rewrite (spec 6.3)"
            ),
        );
    }
}
