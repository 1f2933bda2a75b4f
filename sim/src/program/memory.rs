//! How much memory a run may still take, checked before a run allocates
//! its inputs and windows, so that a run too large for the machine (or
//! for the process's address-space limit, `ulimit -v`) is refused with a
//! message instead of ending the process on a failed allocation.

/// What the process can still be given: `MemAvailable` plus `SwapFree` of
/// `/proc/meminfo`, and no more than the room left under its
/// address-space limit (`Max address space` of `/proc/self/limits` less
/// `VmSize`), when they can be read.
pub fn available() -> Option<usize> {
    let machine = meminfo().map(|m| {
        let field = |name: &str| kib_field(&m, name);
        field("MemAvailable:")?.checked_add(field("SwapFree:").unwrap_or(0))
    });
    let room = address_space_room();
    match (machine.flatten(), room) {
        (Some(m), Some(r)) => Some(m.min(r)),
        (m, r) => m.or(r),
    }
}

/// Refuses a run that needs `need` bytes when the process cannot have
/// them; `what` names the run (`@k on 4 ranks (...)`).
pub fn check(need: usize, what: impl FnOnce() -> String) -> Result<(), String> {
    match available() {
        Some(available) if need > available => Err(format!(
            "{} needs {} of memory; the machine has {} available",
            what(),
            pld_ir::diag::bytes_text(need),
            pld_ir::diag::bytes_text(available)
        )),
        _ => Ok(()),
    }
}

fn meminfo() -> Option<String> {
    std::fs::read_to_string("/proc/meminfo").ok()
}

/// The value of a `Name:   123 kB` line, in bytes.
fn kib_field(text: &str, name: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The address space the process may still map under its soft limit;
/// `None` when unlimited or unreadable.
fn address_space_room() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?;
    let limit: usize = soft.parse().ok()?; // "unlimited" does not parse
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used = kib_field(&status, "VmSize:")?;
    Some(limit.saturating_sub(used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kib_field_is_read_in_bytes() {
        let text = "MemTotal:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(kib_field(text, "MemAvailable:"), Some(2048 * 1024));
        assert_eq!(kib_field(text, "SwapFree:"), None);
    }

    #[test]
    fn an_impossible_need_is_refused_naming_the_run() {
        let error = check(usize::MAX, || "@k on 2 ranks".into()).unwrap_err();
        assert!(error.starts_with("@k on 2 ranks needs "), "{error}");
    }
}
