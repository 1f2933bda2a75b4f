//! `convert-pto-to-sim`: the sim-only lowering of a converted module.
//! Docs: `docs/passes/convert-pto-to-sim.md`; tests:
//! `tests/lit/passes/convert-pto-to-sim/`.
//!
//! Every kernel (a `func.func` with `pto.kernel_kind` and a body) is
//! lowered by [`crate::compiler::lower`]: PTO pointers become LLVM
//! pointers, views fold into addresses, tiles become blocks the simulator
//! allocates, and the communication ops become calls of the device
//! functions. The functions without `pto.kernel_kind` that kernels call
//! (helpers of scalar code) are kept as they are; every other function is
//! removed (orchestrators are the simulator's to run, not compiled code),
//! and the device functions are declared from `pld_sim.h`. What is left is
//! `func`, `arith`, `scf` and `llvm`, ready for MLIR's LLVM lowering.

use crate::compiler::lower::{self, declarations};
use melior::{
    ir::{
        block::BlockLike, operation::OperationLike, r#type::TypeLike, Module, OperationRef,
        RegionLike, ValueLike,
    },
    pass::Pass,
    Context,
};
use pld_ir::{
    self as ir,
    pass::{external, Anchor, PassFailed, PassIdentity, PldPass},
};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Default)]
pub struct ConvertPtoToSim;

impl PldPass for ConvertPtoToSim {
    const ARGUMENT: &'static str = "convert-pto-to-sim";
    const NAME: &'static str = "ConvertPtoToSim";
    const SUMMARY: &'static str =
        "Lower converted PTO kernels for the CPU simulator: LLVM pointers, folded views, tile blocks and device-function calls";
    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, module: OperationRef) -> Result<(), PassFailed> {
        let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
            return Ok(());
        };
        // Removing it as "not a kernel" would drop the user's kernel.
        if let Some(function) = unconverted_kernel(module) {
            pld_ir::diag::emit_error(
                function.location(),
                &format!(
                    "'func.func' op @{} is a device kernel without pto.kernel_kind: \
                     convert-pto-to-sim lowers converted kernels; place it after \
                     convert-pld-to-pto (or the pld-to-pto pipeline)",
                    ir::symbol_name(function).unwrap_or_default()
                ),
            );
            return Err(PassFailed);
        }
        if let Some(taken) = device_function_name(module) {
            // The declarations added below would redefine it (MLIR said so
            // at a line of the declarations' own text).
            let name = ir::symbol_name(taken).unwrap_or_default();
            pld_ir::diag::emit_error(
                taken.location(),
                &format!(
                    "'{}' op @{name} has the name of one of the simulator's device functions \
                     (runtime-sys/include/pld/pld_sim.h), which convert-pto-to-sim declares: \
                     rename it",
                    ir::op_name(&taken)
                ),
            );
            return Err(PassFailed);
        }
        let helpers = match kernels_scalar(module)
            .and_then(|()| helpers_of_kernels(module))
            .and_then(|h| no_recursion(module, h))
        {
            Ok(helpers) => helpers,
            Err((op, message)) => {
                pld_ir::diag::emit_error(op.location(), &message);
                return Err(PassFailed);
            }
        };
        let mut op = body.first_operation();
        while let Some(current) = op {
            op = current.next_in_block();
            let kernel = ir::op_name(&current) == "func.func"
                && current.attribute("pto.kernel_kind").is_ok()
                && has_body(current);
            let helper = ir::symbol_name(current).is_some_and(|name| helpers.contains(&name));
            let lowered = match (helper, kernel) {
                (true, _) => lower::guard_undefined(context, current),
                (false, true) => lower::lower_kernel(context, current)
                    .and_then(|()| lower::guard_undefined(context, current)),
                (false, false) => {
                    ir::erase(current);
                    Ok(())
                }
            };
            if let Err(refusal) = lowered {
                // As MLIR words an op's error: `'pto.tload' op is not
                // simulated ...`.
                pld_ir::diag::emit_error(
                    refusal.op.location(),
                    &format!("'{}' op {}", ir::op_name(&refusal.op), refusal.message),
                );
                return Err(PassFailed);
            }
        }
        let declared = Module::parse(context, &declarations::declarations())
            .expect("the device-function declarations parse");
        let mut declaration = declared.body().first_operation();
        while let Some(current) = declaration {
            declaration = current.next_in_block();
            body.append_operation(ir::clone_op(current));
        }
        Ok(())
    }
}

/// The first device kernel of `module` (InCore, AIV or AIC, with a body)
/// that `convert-pld-to-pto` has not converted yet; a builtin kernel's
/// stand-in (the CHIP rail's, rendered from its template) is not one.
pub fn unconverted_kernel<'c, 'a>(module: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    ir::functions(module).into_iter().find(|f| {
        pld_dialect::query::function_kind(*f)
            .ok()
            .flatten()
            .is_some_and(|k| k.is_device())
            && f.attribute("pto.kernel_kind").is_err()
            && f.attribute("builtin_template_dir").is_err()
            && f.region(0).ok().and_then(|r| r.first_block()).is_some()
    })
}

/// The first op of `module`'s body whose symbol is the name of a device
/// function (`pld_sim_fence`, ...).
fn device_function_name<'c, 'a>(module: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let names: HashSet<String> = declarations::device_functions()
        .into_iter()
        .map(|f| f.name)
        .collect();
    let body = module.region(0).ok()?.first_block()?;
    let mut op = body.first_operation();
    while let Some(current) = op {
        if ir::symbol_name(current).is_some_and(|name| names.contains(&name)) {
            return Some(current);
        }
        op = current.next_in_block();
    }
    None
}

fn has_body(function: OperationRef) -> bool {
    function
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .is_some()
}

/// The dialects of the ops a kernel's helper (a function without
/// `pto.kernel_kind` that a kernel calls) may hold: scalar code, which
/// MLIR's LLVM lowering compiles as it is (after `lower-affine`).
const HELPER_DIALECTS: [&str; 7] = ["func", "arith", "math", "scf", "cf", "index", "affine"];

/// Every kernel holds PTO ops and scalar code only ([`HELPER_DIALECTS`]),
/// else the first op that does not: a `memref.alloca` of megabytes
/// overflowed the rank's stack (status 139) and an `llvm.load` of a null
/// pointer faulted in a loop, where PTOAS and the explorer refuse both.
fn kernels_scalar<'c, 'a>(
    module: OperationRef<'c, 'a>,
) -> Result<(), (OperationRef<'c, 'a>, String)> {
    let kernels = ir::functions(module)
        .into_iter()
        .filter(|f| f.attribute("pto.kernel_kind").is_ok() && has_body(*f));
    for kernel in kernels {
        let name = ir::symbol_name(kernel).unwrap_or_default();
        for op in ir::collect(kernel, |n| !n.starts_with("pto.")) {
            let what = match outside_scalar_code(op) {
                None => continue,
                Some(Outside::Dialect) => String::new(),
                Some(Outside::Makes(t)) => format!(" makes a {t}, which"),
            };
            return Err((
                op,
                format!(
                    "'{}' op in kernel @{name}{what} has no PTO form: the simulator compiles a \
                     converted kernel's PTO ops and scalar code ({} ops) only",
                    ir::op_name(&op),
                    HELPER_DIALECTS.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// Why an op is not scalar code.
enum Outside {
    /// Its dialect is none of [`HELPER_DIALECTS`].
    Dialect,
    /// It makes a tensor or a memref (a tensor constant of `arith`'s
    /// failed "to convert to LLVM IR", without a place).
    Makes(String),
}

/// Why `op` is not scalar code, which MLIR's LLVM lowering compiles as it
/// is; `None` when it is.
fn outside_scalar_code(op: OperationRef) -> Option<Outside> {
    let name = ir::op_name(&op);
    if !HELPER_DIALECTS.contains(&name.split('.').next().unwrap_or_default()) {
        return Some(Outside::Dialect);
    }
    (0..op.result_count())
        .filter_map(|i| op.result(i).ok())
        .map(|r| r.r#type())
        .find(|t| t.is_tensor() || t.is_mem_ref() || t.is_unranked_mem_ref())
        .map(|t| Outside::Makes(t.to_string()))
}

/// The names of the functions without `pto.kernel_kind` that the kernels
/// call, directly or through each other: they are compiled with the
/// kernels. A helper must have a body of scalar code ([`HELPER_DIALECTS`]);
/// the first call or op that breaks that is the error.
fn helpers_of_kernels<'c, 'a>(
    module: OperationRef<'c, 'a>,
) -> Result<HashSet<String>, (OperationRef<'c, 'a>, String)> {
    let functions: HashMap<String, OperationRef> = ir::functions(module)
        .into_iter()
        .filter_map(|f| Some((ir::symbol_name(f)?, f)))
        .collect();
    let mut pending: Vec<OperationRef> = functions
        .values()
        .copied()
        .filter(|f| f.attribute("pto.kernel_kind").is_ok() && has_body(*f))
        .collect();
    let mut helpers = HashSet::new();
    while let Some(caller) = pending.pop() {
        for call in ir::collect(caller, |n| n == "func.call") {
            let Some(name) = pld_ir::attr::callee(call) else {
                continue;
            };
            let Some(callee) = functions.get(&name).copied() else {
                continue;
            };
            if callee.attribute("pto.kernel_kind").is_ok() && has_body(callee) {
                continue;
            }
            if !has_body(callee) {
                return Err((
                    call,
                    format!(
                        "'func.call' op calls @{name}, which is only declared: the simulator \
                         compiles what a kernel calls, and needs @{name}'s body"
                    ),
                ));
            }
            if helpers.insert(name.clone()) {
                check_helper(callee, &name)?;
                pending.push(callee);
            }
        }
    }
    Ok(helpers)
}

/// `helpers` when no kernel or helper calls itself, directly or through
/// others; else the call that closes the first cycle. A kernel's calls run
/// on its rank's stack, where deep recursion ended the process with a
/// stack overflow (status 134); a device kernel's stack is small too.
fn no_recursion<'c, 'a>(
    module: OperationRef<'c, 'a>,
    helpers: HashSet<String>,
) -> Result<HashSet<String>, (OperationRef<'c, 'a>, String)> {
    let compiled = |f: &OperationRef| {
        ir::symbol_name(*f).is_some_and(|n| helpers.contains(&n))
            || (f.attribute("pto.kernel_kind").is_ok() && has_body(*f))
    };
    let functions: HashMap<String, OperationRef> = ir::functions(module)
        .into_iter()
        .filter(compiled)
        .filter_map(|f| Some((ir::symbol_name(f)?, f)))
        .collect();
    let calls = |f: OperationRef<'c, 'a>| -> Vec<(OperationRef<'c, 'a>, String)> {
        ir::collect(f, |n| n == "func.call")
            .into_iter()
            .filter_map(|c| Some((c, pld_ir::attr::callee(c)?)))
            .filter(|(_, callee)| functions.contains_key(callee))
            .collect()
    };
    let mut done: HashSet<String> = HashSet::new();
    let mut names: Vec<&String> = functions.keys().collect();
    names.sort();
    for root in names {
        // Depth first; `path` holds the functions being called.
        let mut path: Vec<(String, Vec<(OperationRef, String)>)> =
            vec![(root.clone(), calls(functions[root]))];
        while let Some((_, pending)) = path.last_mut() {
            let Some((call, callee)) = pending.pop() else {
                done.insert(path.pop().expect("not empty").0);
                continue;
            };
            if let Some(at) = path.iter().position(|(name, _)| *name == callee) {
                let cycle: Vec<String> = path[at..].iter().map(|(n, _)| format!("@{n}")).collect();
                return Err((
                    call,
                    format!(
                        "'func.call' op calls @{callee} again from within it ({} -> @{callee}): \
                         the simulator compiles no recursion among a kernel's calls, which run \
                         on the rank's stack (as on a device, where it is small); write it as \
                         a loop",
                        cycle.join(" -> ")
                    ),
                ));
            }
            if !done.contains(&callee) {
                let next = calls(functions[&callee]);
                path.push((callee, next));
            }
        }
    }
    Ok(helpers)
}

/// A helper's ops are scalar code.
fn check_helper<'c, 'a>(
    helper: OperationRef<'c, 'a>,
    name: &str,
) -> Result<(), (OperationRef<'c, 'a>, String)> {
    let foreign: Vec<(OperationRef, Outside)> = ir::collect(helper, |_| true)
        .into_iter()
        .filter_map(|op| Some((op, outside_scalar_code(op)?)))
        .collect();
    let returns = ir::function_type(helper).is_some_and(|t| t.result_count() > 0);
    let results = match returns {
        true => " (a kernel returns nothing: give its results back through a tensor parameter)",
        false => "",
    };
    match foreign.into_iter().next() {
        None => Ok(()),
        Some((op, why)) => Err((
            op,
            format!(
                "'{}' op{} is in @{name}, which a kernel calls and which is not a converted \
                 kernel: the simulator compiles such helpers when they hold scalar code only \
                 ({} ops); give @{name} a pld.kind (#pld.func_kind<\"incore\">) so that \
                 convert-pld-to-pto converts it as a kernel{results}",
                ir::op_name(&op),
                match why {
                    Outside::Dialect => String::new(),
                    Outside::Makes(t) => format!(" (a {t})"),
                },
                HELPER_DIALECTS.join(", ")
            ),
        )),
    }
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(ConvertPtoToSim, &IDENTITY)
}
