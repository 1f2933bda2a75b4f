//! The compile cache on disk: what `pld-to-pto` made of a source, and the
//! machine code the JIT made of that, kept by the hash of everything that
//! decides them, so that running an unchanged program again compiles
//! nothing.
//!
//! * **Where** (`config`): [`configure`] (pld-run's `--cache-dir`,
//!   `--no-cache`), else `$PLD_CACHE_DIR`, else `$XDG_CACHE_HOME/pld` (an
//!   absolute one), else `~/.cache/pld`, else off; `PLD_NO_CACHE` (1, true,
//!   yes, on) turns it off whatever else is set. A variable with a value
//!   that means nothing is an error.
//! * **Keys**: a hash of the entry's kind, pld's version and build (the
//!   size, time and inode of the file holding this code: a rebuilt pld
//!   misses), the host (CPU model and flags: the JIT compiles for the host
//!   CPU), the optimisation level, the source's name and its text. The
//!   file name is one 64-bit hash of the key; the entry holds a second,
//!   independent one of the key, which must match too.
//! * **Entries** (`entry`): a first line with the length and hash of the
//!   rest (kind, key check, metadata lines, payload), so any change is a
//!   miss; read only from a regular file, never more than they say;
//!   written to a temporary file of the directory and renamed over the
//!   entry, so a concurrent reader sees the old entry or the new one,
//!   never a part. A miss is made again and written again.
//! * **Not writable**: a directory that cannot be made or written, an
//!   entry's name taken by a directory, an entry larger than the bound:
//!   the run makes what it needs and says why it stored nothing
//!   ([`Use::NotCached`]), for its caller to warn.
//! * **Size**: after a write, the least recently used entries (a hit
//!   touches its entry) are removed until the directory holds at most
//!   [`MAX_BYTES`] (`PLD_CACHE_MAX_BYTES` overrides).

mod config;
mod entry;

pub use config::{Choice, MAX_BYTES};
pub use entry::{Entry, MAX_ENTRY_BYTES};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What kind of thing an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The module `pld-to-pto` made of a source, as text.
    Lowered,
    /// The object file the JIT compiled a lowered module into.
    Object,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Lowered => "lowered",
            Kind::Object => "object",
        }
    }
}

/// Why the cache is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Off {
    /// The embedding program turned it off (pld-run's `--no-cache`), or
    /// made the thing without asking the cache.
    Asked,
    /// `PLD_NO_CACHE`.
    Environment,
    /// No directory: neither `PLD_CACHE_DIR`, an absolute
    /// `XDG_CACHE_HOME` nor `HOME` is set.
    NoDirectory,
    /// Objects are not loaded back on this CPU architecture
    /// (`pld_ir::orc::ObjectJit::available`).
    Unsupported,
}

/// What the cache did for one thing a run needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Use {
    /// The cache is off: made.
    Off(Off),
    /// Read from the cache.
    Read,
    /// Not in the cache (or not usable): made, and stored.
    Made,
    /// Made, and not stored, for the reason given (the cache cannot be
    /// written).
    NotCached(String),
    /// Nothing to make: the input is converted already (no lowering).
    NotNeeded,
}

impl std::fmt::Display for Use {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Use::Off(Off::Asked) => f.write_str("made (cache off: --no-cache)"),
            Use::Off(Off::Environment) => f.write_str("made (cache off: PLD_NO_CACHE)"),
            Use::Off(Off::NoDirectory) => f.write_str(
                "made (cache off: neither PLD_CACHE_DIR, an absolute XDG_CACHE_HOME nor HOME is set)",
            ),
            Use::Off(Off::Unsupported) => {
                f.write_str("made (cache off: objects are not loaded back on this CPU)")
            }
            Use::Read => f.write_str("read from the cache"),
            Use::Made => f.write_str("made and cached"),
            Use::NotCached(reason) => write!(f, "made, not cached: {reason}"),
            Use::NotNeeded => f.write_str("not needed"),
        }
    }
}

/// What the cache did for a run: for the lowered module and for its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uses {
    pub lowered: Use,
    pub code: Use,
}

impl Uses {
    /// Why the cache could not keep what this run made, once (the first
    /// reason), for the caller to warn with.
    pub fn warning(&self) -> Option<String> {
        [&self.lowered, &self.code]
            .into_iter()
            .find_map(|u| match u {
                Use::NotCached(reason) => Some(format!(
                    "the compile cache cannot keep what this run made: {reason}"
                )),
                Use::Off(_) | Use::Read | Use::Made | Use::NotNeeded => None,
            })
    }
}

impl std::fmt::Display for Uses {
    /// `lowered module <use>, code <use>` (`no lowering needed, code
    /// <use>` for a converted input).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The cache off, or unwritable, for both: its reason once.
        if matches!(self.lowered, Use::Off(_) | Use::NotCached(_)) && self.lowered == self.code {
            return write!(f, "lowered module and code {}", self.code);
        }
        match &self.lowered {
            Use::NotNeeded => f.write_str("no lowering needed")?,
            lowered @ (Use::Off(_) | Use::Read | Use::Made | Use::NotCached(_)) => {
                write!(f, "lowered module {lowered}")?
            }
        }
        write!(f, ", code {}", self.code)
    }
}

/// Where the cache is and how large it may grow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
    max_bytes: u64,
}

/// The cache of this process: on, or off and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    On(Cache),
    Off(Off),
}

/// The cache as configured, or the environment's error. Unset until the
/// first use or [`configure`].
static PLACE: Mutex<Option<Result<Place, String>>> = Mutex::new(None);

/// Reads the environment now and sets the cache for the rest of the
/// process as `choice` and the environment say; an environment variable
/// with a value that means nothing is an error.
pub fn configure(choice: Choice) -> Result<(), String> {
    let place = config::resolve(&choice, |name| std::env::var(name).ok());
    *PLACE.lock().unwrap_or_else(|e| e.into_inner()) = Some(place.clone());
    place.map(|_| ())
}

/// The cache in use (from the environment unless [`configure`]d).
pub fn place() -> Result<Place, String> {
    let mut place = PLACE.lock().unwrap_or_else(|e| e.into_inner());
    place
        .get_or_insert_with(|| config::resolve(&Choice::Default, |name| std::env::var(name).ok()))
        .clone()
}

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SipHash of `bytes` with fixed keys (std's `DefaultHasher::new`).
fn sip(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    hasher.write(bytes);
    hasher.finish()
}

/// The key of an entry of `kind` for `parts` (the source's name and text,
/// say): everything else that decides its content is added here.
pub fn key(kind: Kind, parts: &[&str]) -> Vec<u8> {
    let mut key = Vec::new();
    for part in [kind.name(), env!("CARGO_PKG_VERSION"), build(), host()]
        .iter()
        .chain(parts)
    {
        key.extend_from_slice(&(part.len() as u64).to_le_bytes());
        key.extend_from_slice(part.as_bytes());
    }
    key
}

/// The build of pld this code is part of: the size, modification time and
/// inode of the file (executable or shared library) that holds it.
fn build() -> &'static str {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD.get_or_init(|| {
        let file = own_file().unwrap_or_default();
        let meta = std::fs::metadata(&file);
        let stamp = meta.as_ref().map_or(String::new(), |m| {
            use std::os::unix::fs::MetadataExt;
            format!("{} {} {} {}", m.len(), m.mtime(), m.mtime_nsec(), m.ino())
        });
        format!("{} {stamp}", file.display())
    })
}

/// The file this code was loaded from.
fn own_file() -> Option<PathBuf> {
    // SAFETY: `Dl_info` is plain data (pointers and integers), for which
    // all zeros is a valid value.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let address = own_file as *const () as *const libc::c_void;
    // SAFETY: `dladdr` fills `info` for an address of this process (a
    // function of this crate); `dli_fname` is then a NUL-terminated path
    // owned by the loader, copied at once.
    let found = unsafe { libc::dladdr(address, &mut info) } != 0 && !info.dli_fname.is_null();
    // SAFETY: see above.
    found.then(|| {
        resolved(PathBuf::from(
            unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }
                .to_string_lossy()
                .into_owned(),
        ))
    })
}

/// The file the loader's name for an object means. The loader names the
/// program as it was started (its `argv[0]`): a bare `pld-run` was found
/// on PATH, and is not a file of the working directory, so every build
/// run that way had the same stamp (and read another build's entries).
fn resolved(named: PathBuf) -> PathBuf {
    if named.components().count() == 1 {
        return std::env::current_exe().unwrap_or(named);
    }
    std::fs::canonicalize(&named).unwrap_or(named)
}

/// The host the JIT compiles for: the CPU's model and flags.
fn host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            info.lines()
                .find(|l| l.starts_with(name))
                .map_or("", |l| l.split_once(':').map_or("", |(_, v)| v.trim()))
                .to_string()
        };
        format!(
            "{} {} {} {}",
            std::env::consts::ARCH,
            field("model name"),
            field("flags"),
            field("Features")
        )
    })
}

/// The entry's path for `key`.
fn path_of(dir: &Path, kind: Kind, key: &[u8]) -> PathBuf {
    dir.join(format!("{:016x}.{}", sip(key), kind.name()))
}

impl Cache {
    /// The entry of `kind` for `key`, if the cache holds an intact one (a
    /// hit marks it as used).
    pub fn load(&self, kind: Kind, key: &[u8]) -> Option<Entry> {
        entry::read(&path_of(&self.dir, kind, key), kind, key)
    }

    /// A writer of the entry of `kind` for `key`, or why the cache cannot
    /// take it: its directory cannot be made, its entry's name is a
    /// directory, no file can be made in it.
    pub fn writer(&self, kind: Kind, key: &[u8]) -> Result<Writer<'_>, String> {
        let dir = &self.dir;
        if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
            return Err(format!("'{}' is not a directory", dir.display()));
        }
        if let Err(e) = std::fs::create_dir_all(dir) {
            return Err(format!(
                "cannot make the directory '{}': {e}",
                dir.display()
            ));
        }
        let path = path_of(dir, kind, key);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            return Err(format!("its entry '{}' is a directory", path.display()));
        }
        let scratch = Temporary::create_in(dir)
            .map_err(|e| format!("cannot write a file in '{}': {e}", dir.display()))?;
        Ok(Writer {
            cache: self,
            kind,
            key: key.to_vec(),
            path,
            scratch,
        })
    }
}

/// The one entry a run may store, with a file of its own in the cache
/// directory (made at once, so the directory is known to be writable).
pub struct Writer<'a> {
    cache: &'a Cache,
    kind: Kind,
    key: Vec<u8>,
    path: PathBuf,
    scratch: Temporary,
}

impl Writer<'_> {
    /// A file of this writer that the caller may fill and read back first
    /// (the JIT dumps its object there); [`Writer::store`] overwrites it.
    pub fn scratch(&self) -> &Path {
        &self.scratch.0
    }

    /// Stores `entry`, then keeps the directory within its bound; what
    /// the cache did ([`Use::Made`], or [`Use::NotCached`] and why).
    pub fn store(self, entry: &Entry) -> Use {
        let bytes = entry::render(self.kind, &self.key, entry);
        let limit = self.cache.max_bytes;
        if entry.meta.iter().any(|l| l.contains('\n')) {
            return Use::NotCached("a metadata line holds a line break".into());
        }
        if bytes.len() as u64 > limit {
            return Use::NotCached(format!(
                "the entry's {} bytes exceed the cache's bound of {} (PLD_CACHE_MAX_BYTES)",
                bytes.len(),
                pld_ir::diag::count(limit, "byte")
            ));
        }
        let scratch = &self.scratch.0;
        if let Err(e) = std::fs::write(scratch, &bytes) {
            return Use::NotCached(format!("cannot write '{}': {e}", scratch.display()));
        }
        if let Err(e) = std::fs::rename(scratch, &self.path) {
            return Use::NotCached(format!(
                "cannot rename '{}' to '{}': {e}",
                scratch.display(),
                self.path.display()
            ));
        }
        evict(&self.cache.dir, limit);
        Use::Made
    }
}

/// A file being written, removed when dropped unless renamed away.
struct Temporary(PathBuf);

impl Temporary {
    /// A new, empty file in `dir` that no other process or thread uses.
    fn create_in(dir: &Path) -> std::io::Result<Temporary> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!(
            ".tmp-{}-{n}-{:x}",
            std::process::id(),
            sip(build().as_bytes())
        );
        let path = dir.join(name);
        std::fs::File::create_new(&path)?;
        Ok(Temporary(path))
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Whether the temporary file `name` (`.tmp-<pid>-...`) is left behind: its
/// writer's process has ended (Ctrl-C during a compile ends the process
/// without running destructors), or it is older than an hour (a process
/// id used again since).
fn left_behind(name: &str, age: std::time::Duration) -> bool {
    let pid = name.strip_prefix(".tmp-").and_then(|r| r.split('-').next());
    let ended = pid.is_some_and(|pid| !Path::new("/proc").join(pid).exists());
    ended || age.as_secs() > 3600
}

/// Removes the least recently used entries of `dir` until the rest hold
/// at most `limit` bytes (temporary files left behind by a process that
/// ended, or older than an hour, go too).
pub fn evict(dir: &Path, limit: u64) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries = Vec::new();
    let now = std::time::SystemTime::now();
    for item in read.flatten() {
        let Ok(meta) = item.metadata() else { continue };
        let name = item.file_name().to_string_lossy().into_owned();
        let used = meta.modified().unwrap_or(now);
        if name.starts_with(".tmp-") {
            if left_behind(&name, now.duration_since(used).unwrap_or_default()) {
                let _ = std::fs::remove_file(item.path());
            }
            continue;
        }
        let entry = name.ends_with(".lowered") || name.ends_with(".object");
        if entry && meta.is_file() {
            entries.push((used, meta.len(), item.path()));
        }
    }
    let mut total: u64 = entries.iter().map(|e| e.1).sum();
    entries.sort();
    for (_, bytes, path) in entries {
        if total <= limit {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program started through PATH is named by its bare name; its build
    /// is its executable's (two builds run as `pld-run` shared one key).
    #[test]
    fn a_program_found_on_path_is_its_executable() {
        let exe = std::env::current_exe().unwrap();
        assert_eq!(resolved(PathBuf::from("pld-run")), exe);
        assert_eq!(resolved(exe.clone()), std::fs::canonicalize(&exe).unwrap());
        assert!(own_file().is_some_and(|f| f.is_absolute()));
    }

    #[test]
    fn a_temporary_file_of_an_ended_process_is_left_behind() {
        // trust26 L1: Ctrl-C during a compile left `.tmp-<pid>-...` in the
        // cache for an hour.
        let minute = std::time::Duration::from_secs(60);
        let mine = format!(".tmp-{}-0-ab", std::process::id());
        assert!(!left_behind(&mine, minute));
        assert!(left_behind(&mine, minute * 61));
        // No process has an id past the kernel's limit (2^22).
        assert!(left_behind(".tmp-99999999-0-ab", minute));
    }

    fn entry() -> Entry {
        Entry {
            meta: vec!["kernels a b".into(), "site pto.tload\tf.mlir:1:2".into()],
            payload: b"\x7fELF and some bytes\n\n".to_vec(),
        }
    }

    /// A fresh directory of this test, and a cache in it.
    fn scratch(name: &str, max_bytes: u64) -> (PathBuf, Cache) {
        let dir = std::env::temp_dir().join(format!("pld-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let cache = Cache {
            dir: dir.join("c"),
            max_bytes,
        };
        (dir, cache)
    }

    #[test]
    fn an_entry_reads_back_as_written_and_a_damaged_one_does_not() {
        let key = key(Kind::Object, &["f.mlir", "module {}"]);
        let bytes = entry::render(Kind::Object, &key, &entry());
        let parse = entry::parse_all;
        assert_eq!(parse(&bytes, Kind::Object, &key), Some(entry()));
        // Truncated anywhere, one byte changed anywhere (the metadata's
        // locations too), another key or kind: a miss.
        for cut in 0..bytes.len() {
            assert_eq!(
                parse(&bytes[..cut], Kind::Object, &key),
                None,
                "cut at {cut}"
            );
        }
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x20;
            assert_eq!(parse(&bad, Kind::Object, &key), None, "flip at {at}");
        }
        let other = super::key(Kind::Object, &["f.mlir", "module { }"]);
        assert_eq!(parse(&bytes, Kind::Object, &other), None);
        assert_eq!(parse(&bytes, Kind::Lowered, &key), None);
    }

    #[test]
    fn an_altered_location_in_the_metadata_is_a_miss_and_is_rewritten() {
        let (dir, cache) = scratch("meta", MAX_BYTES);
        let key = key(Kind::Object, &["f.mlir", "x"]);
        let stored = cache.writer(Kind::Object, &key).unwrap().store(&entry());
        assert_eq!(stored, Use::Made);
        let path = path_of(&cache.dir, Kind::Object, &key);
        let text = std::fs::read(&path).unwrap();
        let altered = String::from_utf8_lossy(&text).replace("f.mlir:1:2", "f.mlir:9:99");
        std::fs::write(&path, altered).unwrap();
        let after_edit = cache.load(Kind::Object, &key);
        let rewritten = cache.writer(Kind::Object, &key).unwrap().store(&entry());
        let reread = cache.load(Kind::Object, &key);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(after_edit, None);
        assert_eq!((rewritten, reread), (Use::Made, Some(entry())));
    }

    #[test]
    fn an_entry_that_is_no_regular_file_is_a_miss_at_once_and_is_replaced() {
        let (dir, cache) = scratch("special", MAX_BYTES);
        std::fs::create_dir_all(&cache.dir).unwrap();
        let fifo = key(Kind::Object, &["fifo"]);
        let zero = key(Kind::Object, &["zero"]);
        let fifo_path = path_of(&cache.dir, Kind::Object, &fifo);
        let c_path = std::ffi::CString::new(fifo_path.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path; mkfifo reads it only.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0);
        std::os::unix::fs::symlink("/dev/zero", path_of(&cache.dir, Kind::Object, &zero)).unwrap();
        // Neither blocks nor reads without end.
        let loaded = (
            cache.load(Kind::Object, &fifo),
            cache.load(Kind::Object, &zero),
        );
        let stored = [&fifo, &zero].map(|k| cache.writer(Kind::Object, k).unwrap().store(&entry()));
        let reread = [&fifo, &zero].map(|k| cache.load(Kind::Object, k));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(loaded, (None, None));
        assert_eq!(stored, [Use::Made, Use::Made]);
        assert_eq!(reread, [Some(entry()), Some(entry())]);
    }

    #[test]
    fn an_entry_longer_than_its_first_line_says_is_a_miss() {
        let (dir, cache) = scratch("long", MAX_BYTES);
        let key = key(Kind::Lowered, &["x"]);
        cache.writer(Kind::Lowered, &key).unwrap().store(&entry());
        let path = path_of(&cache.dir, Kind::Lowered, &key);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(b"more");
        std::fs::write(&path, &bytes).unwrap();
        let loaded = cache.load(Kind::Lowered, &key);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(loaded, None);
    }

    #[test]
    fn a_cache_that_cannot_be_written_says_why() {
        let (dir, _) = scratch("unwritable", MAX_BYTES);
        let key = key(Kind::Object, &["x"]);
        let file = dir.join("afile");
        std::fs::write(&file, "precious").unwrap();
        let under_a_file = Cache {
            dir: file.join("sub"),
            max_bytes: MAX_BYTES,
        };
        let reason = under_a_file.writer(Kind::Object, &key).err().unwrap();
        assert!(
            reason.starts_with("cannot make the directory '"),
            "{reason}"
        );
        let a_file = Cache {
            dir: file.clone(),
            max_bytes: MAX_BYTES,
        };
        let reason = a_file.writer(Kind::Object, &key).err().unwrap();
        assert!(reason.ends_with("afile' is not a directory"), "{reason}");
        // The entry's name is a directory.
        let (dir_dir, cache) = scratch("unwritable-dir", MAX_BYTES);
        std::fs::create_dir_all(path_of(&cache.dir, Kind::Object, &key)).unwrap();
        let reason = cache.writer(Kind::Object, &key).err().unwrap();
        assert!(reason.ends_with(".object' is a directory"), "{reason}");
        // A bound smaller than the entry: nothing is written.
        let (small_dir, small) = scratch("unwritable-small", 0);
        let stored = small.writer(Kind::Object, &key).unwrap().store(&entry());
        let left = std::fs::read_dir(&small.dir).unwrap().count();
        let precious = std::fs::read_to_string(&file).unwrap();
        for d in [&dir, &dir_dir, &small_dir] {
            let _ = std::fs::remove_dir_all(d);
        }
        let Use::NotCached(reason) = stored else {
            panic!("{stored:?}")
        };
        assert!(reason.contains("bound of 0 bytes"), "{reason}");
        assert_eq!((left, precious.as_str()), (0, "precious"));
    }

    #[test]
    fn the_summary_says_what_is_true() {
        let uses = |lowered, code| Uses { lowered, code }.to_string();
        assert_eq!(
            uses(Use::NotNeeded, Use::Read),
            "no lowering needed, code read from the cache"
        );
        // The cache off for both: its reason once.
        assert_eq!(
            uses(Use::Off(Off::Environment), Use::Off(Off::Environment)),
            "lowered module and code made (cache off: PLD_NO_CACHE)"
        );
        assert_eq!(
            uses(Use::Off(Off::Environment), Use::Read),
            "lowered module made (cache off: PLD_NO_CACHE), code read from the cache"
        );
        assert_eq!(
            uses(Use::NotCached("why".into()), Use::NotCached("why".into())),
            "lowered module and code made, not cached: why"
        );
        let failed = Uses {
            lowered: Use::NotCached("why".into()),
            code: Use::NotCached("other".into()),
        };
        assert_eq!(
            failed.to_string(),
            "lowered module made, not cached: why, code made, not cached: other"
        );
        assert_eq!(
            failed.warning().as_deref(),
            Some("the compile cache cannot keep what this run made: why")
        );
        assert_eq!(
            Uses {
                lowered: Use::Made,
                code: Use::Read
            }
            .warning(),
            None
        );
    }

    #[test]
    fn keys_differ_in_every_part() {
        let a = key(Kind::Lowered, &["f.mlir", "x"]);
        assert_ne!(a, key(Kind::Object, &["f.mlir", "x"]));
        assert_ne!(a, key(Kind::Lowered, &["g.mlir", "x"]));
        assert_ne!(a, key(Kind::Lowered, &["f.mlir", "y"]));
        // Lengths keep the parts apart.
        assert_ne!(
            key(Kind::Lowered, &["ab", "c"]),
            key(Kind::Lowered, &["a", "bc"])
        );
    }

    #[test]
    fn eviction_removes_the_least_recently_used_first() {
        let dir = std::env::temp_dir().join(format!("pld-cache-evict-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let base = std::time::SystemTime::now() - std::time::Duration::from_secs(100);
        for (i, name) in ["old.object", "mid.lowered", "new.object"]
            .iter()
            .enumerate()
        {
            let path = dir.join(name);
            std::fs::write(&path, vec![0u8; 1000]).unwrap();
            let file = std::fs::File::options().append(true).open(&path).unwrap();
            file.set_modified(base + std::time::Duration::from_secs(10 * i as u64))
                .unwrap();
        }
        std::fs::write(dir.join("unrelated.txt"), vec![0u8; 5000]).unwrap();
        evict(&dir, 2000);
        let left: Vec<bool> = ["old.object", "mid.lowered", "new.object", "unrelated.txt"]
            .iter()
            .map(|n| dir.join(n).exists())
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(left, [false, true, true, true]);
    }
}
