//! The C API of `libpld.so` (`include/pld-c/`), called as a C host calls
//! it, on a context of the host's own, and compared with the tools: the
//! passes through MLIR's own pipeline parser against `pld-opt`, the PTO
//! text and kernel packages against `pld-translate`, runs against `pld-run`
//! (the same inputs, byte-identical outputs, the same counters) and
//! against numbers computed here; the findings (deadlock, leak, race) with
//! the ranks, cells and locations `pld-run` and the lit suite name; errors
//! as diagnostics on the host's context.
//!
//! The functions are the `extern "C"` ones of the `pld` crate (the rlib of
//! `libpld.so`); `host` below holds what a C caller would do with raw
//! pointers.

use melior::ir::Module;
use melior::Context;
use pld::api::{self, PldInputBuffer, PldOutputBuffer, PldProgram, PldRunResult};
use pld::report::{Check, FindingKind};
use pld_ir::diag::Sink;
use pld_sim::program::{npy, Dtype};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn tool(name: &str) -> PathBuf {
    match name {
        "pld-opt" => PathBuf::from(env!("CARGO_BIN_EXE_pld-opt")),
        "pld-translate" => PathBuf::from(env!("CARGO_BIN_EXE_pld-translate")),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_pld-run")),
    }
}

/// Runs a tool in the repository's root; its standard output, or a panic
/// with everything it printed.
fn run_tool(name: &str, args: &[&str]) -> String {
    let output = Command::new(tool(name))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the tool runs");
    assert!(
        output.status.success(),
        "{name} {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pld-capi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a C host does with raw pointers: string references, the text
/// callback, buffers.
mod host {
    use mlir_sys::MlirStringRef;
    use std::ffi::c_void;

    pub fn string_ref(text: &str) -> MlirStringRef {
        MlirStringRef {
            data: text.as_ptr() as *const _,
            length: text.len(),
        }
    }

    /// The text of a string reference the API returned.
    pub fn text(reference: MlirStringRef) -> String {
        if reference.length == 0 {
            return String::new();
        }
        // SAFETY: the API returns references to `length` bytes that live
        // as long as the object they came from, which the caller holds.
        let bytes =
            unsafe { std::slice::from_raw_parts(reference.data as *const u8, reference.length) };
        String::from_utf8_lossy(bytes).into_owned()
    }

    /// A callback collecting text into the `String` at `data`.
    pub unsafe extern "C" fn collect(text: MlirStringRef, data: *mut c_void) {
        // SAFETY: `data` is the `String` the caller passed with this
        // callback, alive during the call; `text` is valid while it runs.
        unsafe {
            let bytes = std::slice::from_raw_parts(text.data as *const u8, text.length);
            (*(data as *mut String)).push_str(&String::from_utf8_lossy(bytes));
        }
    }

    pub fn data(text: &mut String) -> *mut c_void {
        text as *mut String as *mut c_void
    }
}

/// A context as a host makes it (upstream dialects only after
/// `pldContextLoadDialects`), with its diagnostics captured.
fn host_context() -> (Context, Sink) {
    let context = Context::new();
    let sink = Sink::attach(&context);
    let loaded = pld::dialects::pldContextLoadDialects(context.to_raw());
    assert_eq!(loaded.value, 1, "{:?}", sink.take());
    (context, sink)
}

fn parse<'c>(context: &'c Context, path: &str) -> Module<'c> {
    let text = std::fs::read_to_string(root().join(path)).expect("the example");
    pld_ir::parse::parse(context, &text, path).expect("the example parses")
}

/// Messages of the captured diagnostics, `file:line:col: message`.
fn messages(sink: &Sink) -> Vec<String> {
    sink.take()
        .iter()
        .map(|d| {
            let at = d.position.as_ref().map_or("?".to_string(), |p| {
                format!("{}:{}:{}", p.file, p.line, p.column)
            });
            format!("{at}: {}", d.message)
        })
        .collect()
}

#[test]
fn passes_registered_for_mlirs_own_parser_lower_as_pld_opt_does() {
    let (context, sink) = host_context();
    pld::passes::pldRegisterPasses();
    pld::passes::pldRegisterPasses(); // a second call changes nothing
    melior::utility::register_all_passes();
    let mut module = parse(&context, "examples/allreduce.mlir");
    let manager = melior::pass::PassManager::new(&context);
    // MLIR's parser, not pld's: the names come from the global registry.
    melior::utility::parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        "builtin.module(pld-to-pto,canonicalize,cse)",
    )
    .expect("pld's names resolve in MLIR's registry");
    manager.run(&mut module).expect("the pipeline runs");
    // As pld-opt (and mlir-opt) write a module: its text and a newline.
    let lowered = pld_ir::print::op_output(&module.as_operation(), Default::default());
    let expected = run_tool(
        "pld-opt",
        &[
            "examples/allreduce.mlir",
            "--pass-pipeline=builtin.module(pld-to-pto,canonicalize,cse)",
        ],
    );
    assert_eq!(lowered, expected);

    let mut pto = String::new();
    let translated = pld::translate::pldTranslateModuleToPTO(
        module.to_raw(),
        Some(host::collect),
        host::data(&mut pto),
    );
    assert_eq!(translated.value, 1, "{:?}", messages(&sink));
    let dir = scratch("pto");
    std::fs::write(dir.join("lowered.mlir"), &expected).unwrap();
    let lowered_path = dir.join("lowered.mlir");
    let expected_pto = run_tool(
        "pld-translate",
        &["--emit=pto", lowered_path.to_str().unwrap()],
    );
    assert_eq!(pto, expected_pto);

    // The kernel packages, file by file.
    let ours = dir.join("ours");
    let status = pld::translate::pldTranslateModuleToKernels(
        module.to_raw(),
        host::string_ref(ours.to_str().unwrap()),
    );
    assert_eq!(status.value, 1, "{:?}", messages(&sink));
    let theirs = dir.join("theirs");
    run_tool(
        "pld-translate",
        &[
            "--emit=kernels",
            lowered_path.to_str().unwrap(),
            "-o",
            theirs.to_str().unwrap(),
        ],
    );
    let listing = |top: &Path| {
        let mut files = Vec::new();
        let mut pending = vec![top.to_path_buf()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    let bytes = std::fs::read(&path).unwrap();
                    files.push((path.strip_prefix(top).unwrap().to_path_buf(), bytes));
                }
            }
        }
        files.sort();
        files
    };
    let (ours, theirs) = (listing(&ours), listing(&theirs));
    assert!(ours.iter().any(|(p, _)| p.ends_with("kernels.json")));
    assert_eq!(ours, theirs);
    assert!(messages(&sink).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_pass_is_created_and_a_wrong_name_is_explained() {
    let creators: [extern "C" fn() -> mlir_sys::MlirPass; 13] = [
        pld::passes::pldCreateVerifyPass,
        pld::passes::pldCreateConvertShardToPldPass,
        pld::passes::pldCreateSelectAllReduceModesPass,
        pld::passes::pldCreateSynthesizeAllReduceSignalsPass,
        pld::passes::pldCreateMaterializeCommDomainScopesPass,
        pld::passes::pldCreateLowerHostTensorCollectivesPass,
        pld::passes::pldCreateLowerL2TensorCollectivesPass,
        pld::passes::pldCreateLowerCompositeOpsPass,
        pld::passes::pldCreateMaterializeDistTensorCtxPass,
        pld::passes::pldCreateInsertCommFencePass,
        pld::passes::pldCreateConvertPldToPtoPass,
        pld::passes::pldCreateConvertPtoToSimPass,
        pld::passes::pldCreateExploreProtocolPass,
    ];
    let (context, _sink) = host_context();
    let manager = melior::pass::PassManager::new(&context);
    for create in creators {
        let pass = create();
        assert!(!pass.ptr.is_null());
        // The manager owns it from here (and frees it).
        // SAFETY: a pass the API created, handed over once.
        manager.add_pass(unsafe { melior::pass::Pass::from_raw(pass) });
    }
    let mut why = String::new();
    let pass = pld::passes::pldCreatePass(
        host::string_ref("pld-verfy"),
        host::string_ref(""),
        Some(host::collect),
        host::data(&mut why),
    );
    assert!(pass.ptr.is_null());
    assert!(
        why.starts_with("no pld pass is called 'pld-verfy'"),
        "{why}"
    );
    why.clear();
    // A pipeline's name says how to build the pipeline.
    let pass = pld::passes::pldCreatePass(
        host::string_ref("pld-to-pto"),
        host::string_ref(""),
        Some(host::collect),
        host::data(&mut why),
    );
    assert!(pass.ptr.is_null());
    assert!(
        why.ends_with(
            "; 'pld-to-pto' is a pipeline: parse 'builtin.module(pld-to-pto)' with \
             mlirParsePassPipeline after pldRegisterPasses"
        ),
        "{why}"
    );
    why.clear();
    let pass = pld::passes::pldCreatePass(
        host::string_ref("pld-explore-protocol"),
        host::string_ref("schedules=0"),
        Some(host::collect),
        host::data(&mut why),
    );
    assert!(pass.ptr.is_null());
    assert!(why.contains("at least 1"), "{why}");
}

/// Loads `path` (of `context`) for `ranks` ranks.
fn program(context: &Context, sink: &Sink, path: &str, ranks: isize) -> PldProgram {
    let module = parse(context, path);
    let program = api::pldProgramCreate(module.to_raw(), host::string_ref(""), ranks);
    assert!(!program.ptr.is_null(), "{:?}", messages(sink));
    program
}

/// The buffers of a program: (name, dtype, shape, bytes, signal).
fn buffers(program: &PldProgram) -> Vec<(String, Dtype, Vec<usize>, usize, bool)> {
    let view = PldProgram { ptr: program.ptr };
    (0..api::pldProgramGetNumBuffers(PldProgram { ptr: view.ptr }))
        .map(|b| {
            let p = || PldProgram { ptr: view.ptr };
            let name = host::text(api::pldProgramGetBufferName(p(), b));
            let dtype = Dtype::of(&host::text(api::pldProgramGetBufferElementType(p(), b)))
                .expect("a known element type");
            let shape = (0..api::pldProgramGetBufferNumDims(p(), b))
                .map(|d| api::pldProgramGetBufferDimSize(p(), b, d) as usize)
                .collect();
            let bytes = api::pldProgramGetBufferSize(p(), b) as usize;
            (
                name,
                dtype,
                shape,
                bytes,
                api::pldProgramIsBufferSignal(p(), b),
            )
        })
        .collect()
}

/// Halves of small integers, distinct per rank, index and buffer: exact
/// in f32 sums of a few ranks.
fn value(rank: usize, i: usize, salt: usize) -> f64 {
    ((i * 3 + rank * 5 + salt) % 7) as f64 - 3.0 + rank as f64 * 0.25
}

fn same(a: &PldProgram) -> PldProgram {
    PldProgram { ptr: a.ptr }
}

fn result_of(r: &PldRunResult) -> PldRunResult {
    PldRunResult { ptr: r.ptr }
}

#[test]
fn a_kernel_runs_on_the_callers_buffers_as_pld_run_runs_it() {
    let (context, sink) = host_context();
    let ranks = 4;
    let program = program(
        &context,
        &sink,
        "examples/ring_allreduce.mlir",
        ranks as isize,
    );
    assert!(!api::pldProgramIsWhole(same(&program)));
    assert_eq!(
        host::text(api::pldProgramGetEntry(same(&program))),
        "ring_allreduce"
    );
    let described = buffers(&program);
    assert_eq!(
        described,
        [
            (
                "arg0".to_string(),
                Dtype::F32,
                vec![1, 4097],
                4 * 4097,
                false
            ),
            ("arg1".to_string(), Dtype::I32, vec![6, 4], 4 * 24, true),
        ]
    );
    assert_eq!(
        api::pldProgramLookupBuffer(same(&program), host::string_ref("%arg1")),
        1
    );
    assert_eq!(
        api::pldProgramLookupBuffer(same(&program), host::string_ref("1")),
        1
    );
    assert_eq!(
        api::pldProgramLookupBuffer(same(&program), host::string_ref("data")),
        -1
    );
    // The data on every rank; the signal starts as zeros (no input).
    let inputs: Vec<Vec<u8>> = (0..ranks)
        .map(|r| Dtype::F32.encode_all((0..4097).map(|i| value(r, i, 0))))
        .collect();
    let bindings: Vec<PldInputBuffer> = inputs
        .iter()
        .enumerate()
        .map(|(r, bytes)| PldInputBuffer {
            buffer: 0,
            rank: r as isize,
            data: bytes.as_ptr() as *const _,
            size: bytes.len() as isize,
        })
        .collect();
    let mut outputs: Vec<Vec<u8>> = vec![vec![0xAB; 4 * 4097]; ranks];
    let mut signals: Vec<Vec<u8>> = vec![vec![0xAB; 96]; ranks];
    let mut wanted: Vec<PldOutputBuffer> = Vec::new();
    for (r, (out, sig)) in outputs.iter_mut().zip(signals.iter_mut()).enumerate() {
        wanted.push(PldOutputBuffer {
            buffer: 0,
            rank: r as isize,
            data: out.as_mut_ptr() as *mut _,
            size: out.len() as isize,
        });
        wanted.push(PldOutputBuffer {
            buffer: 1,
            rank: r as isize,
            data: sig.as_mut_ptr() as *mut _,
            size: sig.len() as isize,
        });
    }
    let options = api::pldRunOptionsCreate();
    let result = api::pldProgramRun(
        same(&program),
        api::PldRunOptions { ptr: options.ptr },
        bindings.len() as isize,
        bindings.as_ptr(),
        wanted.len() as isize,
        wanted.as_ptr(),
    );
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert!(api::pldRunResultIsOk(result_of(&result)));
    assert_eq!(api::pldRunResultGetNumRanks(result_of(&result)), 4);
    assert_eq!(api::pldRunResultGetNumCalls(result_of(&result)), 1);
    assert_eq!(
        host::text(api::pldRunResultGetCallCollective(result_of(&result), 0)),
        "pld.tensor_allreduce"
    );
    assert_eq!(
        host::text(api::pldRunResultGetCallLocation(result_of(&result), 0)),
        "examples/ring_allreduce.mlir:16:10"
    );
    for r in 0..4 {
        assert_eq!(
            api::pldRunResultGetCallCheck(result_of(&result), 0, r),
            Check::Ok
        );
        assert_eq!(
            api::pldRunResultGetCallNumWrong(result_of(&result), 0, r),
            0
        );
    }
    assert_eq!(
        api::pldRunResultGetCallCheck(result_of(&result), 0, 4),
        Check::NotChecked
    );
    // The sum, computed here.
    let sum: Vec<u8> =
        Dtype::F32.encode_all((0..4097).map(|i| (0..ranks).map(|r| value(r, i, 0)).sum()));
    for out in &outputs {
        assert!(out == &sum, "a rank's result is not the sum");
    }
    assert!(
        signals.iter().all(|s| s.iter().all(|&b| b == 0)),
        "the credits are back to 0"
    );

    // pld-run on the same inputs: the same bytes and counters.
    let dir = scratch("kernel");
    for (r, bytes) in inputs.iter().enumerate() {
        std::fs::write(
            dir.join(format!("in.rank{r}.npy")),
            npy::encode(Dtype::F32, &[1, 4097], bytes),
        )
        .unwrap();
    }
    let pattern = dir.join("in.rank{rank}.npy");
    let out_dir = dir.join("out");
    let printed = run_tool(
        "pld-run",
        &[
            "examples/ring_allreduce.mlir",
            "--ranks",
            "4",
            "--check",
            "--stats",
            "--per-rank",
            "--input",
            &format!("data={}", pattern.display()),
            "--output-dir",
            out_dir.to_str().unwrap(),
        ],
    );
    for (r, out) in outputs.iter().enumerate() {
        let file = std::fs::read(out_dir.join(format!("data.rank{r}.npy"))).unwrap();
        assert!(npy::decode(&file, Dtype::F32, &[1, 4097]).unwrap() == *out);
        let c = api::pldRunResultGetCounters(result_of(&result), r as isize);
        let row = format!(
            "  {r:>4}  {:>8}  {:>5}  {:>17}  {:>20}",
            c.notifies, c.waits, c.remote_bytes_read, c.remote_bytes_written
        );
        assert!(
            printed.contains(&row),
            "pld-run printed no row\n{row}\n{printed}"
        );
        assert!(c.notifies > 0 && c.remote_bytes_read > 0);
    }
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_whole_program_runs_from_its_host_orchestrator() {
    let (context, sink) = host_context();
    let program = program(&context, &sink, "examples/allreduce.mlir", 4);
    assert!(api::pldProgramIsWhole(same(&program)));
    assert_eq!(host::text(api::pldProgramGetEntry(same(&program))), "main");
    let data = api::pldProgramLookupBuffer(same(&program), host::string_ref("data_buf"));
    assert!(data >= 0);
    let inputs: Vec<Vec<u8>> = (0..4)
        .map(|r| Dtype::F32.encode_all((0..4096).map(|i| value(r, i, 1))))
        .collect();
    let bindings: Vec<PldInputBuffer> = (0..4)
        .map(|r| PldInputBuffer {
            buffer: data,
            rank: r as isize,
            data: inputs[r].as_ptr() as *const _,
            size: inputs[r].len() as isize,
        })
        .collect();
    let mut outputs = vec![vec![0u8; 4 * 4096]; 4];
    let wanted: Vec<PldOutputBuffer> = outputs
        .iter_mut()
        .enumerate()
        .map(|(r, out)| PldOutputBuffer {
            buffer: data,
            rank: r as isize,
            data: out.as_mut_ptr() as *mut _,
            size: out.len() as isize,
        })
        .collect();
    let result = api::pldProgramRun(
        same(&program),
        api::PldRunOptions {
            ptr: std::ptr::null_mut(),
        },
        4,
        bindings.as_ptr(),
        4,
        wanted.as_ptr(),
    );
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert!(api::pldRunResultIsOk(result_of(&result)));
    // The kernel's allreduce, then the HOST one: 4 x the sum.
    assert_eq!(api::pldRunResultGetNumCalls(result_of(&result)), 2);
    assert_eq!(
        host::text(api::pldRunResultGetCallKernel(result_of(&result), 0)),
        "reduce_kernel"
    );
    assert_eq!(
        host::text(api::pldRunResultGetCallKernel(result_of(&result), 1)),
        ""
    );
    assert_eq!(
        host::text(api::pldRunResultGetCallLocation(result_of(&result), 1)),
        "examples/allreduce.mlir:47:10"
    );
    let expected: Vec<u8> =
        Dtype::F32.encode_all((0..4096).map(|i| 4.0 * (0..4).map(|r| value(r, i, 1)).sum::<f64>()));
    assert!(outputs.iter().all(|o| *o == expected));
    for r in 0..4 {
        let c = api::pldRunResultGetCounters(result_of(&result), r);
        assert_eq!(
            c.round_trips, 2,
            "one dispatch and one HOST builtin per device"
        );
    }
    api::pldRunResultDestroy(result);
    api::pldProgramDestroy(program);
}

/// Writes `text` as `name` in a scratch directory and loads it; the
/// program, and the file's path (as findings name it).
fn program_of(context: &Context, sink: &Sink, name: &str, text: &str, ranks: isize) -> PldProgram {
    let module = pld_ir::parse::parse(context, text, name).expect("parses");
    let program = api::pldProgramCreate(module.to_raw(), host::string_ref(""), ranks);
    assert!(!program.ptr.is_null(), "{:?}", messages(sink));
    program
}

fn run_plain(program: &PldProgram, options: *mut std::ffi::c_void) -> PldRunResult {
    api::pldProgramRun(
        same(program),
        api::PldRunOptions { ptr: options },
        0,
        std::ptr::null(),
        0,
        std::ptr::null(),
    )
}

/// Every finding: (kind, ranks, cell, locations).
/// The kinds of a result's findings, in order.
fn finding_kinds(result: &PldRunResult) -> Vec<FindingKind> {
    findings(result).into_iter().map(|f| f.0).collect()
}

fn findings(result: &PldRunResult) -> Vec<(FindingKind, Vec<isize>, String, Vec<String>)> {
    let r = || result_of(result);
    (0..api::pldRunResultGetNumFindings(r()))
        .map(|f| {
            let ranks = (0..api::pldRunResultGetFindingNumRanks(r(), f))
                .map(|i| api::pldRunResultGetFindingRank(r(), f, i))
                .collect();
            let locations = (0..api::pldRunResultGetFindingNumLocations(r(), f))
                .map(|i| host::text(api::pldRunResultGetFindingLocation(r(), f, i)))
                .collect();
            (
                api::pldRunResultGetFindingKind(r(), f),
                ranks,
                host::text(api::pldRunResultGetFindingCell(r(), f)),
                locations,
            )
        })
        .collect()
}

// The kernels of tests/lit/tools/pld-run/faults.mlir, whose expectations
// there name the same ranks and cells.
const DEADLOCK: &str = r#"func.func @divergent(%sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<4x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %skip = arith.cmpi eq, %me, %c0 : i32
  scf.if %skip {
  } else {
    %r = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  }
  return
}
"#;

const LEAK: &str = r#"func.func @leaky(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %peer = arith.subi %c1, %me : index
  %one = arith.constant 1 : i32
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()
  return
}
"#;

#[test]
fn deadlocks_and_leaks_name_ranks_cells_and_locations() {
    let (context, sink) = host_context();
    let deadlocking = program_of(&context, &sink, "deadlock.mlir", DEADLOCK, 3);
    let options = api::pldRunOptionsCreate();
    api::pldRunOptionsSetDeadline(api::PldRunOptions { ptr: options.ptr }, 0.2);
    let result = run_plain(&deadlocking, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert!(!api::pldRunResultIsOk(result_of(&result)));
    let found = findings(&result);
    assert_eq!(found.len(), 2, "{found:?}");
    for (finding, rank) in found.iter().zip([1, 2]) {
        assert_eq!(finding.0, FindingKind::Deadlock);
        assert_eq!(finding.1, [rank]);
        assert_eq!(finding.2, "arg0[0, 0]");
        assert_eq!(finding.3.len(), 1);
        assert!(
            finding.3[0].starts_with("deadlock.mlir:8:"),
            "{:?}",
            finding.3
        );
    }
    // The barrier is not checked: the run did not finish.
    assert_eq!(
        api::pldRunResultGetCallCheck(result_of(&result), 0, 1),
        Check::NotChecked
    );
    api::pldRunResultDestroy(result);

    let leaking = program_of(&context, &sink, "leak.mlir", LEAK, 2);
    let result = run_plain(&leaking, std::ptr::null_mut());
    let mut found = findings(&result);
    found.sort_by_key(|f| f.1.clone());
    let expected = [
        (FindingKind::Leak, vec![0], "arg0[1, 0]".to_string(), vec![]),
        (FindingKind::Leak, vec![1], "arg0[0, 0]".to_string(), vec![]),
    ];
    assert_eq!(found, expected);
    let message = host::text(api::pldRunResultGetFindingMessage(result_of(&result), 0));
    assert!(message.contains("should be back to 0"), "{message}");
    assert_eq!(api::pldRunResultGetFindingSeed(result_of(&result), 0), -1);
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(deadlocking);
    api::pldProgramDestroy(leaking);
}

#[test]
fn a_fault_names_its_rank_and_op() {
    // On three ranks the leaky barrier's rank 2 computes peer -1: its
    // notify and wait name row -1 of the two-row signal. The findings had
    // the message only (no rank, no location).
    let (context, sink) = host_context();
    let faulty = program_of(&context, &sink, "leak.mlir", LEAK, 3);
    let result = run_plain(&faulty, std::ptr::null_mut());
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    let errors: Vec<_> = findings(&result)
        .into_iter()
        .filter(|f| f.0 == FindingKind::Error)
        .collect();
    assert!(!errors.is_empty());
    for (_, ranks, _, locations) in &errors {
        assert_eq!(ranks, &[2]);
        assert_eq!(locations.len(), 1);
        let line = locations[0].strip_prefix("leak.mlir:").unwrap_or_default();
        assert!(
            ["9:", "10:"].iter().any(|l| line.starts_with(l)),
            "{locations:?}"
        );
    }
    api::pldRunResultDestroy(result);
    api::pldProgramDestroy(faulty);
}

#[test]
fn a_time_limit_stops_its_run_and_no_other() {
    let (context, sink) = host_context();
    let deadlocking = program_of(&context, &sink, "deadlock.mlir", DEADLOCK, 3);
    let options = api::pldRunOptionsCreate();
    let o = || api::PldRunOptions { ptr: options.ptr };
    // Without the limit this run would end at its 60 s deadline.
    api::pldRunOptionsSetDeadline(o(), 60.0);
    api::pldRunOptionsSetTimeLimit(o(), 0.3);
    // Meanwhile another thread runs the ring kernel again and again; its
    // runs are not stopped.
    let (ready, started) = std::sync::mpsc::channel();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let over = done.clone();
    let other = std::thread::spawn(move || {
        let (context, sink) = host_context();
        let program = program(&context, &sink, "examples/ring_allreduce.mlir", 4);
        ready.send(()).unwrap();
        let mut runs = Vec::new();
        while !over.load(std::sync::atomic::Ordering::Relaxed) || runs.is_empty() {
            let result = run_plain(&program, std::ptr::null_mut());
            let checked = api::pldRunResultGetCallCheck(result_of(&result), 0, 0);
            runs.push(api::pldRunResultIsOk(result_of(&result)) && checked == Check::Ok);
            api::pldRunResultDestroy(result);
        }
        api::pldProgramDestroy(program);
        runs
    });
    started.recv().unwrap();
    let begin = std::time::Instant::now();
    let result = run_plain(&deadlocking, options.ptr);
    let took = begin.elapsed();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert!(took < std::time::Duration::from_secs(30), "{took:?}");
    assert_eq!(
        findings(&result),
        [(FindingKind::TimeLimit, vec![], String::new(), vec![])]
    );
    let message = host::text(api::pldRunResultGetFindingMessage(result_of(&result), 0));
    assert!(
        message.starts_with("time limit (0.3 s) reached: "),
        "{message}"
    );
    assert_eq!(
        api::pldRunResultGetCallCheck(result_of(&result), 0, 1),
        Check::NotChecked
    );
    let note = host::text(api::pldRunResultGetCallNote(result_of(&result), 0));
    assert!(note.contains("stopped at its time limit"), "{note}");
    api::pldRunResultDestroy(result);
    let runs = other.join().unwrap();
    let stopped = runs.iter().filter(|&&ok| !ok).count();
    assert_eq!(
        stopped,
        0,
        "{stopped} of {} runs of the other thread",
        runs.len()
    );

    // A limit that means nothing is refused until a valid one is set; 0 is
    // no limit, and the deadline finds the deadlock again.
    api::pldRunOptionsSetTimeLimit(o(), -1.0);
    assert!(run_plain(&deadlocking, options.ptr).ptr.is_null());
    assert_eq!(
        messages(&sink).last().map(String::as_str),
        Some(
            "deadlock.mlir:1:1: pldRunOptionsSetTimeLimit: -1.0 seconds is no time limit (a \
             positive number of seconds, at most about 1.8e19; 0 or infinity for none)"
        )
    );
    // A limit below a nanosecond is a nanosecond, not "none".
    api::pldRunOptionsSetTimeLimit(o(), 1e-12);
    let result = run_plain(&deadlocking, options.ptr);
    let kinds = finding_kinds(&result);
    assert_eq!(kinds, [FindingKind::TimeLimit]);
    api::pldRunResultDestroy(result);
    // A deadline beyond any Duration is refused, not ignored.
    api::pldRunOptionsSetDeadline(o(), 1e300);
    assert!(run_plain(&deadlocking, options.ptr).ptr.is_null());
    let said = messages(&sink);
    assert!(
        said.last()
            .unwrap()
            .contains("pldRunOptionsSetDeadline: 1e300 is no deadline"),
        "{said:?}"
    );
    api::pldRunOptionsSetTimeLimit(o(), 0.0);
    api::pldRunOptionsSetDeadline(o(), 0.2);
    let result = run_plain(&deadlocking, options.ptr);
    let kinds = finding_kinds(&result);
    assert_eq!(kinds, [FindingKind::Deadlock, FindingKind::Deadlock]);
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(deadlocking);
}

#[test]
fn exploring_finds_the_race_pld_run_finds() {
    let (context, sink) = host_context();
    let path = "tests/explore/remote-load-without-wait.mlir";
    let program = program(&context, &sink, path, 2);
    let options = api::pldRunOptionsCreate();
    api::pldRunOptionsSetExplore(api::PldRunOptions { ptr: options.ptr }, 0, 10);
    let result = run_plain(&program, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert_eq!(api::pldRunResultGetNumSchedules(result_of(&result)), 10);
    let found = findings(&result);
    // pld-run --explore 10 reports this one race, first seen with seed 0:
    // rank 1's remote load at 20:8 against rank 0's store at 17:3.
    let printed = Command::new(tool("pld-run"))
        .args([path, "--ranks", "2", "--explore", "10"])
        .current_dir(root())
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&printed.stdout);
    assert!(
        printed.contains("1 finding (first seen with seed 0)"),
        "{printed}"
    );
    assert_eq!(
        found,
        [(
            FindingKind::Race,
            vec![1, 0],
            "arg0[0, 0]..[0, 63]".to_string(),
            vec![format!("{path}:20:8"), format!("{path}:17:3")]
        )]
    );
    assert_eq!(api::pldRunResultGetFindingSeed(result_of(&result), 0), 0);
    // Its ops named as the user wrote them, as pld-run names them (the C
    // API said only `pto.tload` and `pto.tstore`).
    let message = host::text(api::pldRunResultGetFindingMessage(result_of(&result), 0));
    for op in [
        format!("`pld.tile_remote_load` (pto.tload) at {path}:20:8"),
        format!("`pld.tile_store` (pto.tstore) at {path}:17:3"),
    ] {
        assert!(message.contains(&op), "{message}");
        assert!(printed.contains(&op), "{printed}");
    }
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
}

#[test]
fn a_schedule_that_cannot_end_ends_the_exploration() {
    // A rank polling a flag no rank sets, with scalar reads, goes on past
    // the explorer's no-progress cut: pldProgramRun never returned, time
    // limit or not (recheck24 H1, embed23 H2). The sweep runs on a thread
    // of its own now; the caller's ends it at the schedule that took no
    // decision for the deadline, which is the last finding.
    let (context, sink) = host_context();
    let program = program(&context, &sink, "tests/inputs/poll-unset-flag.mlir", 2);
    let options = api::pldRunOptionsCreate();
    let o = || api::PldRunOptions { ptr: options.ptr };
    api::pldRunOptionsSetExplore(o(), 7, 3);
    api::pldRunOptionsSetDeadline(o(), 1.0);
    let result = run_plain(&program, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert_eq!(api::pldRunResultGetNumSchedules(result_of(&result)), 0);
    let kinds = finding_kinds(&result);
    assert_eq!(kinds, [FindingKind::NoProgress]);
    assert_eq!(api::pldRunResultGetFindingSeed(result_of(&result), 0), 7);
    let message = host::text(api::pldRunResultGetFindingMessage(result_of(&result), 0));
    assert!(
        message.starts_with("schedule 7 cannot end: no progress: 1000000 decisions in a row"),
        "{message}"
    );
    // It names the ranks that poll on and where (recheck25 L3): the file's
    // scf.while reads the flag at line 9 on both ranks.
    let r = || result_of(&result);
    assert_eq!(api::pldRunResultGetFindingNumRanks(r(), 0), 2, "{message}");
    let ranks: Vec<isize> = (0..2)
        .map(|i| api::pldRunResultGetFindingRank(r(), 0, i))
        .collect();
    assert_eq!(ranks, [0, 1]);
    assert_eq!(api::pldRunResultGetFindingNumLocations(r(), 0), 2);
    let location = host::text(api::pldRunResultGetFindingLocation(r(), 0, 0));
    assert!(
        location.ends_with("poll-unset-flag.mlir:9:10"),
        "{location}"
    );
    assert!(
        message.contains("polling then: `pto.load_scalar` at "),
        "{message}"
    );
    api::pldRunResultDestroy(result);
    // The time limit bounds it too: with a deadline of 60 s, the limit of
    // 0.5 s ends the call (it waited for the deadline: recheck25 M1).
    api::pldRunOptionsSetDeadline(o(), 60.0);
    api::pldRunOptionsSetTimeLimit(o(), 0.5);
    let result = run_plain(&program, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    let kinds = finding_kinds(&result);
    assert_eq!(kinds, [FindingKind::TimeLimit]);
    let message = host::text(api::pldRunResultGetFindingMessage(result_of(&result), 0));
    assert!(message.contains("the schedule did not end"), "{message}");
    api::pldRunResultDestroy(result);
    api::pldRunOptionsSetTimeLimit(o(), 0.0);
    // The thread goes on: another program explores.
    let barrier = self::program(&context, &sink, "examples/barrier.mlir", 2);
    api::pldRunOptionsSetExplore(o(), 0, 2);
    let result = run_plain(&barrier, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert_eq!(api::pldRunResultGetNumSchedules(result_of(&result)), 2);
    assert!(findings(&result).is_empty());
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(barrier);
    api::pldProgramDestroy(program);
}

#[test]
fn a_schedule_count_far_past_the_time_limit_costs_no_memory() {
    // The seeds were listed up front, 16 bytes each: 10^12 schedules
    // aborted the host ("memory allocation of 16000000000000 bytes
    // failed"), 10^8 took 1.7 GB before the first schedule ran.
    let (context, sink) = host_context();
    let program = program(&context, &sink, "examples/ring_allreduce.mlir", 4);
    let options = api::pldRunOptionsCreate();
    let o = || api::PldRunOptions { ptr: options.ptr };
    api::pldRunOptionsSetExplore(o(), 7, 1_000_000_000_000);
    api::pldRunOptionsSetTimeLimit(o(), 0.5);
    let result = run_plain(&program, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    let ran = api::pldRunResultGetNumSchedules(result_of(&result));
    assert!(ran > 0 && ran < 1_000_000_000_000, "{ran}");
    let kinds = finding_kinds(&result);
    assert_eq!(kinds, [FindingKind::TimeLimit]);
    let message = host::text(api::pldRunResultGetFindingMessage(result_of(&result), 0));
    assert!(message.contains("of 1000000000000"), "{message}");
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
}

#[test]
fn seeds_past_what_a_result_can_give_are_refused() {
    // pldRunResultGetFindingSeed gives an int64_t: a seed from 2^63 on
    // came back as -1, "outside explore mode"; a range past 2^64 - 1 ran.
    let (context, sink) = host_context();
    let program = program(&context, &sink, "examples/barrier.mlir", 2);
    for (first, count) in [(1u64 << 63, 1), (u64::MAX - 2, 6)] {
        let options = api::pldRunOptionsCreate();
        api::pldRunOptionsSetExplore(api::PldRunOptions { ptr: options.ptr }, first, count);
        let words = format!(
            "pldRunOptionsSetExplore: {count} schedules from seed {first} run past seed \
             9223372036854775807"
        );
        refused_saying(&program, options.ptr, &sink, &words);
        api::pldRunOptionsDestroy(options);
    }
    api::pldProgramDestroy(program);
}

#[test]
fn a_null_program_runs_nothing() {
    // With no program there is no context to report on: a null result (and
    // a line on standard error, which it lacked).
    let none = PldProgram {
        ptr: std::ptr::null_mut(),
    };
    let result = run_plain(&none, std::ptr::null_mut());
    assert!(result.ptr.is_null());
}

/// Runs `program` with `options`: no result, and a diagnostic holding
/// `words`.
fn refused_saying(program: &PldProgram, options: *mut std::ffi::c_void, sink: &Sink, words: &str) {
    let result = run_plain(program, options);
    assert!(result.ptr.is_null());
    let said = messages(sink);
    assert!(said.iter().any(|m| m.contains(words)), "{said:?}");
}

#[test]
fn a_run_larger_than_the_memory_is_refused_not_aborted() {
    // 4 GiB per rank on 64 ranks: the inputs' allocation ended the host
    // ("memory allocation of ... failed", status 134) where the memory or
    // the process's address-space limit was short; now a diagnostic and
    // a null result, before anything is allocated.
    let (context, sink) = host_context();
    let text = r#"func.func @k(%data: tensor<1x1073741824xf32, #pld.dist>, %sig: tensor<64x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x1073741824xf32, #pld.dist>, tensor<64x1xi32, #pld.dist>) -> tensor<1x1073741824xf32, #pld.dist>
  return
}
"#;
    let program = program_of(&context, &sink, "wide.mlir", text, 64);
    let options = api::pldRunOptionsCreate();
    let words = "@k on 64 ranks (4.0 GiB of parameters per rank, as inputs, windows, results \
                 and goldens) needs 1024.0 GiB of memory; the machine has";
    refused_saying(&program, options.ptr, &sink, words);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
}

/// A HOST loop of 100 allreduces over an 8 GiB window buffer, shared
/// with the Python package's test.
const BIG_LOOP: &str = include_str!("inputs/big-loop.mlir");

#[test]
fn a_programs_memory_is_estimated_as_pld_run_estimates_it() {
    // The C API counted 3 copies of the window buffers and one window,
    // and none of the check's snapshots of every task's operands (a
    // checked loop of calls passed its estimate and failed an allocation
    // later); now pld-run's own estimate, in pld-run's words.
    let (context, sink) = host_context();
    let program = program_of(&context, &sink, "loop.mlir", BIG_LOOP, 2);
    let options = api::pldRunOptionsCreate();
    let plain = "@main on 2 devices (8.0 GiB of window buffers per device, as inputs and as \
                 read after the run, and a window of 8.0 GiB per device) needs 48.0 GiB of memory";
    let checked = "@main on 2 devices (8.0 GiB of window buffers per device, as inputs and as \
                   read after the run, and a window of 8.0 GiB per device; checking keeps every \
                   task's operands before and after it: 3248.0 GiB) needs 3296.0 GiB of memory";
    // Check is on by default.
    refused_saying(&program, options.ptr, &sink, checked);
    api::pldRunOptionsSetCheck(api::PldRunOptions { ptr: options.ptr }, false);
    refused_saying(&program, options.ptr, &sink, plain);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
}

#[test]
fn what_is_wrong_reaches_the_hosts_diagnostic_handler() {
    let (context, sink) = host_context();
    // A collective the verifier refuses: at its op, through the handler.
    let bad = r#"func.func @k(%d: tensor<1x8xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d) {op = #pld.reduce_op<"sum">} : (tensor<1x8xf32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  return
}
"#;
    let module = pld_ir::parse::parse(&context, bad, "bad.mlir").unwrap();
    let program = api::pldProgramCreate(module.to_raw(), host::string_ref(""), 2);
    assert!(program.ptr.is_null());
    let said = messages(&sink);
    assert!(
        said.iter().any(|m| m.starts_with("bad.mlir:2:8: ")),
        "{said:?}"
    );
    let mut pto = String::new();
    let status = pld::translate::pldTranslateModuleToPTO(
        module.to_raw(),
        Some(host::collect),
        host::data(&mut pto),
    );
    assert_eq!(status.value, 0);
    assert!(pto.is_empty());
    assert!(!messages(&sink).is_empty());

    // A rank count out of range, and an input of the wrong size.
    let good = parse(&context, "examples/ring_allreduce.mlir");
    let none = api::pldProgramCreate(good.to_raw(), host::string_ref(""), 0);
    assert!(none.ptr.is_null());
    assert_eq!(
        messages(&sink),
        ["examples/ring_allreduce.mlir:0:0: a program runs on 1 to 64 ranks, not 0"]
    );
    let unknown = api::pldProgramCreate(good.to_raw(), host::string_ref("nope"), 4);
    assert!(unknown.ptr.is_null());
    assert!(messages(&sink)[0].contains("no HOST orchestrator or device kernel @nope"));
    let program = api::pldProgramCreate(good.to_raw(), host::string_ref(""), 4);
    let short = [0u8; 8];
    let input = PldInputBuffer {
        buffer: 0,
        rank: 3,
        data: short.as_ptr() as *const _,
        size: 8,
    };
    let result = api::pldProgramRun(
        same(&program),
        api::PldRunOptions {
            ptr: std::ptr::null_mut(),
        },
        1,
        &input,
        0,
        std::ptr::null(),
    );
    assert!(result.ptr.is_null());
    assert_eq!(
        messages(&sink),
        ["examples/ring_allreduce.mlir:14:1: input 0 gives 8 bytes for 'arg0' on rank 3, which holds 16388 bytes (f32 x 4097)"]
    );
    // Null handles and indices out of range are harmless.
    assert_eq!(
        api::pldProgramGetNumBuffers(PldProgram {
            ptr: std::ptr::null_mut()
        }),
        0
    );
    assert_eq!(
        host::text(api::pldProgramGetBufferName(same(&program), 7)),
        ""
    );
    api::pldProgramDestroy(program);
    api::pldProgramDestroy(PldProgram {
        ptr: std::ptr::null_mut(),
    });
}

#[test]
fn a_program_stays_on_its_thread_and_the_irdl_text_is_the_installed_file() {
    let (context, sink) = host_context();
    let program = program(&context, &sink, "examples/ring_allreduce.mlir", 4);
    let address = program.ptr as usize;
    // Another thread's run is refused (and reported), not raced.
    let refused = std::thread::spawn(move || {
        let other = PldProgram {
            ptr: address as *mut std::ffi::c_void,
        };
        run_plain(&other, std::ptr::null_mut()).ptr.is_null()
    })
    .join()
    .unwrap();
    assert!(refused);
    assert_eq!(
        messages(&sink),
        ["examples/ring_allreduce.mlir:14:1: pldProgramRun: a PldProgram is run and destroyed on the thread that created it"]
    );
    let result = run_plain(&program, std::ptr::null_mut());
    assert!(api::pldRunResultIsOk(result_of(&result)));
    api::pldRunResultDestroy(result);
    api::pldProgramDestroy(program);

    let text = host::text(pld::dialects::pldGetIRDLDefinitions());
    let file = std::fs::read_to_string(root().join("dialect/irdl/pld-and-pto.irdl.mlir")).unwrap();
    assert_eq!(text, file);
}

/// Arguments a C caller can get wrong are refused with a diagnostic that
/// names them: a negative rank count as given, a null array with a positive
/// count (inputs and outputs), a negative number of schedules; the entry
/// is taken with its sigil, as a buffer name is.
#[test]
fn a_null_module_or_context_is_refused_without_a_crash() {
    let module = mlir_sys::MlirModule {
        ptr: std::ptr::null_mut(),
    };
    let context = mlir_sys::MlirContext {
        ptr: std::ptr::null_mut(),
    };
    assert_eq!(pld::dialects::pldContextLoadDialects(context).value, 0);
    let program = api::pldProgramCreate(module, host::string_ref(""), 2);
    assert!(program.ptr.is_null());
    let mut text = String::new();
    let translated =
        pld::translate::pldTranslateModuleToPTO(module, Some(host::collect), host::data(&mut text));
    assert_eq!(translated.value, 0);
    assert!(text.is_empty());
    let kernels =
        pld::translate::pldTranslateModuleToKernels(module, host::string_ref("unused-dir"));
    assert_eq!(kernels.value, 0);
    assert!(!root().join("unused-dir").exists());
    // A string with a null pointer and a length is refused, not read as
    // empty.
    let (context, sink) = host_context();
    let module = parse(&context, "examples/ring_allreduce.mlir");
    let entry = mlir_sys::MlirStringRef {
        data: std::ptr::null(),
        length: 3,
    };
    assert!(api::pldProgramCreate(module.to_raw(), entry, 4)
        .ptr
        .is_null());
    assert_eq!(
        messages(&sink),
        ["examples/ring_allreduce.mlir:0:0: the entry name: a null pointer with a length of 3"]
    );
}

#[test]
fn wrong_arguments_are_named_and_an_entry_takes_its_sigil() {
    let (context, sink) = host_context();
    let module = parse(&context, "examples/ring_allreduce.mlir");
    let none = api::pldProgramCreate(module.to_raw(), host::string_ref(""), -1);
    assert!(none.ptr.is_null());
    assert_eq!(
        messages(&sink),
        ["examples/ring_allreduce.mlir:0:0: a program runs on 1 to 64 ranks, not -1"]
    );
    let program = api::pldProgramCreate(module.to_raw(), host::string_ref("@ring_allreduce"), 4);
    assert!(!program.ptr.is_null(), "{:?}", messages(&sink));
    assert_eq!(
        host::text(api::pldProgramGetEntry(same(&program))),
        "ring_allreduce"
    );
    let unknown = api::pldProgramCreate(module.to_raw(), host::string_ref("@nope"), 4);
    assert!(unknown.ptr.is_null());
    let said = messages(&sink);
    assert!(said[0].contains(" device kernel @nope "), "{said:?}");
    assert!(!said[0].contains("@@"), "{said:?}");
    // A bare `@` names nothing (it used to stand for the default entry).
    let bare = api::pldProgramCreate(module.to_raw(), host::string_ref("@"), 4);
    assert!(bare.ptr.is_null());
    assert_eq!(
        messages(&sink),
        ["examples/ring_allreduce.mlir:0:0: the entry '@' names no function: give its name (with or without the @), or an empty entry for the only HOST orchestrator or kernel"]
    );

    let options = api::pldRunOptionsCreate();
    let with = |n_in: isize, n_out: isize, options: *mut std::ffi::c_void| {
        api::pldProgramRun(
            same(&program),
            api::PldRunOptions { ptr: options },
            n_in,
            std::ptr::null(),
            n_out,
            std::ptr::null(),
        )
    };
    assert!(with(3, 0, std::ptr::null_mut()).ptr.is_null());
    assert!(with(0, 2, std::ptr::null_mut()).ptr.is_null());
    api::pldRunOptionsSetExplore(api::PldRunOptions { ptr: options.ptr }, 0, -5);
    assert!(with(0, 0, options.ptr).ptr.is_null());
    assert_eq!(
        messages(&sink),
        [
            "examples/ring_allreduce.mlir:14:1: the inputs: a null pointer with a count of 3",
            "examples/ring_allreduce.mlir:14:1: the outputs: a null pointer with a count of 2",
            "examples/ring_allreduce.mlir:14:1: pldRunOptionsSetExplore: a negative number of schedules (-5)",
        ]
    );
    // A valid count afterwards makes the options usable again.
    api::pldRunOptionsSetExplore(api::PldRunOptions { ptr: options.ptr }, 0, 0);
    let result = with(0, 0, options.ptr);
    assert!(
        api::pldRunResultIsOk(result_of(&result)),
        "{:?}",
        messages(&sink)
    );
    assert_eq!(api::pldRunResultGetNumSchedules(result_of(&result)), 1);
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
}

/// A shard module runs as `pld-run` runs it: converted into the pld
/// program `convert-shard-to-pld` makes of it, on its grid's devices
/// (`pldProgramCreate` refused it: "no HOST orchestrator and no device
/// kernel to run"); another rank count is refused, naming the grid's.
#[test]
fn a_shard_module_runs_as_pld_run_runs_it() {
    let (context, sink) = host_context();
    let module = parse(&context, "examples/shard.mlir");
    let wrong = api::pldProgramCreate(module.to_raw(), host::string_ref(""), 4);
    assert!(wrong.ptr.is_null());
    let said = messages(&sink);
    assert!(
        said.iter().any(|m| m
            .contains("the shard program runs on a grid of 8 devices; run it on 8 ranks, not 4")),
        "{said:?}"
    );
    let program = program(&context, &sink, "examples/shard.mlir", 8);
    assert!(api::pldProgramIsWhole(same(&program)));
    let result = run_plain(&program, std::ptr::null_mut());
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    assert!(
        api::pldRunResultIsOk(result_of(&result)),
        "{:?}",
        messages(&sink)
    );
    // pld-run's own run of it: examples/shard.mlir's lit test counts the
    // same calls.
    let expected = run_tool(
        "pld-run",
        &["examples/shard.mlir", "--ranks", "8", "--check"],
    );
    let calls = expected
        .lines()
        .filter(|l| l.starts_with("  pld.tensor_") && l.contains(": ok on "))
        .count();
    assert!(calls > 0, "{expected}");
    assert_eq!(
        api::pldRunResultGetNumCalls(result_of(&result)),
        calls as isize
    );
    api::pldRunResultDestroy(result);
    api::pldProgramDestroy(program);
}

#[test]
fn a_check_that_cannot_be_made_is_a_finding() {
    // embed26 M1: a kernel holding two collectives cannot be compared with
    // a golden; pld-run --check fails on it, the C API said the run was
    // clean (pldRunResultIsOk) with the reason in the call's note only.
    let (context, sink) = host_context();
    let two = r#"func.func @two(%d: tensor<1x8xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<1x8xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  %b = "pld.tensor_allreduce"(%a, %s) {op = #pld.reduce_op<"max">} : (tensor<1x8xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  return
}
"#;
    let program = program_of(&context, &sink, "two.mlir", two, 2);
    let options = api::pldRunOptionsCreate();
    // Check is on by default.
    let result = run_plain(&program, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    let found = findings(&result);
    assert!(!api::pldRunResultIsOk(result_of(&result)));
    assert_eq!(
        finding_kinds(&result),
        [FindingKind::Uncheckable; 2],
        "{found:?}"
    );
    let message = host::text(api::pldRunResultGetFindingMessage(result_of(&result), 0));
    assert!(
        message.contains("check cannot compare pld.tensor_allreduce"),
        "{message}"
    );
    assert!(message.contains("@two has 2 collectives"), "{message}");
    assert_eq!(found[0].3, ["two.mlir:2:8"]);
    assert_eq!(found[1].3, ["two.mlir:3:8"]);
    api::pldRunResultDestroy(result);
    // Without the check there is nothing to make.
    api::pldRunOptionsSetCheck(api::PldRunOptions { ptr: options.ptr }, false);
    let result = run_plain(&program, options.ptr);
    assert!(
        api::pldRunResultIsOk(result_of(&result)),
        "{:?}",
        findings(&result)
    );
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
}

#[test]
fn a_calls_ranks_are_the_devices_of_its_comm_domain() {
    // embed26 M2: a call over a subset of the devices counts its ranks in
    // its comm domain; pldRunResultGetCallDevice says which device each is
    // (devices 2 and 3 run the pair's allreduce here, as its ranks 0, 1).
    let (context, sink) = host_context();
    let program = program_of(&context, &sink, "pair.mlir", PAIR_ON_2_3, 4);
    let options = api::pldRunOptionsCreate();
    api::pldRunOptionsSetCheck(api::PldRunOptions { ptr: options.ptr }, false);
    let result = run_plain(&program, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    let r = || result_of(&result);
    let pair = (0..api::pldRunResultGetNumCalls(r()))
        .find(|&c| api::pldRunResultGetCallNumRanks(r(), c) == 2)
        .expect("the pair's call");
    let devices: Vec<isize> = (0..2)
        .map(|k| api::pldRunResultGetCallDevice(r(), pair, k))
        .collect();
    assert_eq!(devices, [2, 3]);
    assert_eq!(api::pldRunResultGetCallDevice(r(), pair, 2), -1);
    // recheck27 L1: the two collectives of @both are told apart by where
    // each op is written (both calls are at the kernel call's location).
    let written: Vec<String> = (0..api::pldRunResultGetNumCalls(r()))
        .map(|c| host::text(api::pldRunResultGetCallOpLocation(r(), c)))
        .collect();
    assert_eq!(
        written,
        ["pair.mlir:5:8", "pair.mlir:6:8", "pair.mlir:10:8"]
    );
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
    // A CHIP orchestrator named as the entry is said to be one (it was
    // "has no HOST orchestrator or device kernel @pair": embed26 L5).
    let module = pld_ir::parse::parse(&context, PAIR_ON_2_3, "pair.mlir").expect("parses");
    let refused = api::pldProgramCreate(module.to_raw(), host::string_ref("pair"), 4);
    assert!(refused.ptr.is_null());
    let said = messages(&sink).join("\n");
    let expected = "@pair is a CHIP orchestrator: the entry runs a HOST orchestrator (the \
                    program's: @main) or a device kernel";
    assert!(said.contains(expected), "{said}");
}

#[test]
fn an_allreduces_schedule_and_whether_auto_chose_it() {
    // progs26 LOW 1: no report said an allreduce's schedule; the C API
    // gives it as its mode attribute spells it, and whether auto chose it.
    let (context, sink) = host_context();
    let program = program_of(&context, &sink, "modes.mlir", FOUR_MODES, 4);
    let options = api::pldRunOptionsCreate();
    let result = run_plain(&program, options.ptr);
    assert!(!result.ptr.is_null(), "{:?}", messages(&sink));
    let r = || result_of(&result);
    let modes: Vec<(String, bool)> = (0..api::pldRunResultGetNumCalls(r()))
        .map(|c| {
            let mode = host::text(api::pldRunResultGetCallMode(r(), c));
            (mode, api::pldRunResultIsCallModeAuto(r(), c))
        })
        .collect();
    // The last, priced, may choose either schedule the model favours.
    let expected = [("two_shot", false), ("mesh", true), ("mesh", false)];
    let expected: Vec<(String, bool)> = expected.iter().map(|(m, a)| (m.to_string(), *a)).collect();
    assert_eq!(modes[..3], expected[..]);
    assert!(modes[3].1 && ["mesh", "two_shot"].contains(&modes[3].0.as_str()));
    // Out of range: empty, false.
    assert_eq!(host::text(api::pldRunResultGetCallMode(r(), 4)), "");
    assert!(!api::pldRunResultIsCallModeAuto(r(), 4));
    api::pldRunResultDestroy(result);
    api::pldRunOptionsDestroy(options);
    api::pldProgramDestroy(program);
}

/// A two-shot, an auto (unpriced: no signal), a default (mesh) and an
/// auto (priced) allreduce on every device.
const FOUR_MODES: &str = include_str!("lit/tools/pld-run/Inputs/four-modes.mlir");

/// tests/lit/tools/pld-run/two-domain-kernel.mlir's program with the pair
/// on devices 2 and 3.
const PAIR_ON_2_3: &str = r#"!x = tensor<1x8xf32, #pld.dist>
!all = tensor<4x1xi32, #pld.dist>
!pair = tensor<2x1xi32, #pld.dist>
func.func @both(%x: !x, %s: !all, %p: !x, %q: !pair) attributes {pld.kind = #pld.func_kind<"incore">} {
  %0 = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!x, !all) -> !x
  %1 = "pld.tensor_allreduce"(%p, %q) {op = #pld.reduce_op<"max">} : (!x, !pair) -> !x
  return
}
func.func @one(%x: !x, %s: !all) attributes {pld.kind = #pld.func_kind<"incore">} {
  %0 = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!x, !all) -> !x
  return
}
func.func @pair(%x: !x, %s: !all, %p: !x, %q: !pair) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @both(%x, %s, %p, %q) : (!x, !all, !x, !pair) -> ()
  return
}
func.func @rest(%x: !x, %s: !all) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @one(%x, %s) : (!x, !all) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b32 = arith.constant 32 : i64
  %b16 = arith.constant 16 : i64
  %b8 = arith.constant 8 : i64
  %xb = "pld.tensor_alloc_window_buffer"(%b32) {name = "x"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "s"} : (i64) -> !pld.ptr
  %pb = "pld.tensor_alloc_window_buffer"(%b32) {name = "p"} : (i64) -> !pld.ptr
  %qb = "pld.tensor_alloc_window_buffer"(%b8) {name = "q"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xb) : (!pld.ptr) -> !x
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !all
  %p = "pld.tensor_window"(%pb) : (!pld.ptr) -> !x
  %q = "pld.tensor_window"(%qb) : (!pld.ptr) -> !pair
  %c3 = arith.constant 3 : index
  "pld.dispatch"(%c2) ({ func.call @pair(%x, %s, %p, %q) : (!x, !all, !x, !pair) -> ()  gpu.yield }) : (index) -> ()
  "pld.dispatch"(%c3) ({ func.call @pair(%x, %s, %p, %q) : (!x, !all, !x, !pair) -> ()  gpu.yield }) : (index) -> ()
  "pld.dispatch"(%c0) ({ func.call @rest(%x, %s) : (!x, !all) -> ()  gpu.yield }) : (index) -> ()
  "pld.dispatch"(%c1) ({ func.call @rest(%x, %s) : (!x, !all) -> ()  gpu.yield }) : (index) -> ()
  return
}

"#;
