//! The ABI enums of docs/dialect.md 3 and the other string-valued enums of the
//! dialect. In IR an enum is an attribute holding the member name, e.g.
//! `#pld.reduce_op<"sum">`; [`PldEnum::abi`] is the member's ABI value.

use melior::{ir::Attribute, Context};
use std::fmt;
use std::str::FromStr;

/// Common behaviour of the dialect's enums.
pub trait PldEnum: Sized + Copy + fmt::Display + FromStr + 'static {
    /// Attribute mnemonic, e.g. `pld.reduce_op`.
    const ATTR: &'static str;
    /// Every member in ABI order.
    const ALL: &'static [Self];

    /// The member's ABI value (its position in [`Self::ALL`]).
    fn abi(self) -> i32 {
        Self::ALL
            .iter()
            .position(|m| m.to_string() == self.to_string())
            .unwrap_or(0) as i32
    }

    /// The member with ABI value `value`.
    fn from_abi(value: i32) -> Option<Self> {
        usize::try_from(value)
            .ok()
            .and_then(|i| Self::ALL.get(i).copied())
    }

    /// Builds the IR attribute, e.g. `#pld.reduce_op<"sum">`.
    fn to_attribute<'c>(self, context: &'c Context) -> Attribute<'c> {
        let text = format!("#{}<\"{}\">", Self::ATTR, self);
        Attribute::parse(context, &text)
            .unwrap_or_else(|| panic!("enum attribute {text} does not parse"))
    }

    /// The member name held by an attribute of this enum's kind, whether or
    /// not it names a member (`None` when the attribute is of another kind).
    fn raw_name(attribute: Attribute) -> Option<String> {
        pld_ir::attr::enum_payload(attribute, Self::ATTR)
    }

    /// Reads the member from an attribute of this enum's kind.
    fn from_attribute(attribute: Attribute) -> Option<Self> {
        Self::raw_name(attribute)?.parse().ok()
    }

    /// "a, b, or c" list of member names for diagnostics.
    fn member_list() -> String {
        let names: Vec<String> = Self::ALL.iter().map(|m| format!("\"{m}\"")).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{}, or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }
}

macro_rules! pld_enum {
    ($(#[$doc:meta])* $name:ident, $attr:literal { $($(#[$mdoc:meta])* $member:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$mdoc])* $member),+ }

        impl PldEnum for $name {
            const ATTR: &'static str = $attr;
            const ALL: &'static [Self] = &[$($name::$member),+];
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $($name::$member => $text),+ })
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$member),)+
                    _ => Err(format!(
                        "unknown {} \"{}\" (expected {})",
                        stringify!($name), s, <$name as PldEnum>::member_list()
                    )),
                }
            }
        }
    };
}

pld_enum! {
    /// Reduction of allreduce / reduce_scatter (docs/dialect.md 3): Sum=0 Max=1 Min=2 Prod=3.
    ReduceOp, "pld.reduce_op" { Sum = "sum", Max = "max", Min = "min", Prod = "prod" }
}

pld_enum! {
    /// Signal update of `notify` (docs/dialect.md 3): AtomicAdd=0 Set=1.
    NotifyOp, "pld.notify_op" { AtomicAdd = "atomic_add", Set = "set" }
}

pld_enum! {
    /// Comparison of `wait` (docs/dialect.md 3): Eq=0 Ge=1.
    WaitCmp, "pld.wait_cmp" { Eq = "eq", Ge = "ge" }
}

pld_enum! {
    /// Accumulation of remote stores and puts (docs/dialect.md 3): None=0 Add=1.
    AtomicType, "pld.atomic_type" { None = "none", Add = "add" }
}

pld_enum! {
    /// What a `func.func` is, from its `pld.kind` attribute (docs/dialect.md 1.1).
    FuncKind, "pld.func_kind" {
        /// HOST orchestrator: allocates windows, dispatches to devices.
        Host = "host",
        /// CHIP (L2) orchestrator: submits kernels on one device.
        Chip = "chip",
        /// InCore kernel: tile ops, remote ops, composite collectives.
        InCore = "incore",
        /// Vector (AIV) kernel.
        Aiv = "aiv",
        /// Cube (AIC) kernel.
        Aic = "aic",
    }
}

pld_enum! {
    /// Call direction of a kernel argument.
    Direction, "pld.direction" { In = "in", Out = "out", InOut = "inout", Scalar = "scalar" }
}

impl FuncKind {
    /// Device code (InCore, AIV, AIC): may hold tile and remote ops.
    pub fn is_device(self) -> bool {
        matches!(self, FuncKind::InCore | FuncKind::Aiv | FuncKind::Aic)
    }

    /// The spec's name for the kind, for diagnostics.
    pub fn describe(self) -> &'static str {
        match self {
            FuncKind::Host => "HOST orchestrator",
            FuncKind::Chip => "CHIP orchestrator",
            FuncKind::InCore => "InCore kernel",
            FuncKind::Aiv => "AIV kernel",
            FuncKind::Aic => "AIC kernel",
        }
    }
}

/// Schedule of an allreduce (`mode` attribute; not an ABI enum).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllReduceMode {
    /// One-shot: every rank reads every peer's chunk (the default).
    Mesh,
    /// `2 (P - 1)` steps around the ring of ranks.
    Ring,
    /// Reduce-scatter by reading the peers' shards of this rank's segment,
    /// then gather the reduced segments (docs/algorithms.md).
    TwoShot,
}

impl AllReduceMode {
    /// Every schedule, in the order the cost model prefers among equals
    /// (the default first; two-shot before the ring, which moves the same
    /// bytes in more steps).
    pub const ALL: [AllReduceMode; 3] = [
        AllReduceMode::Mesh,
        AllReduceMode::TwoShot,
        AllReduceMode::Ring,
    ];
}

impl fmt::Display for AllReduceMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AllReduceMode::Mesh => "mesh",
            AllReduceMode::Ring => "ring",
            AllReduceMode::TwoShot => "two_shot",
        })
    }
}

impl FromStr for AllReduceMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "mesh" => Ok(AllReduceMode::Mesh),
            "ring" => Ok(AllReduceMode::Ring),
            "two_shot" => Ok(AllReduceMode::TwoShot),
            _ => Err(format!(
                "mode must be \"mesh\", \"ring\", \"two_shot\" or \"auto\", got \"{s}\""
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abi_values_match_the_spec() {
        assert_eq!(
            ReduceOp::ALL.iter().map(|m| m.abi()).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        assert_eq!(ReduceOp::Prod.abi(), 3);
        assert_eq!(NotifyOp::AtomicAdd.abi(), 0);
        assert_eq!(NotifyOp::Set.abi(), 1);
        assert_eq!(WaitCmp::Eq.abi(), 0);
        assert_eq!(WaitCmp::Ge.abi(), 1);
        assert_eq!(AtomicType::None.abi(), 0);
        assert_eq!(AtomicType::Add.abi(), 1);
        assert_eq!(ReduceOp::from_abi(2), Some(ReduceOp::Min));
        assert_eq!(ReduceOp::from_abi(4), None);
    }

    #[test]
    fn display_and_parse_round_trip() {
        for m in ReduceOp::ALL {
            assert_eq!(m.to_string().parse::<ReduceOp>(), Ok(*m));
        }
        assert!("avg".parse::<ReduceOp>().is_err());
        assert_eq!(
            ReduceOp::member_list(),
            "\"sum\", \"max\", \"min\", or \"prod\""
        );
    }

    #[test]
    fn attribute_round_trip() {
        let context = crate::context();
        let attribute = WaitCmp::Ge.to_attribute(&context);
        assert_eq!(attribute.to_string(), "#pld.wait_cmp<\"ge\">");
        assert_eq!(WaitCmp::from_attribute(attribute), Some(WaitCmp::Ge));
        assert_eq!(ReduceOp::from_attribute(attribute), None);
    }
}
