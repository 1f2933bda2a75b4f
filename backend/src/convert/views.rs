//! Global-memory tensors as PTO pointers and views, and the inline
//! peer-address translation of docs/passes/convert-pld-to-pto.md.

use super::types;
use crate::abi;
use melior::ir::{Type, Value};
use pld_dialect::ops::tile::TensorView;
use pld_dialect::{
    ops::pto::{AddPtr, LoadScalar, MakeTensorView, PartitionView},
    types::{value_info, Layout},
};
use pld_ir::op_name;
use pld_ir::{self as ir, build::Builder};

/// A global tensor as PTO sees it: a pointer and a strided shape.
#[derive(Clone)]
pub struct Global<'c, 'a> {
    /// The kernel parameter's pointer.
    pub pointer: Value<'c, 'a>,
    /// The parameter it comes from (pairs it with its CommContext).
    pub parameter: usize,
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
    pub layout: Layout,
    pub element: Type<'c>,
}

/// The shape, strides and layout of a tensor type; `shown` names the
/// tensor and its type for an error (`parameter #0`, `tensor<?xf32>`).
pub fn describe<'c, 'a>(
    pointer: Value<'c, 'a>,
    parameter: usize,
    info: &pld_dialect::types::TensorInfo<'c>,
    shown: (&str, Type<'c>),
) -> Result<Global<'c, 'a>, String> {
    let shape: Vec<i64> = info
        .shape
        .iter()
        .map(|d| d.ok_or(()))
        .collect::<Result<_, _>>()
        .map_err(|()| {
            format!(
                "PTO conversion needs static tensor shapes at kernel boundaries: {} is {}",
                shown.0, shown.1
            )
        })?;
    if pld_ir::types::bit_width(info.element).is_none()
        || melior::ir::TypeLike::is_index(&info.element)
    {
        return Err(format!(
            "parameter #{parameter} has element type {}; PTO tensors need integer or \
             floating-point elements",
            info.element
        ));
    }
    if !types::byte_sized(info.element) {
        return Err(format!(
            "parameter #{parameter} has element type {}; PTO tensors need byte-sized elements",
            info.element
        ));
    }
    // Explicit strides, else packed ND, else DN (column-major in the last
    // two dimensions); a static trailing extent of 1 without a view counts
    // as a column vector.
    let column = info.layout.is_none() && shape.len() >= 2 && shape.last() == Some(&1);
    let layout = if column {
        Layout::Dn
    } else {
        info.layout.unwrap_or(Layout::Nd)
    };
    let strides = match &info.strides {
        Some(strides) => strides.clone(),
        None if layout == Layout::Dn && shape.len() >= 2 => dn_strides(&shape),
        None => packed(&shape),
    };
    Ok(Global {
        pointer,
        parameter,
        shape,
        strides,
        layout,
        element: info.element,
    })
}

/// The kernel's tensor parameters, described before their types become
/// pointers.
pub struct Globals<'c, 'a> {
    pub parameters: std::collections::HashMap<usize, Global<'c, 'a>>,
}

impl<'c, 'a> Globals<'c, 'a>
where
    'c: 'a,
{
    /// The global tensor behind `value`: a kernel parameter, possibly seen
    /// in another shape through `pld.tensor_view`, and carried through
    /// `scf.for` / `scf.while` loops (their initial value: the window a loop
    /// carries is the one it starts with, pld-materialize-dist-tensor-ctx
    /// having checked the body yields it back) and `scf.if` results (both
    /// branches must yield the same tensor).
    pub fn of(&self, value: Value<'c, 'a>) -> Result<Global<'c, 'a>, String> {
        if let Some(site) = ir::argument_site(value) {
            let parent = site.parent;
            let next = match op_name(&parent).as_str() {
                "func.func" if site.entry_block => {
                    return self
                        .parameters
                        .get(&site.number)
                        .cloned()
                        .ok_or_else(|| format!("parameter #{} is not a tensor", site.number));
                }
                // Argument 0 is the induction variable.
                "scf.for" if site.number > 0 => ir::operand(parent, 3 + site.number - 1),
                "scf.while" if site.region_is_first => ir::operand(parent, site.number),
                "scf.while" => ir::region_terminator(parent, 0)
                    .and_then(|condition| ir::operand(condition, site.number + 1)),
                other => {
                    return Err(format!(
                        "PTO conversion follows tensors back to kernel parameters, but this one \
                         is an argument of a block of '{other}'"
                    ))
                }
            };
            return self.of(next.ok_or("malformed loop: no value for a carried tensor")?);
        }
        let owner = ir::defining_op(value).ok_or("a value with no definition")?;
        let index = ir::result_number(value);
        match op_name(&owner).as_str() {
            TensorView::NAME => {}
            "scf.for" => {
                return self.of(ir::operand(owner, 3 + index).ok_or("malformed scf.for")?);
            }
            "scf.while" => {
                let passed = ir::region_terminator(owner, 0)
                    .and_then(|condition| ir::operand(condition, index + 1));
                return self.of(passed.ok_or("malformed scf.while")?);
            }
            "scf.if" => {
                let branch = |region| {
                    ir::region_terminator(owner, region)
                        .and_then(|y| ir::operand(y, index))
                        .ok_or("an scf.if yielding a tensor needs both branches")
                };
                let then = self.of(branch(0)?)?;
                let otherwise = self.of(branch(1)?)?;
                let same = then.parameter == otherwise.parameter
                    && then.shape == otherwise.shape
                    && then.strides == otherwise.strides;
                if !same {
                    return Err(format!(
                        "this tensor comes from an scf.if whose branches yield different tensors \
                         (parameters #{} and #{}); PTO conversion needs one tensor per result",
                        then.parameter, otherwise.parameter
                    ));
                }
                return Ok(then);
            }
            other => {
                return Err(format!(
                    "PTO conversion follows tensors back to kernel parameters, but this one comes \
                     from '{other}'"
                ))
            }
        }
        let source = self.of(ir::operand(owner, 0).ok_or("malformed pld.tensor_view")?)?;
        let info = value_info(value)
            .ok()
            .flatten()
            .ok_or("expected a tensor operand")?;
        // A view reinterprets the packed source in its own packed shape.
        let shown = ("the pld.tensor_view", value.r#type());
        let mut view = describe(source.pointer, source.parameter, &info, shown)?;
        view.layout = Layout::Nd;
        view.strides = packed(&view.shape);
        Ok(view)
    }
}

fn packed(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

/// DN: the last two dimensions column-major, outer dimensions packed.
fn dn_strides(shape: &[i64]) -> Vec<i64> {
    let rank = shape.len();
    let mut strides = packed(shape);
    strides[rank - 2] = 1;
    strides[rank - 1] = shape[rank - 2];
    let block = shape[rank - 2] * shape[rank - 1];
    let mut outer = block;
    for i in (0..rank - 2).rev() {
        strides[i] = outer;
        outer *= shape[i];
    }
    strides
}

fn layout_attribute<'c>(b: &Builder<'c, '_>, layout: Layout) -> melior::ir::Attribute<'c> {
    let name = match layout {
        Layout::Nd => "nd",
        Layout::Dn => "dn",
        Layout::Nz => "nz",
        Layout::MxAZz => "mx_a_zz",
        Layout::MxBNn => "mx_b_nn",
    };
    melior::ir::Attribute::parse(b.context, &format!("#pto.layout<\"{name}\">"))
        .expect("layout parses")
}

/// `pto.make_tensor_view` of `global` at `pointer` (the local pointer, or a
/// peer's), with `extra_last` more elements in the last dimension.
pub fn make_view<'c, 'a>(
    b: &Builder<'c, 'a>,
    global: &Global<'c, 'a>,
    pointer: Value<'c, 'a>,
    extra_last: i64,
) -> Value<'c, 'a>
where
    'c: 'a,
{
    let rank = global.shape.len();
    let shape: Vec<Value> = global
        .shape
        .iter()
        .enumerate()
        .map(|(i, d)| b.index(if i + 1 == rank { d + extra_last } else { *d }))
        .collect();
    let strides: Vec<Value> = global.strides.iter().map(|s| b.index(*s)).collect();
    b.value(
        MakeTensorView::builder(b.context, b.location)
            .ptr(pointer)
            .shape(&shape)
            .strides(&strides)
            .attribute("layout", layout_attribute(b, global.layout))
            .result(types::tensor_view(b.context, rank, global.element))
            .build(),
    )
}

/// `pto.partition_view` of `view` at `offsets` with `sizes`.
pub fn partition<'c, 'a>(
    b: &Builder<'c, 'a>,
    view: Value<'c, 'a>,
    element: Type<'c>,
    offsets: &[Value<'c, 'a>],
    sizes: &[Value<'c, 'a>],
) -> Value<'c, 'a>
where
    'c: 'a,
{
    let static_sizes: Vec<Option<i64>> = sizes.iter().map(|s| pld_ir::constant_int(*s)).collect();
    b.value(
        PartitionView::builder(b.context, b.location)
            .source(view)
            .offsets(offsets)
            .sizes(sizes)
            .result(types::partition_view(b.context, &static_sizes, element))
            .build(),
    )
}

/// Reads u64 slot `slot` of the CommContext.
pub fn context_slot<'c, 'a>(
    b: &Builder<'c, 'a>,
    ctx: Value<'c, 'a>,
    slot: Value<'c, 'a>,
) -> Value<'c, 'a>
where
    'c: 'a,
{
    b.value(
        LoadScalar::builder(b.context, b.location)
            .ptr(ctx)
            .offset(slot)
            .result(pld_ir::i64_type(b.context))
            .build(),
    )
}

/// The peer's copy of `global` (docs/passes/convert-pld-to-pto.md): the local pointer moved by the
/// element distance between the peer's and this rank's window bases.
pub fn peer_pointer<'c, 'a>(
    b: &Builder<'c, 'a>,
    global: &Global<'c, 'a>,
    ctx: Value<'c, 'a>,
    peer: Value<'c, 'a>,
) -> Value<'c, 'a>
where
    'c: 'a,
{
    use melior::dialect::arith;
    let index = b.index_type();
    let i64_type = pld_ir::i64_type(b.context);
    let peer = if peer.r#type() == index {
        peer
    } else {
        b.index_cast(peer, index)
    };
    let rank_slot = b.index(abi::RANK_SLOT);
    let windows_slot = b.index(abi::WINDOWS_IN_SLOT);
    let pair = context_slot(b, ctx, rank_slot);
    let rank32 = b.value(arith::trunci(pair, b.i32_type(), b.location));
    let rank = b.index_cast(rank32, index);
    let local_slot = b.add(windows_slot, rank);
    let local_base = context_slot(b, ctx, local_slot);
    let peer_slot = b.add(windows_slot, peer);
    let peer_base = context_slot(b, ctx, peer_slot);
    let bytes = b.sub(peer_base, local_base);
    let element_bytes = pld_ir::types::byte_width(global.element).unwrap_or(1);
    let size = b.value(pld_ir::constant(
        b.context,
        i64_type,
        element_bytes,
        b.location,
    ));
    let elements = b.value(arith::divsi(bytes, size, b.location));
    let elements = b.index_cast(elements, index);
    b.value(
        AddPtr::builder(b.context, b.location)
            .ptr(global.pointer)
            .offset(elements)
            .result(types::pointer(b.context, global.element))
            .build(),
    )
}

use melior::ir::ValueLike;
