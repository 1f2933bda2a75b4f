//! Operand and attribute layout of every op, read from the IRDL files.
//!
//! The IRDL files are the single source of truth for operand order and
//! variadicity. Rather than restating them in Rust, this module reads the
//! `irdl.operation` blocks of the embedded files once (they are written in a
//! simple one-statement-per-line style that this reader relies on; a unit
//! test checks every op of both files is found) and answers "which operands
//! form group `offsets` of this op".

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
    let mut dialect = String::new();
    let mut ops = Vec::new();
    let mut current: Option<OpSchema> = None;
    for raw in text.lines() {
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("irdl.dialect @") {
            dialect = rest.trim_end_matches('{').trim().to_string();
        } else if let Some(rest) = line.strip_prefix("irdl.operation @") {
            if let Some(done) = current.take() {
                ops.push(done);
            }
            let name = rest.trim_end_matches('{').trim();
            current = Some(OpSchema {
                name: format!("{dialect}.{name}"),
                ..OpSchema::default()
            });
        } else if line.starts_with("irdl.type @") || line.starts_with("irdl.attribute @") {
            if let Some(done) = current.take() {
                ops.push(done);
            }
        } else if let Some(op) = current.as_mut() {
            if let Some(list) = inside(line, "irdl.operands(") {
                op.operands = groups(list);
            } else if let Some(list) = inside(line, "irdl.results(") {
                op.results = groups(list);
            } else if let Some(list) = inside(line, "irdl.regions(") {
                op.regions = list.split(',').filter(|s| !s.trim().is_empty()).count();
            } else if let Some(rest) = line.strip_prefix("irdl.attributes {") {
                op.attributes = rest
                    .trim_end_matches('}')
                    .split(',')
                    .filter_map(|entry| {
                        let name = entry.split('=').next()?.trim().trim_matches('"');
                        (!name.is_empty()).then(|| name.to_string())
                    })
                    .collect();
            }
        }
    }
    if let Some(done) = current.take() {
        ops.push(done);
    }
    ops
}

fn inside<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    line.strip_prefix(prefix)?.strip_suffix(')')
}

fn groups(list: &str) -> Vec<Group> {
    list.split(',')
        .filter_map(|entry| {
            let (name, constraint) = entry.split_once(':')?;
            let constraint = constraint.trim();
            let arity = if constraint.starts_with("variadic ") {
                Arity::Variadic
            } else if constraint.starts_with("optional ") {
                Arity::Optional
            } else {
                Arity::Single
            };
            Some(Group {
                name: name.trim().to_string(),
                arity,
            })
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
