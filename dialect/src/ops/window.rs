//! docs/dialect.md 4.1: window allocation and views (HOST orchestrator only).

use super::pld_op;
use melior::ir::attribute::StringAttribute;

pld_op! {
    /// `%buf = pld.tensor_alloc_window_buffer(%bytes) {name}`: a per-rank
    /// window allocation of `bytes` bytes.
    AllocWindowBuffer, AllocWindowBufferBuilder = "pld.tensor_alloc_window_buffer" { size: one }
}

pld_op! {
    /// `%v = pld.tensor_window(%buf, dynamic dims...)`: a distributed view of
    /// an allocation; one index operand per `?` of the result type.
    Window, WindowBuilder = "pld.tensor_window" { buffer: one, dynamic_sizes: many }
}

pld_op! {
    /// `%n = pld.system_world_size()`: the number of devices (HOST only).
    WorldSize, WorldSizeBuilder = "pld.system_world_size" {}
}

impl AllocWindowBuffer<'_, '_> {
    /// The allocation's name (`name` attribute).
    pub fn name(&self) -> Option<String> {
        pld_ir::attr::string(self.0.attribute("name")?)
    }
}

impl<'c> AllocWindowBufferBuilder<'c, '_> {
    /// Sets the allocation's name.
    pub fn name(self, context: &'c melior::Context, name: &str) -> Self {
        self.attribute("name", StringAttribute::new(context, name).into())
    }
}
