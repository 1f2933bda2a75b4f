//! The HOST rail's view of the collective table
//! (`pld_dialect::collective`; docs/passes/pld-materialize-comm-domain-scopes.md and
//! docs/passes/pld-lower-host-tensor-collectives.md).

use pld_dialect::collective::{CollectiveKind, Role};

/// The collective `op` names, if the HOST rail lowers it.
pub fn host_kind(op: &str) -> Option<CollectiveKind> {
    CollectiveKind::from_op_name(op).filter(|kind| kind.facts().rails.host)
}

/// Why a collective lacks the operand of `role`, as the HOST and CHIP
/// lowerings say it: a missing signal is an allreduce's that
/// pld-synthesize-allreduce-signals did not give one.
pub fn missing_operand(role: Role) -> String {
    match role {
        Role::Signal => "has no signal operand (an allreduce written without one gets it from \
                         pld-synthesize-allreduce-signals, which the pipelines run before this \
                         pass)"
            .to_string(),
        _ => format!("has no {} operand", role.group()),
    }
}

/// A role as the spec names it in HOST diagnostics: the allreduce
/// builtins call their data operand `src`.
pub fn role_name(kind: CollectiveKind, role: Role) -> &'static str {
    builtin_group(kind, role)
}

/// The builtin dispatch's operand group of `role`.
pub fn builtin_group(kind: CollectiveKind, role: Role) -> &'static str {
    match kind {
        CollectiveKind::AllReduce if role == Role::Target => "src",
        CollectiveKind::AllReduce
        | CollectiveKind::Barrier
        | CollectiveKind::Broadcast
        | CollectiveKind::ReduceScatter
        | CollectiveKind::Reduce
        | CollectiveKind::AllGather
        | CollectiveKind::AllToAll
        | CollectiveKind::AllToAllV
        | CollectiveKind::IndexedAllToAllV => role.group(),
    }
}
