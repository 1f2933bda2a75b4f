//! The members of one collective call pass the same thing: checked before
//! anything runs.
//!
//! A call the members of a comm domain make from different places (a
//! kernel called on the even devices, another on the odd ones) is still
//! one call of the domain's protocol: each member's n-th collective on the
//! domain meets the others' n-th. When those disagree on the collective or
//! on the views they pass (an allreduce of 64 floats where the peers reduce
//! 32), the run would finish with numbers no collective defines, and only
//! `--check` would notice the call had members missing. Refused here, with
//! what each group of devices passes. A collective in a loop or branch of
//! its kernel runs as often as the kernel's data says, so a domain's calls
//! are counted up to the first such collective of any member only.

use super::{collective_domain, tensors_of, ProgramRun, Task, TensorRef};
use pld_dialect::collective::CollectiveKind;
use std::collections::{HashMap, HashSet};

/// What one member passes to its part of a call, as a message says it.
struct Passed {
    /// Where the member makes the call: the kernel call's (or builtin
    /// collective's) location.
    location: String,
    /// ` in @ka (called at f:l:c)`, ` at f:l:c`: where, as a message says it.
    place: String,
    /// `pld.tensor_allreduce (sum) of tensor<1x64xf32>, tensor<4x1xi32>`:
    /// what must agree.
    what: String,
}

/// One collective of a device's work: its task (the index in the
/// device's work) and the collective (its index in the kernel's; 0 for a
/// builtin's one).
type Part = (usize, usize);

impl ProgramRun {
    /// Every collective call made from more than one place agrees, member
    /// by member, on its collective and the types of its views (see the
    /// module's doc). A kernel may hold collectives of several comm
    /// domains: each is matched on its own domain.
    pub(super) fn check_call_members(&self) -> Result<(), String> {
        let nth = self.collectives_by_member();
        let counted = self.counted(&nth);
        let mut checked = HashSet::new();
        for call in self.calls() {
            if call.tasks.iter().all(Option::is_some) {
                continue;
            }
            let members = &self.plan.domains[call.domain].devices;
            for (rank, task) in call.tasks.iter().enumerate() {
                let Some(index) = *task else {
                    continue;
                };
                let device = members[rank];
                for (c, domain) in self.collective_domains(&self.plan.tasks[device][index]) {
                    let Some(n) = (nth.get(&(device, domain)))
                        .and_then(|parts| parts.iter().position(|p| *p == (index, c)))
                    else {
                        continue;
                    };
                    let exact = counted.get(&domain).is_some_and(|limit| n < *limit);
                    if exact && checked.insert((domain, n)) {
                        self.agree(&nth, domain, n)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The `n`-th collectives of the members of `domain` agree (see
    /// [`ProgramRun::check_call_members`]).
    fn agree(
        &self,
        nth: &HashMap<(usize, usize), Vec<Part>>,
        domain: usize,
        n: usize,
    ) -> Result<(), String> {
        // Each member's n-th collective on the domain, grouped by what it
        // passes.
        let mut groups: Vec<(Passed, Vec<usize>)> = Vec::new();
        for &device in &self.plan.domains[domain].devices {
            let Some(&(index, c)) = nth.get(&(device, domain)).and_then(|v| v.get(n)) else {
                continue;
            };
            let Some(passed) = self.passed(&self.plan.tasks[device][index], c) else {
                continue;
            };
            match groups.iter_mut().find(|(p, _)| p.what == passed.what) {
                Some((_, devices)) => devices.push(device),
                None => groups.push((passed, vec![device])),
            }
        }
        match groups.len() {
            0 | 1 => Ok(()),
            _ => Err(self.disagreement(domain, n, &groups)),
        }
    }

    /// How many of each comm domain's calls can be counted before the run:
    /// those before the first collective of any member that runs as often
    /// as its kernel's data says (a kernel's loop of two allreduces against
    /// another place's two calls was refused).
    fn counted(&self, nth: &HashMap<(usize, usize), Vec<Part>>) -> HashMap<usize, usize> {
        let mut counted: HashMap<usize, usize> = HashMap::new();
        for (&(device, domain), parts) in nth {
            let exact = parts
                .iter()
                .position(|&(index, c)| !self.runs_once(&self.plan.tasks[device][index], c))
                .unwrap_or(parts.len());
            let limit = counted.entry(domain).or_insert(exact);
            *limit = (*limit).min(exact);
        }
        counted
    }

    /// Every device's collectives on every comm domain, in its order:
    /// `(device, domain)` to its parts.
    fn collectives_by_member(&self) -> HashMap<(usize, usize), Vec<Part>> {
        let mut nth: HashMap<(usize, usize), Vec<Part>> = HashMap::new();
        for &(device, index) in &self.plan.order {
            let task = &self.plan.tasks[device][index];
            for (c, domain) in self.collective_domains(task) {
                nth.entry((device, domain)).or_default().push((index, c));
            }
        }
        nth
    }

    /// Whether collective `c` of `task` runs once per task: a builtin's
    /// does; a kernel's unless it is in a loop or a branch of the kernel.
    fn runs_once(&self, task: &Task, c: usize) -> bool {
        let Task::Kernel(k) = task else {
            return true;
        };
        (self.program.kernel(&k.kernel))
            .and_then(|info| info.collectives.get(c))
            .is_some_and(|collective| {
                collective.in_loop.is_none() && collective.in_branch.is_none()
            })
    }

    /// Each collective of `task` (its index) with the comm domain it runs
    /// in: a builtin's, a kernel collective's operands'.
    fn collective_domains(&self, task: &Task) -> Vec<(usize, usize)> {
        match task {
            Task::Builtin(b) => vec![(0, b.domain)],
            Task::Kernel(k) => {
                let Some(info) = self.program.kernel(&k.kernel) else {
                    return Vec::new();
                };
                let tensors = tensors_of(k);
                (info.collectives.iter().enumerate())
                    .filter_map(|(c, collective)| {
                        let first = collective.operands.iter().flatten().next()?;
                        Some((c, tensors.get(*first)?.domain))
                    })
                    .collect()
            }
        }
    }

    /// What `task` passes to its collective `c`, `None` for none.
    fn passed(&self, task: &Task, c: usize) -> Option<Passed> {
        let (collective, tensors, location, place) = match task {
            Task::Builtin(b) => (
                &b.collective,
                b.tensors.iter().collect(),
                &b.location,
                format!(" at {}", b.location),
            ),
            Task::Kernel(k) => {
                let collective = self.program.kernel(&k.kernel)?.collectives.get(c)?;
                let place = format!(" in @{} (called at {})", k.kernel, k.location);
                (collective, tensors_of(k), &k.location, place)
            }
        };
        let mut what = collective.op().to_string();
        if let Some(reduce) = collective.reduce {
            what += &format!(" ({reduce})");
        }
        if collective.kind == CollectiveKind::AllReduce {
            // Schedules of different modes do not meet (mesh against
            // two_shot deadlocked).
            what += &format!(" in mode {}", collective.mode);
        }
        if let Some(root) = collective.root {
            what += &format!(" with root {root}");
        }
        let views: Vec<String> = (collective.operands.iter().flatten())
            .filter_map(|&p| tensors.get(p).map(|t| type_text(t)))
            .collect();
        if !views.is_empty() {
            what += &format!(" of {}", views.join(", "));
        }
        Some(Passed {
            location: location.clone(),
            place,
            what,
        })
    }

    /// The error for the `n`-th collectives of `domain`, whose members
    /// disagree (`groups`: what each set of devices passes, in the order
    /// of their first devices), at the first group's call.
    fn disagreement(&self, domain: usize, n: usize, groups: &[(Passed, Vec<usize>)]) -> String {
        let name = &self.plan.domains[domain].name;
        let said: Vec<String> = groups
            .iter()
            .map(|(p, devices)| {
                let run = if devices.len() == 1 { "runs" } else { "run" };
                format!("{} {run} {}{}", devices_text(devices), p.what, p.place)
            })
            .collect();
        format!(
            "{}: the members of comm domain '{name}' disagree on their {} collective call: {}; \
             every member of one call runs the same collective on views of the same types",
            groups[0].0.location,
            ordinal_text(n + 1),
            said.join(", ")
        )
    }

    /// The comm domain a task runs in: a kernel's is its first
    /// collective's (a kernel of collectives of two domains is reported as
    /// a call of the first's, mpi27 H1), else its first view's.
    pub(super) fn domain_of(&self, task: &Task) -> usize {
        match task {
            Task::Builtin(b) => b.domain,
            Task::Kernel(k) => {
                let info = self.program.kernel(&k.kernel);
                let first = info.and_then(|i| Some((i, i.collectives.first()?)));
                first
                    .and_then(|(info, c)| collective_domain(k, info, c))
                    .unwrap_or_else(|| tensors_of(k).first().map_or(0, |t| t.domain))
            }
        }
    }
}

/// A view's type as a message says it: `tensor<1x64xf32>`.
fn type_text(t: &TensorRef) -> String {
    let dims: Vec<String> = t.shape.iter().map(ToString::to_string).collect();
    format!("tensor<{}x{}>", dims.join("x"), t.dtype.name())
}

/// `device 1`, `devices 1, 3`.
fn devices_text(devices: &[usize]) -> String {
    let listed: Vec<String> = devices.iter().map(ToString::to_string).collect();
    match devices {
        [_] => format!("device {}", listed[0]),
        _ => format!("devices {}", listed.join(", ")),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
fn ordinal_text(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let said: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 103, 111]
            .into_iter()
            .map(ordinal_text)
            .collect();
        assert_eq!(
            said,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd",
                "111th"
            ]
        );
    }
}
