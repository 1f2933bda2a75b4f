//! Programs: a pld module's kernels described ([`model`]), loaded and
//! compiled, and run on N simulated ranks with buffers laid out the way the
//! compiled code expects ([`Program`]).

pub(crate) mod load;
pub mod model;

pub use load::{source_names, Finished, Program};
pub use model::{index_of, Collective, Dtype, KernelInfo, Param};
