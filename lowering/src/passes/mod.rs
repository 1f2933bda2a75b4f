//! One file per pass.

pub mod convert_shard_to_pld;
pub mod insert_comm_fence;
pub mod lower_composite_ops;
pub mod lower_host_tensor_collectives;
pub mod lower_l2_tensor_collectives;
pub mod materialize_comm_domain_scopes;
pub mod materialize_dist_tensor_ctx;
pub mod select_allreduce_modes;
pub mod synthesize_allreduce_signals;
pub mod verify;
