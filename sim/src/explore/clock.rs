//! Vector clocks over agent components.
//!
//! Every agent owns two components (docs/memory-model.md): an even one
//! that stamps its reads and its writes into its own rank's window and
//! advances at each notify, and an odd one that stamps its writes into
//! other ranks' windows and advances only at a fence. A notify releases
//! the odd component as of the last fence, so a remote write that no fence
//! followed is not ordered for anyone by that notify.

/// A vector clock; missing components are 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock(Vec<u32>);

/// The component that stamps `agent`'s reads and local writes.
pub fn plain(agent: usize) -> usize {
    2 * agent
}

/// The component that stamps `agent`'s writes into other ranks' windows.
pub fn remote(agent: usize) -> usize {
    2 * agent + 1
}

impl Clock {
    pub fn get(&self, component: usize) -> u32 {
        self.0.get(component).copied().unwrap_or(0)
    }

    pub fn set(&mut self, component: usize, value: u32) {
        if self.0.len() <= component {
            self.0.resize(component + 1, 0);
        }
        self.0[component] = value;
    }

    pub fn tick(&mut self, component: usize) {
        let next = self.get(component) + 1;
        self.set(component, next);
    }

    /// Componentwise maximum.
    pub fn join(&mut self, other: &Clock) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            *mine = (*mine).max(*theirs);
        }
    }

    /// A fresh agent's clock: what its creator knew (`inherited`), and 1 in
    /// its own components.
    pub fn fresh(agent: usize, inherited: Option<&Clock>) -> Clock {
        let mut clock = inherited.cloned().unwrap_or_default();
        clock.set(plain(agent), 1);
        clock.set(remote(agent), 1);
        clock
    }

    /// What a notify by `agent` publishes: everything it knows, except its
    /// remote writes since its last fence.
    pub fn released(&self, agent: usize) -> Clock {
        let mut out = self.clone();
        out.set(remote(agent), self.get(remote(agent)) - 1);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notify_releases_remote_writes_only_up_to_the_last_fence() {
        let mut a = Clock::fresh(0, None);
        let write = a.get(remote(0)); // a remote write, then no fence
        assert!(a.released(0).get(remote(0)) < write);
        a.tick(remote(0)); // the fence
        assert!(a.released(0).get(remote(0)) >= write);
    }

    #[test]
    fn join_is_the_componentwise_maximum() {
        let mut a = Clock::fresh(0, None);
        let b = Clock::fresh(3, None);
        a.join(&b);
        assert_eq!((a.get(plain(0)), a.get(plain(3)), a.get(9)), (1, 1, 0));
    }
}
