//! pld's builtin collective kernels, in one place: which variants exist and
//! how they are named (collectives spec 10.3), the C++ templates of every
//! builtin and the header they share (`templates/`, spec 11), which keys
//! each template takes, and the strict `{{key}}` renderer.
//!
//! The crate is a leaf that uses `std` only, on purpose: the backend uses
//! it to write the packages of `pld-translate --emit=kernels`, and
//! `runtime-sys`'s build script uses it (as a build dependency) to render
//! every variant into the simulator's kernel library, so the compiled
//! simulator kernels and the emitted packages cannot disagree on a name,
//! a key or a template, and neither crate reaches into the other.

mod builtin;
mod error;
mod file;
mod render;
mod templates;
mod variant;

pub use builtin::{Builtin, Dir, Elem, Reduction, Scalar};
pub use error::KernelError;
pub use file::{File, HEADER};
pub use render::render;
pub use templates::{Template, COMMON_HEADER};
pub use variant::{
    all_variants, chip_only_variants, CoreCountMethod, Reductions, Target, Variant,
    DEFAULT_RUNTIME, DEVICE_ENTRY, MAX_PREBUILT_ROOT,
};
