//! What the simulator knows of a program's kernels, apart from running
//! them: element types, tensor parameters, the collectives a kernel calls
//! (for the golden check) and how reports name elements and ops.

use melior::ir::OperationRef;
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::enums::{AllReduceMode, ReduceOp};
use pld_dialect::ops::collective::ModeOrigin;
use pld_dialect::types::TensorKind;

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
            Dtype::F16 => f64::from(crate::runtime::half::f16_to_f32(u16::from_le_bytes([
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
                Dtype::F16 => bytes.extend_from_slice(
                    &crate::runtime::half::f32_to_f16(value as f32).to_le_bytes(),
                ),
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

/// Which kernels run a collective: the composite expansion in an InCore
/// kernel, or a builtin kernel (whose ring signal has one more row, whose
/// two-shot segments start at 32-byte boundaries, and which works on the
/// whole buffer, valid_shape or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rail {
    Composite,
    Builtin,
}

/// One collective call, for the shape and golden checks: which collective,
/// its attributes, and where each of its operands is. The one description
/// of a call in the simulator, for a kernel's collectives and a builtin's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collective {
    pub kind: CollectiveKind,
    /// The allreduce schedule (mesh for every other collective).
    pub mode: AllReduceMode,
    /// How `mode` came about (`mode = "auto"` chose it or kept the
    /// default: the op carries its record, whose choice is still the op's
    /// mode): a refusal of the schedule says so.
    pub origin: ModeOrigin,
    /// The kernels that run it.
    pub rail: Rail,
    /// The `valid_shape` of its target's type, when it has one (the
    /// elements a composite allreduce reduces; the rest keep their values).
    pub valid_shape: Option<Vec<usize>>,
    /// The reduction, for a collective that reduces (Sum when left out).
    pub reduce: Option<ReduceOp>,
    /// The root, for a collective that has one.
    pub root: Option<i64>,
    /// The parameter (kernel) or tensor (builtin) of each operand, in the
    /// order of `kind.facts().operands`; `None` where it is not one.
    pub operands: Vec<Option<usize>>,
    /// The shape each operand has at the op, in the same order, where it
    /// is a `pld.tensor_view` of its parameter with another shape (the same
    /// elements, row-major); empty or `None`: the parameter's own.
    pub shapes: Vec<Option<Vec<usize>>>,
    /// The loop (`scf.for`, `scf.while`) it runs in, if any: the golden of
    /// one call does not describe it.
    pub in_loop: Option<String>,
    /// The branch it runs in, if any, as a note names it (`an scf.if`, `an
    /// scf.index_switch`, `an affine.if`, `a block cf branches can skip`):
    /// where the branch is not taken the call does not run.
    pub in_branch: Option<String>,
    /// Where the source writes it (`file:line:col`).
    pub location: String,
}

impl Collective {
    /// The parameter or tensor of operand `role`.
    pub fn at(&self, role: Role) -> Option<usize> {
        let position = self.kind.position(role)?;
        self.operands.get(position).copied().flatten()
    }

    /// The op name as printed.
    pub fn op(&self) -> &'static str {
        self.kind.op_name()
    }
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
    /// The ops besides its collectives that may write a collective's
    /// target (a store, put, get or call given it), as `op at
    /// file:line:col`: with one, the target after the kernel is not the
    /// collective's result alone, and a `--check` that finds it wrong says
    /// so.
    pub other_writes: Vec<String>,
    /// A collective in a function the kernel calls (`@f's pld.tensor_x at
    /// file:line:col`): pld-run runs the collectives of the kernel it is
    /// given, and refuses one that calls another's.
    pub called_collective: Option<String>,
}

impl KernelInfo {
    /// The kernel with each parameter `collective` takes through a view
    /// given the view's shape: the collective's extents, rows and golden
    /// are those of the shape it works on (the bytes are the same).
    pub fn as_seen_by(&self, collective: &Collective) -> std::borrow::Cow<'_, KernelInfo> {
        let reshaped: Vec<(usize, &Vec<usize>)> = collective
            .operands
            .iter()
            .zip(&collective.shapes)
            .filter_map(|(param, shape)| Some(((*param)?, shape.as_ref()?)))
            .filter(|(param, shape)| {
                self.params.get(*param).is_some_and(|p| {
                    p.shape != **shape && p.elements() == shape.iter().product::<usize>()
                })
            })
            .collect();
        if reshaped.is_empty() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut seen = self.clone();
        for (param, shape) in reshaped {
            seen.params[param].shape = shape.clone();
        }
        std::borrow::Cow::Owned(seen)
    }

    /// The distributed parameter whose window range holds byte `offset`
    /// (`offsets` as [`Finished::offsets`](super::Finished::offsets) gives
    /// them), and the element there: `(parameter, element)`.
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

    /// Window bytes `range` as reports name them: the parameter that holds
    /// its first byte and the elements it touches, `%data (arg0)
    /// [0, 0]..[0, 63]` (`offsets` as [`KernelInfo::element_at`] takes them).
    pub fn name_bytes(
        &self,
        offsets: &[Option<usize>],
        range: &std::ops::Range<usize>,
    ) -> Option<String> {
        let (i, _) = self.element_at(offsets, range.start)?;
        let p = &self.params[i];
        let start = offsets[i]?;
        let span = element_span(range, (start, p.bytes()), p.dtype.bytes(), &p.shape);
        Some(format!("{} {span}", self.shown_name(i)))
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

/// The elements of a tensor of `shape` and `elem`-byte elements that
/// starts at byte `start` and holds `bytes`, which window bytes `range`
/// touch (`range` starts inside it), as reports name them: `[0, 3]`, or
/// `[0, 0]..[0, 63]` for more than one.
pub fn element_span(
    range: &std::ops::Range<usize>,
    (start, bytes): (usize, usize),
    elem: usize,
    shape: &[usize],
) -> String {
    let elem = elem.max(1);
    let first = range.start.saturating_sub(start) / elem;
    let end = range.end.min(start + bytes).max(range.start + 1);
    let last = (end - start - 1) / elem;
    match first == last {
        true => index_of(first, shape),
        false => format!("{}..{}", index_of(first, shape), index_of(last, shape)),
    }
}

/// Parameter `i` of kernel `@kernel` (`function`), of type `input`, named
/// `name`: a tensor with a static shape and an element type the simulator
/// fills. Errors start with the function's location.
pub(crate) fn tensor_param(
    function: OperationRef,
    kernel: &str,
    i: usize,
    input: melior::ir::Type,
    name: &str,
) -> Result<Param, String> {
    parameter(kernel, i, input, name).map_err(|e| format!("{}: {e}", location(function)))
}

fn parameter(kernel: &str, i: usize, input: melior::ir::Type, name: &str) -> Result<Param, String> {
    let Ok(Some(info)) = pld_dialect::types::tensor_info(input) else {
        return Err(format!(
            "@{kernel}: parameter #{i} has type {input}; the simulator passes a kernel tensors only"
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

/// `file:line:col` of an op, as reports name it (its location as MLIR
/// prints it when it names no file, `<unknown>` for none).
pub fn location(op: OperationRef) -> String {
    crate::compiler::locate::location_of(op)
}

/// Whether `@name` is called, and only from device kernels (a pld kernel,
/// or a function converted to PTO: `pto.kernel_kind`).
pub(crate) fn called_by_kernels_only(module: OperationRef, name: &str) -> bool {
    let device = |f: OperationRef| {
        let kind = pld_dialect::query::function_kind(f).ok().flatten();
        kind.is_some_and(|k| k.is_device())
            || melior::ir::operation::OperationLike::attribute(&f, "pto.kernel_kind").is_ok()
    };
    let callers: Vec<bool> = pld_ir::collect(module, |n| n == "func.call")
        .into_iter()
        .filter(|call| pld_ir::attr::callee(*call).as_deref() == Some(name))
        .map(|call| pld_ir::enclosing_function(call).is_some_and(device))
        .collect();
    !callers.is_empty() && callers.iter().all(|&d| d)
}

/// How many calls deep the signals a kernel uses through helpers are
/// followed (a recursive helper stops there).
pub(crate) const HELPER_DEPTH: usize = 8;

/// A function's signal uses: whether each counts credits, and the index
/// of the function's argument its cell derives from.
pub(crate) type SignalUses = Vec<(bool, usize)>;

/// The signal uses of `function` and of the kernels it calls (helpers,
/// each walked once, at most [`HELPER_DEPTH`] calls deep): `own(f)` gives
/// `f`'s own, and a callee's use of its argument `a` is the caller's
/// argument `argument(operand a of the call, caller)` derives from. A
/// signal a kernel uses only through a helper is its signal too.
pub(crate) fn signal_uses_through_calls(
    function: OperationRef,
    own: &dyn Fn(OperationRef) -> SignalUses,
    argument: &dyn Fn(melior::ir::Value, OperationRef) -> Option<usize>,
) -> SignalUses {
    let mut walked = std::collections::HashMap::new();
    uses_of(function, 0, (own, argument), &mut walked)
}

type Readers<'r> = (
    &'r dyn Fn(OperationRef) -> SignalUses,
    &'r dyn Fn(melior::ir::Value, OperationRef) -> Option<usize>,
);

fn uses_of(
    function: OperationRef,
    depth: usize,
    (own, argument): Readers,
    walked: &mut std::collections::HashMap<String, SignalUses>,
) -> SignalUses {
    use melior::ir::operation::OperationLike;
    let mut uses = own(function);
    let Some(module) = function.parent_operation().filter(|_| depth < HELPER_DEPTH) else {
        return uses;
    };
    for call in pld_ir::collect(function, |n| n == "func.call") {
        let Some(name) = pld_ir::attr::callee(call) else {
            continue;
        };
        let Some(callee) = pld_ir::find_function(module, &name) else {
            continue;
        };
        if !walked.contains_key(&name) {
            let found = uses_of(callee, depth + 1, (own, argument), walked);
            walked.insert(name.clone(), found);
        }
        for &(credit, a) in &walked[&name] {
            let mine = pld_ir::operand(call, a).and_then(|v| argument(v, function));
            uses.extend(mine.map(|m| (credit, m)));
        }
    }
    uses
}

#[cfg(test)]
mod tests {
    use super::{element_span, Dtype};

    #[test]
    fn a_byte_range_is_named_by_the_elements_it_touches() {
        // A [2, 64] f32 tensor at byte 1024 of the window.
        let at = (1024, 512);
        assert_eq!(
            element_span(&(1024..1280), at, 4, &[2, 64]),
            "[0, 0]..[0, 63]"
        );
        assert_eq!(element_span(&(1280..1284), at, 4, &[2, 64]), "[1, 0]");
        // Part of an element counts it; a range past the tensor stops at it.
        assert_eq!(
            element_span(&(1282..1290), at, 4, &[2, 64]),
            "[1, 0]..[1, 2]"
        );
        assert_eq!(
            element_span(&(1500..4096), at, 4, &[2, 64]),
            "[1, 55]..[1, 63]"
        );
    }

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
}
