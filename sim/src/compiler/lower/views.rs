//! Views have no run-time form of their own: `pto.make_tensor_view` and
//! `pto.partition_view` fold into the address of their first element, with
//! the shape, sizes and strides later ops need. A partition is checked
//! against its tensor view's shape where it is made: one that leaves it
//! gets the stand-in address of `pld_sim_view_outside` instead, which its
//! accesses refuse (`crate::runtime::outside`). The view ops are erased
//! last, once nothing uses them.

use super::rewriter::{element_type, key, refuse, Lowered, Op, Part, Rewriter, Step, TensorView};
use melior::{
    dialect::arith,
    ir::{Value, ValueLike},
};
use pld_dialect::ops::pto;
use pld_ir::{self as ir, build::Builder};

impl<'c, 'a> Rewriter<'c, 'a>
where
    'c: 'a,
{
    /// Lowers one op of this family.
    pub(super) fn view(&mut self, op: &Op<'c, 'a>) -> Lowered<'c, 'a, Step<'c, 'a>> {
        let Op { op, b, ref name } = *op;
        let (b, operand) = (&b, |i| super::rewriter::operand(op, i));
        match name.as_str() {
            pto::MakeTensorView::NAME => {
                let result: Value = op.result(0).expect("a result").into();
                let element = element_type(self.context, result.r#type()).expect("a view of T");
                let view = pld_dialect::ops::OpView::new(op).expect("a registered op");
                let tensor = TensorView {
                    base: operand(0),
                    element,
                    shape: view.group("shape").unwrap_or_default(),
                    strides: view.group("strides").unwrap_or_default(),
                };
                self.views.insert(key(result), tensor);
                self.dead.push(op);
                Ok(Step::Keep)
            }
            pto::PartitionView::NAME => {
                let result: Value = op.result(0).expect("a result").into();
                let Some(tensor) = self.views.get(&key(operand(0))).cloned() else {
                    return refuse(op, "the view does not come from a pto.make_tensor_view");
                };
                let view = pld_dialect::ops::OpView::new(op).expect("a registered op");
                let offsets = view.group("offsets").unwrap_or_default();
                let sizes = view.group("sizes").unwrap_or_default();
                let terms: Vec<_> = offsets
                    .iter()
                    .copied()
                    .zip(tensor.strides.iter().copied())
                    .collect();
                let address = self.checked_address(b, tensor.base, &terms, tensor.element);
                let site =
                    crate::runtime::sites::register(name, crate::compiler::locate::location_of(op));
                let bounds = Bounds {
                    offsets: &offsets,
                    sizes: &sizes,
                    shape: &tensor.shape,
                };
                let address = self.inside_tensor(b, address, bounds, site);
                self.partitions.insert(
                    key(result),
                    Part {
                        address,
                        element: tensor.element,
                        sizes,
                        strides: tensor.strides,
                    },
                );
                self.dead.push(op);
                Ok(Step::Keep)
            }
            _ => refuse(op, "is not simulated with these operands"),
        }
    }

    /// `address` when the partition lies inside its tensor view in every
    /// dimension (0 <= offset, 0 <= size, offset + size <= extent), else
    /// the address `pld_sim_view_outside` gives for its first dimension
    /// that leaves it: an access through it is then refused at its op,
    /// wherever the windows lie (`crate::runtime::outside`; under the
    /// explorer `address` itself).
    fn inside_tensor(
        &self,
        b: &Builder<'c, 'a>,
        address: Value<'c, 'a>,
        bounds: Bounds<'_, 'c, 'a>,
        site: i64,
    ) -> Value<'c, 'a> {
        let zero = self.i64(b, 0);
        let mut outside = None;
        let mut first: Option<[Value<'c, 'a>; 4]> = None;
        let dims = bounds.offsets.iter().zip(bounds.sizes).zip(bounds.shape);
        for (dim, ((offset, size), extent)) in dims.enumerate().rev() {
            let (offset, size) = (self.to_i64(b, *offset), self.to_i64(b, *size));
            let extent = self.to_i64(b, *extent);
            let room = b.sub(extent, size);
            let leaves = [
                b.less_than(offset, zero),
                b.less_than(size, zero),
                b.less_than(extent, zero),
                b.less_than(room, offset),
            ]
            .into_iter()
            .reduce(|x, y| b.value(arith::ori(x, y, b.location)))
            .expect("four conditions");
            let numbers = [self.i64(b, dim as i64), offset, size, extent];
            first = Some(match first {
                None => numbers,
                Some(later) => std::array::from_fn(|i| b.select(leaves, numbers[i], later[i])),
            });
            outside = Some(match outside {
                None => leaves,
                Some(any) => b.value(arith::ori(any, leaves, b.location)),
            });
        }
        let (Some(outside), Some(numbers)) = (outside, first) else {
            return address;
        };
        self.stand_in(b, address, outside, numbers, site)
    }

    /// `address`, or when `outside` holds the address
    /// `pld_sim_view_outside` gives for `[dim, offset, size, extent]` (an
    /// `scf.if`, so that the call is made only then).
    pub(super) fn stand_in(
        &self,
        b: &Builder<'c, 'a>,
        address: Value<'c, 'a>,
        outside: Value<'c, 'a>,
        [dim, offset, size, extent]: [Value<'c, 'a>; 4],
        site: i64,
    ) -> Value<'c, 'a> {
        let guard = b.if_then_else(outside, &[self.pointer]);
        let then = &guard.then_body;
        let site = self.i64(then, site);
        let arguments = [address, site, dim, offset, size, extent];
        let call = self.call(then, "pld_sim_view_outside", &arguments, &[self.pointer]);
        let yields = |branch| ir::region_terminator(guard.op, branch).expect("a yield");
        ir::set_operands(yields(0), &[ir::result(call)]);
        ir::set_operands(yields(1), &[address]);
        ir::result(guard.op)
    }
}

/// A partition's offsets and sizes, and its tensor view's shape.
#[derive(Clone, Copy)]
struct Bounds<'s, 'c, 'a> {
    offsets: &'s [Value<'c, 'a>],
    sizes: &'s [Value<'c, 'a>],
    shape: &'s [Value<'c, 'a>],
}
