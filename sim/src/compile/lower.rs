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
//! A tile buffer becomes a pointer to a block the simulator allocates for
//! the running kernel: its valid rows and columns (two i64), then its
//! row-major data. Loads, stores, puts and gets are calls of
//! `pld_sim_copy` (which checks window bounds and counts remote traffic);
//! element-wise tile math is loops over the valid region, left to LLVM to
//! vectorise.

use melior::{
    dialect::{func, llvm},
    ir::{
        attribute::{AttributeLike, FlatSymbolRefAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::{FunctionType, TypeLike},
        Module, OperationRef, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pld_ir::op_name;
use pld_ir::{self as ir, build::Builder};
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
func.func private @pld_sim_tile_alloc(i64) -> !llvm.ptr
func.func private @pld_sim_copy(!llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64, i64, i32, i32)
func.func private @pld_sim_fill_pad(!llvm.ptr, i64, i64, i64, i64, i32)
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
                    .and_then(pld_ir::attr::string)
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
        tiles: HashMap::new(),
        dead: Vec::new(),
    };
    for op in ir::collect(function, |n| n.starts_with("pto.")) {
        rewriter.rewrite(op)?;
    }
    // Views last: their consumers are gone now.
    for op in rewriter.dead.into_iter().rev() {
        ir::erase(op);
    }
    // Tile buffers carried by loops and branches are pointers too.
    for op in ir::collect(function, |n| n.starts_with("scf.")) {
        let mut values: Vec<Value> = op.results().map(Into::into).collect();
        for region in 0..op.region_count() {
            values.extend(ir::entry_arguments(op, region));
        }
        for value in values {
            if value.r#type().to_string().starts_with("!pto.tile_buf") {
                unsafe { mlir_sys::mlirValueSetType(value.to_raw(), pointer.to_raw()) };
            }
        }
    }
    Ok(())
}

/// A partition view, folded: the address of its first element, its sizes
/// and its strides (in elements).
#[derive(Clone)]
struct Part<'c, 'a> {
    address: Value<'c, 'a>,
    element: Type<'c>,
    sizes: Vec<Value<'c, 'a>>,
    strides: Vec<Value<'c, 'a>>,
}

/// What the simulator needs of a tile buffer type: its physical shape and
/// element. At run time a tile is a pointer to two i64 (the valid rows and
/// columns) followed by the row-major data.
#[derive(Clone, Copy)]
struct TileShape<'c> {
    rows: i64,
    cols: i64,
    element: Type<'c>,
    bytes: i64,
    /// Static valid extents (`None` for `?`).
    valid: [Option<i64>; 2],
}

/// Bytes before a tile's data.
const TILE_HEADER: i64 = 16;

fn tile_shape<'c>(context: &'c Context, ty: Type<'c>) -> Option<TileShape<'c>> {
    let text = ty.to_string();
    let shape = text.split_once("tensor<")?.1.split_once('>')?.0;
    let mut parts: Vec<&str> = shape.split('x').collect();
    let element_text = parts.pop()?;
    let [rows, cols] = parts.as_slice() else {
        return None;
    };
    let element = Type::parse(context, element_text)?;
    let bytes = (i64::from(pld_dialect::types::bit_width(element)?) + 7) / 8;
    let valid = text
        .split_once("valid = array<i64:")
        .and_then(|(_, rest)| rest.split_once('>'))
        .map(|(list, _)| {
            let v: Vec<Option<i64>> = list
                .split(',')
                .map(|x| x.trim().parse::<i64>().ok().filter(|n| *n >= 0))
                .collect();
            [v.first().copied().flatten(), v.get(1).copied().flatten()]
        })
        .unwrap_or([None, None]);
    Some(TileShape {
        rows: rows.parse().ok()?,
        cols: cols.parse().ok()?,
        element,
        bytes,
        valid,
    })
}

struct Rewriter<'c, 'a> {
    context: &'c Context,
    pointer: Type<'c>,
    /// Tensor view -> (base address, element type, strides).
    views: HashMap<usize, (Value<'c, 'a>, Type<'c>, Vec<Value<'c, 'a>>)>,
    /// Partition view -> its first element, sizes and strides.
    partitions: HashMap<usize, Part<'c, 'a>>,
    /// Tile buffers already rewritten (their new values are plain
    /// pointers, so their shape is kept here).
    tiles: HashMap<usize, TileShape<'c>>,
    /// View ops, erased once nothing uses them.
    dead: Vec<OperationRef<'c, 'a>>,
}

/// The value of a PTO enum attribute of `op` (`#pto.<mnemonic><"value">`).
fn payload(op: OperationRef, attribute: &str, mnemonic: &str) -> Option<String> {
    let value = op.attribute(attribute).ok()?;
    pld_ir::attr::enum_payload(value, mnemonic)
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

    fn part(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Lowered<'c, 'a, Part<'c, 'a>> {
        match self.partitions.get(&key(value)) {
            Some(part) => Ok(part.clone()),
            None => refuse(op, "the view does not come from a pto.partition_view"),
        }
    }

    fn partition(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Lowered<'c, 'a, Value<'c, 'a>> {
        Ok(self.part(op, value)?.address)
    }

    fn tile(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Lowered<'c, 'a, TileShape<'c>> {
        if let Some(shape) = self.tiles.get(&key(value)) {
            return Ok(*shape);
        }
        match tile_shape(self.context, value.r#type()) {
            Some(shape) => Ok(shape),
            None => refuse(
                op,
                format!("a tile buffer of type {} is not simulated", value.r#type()),
            ),
        }
    }

    fn i64(&self, b: &Builder<'c, 'a>, value: i64) -> Value<'c, 'a> {
        b.value(ir::constant(
            self.context,
            ir::i64_type(self.context),
            value,
            b.location,
        ))
    }

    fn to_i64(&self, b: &Builder<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        let i64_type = ir::i64_type(self.context);
        if value.r#type() == i64_type {
            value
        } else {
            b.index_cast(value, i64_type)
        }
    }

    /// Header field `k` (0 valid rows, 1 valid columns) of a tile.
    fn header(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>, k: i64) -> Value<'c, 'a> {
        let index = self.i64(b, k);
        self.offset(b, tile, index, ir::i64_type(self.context))
    }

    /// The valid rows and columns of a tile, as i64.
    fn valid(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>) -> (Value<'c, 'a>, Value<'c, 'a>) {
        let i64_type = ir::i64_type(self.context);
        let load = |k| {
            let address = self.header(b, tile, k);
            b.value(llvm::load(
                self.context,
                address,
                i64_type,
                b.location,
                Default::default(),
            ))
        };
        (load(0), load(1))
    }

    fn set_valid(
        &self,
        b: &Builder<'c, 'a>,
        tile: Value<'c, 'a>,
        rows: Value<'c, 'a>,
        cols: Value<'c, 'a>,
    ) {
        for (k, value) in [(0, rows), (1, cols)] {
            let value = self.to_i64(b, value);
            let address = self.header(b, tile, k);
            b.insert(llvm::store(
                self.context,
                value,
                address,
                b.location,
                Default::default(),
            ));
        }
    }

    /// The address of a tile's data.
    fn data(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>) -> Value<'c, 'a> {
        let header = self.i64(b, TILE_HEADER);
        let byte = Type::parse(self.context, "i8").expect("i8");
        self.offset(b, tile, header, byte)
    }

    /// A partition's block as (rows, cols, row stride, col stride), i64:
    /// its last two dimensions (leading ones are 1 in converted kernels).
    fn block(&self, b: &Builder<'c, 'a>, part: &Part<'c, 'a>) -> [Value<'c, 'a>; 4] {
        let n = part.sizes.len();
        if n >= 2 {
            [
                self.to_i64(b, part.sizes[n - 2]),
                self.to_i64(b, part.sizes[n - 1]),
                self.to_i64(b, part.strides[n - 2]),
                self.to_i64(b, part.strides[n - 1]),
            ]
        } else {
            let one = self.i64(b, 1);
            let zero = self.i64(b, 0);
            let cols = part.sizes.first().map_or(one, |s| self.to_i64(b, *s));
            let stride = part.strides.first().map_or(one, |s| self.to_i64(b, *s));
            [one, cols, zero, stride]
        }
    }

    /// The accumulate code of `pld_sim_copy` for an atomic add of
    /// `element`, or assign.
    fn accumulate(&self, op: OperationRef<'c, 'a>, element: Type<'c>) -> Lowered<'c, 'a, i64> {
        let atomic = payload(op, "atomicType", "pto.atomic_type");
        if atomic.as_deref() != Some("atomic_add") {
            return Ok(i64::from(pld_runtime_sys::PLD_COPY_ASSIGN));
        }
        let code = match element.to_string().as_str() {
            "f32" => pld_runtime_sys::PLD_COPY_ADD_F32,
            "f16" => pld_runtime_sys::PLD_COPY_ADD_F16,
            "i32" => pld_runtime_sys::PLD_COPY_ADD_I32,
            other => {
                return refuse(
                    op,
                    format!("an accumulating store of {other} is not simulated"),
                )
            }
        };
        Ok(i64::from(code))
    }

    #[allow(clippy::too_many_arguments)]
    fn copy(
        &self,
        b: &Builder<'c, 'a>,
        dst: Value<'c, 'a>,
        dst_strides: [Value<'c, 'a>; 2],
        src: Value<'c, 'a>,
        src_strides: [Value<'c, 'a>; 2],
        rows: Value<'c, 'a>,
        cols: Value<'c, 'a>,
        element_bytes: i64,
        accumulate: i64,
    ) {
        let element_bytes = b.i32(element_bytes);
        let accumulate = b.i32(accumulate);
        self.call(
            b,
            "pld_sim_copy",
            &[
                dst,
                dst_strides[0],
                dst_strides[1],
                src,
                src_strides[0],
                src_strides[1],
                rows,
                cols,
                element_bytes,
                accumulate,
            ],
            &[],
        );
    }

    /// `dst = lhs (op) rhs` over dst's valid rows and columns, as loops
    /// LLVM can vectorise.
    fn elementwise(
        &self,
        op: OperationRef<'c, 'a>,
        b: &Builder<'c, 'a>,
        kind: &str,
    ) -> Lowered<'c, 'a> {
        let (lhs, rhs, dst) = (
            ir::operand(op, 0).expect("src0"),
            ir::operand(op, 1).expect("src1"),
            ir::operand(op, 2).expect("dst"),
        );
        let shape = self.tile(op, dst)?;
        let element = shape.element.to_string();
        let float = element.starts_with('f') || element == "bf16";
        let name = match (kind, float) {
            ("tadd", true) => "arith.addf",
            ("tmax", true) => "arith.maximumf",
            ("tmin", true) => "arith.minimumf",
            ("tmul", true) => "arith.mulf",
            ("tadd", false) => "arith.addi",
            ("tmax", false) => "arith.maxsi",
            ("tmin", false) => "arith.minsi",
            _ => {
                if float {
                    "arith.mulf"
                } else {
                    "arith.muli"
                }
            }
        };
        let (rows, cols) = self.valid(b, dst);
        let index = b.index_type();
        let (rows, cols) = (b.index_cast(rows, index), b.index_cast(cols, index));
        // A valid shape beyond the physical tile must not run off it.
        let physical_rows = b.index(shape.rows);
        let physical_cols = b.index(shape.cols);
        let (rows, cols) = (b.min(rows, physical_rows), b.min(cols, physical_cols));
        let (zero, one) = (b.index(0), b.index(1));
        let (lhs, rhs, dst) = (self.data(b, lhs), self.data(b, rhs), self.data(b, dst));
        let outer = b.for_loop(zero, rows, one, &[]);
        let stride = outer.body.index(shape.cols);
        let row_start = outer.body.mul(outer.induction, stride);
        let inner = outer.body.for_loop(zero, cols, one, &[]);
        let at = &inner.body;
        let position = at.add(row_start, inner.induction);
        let load = |base| {
            let address = self.offset(at, base, position, shape.element);
            at.value(llvm::load(
                self.context,
                address,
                shape.element,
                at.location,
                Default::default(),
            ))
        };
        let (x, y) = (load(lhs), load(rhs));
        let result = at.value(
            melior::ir::operation::OperationBuilder::new(name, at.location)
                .add_operands(&[x, y])
                .add_results(&[shape.element])
                .build()
                .expect("an arith op"),
        );
        let target = self.offset(at, dst, position, shape.element);
        at.insert(llvm::store(
            self.context,
            result,
            target,
            at.location,
            Default::default(),
        ));
        Ok(())
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
                return Ok(());
            }
            "pto.comm_tnotify" => {
                let code = match payload(op, "notifyOp", "pto.notify_op").as_deref() {
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
                let code = match payload(op, "cmp", "pto.wait_cmp").as_deref() {
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
            "pto.alloc_tile" => {
                let result: Value = op.result(0).expect("a result").into();
                let shape = self.tile(op, result)?;
                let view = pld_dialect::ops::OpView::new(op).expect("a registered op");
                let bytes = self.i64(&b, TILE_HEADER + shape.rows * shape.cols * shape.bytes);
                let tile =
                    ir::result(self.call(&b, "pld_sim_tile_alloc", &[bytes], &[self.pointer]));
                let extent = |group: &str, k: usize, physical: i64| {
                    view.one(group)
                        .unwrap_or_else(|| self.i64(&b, shape.valid[k].unwrap_or(physical)))
                };
                let rows = extent("valid_row", 0, shape.rows);
                let cols = extent("valid_col", 1, shape.cols);
                self.set_valid(&b, tile, rows, cols);
                self.tiles.insert(key(tile), shape);
                Some(tile)
            }
            "pto.set_validshape" => {
                self.set_valid(&b, operand(0), operand(1), operand(2));
                None
            }
            "pto.get_validshape" => {
                let (rows, cols) = self.valid(&b, operand(0));
                let index = b.index_type();
                for (i, value) in [rows, cols].into_iter().enumerate() {
                    let value = b.index_cast(value, index);
                    ir::replace_all_uses(op.result(i).expect("two results").into(), value);
                }
                None
            }
            "pto.tload" | "pto.tstore" if op.operand_count() == 2 => {
                let load = name == "pto.tload";
                let (tile, view) = if load {
                    (operand(1), operand(0))
                } else {
                    (operand(0), operand(1))
                };
                let shape = self.tile(op, tile)?;
                let part = self.part(op, view)?;
                let [_, _, row_stride, col_stride] = self.block(&b, &part);
                let (rows, cols) = self.valid(&b, tile);
                let data = self.data(&b, tile);
                let tile_strides = [self.i64(&b, shape.cols), self.i64(&b, 1)];
                let view_strides = [row_stride, col_stride];
                if load {
                    self.copy(
                        &b,
                        data,
                        tile_strides,
                        part.address,
                        view_strides,
                        rows,
                        cols,
                        shape.bytes,
                        0,
                    );
                } else {
                    let accumulate = self.accumulate(op, shape.element)?;
                    self.copy(
                        &b,
                        part.address,
                        view_strides,
                        data,
                        tile_strides,
                        rows,
                        cols,
                        shape.bytes,
                        accumulate,
                    );
                }
                None
            }
            "pto.tadd" | "pto.tmax" | "pto.tmin" | "pto.tmul" => {
                self.elementwise(op, &b, name.trim_start_matches("pto."))?;
                None
            }
            "pto.tfillpad" | "pto.tfillpad_inplace" => {
                let (src, dst) = (operand(0), operand(1));
                let shape = self.tile(op, dst)?;
                let (rows, cols) = self.valid(&b, src);
                let target = self.data(&b, dst);
                if key(src) != key(dst) {
                    let source = self.data(&b, src);
                    let strides = [self.i64(&b, shape.cols), self.i64(&b, 1)];
                    self.copy(
                        &b,
                        target,
                        strides,
                        source,
                        strides,
                        rows,
                        cols,
                        shape.bytes,
                        0,
                    );
                }
                let physical_rows = self.i64(&b, shape.rows);
                let physical_cols = self.i64(&b, shape.cols);
                let element_bytes = b.i32(shape.bytes);
                self.call(
                    &b,
                    "pld_sim_fill_pad",
                    &[
                        target,
                        physical_rows,
                        physical_cols,
                        rows,
                        cols,
                        element_bytes,
                    ],
                    &[],
                );
                None
            }
            "pto.comm_tput" | "pto.comm_tget" => {
                let dst = self.part(op, operand(0))?;
                let src = self.part(op, operand(1))?;
                let [rows, cols, drs, dcs] = self.block(&b, &dst);
                let [_, _, srs, scs] = self.block(&b, &src);
                let bytes =
                    (i64::from(pld_dialect::types::bit_width(dst.element).unwrap_or(8)) + 7) / 8;
                let accumulate = if name == "pto.comm_tput" {
                    self.accumulate(op, dst.element)?
                } else {
                    0
                };
                self.copy(
                    &b,
                    dst.address,
                    [drs, dcs],
                    src.address,
                    [srs, scs],
                    rows,
                    cols,
                    bytes,
                    accumulate,
                );
                None
            }
            _ => return refuse(op, "is not simulated with these operands"),
        };
        if let (Some(new), Ok(result)) = (replacement, op.result(0)) {
            ir::replace_all_uses(result.into(), new);
        }
        ir::erase(op);
        Ok(())
    }
}

/// The refusal as `location: 'op' message`, for callers without a
/// diagnostic handler.
pub fn describe(refusal: &Refusal) -> String {
    format!(
        "{}: '{}' {}",
        refusal.op.location(),
        op_name(&refusal.op),
        refusal.message
    )
}
