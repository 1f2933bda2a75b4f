//! Scalar memory and the block index: `pto.addptr`, `pto.load_scalar`,
//! `pto.store_scalar` become LLVM pointer arithmetic, loads and stores;
//! `pto.get_block_idx`/`pto.get_block_num` are 0 and 1 (one core per
//! kernel).

use super::rewriter::{element_type, Lowered, Op, Rewriter, Step};
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
        let (b, operand) = (&b, |i| super::rewriter::operand(op, i));
        let replacement: Option<Value<'c, 'a>> = match name.as_str() {
            pto::AddPtr::NAME => {
                let element = element_type(self.context, op.result(0).expect("a result").r#type())
                    .expect("!pto.ptr<T>");
                Some(self.offset(b, operand(0), operand(1), element))
            }
            pto::LoadScalar::NAME => {
                let ty = op.result(0).expect("a result").r#type();
                // An i64 is a CommContext slot: one of its header, read as
                // it is, or a peer's window base, checked (below).
                if ty == ir::i64_type(self.context) {
                    return Ok(Step::Replace(Some(self.context_slot(b, op, name))));
                }
                let address = {
                    let one = self.i64(b, 1);
                    let address = self.checked_address(b, operand(0), &[(operand(1), one)], ty);
                    self.inside_parameter(b, (op, name), address, operand(0), operand(1))
                };
                let address = self.announce_scalar(b, op, name, address, ty, false);
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
                let one = self.i64(b, 1);
                let address =
                    self.checked_address(b, operand(1), &[(operand(2), one)], value.r#type());
                let address = self.inside_parameter(b, (op, name), address, operand(1), operand(2));
                let address = self.announce_scalar(b, op, name, address, value.r#type(), true);
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
            _ => return super::rewriter::refuse(op, "is not simulated with these operands"),
        };
        Ok(Step::Replace(replacement))
    }

    /// The CommContext slot `pto.load_scalar` reads: a slot of the header
    /// (a constant below windowsIn's, the rank pair) as it is; any other,
    /// a peer's window base, through `pld_sim_context_slot`, which refuses
    /// a peer that is no rank of the comm domain (peer 64 read
    /// windowsOut[0], a peer past the context other memory).
    fn context_slot(
        &self,
        b: &pld_ir::build::Builder<'c, 'a>,
        op: melior::ir::OperationRef<'c, 'a>,
        name: &str,
    ) -> Value<'c, 'a> {
        let (context, slot) = (
            super::rewriter::operand(op, 0),
            super::rewriter::operand(op, 1),
        );
        let ty = ir::i64_type(self.context);
        let first = pld_runtime_sys::abi::WINDOWS_IN_OFFSET / 8;
        if ir::walk::constant_int(slot).is_some_and(|s| (0..first).contains(&s)) {
            let address = self.offset(b, context, slot, ty);
            let load = llvm::load(self.context, address, ty, b.location, Default::default());
            return b.value(load);
        }
        let site = crate::runtime::sites::register(name, crate::compiler::locate::location_of(op));
        let (slot, site) = (self.to_i64(b, slot), self.i64(b, site));
        ir::result(self.call(b, "pld_sim_context_slot", &[context, slot, site], &[ty]))
    }

    /// `address`, or a stand-in refused at the access, when `pointer` is a
    /// kernel parameter's own and the element `offset` lies outside its
    /// tensor (a `pld.tensor_read` past its tensor read the next
    /// parameter of the window, or another rank's window, unreported).
    /// Only the flat extent is known here: an index past one dimension that
    /// stays inside the tensor is not caught.
    fn inside_parameter(
        &self,
        b: &pld_ir::build::Builder<'c, 'a>,
        (op, name): (melior::ir::OperationRef<'c, 'a>, &str),
        address: Value<'c, 'a>,
        pointer: Value<'c, 'a>,
        offset: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let Some(&elements) = self.parameter_elements.get(&super::rewriter::key(pointer)) else {
            return address;
        };
        let offset = self.to_i64(b, offset);
        let (zero, extent) = (self.i64(b, 0), self.i64(b, elements));
        let below = b.less_than(offset, zero);
        let past = b.less_than(b.sub(extent, self.i64(b, 1)), offset);
        let outside = b.value(melior::dialect::arith::ori(below, past, b.location));
        let numbers = [self.i64(b, -1), offset, self.i64(b, 1), extent];
        let site = crate::runtime::sites::register(name, crate::compiler::locate::location_of(op));
        self.stand_in(b, address, outside, numbers, site)
    }

    /// Tells the simulator of a scalar access of `ty` at `address`
    /// (`pld_sim_scalar`), which checks it as a copy's side and returns the
    /// address to access (a scratch cell instead, when it refused it), and
    /// which explore mode checks like a copy when it is in a window. Loads
    /// of `i64` are CommContext slots (no window holds them: data tensors
    /// are f16, f32, i32 or i8) and are not announced.
    fn announce_scalar(
        &self,
        b: &pld_ir::build::Builder<'c, 'a>,
        op: melior::ir::OperationRef<'c, 'a>,
        name: &str,
        address: Value<'c, 'a>,
        ty: melior::ir::Type<'c>,
        write: bool,
    ) -> Value<'c, 'a> {
        if ty == ir::i64_type(self.context) {
            return address;
        }
        let Some(bytes) = pld_ir::types::byte_width(ty) else {
            return address;
        };
        let site = crate::runtime::sites::register(name, crate::compiler::locate::location_of(op));
        let (bytes, site) = (self.i64(b, bytes), self.i64(b, site));
        let write = b.i32(i64::from(write));
        let pointer = address.r#type();
        ir::result(self.call(
            b,
            "pld_sim_scalar",
            &[address, bytes, write, site],
            &[pointer],
        ))
    }
}
