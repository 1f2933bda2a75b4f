//! Builtin kernels (collectives spec 10.3, 11): which variant each
//! `pld.builtin_*` dispatch of a lowered module names, and the package
//! `pld-translate --emit=kernels` writes for them.
//!
//! The naming rules, the key lists and the renderer are in [`catalog`],
//! which `runtime-sys`'s build script shares; the CHIP rail's sub-builds
//! (the synthesized builtin kernels) in [`chip`].

pub mod catalog;
pub mod chip;

pub use catalog::{
    all_variants, render, Builtin, CoreCountMethod, Elem, File, KernelError, Reduction, Target,
    Variant, DEFAULT_RUNTIME, DEVICE_ENTRY, MAX_PREBUILT_ROOT,
};

use melior::ir::{operation::OperationLike, OperationRef};
use pld_dialect::enums::{PldEnum, ReduceOp};
use pld_dialect::ops::builtin::{
    BuiltinAllGather, BuiltinAllReduce, BuiltinAllReduceRing, BuiltinAllToAll, BuiltinAllToAllV,
    BuiltinBarrier, BuiltinBroadcast, BuiltinReduceScatter,
};
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
    Some(match name {
        BuiltinAllReduce::NAME => Builtin::AllReduce,
        BuiltinAllReduceRing::NAME => Builtin::AllReduceRing,
        BuiltinBarrier::NAME => Builtin::Barrier,
        BuiltinBroadcast::NAME => Builtin::Broadcast,
        BuiltinReduceScatter::NAME => Builtin::ReduceScatter,
        BuiltinAllGather::NAME => Builtin::AllGather,
        BuiltinAllToAll::NAME => Builtin::AllToAll,
        BuiltinAllToAllV::NAME => Builtin::AllToAllV,
        _ => return None,
    })
}

/// The variant a `pld.builtin_*` dispatch names; `Ok(None)` for any other
/// op; `Err` (a message for the op's location) when its attributes name no
/// kernel.
pub fn variant_of(op: OperationRef) -> Result<Option<Variant>, String> {
    let name = op_name(&op);
    let Some(builtin) = builtin_of(&name) else {
        return Ok(None);
    };
    let reduction = match op.attribute("op") {
        Err(_) => None,
        Ok(attribute) => Some(
            ReduceOp::from_attribute(attribute)
                .map(self::reduction)
                .ok_or_else(|| format!("op attribute {attribute} is not a #pld.reduce_op"))?,
        ),
    };
    // The barrier moves no data; its one kernel is named for FP32.
    let elem = match op.attribute("dtype") {
        Err(_) if builtin == Builtin::Barrier => Elem::F32,
        Err(_) => return Err("has no dtype attribute".into()),
        Ok(attribute) => {
            let ty = pld_ir::attr::type_value(attribute)
                .map(|t| t.to_string())
                .ok_or_else(|| format!("dtype attribute {attribute} is not a type"))?;
            match ty.as_str() {
                "f16" => Elem::F16,
                "f32" => Elem::F32,
                "i8" => Elem::I8,
                other => {
                    return Err(format!(
                        "builtin.tensor.{} has no kernel for element type {other}",
                        builtin.dir()
                    ))
                }
            }
        }
    };
    let root = match op.attribute("root") {
        Err(_) => None,
        Ok(attribute) => {
            let root = pld_ir::attr::int(attribute)
                .ok_or_else(|| format!("root attribute {attribute} is not an integer"))?;
            Some(u32::try_from(root).map_err(|_| format!("root ({root}) must be a rank index"))?)
        }
    };
    // A Sum allreduce with no op attribute is still a Sum.
    let reduction = match builtin {
        Builtin::AllReduce | Builtin::AllReduceRing | Builtin::ReduceScatter => {
            reduction.or(Some(Reduction::Sum))
        }
        _ => reduction,
    };
    Variant::new(builtin, reduction, elem, root)
        .map(Some)
        .map_err(|e| e.to_string())
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

/// Writes every package and `kernels.json` under `dir`.
pub fn write(dir: &Path, packages: &[Package], target: &Target) -> std::io::Result<()> {
    for package in packages {
        for (_, path, text) in &package.files {
            let path = dir.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, text)?;
        }
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("kernels.json"), manifest(packages, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(b: Builtin, r: Option<Reduction>, e: Elem, root: Option<u32>) -> Variant {
        Variant::new(b, r, e, root).unwrap()
    }

    #[test]
    fn names_follow_spec_10_3() {
        let sum = Some(Reduction::Sum);
        let ar = v(Builtin::AllReduce, sum, Elem::F32, None);
        assert_eq!(ar.name(), "builtin.tensor.allreduce__sum__fp32");
        assert_eq!(ar.entry(), "builtin_tensor_allreduce__sum__fp32");
        assert_eq!(
            ar.kernel_name(),
            "builtin_tensor_allreduce__sum__fp32_kernel"
        );
        assert_eq!(ar.kernel_symbol(), ar.kernel_name());
        assert_eq!(
            v(Builtin::AllReduce, Some(Reduction::Prod), Elem::F16, None).name(),
            "builtin.tensor.allreduce__prod__fp16"
        );
        assert_eq!(
            v(Builtin::AllReduceRing, sum, Elem::F32, None).name(),
            "builtin.tensor.allreduce_ring__sum__fp32"
        );
        assert_eq!(
            v(Builtin::Barrier, None, Elem::F32, None).name(),
            "builtin.tensor.barrier__fp32"
        );
        assert_eq!(
            v(Builtin::Broadcast, None, Elem::F32, Some(3)).name(),
            "builtin.tensor.broadcast__root3__fp32"
        );
        assert_eq!(
            v(Builtin::ReduceScatter, sum, Elem::F32, None).name(),
            "builtin.tensor.reduce_scatter__sum__fp32"
        );
        assert_eq!(
            v(Builtin::AllGather, None, Elem::F32, None).name(),
            "builtin.tensor.allgather__fp32"
        );
        assert_eq!(
            v(Builtin::AllToAll, None, Elem::F32, None).name(),
            "builtin.tensor.all_to_all__fp32"
        );
        let a2av = v(Builtin::AllToAllV, None, Elem::I8, None);
        assert_eq!(a2av.name(), "builtin.tensor.all_to_all_v__int8");
        assert_eq!(a2av.kernel_symbol(), "builtin_all_to_all_v_kernel__int8_t");
        assert_eq!(
            a2av.path(File::Kernel),
            "next_levels/builtin.tensor.all_to_all_v__int8/kernels/aiv/builtin_tensor_all_to_all_v__int8_kernel.cpp"
        );
        assert_eq!(
            ar.path(File::Entry),
            "next_levels/builtin.tensor.allreduce__sum__fp32/orchestration/builtin_tensor_allreduce__sum__fp32.cpp"
        );
        assert_eq!(
            ar.path(File::Config),
            "next_levels/builtin.tensor.allreduce__sum__fp32/kernel_config.py"
        );
    }

    #[test]
    fn unsupported_combinations_are_errors() {
        let max = Some(Reduction::Max);
        assert!(matches!(
            Variant::new(Builtin::AllReduceRing, max, Elem::F32, None),
            Err(KernelError::Reduction { .. })
        ));
        assert!(matches!(
            Variant::new(Builtin::AllGather, None, Elem::F16, None),
            Err(KernelError::Dtype { .. })
        ));
        assert!(matches!(
            Variant::new(Builtin::Broadcast, None, Elem::F32, None),
            Err(KernelError::Root { .. })
        ));
        assert!(matches!(
            Variant::new(Builtin::AllReduce, None, Elem::F32, None),
            Err(KernelError::Reduction { .. })
        ));
    }

    #[test]
    fn the_renderer_is_strict() {
        let vars = |pairs: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
            pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
        };
        assert_eq!(
            render(
                "t",
                "a {{x}} b {{y}}{{x}}",
                &vars(&[("x", "1"), ("y", "2")])
            )
            .unwrap(),
            "a 1 b 21"
        );
        match render("t", "{{x}} {{z}}", &vars(&[("x", "1"), ("y", "2")])) {
            Err(KernelError::Keys {
                missing, unused, ..
            }) => {
                assert_eq!(missing, ["z"]);
                assert_eq!(unused, ["y"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            render("t", "x {{open", &[]),
            Err(KernelError::Syntax { at: 2, .. })
        ));
        assert!(matches!(
            render("t", "{{a b}}", &[]),
            Err(KernelError::Syntax { .. })
        ));
        // Text without keys renders unchanged, and takes no keys.
        assert_eq!(render("t", "plain { } }}", &[]).unwrap(), "plain { } }}");
        assert!(render("t", "plain", &vars(&[("x", "1")])).is_err());
    }

    #[test]
    fn every_variant_renders_with_exactly_its_keys() {
        let target = Target::default();
        let variants = all_variants(MAX_PREBUILT_ROOT);
        // 8 allreduce, ring, barrier, 16 broadcasts, reduce_scatter,
        // allgather, all_to_all, 2 all_to_all_v.
        assert_eq!(variants.len(), 8 + 1 + 1 + 16 + 1 + 1 + 1 + 2);
        for variant in &variants {
            for file in File::ALL {
                let text = variant.render(file, &target).unwrap();
                assert!(!text.contains("{{"), "{} {file:?}", variant.name());
            }
            let kernel = variant.render(File::Kernel, &target).unwrap();
            // The device entry point, renamable where kernels share a library.
            assert!(
                kernel.contains("#define PLD_KERNEL_ENTRY kernel_entry\n")
                    && kernel.contains(
                        "extern \"C\" __aicore__ void PLD_KERNEL_ENTRY(__gm__ int64_t *args) {"
                    ),
                "{}",
                variant.name()
            );
            let entry = variant.render(File::Entry, &target).unwrap();
            assert!(entry.contains(&format!("void {}(", variant.entry())));
            let config = variant.render(File::Config, &target).unwrap();
            assert!(config.contains(&format!("\"function_name\": \"{DEVICE_ENTRY}\"")));
        }
        // A key list that misses one of the template's keys fails.
        let ar = &variants[0];
        let text = ar.builtin().templates().kernel;
        let some: Vec<(&str, String)> = ar
            .vars(&target)
            .into_iter()
            .filter(|(k, _)| *k == "kernel_name")
            .collect();
        assert!(matches!(
            render("allreduce/kernel.cpp.in", text, &some),
            Err(KernelError::Keys { .. })
        ));
    }

    #[test]
    fn all_to_all_v_kernel_is_rail_independent() {
        // Spec 11.1: only dtype_cpp and template_package reach the kernel,
        // so a target change does not change it, while the dtypes differ.
        let f32 = v(Builtin::AllToAllV, None, Elem::F32, None);
        let i8 = v(Builtin::AllToAllV, None, Elem::I8, None);
        let other = Target {
            runtime: "other".into(),
            core_count_method: CoreCountMethod::CoreNum,
        };
        assert_eq!(
            f32.render(File::Kernel, &Target::default()).unwrap(),
            f32.render(File::Kernel, &other).unwrap()
        );
        assert_ne!(
            f32.render(File::Kernel, &other).unwrap(),
            i8.render(File::Kernel, &other).unwrap()
        );
        assert!(f32
            .render(File::Entry, &other)
            .unwrap()
            .contains("launch_spec.set_core_num("));
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
