//! `tensor.extract_slice`: a box of static sizes and unit strides, of a
//! tensor of any rank, at offsets that may depend on the device, copied by
//! a kernel (docs/passes/convert-shard-to-pld.md, "Slices").
//!
//! The box is first written with as few dimensions as it has runs: a
//! dimension the slice takes whole joins the one before it (`[.., D, E]`
//! with `E` whole is `[.., D*E]`, offset and size scaled by `E`), and so
//! does the dimension after one the slice takes a single entry of (its
//! offset is `o*E + o'`). `[4, 6, 2]` sliced `[0:2, 3:6, 0:2]` is the box
//! `[0:2, 6:12]` of `[4, 12]`. Of the `k` dimensions left (`[1, 1, ..]` in
//! front when fewer than three), the last two are the rows and columns of
//! a box of the source seen as the matrix `[W0*..*W(k-2), W(k-1)]`, the
//! third last a loop of such boxes `W(k-2)` rows apart, and each index of
//! the ones before that one more box copy (a tile each, so their number
//! is bounded by the UB).

use super::builder::{loc, Builder};
use super::kernel::{Action, Move, Offset, Place, MAX_SITES};
use super::source::{tensor_type, Refusal};
use super::types::{PerDevice, TensorType};
use melior::ir::{operation::OperationLike, OperationRef};

/// `tensor.extract_slice` as a kernel from the source's slot into a new
/// slot of the result.
pub fn extract_slice(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let source = pld_ir::operand(op, 0).ok_or("has no source")?;
    let ty = tensor_type(source)?;
    let dims = dims(b, op, &ty)?;
    let moves = moves(&joined(dims)?, b.devices)?;
    let label = b.label("slice");
    let input = b.slot_of(source)?;
    let result = b.result_slot(op, &label)?;
    let actions = moves.into_iter().map(Action::Copy).collect();
    b.kernel(&label, &[input, result], actions, &loc(op))
}

/// One dimension of a slice: the source's extent along it, the offset on
/// each device and the size.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Dim {
    whole: usize,
    offset: PerDevice,
    size: usize,
}

impl Dim {
    fn is_whole(&self) -> bool {
        self.size == self.whole && self.offset.as_constant() == Some(0)
    }

    /// `self` and the dimension after it as one, when the slice takes a
    /// contiguous run of their product: the next is taken whole, or
    /// `self` is one entry. `None` when they stay apart.
    fn join(&self, next: &Dim) -> Option<Result<Dim, Refusal>> {
        let whole = self.whole * next.whole;
        let scaled = |o: i64, add: i64| o.checked_mul(next.whole as i64)?.checked_add(add);
        let joined = if next.is_whole() {
            let zero = PerDevice::constant(self.offset.0.len(), 0);
            (self.offset.zip(&zero, scaled), self.size * next.whole)
        } else if self.size == 1 {
            (self.offset.zip(&next.offset, scaled), next.size)
        } else {
            return None;
        };
        Some(match joined {
            (Some(offset), size) => Ok(Dim {
                whole,
                offset,
                size,
            }),
            (None, _) => Err("slices outside its source".into()),
        })
    }
}

/// The dimensions of a slice, checked: as many as the source has, static
/// sizes, unit strides, inside the source on every device.
fn dims(b: &Builder, op: OperationRef, ty: &TensorType) -> Result<Vec<Dim>, Refusal> {
    let read = |name: &str| {
        op.attribute(name)
            .ok()
            .and_then(pld_ir::attr::i64_array)
            .ok_or(format!("has no {name}"))
    };
    let (offsets, sizes, strides) = (
        read("static_offsets")?,
        read("static_sizes")?,
        read("static_strides")?,
    );
    if sizes.iter().any(|s| *s < 0) || strides.iter().any(|s| *s != 1) {
        return Err("needs static sizes and unit strides".into());
    }
    if offsets.len() != ty.shape.len() || sizes.len() != ty.shape.len() {
        return Err("has offsets or sizes of another rank than its source".into());
    }
    let mut dynamic = pld_ir::operands(op).into_iter().skip(1);
    let mut dims = Vec::new();
    for ((offset, size), whole) in offsets.into_iter().zip(sizes).zip(&ty.shape) {
        let offset = if offset == i64::MIN {
            b.int_of(dynamic.next().ok_or("lacks an offset operand")?)?
        } else {
            PerDevice::constant(b.devices, offset)
        };
        dims.push(Dim {
            whole: *whole,
            offset,
            size: size as usize,
        });
    }
    check_bounds(&dims, b.devices)?;
    Ok(dims)
}

/// Refuses a slice that leaves its source on some device (the first).
fn check_bounds(dims: &[Dim], devices: usize) -> Result<(), Refusal> {
    for device in 0..devices {
        let inside = dims.iter().all(|d| {
            usize::try_from(d.offset.0[device])
                .ok()
                .and_then(|o| o.checked_add(d.size))
                .is_some_and(|end| end <= d.whole)
        });
        if !inside {
            return Err(format!("slices outside its source on device {device}"));
        }
    }
    Ok(())
}

/// The dimensions with every joinable pair joined, at least three (unit
/// dimensions in front).
fn joined(dims: Vec<Dim>) -> Result<Vec<Dim>, Refusal> {
    let devices = dims.first().map_or(0, |d| d.offset.0.len());
    let mut out: Vec<Dim> = Vec::new();
    for dim in dims {
        if let Some(last) = out.last_mut() {
            if let Some(joined) = last.join(&dim) {
                *last = joined?;
                continue;
            }
        }
        out.push(dim);
    }
    while out.len() < 3 {
        let unit = Dim {
            whole: 1,
            offset: PerDevice::constant(devices, 0),
            size: 1,
        };
        out.insert(0, unit);
    }
    Ok(out)
}

/// The box copies of a slice of `dims` (at least three): one per index
/// of the dimensions before the last three, each a loop over the third
/// last, of boxes of the last two.
fn moves(dims: &[Dim], devices: usize) -> Result<Vec<Move>, Refusal> {
    let outer = &dims[..dims.len() - 3];
    let boxes = outer
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(d.size))
        .filter(|n| *n <= MAX_SITES)
        .ok_or(format!(
            "needs more than the {MAX_SITES} box copies an AIV core's UB holds tiles for; slice fewer separate runs of elements"
        ))?;
    (0..boxes)
        .map(|n| box_move(dims, &unravel(n, outer), devices))
        .collect()
}

/// The copy of the boxes at `index` of the outer dimensions: a loop over
/// the third last dimension `a`, each step a box of the last two (`r`
/// rows of the matrix view, `c` columns).
fn box_move(dims: &[Dim], index: &[usize], devices: usize) -> Result<Move, Refusal> {
    let (outer, inner) = dims.split_at(dims.len() - 3);
    let (a, r, c) = (&inner[0], &inner[1], &inner[2]);
    let rows = |f: fn(&Dim) -> usize| dims[..dims.len() - 1].iter().map(f).product::<usize>();
    let src_row = first_row(outer, index, a, r, devices).ok_or("slices outside its source")?;
    let dst_row = index
        .iter()
        .zip(outer)
        .fold(0, |acc, (i, d)| acc * d.size + i);
    Ok(Move {
        src: Place {
            param: 0,
            view: [rows(|d| d.whole), c.whole],
            row: Offset {
                base: src_row,
                step: r.whole as i64,
            },
            col: Offset {
                base: c.offset.clone(),
                step: 0,
            },
        },
        dst: Place {
            param: 1,
            view: [rows(|d| d.size), c.size],
            row: Offset::fixed(devices, dst_row * a.size * r.size, r.size),
            col: Offset::fixed(devices, 0, 0),
        },
        extent: [r.size, c.size],
        count: a.size,
    })
}

/// The index of box `n` over the sizes of `outer`, row-major.
fn unravel(mut n: usize, outer: &[Dim]) -> Vec<usize> {
    let mut index = vec![0; outer.len()];
    for (i, d) in outer.iter().enumerate().rev() {
        index[i] = n % d.size;
        n /= d.size;
    }
    index
}

/// The source row (of the matrix view) where the box at `index` of the
/// outer dimensions starts, on each device: the linear index of
/// `(outer offsets + index, a's offset, r's offset)` over the extents.
fn first_row(
    outer: &[Dim],
    index: &[usize],
    a: &Dim,
    r: &Dim,
    devices: usize,
) -> Option<PerDevice> {
    let mut row = PerDevice::constant(devices, 0);
    let steps = outer.iter().zip(index).chain([(a, &0), (r, &0)]);
    for (dim, i) in steps {
        let at = dim
            .offset
            .zip(&PerDevice::constant(devices, *i as i64), i64::checked_add)?;
        row = row.zip(&at, |acc, o| {
            acc.checked_mul(dim.whole as i64)?.checked_add(o)
        })?;
    }
    Some(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dim(whole: usize, offset: i64, size: usize) -> Dim {
        Dim {
            whole,
            offset: PerDevice::constant(2, offset),
            size,
        }
    }

    #[test]
    fn whole_and_single_entry_dimensions_join() {
        // [4, 6, 2] sliced [0:2, 3:6, 0:2]: the box [0:2, 6:12] of [4, 12].
        let box3 = joined(vec![dim(4, 0, 2), dim(6, 3, 3), dim(2, 0, 2)]).unwrap();
        assert_eq!(box3, vec![dim(1, 0, 1), dim(4, 0, 2), dim(12, 6, 6)]);
        // [5, 6, 7] sliced [2:3, 1:4, 0:7]: one run, [2*42 + 7 : +21].
        let run = joined(vec![dim(5, 2, 1), dim(6, 1, 3), dim(7, 0, 7)]).unwrap();
        assert_eq!(run[2], dim(210, 91, 21));
    }

    #[test]
    fn four_runs_make_one_loop_per_outer_index() {
        // [3, 4, 5, 6] sliced [1:3, 1:3, 2:4, 1:5]: two loops of two boxes.
        let dims = vec![dim(3, 1, 2), dim(4, 1, 2), dim(5, 2, 2), dim(6, 1, 4)];
        let moves = moves(&joined(dims).unwrap(), 2).unwrap();
        assert_eq!(moves.len(), 2);
        // Outer index 1 is source dim 0 at 2: rows (2*4 + 1)*5 + 2 = 47,
        // each loop step 5 rows on; its boxes are rows 4.. of [8, 4].
        assert_eq!(moves[1].src.view, [60, 6]);
        assert_eq!(moves[1].src.row.base.as_constant(), Some(47));
        assert_eq!(moves[1].src.row.step, 5);
        assert_eq!(moves[1].src.col.base.as_constant(), Some(1));
        assert_eq!(moves[1].dst.view, [8, 4]);
        assert_eq!(moves[1].dst.row.base.as_constant(), Some(4));
        assert_eq!((moves[1].extent, moves[1].count), ([2, 4], 2));
    }
}
