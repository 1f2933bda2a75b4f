//! A pld program ready to simulate: its kernels' parameters read from the
//! source, the kernels compiled, and a way to run one on N ranks with
//! buffers laid out the way the compiled code expects.
//!
//! Every distributed tensor parameter gets a buffer at the same 32-byte
//! aligned offset of every rank's window; every plain tensor parameter a
//! buffer private to the rank; the CommContexts of the distributed
//! parameters follow the parameters, in order (as
//! `pld-materialize-dist-tensor-ctx` adds them).

use crate::compile::Compiled;
use crate::domain::{aligned, CommDomain};
use crate::run::{Outcome, Run};
use melior::ir::{block::BlockLike, operation::OperationLike, r#type::FunctionType, RegionLike};
use pld_dialect::ops::signal::{Notify, Wait};
use pld_dialect::types::TensorKind;
use pld_ir::op_name;
use pld_lowering::trace::parameter_of;
use std::sync::Mutex;
use std::time::Duration;

/// An element type the simulator moves and checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    F16,
    F32,
    I32,
    I8,
}

impl Dtype {
    /// The dtype of an MLIR element type as printed (`f32`, ...).
    pub fn of(text: &str) -> Option<Self> {
        Some(match text {
            "f16" => Dtype::F16,
            "f32" => Dtype::F32,
            "i32" => Dtype::I32,
            "i8" => Dtype::I8,
            _ => return None,
        })
    }

    pub fn bytes(self) -> usize {
        match self {
            Dtype::I8 => 1,
            Dtype::F16 => 2,
            Dtype::F32 | Dtype::I32 => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dtype::F16 => "f16",
            Dtype::F32 => "f32",
            Dtype::I32 => "i32",
            Dtype::I8 => "i8",
        }
    }

    /// Element `i` of `bytes`, widened.
    pub fn read(self, bytes: &[u8], i: usize) -> f64 {
        match self {
            Dtype::F16 => f64::from(crate::half::f16_to_f32(u16::from_le_bytes([
                bytes[2 * i],
                bytes[2 * i + 1],
            ]))),
            Dtype::F32 => f64::from(f32::from_le_bytes(
                bytes[4 * i..4 * i + 4].try_into().unwrap(),
            )),
            Dtype::I32 => f64::from(i32::from_le_bytes(
                bytes[4 * i..4 * i + 4].try_into().unwrap(),
            )),
            Dtype::I8 => f64::from(bytes[i] as i8),
        }
    }

    /// `value` encoded as one element.
    pub fn encode(self, value: f64) -> Vec<u8> {
        self.encode_all([value])
    }

    /// `values` encoded one after another (a 64 MiB input is 16 Mi
    /// elements: no allocation per element).
    pub fn encode_all(self, values: impl IntoIterator<Item = f64>) -> Vec<u8> {
        let values = values.into_iter();
        let mut bytes = Vec::with_capacity(values.size_hint().0 * self.bytes());
        for value in values {
            match self {
                Dtype::F16 => {
                    bytes.extend_from_slice(&crate::half::f32_to_f16(value as f32).to_le_bytes())
                }
                Dtype::F32 => bytes.extend_from_slice(&(value as f32).to_le_bytes()),
                Dtype::I32 => bytes.extend_from_slice(&(value as i32).to_le_bytes()),
                Dtype::I8 => bytes.push(value as i8 as u8),
            }
        }
        bytes
    }
}

/// One tensor parameter of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// `arg<i>`, `i` the argument number (pld-run also accepts the source's
    /// SSA name, `%data`).
    pub name: String,
    pub distributed: bool,
    pub shape: Vec<usize>,
    pub dtype: Dtype,
}

impl Param {
    pub fn elements(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn bytes(&self) -> usize {
        self.elements() * self.dtype.bytes()
    }
}

/// A collective in a kernel, for the golden check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collective {
    /// `pld.tensor_allreduce`, ...
    pub op: String,
    /// The parameter holding the result (the collective's target).
    pub target: Option<usize>,
    /// The parameter holding its signal.
    pub signal: Option<usize>,
    /// `sum`, `max`, `min`, `prod` for reductions.
    pub reduce: Option<String>,
    /// `ring` or `mesh` for an allreduce that says.
    pub mode: Option<String>,
    /// The parameter holding its local input (allgather, all_to_all).
    pub input: Option<usize>,
    /// The root of a broadcast.
    pub root: Option<i64>,
    /// all_to_all_v: the parameters of the send and receive counts.
    pub counts: Option<(usize, usize)>,
    /// The loop (`scf.for`, `scf.while`) it runs in, if any: the golden of
    /// one call does not describe it.
    pub in_loop: Option<String>,
    /// Where the source writes it (`file:line:col`).
    pub location: String,
}

/// What `run` needs to know of a kernel.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub name: String,
    pub params: Vec<Param>,
    pub collectives: Vec<Collective>,
    /// The parameters used as credit signals (by a collective, a wait, or
    /// an adding notify): after the kernel they must be back to zero.
    pub signals: Vec<usize>,
    /// Every parameter whose cells a notify or wait may touch: the signals,
    /// and the data cells written with Set (an all_to_all_v's
    /// `recv_counts`). The explorer reports a notify or wait outside them.
    pub cells: Vec<usize>,
}

impl KernelInfo {
    /// The distributed parameter whose window range holds byte `offset`
    /// (`offsets` as [`Finished::offsets`] gives them), and the element
    /// there: `(parameter, element)`.
    pub fn element_at(&self, offsets: &[Option<usize>], offset: usize) -> Option<(usize, usize)> {
        self.params
            .iter()
            .zip(offsets)
            .enumerate()
            .find_map(|(i, (p, o))| {
                let start = (*o)?;
                (start..start + p.bytes())
                    .contains(&offset)
                    .then(|| (i, (offset - start) / p.dtype.bytes()))
            })
    }

    /// Parameter `position` as reports name it: `%data (arg0)`, or `arg0`
    /// when the source gave it no other name.
    pub fn shown_name(&self, position: usize) -> String {
        let name = self.params.get(position).map_or("", |p| p.name.as_str());
        if name == format!("arg{position}") {
            name.to_string()
        } else {
            format!("%{name} (arg{position})")
        }
    }
}

/// A program: the kernels of a pld module, compiled.
pub struct Program {
    pub kernels: Vec<KernelInfo>,
    /// The module after `pld-to-pto`, as text.
    pub lowered: String,
    compiled: std::rc::Rc<Compiled>,
    /// How long `pld-to-pto` took.
    pub lower_time: Duration,
    /// How long compiling the lowered module for the simulator took (zero
    /// when it came from the cache).
    pub compile_time: Duration,
}

/// The buffers of every rank after a run.
pub struct Finished {
    pub outcome: Outcome,
    /// Window offset of each distributed parameter.
    pub offsets: Vec<Option<usize>>,
    pub domain: CommDomain,
    /// Bytes of each parameter.
    sizes: Vec<usize>,
    /// `locals[rank][param]`: the private buffers (empty for distributed
    /// parameters, which live in the windows).
    locals: Vec<Vec<Vec<u8>>>,
}

impl Finished {
    /// `buffers()[rank][param]`: every buffer's bytes after the run, read
    /// from the windows when asked (a run holds no second copy of its
    /// windows).
    pub fn buffers(&self) -> Vec<Vec<Vec<u8>>> {
        (0..self.domain.ranks())
            .map(|rank| {
                self.sizes
                    .iter()
                    .enumerate()
                    .map(|(i, size)| match self.offsets[i] {
                        Some(offset) => {
                            let mut bytes = vec![0; *size];
                            self.domain.window(rank).read(offset, &mut bytes);
                            bytes
                        }
                        None => self.locals[rank][i].clone(),
                    })
                    .collect()
            })
            .collect()
    }
}

impl Program {
    /// Reads the kernels of a pld module (its device functions, with their
    /// tensor parameters) and compiles them through `pld-to-pto`.
    pub fn load(text: &str) -> Result<Self, String> {
        Self::load_named(text, "<kernel>")
    }

    /// `load` of a source named `source_name` (in the locations of the
    /// lowered module).
    pub fn load_named(text: &str, source_name: &str) -> Result<Self, String> {
        if is_converted(text) {
            return Self::load_converted(text, source_name);
        }
        // Lowering first: its diagnostics point at the source.
        let started = std::time::Instant::now();
        let lowered = crate::compile::to_pto_named(text, source_name)?;
        let lower_time = started.elapsed();
        let kernels = describe(text, source_name)?;
        let started = std::time::Instant::now();
        let compiled = Compiled::cached(&lowered)?;
        Ok(Program {
            kernels,
            lowered,
            compiled,
            lower_time,
            compile_time: started.elapsed(),
        })
    }

    /// Loads a module already converted by `pld-to-pto` (whose kernels keep
    /// their tensor types in `pld.signature`) and compiles it. Parameters
    /// are named `argN`; the kernels have no collectives to check, but
    /// their signals are known from the signal ops.
    pub fn load_converted(text: &str, source_name: &str) -> Result<Self, String> {
        let context = pld_dialect::context();
        let _quiet = pld_ir::diag::Sink::attach(&context);
        let module = pld_ir::parse::parse(&context, text, source_name)
            .ok_or_else(|| format!("{source_name} does not parse"))?;
        let kernels = crate::converted::describe(&module)?;
        let started = std::time::Instant::now();
        let compiled = Compiled::cached_named(text, source_name)?;
        Ok(Program {
            kernels,
            lowered: text.to_string(),
            compiled,
            lower_time: Duration::ZERO,
            compile_time: started.elapsed(),
        })
    }

    /// The compiled entry of kernel `name`.
    pub fn entry(&self, name: &str) -> Option<crate::compile::Kernel<'_>> {
        self.compiled.kernel(name)
    }

    pub fn kernel(&self, name: &str) -> Option<&KernelInfo> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// Runs `kernel` on `ranks` ranks; `init(rank, param)` gives each
    /// buffer's initial bytes (of the parameter's size).
    pub fn run(
        &self,
        kernel: &str,
        ranks: usize,
        deadline: Duration,
        init: impl Fn(usize, usize) -> Vec<u8>,
    ) -> Result<Finished, String> {
        self.run_traced(kernel, ranks, deadline, false, init)
    }

    /// `run`, recording a timeline when `trace` (`Outcome::trace`).
    pub fn run_traced(
        &self,
        kernel: &str,
        ranks: usize,
        deadline: Duration,
        trace: bool,
        init: impl Fn(usize, usize) -> Vec<u8>,
    ) -> Result<Finished, String> {
        self.run_explored(kernel, ranks, deadline, trace, None, init)
    }

    /// `run_traced`, under the explorer's `schedule` when given
    /// (`Run::explore`).
    pub fn run_explored(
        &self,
        kernel: &str,
        ranks: usize,
        deadline: Duration,
        trace: bool,
        schedule: Option<crate::Schedule>,
        init: impl Fn(usize, usize) -> Vec<u8>,
    ) -> Result<Finished, String> {
        let info = self
            .kernel(kernel)
            .ok_or_else(|| format!("no kernel @{kernel}"))?;
        let entry = self
            .compiled
            .kernel(kernel)
            .ok_or_else(|| format!("@{kernel} was not compiled"))?;
        let params = &info.params;
        let mut offsets = Vec::new();
        let mut window_bytes = 0;
        for param in params {
            if param.distributed {
                offsets.push(Some(window_bytes));
                window_bytes += aligned(param.bytes());
            } else {
                offsets.push(None);
            }
        }
        let domain = CommDomain::new(ranks, window_bytes.max(32)).map_err(|e| e.to_string())?;
        let mut locals: Vec<Vec<Mutex<Vec<u8>>>> = Vec::new();
        for rank in 0..ranks {
            let mut row = Vec::new();
            for (i, param) in params.iter().enumerate() {
                let bytes = init(rank, i);
                if bytes.len() != param.bytes() {
                    return Err(format!(
                        "the input of {} on rank {rank} has {} bytes, the parameter {}",
                        param.name,
                        bytes.len(),
                        param.bytes()
                    ));
                }
                match offsets[i] {
                    Some(offset) => {
                        domain.window(rank).write(offset, &bytes);
                        row.push(Mutex::new(Vec::new()));
                    }
                    None => row.push(Mutex::new(bytes)),
                }
            }
            locals.push(row);
        }
        // The timeline names window bytes by parameter and element.
        let names = |_window: usize, offset: usize| {
            let (i, element) = info.element_at(&offsets, offset)?;
            Some(format!(
                "{} {}",
                info.shown_name(i),
                index_of(element, &params[i].shape)
            ))
        };
        // A kernel only calls the device functions: its ranks may share
        // threads as fibers.
        let outcome = Run::new(&domain, deadline)
            .traced(trace)
            .explore(schedule)
            .named(Some(&names))
            .signal_cells(schedule.map(|_| {
                info.cells
                    .iter()
                    .filter_map(|&i| offsets[i].map(|o| o..o + params[i].bytes()))
                    .collect()
            }))
            .fibers(true)
            .pinned(true)
            .execute(&format!("@{kernel}"), |env| {
                let mut guards: Vec<_> =
                    locals[env.rank].iter().map(|m| m.lock().unwrap()).collect();
                let mut values: Vec<*mut ()> = Vec::new();
                for (i, offset) in offsets.iter().enumerate() {
                    values.push(match offset {
                        // SAFETY: inside the window, which was sized for it.
                        Some(offset) => {
                            unsafe { env.domain.window(env.rank).base().add(*offset) }.cast()
                        }
                        None => guards[i].as_mut_ptr().cast(),
                    });
                }
                for _ in offsets.iter().flatten() {
                    values.push(env.domain.context(env.rank).cast_mut().cast());
                }
                let mut arguments: Vec<*mut ()> = values
                    .iter_mut()
                    .map(|v| (v as *mut *mut ()).cast())
                    .collect();
                // SAFETY: one pointer per parameter, each to a pointer to a
                // buffer of the parameter's size that outlives the call.
                unsafe { entry.call(&mut arguments) };
            });
        let locals = locals
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
                    .collect()
            })
            .collect();
        Ok(Finished {
            outcome,
            offsets,
            domain,
            sizes: params.iter().map(|p| p.bytes()).collect(),
            locals,
        })
    }
}

/// The SSA names of `@function`'s parameters as the source writes them
/// (`data` for `%data: ...`), in order; empty when the signature is not
/// found in the text. MLIR keeps no SSA names, so they are read off the
/// text of the signature.
pub fn source_names(text: &str, function: &str) -> Vec<String> {
    let needle = format!("@{function}(");
    let Some(start) = text
        .match_indices(&needle)
        .map(|(at, _)| at)
        .find(|&at| text[..at].trim_end().ends_with("func.func"))
    else {
        return Vec::new();
    };
    let signature = &text[start + needle.len()..];
    let mut names = Vec::new();
    let mut depth = 1usize;
    for (at, c) in signature.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            '%' if depth == 1 => {
                let ident: String = signature[at + 1..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'))
                    .collect();
                let after = signature[at + 1 + ident.len()..].trim_start();
                if !ident.is_empty() && after.starts_with(':') {
                    names.push(ident);
                }
            }
            _ => {}
        }
    }
    names
}

/// The InCore kernels of a pld module and their tensor parameters.
fn describe(text: &str, source_name: &str) -> Result<Vec<KernelInfo>, String> {
    let context = pld_dialect::context();
    // pld_ir's parser takes any bytes (melior's panics on a NUL).
    let module =
        pld_ir::parse::parse(&context, text, source_name).ok_or("the module does not parse")?;
    let mut kernels = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(function) = op {
        op = function.next_in_block();
        if op_name(&function) != "func.func" {
            continue;
        }
        let kind = pld_dialect::query::function_kind(function).ok().flatten();
        let device =
            kind.is_some_and(|k| k.is_device()) || function.attribute("pto.kernel_kind").is_ok();
        let declaration = function
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .is_none();
        if !device || declaration {
            continue;
        }
        let name = function
            .attribute("sym_name")
            .ok()
            .and_then(pld_ir::attr::string)
            .unwrap_or_default();
        let ty = function
            .attribute("function_type")
            .ok()
            .and_then(pld_ir::attr::type_value)
            .and_then(|t| FunctionType::try_from(t).ok())
            .ok_or_else(|| format!("@{name} has no function type"))?;
        let names = source_names(text, &name);
        let mut params = Vec::new();
        for i in 0..ty.input_count() {
            let input = ty.input(i).map_err(|e| e.to_string())?;
            if input.to_string() == "!pld.ctx" {
                continue; // added by the pipeline; pld-run passes contexts itself
            }
            if input.to_string().starts_with("!pto.") {
                return Err(format!(
                    "@{name} is already converted to PTO but has no pto.kernel_kind; run the \
                     pld source of the kernel"
                ));
            }
            let fallback = format!("arg{i}");
            let param_name = names.get(i).unwrap_or(&fallback);
            params.push(tensor_param(&name, i, input, param_name)?);
        }
        // The collectives, with their targets as parameter numbers.
        let mut collectives = Vec::new();
        for op in pld_ir::collect(function, |n| {
            pld_dialect::ops::collective::COLLECTIVES.contains(&n)
        }) {
            let op_text = op_name(&op);
            let Some(view) = pld_dialect::ops::OpView::new(op) else {
                continue;
            };
            // Through views, loop carries and branches (the rebind idiom).
            let parameter = |group: &str| view.one(group).and_then(parameter_of);
            let target = parameter("target");
            let signal = parameter("signal");
            let reduce = op
                .attribute("op")
                .ok()
                .and_then(|a| pld_ir::attr::enum_payload(a, "pld.reduce_op"));
            let mode = op.attribute("mode").ok().and_then(pld_ir::attr::string);
            let input = parameter("input");
            let root = op.attribute("root").ok().and_then(pld_ir::attr::int);
            let counts = parameter("send_counts").zip(parameter("recv_counts"));
            let in_loop = pld_ir::ancestors(op)
                .into_iter()
                .map(|a| op_name(&a))
                .find(|n| n == "scf.for" || n == "scf.while");
            collectives.push(Collective {
                location: crate::orchestrate::location(op),
                in_loop,
                op: op_text,
                target,
                signal,
                reduce,
                mode,
                input,
                root,
                counts,
            });
        }
        let mut signals: Vec<usize> = collectives.iter().filter_map(|c| c.signal).collect();
        let mut cells = Vec::new();
        for op in pld_ir::collect(function, |n| n == Notify::NAME || n == Wait::NAME) {
            let Some(view) = pld_dialect::ops::OpView::new(op) else {
                continue;
            };
            let credit = op_name(&op) == Wait::NAME
                || op
                    .attribute("op")
                    .ok()
                    .and_then(|a| pld_ir::attr::enum_payload(a, "pld.notify_op"))
                    .as_deref()
                    == Some("atomic_add");
            let operand = if op_name(&op) == Wait::NAME {
                "signal"
            } else {
                "target"
            };
            let param = view.one(operand).and_then(parameter_of);
            cells.extend(param);
            if let (true, Some(param)) = (credit, param) {
                signals.push(param);
            }
        }
        signals.sort_unstable();
        signals.dedup();
        cells.extend(&signals);
        cells.extend(
            collectives
                .iter()
                .filter_map(|c| c.counts.map(|(_, recv)| recv)),
        );
        cells.sort_unstable();
        cells.dedup();
        kernels.push(KernelInfo {
            name,
            params,
            collectives,
            signals,
            cells,
        });
    }
    Ok(kernels)
}

/// Element `i` of a row-major `shape` as a multi-dimensional index,
/// `[row, col]`: how reports name an element.
pub fn index_of(i: usize, shape: &[usize]) -> String {
    let mut rest = i;
    let mut index = vec![0; shape.len()];
    for (slot, extent) in index.iter_mut().zip(shape).rev() {
        let extent = (*extent).max(1);
        *slot = rest % extent;
        rest /= extent;
    }
    let parts: Vec<String> = index.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// Whether `text` is a module already converted by `pld-to-pto` (a kernel
/// with `pto.kernel_kind`).
fn is_converted(text: &str) -> bool {
    let context = pld_dialect::context();
    let _quiet = pld_ir::diag::Sink::attach(&context);
    pld_ir::parse::parse(&context, text, "<input>").is_some_and(|module| {
        pld_ir::functions(module.as_operation())
            .into_iter()
            .any(|f| f.attribute("pto.kernel_kind").is_ok())
    })
}

/// Parameter `i` of kernel `@kernel`, of type `input`, named `name`: a
/// tensor with a static shape and an element type the simulator fills.
pub(crate) fn tensor_param(
    kernel: &str,
    i: usize,
    input: melior::ir::Type,
    name: &str,
) -> Result<Param, String> {
    let Ok(Some(info)) = pld_dialect::types::tensor_info(input) else {
        return Err(format!(
            "@{kernel}: parameter #{i} has type {input}; pld-run passes tensors only"
        ));
    };
    let shape: Option<Vec<usize>> = info.shape.iter().map(|d| d.map(|d| d as usize)).collect();
    let shape = shape.ok_or_else(|| format!("@{kernel}: parameter #{i} needs a static shape"))?;
    // Simulated buffers live in this process's memory.
    const LIMIT: usize = 1 << 34;
    let bytes = shape
        .iter()
        .try_fold(4usize, |acc, d| acc.checked_mul(*d))
        .filter(|b| *b <= LIMIT);
    if bytes.is_none() {
        return Err(format!(
            "@{kernel}: parameter #{i} is larger than the simulator's 16 GiB per buffer"
        ));
    }
    let dtype = Dtype::of(&info.dtype()).ok_or_else(|| {
        format!(
            "@{kernel}: parameter #{i} has element type {}; pld-run handles f16, f32, i32 and i8",
            info.dtype()
        )
    })?;
    Ok(Param {
        name: name.to_string(),
        distributed: info.kind == TensorKind::Distributed,
        shape,
        dtype,
    })
}

#[cfg(test)]
mod tests {
    use super::{source_names, Dtype};

    #[test]
    fn encoding_many_elements_puts_each_in_its_place() {
        let values = [1.0, -2.5, 0.0, 65504.0, 3.75];
        // What each dtype holds of them (integers truncate toward zero, and
        // saturate: Rust's `as` from a float).
        let held: [(Dtype, [f64; 5]); 4] = [
            (Dtype::F16, [1.0, -2.5, 0.0, 65504.0, 3.75]),
            (Dtype::F32, [1.0, -2.5, 0.0, 65504.0, 3.75]),
            (Dtype::I32, [1.0, -2.0, 0.0, 65504.0, 3.0]),
            (Dtype::I8, [1.0, -2.0, 0.0, 127.0, 3.0]),
        ];
        for (dtype, expected) in held {
            let all = dtype.encode_all(values);
            assert_eq!(all.len(), values.len() * dtype.bytes());
            let read: Vec<f64> = (0..values.len()).map(|i| dtype.read(&all, i)).collect();
            assert_eq!(read, expected, "{dtype:?}");
        }
        assert_eq!(Dtype::F32.encode_all([1.0]), 1.0f32.to_le_bytes());
        assert_eq!(
            Dtype::F16.encode_all([1.0]),
            [0x00, 0x3c],
            "1.0 in binary16"
        );
        assert_eq!(Dtype::I8.encode_all([-2.0]), [0xfe]);
        assert_eq!(Dtype::I32.encode(7.0), 7i32.to_le_bytes());
    }

    #[test]
    fn parameter_names_come_from_the_signature() {
        let text = "func.func @other(%x: i32) { return }\n\
                    func.func @k(%data: tensor<1x4xf32, #pld.dist>,\n    %sig_2: tensor<2x1xi32, #pld.dist> {a = (1)}, %n: index)\n\
                    attributes {pld.kind = #pld.func_kind<\"incore\">} { return }\n";
        assert_eq!(source_names(text, "k"), ["data", "sig_2", "n"]);
        assert_eq!(source_names(text, "other"), ["x"]);
        // Only a definition's signature counts, not a call.
        assert!(source_names("func.call @k(%a) : (i32) -> ()", "k").is_empty());
        assert!(source_names(text, "missing").is_empty());
    }
}
