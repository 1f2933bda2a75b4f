"""Checks pld-run's headline under --iters 3 --stats (the Python standard
library only): the kernels' time in `finished in ... (kernels T)` must be
the mean of the three timed runs, which the spread line lists (with three
runs, min, median and max are the three times).

  pld-run k.mlir --iters 3 --stats | python3 iters_mean.py

Prints `mean ok` or why not, and exits 1 on a mismatch.
"""

import re
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
TIME = r"([0-9.]+)(ns|µs|ms|s)"


def seconds(match):
    """A time as Rust's `{:.1?}` prints it, and half its last digit."""
    value, unit = match
    return float(value) * UNITS[unit], 0.05 * UNITS[unit]


def main():
    text = sys.stdin.read()
    headline = re.search(r"finished in \S+ \(kernels " + TIME + r"\)", text)
    spread = re.search(
        r"kernel times: min " + TIME + r", q1 \S+, median " + TIME
        + r", q3 \S+, max " + TIME + r" over 3 runs",
        text,
    )
    if not headline or not spread:
        print("no headline or no spread line in:\n" + text)
        return 1
    shown, shown_error = seconds(headline.groups())
    groups = spread.groups()
    runs = [seconds(groups[i:i + 2]) for i in (0, 2, 4)]
    mean = sum(t for t, _ in runs) / 3
    allowed = shown_error + sum(e for _, e in runs) / 3
    if abs(shown - mean) > allowed:
        print(f"kernels {shown:.3e} s is not the mean {mean:.3e} s of "
              f"{[t for t, _ in runs]} (allowed {allowed:.1e})")
        return 1
    print("mean ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
