//! The CHIP rail's kernels (spec 11.1, docs/passes/pld-lower-l2-tensor-collectives.md):
//! a program whose HOST orchestrator dispatches a CHIP orchestrator and
//! calls all_to_all_v itself, while the CHIP orchestrator calls
//! all_to_all_v too, is lowered with pld-to-pto; both rails' kernels are
//! written to a directory at the paths the spec gives, and the two files
//! are compared byte for byte, for fp32 and int8. Targets pick the mesh
//! allreduce entry's launch-spec setter.

use pld_backend::kernels::{self, chip, Builtin, Elem, File, Variant, COMMON_HEADER, HEADER};
use std::path::Path;

fn program(elem: &str, target: &str) -> String {
    format!(
        r#"
module attributes {{pld.target = "{target}"}} {{
func.func @chip_pipeline(%in: tensor<8x16x{elem}, #pld.dist>, %out: tensor<8x16x{elem}, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>,
                         %cnt: tensor<4xi32, #pld.dist>, %rcv: tensor<4x1xi32, #pld.dist>) attributes {{pld.kind = #pld.func_kind<"chip">}} {{
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv) : (tensor<8x16x{elem}, #pld.dist>, tensor<8x16x{elem}, #pld.dist>, tensor<4x1xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<8x16x{elem}, #pld.dist>
  return
}}
func.func @main() attributes {{pld.kind = #pld.func_kind<"host">}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b512 = arith.constant 512 : i64
  %b16 = arith.constant 16 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %p_in = "pld.tensor_alloc_window_buffer"(%b512) {{name = "vin"}} : (i64) -> !pld.ptr
  %p_out = "pld.tensor_alloc_window_buffer"(%b512) {{name = "vout"}} : (i64) -> !pld.ptr
  %p_sig = "pld.tensor_alloc_window_buffer"(%b16) {{name = "vsig"}} : (i64) -> !pld.ptr
  %p_cnt = "pld.tensor_alloc_window_buffer"(%b16) {{name = "cnt"}} : (i64) -> !pld.ptr
  %p_rcv = "pld.tensor_alloc_window_buffer"(%b16) {{name = "rcv"}} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%p_in) : (!pld.ptr) -> tensor<8x16x{elem}, #pld.dist>
  %out = "pld.tensor_window"(%p_out) : (!pld.ptr) -> tensor<8x16x{elem}, #pld.dist>
  %sig = "pld.tensor_window"(%p_sig) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
  %cnt = "pld.tensor_window"(%p_cnt) : (!pld.ptr) -> tensor<4xi32, #pld.dist>
  %rcv = "pld.tensor_window"(%p_rcv) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
  scf.for %r = %c0 to %n step %c1 {{
    "pld.dispatch"(%r) ({{
      func.call @chip_pipeline(%in, %out, %sig, %cnt, %rcv) : (tensor<8x16x{elem}, #pld.dist>, tensor<8x16x{elem}, #pld.dist>, tensor<4x1xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> ()
      gpu.yield
    }}) : (index) -> ()
  }}
  %h = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv) : (tensor<8x16x{elem}, #pld.dist>, tensor<8x16x{elem}, #pld.dist>, tensor<4x1xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<8x16x{elem}, #pld.dist>
  return
}}
}}
"#
    )
}

/// Lowers `text` with pld-to-pto and writes both rails' kernels under `dir`.
fn lower_and_write(text: &str, dir: &Path) -> Vec<chip::ChipBuild> {
    let registry = pld_backend::registry();
    let steps = pld_ir::pipeline::parse("builtin.module(pld-to-pto)", &registry).unwrap();
    let context = pld_dialect::context();
    context.enable_multi_threading(false);
    let plan = pld_ir::pipeline::plan(&context, &steps, &registry).unwrap();
    let mut module = pld_ir::parse::parse(&context, text, "chip_kernels").expect("parses");
    assert!(pld_dialect::verify::verify_and_emit(module.as_operation()));
    for step in &plan {
        step.run(&mut module).expect("pld-to-pto");
    }
    let root = module.as_operation();
    let target = chip::target_of(root).unwrap();
    let host = kernels::dispatched(root).map_err(|(_, m)| m).unwrap();
    let packages = kernels::render_all(&host, &target).unwrap();
    kernels::write(dir, &packages, &target).unwrap();
    let builds = chip::chip_builds(root, &target)
        .map_err(|(_, m)| m)
        .unwrap();
    chip::write(dir, &builds).unwrap();
    builds
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pld-chip-kernels-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn host_and_chip_renders_are_byte_identical() {
    let mut texts = Vec::new();
    // (MLIR element, variant suffix, dtype_cpp), from spec 7.2 / 11.1.
    for (elem, suffix, cpp) in [("f32", "fp32", "float"), ("i8", "int8", "int8_t")] {
        let dir = scratch(suffix);
        let builds = lower_and_write(&program(elem, "a2a3"), &dir);
        // The CHIP sub-build: next_levels/<chip_func>/kernels/aiv/<synth>.cpp.
        let chip_path = dir.join(format!(
            "next_levels/chip_pipeline/kernels/aiv/__builtin_all_to_all_v__{suffix}.cpp"
        ));
        let host_path = dir.join(format!(
            "next_levels/builtin.tensor.all_to_all_v__{suffix}/kernels/aiv/builtin_tensor_all_to_all_v__{suffix}_kernel.cpp"
        ));
        let chip_text = std::fs::read(&chip_path).expect("the CHIP render exists");
        let host_text = std::fs::read(&host_path).expect("the HOST render exists");
        assert_eq!(
            chip_text, host_text,
            "{suffix}: HOST and CHIP renders differ"
        );
        // Both kernels find the same shared header in their own directory.
        let header = |kernel: &Path| std::fs::read(kernel.with_file_name(HEADER)).unwrap();
        assert_eq!(header(&chip_path), header(&host_path));
        assert_eq!(header(&chip_path), COMMON_HEADER.text.as_bytes());
        let chip_string = String::from_utf8_lossy(&chip_text);
        assert!(chip_string.contains(&format!("using Elem = {cpp};")));
        assert!(chip_string
            .contains("extern \"C\" __aicore__ void PLD_KERNEL_ENTRY(__gm__ int64_t *args)"));
        // The sub-build lists the kernel with the CHIP directions.
        let config =
            std::fs::read_to_string(dir.join("next_levels/chip_pipeline/kernel_config.py"))
                .unwrap();
        assert!(config.contains(&format!(
            "\"source\": \"kernels/aiv/__builtin_all_to_all_v__{suffix}.cpp\""
        )));
        // The device runtime loads every kernel by its entry point.
        assert!(config.contains("\"function_name\": \"kernel_entry\""));
        assert!(config.contains("\"signature\": [\"IN\", \"INOUT\", \"INOUT\", \"IN\", \"INOUT\"]"));
        assert!(config.contains("RUNTIME_CONFIG = {\"runtime\": \"tensormap_and_ringbuffer\""));
        // Only the CHIP orchestrator has a sub-build of its own.
        assert_eq!(builds.len(), 1);
        assert_eq!(builds[0].function, "chip_pipeline");
        assert_eq!(builds[0].kernels.len(), 1);
        texts.push(chip_text);
        let _ = std::fs::remove_dir_all(&dir);
    }
    // The two dtypes render different kernels.
    assert_ne!(texts[0], texts[1]);
}

#[test]
fn the_target_picks_the_launch_setter() {
    let context = pld_dialect::context();
    let mesh = Variant::new(
        Builtin::AllReduce,
        Some(kernels::Reduction::Sum),
        Elem::F32,
        None,
    )
    .unwrap();
    for (attribute, setter, other) in [
        ("", "launch_spec.set_block_num(", "set_core_num"),
        (
            "attributes {pld.target = \"a2a3\"} ",
            "launch_spec.set_block_num(",
            "set_core_num",
        ),
        (
            "attributes {pld.target = \"a5\"} ",
            "launch_spec.set_core_num(",
            "set_block_num",
        ),
    ] {
        let module =
            pld_ir::parse::parse(&context, &format!("module {attribute}{{\n}}\n"), "t").unwrap();
        let target = chip::target_of(module.as_operation()).unwrap();
        let entry = mesh.render(File::Entry, &target).unwrap();
        assert!(entry.contains(setter), "{attribute}: {setter}");
        assert!(!entry.contains(other), "{attribute}: {other}");
    }
    let bad = pld_ir::parse::parse(
        &context,
        "module attributes {pld.target = \"a9\"} {\n}\n",
        "t",
    )
    .unwrap();
    assert_eq!(
        chip::target_of(bad.as_operation()).unwrap_err(),
        "pld.target must be \"a2a3\" or \"a5\", got \"a9\""
    );
}

#[test]
fn indexed_all_to_all_v_has_its_own_kernel() {
    let text = r#"
module attributes {pld.target = "a5"} {
func.func @exchange(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x2xi32, #pld.dist>,
                    %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 2 : index
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x2xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>, index) -> tensor<16x16xf32, #pld.dist>
  return
}
}
"#;
    let dir = scratch("indexed");
    let builds = lower_and_write(text, &dir);
    let kernel = std::fs::read_to_string(
        dir.join("next_levels/exchange/kernels/aiv/__builtin_indexed_all_to_all_v__fp32.cpp"),
    )
    .unwrap();
    assert!(kernel.contains("using Elem = float;"));
    assert!(kernel.contains("#include \"pld_collective.h\""));
    let header =
        std::fs::read_to_string(dir.join("next_levels/exchange/kernels/aiv/pld_collective.h"))
            .unwrap();
    assert!(header.contains("#define PLD_KERNEL_ENTRY kernel_entry"));
    assert!(
        kernel.contains("args[6]"),
        "the first CommContext is at slot 6"
    );
    assert!(!kernel.contains("{{"));
    let config =
        std::fs::read_to_string(dir.join("next_levels/exchange/kernel_config.py")).unwrap();
    assert!(
        config.contains("\"signature\": [\"IN\", \"INOUT\", \"INOUT\", \"IN\", \"INOUT\", \"IN\"]")
    );
    assert_eq!(
        builds[0].kernels[0].name,
        "__builtin_indexed_all_to_all_v__fp32"
    );
    // It has no HOST files.
    let v = Variant::new(Builtin::IndexedAllToAllV, None, Elem::F32, None).unwrap();
    assert!(v.render(File::Entry, &kernels::Target::default()).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
