//! One file per pass.

pub mod verify;
