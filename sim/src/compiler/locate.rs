//! Where an op is in the user's source, as reports name it.

use melior::ir::{operation::OperationLike, OperationRef};

/// `file:line:col` of an op, when its location has one.
pub fn position(op: OperationRef) -> Option<String> {
    pld_ir::loc::position(op.location()).map(|p| format!("{}:{}:{}", p.file, p.line, p.column))
}

/// `file:line:col` of an op, or a stand-in naming it (`a pto.tload`).
pub(crate) fn location_of(op: OperationRef, name: &str) -> String {
    position(op).unwrap_or_else(|| format!("a {name}"))
}
