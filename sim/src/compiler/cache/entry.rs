//! An entry's bytes: a first line `pld-cache 2 <length> <hash>` (the
//! length and FNV-1a hash of everything after it), then the kind, the key
//! check, the metadata lines, the payload's length and the payload. The
//! hash covers the whole entry after its first line, so a change anywhere
//! (a location in the metadata included) makes it a miss.

use super::{fnv, Kind};
use std::io::{BufRead, Read};
use std::path::Path;

/// An entry read back: its metadata lines and its payload.
#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    pub meta: Vec<String>,
    pub payload: Vec<u8>,
}

/// The most bytes an entry may have: a longer one is damaged (an entry of
/// a small program is tens of KiB).
pub const MAX_ENTRY_BYTES: u64 = 1 << 30;

/// The first line's length is at most this.
const MAX_FIRST_LINE: u64 = 64;

const MAGIC: &str = "pld-cache 2";

/// The bytes of an entry.
pub(super) fn render(kind: Kind, key: &[u8], entry: &Entry) -> Vec<u8> {
    let mut body = format!(
        "kind {}\nkey {:016x}\nmeta {}\n",
        kind.name(),
        fnv(key),
        entry.meta.len()
    )
    .into_bytes();
    for line in &entry.meta {
        body.extend_from_slice(line.as_bytes());
        body.push(b'\n');
    }
    body.extend_from_slice(format!("payload {}\n", entry.payload.len()).as_bytes());
    body.extend_from_slice(&entry.payload);
    let mut bytes = format!("{MAGIC} {} {:016x}\n", body.len(), fnv(&body)).into_bytes();
    bytes.extend_from_slice(&body);
    bytes
}

/// The entry at `path`, if it is a regular file holding an intact entry
/// of `kind` for `key`. Never blocks (a FIFO is opened without waiting
/// for a writer, then refused) and reads no more than the first line says
/// (and [`MAX_ENTRY_BYTES`]). A hit marks the entry as used.
pub(super) fn read(path: &Path, kind: Kind, key: &[u8]) -> Option<Entry> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_ENTRY_BYTES {
        return None;
    }
    let mut reader = std::io::BufReader::new(&file);
    let mut first = Vec::new();
    (&mut reader)
        .take(MAX_FIRST_LINE)
        .read_until(b'\n', &mut first)
        .ok()?;
    let (length, hash) = first_line(&first)?;
    if length > MAX_ENTRY_BYTES || first.len() as u64 + length != meta.len() {
        return None;
    }
    let mut body = Vec::with_capacity(length as usize);
    (&mut reader).take(length).read_to_end(&mut body).ok()?;
    if body.len() as u64 != length || fnv(&body) != hash {
        return None;
    }
    let entry = parse(&body, kind, key)?;
    // Used now: the last to be evicted.
    let _ = file.set_modified(std::time::SystemTime::now());
    Some(entry)
}

/// The length and hash the first line states.
fn first_line(line: &[u8]) -> Option<(u64, u64)> {
    let line = std::str::from_utf8(line.strip_suffix(b"\n")?).ok()?;
    let (length, hash) = line
        .strip_prefix(MAGIC)?
        .strip_prefix(' ')?
        .split_once(' ')?;
    // Written as render writes them: decimal, and lower-case hex.
    let digits = |text: &str, radix: u32| {
        text.bytes()
            .all(|b| b.is_ascii_digit() || (radix == 16 && (b'a'..=b'f').contains(&b)))
            .then(|| u64::from_str_radix(text, radix).ok())
            .flatten()
    };
    Some((digits(length, 10)?, digits(hash, 16)?))
}

/// The bytes of an entry, checked as [`read`] does.
#[cfg(test)]
pub(super) fn parse_all(bytes: &[u8], kind: Kind, key: &[u8]) -> Option<Entry> {
    let end = bytes.iter().position(|&b| b == b'\n')? + 1;
    let (length, hash) = first_line(&bytes[..end])?;
    let body = &bytes[end..];
    (body.len() as u64 == length && fnv(body) == hash)
        .then(|| parse(body, kind, key))
        .flatten()
}

/// An entry's body (after the first line), checked against its kind, its
/// key and its payload's length.
fn parse(body: &[u8], kind: Kind, key: &[u8]) -> Option<Entry> {
    let mut rest = body;
    let mut line = || -> Option<&str> {
        let end = rest.iter().position(|&b| b == b'\n')?;
        let text = std::str::from_utf8(&rest[..end]).ok()?;
        rest = &rest[end + 1..];
        Some(text)
    };
    if line()? != format!("kind {}", kind.name()) {
        return None;
    }
    if line()? != format!("key {:016x}", fnv(key)) {
        return None;
    }
    let count: usize = line()?.strip_prefix("meta ")?.parse().ok()?;
    if count > body.len() {
        return None;
    }
    let meta = (0..count)
        .map(|_| line().map(str::to_string))
        .collect::<Option<Vec<_>>>()?;
    let length: usize = line()?.strip_prefix("payload ")?.parse().ok()?;
    (rest.len() == length).then(|| Entry {
        meta,
        payload: rest.to_vec(),
    })
}
