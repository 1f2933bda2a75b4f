//! "Window as result" (docs/dialect.md): a collective's result is the
//! storage of one of its operands, so once a rail has lowered the
//! collective, every use of the result reads that operand instead.

use melior::ir::{OperationRef, Value};
use pld_ir as ir;

/// Replaces the uses of `collective`'s result by `storage` (the operand
/// whose window the result is) and erases the collective.
pub fn retire<'c, 'a>(collective: OperationRef<'c, 'a>, storage: Value<'c, 'a>)
where
    'c: 'a,
{
    if let Some(result) = ir::result_at(collective, 0) {
        ir::replace_all_uses(result, storage);
    }
    ir::erase(collective);
}
