//! A number of seconds a user gives (a deadline, a time limit) as a
//! [`Duration`], by one rule for `pld-run`, the C API and the Python
//! package: a positive number up to about 1.8e19 (`u64::MAX` seconds); one
//! below a nanosecond is a nanosecond, not zero (zero means "none" where a
//! limit is optional, so a tiny limit must not turn into no limit).

use std::time::Duration;

/// The largest number of seconds taken, as the messages say it.
pub const MOST: &str = "at most about 1.8e19";

/// `value` seconds, or `None` when it is not positive, not a number, or
/// too large for a `Duration` (infinity included).
pub fn seconds(value: f64) -> Option<Duration> {
    // (NaN is not greater than 0 either.)
    if value.is_nan() || value <= 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(value)
        .ok()
        .map(|d| d.max(Duration::from_nanos(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_up_to_the_largest_and_never_zero() {
        assert_eq!(seconds(2.5), Some(Duration::from_millis(2500)));
        assert_eq!(seconds(1e-12), Some(Duration::from_nanos(1)));
        assert_eq!(seconds(1.8e19), Some(Duration::from_secs_f64(1.8e19)));
        for refused in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e300, -0.0] {
            assert_eq!(seconds(refused), None, "{refused}");
        }
    }
}
