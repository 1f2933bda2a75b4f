//! What a run found, as `pld-c/Run.h`'s accessors hand it out: the
//! collective calls and their checks per rank, the findings (with ranks,
//! cells and source locations) and the counters. Plain Rust values, built
//! from the simulator's reports by [`crate::run`].

use pld_dialect::enums::AllReduceMode;

/// How one rank's result of a call compared with its golden; the values
/// are `PldCheck`'s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    NotChecked = 0,
    Ok = 1,
    Wrong = 2,
}

/// What a finding is about; the values are `PldFindingKind`'s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingKind {
    Error = 0,
    Deadlock = 1,
    Leak = 2,
    Race = 3,
    MissingFence = 4,
    MixedNotify = 5,
    NeverNotified = 6,
    OutsideSignals = 7,
    NoProgress = 8,
    WrongResult = 9,
    SharedQueue = 10,
    UnwaitedCopy = 11,
    TimeLimit = 12,
    Uncheckable = 13,
}

impl FindingKind {
    /// Every kind, in the order of their values.
    #[cfg(test)]
    pub(crate) const ALL: [FindingKind; 14] = [
        FindingKind::Error,
        FindingKind::Deadlock,
        FindingKind::Leak,
        FindingKind::Race,
        FindingKind::MissingFence,
        FindingKind::MixedNotify,
        FindingKind::NeverNotified,
        FindingKind::OutsideSignals,
        FindingKind::NoProgress,
        FindingKind::WrongResult,
        FindingKind::SharedQueue,
        FindingKind::UnwaitedCopy,
        FindingKind::TimeLimit,
        FindingKind::Uncheckable,
    ];

    /// The kind of an explorer finding.
    pub(crate) fn of(finding: &pld_sim::Finding) -> FindingKind {
        use pld_sim::Finding as F;
        match finding {
            F::Race { .. } => FindingKind::Race,
            F::UnfencedNotify { .. } => FindingKind::MissingFence,
            F::MixedNotify { .. } => FindingKind::MixedNotify,
            F::NeverNotified { .. } => FindingKind::NeverNotified,
            F::OutsideSignals { .. } => FindingKind::OutsideSignals,
            F::NoProgress { .. } => FindingKind::NoProgress,
            F::SharedQueue { .. } => FindingKind::SharedQueue,
            F::UnwaitedCopy { .. } => FindingKind::UnwaitedCopy,
        }
    }
}

/// One rank's check of a call.
#[derive(Clone, Copy, Debug)]
pub struct RankCheck {
    pub check: Check,
    pub worst: f64,
    pub wrong: usize,
}

/// One collective call of the run.
#[derive(Clone, Debug)]
pub struct Call {
    /// The op, `pld.tensor_allreduce`.
    pub collective: &'static str,
    pub location: String,
    /// The kernel it is in; empty for a HOST collective.
    pub kernel: String,
    /// Per rank of its comm domain.
    pub ranks: Vec<RankCheck>,
    /// Why it was not checked; empty when it was.
    pub note: String,
    /// A check was asked for and this call cannot be compared (the note
    /// says why): a finding, as `pld-run --check` fails on it.
    pub uncheckable: bool,
    /// The device of each rank of its comm domain (a program's call);
    /// empty when rank r is device r (a kernel run on its own).
    pub devices: Vec<usize>,
    /// An allreduce's schedule (`ring`); empty for other collectives.
    pub mode: String,
    /// Where the collective op itself is written (`location` is the kernel
    /// call's for a collective inside a kernel a program calls).
    pub op_location: String,
    /// Whether it was written `mode = "auto"` (which chose the schedule, or
    /// kept the default).
    pub auto: bool,
}

impl Call {
    /// The call of a run its time limit stopped: no rank's result is
    /// judged (its waits returned before their credits came).
    pub fn unfinished(mut self) -> Call {
        for rank in &mut self.ranks {
            *rank = RankCheck {
                check: Check::NotChecked,
                worst: 0.0,
                wrong: 0,
            };
        }
        self.note = "not checked: the run was stopped at its time limit before it ended".into();
        // The time limit's own finding says it; no check was made at all.
        self.uncheckable = false;
        self
    }

    /// A call that was not compared with a golden, on `ranks` ranks.
    pub fn unchecked(
        collective: &'static str,
        location: String,
        kernel: String,
        ranks: usize,
        note: String,
    ) -> Call {
        let nothing = RankCheck {
            check: Check::NotChecked,
            worst: 0.0,
            wrong: 0,
        };
        Call {
            collective,
            location,
            kernel,
            ranks: vec![nothing; ranks],
            note,
            uncheckable: false,
            devices: Vec::new(),
            mode: String::new(),
            auto: false,
            op_location: String::new(),
        }
    }

    /// The call with where its collective op is written.
    pub fn written_at(mut self, op_location: String) -> Call {
        self.op_location = op_location;
        self
    }

    /// The call with an allreduce's schedule, and whether `mode = "auto"`
    /// chose it (`None`: another collective).
    pub fn scheduled(mut self, mode: Option<AllReduceMode>, auto: bool) -> Call {
        self.mode = mode.map_or(String::new(), |m| m.to_string());
        self.auto = mode.is_some() && auto;
        self
    }

    /// The call with the devices of its comm domain's ranks.
    pub fn on_devices(mut self, devices: Vec<usize>) -> Call {
        self.devices = devices;
        self
    }

    /// The device of rank `rank` of its comm domain.
    pub fn device(&self, rank: usize) -> usize {
        self.devices.get(rank).copied().unwrap_or(rank)
    }

    /// [`Call::unchecked`] where a check was asked for and cannot be made.
    pub fn uncheckable(mut self) -> Call {
        self.uncheckable = true;
        self
    }

    /// The finding of a call a check was asked for and cannot compare.
    pub fn uncheckable_finding(&self) -> Option<Finding> {
        self.uncheckable.then(|| {
            let mut finding = Finding::message(
                FindingKind::Uncheckable,
                format!(
                    "{}: check cannot compare {}: {}",
                    self.location, self.collective, self.note
                ),
            );
            finding.locations = vec![self.location.clone()];
            finding
        })
    }

    /// The call with the checks `checks` (`rank` counting in its domain).
    pub fn checked(
        collective: &'static str,
        location: String,
        kernel: String,
        ranks: usize,
        checks: &[pld_sim::program::golden::RankCheck],
    ) -> Call {
        let mut call = Call::unchecked(collective, location, kernel, ranks, String::new());
        for check in checks {
            if let Some(slot) = call.ranks.get_mut(check.rank) {
                *slot = RankCheck {
                    check: if check.ok { Check::Ok } else { Check::Wrong },
                    worst: check.worst,
                    wrong: check.wrong,
                };
            }
        }
        call
    }
}

/// Something wrong with the run.
#[derive(Clone, Debug)]
pub struct Finding {
    pub kind: FindingKind,
    pub message: String,
    pub ranks: Vec<usize>,
    /// The cell or bytes, as the source names them; empty when unknown.
    pub cell: String,
    pub locations: Vec<String>,
    /// The explorer's seed that found it first.
    pub seed: Option<u64>,
    /// What identifies it across schedules.
    pub key: String,
}

impl Finding {
    /// A finding of `kind` with only a message.
    pub fn message(kind: FindingKind, message: String) -> Finding {
        Finding {
            kind,
            key: format!("{kind:?} {message}"),
            message,
            ranks: Vec::new(),
            cell: String::new(),
            locations: Vec::new(),
            seed: None,
        }
    }

    /// An explorer finding, naming window bytes with `namer`.
    /// A finding of the explorer, its ops named as the user wrote them
    /// where `pld_op` knows the pld op at their place.
    pub fn explored(
        finding: &pld_sim::Finding,
        namer: pld_sim::explore::Namer,
        pld_op: &dyn Fn(&str) -> Option<String>,
    ) -> Finding {
        use pld_sim::Finding as F;
        let (actors, bytes) = match finding {
            F::Race {
                later,
                earlier,
                bytes,
                ..
            } => (vec![later, earlier], Some(bytes)),
            F::UnfencedNotify {
                notify,
                write,
                bytes,
            } => (vec![notify, write], Some(bytes)),
            F::MixedNotify { set, add, cell } => (vec![set, add], Some(cell)),
            F::NeverNotified { wait, cell } => (vec![wait], Some(cell)),
            F::OutsideSignals { op, cell } => (vec![op], Some(cell)),
            F::NoProgress { polling, .. } => (polling.iter().collect(), None),
            F::SharedQueue { first, second, .. } => (vec![first, second], None),
            F::UnwaitedCopy { submit } => (vec![submit], None),
        };
        Finding {
            kind: FindingKind::of(finding),
            message: finding.describe_in_source(namer, pld_op),
            ranks: actors.iter().map(|a| a.rank).collect(),
            cell: bytes.and_then(|b| b.named(namer)).unwrap_or_default(),
            locations: actors
                .iter()
                .filter_map(|a| a.site.as_ref().map(|s| s.location.clone()))
                .collect(),
            seed: None,
            key: finding.key(),
        }
    }
}

/// Per-rank counters; the layout of `PldCounters`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub notifies: u64,
    pub waits: u64,
    pub remote_bytes_read: u64,
    pub remote_bytes_written: u64,
    pub round_trips: u64,
}

impl Counters {
    /// A rank's counters of the simulator, and its round trips.
    pub fn of(counters: &pld_sim::Counters, round_trips: u64) -> Counters {
        Counters {
            notifies: counters.notifies,
            waits: counters.waits,
            remote_bytes_read: counters.remote_bytes_read,
            remote_bytes_written: counters.remote_bytes_written,
            round_trips,
        }
    }
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub ranks: usize,
    pub schedules: usize,
    /// Whether a schedule was stopped before it ended (its time limit).
    pub stopped: bool,
    pub calls: Vec<Call>,
    pub findings: Vec<Finding>,
    pub counters: Vec<Counters>,
}

impl Report {
    /// Whether the run is clean: no finding, no wrong rank.
    pub fn ok(&self) -> bool {
        self.findings.is_empty()
            && self
                .calls
                .iter()
                .all(|c| c.ranks.iter().all(|r| r.check != Check::Wrong))
    }

    /// Adds the findings of one schedule not seen before, marked with
    /// `seed`.
    pub fn merge(&mut self, findings: Vec<Finding>, seed: u64) {
        for mut finding in findings {
            if !self.findings.iter().any(|f| f.key == finding.key) {
                finding.seed = Some(seed);
                self.findings.push(finding);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = include_str!("../../include/pld-c/Run.h");

    /// `name = value` of an enumerator in the header.
    fn value_in_header(name: &str) -> Option<i64> {
        let at = HEADER.find(&format!("  {name} = "))?;
        let rest = &HEADER[at + name.len() + 5..];
        rest.split(',').next()?.trim().parse().ok()
    }

    #[test]
    fn enums_have_the_headers_values() {
        for (name, check) in [
            ("PldCheckNotChecked", Check::NotChecked),
            ("PldCheckOk", Check::Ok),
            ("PldCheckWrong", Check::Wrong),
        ] {
            assert_eq!(value_in_header(name), Some(check as i64), "{name}");
        }
        for kind in FindingKind::ALL {
            let name = format!("PldFinding{kind:?}");
            assert_eq!(value_in_header(&name), Some(kind as i64), "{name}");
        }
        let declared = HEADER.matches("  PldFinding").count();
        assert_eq!(declared, FindingKind::ALL.len());
    }

    #[test]
    fn counters_have_the_headers_layout() {
        let fields: Vec<&str> = HEADER
            .split("typedef struct PldCounters {")
            .nth(1)
            .and_then(|s| s.split('}').next())
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().strip_prefix("uint64_t "))
            .map(|l| l.split(';').next().unwrap_or_default())
            .collect();
        assert_eq!(
            fields,
            [
                "notifies",
                "waits",
                "remoteBytesRead",
                "remoteBytesWritten",
                "roundTrips"
            ]
        );
        assert_eq!(std::mem::size_of::<Counters>(), 5 * 8);
    }
}
