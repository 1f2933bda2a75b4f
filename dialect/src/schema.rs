//! Operand and attribute layout of every op, read from the IRDL files.
//!
//! The IRDL files are the single source of truth for operand order and
//! variadicity. Rather than restating them in Rust, this module parses the
//! embedded files once, as MLIR (the `irdl` dialect), and reads each
//! `irdl.operation`'s `irdl.operands`, `irdl.results`, `irdl.attributes` and
//! `irdl.regions` ops; it then answers "which operands form group `offsets`
//! of this op".

use melior::ir::{operation::OperationLike, Attribute, Module, OperationRef};
use std::collections::HashMap;
use std::sync::OnceLock;

/// How many values an operand or result group holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one value.
    Single,
    /// Zero or one value.
    Optional,
    /// Any number of values.
    Variadic,
}

/// One named operand or result group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    pub arity: Arity,
}

/// The layout of one op as IRDL defines it.
#[derive(Clone, Debug, Default)]
pub struct OpSchema {
    /// Full op name, e.g. `pld.tensor_allreduce`.
    pub name: String,
    pub operands: Vec<Group>,
    pub results: Vec<Group>,
    /// Required attributes (IRDL `irdl.attributes`).
    pub attributes: Vec<String>,
    pub regions: usize,
}

impl OpSchema {
    /// Whether the operand groups need an `operandSegmentSizes` attribute
    /// (more than one group that is not `Single`).
    pub fn needs_segment_sizes(&self) -> bool {
        self.operands
            .iter()
            .filter(|g| g.arity != Arity::Single)
            .count()
            > 1
    }

    /// Index of the operand group called `name`.
    pub fn operand_group(&self, name: &str) -> Option<usize> {
        self.operands.iter().position(|g| g.name == name)
    }
}

/// Every op of both dialects, by full name.
pub fn schemas() -> &'static HashMap<String, OpSchema> {
    static SCHEMAS: OnceLock<HashMap<String, OpSchema>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let mut all = HashMap::new();
        for text in [crate::PLD_IRDL, crate::PTO_IRDL] {
            for schema in read_irdl(text) {
                all.insert(schema.name.clone(), schema);
            }
        }
        all
    })
}

/// The schema of `name`, if it is a pld or pto op.
pub fn schema(name: &str) -> Option<&'static OpSchema> {
    schemas().get(name)
}

fn read_irdl(text: &str) -> Vec<OpSchema> {
    // A context of its own: the schema is process-wide, contexts are not.
    let context = crate::context::upstream_context();
    let module = Module::parse(&context, text).expect("the embedded IRDL files parse (tested)");
    let mut ops = Vec::new();
    for dialect in pld_ir::collect(module.as_operation(), |n| n == "irdl.dialect") {
        let dialect_name = pld_ir::symbol_name(dialect).unwrap_or_default();
        for operation in pld_ir::collect(dialect, |n| n == "irdl.operation") {
            let name = pld_ir::symbol_name(operation).unwrap_or_default();
            let mut schema = OpSchema {
                name: format!("{dialect_name}.{name}"),
                ..OpSchema::default()
            };
            for part in pld_ir::collect(operation, |_| true) {
                match pld_ir::op_name(&part).as_str() {
                    "irdl.operands" => schema.operands = groups(part),
                    "irdl.results" => schema.results = groups(part),
                    "irdl.regions" => schema.regions = part.operand_count(),
                    "irdl.attributes" => {
                        schema.attributes = strings(part.attribute("attributeValueNames").ok())
                    }
                    _ => {}
                }
            }
            ops.push(schema);
        }
    }
    ops
}

/// The strings of an array-of-strings attribute.
fn strings(attribute: Option<Attribute>) -> Vec<String> {
    attribute
        .and_then(pld_ir::attr::array)
        .unwrap_or_default()
        .into_iter()
        .filter_map(pld_ir::attr::string)
        .collect()
}

/// The named groups of an `irdl.operands` or `irdl.results` op: `names`
/// with the matching entry of `variadicity`, which the C API cannot read,
/// so it is read from its printed form `#irdl<variadicity_array[ single,
/// variadic]>`.
fn groups(op: OperationRef) -> Vec<Group> {
    let names = strings(op.attribute("names").ok());
    let variadicity = op
        .attribute("variadicity")
        .map(|a| a.to_string())
        .unwrap_or_default();
    let kinds: Vec<Arity> = variadicity
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| {
            list.split(',')
                .map(|k| match k.trim() {
                    "variadic" => Arity::Variadic,
                    "optional" => Arity::Optional,
                    _ => Arity::Single,
                })
                .collect()
        })
        .unwrap_or_default();
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| Group {
            name,
            arity: kinds.get(i).copied().unwrap_or(Arity::Single),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_irdl_operation_is_read() {
        for text in [crate::PLD_IRDL, crate::PTO_IRDL] {
            let declared = text
                .lines()
                .filter(|l| l.trim().starts_with("irdl.operation @"))
                .count();
            assert_eq!(read_irdl(text).len(), declared);
        }
    }

    #[test]
    fn groups_and_arity() {
        let put = schema("pld.tile_put").expect("tile_put");
        let names: Vec<_> = put.operands.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "dst",
                "peer",
                "src",
                "stage",
                "pong",
                "dst_offsets",
                "src_offsets",
                "shape"
            ]
        );
        assert_eq!(put.operands[4].arity, Arity::Optional);
        assert!(put.needs_segment_sizes());
        let notify = schema("pld.system_notify").expect("notify");
        assert!(!notify.needs_segment_sizes());
        assert_eq!(notify.attributes, ["op"]);
        assert_eq!(schema("pld.comm_domain").expect("scope").regions, 1);
        assert_eq!(
            schema("pto.comm_tnotify").expect("tnotify").attributes,
            ["notifyOp"]
        );
    }
}
