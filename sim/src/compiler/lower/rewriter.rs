//! What the sim lowering's op families share: the refusal, the op being
//! lowered, folded views and tile shapes, and the [`Rewriter`] with its
//! helpers (addresses, device-function calls, tile headers, copies).

use crate::runtime::tiles::TILE_HEADER;
use melior::{
    dialect::{arith, func, llvm},
    ir::{
        attribute::FlatSymbolRefAttribute, operation::OperationLike, r#type::IntegerType,
        OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use pld_dialect::pto_types::TileBuf;
use pld_ir::{self as ir, build::Builder};
use std::collections::HashMap;

/// The address [`Rewriter::checked_address`] gives an access whose offset
/// does not fit 64 bits: above every user-space mapping (and not one a
/// short length wraps around from), so the device call finds it in no
/// window, tile or buffer, and says why.
const UNREACHABLE: i64 = crate::runtime::outside::UNREACHABLE as i64;

/// Why a kernel cannot be simulated: the op and the reason.
pub struct Refusal<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

pub type Lowered<'c, 'a, T = ()> = Result<T, Refusal<'c, 'a>>;

pub(super) fn refuse<'c, 'a, T>(
    op: OperationRef<'c, 'a>,
    message: impl Into<String>,
) -> Lowered<'c, 'a, T> {
    Err(Refusal {
        op,
        message: message.into(),
    })
}

/// The op being lowered, where to build its replacement, and its name.
pub(super) struct Op<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub b: Builder<'c, 'a>,
    pub name: String,
}

/// Operand `i` of an op whose operand count the IRDL verifier checked.
pub(super) fn operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Value<'c, 'a> {
    ir::operand(op, i).expect("verified operand count")
}

/// What lowering one op did.
pub(super) enum Step<'c, 'a> {
    /// The op is erased; its result, if any, is replaced by the value.
    Replace(Option<Value<'c, 'a>>),
    /// The op stays until the end (a view, erased once unused).
    Keep,
}

/// The element type of a `!pto.ptr<T>` or a view of `T`.
pub(super) fn element_type<'c>(context: &'c Context, ty: Type<'c>) -> Option<Type<'c>> {
    Type::parse(context, pld_dialect::pto_types::element(&ty.to_string())?)
}

/// A tensor view, folded: the address of its first element, its element
/// type, shape and strides (in elements).
#[derive(Clone)]
pub(super) struct TensorView<'c, 'a> {
    pub(super) base: Value<'c, 'a>,
    pub(super) element: Type<'c>,
    pub(super) shape: Vec<Value<'c, 'a>>,
    pub(super) strides: Vec<Value<'c, 'a>>,
}

/// A partition view, folded: the address of its first element, its sizes
/// and its strides (in elements).
#[derive(Clone)]
pub(super) struct Part<'c, 'a> {
    pub(super) address: Value<'c, 'a>,
    pub(super) element: Type<'c>,
    pub(super) sizes: Vec<Value<'c, 'a>>,
    pub(super) strides: Vec<Value<'c, 'a>>,
}

/// What the simulator needs of a tile buffer type: its physical shape and
/// element. At run time a tile is a pointer to two i64 (the valid rows and
/// columns) followed by the row-major data.
#[derive(Clone, Copy)]
pub(super) struct TileShape<'c> {
    pub(super) rows: i64,
    pub(super) cols: i64,
    pub(super) element: Type<'c>,
    pub(super) bytes: i64,
    /// Static valid extents (`None` for `?`).
    pub(super) valid: [Option<i64>; 2],
}

pub(super) fn tile_shape<'c>(context: &'c Context, ty: Type<'c>) -> Option<TileShape<'c>> {
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

pub(super) struct Rewriter<'c, 'a> {
    pub(super) context: &'c Context,
    pub(super) pointer: Type<'c>,
    /// Tensor view -> its base address, element type, shape and strides.
    pub(super) views: HashMap<usize, TensorView<'c, 'a>>,
    /// Partition view -> its first element, sizes and strides.
    pub(super) partitions: HashMap<usize, Part<'c, 'a>>,
    /// Tile buffers already rewritten (their new values are plain
    /// pointers, so their shape is kept here).
    pub(super) tiles: HashMap<usize, TileShape<'c>>,
    /// View ops, erased once nothing uses them.
    pub(super) dead: Vec<OperationRef<'c, 'a>>,
    /// Kernel parameter -> the elements of the tensor its `pld.signature`
    /// gives it (static shapes only): what a scalar access through the
    /// parameter's own pointer may reach.
    pub(super) parameter_elements: HashMap<usize, i64>,
}

/// The value of a PTO enum attribute of `op` (`#pto.<mnemonic><"value">`).
pub(super) fn payload(op: OperationRef, attribute: &str, mnemonic: &str) -> Option<String> {
    let value = op.attribute(attribute).ok()?;
    pld_ir::attr::enum_payload(value, mnemonic)
}

pub(super) fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

impl<'c, 'a> Rewriter<'c, 'a>
where
    'c: 'a,
{
    /// `base + offset` elements of `element`.
    pub(super) fn offset(
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

    /// The address `sum(offset_i * stride_i)` elements of `element` past
    /// `base`, for memory a device call checks (a view of a window, a
    /// scalar access): computed in 128 bits, and when a term or the byte
    /// offset does not fit 64 (an offset of 2^62 elements wrapped to byte
    /// 0 and reached the window's start) an address in no window, tile or
    /// buffer ([`UNREACHABLE`]), which the call refuses at its op.
    pub(super) fn checked_address(
        &self,
        b: &Builder<'c, 'a>,
        base: Value<'c, 'a>,
        terms: &[(Value<'c, 'a>, Value<'c, 'a>)],
        element: Type<'c>,
    ) -> Value<'c, 'a> {
        let wide = IntegerType::new(self.context, 128).into();
        let to_wide = |v: Value<'c, 'a>| {
            let v = self.to_i64(b, v);
            b.value(arith::extsi(v, wide, b.location))
        };
        let mut sum = b.value(ir::constant(self.context, wide, 0, b.location));
        let mut ok = b.value(ir::constant(
            self.context,
            IntegerType::new(self.context, 1).into(),
            1,
            b.location,
        ));
        for (offset, stride) in terms {
            let term = b.mul(to_wide(*offset), to_wide(*stride));
            ok = b.value(arith::andi(ok, self.fits_64(b, term), b.location));
            sum = b.add(sum, term);
        }
        let size = pld_ir::types::byte_width(element).unwrap_or(1);
        let size = b.value(ir::constant(self.context, wide, size, b.location));
        let bytes = b.mul(sum, size);
        ok = b.value(arith::andi(ok, self.fits_64(b, bytes), b.location));
        let i64_type = ir::i64_type(self.context);
        let bytes = b.value(arith::trunci(bytes, i64_type, b.location));
        let address = b.value(llvm::get_element_ptr_dynamic(
            self.context,
            base,
            &[bytes],
            IntegerType::new(self.context, 8).into(),
            self.pointer,
            b.location,
        ));
        b.select(ok, address, self.nowhere(b))
    }

    /// Whether the 128-bit `value` is a 64-bit one sign-extended.
    fn fits_64(&self, b: &Builder<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        let narrow = b.value(arith::trunci(value, ir::i64_type(self.context), b.location));
        let back = b.value(arith::extsi(narrow, value.r#type(), b.location));
        b.equal(back, value)
    }

    /// The pointer [`UNREACHABLE`].
    fn nowhere(&self, b: &Builder<'c, 'a>) -> Value<'c, 'a> {
        let address = self.i64(b, UNREACHABLE);
        b.value(
            melior::ir::operation::OperationBuilder::new("llvm.inttoptr", b.location)
                .add_operands(&[address])
                .add_results(&[self.pointer])
                .build()
                .expect("llvm.inttoptr of an i64"),
        )
    }

    pub(super) fn call(
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

    pub(super) fn part(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Lowered<'c, 'a, Part<'c, 'a>> {
        match self.partitions.get(&key(value)) {
            Some(part) => Ok(part.clone()),
            None => refuse(op, "the view does not come from a pto.partition_view"),
        }
    }

    pub(super) fn partition(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Lowered<'c, 'a, Value<'c, 'a>> {
        Ok(self.part(op, value)?.address)
    }

    pub(super) fn tile(
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

    pub(super) fn i64(&self, b: &Builder<'c, 'a>, value: i64) -> Value<'c, 'a> {
        b.value(ir::constant(
            self.context,
            ir::i64_type(self.context),
            value,
            b.location,
        ))
    }

    pub(super) fn to_i64(&self, b: &Builder<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        let i64_type = ir::i64_type(self.context);
        if value.r#type() == i64_type {
            value
        } else {
            b.index_cast(value, i64_type)
        }
    }

    /// Header field `k` (0 valid rows, 1 valid columns) of a tile.
    pub(super) fn header(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>, k: i64) -> Value<'c, 'a> {
        let index = self.i64(b, k);
        self.offset(b, tile, index, ir::i64_type(self.context))
    }

    /// The valid rows and columns of a tile, as i64.
    pub(super) fn valid(
        &self,
        b: &Builder<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> (Value<'c, 'a>, Value<'c, 'a>) {
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

    pub(super) fn set_valid(
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
    pub(super) fn data(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>) -> Value<'c, 'a> {
        let header = self.i64(b, TILE_HEADER);
        let byte = Type::parse(self.context, "i8").expect("i8");
        self.offset(b, tile, header, byte)
    }

    /// A partition's block as (rows, cols, row stride, col stride), i64:
    /// its last two dimensions (leading ones are 1 in converted kernels).
    pub(super) fn block(&self, b: &Builder<'c, 'a>, part: &Part<'c, 'a>) -> [Value<'c, 'a>; 4] {
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
    pub(super) fn accumulate(
        &self,
        op: OperationRef<'c, 'a>,
        element: Type<'c>,
    ) -> Lowered<'c, 'a, i64> {
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
    pub(super) fn copy(
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
}
