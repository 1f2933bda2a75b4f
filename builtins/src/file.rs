//! The files of a builtin variant's package.

/// The files of a variant's package (spec 11.1, plus the shared header).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum File {
    /// `kernel.cpp.in`, the AIV kernel.
    Kernel,
    /// `entry.cpp.in`, the chip orchestration that submits it.
    Entry,
    /// `kernel_config.py.in`.
    Config,
    /// `common/pld_collective.h`, the C++ every kernel shares, shipped
    /// verbatim (it uses no key) next to the kernel.
    Header,
}

impl File {
    pub const ALL: [File; 4] = [File::Kernel, File::Entry, File::Config, File::Header];
}

/// The shared header's file name: every kernel includes it as
/// `"pld_collective.h"`, and every package (HOST variant or CHIP sub-build)
/// has it in the kernel's directory, `kernels/aiv/`.
pub const HEADER: &str = "pld_collective.h";
