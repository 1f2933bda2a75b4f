//! The state of one function's conversion: its grid, the slots its values
//! live in, the integers that depend on the device, and the program being
//! built.

use super::grid::{Grid, Groups};
use super::kernel::{Action, Kernel};
use super::program::{Call, Launch, Program, Slot, Step};
use super::source::{tensor_type, Refusal};
use super::types::{PerDevice, TensorType};
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use std::collections::{HashMap, HashSet};

/// One function being converted.
pub struct Builder {
    pub grid: Grid,
    pub devices: usize,
    pub program: Program,
    /// The slot of each converted tensor value.
    values: HashMap<usize, usize>,
    /// The per-device value of each converted integer.
    ints: HashMap<usize, PerDevice>,
    /// The slot of each function argument used so far.
    args: HashMap<usize, usize>,
    /// How many ops of each kind were converted, for names.
    counters: HashMap<String, usize>,
    /// Symbols the module already has, and those given out.
    taken: HashSet<String>,
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// The printed location of an op.
pub fn loc(op: OperationRef) -> String {
    op.location().to_string()
}

impl Builder {
    pub fn new(name: &str, grid: Grid, taken: HashSet<String>, loc: String) -> Builder {
        let devices = grid.devices();
        Builder {
            grid,
            devices,
            program: Program {
                name: name.to_string(),
                devices,
                slots: Vec::new(),
                kernels: Vec::new(),
                kernel_locs: Vec::new(),
                steps: Vec::new(),
                loc,
            },
            values: HashMap::new(),
            ints: HashMap::new(),
            args: HashMap::new(),
            counters: HashMap::new(),
            taken,
        }
    }

    /// Every device in one group.
    pub fn world(&self) -> Groups {
        Groups::world(self.devices)
    }

    /// `base` numbered by how many came before: `all_gather0`.
    pub fn label(&mut self, base: &str) -> String {
        let n = self.counters.entry(base.to_string()).or_insert(0);
        *n += 1;
        format!("{base}{}", *n - 1)
    }

    /// A new slot.
    pub fn slot(&mut self, name: String, ty: TensorType, groups: Groups, loc: &str) -> usize {
        self.program.slots.push(Slot {
            name,
            ty,
            groups,
            loc: loc.to_string(),
        });
        self.program.slots.len() - 1
    }

    /// A new slot of the whole grid for the result of `op`.
    pub fn result_slot(&mut self, op: OperationRef, label: &str) -> Result<usize, Refusal> {
        let result = pld_ir::result_at(op, 0).ok_or("has no result")?;
        let ty = tensor_type(result)?;
        let world = self.world();
        let slot = self.slot(label.to_string(), ty, world, &loc(op));
        self.bind(result, slot);
        Ok(slot)
    }

    /// Binds a tensor value to a slot.
    pub fn bind(&mut self, value: Value, slot: usize) {
        self.values.insert(key(value), slot);
    }

    /// The slot of a tensor value; a function argument gets a slot of the
    /// whole grid named `arg<N>` the first time it is used.
    pub fn slot_of(&mut self, value: Value) -> Result<usize, Refusal> {
        if let Some(slot) = self.values.get(&key(value)) {
            return Ok(*slot);
        }
        let Some(site) = pld_ir::argument_site(value).filter(|s| s.entry_block) else {
            return Err("uses a value that convert-shard-to-pld did not convert".into());
        };
        let ty = tensor_type(value)?;
        let world = self.world();
        let loc = loc(site.parent);
        let slot = self.slot(format!("arg{}", site.number), ty, world, &loc);
        self.args.insert(site.number, slot);
        self.bind(value, slot);
        Ok(slot)
    }

    /// Binds function argument `number` to a slot made for it.
    pub fn bind_argument(
        &mut self,
        value: Value,
        number: usize,
        slot: usize,
    ) -> Result<(), Refusal> {
        if self.values.contains_key(&key(value)) {
            return Err(format!(
                "reshards argument #{number}, which the function also uses as it is; resharding takes the whole argument"
            ));
        }
        self.args.insert(number, slot);
        self.bind(value, slot);
        Ok(())
    }

    /// Whether `slot` holds a function argument.
    pub fn is_argument(&self, slot: usize) -> bool {
        self.args.values().any(|s| *s == slot)
    }

    pub fn set_int(&mut self, value: Value, v: PerDevice) {
        self.ints.insert(key(value), v);
    }

    /// The per-device value of an integer.
    pub fn int_of(&self, value: Value) -> Result<PerDevice, Refusal> {
        self.ints.get(&key(value)).cloned().ok_or_else(|| {
            "uses an integer that is not a constant or computed from shard.process_linear_index, \
             shard.process_multi_index and shard.grid_shape"
                .into()
        })
    }

    /// Whether a value is a converted integer.
    pub fn is_int(&self, value: Value) -> bool {
        self.ints.contains_key(&key(value))
    }

    /// A fresh symbol `<function>__<label>`.
    fn symbol(&mut self, label: &str) -> String {
        let base = format!("{}__{label}", self.program.name);
        let mut name = base.clone();
        let mut n = 0;
        while self.taken.contains(&name) || self.taken.contains(&format!("{name}_chip")) {
            n += 1;
            name = format!("{base}_{n}");
        }
        self.taken.insert(name.clone());
        self.taken.insert(format!("{name}_chip"));
        name
    }

    /// A kernel over the slots `params` doing `actions` (not launched).
    fn make_kernel(
        &mut self,
        label: &str,
        params: &[usize],
        actions: Vec<Action>,
        loc: &str,
    ) -> Result<usize, Refusal> {
        let name = self.symbol(label);
        let slots = &self.program.slots;
        let world = params
            .iter()
            .position(|p| slots[*p].groups.is_world())
            .unwrap_or(0);
        let kernel = Kernel {
            name,
            params: params.iter().map(|p| slots[*p].ty.clone()).collect(),
            world,
            actions,
        };
        if !kernel.fits() {
            return Err(format!(
                "needs {} tiles in one kernel ({label}), more than an AIV core's UB holds",
                kernel.actions.len()
            ));
        }
        self.program.kernels.push(kernel);
        self.program.kernel_locs.push(loc.to_string());
        Ok(self.program.kernels.len() - 1)
    }

    /// Runs one kernel on every device.
    pub fn kernel(
        &mut self,
        label: &str,
        params: &[usize],
        actions: Vec<Action>,
        loc: &str,
    ) -> Result<(), Refusal> {
        let kernel = self.make_kernel(label, params, actions, loc)?;
        self.program.steps.push(Step::Dispatch {
            launch: Launch::Shared(kernel),
            args: params.to_vec(),
            loc: loc.to_string(),
        });
        Ok(())
    }

    /// Runs kernel `actions[d]` on device `d`.
    pub fn kernels_per_device(
        &mut self,
        label: &str,
        params: &[usize],
        actions: Vec<Vec<Action>>,
        loc: &str,
    ) -> Result<(), Refusal> {
        let mut kernels = Vec::new();
        for (device, list) in actions.into_iter().enumerate() {
            kernels.push(self.make_kernel(&format!("{label}_d{device}"), params, list, loc)?);
        }
        self.program.steps.push(Step::Dispatch {
            launch: Launch::PerDevice(kernels),
            args: params.to_vec(),
            loc: loc.to_string(),
        });
        Ok(())
    }

    /// Calls a pld collective on `slots` (in its operand order) in each
    /// of their groups.
    pub fn call(&mut self, call: Call, slots: Vec<usize>, loc: &str) {
        self.program.steps.push(Step::Collective {
            call,
            slots,
            loc: loc.to_string(),
        });
    }

    /// The finished program.
    pub fn finish(self) -> Program {
        self.program
    }
}
