//! Source sites of the ops a simulated kernel runs: the sim lowering gives
//! every `pto.alloc_tile` and every op that becomes a device call a
//! process-wide number, and reports (UB overflows, races, deadlocks) turn
//! the number back into the op and its `file:line:col`.

use std::sync::Mutex;

/// An op of a converted kernel, as reports name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The op as printed (`pto.comm.tget`).
    pub op: String,
    /// `file:line:col` of the op, from the pld op it was converted from.
    pub location: String,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}", self.op, self.location)
    }
}

static SITES: Mutex<Vec<Site>> = Mutex::new(Vec::new());

/// Numbers the op `op` at `location`.
pub(crate) fn register(op: &str, location: String) -> i64 {
    let mut sites = SITES.lock().unwrap_or_else(|e| e.into_inner());
    sites.push(Site {
        op: op.to_string(),
        location,
    });
    sites.len() as i64 - 1
}

/// The site numbered `site`, if there is one (builtin kernels' calls have
/// none).
pub fn get(site: i64) -> Option<Site> {
    let sites = SITES.lock().unwrap_or_else(|e| e.into_inner());
    usize::try_from(site)
        .ok()
        .and_then(|s| sites.get(s).cloned())
}
