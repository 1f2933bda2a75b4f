//! `pld-run --output-dir`: the buffers (and goldens) as `.npy` files, each
//! written whole (a temporary file beside it, renamed once complete), in
//! turn. Ctrl-C between two files stops the writing there, and the account
//! of what was done says how many were written; one the watchdog's grace
//! cut short is removed, never left half-written under its name.

/// The directory being written, and the files written to it so far.
pub struct OutputDir<'d> {
    dir: &'d str,
    /// What was done before the writing began, for the account.
    before: String,
    written: usize,
}

impl<'d> OutputDir<'d> {
    /// Creates `dir` if missing; the writing is the phase from now on.
    pub fn open(dir: &'d str) -> Result<Self, String> {
        crate::files::create_output_dir(dir)?;
        crate::watch::phase(format!("writing the outputs to {dir}"));
        Ok(OutputDir {
            dir,
            before: crate::watch::done_so_far(),
            written: 0,
        })
    }

    /// Writes `DIR/<name>` whole, unless Ctrl-C was pressed (an error then,
    /// which the driver reports as the interruption).
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<(), String> {
        let path = format!("{}/{name}", self.dir);
        if crate::watch::interrupted() {
            return Err(format!("interrupted before writing '{path}'"));
        }
        crate::files::replace_whole(std::path::Path::new(&path), bytes)
            .map_err(|e| format!("cannot write '{path}': {e}"))?;
        self.written += 1;
        let written = format!(
            "{} written whole",
            pld_ir::diag::count(self.written, "output file")
        );
        crate::watch::done(match self.before.is_empty() {
            true => written,
            false => format!("{}; {written}", self.before),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pld_sim::runtime::interrupt;

    #[test]
    fn ctrl_c_stops_the_writing_between_files() {
        // trust26 H1: Ctrl-C while --output-dir was written left a file
        // cut short under its name, and the account said "checking".
        let dir = std::env::temp_dir().join(format!("pld-output-dir-{}", std::process::id()));
        let dir_text = dir.to_string_lossy().into_owned();
        let mut out = OutputDir::open(&dir_text).unwrap();
        out.write("a.npy", b"first").unwrap();
        assert_eq!(std::fs::read(dir.join("a.npy")).unwrap(), b"first");
        assert!(crate::watch::done_so_far().ends_with("1 output file written whole"));
        // Ctrl-C, as this thread sees it (the scoped stop leaves the
        // process's other tests alone).
        let stop = interrupt::Stop::default();
        stop.request();
        let refused = stop.enter(|| out.write("b.npy", b"second"));
        assert!(refused
            .unwrap_err()
            .starts_with("interrupted before writing"));
        assert!(!dir.join("b.npy").exists());
        // Nothing but the whole file is left: no temporary file.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a.npy"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
