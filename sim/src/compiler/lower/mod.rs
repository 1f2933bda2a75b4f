//! The sim-only lowering of a converted kernel: PTO pointers become LLVM
//! pointers, scalar loads and stores become LLVM loads and stores, views
//! fold into addresses, and the communication ops become calls of the
//! simulator's device functions (`pld_sim.h`). What is left is `func`,
//! `arith`, `scf` and `llvm`, which MLIR lowers to LLVM IR.
//!
//! Views (`pto.make_tensor_view`, `pto.partition_view`) have no run-time
//! form of their own: each is replaced by the address of its first element
//! (plus, for a tensor view, its shape and strides, which partitions need),
//! computed where the view was made, so it dominates every use; a
//! partition outside its tensor view by a stand-in address its accesses
//! refuse (`views.rs`).
//!
//! A tile buffer becomes a pointer to a block the simulator allocates for
//! the running kernel: its valid rows and columns (two i64), then its
//! row-major data. Loads, stores, puts and gets are calls of
//! `pld_sim_copy` (which checks window bounds and counts remote traffic);
//! element-wise tile math is loops over the valid region, left to LLVM to
//! vectorise.

use melior::{
    dialect::llvm,
    ir::{operation::OperationLike, OperationRef, Value, ValueLike},
    Context,
};
use pld_dialect::ops::pto;
use pld_ir::{self as ir, build::Builder};
use rewriter::{refuse, Op, Rewriter, Step};
pub use rewriter::{Lowered, Refusal};
use std::collections::HashMap;

mod comm;
pub mod declarations;
mod undefined;
pub use undefined::guard_undefined;
mod rewriter;
mod scalar;
mod tiles;
mod views;

/// Whether the lowering of the op named `name` calls a device function
/// that the explorer schedules and checks (a signal, fence or copy).
fn makes_device_call(name: &str) -> bool {
    [
        pto::CommTNotify::NAME,
        pto::CommTWait::NAME,
        pto::CommTTest::NAME,
        pto::FenceBarrierAll::NAME,
        pto::CommTPut::NAME,
        pto::CommTGet::NAME,
        pto::TLoad::NAME,
        pto::TStore::NAME,
        pto::CommTPutAsync::NAME,
        pto::CommTGetAsync::NAME,
        pto::CommWaitAsyncEvent::NAME,
        pto::CommTestAsyncEvent::NAME,
    ]
    .contains(&name)
}

/// The elements of each parameter's tensor, by the `pld.signature` of
/// the converted kernel (parameter i is input i); parameters of a dynamic
/// or non-tensor type are left out.
fn parameter_elements(function: OperationRef, arguments: &[Value]) -> HashMap<usize, i64> {
    let Some(signature) = function
        .attribute(pld_backend::convert::SIGNATURE)
        .ok()
        .and_then(pld_ir::attr::type_value)
        .and_then(|t| melior::ir::r#type::FunctionType::try_from(t).ok())
    else {
        return HashMap::new();
    };
    let mut elements = HashMap::new();
    for (i, argument) in arguments.iter().enumerate() {
        let info = signature.input(i).ok().map(pld_dialect::types::tensor_info);
        if let Some(Ok(Some(info))) = info {
            if let Some(count) = info.static_numel() {
                elements.insert(rewriter::key(*argument), count);
            }
        }
    }
    elements
}

pub(crate) fn lower_kernel<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
) -> Lowered<'c, 'a>
where
    'c: 'a,
{
    let pointer = llvm::r#type::pointer(context, 0);
    // The signature: every `!pto.ptr<T>` parameter is an LLVM pointer.
    let arguments = ir::entry_arguments(function, 0);
    let parameter_elements = parameter_elements(function, &arguments);
    let mut inputs = Vec::new();
    for argument in &arguments {
        let ty = argument.r#type();
        let new = if ty.to_string().starts_with("!pto.ptr<") {
            pointer
        } else if ty.to_string().starts_with("!pto.") {
            return refuse(
                function,
                format!("a kernel parameter of type {ty} is not simulated"),
            );
        } else {
            ty
        };
        inputs.push(new);
    }
    ir::retype_function(context, function, &inputs, &[]);
    for name in [
        "pld.kind",
        pld_backend::convert::SIGNATURE,
        "pto.kernel_kind",
        "pto.entry",
    ] {
        ir::remove_attribute(function, name);
    }
    // The packed entry point the simulator calls (`_mlir_<name>`).
    ir::set_attribute(
        function,
        "llvm.emit_c_interface",
        melior::ir::attribute::Attribute::unit(context),
    );

    let mut rewriter = Rewriter {
        context,
        pointer,
        views: HashMap::new(),
        partitions: HashMap::new(),
        tiles: HashMap::new(),
        dead: Vec::new(),
        parameter_elements,
    };
    for op in ir::collect(function, |n| n.starts_with("pto.")) {
        rewriter.rewrite(op)?;
    }
    // Views last: their consumers are gone now.
    for op in rewriter.dead.into_iter().rev() {
        ir::erase(op);
    }
    // Tile buffers and global pointers (the tensors a loop carries, see
    // convert-pld-to-pto) carried by loops and branches are pointers too;
    // async sessions and events, i64.
    // (arith.select chooses among them too.)
    for op in ir::collect(function, |n| n.starts_with("scf.") || n == "arith.select") {
        let mut values: Vec<Value> = op.results().map(Into::into).collect();
        for region in 0..op.region_count() {
            values.extend(ir::entry_arguments(op, region));
        }
        for value in values {
            let ty = value.r#type().to_string();
            if ty.starts_with("!pto.tile_buf") || ty.starts_with("!pto.ptr") {
                ir::set_type(value, pointer);
            } else if ty == "!pto.async_session" || ty == "!pto.async_event" {
                // Sessions and events are i64 (`comm.rs`).
                ir::set_type(value, ir::i64_type(context));
            }
        }
    }
    Ok(())
}

impl<'c, 'a> Rewriter<'c, 'a>
where
    'c: 'a,
{
    /// Lowers one PTO op, by family.
    fn rewrite(&mut self, op: OperationRef<'c, 'a>) -> Lowered<'c, 'a> {
        let name = ir::op_name(&op);
        let cx = Op {
            op,
            b: Builder::before(self.context, op),
            name: name.clone(),
        };
        if makes_device_call(&name) {
            // The explorer's reports name the op through its site.
            let site =
                crate::runtime::sites::register(&name, crate::compiler::locate::location_of(op));
            let site = self.i64(&cx.b, site);
            self.call(&cx.b, "pld_sim_at", &[site], &[]);
        }
        let step = match name.as_str() {
            pto::AddPtr::NAME
            | pto::LoadScalar::NAME
            | pto::StoreScalar::NAME
            | pto::GetBlockIdx::NAME
            | pto::GetBlockNum::NAME => self.scalar(&cx)?,
            pto::MakeTensorView::NAME | pto::PartitionView::NAME => self.view(&cx)?,
            pto::CommTNotify::NAME
            | pto::CommTWait::NAME
            | pto::CommTTest::NAME
            | pto::CommTPut::NAME
            | pto::CommTGet::NAME
            | pto::FenceBarrierAll::NAME
            | pto::CmoCacheInvalid::NAME
            | pto::PtoBarrier::NAME => self.comm(&cx)?,
            pto::CommBuildAsyncSession::NAME
            | pto::CommTPutAsync::NAME
            | pto::CommTGetAsync::NAME
            | pto::CommWaitAsyncEvent::NAME
            | pto::CommTestAsyncEvent::NAME => self.dma(&cx)?,
            pto::AllocTile::NAME
            | pto::SetValidShape::NAME
            | pto::GetValidShape::NAME
            | pto::TLoad::NAME
            | pto::TStore::NAME
            | pto::TAdd::NAME
            | pto::TMax::NAME
            | pto::TMin::NAME
            | pto::TMul::NAME
            | pto::TFillPad::NAME
            | pto::TFillPadInplace::NAME => self.tile_op(&cx)?,
            _ => return refuse(op, "is not simulated with these operands"),
        };
        if let Step::Replace(replacement) = step {
            if let (Some(new), Some(result)) = (replacement, ir::result_at(op, 0)) {
                ir::replace_all_uses(result, new);
            }
            ir::erase(op);
        }
        Ok(())
    }
}
