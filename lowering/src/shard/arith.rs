//! Integer `arith` on per-device values, as MLIR defines it: every value
//! is a two's complement integer of its type's width (64 for `index`),
//! held here sign-extended in an `i64`. Additions, products and shifts
//! wrap at the width (an `i8` 127 + 1 is -128); the unsigned ops
//! (`divui`, `remui`, `ceildivui`, `maxui`, `minui`, `shrui`, `extui`,
//! `index_castui`, the `u` predicates of `cmpi`) read the same bits as
//! unsigned; a division by zero, a signed division of the minimum by -1
//! (its remainder is 0) and a shift by the width or more (poison in
//! MLIR) have no value.

/// A binary integer op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    FloorDivS,
    CeilDivS,
    CeilDivU,
    MaxS,
    MaxU,
    MinS,
    MinU,
    ShL,
    ShRS,
    ShRU,
    And,
    Or,
    Xor,
}

impl IntOp {
    /// The op of an `arith` op's name.
    pub fn from_name(name: &str) -> Option<IntOp> {
        Some(match name {
            "arith.addi" => IntOp::Add,
            "arith.subi" => IntOp::Sub,
            "arith.muli" => IntOp::Mul,
            "arith.divsi" => IntOp::DivS,
            "arith.divui" => IntOp::DivU,
            "arith.remsi" => IntOp::RemS,
            "arith.remui" => IntOp::RemU,
            "arith.floordivsi" => IntOp::FloorDivS,
            "arith.ceildivsi" => IntOp::CeilDivS,
            "arith.ceildivui" => IntOp::CeilDivU,
            "arith.maxsi" => IntOp::MaxS,
            "arith.maxui" => IntOp::MaxU,
            "arith.minsi" => IntOp::MinS,
            "arith.minui" => IntOp::MinU,
            "arith.shli" => IntOp::ShL,
            "arith.shrsi" => IntOp::ShRS,
            "arith.shrui" => IntOp::ShRU,
            "arith.andi" => IntOp::And,
            "arith.ori" => IntOp::Or,
            "arith.xori" => IntOp::Xor,
            _ => return None,
        })
    }

    /// `a op b` at `width` bits, or `None` where MLIR gives no value.
    pub fn apply(self, a: i64, b: i64, width: u32) -> Option<i64> {
        let (ua, ub) = (unsigned(a, width), unsigned(b, width));
        let wide = |x: i128| Some(wrap(x, width));
        match self {
            IntOp::Add => wide(i128::from(a) + i128::from(b)),
            IntOp::Sub => wide(i128::from(a) - i128::from(b)),
            IntOp::Mul => wide(i128::from(a) * i128::from(b)),
            IntOp::DivS => signed_division(a, b, width).map(|(q, _)| q),
            // The minimum by -1 overflows its quotient only: the
            // remainder is 0 (as MLIR folds it).
            IntOp::RemS if b == -1 => Some(0),
            IntOp::RemS => signed_division(a, b, width).map(|(_, r)| r),
            IntOp::FloorDivS => signed_division(a, b, width)
                .map(|(q, r)| q - i64::from(r != 0 && (r < 0) != (b < 0))),
            IntOp::CeilDivS => signed_division(a, b, width)
                .map(|(q, r)| q + i64::from(r != 0 && (r < 0) == (b < 0))),
            IntOp::DivU => ua.checked_div(ub).map(|q| wrap(q.into(), width)),
            IntOp::RemU => ua.checked_rem(ub).map(|r| wrap(r.into(), width)),
            IntOp::CeilDivU => ua
                .checked_div(ub)
                .map(|q| wrap(i128::from(q) + i128::from(ua % ub != 0), width)),
            IntOp::MaxS => Some(a.max(b)),
            IntOp::MinS => Some(a.min(b)),
            IntOp::MaxU => Some(if ua >= ub { a } else { b }),
            IntOp::MinU => Some(if ua <= ub { a } else { b }),
            IntOp::ShL => shift(ub, width).and_then(|s| wide(i128::from(a) << s)),
            IntOp::ShRS => shift(ub, width).map(|s| a >> s),
            IntOp::ShRU => shift(ub, width).map(|s| wrap(i128::from(ua >> s), width)),
            // Bitwise ops keep a sign-extended value sign-extended.
            IntOp::And => Some(a & b),
            IntOp::Or => Some(a | b),
            IntOp::Xor => Some(a ^ b),
        }
    }
}

/// Quotient and remainder rounded toward zero; none for a zero divisor or
/// the minimum divided by -1 (which overflows the width).
fn signed_division(a: i64, b: i64, width: u32) -> Option<(i64, i64)> {
    let overflows = b == -1 && a == wrap(1i128 << (width - 1), width);
    (b != 0 && !overflows).then(|| (wrap(i128::from(a) / i128::from(b), width), a % b))
}

/// A shift amount below the width.
fn shift(amount: u64, width: u32) -> Option<u32> {
    u32::try_from(amount).ok().filter(|s| *s < width)
}

/// How a cast reads its operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cast {
    /// `index_cast`, `extsi`, `trunci`: sign-extends or truncates.
    Signed,
    /// `index_castui`, `extui`: zero-extends or truncates.
    Unsigned,
}

impl Cast {
    /// The cast of an `arith` op's name.
    pub fn from_name(name: &str) -> Option<Cast> {
        match name {
            "arith.index_cast" | "arith.extsi" | "arith.trunci" => Some(Cast::Signed),
            "arith.index_castui" | "arith.extui" => Some(Cast::Unsigned),
            _ => None,
        }
    }

    /// `value` of `from` bits as a value of `to` bits.
    pub fn apply(self, value: i64, from: u32, to: u32) -> i64 {
        match self {
            Cast::Signed => wrap(value.into(), to),
            Cast::Unsigned => wrap(unsigned(value, from).into(), to),
        }
    }
}

/// An `arith.cmpi` predicate, by its number in the attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predicate {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl Predicate {
    /// The predicate numbered `n` (`arith::CmpIPredicate`).
    pub fn from_number(n: i64) -> Option<Predicate> {
        use Predicate::*;
        [Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge]
            .get(usize::try_from(n).ok()?)
            .copied()
    }

    /// Whether `a` and `b` of `width` bits compare so; as an `i1`
    /// (true is -1 sign-extended).
    pub fn apply(self, a: i64, b: i64, width: u32) -> i64 {
        let (ua, ub) = (unsigned(a, width), unsigned(b, width));
        let holds = match self {
            Predicate::Eq => a == b,
            Predicate::Ne => a != b,
            Predicate::Slt => a < b,
            Predicate::Sle => a <= b,
            Predicate::Sgt => a > b,
            Predicate::Sge => a >= b,
            Predicate::Ult => ua < ub,
            Predicate::Ule => ua <= ub,
            Predicate::Ugt => ua > ub,
            Predicate::Uge => ua >= ub,
        };
        -i64::from(holds)
    }
}

/// `x` at `width` bits (1 to 64), sign-extended.
pub fn wrap(x: i128, width: u32) -> i64 {
    let shift = 128 - width.clamp(1, 64);
    // Truncation then sign extension: the low `width` bits, as signed.
    ((x << shift) >> shift) as i64
}

/// The bits of `value` at `width` bits, read as unsigned.
pub fn unsigned(value: i64, width: u32) -> u64 {
    match width.clamp(1, 64) {
        64 => value as u64,
        w => (value as u64) & ((1u64 << w) - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `op` on each device's `a` with a constant `b`.
    fn each(op: IntOp, a: &[i64], b: i64, width: u32) -> Vec<Option<i64>> {
        a.iter().map(|a| op.apply(*a, b, width)).collect()
    }

    #[test]
    fn signed_divisions_round_as_their_names_say() {
        // floordivsi(d - 2, -3) and ceildivsi(d - 2, -3) for d = 0..3:
        // -2/-3 = 0.67, -1/-3 = 0.33, 0, 1/-3 = -0.33.
        let a = [-2, -1, 0, 1];
        assert_eq!(
            each(IntOp::FloorDivS, &a, -3, 64),
            [Some(0), Some(0), Some(0), Some(-1)]
        );
        assert_eq!(
            each(IntOp::CeilDivS, &a, -3, 64),
            [Some(1), Some(1), Some(0), Some(0)]
        );
        assert_eq!(
            each(IntOp::FloorDivS, &a, 3, 64),
            [Some(-1), Some(-1), Some(0), Some(0)]
        );
        assert_eq!(
            each(IntOp::CeilDivS, &a, 3, 64),
            [Some(0), Some(0), Some(0), Some(1)]
        );
        assert_eq!(
            each(IntOp::DivS, &a, -3, 64),
            [Some(0), Some(0), Some(0), Some(0)]
        );
        assert_eq!(IntOp::RemS.apply(-7, 3, 64), Some(-1));
        assert_eq!(IntOp::DivS.apply(-128, -1, 8), None);
        assert_eq!(IntOp::RemS.apply(-128, -1, 8), Some(0));
        assert_eq!(IntOp::DivS.apply(i64::MIN, -1, 64), None);
        assert_eq!(IntOp::FloorDivS.apply(5, 0, 64), None);
    }

    #[test]
    fn unsigned_ops_read_the_bits_as_unsigned() {
        // maxui(d - 2, 3): -2 and -1 are the largest unsigned values.
        let a = [-2, -1, 0, 1];
        assert_eq!(
            each(IntOp::MaxU, &a, 3, 64),
            [Some(-2), Some(-1), Some(3), Some(3)]
        );
        assert_eq!(
            each(IntOp::MinU, &a, 3, 64),
            [Some(3), Some(3), Some(0), Some(1)]
        );
        // remui(d - 2, 4) at 64 bits: 2^64 - 2 = 4k + 2.
        assert_eq!(
            each(IntOp::RemU, &a, 4, 64),
            [Some(2), Some(3), Some(0), Some(1)]
        );
        assert_eq!(IntOp::DivU.apply(-1, 2, 64), Some(i64::MAX));
        assert_eq!(IntOp::DivU.apply(-1, 2, 8), Some(127));
        assert_eq!(IntOp::CeilDivU.apply(7, 2, 32), Some(4));
        assert_eq!(IntOp::CeilDivU.apply(-1, 1, 64), Some(-1));
        assert_eq!(IntOp::ShRU.apply(-1, 4, 8), Some(15));
        assert_eq!(IntOp::ShRS.apply(-16, 2, 8), Some(-4));
    }

    #[test]
    fn narrow_types_wrap() {
        assert_eq!(IntOp::Add.apply(127, 1, 8), Some(-128));
        assert_eq!(IntOp::Mul.apply(100, 3, 8), Some(44));
        assert_eq!(
            IntOp::Sub.apply(i64::from(i32::MIN), 1, 32),
            Some(i64::from(i32::MAX))
        );
        assert_eq!(IntOp::Add.apply(i64::MAX, 1, 64), Some(i64::MIN));
        assert_eq!(IntOp::ShL.apply(1, 7, 8), Some(-128));
        assert_eq!(IntOp::ShL.apply(1, 8, 8), None);
        assert_eq!(IntOp::ShL.apply(1, -1, 64), None);
        assert_eq!(wrap(200, 8), -56);
        assert_eq!(wrap(1, 1), -1);
    }

    #[test]
    fn casts_extend_by_their_kind() {
        assert_eq!(Cast::Signed.apply(-1, 8, 64), -1);
        assert_eq!(Cast::Unsigned.apply(-1, 8, 64), 255);
        assert_eq!(Cast::Unsigned.apply(-1, 1, 32), 1);
        assert_eq!(Cast::Signed.apply(300, 64, 8), 44);
        assert_eq!(Cast::Unsigned.apply(-1, 64, 32), -1);
    }

    #[test]
    fn predicates_compare_signed_or_unsigned() {
        assert_eq!(Predicate::from_number(6), Some(Predicate::Ult));
        assert_eq!(Predicate::from_number(10), None);
        assert_eq!(Predicate::Slt.apply(-1, 0, 64), -1);
        assert_eq!(Predicate::Ult.apply(-1, 0, 64), 0);
        assert_eq!(Predicate::Uge.apply(-1, 0, 8), -1);
    }
}
