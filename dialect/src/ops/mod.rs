//! Typed wrappers for every op of both dialects.
//!
//! Operand order and variadicity come from the IRDL files through
//! [`crate::schema`]; [`OpView`] finds the values of a named operand group
//! (reading `operandSegmentSizes` where IRDL needs it) and [`OpBuild`] builds
//! an op from named groups, computing the segment sizes. The per-family
//! modules declare one wrapper per op with [`pld_op!`]: a view struct with
//! one accessor per operand group and a builder with one setter per group.
//! Passes build ops only through these builders.

use crate::schema::{self, Arity, OpSchema};
use melior::{
    ir::{
        attribute::DenseI32ArrayAttribute, operation::OperationBuilder, Attribute, Identifier,
        Location, Operation, OperationRef, Region, Type, Value,
    },
    Context,
};
use pld_ir::op_name;
use std::ops::Range;

pub mod builtin;
pub mod collective;
pub mod ctx;
pub mod fence;
pub mod host;
pub mod pto;
pub mod remote;
pub mod signal;
pub mod tile;
pub mod window;

/// A pld or pto op seen through its IRDL schema.
#[derive(Clone, Copy)]
pub struct OpView<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub schema: &'static OpSchema,
}

impl<'c, 'a> OpView<'c, 'a> {
    /// `None` if the op is not one of pld's or pto's.
    pub fn new(op: OperationRef<'c, 'a>) -> Option<Self> {
        schema::schema(&op_name(&op)).map(|schema| Self { op, schema })
    }

    /// Operand index ranges of every group, or `None` when the op does not
    /// match its schema (wrong count or malformed segment sizes).
    pub fn group_ranges(&self) -> Option<Vec<Range<usize>>> {
        use melior::ir::operation::OperationLike;
        let total = self.op.operand_count();
        let groups = &self.schema.operands;
        let sizes: Vec<usize> = if self.schema.needs_segment_sizes() {
            let attribute = self.op.attribute("operandSegmentSizes").ok()?;
            let sizes = pld_ir::attr::i32_array(attribute)?;
            if sizes.len() != groups.len() {
                return None;
            }
            sizes
                .into_iter()
                .map(|s| usize::try_from(s).ok())
                .collect::<Option<_>>()?
        } else {
            let singles = groups.iter().filter(|g| g.arity == Arity::Single).count();
            let rest = total.checked_sub(singles)?;
            groups
                .iter()
                .map(|g| if g.arity == Arity::Single { 1 } else { rest })
                .collect()
        };
        let mut ranges = Vec::with_capacity(groups.len());
        let mut start = 0;
        for (group, size) in groups.iter().zip(sizes) {
            let ok = match group.arity {
                Arity::Single => size == 1,
                Arity::Optional => size <= 1,
                Arity::Variadic => true,
            };
            if !ok {
                return None;
            }
            ranges.push(start..start + size);
            start += size;
        }
        (start == total).then_some(ranges)
    }

    /// The values of operand group `name` (`None` if there is no such group
    /// or the op does not match its schema).
    pub fn group(&self, name: &str) -> Option<Vec<Value<'c, 'a>>> {
        let index = self.schema.operand_group(name)?;
        let range = self.group_ranges()?.get(index)?.clone();
        range.map(|i| pld_ir::operand(self.op, i)).collect()
    }

    /// The single value of group `name`, if present.
    pub fn one(&self, name: &str) -> Option<Value<'c, 'a>> {
        self.group(name)?.into_iter().next()
    }

    /// Attribute `name`, if set.
    pub fn attribute(&self, name: &str) -> Option<Attribute<'c>> {
        use melior::ir::operation::OperationLike;
        self.op.attribute(name).ok()
    }
}

/// Builds a pld or pto op from named operand groups.
pub struct OpBuild<'c, 'v> {
    context: &'c Context,
    schema: &'static OpSchema,
    location: Location<'c>,
    groups: Vec<Vec<Value<'c, 'v>>>,
    attributes: Vec<(String, Attribute<'c>)>,
    results: Vec<Type<'c>>,
    regions: Vec<Region<'c>>,
}

impl<'c, 'v> OpBuild<'c, 'v> {
    /// Starts an op. `name` must be a pld or pto op: naming another op is a
    /// bug in the caller, so it panics.
    pub fn new(context: &'c Context, name: &str, location: Location<'c>) -> Self {
        let schema = schema::schema(name)
            .unwrap_or_else(|| panic!("OpBuild: '{name}' is not a pld or pto op"));
        Self {
            context,
            schema,
            location,
            groups: vec![Vec::new(); schema.operands.len()],
            attributes: Vec::new(),
            results: Vec::new(),
            regions: Vec::new(),
        }
    }

    /// Sets the values of operand group `group`.
    pub fn operands(mut self, group: &str, values: &[Value<'c, 'v>]) -> Self {
        let index = self.schema.operand_group(group).unwrap_or_else(|| {
            panic!(
                "OpBuild: '{}' has no operand group '{group}'",
                self.schema.name
            )
        });
        self.groups[index] = values.to_vec();
        self
    }

    pub fn attribute(mut self, name: &str, value: Attribute<'c>) -> Self {
        self.attributes.push((name.to_string(), value));
        self
    }

    pub fn result(mut self, ty: Type<'c>) -> Self {
        self.results.push(ty);
        self
    }

    pub fn results(mut self, types: &[Type<'c>]) -> Self {
        self.results.extend_from_slice(types);
        self
    }

    pub fn region(mut self, region: Region<'c>) -> Self {
        self.regions.push(region);
        self
    }

    /// Creates the op (not yet inserted anywhere).
    pub fn build(self) -> Operation<'c> {
        let mut attributes: Vec<(Identifier<'c>, Attribute<'c>)> = self
            .attributes
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        if self.schema.needs_segment_sizes() {
            let sizes: Vec<i32> = self.groups.iter().map(|g| g.len() as i32).collect();
            attributes.push((
                Identifier::new(self.context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(self.context, &sizes).into(),
            ));
        }
        let operands: Vec<Value<'c, 'v>> = self.groups.into_iter().flatten().collect();
        OperationBuilder::new(&self.schema.name, self.location)
            .add_operands(&operands)
            .add_attributes(&attributes)
            .add_results(&self.results)
            .add_regions_vec(self.regions)
            .build()
            .unwrap_or_else(|e| panic!("OpBuild: building {}: {e}", self.schema.name))
    }
}

/// Declares the view and builder of one op. Group arities: `one` (a value),
/// `opt` (an optional value), `many` (a list).
macro_rules! pld_op {
    ($(#[$doc:meta])* $view:ident, $builder:ident = $name:literal {
        $($group:ident : $arity:ident),* $(,)?
    }) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $view<'c, 'a>(pub $crate::ops::OpView<'c, 'a>);

        #[allow(dead_code)]
        impl<'c, 'a> $view<'c, 'a> {
            /// The op's full name.
            pub const NAME: &'static str = $name;

            /// Views `op` as this op, if it is one.
            pub fn cast(op: melior::ir::OperationRef<'c, 'a>) -> Option<Self> {
                (pld_ir::op_name(&op) == $name)
                    .then(|| $crate::ops::OpView::new(op).map(Self))
                    .flatten()
            }

            /// The underlying operation.
            pub fn op(&self) -> melior::ir::OperationRef<'c, 'a> {
                self.0.op
            }

            /// The first result, if the op has one.
            pub fn result(&self) -> Option<melior::ir::Value<'c, 'a>> {
                pld_ir::result_at(self.0.op, 0)
            }

            $( $crate::ops::pld_op!(@get $group $arity); )*

            /// Starts building this op.
            pub fn builder<'v>(
                context: &'c melior::Context,
                location: melior::ir::Location<'c>,
            ) -> $builder<'c, 'v> {
                $builder($crate::ops::OpBuild::new(context, $name, location))
            }
        }

        #[doc = concat!("Builder of `", $name, "`.")]
        pub struct $builder<'c, 'v>(pub $crate::ops::OpBuild<'c, 'v>);

        #[allow(dead_code)]
        impl<'c, 'v> $builder<'c, 'v> {
            $( $crate::ops::pld_op!(@set $group $arity); )*

            /// Sets an attribute.
            pub fn attribute(self, name: &str, value: melior::ir::Attribute<'c>) -> Self {
                Self(self.0.attribute(name, value))
            }

            /// Adds a result type.
            pub fn result(self, ty: melior::ir::Type<'c>) -> Self {
                Self(self.0.result(ty))
            }

            /// Adds a region.
            pub fn region(self, region: melior::ir::Region<'c>) -> Self {
                Self(self.0.region(region))
            }

            /// Creates the op.
            pub fn build(self) -> melior::ir::Operation<'c> {
                self.0.build()
            }
        }
    };
    (@get $group:ident one) => {
        pub fn $group(&self) -> Option<melior::ir::Value<'c, 'a>> {
            self.0.one(stringify!($group))
        }
    };
    (@get $group:ident opt) => {
        pub fn $group(&self) -> Option<melior::ir::Value<'c, 'a>> {
            self.0.one(stringify!($group))
        }
    };
    (@get $group:ident many) => {
        pub fn $group(&self) -> Vec<melior::ir::Value<'c, 'a>> {
            self.0.group(stringify!($group)).unwrap_or_default()
        }
    };
    (@set $group:ident one) => {
        pub fn $group(self, value: melior::ir::Value<'c, 'v>) -> Self {
            Self(self.0.operands(stringify!($group), &[value]))
        }
    };
    (@set $group:ident opt) => {
        pub fn $group(self, value: Option<melior::ir::Value<'c, 'v>>) -> Self {
            let values: Vec<_> = value.into_iter().collect();
            Self(self.0.operands(stringify!($group), &values))
        }
    };
    (@set $group:ident many) => {
        pub fn $group(self, values: &[melior::ir::Value<'c, 'v>]) -> Self {
            Self(self.0.operands(stringify!($group), values))
        }
    };
}
pub(crate) use pld_op;

/// Reads an enum attribute of an op.
pub fn enum_attribute<E: crate::enums::PldEnum>(view: &OpView, name: &str) -> Option<E> {
    E::from_attribute(view.attribute(name)?)
}

/// Reads an integer attribute of an op.
pub fn int_attribute(view: &OpView, name: &str) -> Option<i64> {
    pld_ir::attr::int(view.attribute(name)?)
}
