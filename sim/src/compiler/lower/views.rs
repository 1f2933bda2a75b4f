//! Views have no run-time form: `pto.make_tensor_view` and
//! `pto.partition_view` fold into the address of their first element, with
//! the sizes and strides later ops need. The view ops are erased last, once
//! nothing uses them.

use super::rewriter::{element_type, key, refuse, Lowered, Op, Part, Rewriter, Step};
use melior::ir::{Value, ValueLike};
use pld_dialect::ops::pto;

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
                let strides = view.group("strides").unwrap_or_default();
                self.views
                    .insert(key(result), (operand(0), element, strides));
                self.dead.push(op);
                Ok(Step::Keep)
            }
            pto::PartitionView::NAME => {
                let result: Value = op.result(0).expect("a result").into();
                let Some((base, element, strides)) = self.views.get(&key(operand(0))).cloned()
                else {
                    return refuse(op, "the view does not come from a pto.make_tensor_view");
                };
                let view = pld_dialect::ops::OpView::new(op).expect("a registered op");
                let offsets = view.group("offsets").unwrap_or_default();
                let terms: Vec<_> = offsets
                    .iter()
                    .copied()
                    .zip(strides.iter().copied())
                    .collect();
                let address = self.checked_address(b, base, &terms, element);
                let sizes = view.group("sizes").unwrap_or_default();
                self.partitions.insert(
                    key(result),
                    Part {
                        address,
                        element,
                        sizes,
                        strides,
                    },
                );
                self.dead.push(op);
                Ok(Step::Keep)
            }
            _ => refuse(op, "is not simulated with these operands"),
        }
    }
}
