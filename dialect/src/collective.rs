//! One definition per collective (docs/architecture.md, "Adding a
//! collective").
//!
//! [`CollectiveKind`] names every user-level collective; [`CollectiveKind::facts`]
//! is its row of one table: the operands and their roles, which rails lower
//! it, its reduce op and root, its launch width, whether it publishes counts,
//! its nccl-tests bus factor and the builtin kernels of the HOST rail. Every
//! crate reads these facts from here; code that must do something particular
//! per collective matches on the kind with no `_` arm, so a new collective is
//! a compile error wherever it has to be handled.
//!
//! The operand order of an op is the IRDL file's (the single source of
//! truth for syntax); a test checks that the table agrees with it.

use crate::enums::{AllReduceMode, Direction, ReduceOp};
use crate::ops::builtin::{
    BuiltinAllGather, BuiltinAllReduce, BuiltinAllReduceRing, BuiltinAllReduceTwoShot,
    BuiltinAllToAll, BuiltinAllToAllV, BuiltinBarrier, BuiltinBroadcast, BuiltinReduce,
    BuiltinReduceScatter,
};
use crate::ops::collective::{
    AllGather, AllReduce, AllToAll, AllToAllV, Barrier, Broadcast, IndexedAllToAllV, Reduce,
    ReduceScatter,
};
use pld_builtins::{Builtin, Reductions};
use Direction::{In, InOut};

/// A user-level collective (`pld.tensor_*` returning its target's storage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CollectiveKind {
    AllReduce,
    Barrier,
    Broadcast,
    ReduceScatter,
    /// A reduction into one rank, the root.
    Reduce,
    AllGather,
    AllToAll,
    AllToAllV,
    /// CHIP rail only, A5 (URMA).
    IndexedAllToAllV,
}

/// What an operand is to its collective; [`Role::group`] is its IRDL
/// operand group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    Input,
    Target,
    Signal,
    SendCounts,
    RecvCounts,
    Index,
}

impl Role {
    /// The operand group's name in the IRDL file (and in diagnostics).
    pub fn group(self) -> &'static str {
        match self {
            Role::Input => "input",
            Role::Target => "target",
            Role::Signal => "signal",
            Role::SendCounts => "send_counts",
            Role::RecvCounts => "recv_counts",
            Role::Index => "index",
        }
    }
}

/// Where an operand's data lives in the kernel the collective lowers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// A window-bound (distributed) tensor.
    Window,
    /// A plain tensor: on the HOST rail a view of an allocation the
    /// orchestrator passes (docs/passes/pld-lower-host-tensor-collectives.md step 1).
    Plain,
}

/// One tensor operand of a collective, in the order its builtin (or CHIP)
/// kernel takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    pub role: Role,
    pub storage: Storage,
    /// Its direction in a builtin dispatch or CHIP kernel call.
    pub direction: Direction,
    /// The role whose comm-domain coverage this operand inherits (a signal
    /// lives in its target's domain); `None`: it needs coverage of its own.
    pub inherits: Option<Role>,
}

/// Which reduce ops a collective takes (its `op` attribute).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceRule {
    /// No `op` attribute.
    None,
    /// Any [`ReduceOp`]; Sum when it is left out.
    Any,
    /// `op` must be Sum (and is Sum when left out).
    SumOnly,
}

/// How a collective's `core_num` is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreNum {
    /// It has none: one block.
    None,
    /// A compile-time attribute (allreduce's lanes).
    Attribute,
    /// An optional index operand (the exchanges; `CalAllToAllVBlocks`).
    Operand,
}

/// The nccl-tests bus-bandwidth factor (busbw = algbw x factor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusFactor {
    /// 2 (n - 1) / n.
    AllReduce,
    /// (n - 1) / n: every rank receives all but its own share.
    Exchange,
    /// 1: every byte crosses once.
    One,
    /// Moves no data.
    Zero,
}

impl BusFactor {
    pub fn of(self, ranks: usize) -> f64 {
        let n = ranks.max(1) as f64;
        match self {
            BusFactor::AllReduce => 2.0 * (n - 1.0) / n,
            BusFactor::Exchange => (n - 1.0) / n,
            BusFactor::One => 1.0,
            BusFactor::Zero => 0.0,
        }
    }
}

/// The rails that lower a collective (docs/dialect.md 1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rails {
    /// A HOST orchestrator's call becomes per-device builtin dispatches.
    pub host: bool,
    /// A CHIP orchestrator's call becomes a task of a synthesized kernel.
    pub chip: bool,
    /// An InCore kernel's call is expanded in place.
    pub incore: bool,
}

/// How many rows the target has per rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetRows {
    /// Any shape (every rank holds the whole tensor).
    Any,
    /// One row per rank (`[NR, SIZE]`).
    PerRank,
    /// `NR x MAX_RECV` rows: one slot of rows per peer.
    Slots,
}

/// The facts of one collective: its row of the table.
#[derive(Clone, Copy, Debug)]
pub struct CollectiveFacts {
    pub kind: CollectiveKind,
    /// The op name as printed.
    pub op: &'static str,
    /// Its tensor operands in builtin (kernel) order.
    pub operands: &'static [Operand],
    /// The operand whose storage the result is ("window as result").
    pub alias: Role,
    pub reduce: ReduceRule,
    /// It takes a `root` attribute (a rank index, default 0 on the HOST rail).
    pub root: bool,
    pub core_num: CoreNum,
    pub rails: Rails,
    pub target_rows: TargetRows,
    /// Its result holds numbers a golden can check (a barrier's does not).
    pub numeric: bool,
    /// It publishes per-peer counts into `recv_counts` (with Set notifies).
    pub publishes_counts: bool,
    pub bus: BusFactor,
    /// Element types its target may have on every rail (`None`: any; a
    /// rail's kernels may take fewer, see `chip_dtypes` and the builtins).
    pub dtypes: Option<&'static [&'static str]>,
    /// Element types of its CHIP kernel (empty when it has none).
    pub chip_dtypes: &'static [&'static str],
}

const fn window(role: Role, inherits: Option<Role>) -> Operand {
    Operand {
        role,
        storage: Storage::Window,
        direction: InOut,
        inherits,
    }
}

const fn plain(role: Role, direction: Direction) -> Operand {
    Operand {
        role,
        storage: Storage::Plain,
        direction,
        inherits: None,
    }
}

const TARGET: Operand = window(Role::Target, None);
const SIGNAL: Operand = window(Role::Signal, Some(Role::Target));
const INPUT: Operand = plain(Role::Input, In);
const ALL_RAILS: Rails = Rails {
    host: true,
    chip: false,
    incore: true,
};
const NO_DTYPES: &[&str] = &[];
const EXCHANGE_DTYPES: &[&str] = &["f32", "i8"];

/// The defaults of a data-moving collective of the HOST and InCore rails;
/// each row below names what differs.
const BASE: CollectiveFacts = CollectiveFacts {
    kind: CollectiveKind::AllReduce,
    op: "",
    operands: &[TARGET, SIGNAL],
    alias: Role::Target,
    reduce: ReduceRule::None,
    root: false,
    core_num: CoreNum::None,
    rails: ALL_RAILS,
    target_rows: TargetRows::Any,
    numeric: true,
    publishes_counts: false,
    bus: BusFactor::Exchange,
    dtypes: None,
    chip_dtypes: NO_DTYPES,
};

/// The table, in [`CollectiveKind::ALL`] order.
static FACTS: [CollectiveFacts; 9] = [
    CollectiveFacts {
        kind: CollectiveKind::AllReduce,
        op: AllReduce::NAME,
        reduce: ReduceRule::Any,
        core_num: CoreNum::Attribute,
        bus: BusFactor::AllReduce,
        dtypes: Some(&["f16", "f32"]),
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::Barrier,
        op: Barrier::NAME,
        operands: &[window(Role::Signal, None)],
        alias: Role::Signal,
        numeric: false,
        bus: BusFactor::Zero,
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::Broadcast,
        op: Broadcast::NAME,
        root: true,
        bus: BusFactor::One,
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::ReduceScatter,
        op: ReduceScatter::NAME,
        reduce: ReduceRule::SumOnly,
        target_rows: TargetRows::PerRank,
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::Reduce,
        op: Reduce::NAME,
        reduce: ReduceRule::Any,
        root: true,
        bus: BusFactor::One,
        dtypes: Some(&["f16", "f32"]),
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::AllGather,
        op: AllGather::NAME,
        operands: &[INPUT, TARGET, SIGNAL],
        target_rows: TargetRows::PerRank,
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::AllToAll,
        op: AllToAll::NAME,
        operands: &[INPUT, TARGET, SIGNAL],
        target_rows: TargetRows::PerRank,
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::AllToAllV,
        op: AllToAllV::NAME,
        operands: &[
            INPUT,
            TARGET,
            SIGNAL,
            plain(Role::SendCounts, In),
            window(Role::RecvCounts, Some(Role::Target)),
        ],
        core_num: CoreNum::Operand,
        rails: Rails {
            host: true,
            chip: true,
            incore: true,
        },
        target_rows: TargetRows::Slots,
        publishes_counts: true,
        chip_dtypes: EXCHANGE_DTYPES,
        ..BASE
    },
    CollectiveFacts {
        kind: CollectiveKind::IndexedAllToAllV,
        op: IndexedAllToAllV::NAME,
        // Spec 4.8: send_counts is a window, recv_counts and index plain.
        operands: &[
            INPUT,
            TARGET,
            window(Role::Signal, None),
            Operand {
                direction: In,
                ..window(Role::SendCounts, None)
            },
            plain(Role::RecvCounts, InOut),
            plain(Role::Index, In),
        ],
        core_num: CoreNum::Operand,
        rails: Rails {
            host: false,
            chip: true,
            incore: false,
        },
        target_rows: TargetRows::Slots,
        publishes_counts: true,
        chip_dtypes: EXCHANGE_DTYPES,
        ..BASE
    },
];

impl CollectiveKind {
    /// Every collective, in table order.
    pub const ALL: [CollectiveKind; 9] = [
        CollectiveKind::AllReduce,
        CollectiveKind::Barrier,
        CollectiveKind::Broadcast,
        CollectiveKind::ReduceScatter,
        CollectiveKind::Reduce,
        CollectiveKind::AllGather,
        CollectiveKind::AllToAll,
        CollectiveKind::AllToAllV,
        CollectiveKind::IndexedAllToAllV,
    ];

    /// This collective's row of the table.
    pub fn facts(self) -> &'static CollectiveFacts {
        &FACTS[self as usize]
    }

    /// The op name as printed (`pld.tensor_allreduce`).
    pub fn op_name(self) -> &'static str {
        self.facts().op
    }

    /// The spec's name (`allreduce`, `all_to_all_v`): the op name without
    /// its `pld.tensor_` prefix, and the builtin template package's last
    /// component.
    pub fn spec_name(self) -> &'static str {
        let op = self.op_name();
        op.strip_prefix("pld.tensor_").unwrap_or(op)
    }

    /// The collective an op name denotes, if it is one.
    pub fn from_op_name(name: &str) -> Option<CollectiveKind> {
        Self::ALL.into_iter().find(|k| k.op_name() == name)
    }

    /// The operand of `role`, if the collective has one.
    pub fn operand(self, role: Role) -> Option<&'static Operand> {
        self.facts().operands.iter().find(|o| o.role == role)
    }

    /// The position of `role` among the tensor operands of its builtin or
    /// CHIP kernel.
    pub fn position(self, role: Role) -> Option<usize> {
        self.facts().operands.iter().position(|o| o.role == role)
    }

    /// The HOST rail's builtin dispatch op for a call in `mode` (only
    /// allreduce has modes), `None` when the HOST rail does not lower it.
    pub fn builtin_op(self, mode: AllReduceMode) -> Option<&'static str> {
        Some(match self {
            CollectiveKind::AllReduce => match mode {
                AllReduceMode::Mesh => BuiltinAllReduce::NAME,
                AllReduceMode::Ring => BuiltinAllReduceRing::NAME,
                AllReduceMode::TwoShot => BuiltinAllReduceTwoShot::NAME,
            },
            CollectiveKind::Barrier => BuiltinBarrier::NAME,
            CollectiveKind::Broadcast => BuiltinBroadcast::NAME,
            CollectiveKind::ReduceScatter => BuiltinReduceScatter::NAME,
            CollectiveKind::Reduce => BuiltinReduce::NAME,
            CollectiveKind::AllGather => BuiltinAllGather::NAME,
            CollectiveKind::AllToAll => BuiltinAllToAll::NAME,
            CollectiveKind::AllToAllV => BuiltinAllToAllV::NAME,
            CollectiveKind::IndexedAllToAllV => return None,
        })
    }

    /// The builtin kernel that carries the collective out in `mode`: the
    /// HOST rail's (its dispatch op is [`CollectiveKind::builtin_op`]), or
    /// the CHIP rail's synthesized kernel for a collective only that rail
    /// lowers.
    pub fn builtin(self, mode: AllReduceMode) -> Option<Builtin> {
        Some(match self {
            CollectiveKind::AllReduce => match mode {
                AllReduceMode::Mesh => Builtin::AllReduce,
                AllReduceMode::Ring => Builtin::AllReduceRing,
                AllReduceMode::TwoShot => Builtin::AllReduceTwoShot,
            },
            CollectiveKind::Barrier => Builtin::Barrier,
            CollectiveKind::Broadcast => Builtin::Broadcast,
            CollectiveKind::ReduceScatter => Builtin::ReduceScatter,
            CollectiveKind::Reduce => Builtin::Reduce,
            CollectiveKind::AllGather => Builtin::AllGather,
            CollectiveKind::AllToAll => Builtin::AllToAll,
            CollectiveKind::AllToAllV => Builtin::AllToAllV,
            CollectiveKind::IndexedAllToAllV => Builtin::IndexedAllToAllV,
        })
    }

    /// The collective (and allreduce mode) a builtin dispatch op carries out.
    pub fn from_builtin_op(name: &str) -> Option<(CollectiveKind, AllReduceMode)> {
        for kind in Self::ALL {
            for mode in AllReduceMode::ALL {
                if kind.builtin_op(mode) == Some(name) {
                    return Some((kind, mode));
                }
            }
        }
        None
    }

    /// The reduce op of a call whose `op` attribute reads `given`: Sum when
    /// left out; `None` for a collective that does not reduce.
    pub fn reduce_op(self, given: Option<ReduceOp>) -> Option<ReduceOp> {
        match self.facts().reduce {
            ReduceRule::None => None,
            ReduceRule::Any | ReduceRule::SumOnly => Some(given.unwrap_or(ReduceOp::Sum)),
        }
    }

    /// The blocks a call of its builtin (or CHIP) kernel launches on `ranks`
    /// ranks for a requested `core_num` (spec 8): all_to_all_v
    /// `CalAllToAllVBlocks(P, L)`, indexed_all_to_all_v exactly `L`, the
    /// mesh allreduce `core_num` lanes, every other one block.
    pub fn launched_blocks(
        self,
        mode: AllReduceMode,
        ranks: i64,
        requested: i64,
    ) -> Result<i64, crate::launch::LaunchError> {
        Ok(match (self, mode) {
            (CollectiveKind::AllToAllV, _) => crate::launch::all_to_all_v_blocks(ranks, requested)?,
            (CollectiveKind::IndexedAllToAllV, _)
            | (CollectiveKind::AllReduce, AllReduceMode::Mesh | AllReduceMode::TwoShot) => {
                requested
            }
            (CollectiveKind::AllReduce, AllReduceMode::Ring)
            | (
                CollectiveKind::Barrier
                | CollectiveKind::Broadcast
                | CollectiveKind::ReduceScatter
                | CollectiveKind::Reduce
                | CollectiveKind::AllGather
                | CollectiveKind::AllToAll,
                _,
            ) => 1,
        })
    }

    /// The nccl-tests bus-bandwidth factor on `ranks` ranks.
    pub fn bus_factor(self, ranks: usize) -> f64 {
        self.facts().bus.of(ranks)
    }

    /// The signal an InCore (composite) call uses on `ranks` ranks: a ring
    /// allreduce has one row per step of its two phases and one column per
    /// rank, `[2 (ranks - 1), ranks]`; every other schedule one cell per
    /// rank, `[ranks, 1]` (docs/passes/pld-lower-composite-ops.md).
    pub fn composite_signal_shape(self, mode: AllReduceMode, ranks: i64) -> [i64; 2] {
        match (self, mode) {
            (CollectiveKind::AllReduce, AllReduceMode::Ring) => [2 * (ranks.max(1) - 1), ranks],
            (CollectiveKind::AllReduce, AllReduceMode::Mesh | AllReduceMode::TwoShot)
            | (
                CollectiveKind::Barrier
                | CollectiveKind::Broadcast
                | CollectiveKind::ReduceScatter
                | CollectiveKind::Reduce
                | CollectiveKind::AllGather
                | CollectiveKind::AllToAll
                | CollectiveKind::AllToAllV
                | CollectiveKind::IndexedAllToAllV,
                _,
            ) => [ranks, 1],
        }
    }

    /// The role names of the kernel's tensor operands, in order.
    pub fn roles(self) -> impl Iterator<Item = Role> {
        self.facts().operands.iter().map(|o| o.role)
    }
}

impl std::fmt::Display for CollectiveKind {
    /// The op name, padded as the format asks (tables align on it).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.op_name())
    }
}

/// What one builtin kernel supports (docs/dialect.md 4.9), as the builtin
/// catalog (`pld_builtins`) says. The verifier checks builtin ops against
/// it and the HOST lowering checks user collectives against it before it
/// emits them.
#[derive(Clone, Copy, Debug)]
pub struct Capability {
    pub builtin: Builtin,
}

impl Capability {
    /// Whether the kernel exists for data of element type `dtype` (`f32`).
    pub fn accepts(&self, dtype: &str) -> bool {
        self.builtin.elems().iter().any(|e| e.mlir() == dtype)
    }

    /// The element types, for messages: `f16 or f32`.
    pub fn dtype_names(&self) -> String {
        let names: Vec<&str> = self.builtin.elems().iter().map(|e| e.mlir()).collect();
        names.join(" or ")
    }

    /// Only `op = "sum"`.
    pub fn sum_only(&self) -> bool {
        self.builtin.reductions() == Reductions::SumOnly
    }

    /// The signal must be rank 1 (`[NR]`).
    pub fn rank1_signal(&self) -> bool {
        self.builtin.rank1_signal()
    }
}

/// The capability of builtin `name`, if it is one.
pub fn capability(name: &str) -> Option<Capability> {
    let (kind, mode) = CollectiveKind::from_builtin_op(name)?;
    kind.builtin(mode).map(|builtin| Capability { builtin })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::schema;

    #[test]
    fn rows_are_in_kind_order() {
        for (i, kind) in CollectiveKind::ALL.into_iter().enumerate() {
            assert_eq!(FACTS[i].kind, kind);
            assert_eq!(CollectiveKind::from_op_name(kind.op_name()), Some(kind));
        }
    }

    #[test]
    fn operands_follow_the_irdl_file() {
        let _context = crate::context();
        for kind in CollectiveKind::ALL {
            let schema = schema(kind.op_name()).expect("an IRDL op");
            let groups: Vec<&str> = schema.operands.iter().map(|g| g.name.as_str()).collect();
            let tensors: Vec<&str> = groups
                .iter()
                .copied()
                .filter(|g| *g != "core_num")
                .collect();
            let table: Vec<&str> = kind.roles().map(Role::group).collect();
            assert_eq!(tensors, table, "{kind}");
            assert_eq!(
                groups.contains(&"core_num"),
                kind.facts().core_num == CoreNum::Operand,
                "{kind}"
            );
        }
    }

    #[test]
    fn builtin_ops_carry_the_collective_operands() {
        let _context = crate::context();
        for kind in CollectiveKind::ALL {
            for mode in AllReduceMode::ALL {
                let Some(name) = kind.builtin_op(mode) else {
                    assert!(!kind.facts().rails.host, "{kind}");
                    continue;
                };
                assert!(crate::ops::builtin::BUILTINS.contains(&name));
                // The dispatch op and the catalog's builtin share their name.
                let builtin = kind.builtin(mode).expect("a builtin");
                assert_eq!(name, format!("pld.builtin_{}", builtin.dir()));
                assert_eq!(
                    CollectiveKind::from_builtin_op(name).map(|k| k.0),
                    Some(kind)
                );
                let schema = schema(name).expect("an IRDL op");
                let groups: Vec<&str> = schema
                    .operands
                    .iter()
                    .map(|g| g.name.as_str())
                    .filter(|g| !matches!(*g, "device" | "core_num"))
                    .collect();
                // The builtin allreduce calls its data operand `src`.
                let table: Vec<&str> = kind
                    .roles()
                    .map(|r| match (kind, r) {
                        (CollectiveKind::AllReduce, Role::Target) => "src",
                        _ => r.group(),
                    })
                    .collect();
                assert_eq!(groups, table, "{name}");
            }
        }
    }

    #[test]
    fn display_pads_like_a_string() {
        let kind = CollectiveKind::Barrier;
        assert_eq!(
            format!("{kind:<20}|"),
            format!("{:<20}|", "pld.tensor_barrier")
        );
    }

    #[test]
    fn bus_factors_are_nccl_tests() {
        assert_eq!(CollectiveKind::AllReduce.bus_factor(4), 1.5);
        assert_eq!(CollectiveKind::Broadcast.bus_factor(4), 1.0);
        assert_eq!(CollectiveKind::Barrier.bus_factor(4), 0.0);
        assert_eq!(CollectiveKind::AllGather.bus_factor(4), 0.75);
    }
}
