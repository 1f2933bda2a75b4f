//! Build script of pld-runtime-sys.
//!
//! 1. Generates the Rust side of the C headers in `include/pld` (bindgen),
//!    so that the compiler and the simulator share one definition of the
//!    runtime ABI; clang also compiles the headers' static asserts here: a
//!    layout drift fails the build.
//! 2. Renders every builtin kernel variant with the `pld-builtins` crate (a
//!    build dependency: the same templates, naming rules, key lists and
//!    renderer as `pld-translate --emit=kernels`), the CHIP-only kernels
//!    (indexed_all_to_all_v, which the simulator launches without an
//!    entry), plus three test-only
//!    copies broken on purpose, and compiles entries and kernels with `cc`
//!    (C++17, warnings as errors, `-I include -I include/pto-sim`; a few
//!    unity files that include the rendered files unchanged) into the
//!    static library `pld_builtins` the simulator links, with a generated
//!    registry (`pld_builtins.cpp`, declared by `include/pld/pld_builtins.h`).
//! 3. With the `ascend` feature and a CANN toolchain (`ASCEND_HOME_PATH`
//!    with `bisheng`), also compiles the rendered kernels for the device
//!    (docs/builtins.md, "Device builds"; untested here).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pld_builtins::{
    all_variants, chip_only_variants, File, Target, Template, Variant, COMMON_HEADER, HEADER,
    MAX_PREBUILT_ROOT,
};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let include = manifest.join("include");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=wrapper.h");
    println!("cargo:rerun-if-changed={}", include.display());
    println!(
        "cargo:rerun-if-changed={}",
        manifest.join("../builtins/templates").display()
    );
    println!("cargo:rerun-if-env-changed=CXX");
    println!("cargo:rerun-if-env-changed=ASCEND_HOME_PATH");
    println!("cargo:rerun-if-env-changed=PTO_ISA_ROOT");
    println!("cargo:rerun-if-env-changed=SIMPLER_ROOT");
    // Dependents that compile C against these headers find them here.
    println!("cargo:include={}", include.display());

    bindings(&include, &out);
    let rendered = render(&out);
    compile(&include, &out, &rendered);
    if std::env::var_os("CARGO_FEATURE_ASCEND").is_some() {
        device(&include, &out, &rendered);
    }
}

fn bindings(include: &Path, out: &Path) {
    let bindings = bindgen::Builder::default()
        .header("wrapper.h")
        .clang_arg(format!("-I{}", include.display()))
        .allowlist_type("Pld.*")
        .allowlist_var("PLD_.*")
        .allowlist_function("pld_sim_.*")
        .allowlist_function("pld_builtin_.*")
        .derive_default(true)
        .generate()
        .expect("bindgen runs on include/pld (is libclang installed? see .cargo/config.toml)");
    bindings
        .write_to_file(out.join("bindings.rs"))
        .expect("write bindings");
}

/// One rendered variant: its names and the paths of its C++ files (a
/// CHIP-only variant has a kernel and no entry).
struct Rendered {
    variant: String,
    entry: Option<String>,
    kernel_symbol: String,
    kernel: PathBuf,
    entry_file: Option<PathBuf>,
}

/// Test-only copies of real templates, broken on purpose: (tag, base
/// variant, file, text to find, replacement). Each must match exactly once.
fn broken() -> Vec<(&'static str, Variant, &'static str, &'static str)> {
    use pld_builtins::{Builtin, Elem, Reduction};
    let barrier = Variant::new(Builtin::Barrier, None, Elem::F32, None).unwrap();
    let allreduce =
        Variant::new(Builtin::AllReduce, Some(Reduction::Sum), Elem::F32, None).unwrap();
    let indexed = Variant::new(Builtin::IndexedAllToAllV, None, Elem::F32, None).unwrap();
    let two_shot = Variant::new(
        Builtin::AllReduceTwoShot,
        Some(Reduction::Sum),
        Elem::F32,
        None,
    )
    .unwrap();
    vec![
        // Signals completion before its copies have: a peer's read of
        // its target races with the copies still in flight.
        (
            "notify_before_wait",
            indexed,
            "  // 3. Completion waits, then the fetched counts.\n  WaitAll(f);",
            "  pld::LaneBarrier(lane, 2);\n  WaitAll(f);",
        ),
        // Never waits for its copies: every event is left outstanding.
        (
            "unwaited",
            indexed,
            "  // 3. Completion waits, then the fetched counts.\n  WaitAll(f);",
            "  // 3. (no completion waits)",
        ),
        // With more blocks than ranks, block b and block b + P both serve
        // peer b: two writers on one PER_PEER queue.
        (
            "shared_queue",
            indexed,
            "  for (int32_t peer = block_idx; peer < nranks; peer += block_num) {\n    if (peer == x.me) {",
            "  for (int32_t peer = block_idx % nranks; peer < nranks; peer += block_num) {\n    if (peer == x.me) {",
        ),
        // Waits for a second credit that no peer sends: a deadlock.
        (
            "deadlock",
            barrier,
            "pld::LaneBarrier(lane, 1);",
            "pld::LaneBarrier(lane, 2);",
        ),
        // Never folds in the last rank's data: a wrong result.
        (
            "skip_last_peer",
            allreduce,
            "xfer, lane.me, nranks);",
            "xfer, lane.me, nranks - 1);",
        ),
        // Returns without the done barrier: a rank that goes on writes its
        // segment while a slow peer still gathers it.
        (
            "two_shot_no_done",
            two_shot,
            "  pld::LaneBarrier(lane, 3);  // done: no peer still reads this segment\n  pld::LaneEpilogue(lane, 3);",
            "  pld::LaneEpilogue(lane, 2);",
        ),
        // Gives back one credit too few: a leaked signal credit.
        (
            "leak",
            allreduce,
            "pld::LaneEpilogue(lane, expected - 1);",
            "pld::LaneEpilogue(lane, expected - 2);",
        ),
    ]
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Unchanged files keep their timestamps (no needless recompiles).
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

/// Renders every variant of the catalog as `pld-translate --emit=kernels`
/// would (each package with the shared header next to its kernel), then
/// the broken copies.
fn render(out: &Path) -> Vec<Rendered> {
    let root = out.join("builtins");
    let target = Target::default();
    let mut rendered = Vec::new();
    for variant in all_variants(MAX_PREBUILT_ROOT) {
        for file in File::ALL {
            let text = variant
                .render(file, &target)
                .unwrap_or_else(|e| panic!("rendering {}: {e}", variant.name()));
            write(&root.join(variant.path(file)), &text);
        }
        rendered.push(Rendered {
            variant: variant.name(),
            entry: Some(variant.entry()),
            kernel_symbol: variant.kernel_symbol(),
            kernel: root.join(variant.path(File::Kernel)),
            entry_file: Some(root.join(variant.path(File::Entry))),
        });
    }
    // The CHIP-only kernels: a kernel (and the header next to it), which
    // the simulator launches itself.
    for variant in chip_only_variants() {
        for file in [File::Kernel, File::Header] {
            let text = variant
                .render(file, &target)
                .unwrap_or_else(|e| panic!("rendering {}: {e}", variant.name()));
            write(&root.join(variant.path(file)), &text);
        }
        rendered.push(Rendered {
            variant: variant.name(),
            entry: None,
            kernel_symbol: variant.kernel_symbol(),
            kernel: root.join(variant.path(File::Kernel)),
            entry_file: None,
        });
    }
    for (tag, base, find, replace) in broken() {
        rendered.push(render_broken(&root, &target, tag, base, find, replace));
    }
    rendered
}

/// One broken copy: `base` renamed to `broken.<tag>.<variant>`, its kernel
/// template with `find` (which must occur once) replaced.
fn render_broken(
    root: &Path,
    target: &Target,
    tag: &str,
    base: Variant,
    find: &str,
    replace: &str,
) -> Rendered {
    let name = format!("broken.{tag}.{}", base.name());
    let entry = name.replace('.', "_");
    let kernel_name = format!("{entry}_kernel");
    let values: Vec<(&str, String)> = base
        .template_values(target)
        .into_iter()
        .map(|(k, v)| match k {
            "variant" => (k, name.clone()),
            "entry" => (k, entry.clone()),
            "kernel_name" => (k, kernel_name.clone()),
            _ => (k, v),
        })
        .collect();
    let template = |file: File| base.builtin().template(file).unwrap();
    let kernel_template = template(File::Kernel);
    assert_eq!(
        kernel_template.text.matches(find).count(),
        1,
        "broken copy {tag}: `{find}` must occur once in {}",
        kernel_template.name
    );
    let broken_kernel = Template {
        text: &kernel_template.text.replace(find, replace),
        ..*kernel_template
    };
    let dir = root.join("broken").join(&name);
    let kernel = dir.join(format!("{kernel_name}.cpp"));
    write(&kernel, &broken_kernel.render(&values).unwrap());
    // A CHIP-only base has no entry: neither has its broken copy.
    let entry_file = base.builtin().template(File::Entry).map(|t| {
        let file = dir.join(format!("{entry}.cpp"));
        write(&file, &t.render(&values).unwrap());
        file
    });
    write(
        &dir.join(HEADER),
        &template(File::Header).render(&values).unwrap(),
    );
    Rendered {
        variant: name,
        entry: entry_file.as_ref().map(|_| entry),
        kernel_symbol: kernel_name,
        kernel,
        entry_file,
    }
}

/// The registry: declarations of every entry, config and kernel, and the
/// functions of `pld/pld_builtins.h`.
fn registry(rendered: &[Rendered]) -> String {
    let mut s = String::from(
        "// Generated by pld-runtime-sys's build script; do not edit.\n\
         #include <stddef.h>\n#include \"pld/pld_runtime.h\"\n#include \"pld/pto_sim.h\"\n\
         #include \"pld/pld_builtins.h\"\n\n",
    );
    for r in rendered {
        if let Some(e) = &r.entry {
            writeln!(s, "extern \"C\" void {e}(const ChipTaskArgs &);").unwrap();
            writeln!(
                s,
                "extern \"C\" PTO2OrchestrationConfig pld_orch_config__{e}(const ChipTaskArgs &);"
            )
            .unwrap();
        }
        writeln!(
            s,
            "extern \"C\" void {}(__gm__ int64_t *);",
            r.kernel_symbol
        )
        .unwrap();
    }
    s.push_str(
        "\nnamespace {\nstruct Row {\n  const char *variant;\n  const char *entry;\n  \
         const char *kernel_symbol;\n  void (*call)(const ChipTaskArgs &);\n  \
         PTO2OrchestrationConfig (*config)(const ChipTaskArgs &);\n  PldAivKernelFn kernel;\n};\n\
         const Row kRows[] = {\n",
    );
    for r in rendered {
        let (name, call, config) = match &r.entry {
            Some(e) => (
                format!("\"{e}\""),
                format!("&{e}"),
                format!("&pld_orch_config__{e}"),
            ),
            None => ("nullptr".into(), "nullptr".into(), "nullptr".into()),
        };
        writeln!(
            s,
            "  {{\"{}\", {name}, \"{}\", {call}, {config}, &{}}},",
            r.variant, r.kernel_symbol, r.kernel_symbol
        )
        .unwrap();
    }
    s.push_str(
        r#"};
constexpr int32_t kRowCount = static_cast<int32_t>(sizeof kRows / sizeof kRows[0]);
static_assert(sizeof(PldTensor) == PLD_BUILTIN_TENSOR_DESC_SIZE, "descriptor size");
static_assert(PLD_BUILTIN_MAX_TENSORS == PLD_MAX_TENSOR_ARGS, "tensor slots");
static_assert(PLD_BUILTIN_MAX_SCALARS == PLD_MAX_SCALAR_ARGS, "scalar slots");
const Row *RowAt(int32_t i) { return (i >= 0 && i < kRowCount) ? &kRows[i] : nullptr; }
}  // namespace

extern "C" void *pld_builtin_core_swap(void *state) {
  pld_pto_sim::CoreHolder &holder = pld_pto_sim::Holder();
  void *old = holder.state;
  holder.state = static_cast<pld_pto_sim::CoreState *>(state);
  return old;
}
extern "C" void pld_builtin_core_free(void *state) { delete static_cast<pld_pto_sim::CoreState *>(state); }

extern "C" int32_t pld_builtin_count(void) { return kRowCount; }
extern "C" const char *pld_builtin_variant(int32_t i) { const Row *r = RowAt(i); return r ? r->variant : nullptr; }
extern "C" const char *pld_builtin_entry(int32_t i) { const Row *r = RowAt(i); return r ? r->entry : nullptr; }
extern "C" const char *pld_builtin_kernel(int32_t i) { const Row *r = RowAt(i); return r ? r->kernel_symbol : nullptr; }

extern "C" int32_t pld_builtin_call(int32_t index, const void *tensors, int32_t tensor_count,
                                    const uint64_t *scalars, int32_t scalar_count, int32_t aiv_limit,
                                    int32_t *expected) {
  const Row *row = RowAt(index);
  if (row == nullptr) return PLD_BUILTIN_NO_SUCH_VARIANT;
  if (row->call == nullptr) return PLD_BUILTIN_NO_ENTRY;
  if (tensor_count < 0 || tensor_count > PLD_MAX_TENSOR_ARGS || scalar_count < 0 ||
      scalar_count > PLD_MAX_SCALAR_ARGS || (tensor_count > 0 && tensors == nullptr) ||
      (scalar_count > 0 && scalars == nullptr))
    return PLD_BUILTIN_BAD_ARGUMENTS;
  const PldTensor *descs = static_cast<const PldTensor *>(tensors);
  ChipTaskArgs args;
  for (int32_t i = 0; i < tensor_count; ++i) args.add_tensor(&descs[i]);
  for (int32_t i = 0; i < scalar_count; ++i) args.add_scalar(scalars[i]);
  if (expected != nullptr) *expected = row->config(args).expected_arg_count;
  pld_rt_bind_kernel(0, row->kernel);
  pld_rt_set_aiv_limit(aiv_limit);
  pld_rt_take_fatal();
  row->call(args);
  return pld_rt_take_fatal() ? PLD_BUILTIN_FATAL : PLD_BUILTIN_OK;
}

extern "C" int32_t pld_builtin_launch(int32_t index, const void *tensors, int32_t tensor_count,
                                      const uint64_t *scalars, int32_t scalar_count, int32_t block_num,
                                      int32_t aiv_limit) {
  const Row *row = RowAt(index);
  if (row == nullptr) return PLD_BUILTIN_NO_SUCH_VARIANT;
  if (tensor_count < 0 || tensor_count > PLD_MAX_TENSOR_ARGS || scalar_count < 0 ||
      scalar_count > PLD_MAX_SCALAR_ARGS || (tensor_count > 0 && tensors == nullptr) ||
      (scalar_count > 0 && scalars == nullptr) || block_num < 1 || block_num > INT16_MAX)
    return PLD_BUILTIN_BAD_ARGUMENTS;
  const PldTensor *descs = static_cast<const PldTensor *>(tensors);
  CoreTaskArgs args;
  for (int32_t i = 0; i < tensor_count; ++i) args.add_inout(descs[i]);
  for (int32_t i = 0; i < scalar_count; ++i) args.add_scalar(scalars[i]);
  args.launch_spec.set_core_num(static_cast<int16_t>(block_num));
  args.launch_spec.set_require_sync_start(block_num > 1);
  pld_rt_bind_kernel(0, row->kernel);
  pld_rt_set_aiv_limit(aiv_limit);
  pld_rt_take_fatal();
  rt_submit_aiv_task(0, args);
  return pld_rt_take_fatal() ? PLD_BUILTIN_FATAL : PLD_BUILTIN_OK;
}

extern "C" int32_t pld_builtin_all_to_all_v_blocks(int32_t ranks, int32_t requested) {
  return CalAllToAllVBlocks(ranks, requested);
}

extern "C" void pld_builtin_tensor_layout(uint32_t out[8]) {
  out[0] = static_cast<uint32_t>(offsetof(PldTensor, buffer) + offsetof(PldTensorBuffer, addr));
  out[1] = static_cast<uint32_t>(offsetof(PldTensor, buffer) + offsetof(PldTensorBuffer, size));
  out[2] = static_cast<uint32_t>(offsetof(PldTensor, start_offset));
  out[3] = static_cast<uint32_t>(offsetof(PldTensor, ndims));
  out[4] = static_cast<uint32_t>(offsetof(PldTensor, dtype));
  out[5] = static_cast<uint32_t>(offsetof(PldTensor, shapes));
  out[6] = static_cast<uint32_t>(offsetof(PldTensor, strides));
  out[7] = static_cast<uint32_t>(sizeof(PldTensor));
}
"#,
    );
    s
}

/// The C++ compiler: `CXX` if set, else clang++ of LLVM 22 when present
/// (the toolchain the project pins), else cc's default.
fn compiler(build: &mut cc::Build) {
    if std::env::var_os("CXX").is_some() {
        return;
    }
    for candidate in ["/usr/bin/clang++-22", "/usr/lib/llvm-22/bin/clang++"] {
        if Path::new(candidate).exists() {
            build.compiler(candidate);
            return;
        }
    }
}

/// Translation units the variants are compiled in: a few "unity" files
/// that include the headers once (the kernels' shared `pld_collective.h`
/// too, at file scope), then every rendered file of their share unchanged,
/// each inside a namespace of its own (the headers' include guards make
/// the files' own includes no-ops there; the `extern "C"` symbols keep
/// their names). Compiling the files one by one costs about
/// four times as long, nearly all of it in parsing the same headers.
const UNITY_FILES: usize = 4;

fn compile(include: &Path, out: &Path, rendered: &[Rendered]) {
    let glue = out.join("builtins").join("glue");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .warnings(true)
        .extra_warnings(true)
        .warnings_into_errors(true)
        .opt_level(1)
        .debug(false)
        .flag("-pthread")
        .include(include)
        .include(include.join("pto-sim"));
    compiler(&mut build);
    write(&glue.join(HEADER), COMMON_HEADER.text);
    let share = rendered.len().div_ceil(UNITY_FILES);
    for (unit, variants) in rendered.chunks(share.max(1)).enumerate() {
        let mut text = String::from(
            "// Generated by pld-runtime-sys's build script: compiles rendered builtin\n\
             // files unchanged, each in a namespace of its own, with the kernels'\n\
             // entry points (PLD_KERNEL_ENTRY) and the entries' exported\n\
             // orchestration symbols named per variant so that all of them link\n\
             // into one library.\n\
             #include <stdint.h>\n\
             #include \"pld_collective.h\"\n\
             #include \"pld/pld_runtime.h\"\n",
        );
        for (i, r) in variants.iter().enumerate() {
            writeln!(
                text,
                "\n// {}\n#undef PLD_KERNEL_ENTRY\n#define PLD_KERNEL_ENTRY {k}\n\
                 namespace pld_builtin_kernel_{unit}_{i} {{\n#include \"{}\"\n}}\n#undef PLD_KERNEL_ENTRY",
                r.variant,
                r.kernel.display(),
                k = r.kernel_symbol
            )
            .unwrap();
            if let (Some(e), Some(file)) = (&r.entry, &r.entry_file) {
                writeln!(
                    text,
                    "#define aicpu_orchestration_entry pld_orch_entry__{e}\n\
                     #define aicpu_orchestration_config pld_orch_config__{e}\n\
                     namespace pld_builtin_entry_{unit}_{i} {{\n#include \"{}\"\n}}\n\
                     #undef aicpu_orchestration_entry\n#undef aicpu_orchestration_config",
                    file.display()
                )
                .unwrap();
            }
        }
        let file = glue.join(format!("pld_builtins_{unit}.cpp"));
        write(&file, &text);
        build.file(&file);
    }
    let registry_file = glue.join("pld_builtins.cpp");
    write(&registry_file, &registry(rendered));
    build.file(&registry_file);
    build.compile("pld_builtins");
}

/// The device path: compiles every rendered kernel with CANN's bisheng for
/// the A2/A3 vector core against the real pto-isa headers. Untested here.
fn device(include: &Path, out: &Path, rendered: &[Rendered]) {
    let Some(home) = std::env::var_os("ASCEND_HOME_PATH").map(PathBuf::from) else {
        println!(
            "cargo:warning=feature `ascend`: ASCEND_HOME_PATH is not set; no device kernels built"
        );
        return;
    };
    let bisheng = ["compiler/ccec_compiler/bin/bisheng", "bin/bisheng"]
        .iter()
        .map(|p| home.join(p))
        .find(|p| p.exists());
    let Some(bisheng) = bisheng else {
        println!(
            "cargo:warning=feature `ascend`: no bisheng under {}; no device kernels built",
            home.display()
        );
        return;
    };
    let Some(pto_isa) = std::env::var_os("PTO_ISA_ROOT").map(PathBuf::from) else {
        println!("cargo:warning=feature `ascend`: PTO_ISA_ROOT (the pto-isa checkout) is not set; no device kernels built");
        return;
    };
    // The kernels read their block index through the runtime's
    // `intrinsic.h`, which lives (with the headers it includes) in the
    // runtime's source tree.
    let Some(simpler) = std::env::var_os("SIMPLER_ROOT").map(PathBuf::from) else {
        println!("cargo:warning=feature `ascend`: SIMPLER_ROOT (the runtime checkout, for intrinsic.h) is not set; no device kernels built");
        return;
    };
    let runtime_common = simpler.join("src/a2a3/runtime/tensormap_and_ringbuffer/common");
    let dir = out.join("device");
    std::fs::create_dir_all(&dir).unwrap();
    let mut list = String::new();
    // The A2/A3 kernels only: the CHIP-only indexed_all_to_all_v (the one
    // without an entry) needs A5's URMA, another architecture.
    for r in rendered
        .iter()
        .filter(|r| !r.variant.starts_with("broken.") && r.entry.is_some())
    {
        let object = dir.join(format!("{}.o", r.kernel_symbol));
        let status = std::process::Command::new(&bisheng)
            .args([
                "-xcce",
                "-O2",
                "-std=c++17",
                "--cce-aicore-arch=dav-c220-vec",
            ])
            .arg("-DPLD_USE_SIMPLER_RUNTIME")
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", pto_isa.join("include").display()))
            .arg(format!("-I{}", runtime_common.display()))
            .arg(format!(
                "-I{}",
                simpler.join("src/a2a3/platform/include").display()
            ))
            .arg("-c")
            .arg(&r.kernel)
            .arg("-o")
            .arg(&object)
            .status();
        match status {
            Ok(s) if s.success() => writeln!(list, "{}", object.display()).unwrap(),
            other => panic!("bisheng failed on {}: {other:?}", r.kernel.display()),
        }
    }
    write(&dir.join("kernels.txt"), &list);
    println!("cargo:rustc-env=PLD_DEVICE_KERNELS={}", dir.display());
}
