//! Integer ops of the kernel's own scalar code whose result MLIR leaves
//! undefined, guarded: a division or remainder by 0, a signed division of
//! its type's minimum by -1, and a shift by the type's width or more. LLVM
//! may assume these away, and with them a later bounds check (a load then
//! lands anywhere), or the CPU faults. Before each such op the lowering
//! checks its operands: on a bad one it calls `pld_sim_undefined` (an
//! error of the run at the op) and the op goes on with a harmless operand
//! instead (divides by 1, shifts by 0). A signed remainder of the minimum
//! by -1 is 0, as by 1, and no error. A `cf.assert` that fails is an
//! error of the run too (`what` 3), naming its message. The overflow
//! flags of `arith` ops (`nsw`, `nuw`: poison on overflow) are dropped, so
//! an overflowing offset wraps and its bounds check stays.

use melior::{
    dialect::arith,
    ir::{
        operation::OperationLike,
        r#type::{IntegerType, TypeLike},
        OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use pld_ir::{self as ir, build::Builder};

/// An op whose operands may leave its result undefined.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Risky {
    /// An unsigned division or remainder: a divisor of 0.
    Unsigned,
    /// A signed quotient: a divisor of 0, or the minimum by -1.
    SignedQuotient,
    /// A signed remainder: a divisor of 0 (the minimum by -1 is 0).
    SignedRemainder,
    /// A shift: by the type's width or more (or a negative amount, which
    /// is that as unsigned).
    Shift,
}

/// What `pld_sim_undefined` is told (its `what`, as `pld_sim.h` numbers it).
#[derive(Clone, Copy)]
enum Undefined {
    DivisionByZero = 0,
    Overflow = 1,
    ShiftTooFar = 2,
    AssertionFails = 3,
}

fn risky(name: &str) -> Option<Risky> {
    match name {
        "arith.divui" | "arith.remui" | "arith.ceildivui" | "index.divu" | "index.remu"
        | "index.ceildivu" => Some(Risky::Unsigned),
        "arith.divsi" | "arith.ceildivsi" | "arith.floordivsi" | "index.divs"
        | "index.ceildivs" | "index.floordivs" => Some(Risky::SignedQuotient),
        "arith.remsi" | "index.rems" => Some(Risky::SignedRemainder),
        "arith.shli" | "arith.shrsi" | "arith.shrui" | "index.shl" | "index.shrs"
        | "index.shru" => Some(Risky::Shift),
        _ => None,
    }
}

/// Guards every such op in `function` (a kernel or a helper it calls); the
/// first on other than a scalar (a vector, whose lanes it does not check)
/// is refused.
pub fn guard_undefined<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
) -> Result<(), super::Refusal<'c, 'a>>
where
    'c: 'a,
{
    for op in ir::collect(function, |name| risky(name).is_some()) {
        guard(context, op)?;
    }
    for op in ir::collect(function, |name| name == "cf.assert") {
        assertion(context, op);
    }
    // `overflow<nsw>` / `<nuw>` make an overflow poison, which let LLVM
    // drop the bounds check of the offset computed so (a product past i32
    // read as row 4294967295): the simulator computes it wrapped. (The
    // flags are a property: set to none, not removed.)
    let none = melior::ir::Attribute::parse(context, "#arith.overflow<none>")
        .expect("#arith.overflow<none> parses");
    for op in ir::collect(function, |name| name.starts_with("arith.")) {
        if op
            .attribute("overflowFlags")
            .is_ok_and(|flags| flags != none)
        {
            ir::set_attribute(op, "overflowFlags", none);
        }
    }
    Ok(())
}

/// A `cf.assert` that fails is an error of the run at the op, naming its
/// message; the kernel goes on (MLIR's lowering aborted the process with
/// no word).
fn assertion<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>)
where
    'c: 'a,
{
    let Some(condition) = ir::operand(op, 0) else {
        return;
    };
    let message = op
        .attribute("msg")
        .ok()
        .and_then(pld_ir::attr::string)
        .unwrap_or_default();
    let b = Builder::before(context, op);
    let holds = b.value(ir::constant(context, condition.r#type(), -1, b.location));
    let fails = b.value(arith::xori(condition, holds, b.location));
    let name = format!("cf.assert {message:?}");
    let what = [(fails, Undefined::AssertionFails)];
    report(context, &b, (op, &name), fails, &what);
    ir::erase(op);
}

/// The width of a scalar integer type (`index` is 64 bits in the
/// simulator); `None` for anything else.
fn scalar_width(ty: Type) -> Option<u32> {
    if ty.is_index() {
        return Some(64);
    }
    IntegerType::try_from(ty).ok().map(|t| t.width())
}

fn guard<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>) -> super::Lowered<'c, 'a>
where
    'c: 'a,
{
    let name = ir::op_name(&op);
    let (Some(kind), Some(lhs), Some(rhs)) = (risky(&name), ir::operand(op, 0), ir::operand(op, 1))
    else {
        return Ok(());
    };
    let ty = rhs.r#type();
    let Some(width) = scalar_width(ty) else {
        return super::rewriter::refuse(
            op,
            format!(
                "on {ty} is not simulated: the simulator checks a scalar's divisor or shift \
                 amount, which MLIR leaves undefined when it is out of range (use scalars)"
            ),
        );
    };
    let b = Builder::before(context, op);
    let constant = |value: i64| b.value(ir::constant(context, ty, value, b.location));
    let site = (op, name.as_str());
    let (replace, harmless) = match kind {
        Risky::Shift => {
            // Unsigned, so that a negative amount is too far as well.
            let too_far = b.value(arith::cmpi(
                context,
                arith::CmpiPredicate::Uge,
                rhs,
                constant(i64::from(width)),
                b.location,
            ));
            let what = [(too_far, Undefined::ShiftTooFar)];
            report(context, &b, site, too_far, &what);
            (too_far, 0)
        }
        _ => (divisor_guard(context, &b, site, kind, (lhs, rhs), width), 1),
    };
    let operand = b.select(replace, constant(harmless), rhs);
    match arith_form(&name) {
        // MLIR's lowering of index.ceildivs and index.floordivs overflows
        // inside for defined results (ceil(MIN / 2) came out positive,
        // MAX / -1 faulted): the arith op on index computes them right.
        Some(arith_name) => {
            let replacement = b.value(
                melior::ir::operation::OperationBuilder::new(arith_name, b.location)
                    .add_operands(&[lhs, operand])
                    .add_results(&[ty])
                    .build()
                    .expect("an arith op on index builds"),
            );
            if let Some(result) = ir::result_at(op, 0) {
                ir::replace_all_uses(result, replacement);
            }
            ir::erase(op);
        }
        None => ir::set_operands(op, &[lhs, operand]),
    }
    Ok(())
}

/// The `arith` op an `index` op is computed as.
fn arith_form(name: &str) -> Option<&'static str> {
    Some(match name {
        "index.divs" => "arith.divsi",
        "index.divu" => "arith.divui",
        "index.rems" => "arith.remsi",
        "index.remu" => "arith.remui",
        "index.ceildivs" => "arith.ceildivsi",
        "index.ceildivu" => "arith.ceildivui",
        "index.floordivs" => "arith.floordivsi",
        "index.shl" => "arith.shli",
        "index.shrs" => "arith.shrsi",
        "index.shru" => "arith.shrui",
        _ => return None,
    })
}

/// Checks a division's divisor: reports a divisor of 0 (and for a signed
/// quotient the minimum by -1); returns when the op must divide by 1
/// instead (either case, and a signed remainder's minimum by -1).
fn divisor_guard<'c, 'a>(
    context: &'c Context,
    b: &Builder<'c, 'a>,
    site: (OperationRef<'c, 'a>, &str),
    kind: Risky,
    (lhs, rhs): (Value<'c, 'a>, Value<'c, 'a>),
    width: u32,
) -> Value<'c, 'a>
where
    'c: 'a,
{
    let zero = b.equal(
        rhs,
        b.value(ir::constant(context, rhs.r#type(), 0, b.location)),
    );
    let overflow = (kind != Risky::Unsigned)
        .then(|| minimum_by_minus_one(b, (lhs, rhs), width))
        .flatten();
    let bad = overflow.map_or(zero, |overflow| {
        b.value(arith::ori(zero, overflow, b.location))
    });
    match (kind, overflow) {
        (Risky::SignedQuotient, Some(overflow)) => {
            let what = [
                (zero, Undefined::DivisionByZero),
                (overflow, Undefined::Overflow),
            ];
            report(context, b, site, bad, &what);
        }
        _ => report(context, b, site, zero, &[(zero, Undefined::DivisionByZero)]),
    }
    bad
}

/// `lhs == MIN && rhs == -1` for a signed type of `width` bits that fits
/// a constant here (not i65 and wider). In i1 both are -1 (true).
fn minimum_by_minus_one<'c, 'a>(
    b: &Builder<'c, 'a>,
    (lhs, rhs): (Value<'c, 'a>, Value<'c, 'a>),
    width: u32,
) -> Option<Value<'c, 'a>>
where
    'c: 'a,
{
    if !(1..=64).contains(&width) {
        return None;
    }
    let ty = rhs.r#type();
    let constant = |value: i64| b.value(ir::constant(b.context, ty, value, b.location));
    let both = [
        b.equal(lhs, constant(i64::MIN >> (64 - width))),
        b.equal(rhs, constant(-1)),
    ];
    Some(b.value(arith::andi(both[0], both[1], b.location)))
}

/// When `any` holds (one of the conditions of `what`), calls
/// `pld_sim_undefined` with the op's site and the first `what` whose
/// condition holds.
fn report<'c, 'a>(
    context: &'c Context,
    b: &Builder<'c, 'a>,
    (op, name): (OperationRef<'c, 'a>, &str),
    any: Value<'c, 'a>,
    what: &[(Value<'c, 'a>, Undefined)],
) where
    'c: 'a,
{
    let site = crate::runtime::sites::register(name, crate::compiler::locate::location_of(op));
    let branch = b.if_then_else(any, &[]);
    let then = &branch.then_body;
    let site = then.value(ir::constant(
        context,
        ir::i64_type(context),
        site,
        then.location,
    ));
    // The first that holds: later conditions are tried in reverse.
    let code = what
        .iter()
        .rev()
        .fold(None, |later, (condition, kind)| {
            let code = then.i32(*kind as i64);
            Some(match later {
                None => code,
                Some(later) => then.select(*condition, code, later),
            })
        })
        .expect("at least one condition");
    then.insert(melior::dialect::func::call(
        context,
        melior::ir::attribute::FlatSymbolRefAttribute::new(context, "pld_sim_undefined"),
        &[site, code],
        &[],
        then.location,
    ));
}
