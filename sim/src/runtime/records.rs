//! What a run records of its ranks, for its outcome and its trace: the
//! traffic counters, fatal errors, copies into other ranks' windows and
//! the timeline's events. Below `run` (which keeps them) and `board`
//! (which gathers them across MPI processes), so both can name them.

/// Per-rank traffic, as counted by the device functions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub notifies: u64,
    pub waits: u64,
    /// Bytes read from other ranks' windows.
    pub remote_bytes_read: u64,
    /// Bytes written into other ranks' windows.
    pub remote_bytes_written: u64,
}

/// A fatal error a rank's call reported (`pld_sim_fatal`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fatal {
    pub rank: usize,
    /// The runtime's error code (5 invalid arguments, 7 sync-start
    /// admission, ...).
    pub code: i32,
    pub message: String,
    /// The call it stopped, where a program names it: its place and op
    /// (`f.mlir:14:15: pld.tensor_indexed_all_to_all_v`), else empty.
    pub call: String,
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rank {}: ", self.rank)?;
        if !self.call.is_empty() {
            write!(f, "{}: ", self.call)?;
        }
        write!(f, "fatal error (code {}): {}", self.code, self.message)
    }
}

/// One copy into another rank's window (`Run::record_remote_writes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemoteWrite {
    /// The rank that wrote.
    pub rank: usize,
    /// Whose window it wrote, at which byte offset, how many bytes (the
    /// extent of the written block).
    pub window: usize,
    pub offset: usize,
    pub bytes: usize,
}

/// One step of a rank, for the timeline.
#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub name: &'static str,
    /// The thread's track: 0 for the rank's own thread, 1 + b for block b
    /// of a launch.
    pub track: usize,
    /// Microseconds since the run started.
    pub begin: f64,
    pub duration: f64,
    /// `"key": value` pairs, already JSON.
    pub args: String,
}
