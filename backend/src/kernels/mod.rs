//! Builtin kernels (collectives spec 10.3, 11): which variant each
//! `pld.builtin_*` dispatch of a lowered module names, and the package
//! `pld-translate --emit=kernels` writes for them.
//!
//! The naming rules, the templates, their key lists and the renderer are
//! the `pld-builtins` crate's (re-exported here for the backend's users),
//! which `runtime-sys`'s build script shares; the CHIP rail's sub-builds
//! (the synthesized builtin kernels) are in [`chip`].

pub mod chip;

pub use pld_builtins::{
    all_variants, chip_only_variants, render, Builtin, CoreCountMethod, Elem, File, KernelError,
    Reduction, Scalar, Target, Template, Variant, COMMON_HEADER, DEFAULT_RUNTIME, DEVICE_ENTRY,
    HEADER, MAX_PREBUILT_ROOT,
};

use melior::ir::{operation::OperationLike, OperationRef};
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::enums::{PldEnum, ReduceOp};
use pld_ir::op_name;
use std::collections::BTreeMap;
use std::path::Path;

/// The catalog's reduction for a dialect `ReduceOp`.
pub fn reduction(op: ReduceOp) -> Reduction {
    match op {
        ReduceOp::Sum => Reduction::Sum,
        ReduceOp::Max => Reduction::Max,
        ReduceOp::Min => Reduction::Min,
        ReduceOp::Prod => Reduction::Prod,
    }
}

/// The catalog's builtin for a dispatch op name, if it is one.
pub fn builtin_of(name: &str) -> Option<Builtin> {
    let (kind, mode) = CollectiveKind::from_builtin_op(name)?;
    kind.builtin(mode)
}

/// The variant a `pld.builtin_*` dispatch names; `Ok(None)` for any other
/// op; `Err` (a message for the op's location) when its attributes name no
/// kernel.
pub fn variant_of(op: OperationRef) -> Result<Option<Variant>, String> {
    let Some((kind, mode)) = CollectiveKind::from_builtin_op(&op_name(&op)) else {
        return Ok(None);
    };
    let Some(builtin) = kind.builtin(mode) else {
        return Ok(None);
    };
    let given = match op.attribute("op") {
        Err(_) => None,
        Ok(attribute) => Some(
            ReduceOp::from_attribute(attribute)
                .ok_or_else(|| format!("op attribute {attribute} is not a #pld.reduce_op"))?,
        ),
    };
    // A reducing collective with no op attribute reduces by Sum; an op on
    // one that does not reduce names no kernel (Variant::new says so).
    let reduction = kind.reduce_op(given).or(given).map(self::reduction);
    let elem = element(op, kind, builtin)?;
    let root = match op.attribute("root") {
        Err(_) => None,
        // A root that is a run-time scalar (a reduce's) names no variant.
        Ok(_) if !builtin.root_in_variant() && kind.facts().root => None,
        Ok(attribute) => {
            let root = pld_ir::attr::int(attribute)
                .ok_or_else(|| format!("root attribute {attribute} is not an integer"))?;
            Some(u32::try_from(root).map_err(|_| format!("root ({root}) must be a rank index"))?)
        }
    };
    Variant::new(builtin, reduction, elem, root)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// The element type a dispatch's kernel is instantiated for (`dtype`); a
/// collective that moves no data (the barrier) has one kernel, named for
/// FP32.
fn element(op: OperationRef, kind: CollectiveKind, builtin: Builtin) -> Result<Elem, String> {
    let attribute = match op.attribute("dtype") {
        Err(_) if kind.facts().alias == Role::Signal => return Ok(Elem::F32),
        Err(_) => return Err("has no dtype attribute".into()),
        Ok(attribute) => attribute,
    };
    let ty = pld_ir::attr::type_value(attribute)
        .map(|t| t.to_string())
        .ok_or_else(|| format!("dtype attribute {attribute} is not a type"))?;
    match ty.as_str() {
        "f16" => Ok(Elem::F16),
        "f32" => Ok(Elem::F32),
        "i8" => Ok(Elem::I8),
        other => Err(format!(
            "builtin.tensor.{} has no kernel for element type {other}",
            builtin.dir()
        )),
    }
}

/// A variant the module dispatches, and how many dispatch ops (call sites) name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispatched {
    pub variant: Variant,
    pub call_sites: usize,
}

/// Every distinct variant the builtin dispatches under `root` name, in
/// order of first use; or the first dispatch whose variant does not exist,
/// with the reason.
pub fn dispatched<'c, 'a>(
    root: OperationRef<'c, 'a>,
) -> Result<Vec<Dispatched>, (OperationRef<'c, 'a>, String)>
where
    'c: 'a,
{
    let ops = pld_ir::collect(root, |name| builtin_of(name).is_some());
    let mut out: Vec<Dispatched> = Vec::new();
    for op in ops {
        match variant_of(op) {
            Ok(Some(variant)) => match out.iter_mut().find(|d| d.variant == variant) {
                Some(d) => d.call_sites += 1,
                None => out.push(Dispatched {
                    variant,
                    call_sites: 1,
                }),
            },
            Ok(None) => {}
            Err(message) => return Err((op, message)),
        }
    }
    Ok(out)
}

/// One variant's rendered files, by relative path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    pub variant: Variant,
    pub call_sites: usize,
    /// (file, path relative to the output directory, text).
    pub files: Vec<(File, String, String)>,
}

/// Renders every file of every variant.
pub fn render_all(variants: &[Dispatched], target: &Target) -> Result<Vec<Package>, KernelError> {
    variants
        .iter()
        .map(|d| {
            let files = File::ALL
                .iter()
                .map(|file| {
                    Ok((
                        *file,
                        d.variant.path(*file),
                        d.variant.render(*file, target)?,
                    ))
                })
                .collect::<Result<Vec<_>, KernelError>>()?;
            Ok(Package {
                variant: d.variant,
                call_sites: d.call_sites,
                files,
            })
        })
        .collect()
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `kernels.json`: what was written, one object per variant.
pub fn manifest(packages: &[Package], target: &Target) -> String {
    let mut out = String::from("{\n  \"variants\": [");
    for (i, p) in packages.iter().enumerate() {
        let v = &p.variant;
        let files: BTreeMap<&str, &str> = p
            .files
            .iter()
            .map(|(file, path, _)| {
                let key = match file {
                    File::Kernel => "kernel",
                    File::Entry => "orchestration",
                    File::Config => "config",
                    File::Header => "header",
                };
                (key, path.as_str())
            })
            .collect();
        let files: Vec<String> = files
            .iter()
            .map(|(k, path)| format!("{}: {}", json_string(k), json_string(path)))
            .collect();
        let vars: Vec<String> = v
            .vars(target)
            .iter()
            .map(|(k, value)| format!("{}: {}", json_string(k), json_string(value)))
            .collect();
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&format!(
            "    {{\n      \"variant\": {},\n      \"builtin\": {},\n      \"entry\": {},\n      \
             \"kernel\": {},\n      \"kernel_symbol\": {},\n      \"call_sites\": {},\n      \
             \"files\": {{{}}},\n      \"template_vars\": {{{}}}\n    }}",
            json_string(&v.name()),
            json_string(v.builtin().dir()),
            json_string(&v.entry()),
            json_string(&v.kernel_name()),
            json_string(&v.kernel_symbol()),
            p.call_sites,
            files.join(", "),
            vars.join(", ")
        ));
    }
    out.push_str(if packages.is_empty() {
        "]\n}\n"
    } else {
        "\n  ]\n}\n"
    });
    out
}

/// Writes `text` at `path`, making its directory.
fn write_file(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)
}

/// Writes pld's runtime headers (`pld/comm_context.h`, ...) into `dir`,
/// the directory of files that include them.
pub(crate) fn write_runtime_headers(dir: &Path) -> std::io::Result<()> {
    for (name, text) in pld_runtime_sys::PACKAGE_HEADERS {
        write_file(&dir.join(name), text)?;
    }
    Ok(())
}

/// Writes every package and `kernels.json` under `dir`: with each
/// package's kernel and entry, the runtime headers they include.
pub fn write(dir: &Path, packages: &[Package], target: &Target) -> std::io::Result<()> {
    for package in packages {
        for (file, path, text) in &package.files {
            let path = dir.join(path);
            write_file(&path, text)?;
            if matches!(file, File::Kernel | File::Entry) {
                if let Some(parent) = path.parent() {
                    write_runtime_headers(parent)?;
                }
            }
        }
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("kernels.json"), manifest(packages, target))
}

/// What `pld-translate --emit=kernels` writes for a module: the HOST rail's
/// packages and the CHIP rail's sub-builds, for the module's target.
pub struct Rendered {
    pub target: Target,
    pub packages: Vec<Package>,
    pub chip: Vec<chip::ChipBuild>,
}

impl Rendered {
    /// Writes every package into `dir` (with `dir/kernels.json`) and every
    /// CHIP orchestrator's sub-build under `dir/next_levels/<chip_func>/`.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        write(dir, &self.packages, &self.target)?;
        chip::write(dir, &self.chip)
    }
}

/// The rendered kernels of `root`, a verified module; `None` when it still
/// holds HOST or CHIP collectives, names a variant that has no kernel, or has a
/// malformed target (each reason emitted as an error at its op).
pub fn module_kernels(root: OperationRef) -> Option<Rendered> {
    let target = match chip::target_of(root) {
        Ok(target) => target,
        Err(message) => {
            pld_ir::diag::error(root, &message);
            return None;
        }
    };
    // A collective the HOST or CHIP rail has not lowered yet names no
    // kernel.
    if crate::unlowered::refuse(root) {
        return None;
    }
    let dispatched = match dispatched(root) {
        Ok(dispatched) => dispatched,
        Err((op, message)) => {
            pld_ir::diag::error(op, &message);
            return None;
        }
    };
    let packages = match render_all(&dispatched, &target) {
        Ok(packages) => packages,
        Err(e) => {
            pld_ir::diag::error(root, &format!("cannot render the builtin kernels: {e}"));
            return None;
        }
    };
    let chip = match chip::chip_builds(root, &target) {
        Ok(chip) => chip,
        Err((op, message)) => {
            pld_ir::diag::error(op, &message);
            return None;
        }
    };
    Some(Rendered {
        target,
        packages,
        chip,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(b: Builtin, r: Option<Reduction>, e: Elem, root: Option<u32>) -> Variant {
        Variant::new(b, r, e, root).unwrap()
    }

    #[test]
    fn reductions_match_the_dialect_abi() {
        for op in ReduceOp::ALL {
            let r = reduction(*op);
            assert_eq!(r.key(), op.to_string());
            assert_eq!(Reduction::ALL[op.abi() as usize], r);
        }
    }

    #[test]
    fn the_manifest_is_json_shaped() {
        let target = Target::default();
        let d = Dispatched {
            variant: v(Builtin::Barrier, None, Elem::F32, None),
            call_sites: 2,
        };
        let packages = render_all(&[d], &target).unwrap();
        let json = manifest(&packages, &target);
        assert!(json.contains("\"variant\": \"builtin.tensor.barrier__fp32\""));
        assert!(json.contains("\"call_sites\": 2"));
        assert!(json.contains("\"template_vars\": {\"entry\": \"builtin_tensor_barrier__fp32\""));
        assert_eq!(manifest(&[], &target), "{\n  \"variants\": []\n}\n");
        assert_eq!(json_string("a\"b\\\n"), "\"a\\\"b\\\\\\n\"");
    }
}
