//! Analyses shared by the HOST-rail passes: which functions are HOST
//! orchestrators, which allocation a view belongs to, which devices a
//! dispatch reaches, the operand roles of each collective, and window sizes
//! as expressions of `world_size`.

pub mod allreduce;
pub mod devices;
pub mod roles;
pub mod sizes;
pub mod windows;

use melior::ir::OperationRef;
use pld_dialect::{enums::FuncKind, query::function_kind};

/// The HOST orchestrators in `root` (a module, or a function when a pass is
/// nested under `func.func`), in order.
pub fn host_functions<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    pld_ir::functions(root)
        .into_iter()
        .filter(|f| function_kind(*f) == Ok(Some(FuncKind::Host)))
        .collect()
}

/// Whether an op is a loop (`scf.for` or `scf.while`).
pub fn is_loop(name: &str) -> bool {
    matches!(name, "scf.for" | "scf.while")
}

/// The enclosing loop of `op` inside its function, if any.
pub fn enclosing_loop<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    pld_ir::ancestors(op)
        .into_iter()
        .find(|a| is_loop(&pld_ir::op_name(a)))
}
