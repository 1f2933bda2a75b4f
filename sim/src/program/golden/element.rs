//! One element of a [`Dtype`] as the device holds it, the device's
//! arithmetic on it, and how reports print it.
//!
//! The device reduces in the element type of the data, one step at a time
//! (pto-isa's `TADD`, `TMAX`, `TMIN`, `TMUL` on tiles; the composite
//! collectives' `arith` ops): f16 steps compute in f32 and round to f16
//! (an overflow is infinity), f32 steps in f32, and integer steps wrap
//! around in the integer's width (`runtime-sys/include/pld/pto_sim.h`,
//! `Apply`; `arith.addi` and `arith.muli`). A golden computed here is what
//! such a device computes when it folds in rank order.

use crate::program::model::Dtype;
use crate::runtime::half::{f16_to_f32, f32_to_f16};
use pld_dialect::enums::ReduceOp;
use std::fmt;

/// An element type as the device computes in it.
pub(crate) trait Element: Copy + Send + Sync {
    const BYTES: usize;
    /// Whether it is a float (whose sums and products depend on the order
    /// of the steps).
    const FLOAT: bool;
    /// The element at the start of `bytes` (little-endian).
    fn load(bytes: &[u8]) -> Self;
    /// Writes it at the start of `bytes`.
    fn store(self, bytes: &mut [u8]);
    /// `a (op) b`, one step of the device's reduction.
    fn combine(op: ReduceOp, a: Self, b: Self) -> Self;
    /// Its value, widened exactly.
    fn widen(self) -> f64;
}

/// f16, as its bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Half(u16);

/// One f32 step; max and min give NaN when either side is NaN (IEEE
/// 754-2019 `maximum`, `minimum`, as `arith.maximumf` and `arith.minimumf`).
fn combine_f32(op: ReduceOp, a: f32, b: f32) -> f32 {
    match op {
        ReduceOp::Sum => a + b,
        ReduceOp::Prod => a * b,
        ReduceOp::Max | ReduceOp::Min if a.is_nan() || b.is_nan() => f32::NAN,
        ReduceOp::Max => a.max(b),
        ReduceOp::Min => a.min(b),
    }
}

impl Element for f32 {
    const BYTES: usize = 4;
    const FLOAT: bool = true;
    fn load(bytes: &[u8]) -> Self {
        f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    }
    fn store(self, bytes: &mut [u8]) {
        bytes[..4].copy_from_slice(&self.to_le_bytes());
    }
    fn combine(op: ReduceOp, a: Self, b: Self) -> Self {
        combine_f32(op, a, b)
    }
    fn widen(self) -> f64 {
        f64::from(self)
    }
}

impl Element for Half {
    const BYTES: usize = 2;
    const FLOAT: bool = true;
    fn load(bytes: &[u8]) -> Self {
        Half(u16::from_le_bytes([bytes[0], bytes[1]]))
    }
    fn store(self, bytes: &mut [u8]) {
        bytes[..2].copy_from_slice(&self.0.to_le_bytes());
    }
    /// In f32 (exact for f16 operands of a sum, a product, a max or a
    /// min), then rounded to f16 once, as the vector unit does.
    fn combine(op: ReduceOp, a: Self, b: Self) -> Self {
        Half(f32_to_f16(combine_f32(
            op,
            f16_to_f32(a.0),
            f16_to_f32(b.0),
        )))
    }
    fn widen(self) -> f64 {
        f64::from(f16_to_f32(self.0))
    }
}

/// Integer steps wrap around in the integer's width.
macro_rules! integer_element {
    ($t:ty) => {
        impl Element for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            const FLOAT: bool = false;
            fn load(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes[..Self::BYTES].try_into().unwrap())
            }
            fn store(self, bytes: &mut [u8]) {
                bytes[..Self::BYTES].copy_from_slice(&self.to_le_bytes());
            }
            fn combine(op: ReduceOp, a: Self, b: Self) -> Self {
                match op {
                    ReduceOp::Sum => a.wrapping_add(b),
                    ReduceOp::Prod => a.wrapping_mul(b),
                    ReduceOp::Max => a.max(b),
                    ReduceOp::Min => a.min(b),
                }
            }
            fn widen(self) -> f64 {
                f64::from(self)
            }
        }
    };
}
integer_element!(i32);
integer_element!(i8);

/// `$body` with `$t` the [`Element`] of `$dtype`.
macro_rules! by_dtype {
    ($dtype:expr, $t:ident => $body:expr) => {
        match $dtype {
            Dtype::F16 => {
                type $t = $crate::program::golden::element::Half;
                $body
            }
            Dtype::F32 => {
                type $t = f32;
                $body
            }
            Dtype::I32 => {
                type $t = i32;
                $body
            }
            Dtype::I8 => {
                type $t = i8;
                $body
            }
        }
    };
}
pub(crate) use by_dtype;

/// Elements of the fold folded per pass over the sources (a block stays in
/// the cache while every rank's part is added to it).
const BLOCK_BYTES: usize = 16 << 10;

/// Each `accs[j]` (as long as the `sources`) set to the fold of the
/// `sources` in the order `orders[j]`: `sources[o[0]] (op) sources[o[1]]
/// ...`. Block by block, every order of a block before the next, so that
/// the sources are read from memory once for all the orders.
pub(crate) fn fold_orders<T: Element>(
    op: ReduceOp,
    accs: &mut [&mut [u8]],
    sources: &[&[u8]],
    orders: &[&[usize]],
) {
    let block = BLOCK_BYTES / T::BYTES * T::BYTES;
    let len = sources.first().map_or(0, |s| s.len());
    for start in (0..len).step_by(block.max(1)) {
        let end = (start + block).min(len);
        for (acc, order) in accs.iter_mut().zip(orders) {
            let Some((first, rest)) = order.split_first() else {
                continue;
            };
            let acc = &mut acc[start..end];
            acc.copy_from_slice(&sources[*first][start..end]);
            for &rank in rest {
                combine_into::<T>(op, acc, &sources[rank][start..end]);
            }
        }
    }
}

/// `acc = acc (op) source`, element by element (as long as each other);
/// one loop per op, so that the compiler sees the op as a constant.
fn combine_into<T: Element>(op: ReduceOp, acc: &mut [u8], source: &[u8]) {
    match op {
        ReduceOp::Sum => zip_into::<T>(acc, source, |a, b| T::combine(ReduceOp::Sum, a, b)),
        ReduceOp::Max => zip_into::<T>(acc, source, |a, b| T::combine(ReduceOp::Max, a, b)),
        ReduceOp::Min => zip_into::<T>(acc, source, |a, b| T::combine(ReduceOp::Min, a, b)),
        ReduceOp::Prod => zip_into::<T>(acc, source, |a, b| T::combine(ReduceOp::Prod, a, b)),
    }
}

/// `acc = f(acc, source)`, element by element.
#[inline(always)]
fn zip_into<T: Element>(acc: &mut [u8], source: &[u8], f: impl Fn(T, T) -> T) {
    for (a, x) in acc
        .chunks_exact_mut(T::BYTES)
        .zip(source.chunks_exact(T::BYTES))
    {
        f(T::load(a), T::load(x)).store(a);
    }
}

/// One element's bits in its dtype, as a report prints it: the value as
/// the golden file or the result holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    pub dtype: Dtype,
    /// The element's bytes, little-endian, zero-extended.
    pub bits: u32,
}

impl Value {
    /// Element `i` of `bytes`.
    pub fn at(dtype: Dtype, bytes: &[u8], i: usize) -> Value {
        let n = dtype.bytes();
        let mut word = [0u8; 4];
        word[..n].copy_from_slice(&bytes[i * n..(i + 1) * n]);
        Value {
            dtype,
            bits: u32::from_le_bytes(word),
        }
    }

    /// The value, widened exactly.
    pub fn widen(self) -> f64 {
        let bytes = self.bits.to_le_bytes();
        by_dtype!(self.dtype, T => T::load(&bytes).widen())
    }
}

/// Integers as integers; floats as the shortest decimal that reads back as
/// the same f32 (exactly the f16 or f32 value; an exponent beyond 1e16 or
/// below 1e-5), `inf`, `-inf`, or `NaN` with its bits (two NaNs may
/// differ).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = match self.dtype {
            Dtype::I32 => return write!(f, "{}", self.bits as i32),
            Dtype::I8 => return write!(f, "{}", self.bits as u8 as i8),
            Dtype::F32 => f32::from_bits(self.bits),
            Dtype::F16 => f16_to_f32(self.bits as u16),
        };
        let digits = 2 * self.dtype.bytes();
        if value.is_nan() {
            write!(f, "NaN (0x{:0digits$x})", self.bits)
        } else if value.is_finite() && value != 0.0 && !(1e-5..1e16).contains(&value.abs()) {
            write!(f, "{value:e}")
        } else {
            write!(f, "{value}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `values` folded in rank order.
    fn fold<T: Element>(op: ReduceOp, values: &[&[u8]]) -> Vec<u8> {
        let mut acc = vec![0; values[0].len()];
        let order: Vec<usize> = (0..values.len()).collect();
        fold_orders::<T>(op, &mut [&mut acc[..]], values, &[&order[..]]);
        acc
    }

    #[test]
    fn every_order_is_folded_in_its_own_order() {
        // f16 30000, 40000, -40000: from rank 0, 30000 + 40000 overflows;
        // from rank 2, -40000 + 30000 + 40000 is 30000. Across a block
        // boundary too.
        let n = BLOCK_BYTES / 2 + 3;
        let copy = |bits: u16| -> Vec<u8> { bits.to_le_bytes().repeat(n) };
        let values = [copy(0x7753), copy(0x78e2), copy(0xf8e2)];
        let sources: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let (mut first, mut third) = (vec![0; 2 * n], vec![0; 2 * n]);
        let orders: [&[usize]; 2] = [&[0, 1, 2], &[2, 0, 1]];
        fold_orders::<Half>(
            ReduceOp::Sum,
            &mut [&mut first[..], &mut third[..]],
            &sources,
            &orders,
        );
        assert_eq!(first, copy(0x7c00));
        assert_eq!(third, copy(0x7753));
    }

    #[test]
    fn integers_wrap_around() {
        // 100 + 100 + 100 + 100 = 400 = 256 + 144; 144 as i8 is -112.
        let hundred = [100u8];
        assert_eq!(
            fold::<i8>(ReduceOp::Sum, &[&hundred[..]; 4]),
            [(-112i8) as u8]
        );
        // 2^30 * 4 = 2^32 wraps to 0 in i32.
        let big = (1i32 << 30).to_le_bytes();
        assert_eq!(fold::<i32>(ReduceOp::Sum, &[&big[..]; 4]), [0; 4]);
        let minus = (-3i8 as u8).to_le_bytes();
        assert_eq!(
            fold::<i8>(ReduceOp::Max, &[&minus[..], &hundred[..]]),
            [100]
        );
    }

    #[test]
    fn f16_rounds_every_step_and_overflows_to_infinity() {
        // 60000 in binary16 is 0x7b53; 60000 + 60000 is past 65504.
        let bits = 0x7b53u16.to_le_bytes();
        assert_eq!(f16_to_f32(0x7b53), 60000.0);
        assert_eq!(
            fold::<Half>(ReduceOp::Sum, &[&bits[..]; 4]),
            0x7c00u16.to_le_bytes()
        );
        // 2048 + 1 is 2048 in f16 (a step of 2 there): rank order, each
        // step rounded, 2048 + 1 + 1 = 2048, not 2050.
        let (two_k, one) = (0x6800u16.to_le_bytes(), 0x3c00u16.to_le_bytes());
        let sum = fold::<Half>(ReduceOp::Sum, &[&two_k[..], &one[..], &one[..]]);
        assert_eq!(sum, two_k);
    }

    #[test]
    fn values_print_as_the_dtype_holds_them() {
        let show = |dtype, bits| Value { dtype, bits }.to_string();
        assert_eq!(show(Dtype::I8, 0x90), "-112");
        assert_eq!(show(Dtype::I32, 0), "0");
        assert_eq!(show(Dtype::F16, 0x7c00), "inf");
        assert_eq!(show(Dtype::F16, 0xfc00), "-inf");
        assert_eq!(show(Dtype::F16, 0x7e00), "NaN (0x7e00)");
        assert_eq!(show(Dtype::F32, 0x7fc0_0001), "NaN (0x7fc00001)");
        assert_eq!(show(Dtype::F32, 2.5f32.to_bits()), "2.5");
        assert_eq!(show(Dtype::F32, 3.0e38f32.to_bits()), "3e38");
        // f16's 0.1 is 0.0999755859375; the shortest f32 reading of it.
        assert_eq!(show(Dtype::F16, 0x2e66), "0.099975586");
        assert_eq!(Value::at(Dtype::I8, &[1, 0x90], 1).widen(), -112.0);
    }
}
