//! Reading pld facts off the IR.

use crate::enums::{FuncKind, PldEnum};
use melior::ir::{operation::OperationLike, OperationRef};

/// Why a function name holding a NUL byte is refused (by pld-verify, the
/// shard conversion, the simulator's JIT and pld-translate): LLVM's JIT,
/// PTOAS and the C++ they make name functions by C strings, which a NUL
/// cuts short.
pub const NUL_IN_NAME: &str =
    "a NUL byte in its name, which no compiled function can carry; rename it";

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

/// Function attribute of a synthesized builtin kernel (CHIP rail,
/// docs/passes/pld-lower-l2-tensor-collectives.md): the template package
/// handle, e.g. `":pypto.runtime.builtins.collectives.all_to_all_v"`.
pub const BUILTIN_TEMPLATE_DIR: &str = "builtin_template_dir";
/// Its template variables, a comma-separated `key=value` list.
pub const BUILTIN_TEMPLATE_VARS: &str = "builtin_template_vars";
/// Its runtime contiguity contract (spec 13): `true`.
pub const REQUIRE_CONTIGUOUS_OPERANDS: &str = "require_contiguous_operands";
/// The call directions of a function's tensor parameters, an array of
/// `#pld.direction`, one per parameter before the CommContexts.
pub const ARG_DIRECTIONS: &str = "pld.arg_directions";

/// The template package of a synthesized builtin kernel, if `func` is one.
/// Such a function is never compiled: its body is a placeholder and its
/// code is the rendered template.
pub fn builtin_template(func: OperationRef) -> Option<String> {
    pld_ir::attr::string(func.attribute(BUILTIN_TEMPLATE_DIR).ok()?)
}

/// The `key=value` pairs of a `builtin_template_vars` string, in order;
/// `None` when an entry has no `=` or an empty key.
pub fn template_vars(text: &str) -> Option<Vec<(String, String)>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',')
        .map(|entry| {
            let (key, value) = entry.split_once('=')?;
            let key = key.trim();
            (!key.is_empty()).then(|| (key.to_string(), value.trim().to_string()))
        })
        .collect()
}
