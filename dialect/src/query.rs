//! Reading pld facts off the IR.

use crate::enums::{FuncKind, PldEnum};
use melior::ir::{operation::OperationLike, OperationRef};

/// Reads the `pld.kind` of a function: `Ok(None)` when absent, `Err` with
/// the offending text when it is not a valid kind.
pub fn function_kind(func: OperationRef) -> Result<Option<FuncKind>, String> {
    match func.attribute("pld.kind") {
        Err(_) => Ok(None),
        Ok(attribute) => FuncKind::from_attribute(attribute)
            .map(Some)
            .ok_or_else(|| attribute.to_string()),
    }
}
