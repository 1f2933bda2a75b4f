//! Shadow state of one window: for every byte interval touched, the last
//! write (or the accumulating writes since it) and the reads since, each
//! with the clock stamp of the agent that made it.

use super::clock::Clock;
pub use crate::runtime::report::Conflict;
use std::collections::BTreeMap;
use std::ops::Range;

/// One access, as the race check needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The agent that made it, or that submitted the copy that makes it.
    pub agent: usize,
    pub rank: usize,
    pub stamp: Stamp,
    /// The device-call site (`crate::runtime::sites`).
    pub site: i64,
    /// For an access without a site (a builtin kernel's): the program call
    /// its rank ran then, as its number among the checker's call labels.
    pub call: Option<u32>,
}

/// What orders an access before others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stamp {
    /// The agent's own access: the clock component and value that stamp it.
    Agent { component: usize, epoch: u32 },
    /// Asynchronous copy `number` of the agent: ordered before whoever
    /// knows it completed (a wait on its event, and what that orders).
    Copy { number: u32 },
}

impl Access {
    /// Whether an agent whose clock is `clock` is ordered after this.
    pub fn ordered_before(&self, agent: usize, clock: &Clock) -> bool {
        match self.stamp {
            Stamp::Agent { component, epoch } => {
                self.agent == agent || clock.get(component) >= epoch
            }
            Stamp::Copy { number } => clock.knows_copy(self.agent, number),
        }
    }

    /// Whether both come from one actor (an agent, or one copy of it): a
    /// later access of an actor stands for its earlier ones.
    pub fn same_actor(&self, other: &Access) -> bool {
        self.agent == other.agent
            && match (self.stamp, other.stamp) {
                (Stamp::Agent { .. }, Stamp::Agent { .. }) => true,
                (Stamp::Copy { number: a }, Stamp::Copy { number: b }) => a == b,
                _ => false,
            }
    }

    /// Whether an asynchronous copy made it.
    pub fn is_copy(&self) -> bool {
        matches!(self.stamp, Stamp::Copy { .. })
    }
}

#[derive(Clone, Debug, Default)]
struct Segment {
    end: usize,
    /// The last plain write.
    write: Option<Access>,
    /// Accumulating writes since the last plain write (they commute with
    /// each other), one per agent.
    accumulates: Vec<Access>,
    /// Reads since the last write, one per agent.
    reads: Vec<Access>,
}

/// What one window's bytes saw.
#[derive(Default)]
pub struct Shadow {
    /// Disjoint segments by start.
    segments: BTreeMap<usize, Segment>,
}

/// A conflict found by an access: its kind, the earlier access, and the
/// bytes both touched.
pub type Found = (Conflict, Access, Range<usize>);

impl Shadow {
    /// Splits segments so that none straddles `at`.
    fn split(&mut self, at: usize) {
        let Some((&start, seg)) = self.segments.range(..at).next_back() else {
            return;
        };
        if seg.end > at {
            let mut tail = seg.clone();
            self.segments.get_mut(&start).expect("present").end = at;
            tail.end = tail.end.max(at);
            self.segments.insert(at, tail);
        }
    }

    /// Makes `range` covered by segments (gaps become empty ones) and
    /// returns their starts.
    fn cover(&mut self, range: &Range<usize>) -> Vec<usize> {
        self.split(range.start);
        self.split(range.end);
        let mut starts = Vec::new();
        let mut at = range.start;
        let existing: Vec<(usize, usize)> = self
            .segments
            .range(range.start..range.end)
            .map(|(&s, seg)| (s, seg.end))
            .collect();
        for (start, end) in existing {
            if start > at {
                self.segments.insert(
                    at,
                    Segment {
                        end: start,
                        ..Segment::default()
                    },
                );
                starts.push(at);
            }
            starts.push(start);
            at = end;
        }
        if at < range.end {
            self.segments.insert(
                at,
                Segment {
                    end: range.end,
                    ..Segment::default()
                },
            );
            starts.push(at);
        }
        starts.sort_unstable();
        starts
    }

    /// A read of `range` by `access`'s agent, whose clock is `clock`.
    pub fn read(&mut self, range: Range<usize>, access: Access, clock: &Clock) -> Vec<Found> {
        let mut found = Vec::new();
        for start in self.cover(&range) {
            let seg = self.segments.get_mut(&start).expect("covered");
            let bytes = start..seg.end;
            let writes = seg.write.iter().chain(&seg.accumulates);
            for w in writes {
                if !w.ordered_before(access.agent, clock) {
                    found.push((Conflict::ReadAfterWrite, *w, bytes.clone()));
                }
            }
            seg.reads.retain(|r| !r.same_actor(&access));
            seg.reads.push(access);
        }
        merge_ranges(found)
    }

    /// A write of `range`; `accumulate` for an element-atomic add (which
    /// does not race with other adds).
    pub fn write(
        &mut self,
        range: Range<usize>,
        access: Access,
        clock: &Clock,
        accumulate: bool,
    ) -> Vec<Found> {
        let mut found = Vec::new();
        let starts = self.cover(&range);
        for &start in &starts {
            let seg = &self.segments[&start];
            let bytes = start..seg.end;
            if let Some(w) = seg.write {
                if !w.ordered_before(access.agent, clock) {
                    found.push((Conflict::WriteAfterWrite, w, bytes.clone()));
                }
            }
            if !accumulate {
                for w in &seg.accumulates {
                    if !w.ordered_before(access.agent, clock) {
                        found.push((Conflict::WriteAfterWrite, *w, bytes.clone()));
                    }
                }
            }
            for r in &seg.reads {
                if !r.ordered_before(access.agent, clock) {
                    found.push((Conflict::WriteAfterRead, *r, bytes.clone()));
                }
            }
        }
        if accumulate {
            for &start in &starts {
                let seg = self.segments.get_mut(&start).expect("covered");
                seg.accumulates.retain(|a| !a.same_actor(&access));
                seg.accumulates.push(access);
                seg.reads.clear();
            }
        } else {
            // One segment for the whole write: what it overwrote is gone.
            for start in starts {
                self.segments.remove(&start);
            }
            self.segments.insert(
                range.start,
                Segment {
                    end: range.end,
                    write: Some(access),
                    ..Segment::default()
                },
            );
        }
        merge_ranges(found)
    }
}

/// One finding per (kind, earlier access), over the union of its bytes
/// (segments split one access's bytes into pieces).
fn merge_ranges(found: Vec<Found>) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    for (kind, access, bytes) in found {
        match out.iter_mut().find(|(k, a, _)| *k == kind && *a == access) {
            Some((_, _, range)) => {
                range.start = range.start.min(bytes.start);
                range.end = range.end.max(bytes.end);
            }
            None => out.push((kind, access, bytes)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::clock::{plain, Clock};
    use super::*;

    fn access(agent: usize, epoch: u32) -> Access {
        Access {
            agent,
            rank: agent,
            stamp: Stamp::Agent {
                component: plain(agent),
                epoch,
            },
            site: -1,
            call: None,
        }
    }

    #[test]
    fn a_copy_is_ordered_only_for_those_who_know_it_completed() {
        let mut shadow = Shadow::default();
        let submitter = Clock::fresh(0, None);
        let copy = Access {
            stamp: Stamp::Copy { number: 1 },
            ..access(0, 1)
        };
        assert!(shadow.write(0..16, copy, &submitter, false).is_empty());
        // The submitter reads its destination before the wait: a race.
        let found = shadow.read(0..4, access(0, 1), &submitter);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, copy);
        // After the wait it knows the copy, and its read replaced none of
        // the copy's accesses.
        let mut waited = submitter.clone();
        waited.learn_copy(0, 1);
        assert!(shadow.read(0..4, access(0, 1), &waited).is_empty());
    }

    #[test]
    fn an_unordered_read_of_written_bytes_races_and_an_ordered_one_does_not() {
        let mut shadow = Shadow::default();
        let writer = Clock::fresh(0, None);
        assert!(shadow.write(0..64, access(0, 1), &writer, false).is_empty());
        let reader = Clock::fresh(1, None);
        let found = shadow.read(32..96, access(1, 1), &reader);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].0, found[0].2.clone()),
            (Conflict::ReadAfterWrite, 32..64)
        );
        let mut ordered = Clock::fresh(2, None);
        ordered.join(&writer);
        assert!(shadow.read(0..8, access(2, 1), &ordered).is_empty());
    }

    #[test]
    fn a_write_over_an_unordered_read_races_and_accumulates_commute() {
        let mut shadow = Shadow::default();
        let a = Clock::fresh(0, None);
        let b = Clock::fresh(1, None);
        assert!(shadow.read(0..16, access(0, 1), &a).is_empty());
        let found = shadow.write(8..16, access(1, 1), &b, false);
        assert_eq!(found[0].0, Conflict::WriteAfterRead);
        let mut sums = Shadow::default();
        assert!(sums.write(0..16, access(0, 1), &a, true).is_empty());
        assert!(sums.write(0..16, access(1, 1), &b, true).is_empty());
        assert_eq!(
            sums.read(0..4, access(2, 1), &Clock::fresh(2, None)).len(),
            2
        );
    }
}
