//! The simulator's passes (one file each).

pub mod convert_pto_to_sim;
pub mod explore_protocol;
