//! pld's yes-or-no environment variables, all read by one rule: `1`,
//! `true`, `yes` or `on` (in any case) say yes; `0`, `false`, `no`, `off`,
//! an empty value or none say no; anything else is refused with a message
//! naming the variable, its value and what each answer does. And its one
//! count, [`MAX_DISPATCHES`]: a whole number in a range, or unset for the
//! default.

/// One yes-or-no variable and what its two answers do.
#[derive(Clone, Copy, Debug)]
pub struct Switch {
    pub name: &'static str,
    /// What yes does, after "to": `turn the compile cache off`.
    pub yes: &'static str,
    /// What no does, after "to": `keep it on`.
    pub no: &'static str,
}

/// Turns the compile cache off (docs/tools/pld-run.md).
pub const NO_CACHE: Switch = Switch {
    name: "PLD_NO_CACHE",
    yes: "turn the compile cache off",
    no: "keep it on",
};

/// Makes process 0 of an MPI run print the node split.
pub const SHOW_NODES: Switch = Switch {
    name: "PLD_MPI_SHOW_NODES",
    yes: "show the nodes",
    no: "not show them",
};

/// Runs explore mode's agents as OS threads instead of fibers.
pub const EXPLORE_THREADS: Switch = Switch {
    name: "PLD_EXPLORE_THREADS",
    yes: "explore on OS threads",
    no: "explore on fibers",
};

/// Every switch, for a tool to check them all before it starts.
pub const ALL: [Switch; 3] = [NO_CACHE, SHOW_NODES, EXPLORE_THREADS];

/// The first switch of [`ALL`] (or count) this process's environment
/// sets to a value the rule refuses, as its message.
pub fn check_all() -> Result<(), String> {
    ALL.iter().try_for_each(|switch| switch.read().map(drop))?;
    MAX_DISPATCHES.read().map(drop)
}

/// A whole-number variable with a default and a range.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub name: &'static str,
    /// What it counts, after "the": `dispatches one run's plan may hold`.
    pub what: &'static str,
    pub default: usize,
    pub max: usize,
}

/// The most kernel and builtin dispatches one run of a HOST program may
/// plan (docs/tools/pld-run.md, "Environment").
pub const MAX_DISPATCHES: Count = Count {
    name: "PLD_MAX_DISPATCHES",
    what: "kernel and builtin dispatches one run of a HOST program may plan",
    default: 1_000_000,
    max: 1_000_000_000,
};

impl Count {
    /// `value` as a whole number from 1 to `max`: digits only (no sign
    /// or space, as `PLD_CACHE_MAX_BYTES` reads its number).
    pub fn parse(&self, value: &str) -> Result<usize, String> {
        Some(value)
            .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|n| (1..=self.max).contains(n))
            .ok_or_else(|| {
                format!(
                    "{}={value}: say how many {} (a whole number from 1 to {}; unset: {})",
                    self.name, self.what, self.max, self.default
                )
            })
    }

    /// The variable in this process's environment (unset or empty: the
    /// default).
    pub fn read(&self) -> Result<usize, String> {
        match std::env::var(self.name) {
            Ok(value) if value.is_empty() => Ok(self.default),
            Ok(value) => self.parse(&value),
            Err(std::env::VarError::NotPresent) => Ok(self.default),
            Err(std::env::VarError::NotUnicode(value)) => self.parse(&value.to_string_lossy()),
        }
    }
}

impl Switch {
    /// `value` read by the rule of the module.
    pub fn parse(&self, value: &str) -> Result<bool, String> {
        match value.to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Ok(true),
            "" | "0" | "false" | "no" | "off" => Ok(false),
            _ => Err(format!(
                "{}={value}: say 1, true, yes or on to {}, or 0, false, no, off or nothing to {}",
                self.name, self.yes, self.no
            )),
        }
    }

    /// The variable in this process's environment (unset: no; not
    /// Unicode: refused).
    pub fn read(&self) -> Result<bool, String> {
        match std::env::var(self.name) {
            Ok(value) => self.parse(&value),
            Err(std::env::VarError::NotPresent) => Ok(false),
            Err(std::env::VarError::NotUnicode(value)) => Err(format!(
                "{}={}: not text; say 1 to {}, or 0 to {}",
                self.name,
                value.to_string_lossy(),
                self.yes,
                self.no
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_whole_numbers_in_range() {
        assert_eq!(MAX_DISPATCHES.parse("10"), Ok(10));
        assert_eq!(MAX_DISPATCHES.parse("07"), Ok(7));
        for bad in [
            " 7",
            "7 ",
            "+7",
            "",
            "0",
            "-1",
            "1e6",
            "many",
            "1000000001",
            "99999999999999999999999",
        ] {
            let message = MAX_DISPATCHES.parse(bad).unwrap_err();
            assert!(
                message.starts_with(&format!("PLD_MAX_DISPATCHES={bad}: say how many kernel")),
                "{message}"
            );
            assert!(message.ends_with("(a whole number from 1 to 1000000000; unset: 1000000)"));
        }
    }

    #[test]
    fn every_switch_reads_one_way() {
        for switch in ALL {
            for yes in ["1", "true", "YES", "On"] {
                assert_eq!(switch.parse(yes), Ok(true), "{yes}");
            }
            for no in ["", "0", "false", "No", "OFF"] {
                assert_eq!(switch.parse(no), Ok(false), "{no}");
            }
            let refused = switch.parse("2").unwrap_err();
            assert!(refused.starts_with(&format!("{}=2: say 1, true", switch.name)));
        }
        assert_eq!(
            NO_CACHE.parse("maybe").unwrap_err(),
            "PLD_NO_CACHE=maybe: say 1, true, yes or on to turn the compile cache off, \
             or 0, false, no, off or nothing to keep it on"
        );
    }
}
