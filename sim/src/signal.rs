//! Signal cell semantics (spec 5): what a notify does to a cell and when a
//! wait is satisfied, with the ABI values of `pld_sim.h`.

use pld_runtime_sys::{PLD_NOTIFY_ATOMIC_ADD, PLD_NOTIFY_SET, PLD_WAIT_EQ, PLD_WAIT_GE};
use std::sync::atomic::{AtomicI32, Ordering};

/// How a notify changes a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotifyOp {
    /// Adds the value (credits).
    AtomicAdd,
    /// Stores the value (data cells such as published counts).
    Set,
}

/// When a wait is satisfied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    /// `>=`: a fast peer may already be a generation ahead.
    Ge,
}

impl NotifyOp {
    pub fn from_abi(value: i32) -> Option<Self> {
        match u32::try_from(value).ok()? {
            PLD_NOTIFY_ATOMIC_ADD => Some(NotifyOp::AtomicAdd),
            PLD_NOTIFY_SET => Some(NotifyOp::Set),
            _ => None,
        }
    }

    /// Applies the notify. Release ordering: the notifier's earlier writes
    /// (the data the signal publishes) are visible to whoever sees it.
    pub fn apply(self, cell: &AtomicI32, value: i32) {
        match self {
            NotifyOp::AtomicAdd => {
                cell.fetch_add(value, Ordering::AcqRel);
            }
            NotifyOp::Set => cell.store(value, Ordering::Release),
        }
    }
}

impl Cmp {
    pub fn from_abi(value: i32) -> Option<Self> {
        match u32::try_from(value).ok()? {
            PLD_WAIT_EQ => Some(Cmp::Eq),
            PLD_WAIT_GE => Some(Cmp::Ge),
            _ => None,
        }
    }

    pub fn holds(self, actual: i32, expected: i32) -> bool {
        match self {
            Cmp::Eq => actual == expected,
            Cmp::Ge => actual >= expected,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ge => ">=",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notify_and_compare() {
        let cell = AtomicI32::new(0);
        NotifyOp::AtomicAdd.apply(&cell, 2);
        NotifyOp::AtomicAdd.apply(&cell, -1);
        assert_eq!(cell.load(Ordering::Acquire), 1);
        NotifyOp::Set.apply(&cell, 7);
        assert_eq!(cell.load(Ordering::Acquire), 7);
        assert!(Cmp::Ge.holds(7, 3) && !Cmp::Eq.holds(7, 3) && Cmp::Eq.holds(3, 3));
        assert_eq!(NotifyOp::from_abi(1), Some(NotifyOp::Set));
        assert_eq!(Cmp::from_abi(1), Some(Cmp::Ge));
        assert_eq!(Cmp::from_abi(5), None);
    }
}
