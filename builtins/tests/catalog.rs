//! The catalog against spec 10.3 and 11.1: names, supported combinations,
//! the strict renderer, and every variant rendering with exactly its keys.

use pld_builtins::{
    all_variants, render, Builtin, CoreCountMethod, Elem, File, KernelError, Reduction, Target,
    Variant, DEVICE_ENTRY, HEADER, MAX_PREBUILT_ROOT,
};

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
    // 8 allreduce, 8 two-shot allreduce, ring, barrier, 64 broadcasts,
    // reduce_scatter, 8 reduce, allgather, all_to_all, 2 all_to_all_v.
    assert_eq!(variants.len(), 8 + 8 + 1 + 1 + 64 + 1 + 8 + 1 + 1 + 2);
    for variant in &variants {
        for file in File::ALL {
            let text = variant.render(file, &target).unwrap();
            assert!(!text.contains("{{"), "{} {file:?}", variant.name());
        }
        let kernel = variant.render(File::Kernel, &target).unwrap();
        // The device entry point, renamable where kernels share a library
        // (the header defines it to kernel_entry unless the build does).
        assert!(
            kernel.contains("#include \"pld_collective.h\"\n")
                && kernel.contains(
                    "extern \"C\" __aicore__ void PLD_KERNEL_ENTRY(__gm__ int64_t *args) {"
                ),
            "{}",
            variant.name()
        );
        // The header is shipped next to the kernel, verbatim.
        assert_eq!(
            variant.path(File::Header),
            variant
                .path(File::Kernel)
                .rsplit_once('/')
                .unwrap()
                .0
                .to_string()
                + "/"
                + HEADER
        );
        let header = variant.render(File::Header, &target).unwrap();
        assert_eq!(
            header,
            Builtin::AllReduce.template(File::Header).unwrap().text
        );
        let entry = variant.render(File::Entry, &target).unwrap();
        assert!(entry.contains(&format!("void {}(", variant.entry())));
        let config = variant.render(File::Config, &target).unwrap();
        assert!(config.contains(&format!("\"function_name\": \"{DEVICE_ENTRY}\"")));
    }
    // A key list that misses one of the template's keys fails.
    let ar = &variants[0];
    let text = ar.builtin().template(File::Kernel).unwrap().text;
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
fn the_header_defines_what_the_kernels_share_once() {
    let header = Builtin::Barrier.template(File::Header).unwrap();
    assert_eq!(header.name, "common/pld_collective.h");
    assert!(header.keys.is_empty());
    assert!(header
        .text
        .contains("#ifndef PLD_KERNEL_ENTRY\n#define PLD_KERNEL_ENTRY kernel_entry\n#endif"));
    assert!(header
        .text
        .contains("constexpr int32_t kMaxRanks = PLD_COMM_MAX_RANK_NUM;"));
    for builtin in Builtin::ALL {
        assert!(builtin.files().contains(&File::Header), "{builtin:?}");
        let kernel = builtin.template(File::Kernel).unwrap().text;
        assert!(
            kernel.contains("#include \"pld_collective.h\""),
            "{builtin:?}"
        );
        // Defined once, in the header.
        for shared in ["kMaxRanks =", "PeerPtr(__gm__", "#define PLD_KERNEL_ENTRY"] {
            assert!(!kernel.contains(shared), "{builtin:?} defines {shared}");
        }
    }
}

#[test]
fn the_chip_only_builtin_has_a_kernel_and_the_header() {
    let v = v(Builtin::IndexedAllToAllV, None, Elem::F32, None);
    assert_eq!(
        Builtin::IndexedAllToAllV.files(),
        [File::Kernel, File::Header]
    );
    assert!(matches!(
        v.render(File::Entry, &Target::default()),
        Err(KernelError::NoFile { .. })
    ));
    assert!(v.render(File::Kernel, &Target::default()).is_ok());
}

#[test]
fn the_shared_entry_and_config_take_the_directions_of_the_builtins_tensors() {
    let target = Target::default();
    // Spec 11.2 (INOUT for outputs, builtins/templates/README.md).
    let expected = [
        (Builtin::AllReduce, "\"INOUT\", \"INOUT\""),
        (Builtin::AllReduceRing, "\"INOUT\", \"INOUT\""),
        (Builtin::AllReduceTwoShot, "\"INOUT\", \"INOUT\""),
        (Builtin::Barrier, "\"INOUT\""),
        (Builtin::Broadcast, "\"INOUT\", \"INOUT\""),
        (Builtin::ReduceScatter, "\"INOUT\", \"INOUT\""),
        (Builtin::Reduce, "\"INOUT\", \"INOUT\""),
        (Builtin::AllGather, "\"IN\", \"INOUT\", \"INOUT\""),
        (Builtin::AllToAll, "\"IN\", \"INOUT\", \"INOUT\""),
        (
            Builtin::AllToAllV,
            "\"IN\", \"INOUT\", \"INOUT\", \"IN\", \"INOUT\"",
        ),
    ];
    let config = Builtin::Barrier.template(File::Config).unwrap();
    let one_block = Builtin::Barrier.template(File::Entry).unwrap();
    for variant in all_variants(1) {
        let builtin = variant.builtin();
        let signature = expected.iter().find(|(b, _)| *b == builtin).unwrap().1;
        // One config template for every builtin.
        assert_eq!(builtin.template(File::Config), Some(config));
        let text = variant.render(File::Config, &target).unwrap();
        assert_eq!(
            text.matches(&format!("\"signature\": [{signature}],"))
                .count(),
            2,
            "{}",
            variant.name()
        );
        // One entry template for every builtin that runs one block.
        let entry = builtin.template(File::Entry).unwrap();
        let shared = !matches!(
            builtin,
            Builtin::AllReduce | Builtin::AllReduceTwoShot | Builtin::AllToAllV
        );
        assert_eq!(entry == one_block, shared, "{builtin:?}");
        if shared {
            let dirs = signature
                .replace("\"IN\"", "Dir::kIn")
                .replace("\"INOUT\"", "Dir::kInOut");
            let text = variant.render(File::Entry, &target).unwrap();
            assert!(
                text.contains(&format!("kTensors[] = {{ {dirs} }};")),
                "{text}"
            );
            // A reduce's entry passes its root as a third scalar.
            let scalars = if builtin == Builtin::Reduce { 3 } else { 2 };
            assert!(
                text.contains(&format!("kScalarCount = {scalars};")),
                "{text}"
            );
        }
    }
}
