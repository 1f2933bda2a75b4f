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

use crate::runtime::tiles::TILE_HEADER;
use melior::{
    dialect::{func, llvm},
    ir::{
        attribute::FlatSymbolRefAttribute, operation::OperationLike, OperationRef, Type, Value,
        ValueLike,
    },
    Context,
};
use pld_dialect::{ops::pto, pto_types::TileBuf};
use pld_ir::{self as ir, build::Builder};
use std::collections::HashMap;

mod comm;
pub mod declarations;
mod scalar;
mod tiles;
mod views;

/// Why a kernel cannot be simulated: the op and the reason.
pub struct Refusal<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

pub type Lowered<'c, 'a, T = ()> = Result<T, Refusal<'c, 'a>>;

fn refuse<'c, 'a, T>(op: OperationRef<'c, 'a>, message: impl Into<String>) -> Lowered<'c, 'a, T> {
    Err(Refusal {
        op,
        message: message.into(),
    })
}

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
    ]
    .contains(&name)
}

/// The op being lowered, where to build its replacement, and its name.
pub(crate) struct Op<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub b: Builder<'c, 'a>,
    pub name: String,
}

/// Operand `i` of an op whose operand count the IRDL verifier checked.
fn operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Value<'c, 'a> {
    ir::operand(op, i).expect("verified operand count")
}

/// What lowering one op did.
pub(crate) enum Step<'c, 'a> {
    /// The op is erased; its result, if any, is replaced by the value.
    Replace(Option<Value<'c, 'a>>),
    /// The op stays until the end (a view, erased once unused).
    Keep,
}

/// The element type of a `!pto.ptr<T>` or a view of `T`.
fn element_type<'c>(context: &'c Context, ty: Type<'c>) -> Option<Type<'c>> {
    Type::parse(context, pld_dialect::pto_types::element(&ty.to_string())?)
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
    };
    for op in ir::collect(function, |n| n.starts_with("pto.")) {
        rewriter.rewrite(op)?;
    }
    // Views last: their consumers are gone now.
    for op in rewriter.dead.into_iter().rev() {
        ir::erase(op);
    }
    // Tile buffers and global pointers (the tensors a loop carries, see
    // convert-pld-to-pto) carried by loops and branches are pointers too.
    for op in ir::collect(function, |n| n.starts_with("scf.")) {
        let mut values: Vec<Value> = op.results().map(Into::into).collect();
        for region in 0..op.region_count() {
            values.extend(ir::entry_arguments(op, region));
        }
        for value in values {
            let ty = value.r#type().to_string();
            if ty.starts_with("!pto.tile_buf") || ty.starts_with("!pto.ptr") {
                ir::set_type(value, pointer);
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

fn tile_shape<'c>(context: &'c Context, ty: Type<'c>) -> Option<TileShape<'c>> {
    let text = ty.to_string();
    let tile = TileBuf::parse(&text).ok()?;
    let (rows, cols) = tile.rows_cols()?;
    let element = Type::parse(context, tile.element)?;
    let bytes = pld_ir::types::byte_width(element)?;
    let valid = tile.valid.unwrap_or_default();
    Some(TileShape {
        rows,
        cols,
        element,
        bytes,
        valid: [
            valid.first().copied().flatten(),
            valid.get(1).copied().flatten(),
        ],
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
            let site = crate::runtime::sites::register(
                &name,
                crate::runtime::sites::location_of(op, &name),
            );
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
