//! pld's yes-or-no environment variables, all read by one rule: `1`,
//! `true`, `yes` or `on` (in any case) say yes; `0`, `false`, `no`, `off`,
//! an empty value or none say no; anything else is refused with a message
//! naming the variable, its value and what each answer does.

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

/// The first switch of [`ALL`] this process's environment sets to a value
/// the rule refuses, as its message.
pub fn check_all() -> Result<(), String> {
    ALL.iter().try_for_each(|switch| switch.read().map(drop))
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
