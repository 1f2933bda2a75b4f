//! `pld-run --output-dir`: the buffers (and goldens) as `.npy` files, each
//! written whole (a temporary file beside it, renamed once complete), in
//! turn. Ctrl-C gives up the file being written (its temporary file is
//! removed, by the writer or by the watchdog that ends the process) and
//! writes no more; the account of what was done says how many were
//! written. No file is left half-written under its name.

/// The directory being written.
pub struct OutputDir<'d> {
    dir: &'d str,
    /// Temporary files a process that has ended left in it (`.<file>.<pid>.tmp`:
    /// one ended by a signal mid-write, as mpirun's SIGTERM ends a process
    /// at once), with the file each was for: removed when this process
    /// writes that file (under MPI each file has one writer, which may run
    /// on another host, whose processes this one cannot see).
    left_behind: Vec<(String, std::path::PathBuf)>,
}

/// The files written whole so far by this process (the buffers, then the
/// goldens, are written by two [`OutputDir`]s): the account says them all.
static WRITTEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl<'d> OutputDir<'d> {
    /// Creates `dir` if missing; the writing is the phase from now on.
    pub fn open(dir: &'d str) -> Result<Self, String> {
        crate::files::create_output_dir(dir)?;
        crate::watch::phase(format!("writing the outputs to {dir}"));
        // A Ctrl-C before the first file is whole says so too (recheck27b
        // L7: the count was left out).
        crate::watch::done(written_whole(
            WRITTEN.load(std::sync::atomic::Ordering::Relaxed),
        ));
        Ok(OutputDir {
            dir,
            left_behind: left_behind(dir),
        })
    }

    /// Writes `DIR/<name>` whole, unless Ctrl-C was pressed (an error then,
    /// which the driver reports as the interruption).
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<(), String> {
        let path = format!("{}/{name}", self.dir);
        if crate::watch::interrupted() {
            return Err(format!("interrupted before writing '{path}'"));
        }
        for (_, temporary) in self.left_behind.iter().filter(|(file, _)| file == name) {
            let _ = std::fs::remove_file(temporary);
        }
        // Ctrl-C during the file gives it up: no file cut short is left.
        crate::files::replace_whole_unless(std::path::Path::new(&path), bytes, &|| {
            crate::watch::interrupted()
        })
        .map_err(|e| match crate::watch::interrupted() {
            true => format!("interrupted while writing '{path}'"),
            false => format!("cannot write '{path}': {e}"),
        })?;
        // What ran before is over (the writing follows the last run).
        let written = WRITTEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        crate::watch::done(written_whole(written));
        Ok(())
    }
}

/// `3 output files written whole`.
fn written_whole(files: usize) -> String {
    format!(
        "{} written whole",
        pld_ir::diag::count(files, "output file")
    )
}

/// The temporary files in `dir` whose writer (a process id of this
/// host) has ended, each with the file it was for.
fn left_behind(dir: &str) -> Vec<(String, std::path::PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
            continue;
        };
        let Some((file, pid)) = inner.rsplit_once('.') else {
            continue;
        };
        let numeric = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
        if numeric && !std::path::Path::new("/proc").join(pid).exists() {
            found.push((file.to_string(), entry.path()));
        }
    }
    found
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
        let out = OutputDir::open(&dir_text).unwrap();
        // Before the first file, the account says how many are whole.
        assert!(crate::watch::interrupted_message().contains(" written whole"));
        out.write("a.npy", b"first").unwrap();
        assert_eq!(std::fs::read(dir.join("a.npy")).unwrap(), b"first");
        assert!(crate::watch::interrupted_message().contains(" written whole"));
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

    #[test]
    fn a_temporary_file_of_an_ended_writer_goes_when_its_file_is_written() {
        // mpi27 L2: SIGTERM to a process of an MPI job while it wrote left
        // `.d.rank0.npy.<pid>.tmp` for good. The next write of that file
        // removes it; another file's, and a live process's, stay.
        let dir = std::env::temp_dir().join(format!("pld-output-left-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ended = "99999999"; // above any pid_max
        let live = std::process::id().to_string();
        for name in [
            format!(".a.npy.{ended}.tmp"),
            format!(".b.npy.{ended}.tmp"),
            format!(".a.npy.{live}x.tmp"),
            format!(".c.npy.{live}.tmp"),
        ] {
            std::fs::write(dir.join(name), b"cut short").unwrap();
        }
        let dir_text = dir.to_string_lossy().into_owned();
        let out = OutputDir::open(&dir_text).unwrap();
        out.write("a.npy", b"whole").unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected = vec![
            format!(".a.npy.{live}x.tmp"),
            format!(".b.npy.{ended}.tmp"),
            format!(".c.npy.{live}.tmp"),
            "a.npy".to_string(),
        ];
        expected.sort();
        assert_eq!(names, expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
