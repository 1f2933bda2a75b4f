//! Building IR before an anchor op, including structured control flow.
//!
//! A [`Builder`] inserts ops right before its anchor. Loops and ifs are
//! created with their terminators in place, and the builder for a body is
//! anchored on that terminator, so bodies are filled after the op is in the
//! IR and values of enclosing scopes can be used directly.

use crate as ir;
use melior::{
    dialect::arith,
    ir::{
        attribute::IntegerAttribute, block::BlockLike, operation::OperationBuilder,
        r#type::IntegerType, Block, Location, Operation, OperationRef, Region, RegionLike, Type,
        Value,
    },
    Context,
};

/// Inserts ops before `anchor`.
#[derive(Clone, Copy)]
pub struct Builder<'c, 'a> {
    pub context: &'c Context,
    pub location: Location<'c>,
    pub anchor: OperationRef<'c, 'a>,
}

/// An `scf.for` made by [`Builder::for_loop`].
pub struct ForLoop<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    /// Builds the body (before its `scf.yield`).
    pub body: Builder<'c, 'a>,
    pub induction: Value<'c, 'a>,
    /// The loop-carried values inside the body.
    pub carried: Vec<Value<'c, 'a>>,
    /// The body's `scf.yield`; set its operands when there are carried values.
    pub yield_op: OperationRef<'c, 'a>,
}

/// An `scf.if` made by [`Builder::if_then_else`].
pub struct If<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub then_body: Builder<'c, 'a>,
    pub else_body: Option<Builder<'c, 'a>>,
}

impl<'c, 'a> Builder<'c, 'a>
where
    'c: 'a,
{
    pub fn before(context: &'c Context, anchor: OperationRef<'c, 'a>) -> Self {
        Self {
            context,
            location: melior::ir::operation::OperationLike::location(&anchor),
            anchor,
        }
    }

    /// The same insertion point with another anchor.
    pub fn at(&self, anchor: OperationRef<'c, 'a>) -> Self {
        Self { anchor, ..*self }
    }

    /// Inserts `op`.
    pub fn insert(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        ir::insert_before(self.anchor, op)
    }

    /// Inserts `op` and returns its first result.
    pub fn value(&self, op: Operation<'c>) -> Value<'c, 'a> {
        ir::result(self.insert(op))
    }

    pub fn index_type(&self) -> Type<'c> {
        Type::index(self.context)
    }

    pub fn i32_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 32).into()
    }

    /// An `index` constant.
    pub fn index(&self, value: i64) -> Value<'c, 'a> {
        self.value(constant(
            self.context,
            self.index_type(),
            value,
            self.location,
        ))
    }

    /// A type the rules spell themselves (a typo is a bug, hence the panic).
    pub fn parse_type(&self, text: &str) -> melior::ir::Type<'c> {
        melior::ir::Type::parse(self.context, text)
            .unwrap_or_else(|| panic!("internal: type {text} does not parse"))
    }

    /// An `i32` constant.
    pub fn i32(&self, value: i64) -> Value<'c, 'a> {
        self.value(constant(
            self.context,
            self.i32_type(),
            value,
            self.location,
        ))
    }

    /// `value` cast to `ty` (`arith.index_cast`).
    pub fn index_cast(&self, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
        self.value(arith::index_cast(value, ty, self.location))
    }

    pub fn add(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::addi(lhs, rhs, self.location))
    }

    pub fn sub(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::subi(lhs, rhs, self.location))
    }

    pub fn mul(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::muli(lhs, rhs, self.location))
    }

    /// Unsigned division (the operands are non-negative counts).
    pub fn div(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::divui(lhs, rhs, self.location))
    }

    pub fn min(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::minsi(lhs, rhs, self.location))
    }

    pub fn max(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::maxsi(lhs, rhs, self.location))
    }

    /// Unsigned remainder (the operands are non-negative).
    pub fn rem(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::remui(lhs, rhs, self.location))
    }

    /// `lhs < rhs`, signed (`arith.cmpi slt`).
    pub fn less_than(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::cmpi(
            self.context,
            arith::CmpiPredicate::Slt,
            lhs,
            rhs,
            self.location,
        ))
    }

    /// Extent `index` of a ranked tensor: the constant when static, else
    /// `tensor.dim`.
    pub fn dim(
        &self,
        tensor: Value<'c, 'a>,
        static_extent: Option<i64>,
        index: usize,
    ) -> Value<'c, 'a> {
        if let Some(extent) = static_extent {
            return self.index(extent);
        }
        let index = self.index(index as i64);
        self.value(
            OperationBuilder::new("tensor.dim", self.location)
                .add_operands(&[tensor, index])
                .add_results(&[self.index_type()])
                .build()
                .expect("tensor.dim builds"),
        )
    }

    /// `ceil(lhs / rhs)` for non-negative operands.
    pub fn ceil_div(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let one = self.index(1);
        let bias = self.sub(rhs, one);
        let biased = self.add(lhs, bias);
        self.div(biased, rhs)
    }

    /// `lhs != rhs` (`arith.cmpi ne`).
    pub fn not_equal(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::cmpi(
            self.context,
            arith::CmpiPredicate::Ne,
            lhs,
            rhs,
            self.location,
        ))
    }

    /// `lhs == rhs` (`arith.cmpi eq`).
    pub fn equal(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(arith::cmpi(
            self.context,
            arith::CmpiPredicate::Eq,
            lhs,
            rhs,
            self.location,
        ))
    }

    /// `condition ? then : otherwise` (`arith.select`).
    pub fn select(
        &self,
        condition: Value<'c, 'a>,
        then: Value<'c, 'a>,
        otherwise: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        self.value(arith::select(condition, then, otherwise, self.location))
    }

    /// `ceil(value / multiple) * multiple` for a constant multiple.
    pub fn round_up(&self, value: Value<'c, 'a>, multiple: i64) -> Value<'c, 'a> {
        let bias = self.index(multiple - 1);
        let m = self.index(multiple);
        let biased = self.add(value, bias);
        let quotient = self.div(biased, m);
        self.mul(quotient, m)
    }

    /// `scf.for %i = lower to upper step step iter_args(inits)`.
    pub fn for_loop(
        &self,
        lower: Value<'c, 'a>,
        upper: Value<'c, 'a>,
        step: Value<'c, 'a>,
        inits: &[Value<'c, 'a>],
    ) -> ForLoop<'c, 'a> {
        let index = self.index_type();
        let mut arguments = vec![(index, self.location)];
        let types: Vec<Type> = inits.iter().map(|v| ir::type_of(*v)).collect();
        arguments.extend(types.iter().map(|t| (*t, self.location)));
        let block = Block::new(&arguments);
        block.append_operation(melior::dialect::scf::r#yield(&[], self.location));
        let region = Region::new();
        region.append_block(block);
        let mut operands = vec![lower, upper, step];
        operands.extend_from_slice(inits);
        let op = self.insert(
            OperationBuilder::new("scf.for", self.location)
                .add_operands(&operands)
                .add_results(&types)
                .add_regions([region])
                .build()
                .expect("scf.for builds"),
        );
        let yield_op = ir::region_terminator(op, 0).expect("loop body has its yield");
        let arguments = ir::entry_arguments(op, 0);
        ForLoop {
            op,
            body: self.at(yield_op),
            induction: arguments[0],
            carried: arguments[1..].to_vec(),
            yield_op,
        }
    }

    /// `scf.if %condition` with results of `types` (then an else branch is
    /// made too), or without results and else branch.
    pub fn if_then_else(&self, condition: Value<'c, 'a>, types: &[Type<'c>]) -> If<'c, 'a> {
        let with_else = !types.is_empty();
        let branch = || {
            let block = Block::new(&[]);
            block.append_operation(melior::dialect::scf::r#yield(&[], self.location));
            let region = Region::new();
            region.append_block(block);
            region
        };
        let mut regions = vec![branch()];
        if with_else {
            regions.push(branch());
        } else {
            regions.push(Region::new());
        }
        let op = self.insert(
            OperationBuilder::new("scf.if", self.location)
                .add_operands(&[condition])
                .add_results(types)
                .add_regions_vec(regions)
                .build()
                .expect("scf.if builds"),
        );
        let then_yield = ir::region_terminator(op, 0).expect("then branch has its yield");
        let else_body = if with_else {
            ir::region_terminator(op, 1).map(|y| self.at(y))
        } else {
            None
        };
        If {
            op,
            then_body: self.at(then_yield),
            else_body,
        }
    }

    /// An integer attribute of type `i64`.
    pub fn i64_attribute(&self, value: i64) -> melior::ir::Attribute<'c> {
        IntegerAttribute::new(i64_type(self.context), value).into()
    }
}

/// `arith.constant value : ty` (an integer or index type).
pub fn constant<'c>(
    context: &'c Context,
    ty: Type<'c>,
    value: i64,
    location: Location<'c>,
) -> Operation<'c> {
    arith::constant(context, IntegerAttribute::new(ty, value).into(), location)
}

/// The `i64` type.
pub fn i64_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 64).into()
}
