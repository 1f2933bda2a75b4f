//! docs/dialect.md 4.5-4.8: the composite collectives.

use super::{signal::enum_member, OpCx};
use crate::collective::CollectiveKind;
use crate::enums::{FuncKind, ReduceOp};
use crate::launch::MAX_CORE_NUM;
use crate::ops::builtin::RING_MAX_RANKS;
use crate::ops::collective::AUTO_MODE_RECORD;
use crate::types::{Layout, TensorInfo};
use pld_ir::{attr::Integer, constant_int};

/// The rules of collective `kind` (docs/dialect.md 4.5-4.8).
pub fn check(kind: CollectiveKind, cx: &mut OpCx) {
    distinct_operands(kind, cx);
    packed_operands(kind, cx);
    match kind {
        CollectiveKind::AllReduce => allreduce(cx),
        CollectiveKind::Barrier => barrier(cx),
        CollectiveKind::Broadcast => broadcast(cx),
        CollectiveKind::ReduceScatter => reduce_scatter(cx),
        CollectiveKind::Reduce => reduce(cx),
        CollectiveKind::AllGather => allgather(cx),
        CollectiveKind::AllToAll => all_to_all(cx),
        CollectiveKind::AllToAllV => all_to_all_v(cx, false),
        CollectiveKind::IndexedAllToAllV => all_to_all_v(cx, true),
    }
}

/// C9: every tensor operand is a tensor of its own: a signal that is also
/// the target takes the credits into the data (the HOST rail refused it;
/// InCore kernels ran into leaks, wrong results or a deadlock). A
/// `pld.tensor_view` is its source's elements seen in another shape, and a
/// collective's result is the storage of the operand it aliases (its
/// target; a barrier's signal), so an operand and a view or result of it
/// are one tensor too (an all_to_all from a view of its own target, or
/// from the result of an earlier collective on it, ran and raced).
fn distinct_operands(kind: CollectiveKind, cx: &mut OpCx) {
    let named: Vec<(&str, _)> = kind
        .facts()
        .operands
        .iter()
        .filter_map(|o| Some((o.role.group(), cx.one(o.role.group())?)))
        .collect();
    for (i, (a, value)) in named.iter().enumerate() {
        let Some((b, other)) = named[i + 1..]
            .iter()
            .find(|(_, other)| storage(*other) == storage(*value))
        else {
            continue;
        };
        let how = match (other == value, storage(*value) == *value) {
            (true, _) => String::new(),
            (false, true) => format!(" ({b} is {a}'s elements: {})", via(*other)),
            (false, false) if storage(*other) == *other => {
                format!(" ({a} is {b}'s elements: {})", via(*value))
            }
            (false, false) => format!(
                " ({a} and {b} are one tensor's elements, through pld.tensor_views or \
                 collectives' results)"
            ),
        };
        cx.error(format!("{a} and {b} must be different values{how}"));
    }
}

/// The tensor whose elements `value` is: through `pld.tensor_view`s and
/// collectives' results (`value` itself when it is neither).
fn storage<'c: 'a, 'a>(value: melior::ir::Value<'c, 'a>) -> melior::ir::Value<'c, 'a> {
    let mut value = value;
    while let Some(source) = pld_ir::defining_op(value).and_then(aliased) {
        value = source;
    }
    value
}

/// The operand whose elements `op`'s result is: a view's source, a
/// collective's alias operand.
fn aliased<'c: 'a, 'a>(op: melior::ir::OperationRef<'c, 'a>) -> Option<melior::ir::Value<'c, 'a>> {
    let name = pld_ir::op_name(&op);
    if name == "pld.tensor_view" {
        return pld_ir::operand(op, 0);
    }
    let kind = CollectiveKind::from_op_name(&name)?;
    crate::ops::OpView::new(op)?.one(kind.facts().alias.group())
}

/// How a value is another's elements, by the op that makes it: `a
/// pld.tensor_view of it`, `the result of pld.tensor_reduce_scatter`.
fn via(value: melior::ir::Value) -> String {
    match pld_ir::defining_op(value).map(|op| pld_ir::op_name(&op)) {
        Some(name) if name == "pld.tensor_view" => "a pld.tensor_view of it".to_string(),
        Some(name) => format!("the result of {name}"),
        None => "it".to_string(),
    }
}

/// C36: signals and counts are packed ND and fully valid on every rail (a
/// strided signal's cells landed in the next parameter), and so is every
/// operand of a collective in a HOST or CHIP function, whose builtin
/// kernels read packed rows (a strided HOST window was read as packed, and
/// --check agreed). all_to_all_v checks its payload itself (rule 8).
fn packed_operands(kind: CollectiveKind, cx: &mut OpCx) {
    use crate::collective::Role;
    let managed = matches!(cx.kind, FuncKind::Host | FuncKind::Chip);
    let own_rule = match kind {
        CollectiveKind::AllToAllV | CollectiveKind::IndexedAllToAllV => true,
        CollectiveKind::AllReduce
        | CollectiveKind::Barrier
        | CollectiveKind::Broadcast
        | CollectiveKind::Reduce
        | CollectiveKind::ReduceScatter
        | CollectiveKind::AllGather
        | CollectiveKind::AllToAll => false,
    };
    for operand in kind.facts().operands {
        let data = matches!(operand.role, Role::Input | Role::Target);
        if data && (!managed || own_rule) {
            continue;
        }
        let role = operand.role.group();
        if let Some(info) = cx.tensor(role) {
            packed_payload(cx, role, &info);
        }
    }
}

fn allreduce(cx: &mut OpCx) {
    enum_member::<ReduceOp>(cx, "op", "ReduceOp");
    core_num_attribute(cx);
    if let Some(mode) = cx.view.attribute("mode") {
        match pld_ir::attr::string(mode) {
            None => cx.error(format!("mode must be a string, got {mode}")),
            // The ring `mode = "auto"` chose for a HOST call without a
            // signal (its record says so) gets the ring's signal from
            // pld-synthesize-allreduce-signals.
            Some(m)
                if m == "ring"
                    && cx.one("signal").is_none()
                    && cx.view.attribute(AUTO_MODE_RECORD).is_none() =>
            {
                cx.error("mode = \"ring\" requires an explicit signal")
            }
            Some(_) => {}
        }
    }
    if !target_dtype(cx, CollectiveKind::AllReduce) {
        return;
    }
    if cx.one("signal").is_some() {
        cx.signal("signal");
    }
    cx.result_is("target");
}

/// `core_num` of allreduce: a compile-time integer, positive.
fn core_num_attribute(cx: &mut OpCx) {
    let Some(attribute) = cx.view.attribute("core_num") else {
        return;
    };
    match pld_ir::attr::integer(attribute) {
        None => cx.error(format!(
            "core_num must be a compile-time integer, got {attribute}"
        )),
        Some(Integer::InRange(n)) if n <= 0 => {
            cx.error(format!("core_num must be positive, got {n}"))
        }
        Some(Integer::InRange(n)) if n <= MAX_CORE_NUM => {}
        Some(large) => cx.error(format!(
            "core_num must be at most {MAX_CORE_NUM} (the launch width a builtin entry \
             takes), got {large}"
        )),
    }
}

fn barrier(cx: &mut OpCx) {
    if cx.signal("signal").is_some() {
        cx.result_is("signal");
    }
}

fn broadcast(cx: &mut OpCx) {
    root(cx);
    if cx.distributed("target").is_some() {
        cx.result_is("target");
    }
}

/// A reduce: a ReduceOp, a root that is a rank, an f16 or f32 target.
fn reduce(cx: &mut OpCx) {
    enum_member::<ReduceOp>(cx, "op", "ReduceOp");
    root(cx);
    if target_dtype(cx, CollectiveKind::Reduce) {
        cx.result_is("target");
    }
}

/// The target is distributed, with an element type the collective takes
/// (its row of the collective table). Returns whether it is distributed.
fn target_dtype(cx: &mut OpCx, kind: CollectiveKind) -> bool {
    let Some(target) = cx.distributed("target") else {
        return false;
    };
    let dtype = target.dtype();
    if let Some(dtypes) = kind.facts().dtypes.filter(|d| !d.contains(&dtype.as_str())) {
        cx.error(format!(
            "target element type must be {}, got {dtype}",
            dtypes.join(" or ")
        ));
    }
    true
}

/// `root` of a broadcast or reduce: a rank index, bounded by the signal's
/// rows (one per rank) when they are static.
fn root(cx: &mut OpCx) {
    let Some(root) = root_attribute(cx) else {
        return;
    };
    if negative_root(cx, &root) {
        return;
    }
    // The signal has one row per rank: a static row count bounds the root.
    let ranks = cx.signal("signal").and_then(|signal| signal.dim(0));
    match (&root, ranks) {
        (Integer::InRange(index), Some(ranks)) if *index < ranks => {}
        (Integer::InRange(index), None) if *index < RING_MAX_RANKS => {}
        (_, Some(ranks)) => cx.error(format!(
            "root = {root} is not a rank: the signal has {}, one per rank",
            pld_ir::diag::count(ranks, "row")
        )),
        (_, None) => cx.error(format!(
            "root = {root} is not a rank: a pld comm domain holds at most {RING_MAX_RANKS} ranks"
        )),
    }
}

fn reduce_scatter(cx: &mut OpCx) {
    if let Some(op) = enum_member::<ReduceOp>(cx, "op", "ReduceOp") {
        if op != ReduceOp::Sum {
            cx.error(format!(
                "supports only op = #pld.reduce_op<\"sum\">, got #pld.reduce_op<\"{op}\">"
            ));
        }
    }
    cx.signal("signal");
    let Some(target) = cx.distributed("target") else {
        return;
    };
    if target.rank() != 2 {
        cx.error(format!(
            "target must be rank 2, one row per rank, got rank {}",
            target.rank()
        ));
    }
    cx.result_is("target");
}

/// Checks shared by allgather and all_to_all: `input` and `target` are
/// distinct 2-D tensors of one dtype and row width; the signal is `[NR]` or
/// `[NR, 1]` with NR equal to the target's rows.
fn exchange(cx: &mut OpCx, input_rows_one: bool) {
    let Some(input) = cx.global("input") else {
        return;
    };
    let Some(target) = cx.distributed("target") else {
        return;
    };
    if input.rank() != 2 {
        cx.error(format!("input must be 2-D, got rank {}", input.rank()));
        return;
    }
    if target.rank() != 2 {
        cx.error(format!("target must be 2-D, got rank {}", target.rank()));
        return;
    }
    if input_rows_one {
        if let Some(rows) = input.dim(0).filter(|r| *r != 1) {
            cx.error(format!("input must have one row, got {rows} rows"));
        }
    } else if let (Some(a), Some(b)) = (input.dim(0), target.dim(0)) {
        if a != b {
            cx.error(format!(
                "input dim 0 ({a}) must equal target dim 0 ({b}): both are the number of ranks"
            ));
        }
    }
    same_row_width(cx, &input, &target);
    if let Some(signal) = cx.signal("signal") {
        let shape_ok = match signal.rank() {
            1 => true,
            2 => signal.dim(1) == Some(1),
            _ => false,
        };
        if !shape_ok {
            cx.error(
                "signal must be tensor<NRxi32> or tensor<NRx1xi32>, NR being the number of ranks",
            );
        } else if let (Some(nr), Some(rows)) = (signal.dim(0), target.dim(0)) {
            if nr != rows {
                cx.error(format!(
                    "signal dim 0 ({nr}) must equal target dim 0 ({rows})"
                ));
            }
        }
    }
    cx.result_is("target");
}

pub fn allgather(cx: &mut OpCx) {
    exchange(cx, true);
}

pub fn all_to_all(cx: &mut OpCx) {
    exchange(cx, false);
}

/// `input` and `target` rows have the same width (SIZE) and dtype.
fn same_row_width(cx: &mut OpCx, input: &TensorInfo, target: &TensorInfo) {
    if let (Some(a), Some(b)) = (input.dim(1), target.dim(1)) {
        if a != b {
            cx.error(format!(
                "target dim 1 ({b}) must equal input dim 1 ({a}): rows of one width"
            ));
        }
    }
    cx.same_dtype("input", input, "target", target);
}

/// The payload-window rules of all_to_all_v (docs/dialect.md 4.7 rule 8): ND layout,
/// packed strides, fully valid.
fn packed_payload(cx: &mut OpCx, role: &str, info: &TensorInfo) {
    if info.layout.is_some_and(|l| l != Layout::Nd) {
        cx.error(format!("{role} layout must be ND"));
    }
    if let (Some(strides), Some(packed)) = (&info.strides, info.packed_strides()) {
        if *strides != packed {
            cx.error(format!(
                "{role} strides {strides:?} must be the packed strides {packed:?}"
            ));
        }
    }
    if let Some(valid) = &info.valid_shape {
        let narrower = valid
            .iter()
            .zip(&info.shape)
            .any(|(v, d)| d.is_some_and(|d| *v < d));
        if narrower {
            cx.error(format!(
                "{role} valid_shape must not be narrower than its shape"
            ));
        }
    }
}

/// A counts tensor: INT32, `[NR]` or `[NR, 1]` (rank-2 only when
/// `rank2_only`), dim 0 a constant equal to NR.
fn counts(cx: &mut OpCx, role: &str, info: &TensorInfo, nr: i64, rank2_only: bool) {
    if info.dtype() != "i32" {
        cx.error(format!(
            "{role} must have element type i32, got {}",
            info.dtype()
        ));
        return;
    }
    let shape_ok = match info.rank() {
        1 => !rank2_only,
        2 => info.dim(1) == Some(1),
        _ => false,
    };
    if !shape_ok {
        let want = if rank2_only {
            "tensor<NRx1xi32>"
        } else {
            "tensor<NRxi32> or tensor<NRx1xi32>"
        };
        cx.error(format!(
            "{role} must be {want}, NR being the number of ranks"
        ));
        return;
    }
    if info.dim(0) != Some(nr) {
        cx.error(format!(
            "{role} dim 0 must be the number of ranks, {nr} (signal dim 0), got {}",
            info.dim(0).map_or("?".to_string(), |d| d.to_string())
        ));
    }
}

/// indexed_all_to_all_v's `index`: INT32 (the kernel reads `int32_t`),
/// one source row per target row, so at least `rows` (= NR * MAX_RECV)
/// elements when its shape is static (C33, C34).
fn index_rows(cx: &mut OpCx, index: &TensorInfo, rows: i64) {
    if index.dtype() != "i32" {
        cx.error(format!(
            "index must have element type i32, got {}",
            index.dtype()
        ));
        return;
    }
    if let Some(n) = index.static_numel().filter(|n| *n < rows) {
        let plural = if n == 1 { "" } else { "s" };
        cx.error(format!(
            "index has {n} element{plural}; it needs at least target dim 0 ({rows}, NR * \
             MAX_RECV): one source row for each row of the target"
        ));
    }
}

/// docs/dialect.md 4.7 (and 4.8 when `indexed`). The HOST builtin
/// `pld.builtin_all_to_all_v` shares these rules (docs/dialect.md 4.9).
pub fn all_to_all_v(cx: &mut OpCx, indexed: bool) {
    if let Some(target) = cx.target.filter(|t| indexed && !t.has_urma()) {
        // C32: the URMA transport exists on A5 only (spec 4.8).
        cx.error(format!(
            "requires pld.target = \"a5\" (its URMA transport exists only on A5), but the \
             module targets \"{target}\""
        ));
    }
    if let Some(n) = cx.one("core_num").and_then(constant_int) {
        if n <= 0 {
            cx.error(format!("core_num must be positive, got {n}"));
        }
    }
    let Some(input) = cx.global("input") else {
        return;
    };
    let Some(target) = cx.distributed("target") else {
        return;
    };
    if input.rank() != 2 || target.rank() != 2 {
        cx.error(
            "input and target must be rank 2, [NR * MAX_RECV, N]: NR ranks (signal dim 0) times the \
             rows each rank may receive from one peer",
        );
        return;
    }
    if let (Some(a), Some(b)) = (input.dim(0), target.dim(0)) {
        if a != b {
            cx.error(format!("target dim 0 ({b}) must equal input dim 0 ({a})"));
        }
    }
    same_row_width(cx, &input, &target);
    packed_payload(cx, "input", &input);
    packed_payload(cx, "target", &target);

    let Some(signal) = cx.signal("signal") else {
        return;
    };
    if signal.rank() != 2 {
        cx.error(format!(
            "signal must be rank 2, [NR, 1] with NR the number of ranks, got rank {}",
            signal.rank()
        ));
        return;
    }
    // The composite (InCore) rail uses one cell per peer; the managed HOST
    // and CHIP rails may give each launched block its own lane: [NR, S].
    let managed = matches!(cx.kind, FuncKind::Host | FuncKind::Chip);
    match signal.dim(1) {
        Some(1) => {}
        Some(lanes) if managed && lanes >= 1 => {}
        _ if managed => {
            cx.error("signal second dimension (lanes) must be a positive constant");
            return;
        }
        _ => {
            cx.error("signal second dimension must be 1");
            return;
        }
    }
    let (Some(nr), Some(rows)) = (signal.dim(0), target.dim(0)) else {
        cx.error("target dim 0 and signal dim 0 (the number of ranks) must be static");
        return;
    };
    if nr <= 0 || rows % nr != 0 {
        cx.error(format!(
            "signal dim 0 ({nr}, the number of ranks) must divide target dim 0 ({rows})"
        ));
        return;
    }

    let send_role = "send_counts";
    if indexed {
        if let Some(send) = cx.distributed(send_role) {
            counts(cx, send_role, &send, nr, false);
        }
        if let Some(index) = cx.global("index") {
            index_rows(cx, &index, rows);
        }
    } else if let Some(send) = cx.global(send_role) {
        counts(cx, send_role, &send, nr, false);
    }
    // The indexed variant's receive counts may be a plain local tensor.
    let recv = if indexed {
        cx.global("recv_counts")
    } else {
        cx.distributed("recv_counts")
    };
    if let Some(recv) = recv {
        counts(cx, "recv_counts", &recv, nr, true);
    }
    cx.result_is("target");
}

/// Reports a negative `root` (in range or not); whether it was negative.
/// The `root` attribute's value; an attribute that is not an integer (a
/// boolean `true`, a string) is an error here, not a root of 0.
pub(super) fn root_attribute(cx: &mut OpCx) -> Option<Integer> {
    let attribute = cx.view.attribute("root")?;
    let value = pld_ir::attr::integer(attribute);
    if value.is_none() {
        cx.error(format!(
            "root must be a rank index (an integer such as `1 : i64`), got {attribute}"
        ));
    }
    value
}

pub(super) fn negative_root(cx: &mut OpCx, root: &Integer) -> bool {
    let negative = root.is_negative();
    if negative {
        // A root written past i64's top (`9223372036854775808 : i64`) is
        // read by MLIR's parser as a negative number; the value alone does
        // not tell what was written, so the note says how it can come.
        let signless = cx
            .view
            .attribute("root")
            .and_then(|a| {
                melior::ir::r#type::IntegerType::try_from(
                    melior::ir::attribute::AttributeLike::r#type(&a),
                )
                .ok()
            })
            .is_some_and(|t| t.is_signless() && t.width() == 64);
        let wrapped = match root {
            Integer::InRange(_) if signless => " (MLIR reads a signless i64 written above \
                 9223372036854775807 as a negative number: write it ui64 to be told it is no rank)"
                .to_string(),
            _ => String::new(),
        };
        cx.error(format!("root must be non-negative, got {root}{wrapped}"));
    }
    negative
}
