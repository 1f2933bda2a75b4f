//! The pld program a shard function becomes, and its text.
//!
//! A [`Program`] is a HOST orchestrator's plan: window buffers
//! ([`Slot`]s), and [`Step`]s in program order. A slot lives on every
//! device, in one window buffer per group of its [`Groups`]: a value of
//! the shard function is a slot of the whole grid (one group), a
//! collective's scratch is a slot of its groups, so each group's buffers
//! form a comm domain of their own (`pld-materialize-comm-domain-scopes`
//! finds the domains from the dispatches). A step dispatches a kernel on
//! every device, each device passing the buffers of its groups, or calls a
//! pld collective once per group.

use super::grid::Groups;
use super::kernel::Kernel;
use super::text::{kind_attributes, named_loc, Body};
use super::types::TensorType;
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::enums::{FuncKind, PldEnum, ReduceOp};
use pld_dialect::ops::{
    host::Dispatch,
    window::{AllocWindowBuffer, Window},
};
use pld_ir::print::symbol_ref;

/// A window buffer on every device: one allocation per group.
#[derive(Clone, Debug)]
pub struct Slot {
    pub name: String,
    pub ty: TensorType,
    pub groups: Groups,
    /// Printed location of what the buffer holds.
    pub loc: String,
}

impl Slot {
    /// The allocation's name in group `group`.
    pub fn buffer(&self, group: usize) -> String {
        if self.groups.is_world() {
            self.name.clone()
        } else {
            format!("{}_g{group}", self.name)
        }
    }
}

/// Which kernel each device runs.
#[derive(Clone, Debug)]
pub enum Launch {
    /// One kernel on every device.
    Shared(usize),
    /// Kernel `kernels[d]` on device `d`.
    PerDevice(Vec<usize>),
}

/// A pld collective, called once per group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    AllReduce(ReduceOp),
    AllGather,
    ReduceScatter,
    AllToAll,
    /// The root's pld rank in each group.
    Broadcast {
        roots: Vec<usize>,
    },
    AllToAllV,
}

impl Call {
    pub fn kind(&self) -> CollectiveKind {
        match self {
            Call::AllReduce(_) => CollectiveKind::AllReduce,
            Call::AllGather => CollectiveKind::AllGather,
            Call::ReduceScatter => CollectiveKind::ReduceScatter,
            Call::AllToAll => CollectiveKind::AllToAll,
            Call::Broadcast { .. } => CollectiveKind::Broadcast,
            Call::AllToAllV => CollectiveKind::AllToAllV,
        }
    }

    /// The op's attributes in group `group`, as written in generic syntax.
    fn attributes(&self, group: usize) -> String {
        match self {
            // Two-shot: every device gets the same bytes, as the shard
            // dialect's all_reduce promises (the mesh folds each device's
            // copy in its own order: f32 sums differed in the last bits).
            Call::AllReduce(op) => {
                format!(
                    " {{mode = \"two_shot\", op = #{}<\"{op}\">}}",
                    ReduceOp::ATTR
                )
            }
            Call::ReduceScatter => format!(" {{op = #{}<\"{}\">}}", ReduceOp::ATTR, ReduceOp::Sum),
            Call::Broadcast { roots } => format!(" {{root = {} : i64}}", roots[group]),
            Call::AllGather | Call::AllToAll | Call::AllToAllV => String::new(),
        }
    }
}

/// One step of the HOST orchestrator.
#[derive(Clone, Debug)]
pub enum Step {
    Dispatch {
        launch: Launch,
        args: Vec<usize>,
        loc: String,
    },
    /// `slots` in the operand order of the pld op.
    Collective {
        call: Call,
        slots: Vec<usize>,
        loc: String,
    },
}

/// A converted shard function.
#[derive(Clone, Debug)]
pub struct Program {
    /// The HOST orchestrator's name (the shard function's).
    pub name: String,
    pub devices: usize,
    pub slots: Vec<Slot>,
    pub kernels: Vec<Kernel>,
    /// Printed location of each kernel's origin.
    pub kernel_locs: Vec<String>,
    pub steps: Vec<Step>,
    pub loc: String,
}

impl Program {
    /// Every function of the program, as the text of a module.
    pub fn render(&self) -> String {
        let mut out = String::from("module {\n");
        out.push_str(&self.host());
        for (kernel, loc) in self.kernels.iter().zip(&self.kernel_locs) {
            out.push_str(&kernel.render(loc));
            out.push_str(&chip(kernel, loc));
        }
        out.push_str("}\n");
        out
    }

    /// The HOST orchestrator.
    fn host(&self) -> String {
        let mut body = Body::new(&self.loc);
        let used = self.used_slots();
        for (id, slot) in self.slots.iter().enumerate() {
            if used[id] {
                allocate(&mut body, id, slot);
            }
        }
        for step in &self.steps {
            match step {
                Step::Dispatch { launch, args, loc } => self.dispatch(&mut body, launch, args, loc),
                Step::Collective { call, slots, loc } => {
                    self.collective(&mut body, call, slots, loc)
                }
            }
        }
        format!(
            "func.func {}() attributes {} {{\n{}  return {}\n}} {}\n",
            symbol_ref(&self.name),
            kind_attributes(FuncKind::Host),
            body.finish(),
            self.loc,
            self.loc
        )
    }

    fn used_slots(&self) -> Vec<bool> {
        let mut used = vec![false; self.slots.len()];
        for step in &self.steps {
            let (Step::Dispatch { args: ids, .. } | Step::Collective { slots: ids, .. }) = step;
            for id in ids {
                used[*id] = true;
            }
        }
        used
    }

    fn dispatch(&self, body: &mut Body, launch: &Launch, args: &[usize], loc: &str) {
        for device in 0..self.devices {
            let kernel = match launch {
                Launch::Shared(k) => *k,
                Launch::PerDevice(ks) => ks[device],
            };
            let values: Vec<String> = args
                .iter()
                .map(|id| view(*id, self.slots[*id].groups.group_of(device)))
                .collect();
            let types: Vec<String> = args.iter().map(|id| self.slots[*id].ty.dist()).collect();
            let d = body.index(device as i64);
            let text = format!(
                "\"{}\"({d}) ({{\n    func.call {}({}) : ({}) -> () {loc}\n    gpu.yield {loc}\n  }}) : (index) -> ()",
                Dispatch::NAME,
                symbol_ref(&format!("{}_chip", self.kernels[kernel].name)),
                values.join(", "),
                types.join(", ")
            );
            body.op_at(&text, loc);
        }
    }

    fn collective(&self, body: &mut Body, call: &Call, slots: &[usize], loc: &str) {
        let kind = call.kind();
        let target = slots[kind.position(Role::Target).unwrap_or(0)];
        let groups = &self.slots[target].groups;
        for group in 0..groups.members.len() {
            let values: Vec<String> = slots.iter().map(|id| view(*id, group)).collect();
            let types: Vec<String> = slots.iter().map(|id| self.slots[*id].ty.dist()).collect();
            let result = body.fresh("r");
            let text = format!(
                "{result} = \"{}\"({}){} : ({}) -> {}",
                kind.op_name(),
                values.join(", "),
                call.attributes(group),
                types.join(", "),
                self.slots[target].ty.dist()
            );
            body.op_at(&text, loc);
        }
    }
}

/// The SSA name of slot `id`'s view in group `group`.
fn view(id: usize, group: usize) -> String {
    format!("%s{id}_g{group}")
}

/// Allocates slot `id` in every group.
fn allocate(body: &mut Body, id: usize, slot: &Slot) {
    let bytes = body.typed(slot.ty.size_bytes() as i64, "i64");
    for group in 0..slot.groups.members.len() {
        let name = slot.buffer(group);
        let loc = named_loc(&name, &slot.loc);
        let (buffer, view) = (format!("%b{id}_g{group}"), view(id, group));
        body.head_at(
            &format!(
                "{buffer} = \"{}\"({bytes}) {{name = \"{name}\"}} : (i64) -> !pld.ptr",
                AllocWindowBuffer::NAME
            ),
            &loc,
        );
        body.head_at(
            &format!(
                "{view} = \"{}\"({buffer}) : (!pld.ptr) -> {}",
                Window::NAME,
                slot.ty.dist()
            ),
            &loc,
        );
    }
}

/// The CHIP orchestrator that runs `kernel` on its device.
fn chip(kernel: &Kernel, loc: &str) -> String {
    let params: Vec<String> = kernel
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("%p{i}: {}", t.dist()))
        .collect();
    let args: Vec<String> = (0..kernel.params.len()).map(|i| format!("%p{i}")).collect();
    let types: Vec<String> = kernel.params.iter().map(TensorType::dist).collect();
    format!(
        "func.func {chip}({}) attributes {} {{\n  func.call {name}({}) : ({}) -> () {loc}\n  return {loc}\n}} {loc}\n",
        params.join(", "),
        kind_attributes(FuncKind::Chip),
        args.join(", "),
        types.join(", "),
        chip = symbol_ref(&format!("{}_chip", kernel.name)),
        name = symbol_ref(&kernel.name)
    )
}
