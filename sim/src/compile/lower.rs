//! The sim-only lowering of a converted kernel: PTO pointers become LLVM
//! pointers, scalar loads and stores become LLVM loads and stores, views
//! fold into addresses, and the communication ops become calls of the
//! simulator's device functions (`pld_sim.h`). What is left is `func`,
//! `arith`, `scf` and `llvm`, which MLIR lowers to LLVM IR.
//!
//! Views (`pto.make_tensor_view`, `pto.partition_view`) have no run-time
//! form: each is replaced by the address of its first element (plus, for a
//! tensor view, its strides, which partitions need), computed where the
//! view was made, so it dominates every use.
//!
//! Not simulated yet: tile buffers and the data movement between tiles and
//! views (`pto.alloc_tile`, `pto.tload`, `pto.tstore`, `pto.comm.tput`, ...);
//! a kernel using them is refused with the op's location.

use melior::{
    dialect::{func, llvm},
    ir::{
        attribute::{AttributeLike, FlatSymbolRefAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationPrintingFlags},
        r#type::{FunctionType, TypeLike},
        Location, Module, OperationRef, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pld_dialect::ops::op_name;
use pld_lowering::{build::Builder, ir};
use pld_runtime_sys::{PLD_NOTIFY_ATOMIC_ADD, PLD_NOTIFY_SET, PLD_WAIT_EQ, PLD_WAIT_GE};
use std::collections::HashMap;

/// Why a kernel cannot be simulated: the op and the reason.
pub struct Refusal<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

type Lowered<'c, 'a, T = ()> = Result<T, Refusal<'c, 'a>>;

fn refuse<'c, 'a, T>(op: OperationRef<'c, 'a>, message: impl Into<String>) -> Lowered<'c, 'a, T> {
    Err(Refusal {
        op,
        message: message.into(),
    })
}

/// The simulator's device functions, declared for the kernels.
const DEVICE_FUNCTIONS: &str = r#"
func.func private @pld_sim_notify(!llvm.ptr, i32, i32)
func.func private @pld_sim_wait(!llvm.ptr, i32, i32)
func.func private @pld_sim_test(!llvm.ptr, i32, i32) -> i32
func.func private @pld_sim_fence()
"#;

/// Lowers every kernel of `module` (functions with `pto.kernel_kind`) and
/// removes every other function (orchestrators are the simulator's, not
/// compiled code). Returns the kernels' names.
pub fn lower_module<'c, 'a>(
    context: &'c Context,
    module: &'a Module<'c>,
) -> Lowered<'c, 'a, Vec<String>>
where
    'c: 'a,
{
    let body = module.body();
    let mut kernels = Vec::new();
    let mut op = body.first_operation();
    while let Some(current) = op {
        op = current.next_in_block();
        let kernel = op_name(&current) == "func.func"
            && current.attribute("pto.kernel_kind").is_ok()
            && current
                .region(0)
                .ok()
                .and_then(|r| r.first_block())
                .is_some();
        if kernel {
            lower_kernel(context, current)?;
            kernels.push(
                current
                    .attribute("sym_name")
                    .ok()
                    .and_then(pld_dialect::attr::string)
                    .unwrap_or_default(),
            );
        } else {
            ir::erase(current);
        }
    }
    let declarations = Module::parse(context, DEVICE_FUNCTIONS).expect("declarations parse");
    let mut declaration = declarations.body().first_operation();
    while let Some(current) = declaration {
        declaration = current.next_in_block();
        // SAFETY: a fresh copy, owned by the block it is appended to.
        body.append_operation(unsafe {
            melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(current.to_raw()))
        });
    }
    Ok(kernels)
}

fn set_attribute(op: OperationRef, name: &str, value: melior::ir::Attribute) {
    let name = melior::StringRef::new(name);
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), name.to_raw(), value.to_raw()) }
}

fn remove_attribute(op: OperationRef, name: &str) {
    let name = melior::StringRef::new(name);
    unsafe { mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), name.to_raw()) };
}

/// The element type of a `!pto.ptr<T>` or a view of `T`, from its text.
fn element_type<'c>(context: &'c Context, ty: Type<'c>) -> Option<Type<'c>> {
    let text = ty.to_string();
    let inner = text
        .strip_prefix("!pto.ptr<")
        .map(|t| t.trim_end_matches('>').to_string())
        .or_else(|| {
            let shape = text.split_once("tensor<")?.1;
            let element = shape.rsplit('x').next()?;
            Some(element.trim_end_matches('>').to_string())
        })?;
    Type::parse(context, &inner)
}

fn lower_kernel<'c, 'a>(context: &'c Context, function: OperationRef<'c, 'a>) -> Lowered<'c, 'a>
where
    'c: 'a,
{
    let pointer = llvm::r#type::pointer(context, 0);
    // The signature: every `!pto.ptr<T>` parameter is an LLVM pointer.
    let arguments = ir::entry_arguments(function, 0);
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
        unsafe { mlir_sys::mlirValueSetType(argument.to_raw(), new.to_raw()) };
        inputs.push(new);
    }
    let ty = FunctionType::new(context, &inputs, &[]);
    set_attribute(
        function,
        "function_type",
        melior::ir::attribute::TypeAttribute::new(ty.into()).into(),
    );
    for name in ["pld.kind", "pto.kernel_kind", "pto.entry"] {
        remove_attribute(function, name);
    }
    // The packed entry point the simulator calls (`_mlir_<name>`).
    set_attribute(
        function,
        "llvm.emit_c_interface",
        melior::ir::attribute::Attribute::unit(context),
    );

    let mut rewriter = Rewriter {
        context,
        pointer,
        views: HashMap::new(),
        partitions: HashMap::new(),
        dead: Vec::new(),
    };
    for op in ir::collect(function, |n| n.starts_with("pto.")) {
        rewriter.rewrite(op)?;
    }
    // Views last: their consumers are gone now.
    for op in rewriter.dead.into_iter().rev() {
        ir::erase(op);
    }
    Ok(())
}

struct Rewriter<'c, 'a> {
    context: &'c Context,
    pointer: Type<'c>,
    /// Tensor view -> (base address, element type, strides).
    views: HashMap<usize, (Value<'c, 'a>, Type<'c>, Vec<Value<'c, 'a>>)>,
    /// Partition view -> address of its first element.
    partitions: HashMap<usize, Value<'c, 'a>>,
    /// View ops, erased once nothing uses them.
    dead: Vec<OperationRef<'c, 'a>>,
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

impl<'c, 'a> Rewriter<'c, 'a>
where
    'c: 'a,
{
    /// `base + offset` elements of `element`.
    fn offset(
        &self,
        b: &Builder<'c, 'a>,
        base: Value<'c, 'a>,
        offset: Value<'c, 'a>,
        element: Type<'c>,
    ) -> Value<'c, 'a> {
        let i64_type = ir::i64_type(self.context);
        let wide = if offset.r#type() == i64_type {
            offset
        } else {
            b.index_cast(offset, i64_type)
        };
        b.value(llvm::get_element_ptr_dynamic(
            self.context,
            base,
            &[wide],
            element,
            self.pointer,
            b.location,
        ))
    }

    fn call(
        &self,
        b: &Builder<'c, 'a>,
        name: &str,
        arguments: &[Value<'c, 'a>],
        results: &[Type<'c>],
    ) -> OperationRef<'c, 'a> {
        b.insert(func::call(
            self.context,
            FlatSymbolRefAttribute::new(self.context, name),
            arguments,
            results,
            b.location,
        ))
    }

    fn partition(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Lowered<'c, 'a, Value<'c, 'a>> {
        match self.partitions.get(&key(value)) {
            Some(address) => Ok(*address),
            None => refuse(
                op,
                "the signal view does not come from a pto.partition_view",
            ),
        }
    }

    fn rewrite(&mut self, op: OperationRef<'c, 'a>) -> Lowered<'c, 'a> {
        let b = Builder::before(self.context, op);
        let operand = |i: usize| ir::operand(op, i).expect("verified operand count");
        let name = op_name(&op);
        let replacement: Option<Value<'c, 'a>> = match name.as_str() {
            "pto.addptr" => {
                let element = element_type(self.context, op.result(0).expect("a result").r#type())
                    .expect("!pto.ptr<T>");
                Some(self.offset(&b, operand(0), operand(1), element))
            }
            "pto.load_scalar" => {
                let ty = op.result(0).expect("a result").r#type();
                let address = self.offset(&b, operand(0), operand(1), ty);
                Some(b.value(llvm::load(
                    self.context,
                    address,
                    ty,
                    b.location,
                    Default::default(),
                )))
            }
            "pto.store_scalar" => {
                let value = operand(0);
                let address = self.offset(&b, operand(1), operand(2), value.r#type());
                b.insert(llvm::store(
                    self.context,
                    value,
                    address,
                    b.location,
                    Default::default(),
                ));
                None
            }
            "pto.make_tensor_view" => {
                let result: Value = op.result(0).expect("a result").into();
                let element = element_type(self.context, result.r#type()).expect("a view of T");
                let view = pld_dialect::ops::OpView::new(op).expect("a registered op");
                let strides = view.group("strides").unwrap_or_default();
                self.views
                    .insert(key(result), (operand(0), element, strides));
                self.dead.push(op);
                return Ok(());
            }
            "pto.partition_view" => {
                let result: Value = op.result(0).expect("a result").into();
                let Some((base, element, strides)) = self.views.get(&key(operand(0))).cloned()
                else {
                    return refuse(op, "the view does not come from a pto.make_tensor_view");
                };
                let view = pld_dialect::ops::OpView::new(op).expect("a registered op");
                let offsets = view.group("offsets").unwrap_or_default();
                let mut linear = b.index(0);
                for (offset, stride) in offsets.iter().zip(&strides) {
                    let term = b.mul(*offset, *stride);
                    linear = b.add(linear, term);
                }
                let address = self.offset(&b, base, linear, element);
                self.partitions.insert(key(result), address);
                self.dead.push(op);
                return Ok(());
            }
            "pto.comm_tnotify" => {
                let payload = op
                    .attribute("notifyOp")
                    .ok()
                    .and_then(|a| pld_dialect::attr::enum_payload(a, "pto.notify_op"));
                let code = match payload.as_deref() {
                    Some("atomic_add") => PLD_NOTIFY_ATOMIC_ADD,
                    Some("set") => PLD_NOTIFY_SET,
                    _ => return refuse(op, "unknown notifyOp"),
                };
                let cell = self.partition(op, operand(0))?;
                let code = b.i32(i64::from(code));
                self.call(&b, "pld_sim_notify", &[cell, operand(1), code], &[]);
                None
            }
            "pto.comm_twait" | "pto.comm_ttest" => {
                let payload = op
                    .attribute("cmp")
                    .ok()
                    .and_then(|a| pld_dialect::attr::enum_payload(a, "pto.wait_cmp"));
                let code = match payload.as_deref() {
                    Some("eq") => PLD_WAIT_EQ,
                    Some("ge") => PLD_WAIT_GE,
                    other => {
                        return refuse(
                            op,
                            format!("the simulator waits with eq or ge, not {other:?}"),
                        )
                    }
                };
                let cell = self.partition(op, operand(0))?;
                let code = b.i32(i64::from(code));
                if name == "pto.comm_twait" {
                    self.call(&b, "pld_sim_wait", &[cell, operand(1), code], &[]);
                    None
                } else {
                    let i32_type = b.i32_type();
                    let flag = ir::result(self.call(
                        &b,
                        "pld_sim_test",
                        &[cell, operand(1), code],
                        &[i32_type],
                    ));
                    let zero = b.i32(0);
                    Some(b.not_equal(flag, zero))
                }
            }
            "pto.fence_barrier_all" => {
                self.call(&b, "pld_sim_fence", &[], &[]);
                None
            }
            // The CPU's caches are coherent and the simulator's pipes are
            // synchronous: nothing to do.
            "pto.cmo_cacheinvalid" | "pto.barrier" => None,
            // One core per kernel.
            "pto.get_block_idx" | "pto.get_block_num" => {
                let value = i64::from(name == "pto.get_block_num");
                Some(b.value(ir::constant(
                    self.context,
                    ir::i64_type(self.context),
                    value,
                    b.location,
                )))
            }
            other => {
                return refuse(
                    op,
                    format!("'{other}' is not simulated yet (tiles and data movement come next)"),
                )
            }
        };
        if let (Some(new), Ok(result)) = (replacement, op.result(0)) {
            ir::replace_all_uses(result.into(), new);
        }
        ir::erase(op);
        Ok(())
    }
}

/// The module as text, for diagnostics.
pub fn text(module: &Module) -> String {
    module
        .as_operation()
        .to_string_with_flags(OperationPrintingFlags::new())
        .unwrap_or_default()
}

/// A location-free reason, for callers without a diagnostic handler.
pub fn describe(refusal: &Refusal) -> String {
    format!(
        "{}: '{}' {}",
        location(refusal.op.location()),
        op_name(&refusal.op),
        refusal.message
    )
}

fn location(location: Location) -> String {
    location.to_string()
}
