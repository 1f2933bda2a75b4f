//! Scalar memory and the block index: `pto.addptr`, `pto.load_scalar`,
//! `pto.store_scalar` become LLVM pointer arithmetic, loads and stores;
//! `pto.get_block_idx`/`pto.get_block_num` are 0 and 1 (one core per
//! kernel).

use super::{element_type, Lowered, Op, Rewriter, Step};
use melior::{
    dialect::llvm,
    ir::{Value, ValueLike},
};
use pld_dialect::ops::pto;
use pld_ir::{self as ir};

impl<'c, 'a> Rewriter<'c, 'a>
where
    'c: 'a,
{
    /// Lowers one op of this family.
    pub(super) fn scalar(&mut self, op: &Op<'c, 'a>) -> Lowered<'c, 'a, Step<'c, 'a>> {
        let Op { op, b, ref name } = *op;
        let (b, operand) = (&b, |i| super::operand(op, i));
        let replacement: Option<Value<'c, 'a>> = match name.as_str() {
            pto::AddPtr::NAME => {
                let element = element_type(self.context, op.result(0).expect("a result").r#type())
                    .expect("!pto.ptr<T>");
                Some(self.offset(b, operand(0), operand(1), element))
            }
            pto::LoadScalar::NAME => {
                let ty = op.result(0).expect("a result").r#type();
                let address = self.offset(b, operand(0), operand(1), ty);
                Some(b.value(llvm::load(
                    self.context,
                    address,
                    ty,
                    b.location,
                    Default::default(),
                )))
            }
            pto::StoreScalar::NAME => {
                let value = operand(0);
                let address = self.offset(b, operand(1), operand(2), value.r#type());
                b.insert(llvm::store(
                    self.context,
                    value,
                    address,
                    b.location,
                    Default::default(),
                ));
                None
            }
            // One core per kernel.
            pto::GetBlockIdx::NAME | pto::GetBlockNum::NAME => {
                let value = i64::from(name == pto::GetBlockNum::NAME);
                Some(b.value(ir::constant(
                    self.context,
                    ir::i64_type(self.context),
                    value,
                    b.location,
                )))
            }
            _ => return super::refuse(op, "is not simulated with these operands"),
        };
        Ok(Step::Replace(replacement))
    }
}
