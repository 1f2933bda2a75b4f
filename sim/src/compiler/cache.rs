//! The compile cache on disk: what `pld-to-pto` made of a source, and the
//! machine code the JIT made of that, kept by the hash of everything that
//! decides them, so that running an unchanged program again compiles
//! nothing.
//!
//! * **Where**: `$PLD_CACHE_DIR`, else `$XDG_CACHE_HOME/pld`, else
//!   `~/.cache/pld`; [`configure`] (pld-run's `--cache-dir`, `--no-cache`)
//!   overrides it, and `PLD_NO_CACHE` (any value but `0`) turns it off.
//! * **Keys**: a hash of the entry's kind, pld's version and build (the
//!   size, time and inode of the file holding this code: a rebuilt pld
//!   misses), the host (CPU model and flags: the JIT compiles for the host
//!   CPU), the optimisation level, the source's name and its text. The
//!   file name is one 64-bit hash of the key; the entry holds a second,
//!   independent one of the key, which must match too.
//! * **Entries**: a text header (kind, key check, metadata lines, payload
//!   length and hash) and the payload; written to a temporary file of the
//!   directory and renamed over the entry, so a concurrent reader sees the
//!   old entry or the new one, never a part. An entry that does not parse,
//!   is short, or whose payload hash differs is a miss (and is written
//!   again).
//! * **Size**: after a write, the least recently used entries (a hit
//!   touches its entry) are removed until the directory holds at most
//!   [`MAX_BYTES`] (`PLD_CACHE_MAX_BYTES` overrides).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The default bound on the bytes of the cache directory's entries.
pub const MAX_BYTES: u64 = 256 << 20;

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

/// What the cache did for one thing a run needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// The cache is off: made.
    Off,
    /// Read from the cache.
    Read,
    /// Not in the cache (or not usable): made, and stored.
    Made,
}

impl std::fmt::Display for Use {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Use::Off => "made (cache off)",
            Use::Read => "read from the cache",
            Use::Made => "made and cached",
        })
    }
}

/// An entry read back: its metadata lines and its payload.
#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    pub meta: Vec<String>,
    pub payload: Vec<u8>,
}

/// Where the cache is, as configured (`None`: off). Unset until the first
/// use or [`configure`].
static DIR: Mutex<Option<Option<PathBuf>>> = Mutex::new(None);

/// Sets the cache directory (`Some`) or turns the cache off (`None`) for
/// the rest of the process, over the environment.
pub fn configure(dir: Option<PathBuf>) {
    *DIR.lock().unwrap_or_else(|e| e.into_inner()) = Some(dir);
}

/// The cache directory in use, if the cache is on.
pub fn dir() -> Option<PathBuf> {
    let mut dir = DIR.lock().unwrap_or_else(|e| e.into_inner());
    dir.get_or_insert_with(from_environment).clone()
}

/// The directory the environment names, if the cache is on.
fn from_environment() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if set("PLD_NO_CACHE").is_some_and(|v| v != "0") {
        return None;
    }
    if let Some(dir) = set("PLD_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(xdg) = set("XDG_CACHE_HOME") {
        return Some(PathBuf::from(xdg).join("pld"));
    }
    set("HOME").map(|home| PathBuf::from(home).join(".cache").join("pld"))
}

/// The bound on the directory's size.
fn max_bytes() -> u64 {
    std::env::var("PLD_CACHE_MAX_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MAX_BYTES)
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
        PathBuf::from(
            unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }
                .to_string_lossy()
                .into_owned(),
        )
    })
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

/// The entry of `kind` for `key`, if the cache is on and holds an intact
/// one (a hit marks it as used).
pub fn load(kind: Kind, key: &[u8]) -> Option<Entry> {
    let dir = dir()?;
    let path = path_of(&dir, kind, key);
    let bytes = std::fs::read(&path).ok()?;
    let entry = parse(&bytes, kind, key)?;
    // Used now: the last to be evicted.
    if let Ok(file) = std::fs::File::options().append(true).open(&path) {
        let _ = file.set_modified(std::time::SystemTime::now());
    }
    Some(entry)
}

/// An entry's bytes, checked against its kind, its key and its payload's
/// length and hash.
fn parse(bytes: &[u8], kind: Kind, key: &[u8]) -> Option<Entry> {
    let mut rest = bytes;
    let mut line = || -> Option<&str> {
        let end = rest.iter().position(|&b| b == b'\n')?;
        let text = std::str::from_utf8(&rest[..end]).ok()?;
        rest = &rest[end + 1..];
        Some(text)
    };
    if line()? != "pld-cache 1" || line()? != format!("kind {}", kind.name()) {
        return None;
    }
    if line()? != format!("key {:016x}", fnv(key)) {
        return None;
    }
    let count: usize = line()?.strip_prefix("meta ")?.parse().ok()?;
    let meta = (0..count)
        .map(|_| line().map(str::to_string))
        .collect::<Option<Vec<_>>>()?;
    let (length, hash) = line()?.strip_prefix("payload ")?.split_once(' ')?;
    let length: usize = length.parse().ok()?;
    let payload = rest;
    if payload.len() != length || format!("{:016x}", fnv(payload)) != hash {
        return None;
    }
    Some(Entry {
        meta,
        payload: payload.to_vec(),
    })
}

/// The bytes of an entry.
fn render(kind: Kind, key: &[u8], entry: &Entry) -> Vec<u8> {
    let mut bytes = format!(
        "pld-cache 1\nkind {}\nkey {:016x}\nmeta {}\n",
        kind.name(),
        fnv(key),
        entry.meta.len()
    )
    .into_bytes();
    for line in &entry.meta {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(
        format!(
            "payload {} {:016x}\n",
            entry.payload.len(),
            fnv(&entry.payload)
        )
        .as_bytes(),
    );
    bytes.extend_from_slice(&entry.payload);
    bytes
}

/// Stores `entry` for `key` (when the cache is on); then keeps the
/// directory within its bound. Failing to write is not an error of the
/// run: the entry is simply not there next time.
pub fn store(kind: Kind, key: &[u8], entry: &Entry) {
    if entry.meta.iter().any(|l| l.contains('\n')) {
        return;
    }
    let Some(dir) = dir() else { return };
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let path = path_of(&dir, kind, key);
    let Some(temporary) = temporary_in(&dir) else {
        return;
    };
    let written = std::fs::File::create(&temporary.0)
        .and_then(|mut f| f.write_all(&render(kind, key, entry)))
        .and_then(|()| std::fs::rename(&temporary.0, &path));
    if written.is_ok() {
        evict(&dir, max_bytes());
    }
}

/// A fresh path in `dir` for a file being written, removed when dropped
/// unless renamed away.
pub struct Temporary(pub PathBuf);

impl Drop for Temporary {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A temporary path in `dir` no other process or thread uses.
pub fn temporary_in(dir: &Path) -> Option<Temporary> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!(
        ".tmp-{}-{n}-{:x}",
        std::process::id(),
        sip(build().as_bytes())
    );
    std::fs::create_dir_all(dir).ok()?;
    Some(Temporary(dir.join(name)))
}

/// Removes the least recently used entries of `dir` until the rest hold
/// at most `limit` bytes (temporary files of a crashed writer older than
/// an hour go too).
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
            if now.duration_since(used).unwrap_or_default().as_secs() > 3600 {
                let _ = std::fs::remove_file(item.path());
            }
            continue;
        }
        if name.ends_with(".lowered") || name.ends_with(".object") {
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

    fn entry() -> Entry {
        Entry {
            meta: vec!["kernels a b".into(), "site pto.tload\tf.mlir:1:2".into()],
            payload: b"\x7fELF and some bytes\n\n".to_vec(),
        }
    }

    #[test]
    fn an_entry_reads_back_as_written_and_a_damaged_one_does_not() {
        let key = key(Kind::Object, &["f.mlir", "module {}"]);
        let bytes = render(Kind::Object, &key, &entry());
        assert_eq!(parse(&bytes, Kind::Object, &key), Some(entry()));
        // Truncated anywhere, one byte changed anywhere, another key or
        // kind: a miss.
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
            assert_ne!(
                parse(&bad, Kind::Object, &key),
                Some(entry()),
                "flip at {at}"
            );
        }
        let other = super::key(Kind::Object, &["f.mlir", "module { }"]);
        assert_eq!(parse(&bytes, Kind::Object, &other), None);
        assert_eq!(parse(&bytes, Kind::Lowered, &key), None);
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
