//! Operand roles of the user-level collectives (docs/passes/pld-materialize-comm-domain-scopes.md and 7.5).

use pld_dialect::enums::Direction::{self, In, InOut};
use pld_dialect::ops::builtin::{
    BuiltinAllGather, BuiltinAllReduce, BuiltinAllToAll, BuiltinAllToAllV, BuiltinBarrier,
    BuiltinBroadcast, BuiltinReduceScatter,
};
use pld_dialect::ops::collective::{
    AllGather, AllReduce, AllToAll, AllToAllV, Barrier, Broadcast, ReduceScatter,
};

/// How a collective's operands relate to windows.
pub struct Collective {
    /// IR op name.
    pub op: &'static str,
    /// The builtin it lowers to (for allreduce: the mesh one; `mode =
    /// "ring"` selects `pld.builtin_allreduce_ring`).
    pub builtin: &'static str,
    /// Window operands in the order the builtin takes them.
    pub roles: &'static [&'static str],
    /// Directions of `roles` in the builtin dispatch.
    pub directions: &'static [Direction],
    /// The operand whose storage the result is ("window as result").
    pub alias: &'static str,
    /// Operands that inherit comm-domain coverage from another role,
    /// as (heir, source); the rest need coverage of their own.
    pub inherits: &'static [(&'static str, &'static str)],
    /// Operands a HOST orchestrator must pass as views of an allocation
    /// (checked before anything else, docs/passes/pld-lower-host-tensor-collectives.md step 1).
    pub host_bound: &'static [&'static str],
}

/// The seven collectives of the HOST rail.
pub const COLLECTIVES: &[Collective] = &[
    Collective {
        op: AllReduce::NAME,
        builtin: BuiltinAllReduce::NAME,
        roles: &["target", "signal"],
        directions: &[InOut, InOut],
        alias: "target",
        inherits: &[("signal", "target")],
        host_bound: &[],
    },
    Collective {
        op: Barrier::NAME,
        builtin: BuiltinBarrier::NAME,
        roles: &["signal"],
        directions: &[InOut],
        alias: "signal",
        inherits: &[],
        host_bound: &[],
    },
    Collective {
        op: Broadcast::NAME,
        builtin: BuiltinBroadcast::NAME,
        roles: &["target", "signal"],
        directions: &[InOut, InOut],
        alias: "target",
        inherits: &[("signal", "target")],
        host_bound: &[],
    },
    Collective {
        op: ReduceScatter::NAME,
        builtin: BuiltinReduceScatter::NAME,
        roles: &["target", "signal"],
        directions: &[InOut, InOut],
        alias: "target",
        inherits: &[("signal", "target")],
        host_bound: &[],
    },
    Collective {
        op: AllGather::NAME,
        builtin: BuiltinAllGather::NAME,
        roles: &["input", "target", "signal"],
        directions: &[In, InOut, InOut],
        alias: "target",
        inherits: &[("signal", "target")],
        host_bound: &["input"],
    },
    Collective {
        op: AllToAll::NAME,
        builtin: BuiltinAllToAll::NAME,
        roles: &["input", "target", "signal"],
        directions: &[In, InOut, InOut],
        alias: "target",
        inherits: &[("signal", "target")],
        host_bound: &["input"],
    },
    Collective {
        op: AllToAllV::NAME,
        builtin: BuiltinAllToAllV::NAME,
        roles: &["input", "target", "signal", "send_counts", "recv_counts"],
        directions: &[In, InOut, InOut, In, InOut],
        alias: "target",
        inherits: &[("signal", "target"), ("recv_counts", "target")],
        host_bound: &["input", "send_counts"],
    },
];

impl Collective {
    /// A role as the spec names it in diagnostics: allreduce's data operand
    /// is its `src`.
    pub fn role_name<'r>(&self, role: &'r str) -> &'r str {
        if self.op == AllReduce::NAME && role == "target" {
            "src"
        } else {
            role
        }
    }
}

/// The roles of collective `op`, if it is one of the HOST rail's.
pub fn collective(op: &str) -> Option<&'static Collective> {
    COLLECTIVES.iter().find(|c| c.op == op)
}
