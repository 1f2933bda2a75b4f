//! The CHIP rail's kernels (collectives spec 11.1): for every CHIP
//! orchestrator that calls a builtin kernel synthesized by
//! `pld-lower-l2-tensor-collectives`, the rendered `kernel.cpp.in` of that
//! kernel in the orchestrator's own sub-build,
//! `next_levels/<chip_func>/kernels/aiv/<synthesized name>.cpp`, and the
//! sub-build's `kernel_config.py` listing it with its call directions.
//!
//! Only the kernel template is rendered (no entry: the CHIP orchestrator
//! itself submits the task), with the same variables as on the HOST rail,
//! so for all_to_all_v the two renders are byte-identical; the shared
//! header goes next to the kernels, as in a HOST package.

use melior::ir::{operation::OperationLike, OperationRef};
use pld_builtins::{Builtin, Elem, File, KernelError, Target, Variant, COMMON_HEADER, HEADER};
use pld_dialect::enums::{Direction, FuncKind, PldEnum};
use pld_dialect::query::{
    builtin_template, function_kind, template_vars, ARG_DIRECTIONS, BUILTIN_TEMPLATE_VARS,
};
use pld_ir as ir;

/// The package prefix of a builtin's `builtin_template_dir` handle.
const PACKAGE_PREFIX: &str = ":pypto.runtime.builtins.collectives.";

/// The catalog target of a module: its `pld.target` gives the launch-spec
/// setter (`set_block_num` on a2a3, `set_core_num` on a5); the runtime is
/// the default one. `Err` with the verifier's message for a bad attribute.
pub fn target_of(module: OperationRef) -> Result<Target, String> {
    let method = match pld_dialect::target::target_of(module)? {
        pld_dialect::target::Target::A2A3 => super::CoreCountMethod::BlockNum,
        pld_dialect::target::Target::A5 => super::CoreCountMethod::CoreNum,
    };
    Ok(Target {
        core_count_method: method,
        ..Target::default()
    })
}

/// One synthesized kernel of a CHIP sub-build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipKernel {
    /// The synthesized function, e.g. `__builtin_all_to_all_v__fp32`.
    pub name: String,
    pub variant: Variant,
    /// `IN`, `INOUT`, ... per tensor parameter.
    pub signature: Vec<&'static str>,
    /// Path relative to the output directory.
    pub path: String,
    pub text: String,
}

/// One CHIP orchestrator's sub-build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipBuild {
    pub function: String,
    pub kernels: Vec<ChipKernel>,
    /// `next_levels/<chip_func>/kernel_config.py` and its text.
    pub config: (String, String),
    /// `next_levels/<chip_func>/kernels/aiv/pld_collective.h` and its text,
    /// the header every kernel includes from its own directory.
    pub header: (String, String),
}

/// The sub-builds of every CHIP orchestrator under `module` that calls a
/// synthesized builtin kernel, in module order; kernels in order of first
/// call. `Err` names the op (the synthesized function) whose attributes
/// name no kernel.
pub fn chip_builds<'c, 'a>(
    module: OperationRef<'c, 'a>,
    target: &Target,
) -> Result<Vec<ChipBuild>, (OperationRef<'c, 'a>, String)>
where
    'c: 'a,
{
    let mut builds = Vec::new();
    for chip in ir::functions(module) {
        if function_kind(chip) != Ok(Some(FuncKind::Chip)) {
            continue;
        }
        let function = ir::symbol_name(chip).unwrap_or_default();
        let mut kernels: Vec<ChipKernel> = Vec::new();
        for call in ir::collect(chip, |n| n == "func.call") {
            let Some(callee) = pld_ir::attr::callee(call) else {
                continue;
            };
            if kernels.iter().any(|k| k.name == callee) {
                continue;
            }
            let Some(table) = chip.parent_operation() else {
                continue;
            };
            let Some(kernel) = ir::find_function(table, &callee) else {
                continue;
            };
            if builtin_template(kernel).is_none() {
                continue;
            }
            let variant = kernel_variant(kernel).map_err(|m| (kernel, m))?;
            let signature = signature(kernel).map_err(|m| (kernel, m))?;
            let text = variant
                .render(File::Kernel, target)
                .map_err(|e: KernelError| (kernel, e.to_string()))?;
            kernels.push(ChipKernel {
                path: format!("next_levels/{function}/kernels/aiv/{callee}.cpp"),
                name: callee,
                variant,
                signature,
                text,
            });
        }
        if kernels.is_empty() {
            continue;
        }
        let config = (
            format!("next_levels/{function}/kernel_config.py"),
            config(&function, &kernels, target),
        );
        let header = (
            format!("next_levels/{function}/kernels/aiv/{HEADER}"),
            COMMON_HEADER.text.to_string(),
        );
        builds.push(ChipBuild {
            function,
            kernels,
            config,
            header,
        });
    }
    Ok(builds)
}

/// Writes every sub-build under `dir`.
pub fn write(dir: &std::path::Path, builds: &[ChipBuild]) -> std::io::Result<()> {
    for build in builds {
        let files = build
            .kernels
            .iter()
            .map(|k| (&k.path, &k.text))
            .chain([&build.config, &build.header].map(|(path, text)| (path, text)));
        for (path, text) in files {
            let path = dir.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, text)?;
        }
        // The kernels include pld's runtime headers from their directory.
        let kernels = dir.join(format!("next_levels/{}/kernels/aiv", build.function));
        super::write_runtime_headers(&kernels)?;
    }
    Ok(())
}

/// The catalog variant of a kernel synthesized by the CHIP rail, from its
/// `builtin_template_dir` and `builtin_template_vars`. `Err` says which
/// attribute names no kernel.
pub fn kernel_variant(kernel: OperationRef) -> Result<Variant, String> {
    let handle = builtin_template(kernel).ok_or_else(|| {
        format!(
            "@{} has no builtin_template_dir: it is not a builtin kernel",
            ir::symbol_name(kernel).unwrap_or_default()
        )
    })?;
    let builtin = handle
        .strip_prefix(PACKAGE_PREFIX)
        .and_then(Builtin::from_dir)
        .ok_or_else(|| {
            format!("builtin_template_dir \"{handle}\" names no builtin kernel package")
        })?;
    let vars = kernel
        .attribute(BUILTIN_TEMPLATE_VARS)
        .ok()
        .and_then(pld_ir::attr::string)
        .and_then(|text| template_vars(&text))
        .ok_or("builtin_template_vars must be a \"key=value,...\" string")?;
    let dtype = vars
        .iter()
        .find(|(k, _)| k == "dtype_cpp")
        .map(|(_, v)| v.as_str())
        .ok_or("builtin_template_vars has no dtype_cpp")?;
    let elem = [Elem::F16, Elem::F32, Elem::I8]
        .into_iter()
        .find(|e| e.cpp() == dtype)
        .ok_or_else(|| format!("dtype_cpp={dtype} is not an element type of the kernels"))?;
    Variant::new(builtin, None, elem, None).map_err(|e| e.to_string())
}

fn signature(kernel: OperationRef) -> Result<Vec<&'static str>, String> {
    let items = kernel
        .attribute(ARG_DIRECTIONS)
        .ok()
        .and_then(pld_ir::attr::array)
        .ok_or_else(|| {
            format!(
                "@{} has no {ARG_DIRECTIONS} array",
                ir::symbol_name(kernel).unwrap_or_default()
            )
        })?;
    items
        .into_iter()
        .map(|item| match Direction::from_attribute(item) {
            Some(Direction::In) => Ok("IN"),
            Some(Direction::Out) => Ok("OUT"),
            Some(Direction::InOut) => Ok("INOUT"),
            Some(Direction::Scalar) => Ok("SCALAR"),
            None => Err(format!(
                "{ARG_DIRECTIONS} entry {item} is not a #pld.direction"
            )),
        })
        .collect()
}

fn config(function: &str, kernels: &[ChipKernel], target: &Target) -> String {
    let mut out = format!(
        "# Builtin kernels of the CHIP sub-build {function} (pld-lower-l2-tensor-collectives);\n\
         # do not edit. Paths are relative to this file's directory\n\
         # (next_levels/{function}/).\n\n\
         RUNTIME_CONFIG = {{\"runtime\": \"{}\", \"aicpu_thread_num\": 0}}\n\nKERNELS = [\n",
        target.runtime
    );
    for (id, kernel) in kernels.iter().enumerate() {
        let signature: Vec<String> = kernel
            .signature
            .iter()
            .map(|d| format!("\"{d}\""))
            .collect();
        out.push_str(&format!(
            "    {{\n        \"func_id\": {id},\n        \"source\": \"kernels/aiv/{}.cpp\",\n        \
             \"function_name\": \"{}\",\n        \"core_type\": \"aiv\",\n        \
             \"signature\": [{}],\n    }},\n",
            kernel.name,
            super::DEVICE_ENTRY,
            signature.join(", ")
        ));
    }
    out.push_str("]\n");
    out
}
