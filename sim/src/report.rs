//! What the simulator tells the user when a run goes wrong.

use std::fmt;
use std::time::Duration;

/// A rank stuck in a wait when the run was declared deadlocked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedRank {
    pub rank: usize,
    /// `(block_idx, block_num)` when the stuck thread is a block of a
    /// launch (a builtin kernel), `None` for the rank's own thread.
    pub block: Option<(i32, i32)>,
    /// The kernel it was running.
    pub kernel: String,
    /// Whose window holds the cell, and the cell's byte offset in it.
    pub window: Option<usize>,
    pub offset: usize,
    /// `==` or `>=`.
    pub cmp: &'static str,
    pub expected: i32,
    /// The cell's value when the deadlock was declared.
    pub actual: i32,
    /// The op whose wait it is, when the lowering named it (`pld_sim_at`).
    pub site: Option<crate::sites::Site>,
}

/// Every live rank blocked in a wait for longer than the deadline (or, in
/// explore mode, where `deadline` is zero: no thread able to run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlockReport {
    pub deadline: Duration,
    pub blocked: Vec<BlockedRank>,
    /// Ranks that had already finished.
    pub finished: Vec<usize>,
}

impl fmt::Display for DeadlockReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.deadline.is_zero() {
            writeln!(
                f,
                "deadlock: no thread of any rank can run; each live one waits for a signal no \
                 rank is left to give"
            )?;
        } else {
            writeln!(
                f,
                "deadlock: every live rank has waited for more than {:.1?} with no rank left to \
                 notify it",
                self.deadline
            )?;
        }
        for b in &self.blocked {
            let place = match b.window {
                Some(w) => format!("rank {w}'s window, byte {}", b.offset),
                None => format!("address {:#x}", b.offset),
            };
            let block = b
                .block
                .map_or(String::new(), |(i, n)| format!(" block {i} of {n}"));
            let site = b.site.as_ref().map_or(String::new(), |s| format!(" ({s})"));
            writeln!(
                f,
                "  rank {}{block} in {}: waits for the i32 cell at {place} (i32 cell {} of the window) {} {}, \
                 which holds {}{site}",
                b.rank,
                b.kernel,
                b.offset / 4,
                b.cmp,
                b.expected,
                b.actual
            )?;
        }
        if !self.finished.is_empty() {
            let list: Vec<String> = self.finished.iter().map(|r| r.to_string()).collect();
            writeln!(f, "  finished: rank {}", list.join(", "))?;
        }
        Ok(())
    }
}

/// A signal cell that did not return to zero after a collective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellLeak {
    /// Whose window.
    pub rank: usize,
    /// The cell's index in the signal buffer.
    pub index: usize,
    pub value: i32,
}

impl fmt::Display for CellLeak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rank {}'s signal cell {} holds {} (should be back to 0)",
            self.rank, self.index, self.value
        )
    }
}
