//! `pld-c/Passes.h`: pld's passes for a caller's pass manager, and their
//! registration in MLIR's global pass registry.

use crate::raw;
use mlir_sys::{MlirPass, MlirStringCallback, MlirStringRef};
use std::ffi::c_void;

/// Every pld pass and pipeline `libpld.so` offers: the simulator's
/// registry, which holds the lowering's and the backend's.
pub(crate) fn registry() -> pld_ir::registry::Registry {
    pld_sim::registry()
}

fn null_pass() -> MlirPass {
    MlirPass {
        ptr: std::ptr::null_mut(),
    }
}

/// The pass called `argument`, configured with `options` (empty for the
/// defaults).
pub(crate) fn create(argument: &str, options: &str) -> Result<MlirPass, String> {
    let registry = registry();
    let entry = registry.pass(argument).ok_or_else(|| {
        let names: Vec<&str> = registry.passes().iter().map(|p| p.argument).collect();
        // A pipeline's name is no pass: mlirParsePassPipeline builds it.
        let pipeline = match registry.pipeline(argument) {
            Some(_) => format!(
                "; '{argument}' is a pipeline: parse 'builtin.module({argument})' with \
                 mlirParsePassPipeline after pldRegisterPasses"
            ),
            None => String::new(),
        };
        format!(
            "no pld pass is called '{argument}' (the passes: {}){pipeline}",
            names.join(", ")
        )
    })?;
    let options = Some(options.trim()).filter(|o| !o.is_empty());
    Ok(entry.instantiate(options)?.to_raw())
}

#[no_mangle]
pub extern "C" fn pldRegisterPasses() {
    raw::guard(None, (), || {
        pld_ir::global::register(&registry());
    })
}

#[no_mangle]
pub extern "C" fn pldCreatePass(
    argument: MlirStringRef,
    options: MlirStringRef,
    callback: MlirStringCallback,
    user_data: *mut c_void,
) -> MlirPass {
    let made = raw::guard(None, Err("internal error in libpld".into()), || {
        let argument = raw::string(argument, "the pass name")?;
        let options = raw::string(options, "the options")?;
        create(&argument, &options)
    });
    match made {
        Ok(pass) => pass,
        Err(message) => {
            raw::call_back(callback, user_data, &message);
            null_pass()
        }
    }
}

/// Defines `pldCreate<Name>Pass`, creating the pass `argument` with its
/// default options.
macro_rules! create_pass {
    ($($function:ident => $argument:literal,)*) => {
        $(
            #[no_mangle]
            pub extern "C" fn $function() -> MlirPass {
                raw::guard(None, Ok(null_pass()), || create($argument, ""))
                    .unwrap_or_else(|_| null_pass())
            }
        )*

        /// The per-pass functions, by name, and the pass each creates.
        #[cfg(test)]
        pub(crate) const CREATE_FUNCTIONS: &[(&str, &str)] =
            &[$((stringify!($function), $argument),)*];
    };
}

create_pass! {
    pldCreateVerifyPass => "pld-verify",
    pldCreateConvertShardToPldPass => "convert-shard-to-pld",
    pldCreateSelectAllReduceModesPass => "pld-select-allreduce-modes",
    pldCreateSynthesizeAllReduceSignalsPass => "pld-synthesize-allreduce-signals",
    pldCreateMaterializeCommDomainScopesPass => "pld-materialize-comm-domain-scopes",
    pldCreateLowerHostTensorCollectivesPass => "pld-lower-host-tensor-collectives",
    pldCreateLowerL2TensorCollectivesPass => "pld-lower-l2-tensor-collectives",
    pldCreateLowerCompositeOpsPass => "pld-lower-composite-ops",
    pldCreateMaterializeDistTensorCtxPass => "pld-materialize-dist-tensor-ctx",
    pldCreateInsertCommFencePass => "pld-insert-comm-fence",
    pldCreateConvertPldToPtoPass => "convert-pld-to-pto",
    pldCreateConvertPtoToSimPass => "convert-pto-to-sim",
    pldCreateExploreProtocolPass => "pld-explore-protocol",
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One function per pass of the registry, named after the pass (its
    /// name without `Pld`), and each declared in the header.
    #[test]
    fn every_pass_has_its_function() {
        let header = include_str!("../../include/pld-c/Passes.h");
        let registry = registry();
        assert_eq!(CREATE_FUNCTIONS.len(), registry.passes().len());
        for entry in registry.passes() {
            let expected = format!(
                "pldCreate{}Pass",
                entry.name.strip_prefix("Pld").unwrap_or(entry.name)
            );
            let listed = CREATE_FUNCTIONS
                .iter()
                .find(|(_, argument)| *argument == entry.argument);
            assert_eq!(listed.map(|(f, _)| f.to_string()), Some(expected.clone()));
            assert!(
                header.contains(&format!("MlirPass {expected}(void);")),
                "Passes.h does not declare {expected}"
            );
            assert!(
                header.contains(&format!("`{}` [{}]", entry.argument, entry.anchor)),
                "Passes.h does not give {}'s anchor as {}",
                entry.argument,
                entry.anchor
            );
        }
    }
}
