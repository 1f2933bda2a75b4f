//! `--mlir-timing`: the execution time report of `mlir-opt`, wall time of
//! the parser (with the verifier), every pass (with the verification after
//! it), the output and the rest, summed over all chunks of the input.

use pld_ir::pipeline::Planned;
use pld_ir::registry::Registry;
use std::time::{Duration, Instant};

/// Times collected during one run (nothing when disabled).
pub struct Timing {
    enabled: bool,
    begun: Instant,
    parser: Duration,
    steps: Vec<Duration>,
    output: Duration,
}

impl Timing {
    pub fn new(enabled: bool) -> Self {
        Timing {
            enabled,
            begun: Instant::now(),
            parser: Duration::ZERO,
            steps: Vec::new(),
            output: Duration::ZERO,
        }
    }

    /// Starts the clock of the whole run again (after the setup that
    /// `mlir-opt` does not time either: contexts, dialects, the plan).
    pub fn restart(&mut self) {
        self.begun = Instant::now();
    }

    /// The start of a timed phase (`None` when timing is off).
    pub fn start(&self) -> Option<Instant> {
        self.enabled.then(Instant::now)
    }

    pub fn record_parser(&mut self, started: Option<Instant>) {
        if let Some(started) = started {
            self.parser += started.elapsed();
        }
    }

    pub fn record_step(&mut self, index: usize, started: Option<Instant>) {
        if let Some(started) = started {
            if self.steps.len() <= index {
                self.steps.resize(index + 1, Duration::ZERO);
            }
            self.steps[index] += started.elapsed();
        }
    }

    pub fn record_output(&mut self, started: Option<Instant>) {
        if let Some(started) = started {
            self.output += started.elapsed();
        }
    }

    /// Prints the report to standard error, when timing is on.
    pub fn report(&self, plan: &[Planned], registry: &Registry) {
        if self.enabled {
            pld_ir::diag::write_stderr(&self.render(plan, registry));
        }
    }

    fn render(&self, plan: &[Planned], registry: &Registry) -> String {
        let total = self.begun.elapsed();
        let mut rows: Vec<(usize, String, Duration)> = vec![(0, "Parser".into(), self.parser)];
        let mut open: Vec<String> = Vec::new();
        for (index, planned) in plan.iter().enumerate() {
            let step = &planned.step;
            let time = self.steps.get(index).copied().unwrap_or_default();
            let shared = open
                .iter()
                .zip(&step.anchors)
                .take_while(|(a, b)| a == b)
                .count();
            open.truncate(shared);
            for anchor in &step.anchors[shared..] {
                rows.push((open.len(), format!("'{anchor}' Pipeline"), Duration::ZERO));
                open.push(anchor.clone());
            }
            // Every enclosing pipeline row counts this pass's time.
            let depth = open.len();
            let mut level = depth;
            for row in rows.iter_mut().rev() {
                if level == 0 {
                    break;
                }
                if row.0 == level - 1 && row.1.ends_with("' Pipeline") {
                    row.2 += time;
                    level -= 1;
                }
            }
            let name = registry
                .pass(&step.pass)
                .map(|entry| entry.name.to_string())
                .unwrap_or_else(|| step.pass.clone());
            rows.push((depth, name, time));
        }
        open.clear();
        rows.push((0, "Output".into(), self.output));
        let counted: Duration = rows.iter().filter(|r| r.0 == 0).map(|r| r.2).sum();
        rows.push((0, "Rest".into(), total.saturating_sub(counted)));
        rows.push((0, "Total".into(), total));

        let rule =
            "===-------------------------------------------------------------------------===";
        let mut out = format!(
            "{rule}\n                         ... Execution time report ...\n{rule}\n  \
             Total Execution Time: {:.4} seconds\n\n  ----Wall Time----  ----Name----\n",
            total.as_secs_f64()
        );
        let whole = total.as_secs_f64().max(f64::MIN_POSITIVE);
        for (depth, name, time) in rows {
            let seconds = time.as_secs_f64();
            out.push_str(&format!(
                "  {seconds:>8.4} ({:>5.1}%)  {}{name}\n",
                100.0 * seconds / whole,
                "  ".repeat(depth)
            ));
        }
        out
    }
}
