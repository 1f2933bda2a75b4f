//! Vector clocks over agent components.
//!
//! Every agent owns two components (docs/memory-model.md): an even one
//! that stamps its reads and its writes into its own rank's window and
//! advances at each notify, and an odd one that stamps its writes into
//! other ranks' windows and advances only at a fence. A notify releases
//! the odd component as of the last fence, so a remote write that no fence
//! followed is not ordered for anyone by that notify.

/// A vector clock; missing components are 0. Beside the agents'
/// components it knows which asynchronous copies have completed for its
/// agent: copy `n` of agent `a` (numbered from 1 in submit order) is known
/// once a wait on its event succeeded somewhere ordered before.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    components: Vec<u32>,
    /// Per submitting agent, the copies known complete.
    copies: Vec<Known>,
}

/// Numbers of one agent's copies known complete: every one up to
/// `through`, and those in `beyond` (kept small when waits follow the
/// submits' order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Known {
    through: u32,
    beyond: std::collections::BTreeSet<u32>,
}

impl Known {
    fn contains(&self, n: u32) -> bool {
        n <= self.through || self.beyond.contains(&n)
    }

    fn insert(&mut self, n: u32) {
        if n > self.through {
            self.beyond.insert(n);
        }
        self.settle();
    }

    fn join(&mut self, other: &Known) {
        self.through = self.through.max(other.through);
        self.beyond.extend(other.beyond.iter().copied());
        self.settle();
    }

    /// Moves the numbers next to `through` into it.
    fn settle(&mut self) {
        let through = self.through;
        self.beyond.retain(|&n| n > through);
        while self.beyond.remove(&(self.through + 1)) {
            self.through += 1;
        }
    }
}

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
        self.components.get(component).copied().unwrap_or(0)
    }

    pub fn set(&mut self, component: usize, value: u32) {
        if self.components.len() <= component {
            self.components.resize(component + 1, 0);
        }
        self.components[component] = value;
    }

    /// Whether copy `number` of `agent` is known complete.
    pub fn knows_copy(&self, agent: usize, number: u32) -> bool {
        self.copies.get(agent).is_some_and(|k| k.contains(number))
    }

    /// Copy `number` of `agent` is complete (a wait on it succeeded).
    pub fn learn_copy(&mut self, agent: usize, number: u32) {
        if self.copies.len() <= agent {
            self.copies.resize(agent + 1, Known::default());
        }
        self.copies[agent].insert(number);
    }

    pub fn tick(&mut self, component: usize) {
        let next = self.get(component) + 1;
        self.set(component, next);
    }

    /// Componentwise maximum.
    pub fn join(&mut self, other: &Clock) {
        if self.components.len() < other.components.len() {
            self.components.resize(other.components.len(), 0);
        }
        for (mine, theirs) in self.components.iter_mut().zip(&other.components) {
            *mine = (*mine).max(*theirs);
        }
        if self.copies.len() < other.copies.len() {
            self.copies.resize(other.copies.len(), Known::default());
        }
        for (mine, theirs) in self.copies.iter_mut().zip(&other.copies) {
            mine.join(theirs);
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
    fn completed_copies_are_known_out_of_order_and_joined() {
        let mut a = Clock::fresh(0, None);
        a.learn_copy(2, 2);
        assert!(a.knows_copy(2, 2) && !a.knows_copy(2, 1) && !a.knows_copy(0, 2));
        let mut b = Clock::fresh(1, None);
        b.learn_copy(2, 1);
        b.join(&a);
        assert!(b.knows_copy(2, 1) && b.knows_copy(2, 2) && !b.knows_copy(2, 3));
        assert_eq!(b.copies[2].through, 2);
        assert!(b.copies[2].beyond.is_empty());
    }

    #[test]
    fn join_is_the_componentwise_maximum() {
        let mut a = Clock::fresh(0, None);
        let b = Clock::fresh(3, None);
        a.join(&b);
        assert_eq!((a.get(plain(0)), a.get(plain(3)), a.get(9)), (1, 1, 0));
    }
}
