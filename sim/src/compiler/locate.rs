//! Where an op is in the user's source, as reports name it.

use melior::ir::{operation::OperationLike, OperationRef};

/// `file:line:col` of an op, when its location has one: where MLIR shows
/// a diagnostic at it (a call site's callee, else its caller).
pub fn position(op: OperationRef) -> Option<String> {
    pld_ir::loc::position(op.location()).map(|p| format!("{}:{}:{}", p.file, p.line, p.column))
}

/// `file:line:col` of an op, or its location as MLIR prints one that
/// names no file (`loc("bar")`), or `<unknown>` (MLIR's word).
pub fn location_of(op: OperationRef) -> String {
    position(op).unwrap_or_else(|| match pld_ir::loc::is_unknown(op.location()) {
        true => "<unknown>".to_string(),
        false => op.location().to_string(),
    })
}
