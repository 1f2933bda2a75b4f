//! docs/dialect.md 4.2: communication-context queries.

use super::pld_op;

pld_op! {
    /// `%ctx = pld.system_get_comm_ctx(%dt)`: the CommContext paired with a
    /// distributed tensor.
    GetCommCtx, GetCommCtxBuilder = "pld.system_get_comm_ctx" { tensor: one }
}

pld_op! {
    /// `%r = pld.system_rank(%ctx)`: this device's rank (`rankId`), i32.
    Rank, RankBuilder = "pld.system_rank" { ctx: one }
}

pld_op! {
    /// `%n = pld.system_nranks(%ctx)`: the domain size (`rankNum`), i32.
    NRanks, NRanksBuilder = "pld.system_nranks" { ctx: one }
}
