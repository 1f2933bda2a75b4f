//! docs/dialect.md 4.10: memory-consistency ops (inserted by pld-insert-comm-fence).

use super::pld_op;

pld_op! {
    /// `pld.system_cacheinvalid([%tensor, sizes..., offsets...])`: region form
    /// with a tensor, whole-GM form without operands.
    CacheInvalid, CacheInvalidBuilder = "pld.system_cacheinvalid" {
        tensor: opt, sizes: many, offsets: many
    }
}

pld_op! {
    /// `pld.system_fence()`: a global-memory fence.
    Fence, FenceBuilder = "pld.system_fence" {}
}
