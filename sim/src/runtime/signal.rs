//! Signal cell semantics (docs/passes/pld-lower-composite-ops.md, "The comm prelude, the barrier and the epilogue", docs/simulator.md): what a notify does to
//! a cell and when a wait is satisfied, for the dialect's own enums (whose
//! ABI values `pld_sim.h` uses; a test checks they agree).

use pld_dialect::enums::{NotifyOp, WaitCmp};
use std::sync::atomic::{AtomicI32, Ordering};

/// What a notify does to a cell.
pub trait Notify {
    /// Applies the notify. Sequentially consistent (so a waiter going to
    /// sleep cannot miss it; see `State::wake`), which includes release: the notifier's earlier writes
    /// (the data the signal publishes) are visible to whoever sees it.
    fn apply(self, cell: &AtomicI32, value: i32);
}

impl Notify for NotifyOp {
    fn apply(self, cell: &AtomicI32, value: i32) {
        match self {
            // Credits.
            NotifyOp::AtomicAdd => {
                cell.fetch_add(value, Ordering::SeqCst);
            }
            // Data cells such as published counts.
            NotifyOp::Set => cell.store(value, Ordering::SeqCst),
        }
    }
}

/// When a wait is satisfied.
pub trait Compare {
    fn holds(self, actual: i32, expected: i32) -> bool;
    /// The comparison as an operator, for reports.
    fn symbol(self) -> &'static str;
}

impl Compare for WaitCmp {
    fn holds(self, actual: i32, expected: i32) -> bool {
        match self {
            WaitCmp::Eq => actual == expected,
            // A fast peer may already be a generation ahead.
            WaitCmp::Ge => actual >= expected,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            WaitCmp::Eq => "==",
            WaitCmp::Ge => ">=",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pld_dialect::enums::PldEnum;
    use pld_runtime_sys::{PLD_NOTIFY_ATOMIC_ADD, PLD_NOTIFY_SET, PLD_WAIT_EQ, PLD_WAIT_GE};

    #[test]
    fn notify_and_compare() {
        let cell = AtomicI32::new(0);
        NotifyOp::AtomicAdd.apply(&cell, 2);
        NotifyOp::AtomicAdd.apply(&cell, -1);
        assert_eq!(cell.load(Ordering::Acquire), 1);
        NotifyOp::Set.apply(&cell, 7);
        assert_eq!(cell.load(Ordering::Acquire), 7);
        assert!(WaitCmp::Ge.holds(7, 3) && !WaitCmp::Eq.holds(7, 3) && WaitCmp::Eq.holds(3, 3));
    }

    #[test]
    fn the_dialect_enums_have_the_runtime_abi_values() {
        assert_eq!(NotifyOp::AtomicAdd.abi() as u32, PLD_NOTIFY_ATOMIC_ADD);
        assert_eq!(NotifyOp::Set.abi() as u32, PLD_NOTIFY_SET);
        assert_eq!(WaitCmp::Eq.abi() as u32, PLD_WAIT_EQ);
        assert_eq!(WaitCmp::Ge.abi() as u32, PLD_WAIT_GE);
        assert_eq!(
            NotifyOp::from_abi(PLD_NOTIFY_SET as i32),
            Some(NotifyOp::Set)
        );
        assert_eq!(WaitCmp::from_abi(PLD_WAIT_GE as i32), Some(WaitCmp::Ge));
        assert_eq!(WaitCmp::from_abi(5), None);
        // The accumulate kinds of pld_sim_copy: assign is 0.
        assert_eq!(pld_runtime_sys::PLD_COPY_ASSIGN, 0);
    }
}
