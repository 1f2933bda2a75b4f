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

/// Held while one module is numbered, so that its sites are consecutive.
static NUMBERING: Mutex<()> = Mutex::new(());

/// Runs `number` (which numbers the sites of one module) alone, and
/// returns the numbers it gave: consecutive, from the first.
pub(crate) fn numbered<R>(number: impl FnOnce() -> R) -> (R, std::ops::Range<i64>) {
    let _alone = NUMBERING.lock().unwrap_or_else(|e| e.into_inner());
    let first = count();
    let result = number();
    (result, first..count())
}

/// How many sites are numbered.
fn count() -> i64 {
    SITES.lock().unwrap_or_else(|e| e.into_inner()).len() as i64
}

/// The sites numbered `range`.
pub(crate) fn list(range: std::ops::Range<i64>) -> Vec<Site> {
    (range.start..range.end).filter_map(get).collect()
}

/// Numbers `sites` from `first` again (a module compiled by an earlier
/// process, whose code has those numbers): true when they now name these
/// sites, because the next number was `first` or because they named them
/// already; false (nothing changed) when the numbers name others.
pub(crate) fn renumber(first: i64, sites: &[Site]) -> bool {
    let _alone = NUMBERING.lock().unwrap_or_else(|e| e.into_inner());
    let mut all = SITES.lock().unwrap_or_else(|e| e.into_inner());
    let Ok(start) = usize::try_from(first) else {
        return false;
    };
    if all.len() == start {
        all.extend_from_slice(sites);
        return true;
    }
    all.get(start..start + sites.len()) == Some(sites)
}

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

/// Trace arguments naming the op of a device call, when it has a site:
/// `, "op": "pto.comm_twait", "loc": "k.mlir:4:8"`.
pub(crate) fn op_args(site: i64) -> String {
    get(site).map_or(String::new(), |s| {
        format!(", \"op\": {:?}, \"loc\": {:?}", s.op, s.location)
    })
}
