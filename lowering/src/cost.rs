//! The alpha-beta cost model of the allreduce schedules (docs/algorithms.md):
//! a call of a schedule costs
//!
//! ```text
//! time = overhead + f * ((alpha + alpha_peer * (P-1) * f) * barriers
//!                         + beta * (bytes read - shared) + beta_shared * shared
//!                         + gamma * bytes reduced + delta * tiles moved
//!                         + beta_local * bytes moved locally)
//! ```
//!
//! per rank, with the counts of the schedule as pld emits it ([`Shape::counts`]:
//! `shared` is the part of the bytes read that the other readers of the
//! same bytes read in the same step, the mesh's) and `f = max(1, P / cores)`
//! when only `cores` ranks run at once (the simulator's threads on a CPU;
//! absent for hardware, where every rank has its own cores); the call's
//! overhead is paid once, not per rank, so f does not stretch it. The parameters
//! come from a small TOML file, one table per target, or from
//! [`CostModel::SIMULATOR`]; `alpha_peer` (default 0), `beta_shared`
//! (default `beta`), `beta_memory` (default 0, added to `beta` for the
//! bytes read alone when the call's windows, P x N bytes, exceed `cache`),
//! `cache` (default none), `delta` (default 0, seconds per tile moved) and
//! `beta_local` (default 0, seconds per byte a rank loads from or stores
//! to its own window) are optional, so a file of the first format reads as
//! it did.

use pld_dialect::enums::AllReduceMode;
use std::fmt;

/// Chunk of the composite mesh: 16 KiB (docs/passes/pld-lower-composite-ops.md).
const COMPOSITE_CHUNK_BYTES: i128 = 16 * 1024;
/// A builtin kernel's tile: 256 elements (docs/builtins.md).
const BUILTIN_TILE_ELEMS: i128 = 256;

/// The parameters of one target, in seconds and seconds per byte.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostModel {
    /// One barrier: a notify to every peer and the waits for theirs.
    pub alpha: f64,
    /// One barrier, per peer (times the contention factor when ranks share
    /// cores): what a barrier costs more with every rank.
    pub alpha_peer: f64,
    /// One byte read from a peer's window.
    pub beta: f64,
    /// One byte read that the other readers of the same bytes read in the
    /// same step (`None`: `beta`).
    pub beta_shared: Option<f64>,
    /// One byte folded into an accumulator.
    pub gamma: f64,
    /// A call, whatever it moves: launch, set-up, epilogue.
    pub overhead: f64,
    /// Ranks that run at the same time (`None`: all of them).
    pub cores: Option<f64>,
    /// One byte read alone (not shared), on top of `beta`, in a call whose
    /// windows (P x N bytes) outgrow `cache`: it comes from memory.
    pub beta_memory: f64,
    /// Bytes of windows a call may have and still read from the cache
    /// (`None`: no such limit, `beta_memory` unused).
    pub cache: Option<f64>,
    /// Predicted times closer than this fraction of the fastest are a tie
    /// ([`choose`]; `None`: [`DEFAULT_TIE`]).
    pub tie: Option<f64>,
    /// One tile moved (a local load, a remote load or a store), whatever
    /// its bytes: a device call's own cost, which the per-byte terms miss
    /// for small tiles.
    pub delta: f64,
    /// One byte a rank loads from or stores to its own window (its own
    /// data's loads, every store), which `beta` (peers' bytes) does not
    /// see: the schedules move different amounts of them.
    pub beta_local: f64,
}

impl CostModel {
    /// The defaults for the simulator: `pld-bench algorithms` calibrating
    /// itself (release build, the fastest of up to 200 runs per point) on
    /// the 2-core VM of bench/README.md, quiet (load average 1.1 to 1.4),
    /// 2026-12-03 09:10 UTC, the first calibration with `beta_local` (55 ps
    /// per byte moved in the own window; rms relative error 10 %, 14 %
    /// without it, 16 % without `delta`); it fitted beta_shared at 0 (the
    /// mesh's re-read chunks come from the cache) and a cache of 32 MiB of
    /// windows (the VM's L3); a file replaces them.
    pub const SIMULATOR: CostModel = CostModel {
        alpha: 8.434e-8,
        alpha_peer: 2.013e-8,
        beta: 9.662e-12,
        beta_shared: Some(0.0),
        gamma: 4.991e-11,
        overhead: 5.970e-6,
        cores: Some(2.0),
        beta_memory: 3.608e-11,
        cache: Some(33554432.0),
        // The default, 1 %: over the recorded sweeps it chose within 10 %
        // of the best more often than half the fit's error (8 %) did
        // (bench/README.md, "`algorithms` with `delta`").
        tie: None,
        delta: 2.862e-7,
        beta_local: 5.515e-11,
    };

    /// The fraction within which predictions are a tie.
    pub fn tie(&self) -> f64 {
        self.tie.unwrap_or(DEFAULT_TIE)
    }

    /// The predicted time of one call, in seconds.
    pub fn predict(&self, counts: Counts, ranks: i64) -> f64 {
        // A file's `cores` is at least 1 (CostFile::parse).
        let contention = match self.cores {
            Some(cores) if cores > 0.0 => (ranks as f64 / cores).max(1.0),
            _ => 1.0,
        };
        // A wait for a peer that has not arrived is, when ranks share a
        // core, a switch through the other ranks of the core: f of them.
        let peers = (ranks - 1).max(0) as f64 * contention;
        let alone = (counts.read - counts.shared) as f64;
        let memory = match self.cache {
            Some(cache) if counts.windows as f64 > cache => self.beta_memory,
            _ => 0.0,
        };
        self.overhead
            + contention
                * ((self.alpha + self.alpha_peer * peers) * counts.barriers as f64
                    + (self.beta + memory) * alone
                    + self.beta_shared.unwrap_or(self.beta) * counts.shared as f64
                    + self.gamma * counts.reduced as f64
                    + self.delta * counts.tiles as f64
                    + self.beta_local * counts.local as f64)
    }
}

/// Which rail carries the call out: the counts differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rail {
    /// The InCore expansion (16 KiB chunks, one lane).
    Composite,
    /// A HOST builtin kernel on `lanes` lanes (256-element tiles).
    Builtin { lanes: i64 },
}

/// One call: the schedule's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub rail: Rail,
    /// Elements per rank.
    pub elements: i64,
    pub element_bytes: i64,
    pub ranks: i64,
}

/// What one rank does in one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub barriers: i64,
    /// Bytes read from peers.
    pub read: i64,
    /// The part of `read` that the other readers of the same bytes read in
    /// the same step: of the P-1 reads of a mesh chunk one is the first,
    /// P-2 find it where the first left it (a cache, on the simulator).
    pub shared: i64,
    /// Bytes folded into an accumulator.
    pub reduced: i64,
    /// The call's windows: P x N bytes.
    pub windows: i64,
    /// Tiles moved: local loads, remote loads and stores, one device call
    /// each.
    pub tiles: i64,
    /// Bytes loaded from or stored to the rank's own window.
    pub local: i64,
}

fn ceil_div(a: i128, b: i128) -> i128 {
    (a + b - 1) / b
}

/// A count worked out in 128 bits, as the model's `i64` (a call of some
/// 2^62 bytes on several ranks reads more than `i64` holds: its counts
/// saturate, and so does its prediction).
fn saturate(count: i128) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

impl Shape {
    /// The counts of `mode` as pld emits it (docs/algorithms.md, "What the
    /// model counts"), worked out without overflow.
    pub fn counts(&self, mode: AllReduceMode) -> Counts {
        let p = i128::from(self.ranks.max(1));
        let bytes = i128::from(self.elements) * i128::from(self.element_bytes);
        let share = ceil_div(bytes, p);
        let [barriers, read, shared, reduced, windows, tiles, local] = match mode {
            AllReduceMode::Mesh => [
                1 + self.mesh_steps(bytes),
                (p - 1) * bytes,
                (p - 2).max(0) * bytes,
                (p - 1) * bytes,
                p * bytes,
                (p + 1) * self.mesh_steps(bytes),
                // Every chunk's own load and its store.
                2 * bytes,
            ],
            AllReduceMode::TwoShot => [
                3,
                2 * (p - 1) * share,
                0,
                (p - 1) * share,
                p * bytes,
                // Shot 1: the own load, P - 1 remote loads and the store
                // per chunk of the own segment; shot 2: a remote load and
                // a store per chunk of each of the P - 1 others.
                (3 * p - 1) * self.segment_steps(self.lanes()),
                // The own segment's load and store, the P - 1 others'
                // stores.
                (p + 1) * share,
            ],
            AllReduceMode::Ring => [
                self.ring_barriers(),
                2 * (p - 1) * share,
                0,
                (p - 1) * share,
                p * bytes,
                // P - 1 reduce steps (remote load, own load, store) and
                // P - 1 gather steps (remote load, store) per subchunk.
                5 * (p - 1) * self.segment_steps(1),
                // A reduce step's own load and store, a gather step's
                // store, P - 1 steps of each.
                3 * (p - 1) * share,
            ],
        };
        Counts {
            barriers: saturate(barriers),
            read: saturate(read),
            shared: saturate(shared),
            reduced: saturate(reduced),
            windows: saturate(windows),
            tiles: saturate(tiles),
            local: saturate(local),
        }
    }

    /// The builtin's lanes (1 on the InCore rail).
    fn lanes(&self) -> i128 {
        match self.rail {
            Rail::Composite => 1,
            Rail::Builtin { lanes } => i128::from(lanes.max(1)),
        }
    }

    /// The tiles of one segment (ceil(N / P) bytes) that one lane moves in
    /// a pass over it: the ring's subchunks (composite; two-shot's chunks
    /// have their width), or the lane's share of the segment's
    /// 256-element tiles (builtin, dealt over `lanes`); at least 1.
    fn segment_steps(&self, lanes: i128) -> i128 {
        match self.rail {
            Rail::Composite => self.ring_subchunks(),
            Rail::Builtin { .. } => {
                let segment = ceil_div(i128::from(self.elements), i128::from(self.ranks.max(1)));
                ceil_div(ceil_div(segment, BUILTIN_TILE_ELEMS), lanes).max(1)
            }
        }
    }

    /// The mesh's write-after-read barriers: one per chunk (composite) or
    /// per tile of the lane (builtin), at least 1; each chunk moves P + 1
    /// tiles (its own load, P - 1 remote loads, the store).
    fn mesh_steps(&self, bytes: i128) -> i128 {
        match self.rail {
            Rail::Composite => ceil_div(bytes, COMPOSITE_CHUNK_BYTES).max(1),
            Rail::Builtin { lanes } => ceil_div(
                ceil_div(i128::from(self.elements), BUILTIN_TILE_ELEMS),
                i128::from(lanes.max(1)),
            )
            .max(1),
        }
    }

    /// The ring's barriers: composite, two per subchunk and step over
    /// 2(P-1) steps; the HOST builtin, one per row of its `[2(P-1)+1, P]`
    /// signal.
    fn ring_barriers(&self) -> i128 {
        let steps = 2 * (i128::from(self.ranks.max(1)) - 1);
        match self.rail {
            Rail::Composite => steps * 2 * self.ring_subchunks(),
            Rail::Builtin { .. } => steps + 1,
        }
    }

    /// Subchunks of the ring's longest segment (two barriers each, per
    /// step), at least 1.
    fn ring_subchunks(&self) -> i128 {
        let segment = ceil_div(i128::from(self.elements), i128::from(self.ranks.max(1)))
            * i128::from(self.element_bytes);
        ceil_div(segment, COMPOSITE_CHUNK_BYTES).max(1)
    }
}

/// A target's table in a cost-model file.
#[derive(Clone, Debug, PartialEq)]
pub struct CostFile {
    pub tables: Vec<(String, CostModel)>,
}

/// A file that is not a cost model: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostFileError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for CostFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The keys of a table, with whether each must be given.
const KEYS: [(&str, bool); 12] = [
    ("alpha", true),
    ("alpha_peer", false),
    ("beta", true),
    ("beta_shared", false),
    ("gamma", true),
    ("overhead", true),
    ("cores", false),
    ("beta_memory", false),
    ("cache", false),
    ("tie", false),
    ("delta", false),
    ("beta_local", false),
];

/// A table as read, before its keys are checked.
struct Table {
    name: String,
    entries: Vec<(String, f64)>,
    line: usize,
}

impl CostFile {
    /// Parses the TOML subset of docs/algorithms.md: `[target]` tables of
    /// `key = number` lines, `#` comments.
    pub fn parse(text: &str) -> Result<CostFile, CostFileError> {
        // A byte-order mark is no part of the first line (TOML allows one).
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut tables: Vec<Table> = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let content = toml_trim(raw.split('#').next().unwrap_or(""));
            if !content.is_empty() {
                read_line(&mut tables, content, index + 1).map_err(|message| CostFileError {
                    line: index + 1,
                    message,
                })?;
            }
        }
        if tables.is_empty() {
            return Err(CostFileError {
                line: text.lines().count().max(1),
                message: "no `[target]` table in the file".into(),
            });
        }
        let models = tables
            .iter()
            .map(|t| Ok((t.name.clone(), model(t)?)))
            .collect::<Result<_, CostFileError>>()?;
        Ok(CostFile { tables: models })
    }

    /// The table of `target`.
    pub fn target(&self, target: &str) -> Option<CostModel> {
        self.tables
            .iter()
            .find(|(name, _)| name == target)
            .map(|(_, model)| *model)
    }
}

/// `text` without TOML's whitespace (spaces and tabs; not every Unicode
/// space, which TOML does not count as one) at either end.
fn toml_trim(text: &str) -> &str {
    text.trim_matches([' ', '\t'])
}

/// Text of the file as a message quotes it: control characters and the
/// invisible ones (a byte-order mark, zero-width and direction marks, a
/// no-break space) escaped, so that a NUL or an escape sequence is not
/// sent to the terminal and what is wrong shows, and at most 80
/// characters of it.
pub(crate) fn quoted(text: &str) -> String {
    const SHOWN: usize = 80;
    let invisible = |c: char| {
        c.is_control()
            || matches!(c, '\u{a0}' | '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}' | '\u{feff}')
    };
    let escaped: String = text
        .chars()
        .flat_map(|c| match invisible(c) {
            true => c.escape_unicode().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect();
    match escaped.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &escaped[..cut]),
        None => escaped,
    }
}

/// One non-empty line: a table header or a `key = number` of the last table.
fn read_line(tables: &mut Vec<Table>, content: &str, line: usize) -> Result<(), String> {
    if let Some(name) = content.strip_prefix('[') {
        let name = name
            .strip_suffix(']')
            .map(toml_trim)
            .filter(|n| is_bare_name(n))
            .ok_or_else(|| {
                format!(
                    "expected a table header `[target]`, the target a name of letters, digits, \
                     `_` and `-`, got `{}`",
                    quoted(content)
                )
            })?;
        if tables.iter().any(|t| t.name == name) {
            return Err(format!("table [{}] is given twice", quoted(name)));
        }
        tables.push(Table {
            name: name.to_string(),
            entries: Vec::new(),
            line,
        });
        return Ok(());
    }
    let (key, value) = content
        .split_once('=')
        .ok_or_else(|| format!("expected `key = number`, got `{}`", quoted(content)))?;
    let (key, value) = (toml_trim(key), toml_trim(value));
    if key.is_empty() {
        // (It said "unknown key `` in [sim]", algo23 LOW-2.)
        return Err(format!(
            "a key is missing before `=` in `{}` (expected `key = number`)",
            quoted(content)
        ));
    }
    let Some(table) = tables.last_mut() else {
        return Err(format!(
            "`{}` comes before any `[target]` table",
            quoted(key)
        ));
    };
    if !KEYS.iter().any(|(k, _)| *k == key) {
        return Err(format!(
            "unknown key `{}` in [{}] (the keys: alpha, alpha_peer, beta, beta_shared, gamma, overhead, cores, beta_memory, cache, tie, delta, beta_local)",
            quoted(key),
            table.name
        ));
    }
    // From here on `key` is one of KEYS; `value` may still be long.
    let shown = quoted(value);
    let number = toml_number(value).ok_or_else(|| match key {
        // Negative, or not a number: `cores` says what it takes.
        "cores" => cores_refused(&shown),
        _ => format!("`{key}` must be a non-negative number, got `{shown}`"),
    })?;
    if !number.is_finite() && !value.contains(['.', 'e', 'E']) {
        return Err(format!(
            "`{key}` = {shown} is too large (a TOML integer is at most {}; write a larger \
             number as a float, such as 1e19)",
            i64::MAX
        ));
    }
    if !number.is_finite() {
        return Err(format!(
            "`{key}` = {shown} is too large (beyond a 64-bit floating-point number)"
        ));
    }
    check_whole(key, number, &shown)?;
    if table.entries.iter().any(|(k, _)| k == key) {
        return Err(format!("`{key}` is given twice in [{}]", table.name));
    }
    table.entries.push((key.to_string(), number));
    Ok(())
}

/// A non-negative number as TOML writes one: an integer or a float of
/// digits with `_` between them, an optional `+`, a fraction of at least
/// one digit after the point, an optional exponent (`1e-7`, `2.5E+3`,
/// `1_000`); not `5.`, `.5`, `inf`, `nan` or a leading zero (`05`).
/// `None` when it is not one, or negative.
fn toml_number(text: &str) -> Option<f64> {
    if let Some(value) = radix_integer(text) {
        return value;
    }
    // `-0` and `-0.0` are TOML's too, and not negative.
    let negative = text.starts_with('-');
    let text = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let whole_ok = digits(whole) && (whole == "0" || !whole.starts_with('0'));
    let fraction_ok = fraction.is_none_or(digits);
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    if !(whole_ok && fraction_ok && exponent_ok) {
        return None;
    }
    let digits_only = text.replace('_', "");
    // An integer must fit TOML's 64 bits; past that it is infinite here,
    // which the caller refuses as too large.
    let integer = fraction.is_none() && exponent.is_none();
    let value: f64 = match digits_only.parse::<i64>() {
        Err(_) if integer => f64::INFINITY,
        _ => digits_only.parse().ok()?,
    };
    (!negative || value == 0.0).then_some(value)
}

/// A TOML integer in hexadecimal, octal or binary (`0x10`, `0o17`,
/// `0b1010`, no sign, `_` between digits): `Some(Some(value))`,
/// `Some(None)` when malformed, `None` when `text` has no such prefix. One
/// past TOML's signed 64 bits is infinite here, as a decimal one is.
fn radix_integer(text: &str) -> Option<Option<f64>> {
    let (radix, rest) = [("0x", 16), ("0o", 8), ("0b", 2)]
        .iter()
        .find_map(|(prefix, radix)| Some((*radix, text.strip_prefix(prefix)?)))?;
    let well_formed = !rest.is_empty()
        && !rest.starts_with('_')
        && !rest.ends_with('_')
        && !rest.contains("__")
        && rest.chars().all(|c| c == '_' || c.is_digit(radix));
    if !well_formed {
        return Some(None);
    }
    let value = match i64::from_str_radix(&rest.replace('_', ""), radix) {
        Ok(value) => value as f64,
        Err(_) => f64::INFINITY,
    };
    Some(Some(value))
}

/// Decimal digits, with single `_` between two of them.
fn digits(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with('_')
        && !text.ends_with('_')
        && !text.contains("__")
        && text.chars().all(|c| c.is_ascii_digit() || c == '_')
}

/// A target's name: a TOML bare key (no quotes, dots or brackets).
fn is_bare_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn cores_refused(value: &str) -> String {
    format!(
        "`cores` must be a whole number of at least 1 (ranks that run at once; leave it out when \
         every rank has its own core), got `{value}`"
    )
}

/// `cores` counts ranks that run at once and `cache` bytes: whole numbers,
/// and at least one core; `tie` is a fraction below 1.
fn check_whole(key: &str, number: f64, value: &str) -> Result<(), String> {
    match key {
        "cores" if number < 1.0 || number.fract() != 0.0 => Err(cores_refused(value)),
        "cache" if number.fract() != 0.0 => Err(format!(
            "`cache` must be a whole number of bytes, got `{value}`"
        )),
        "tie" if number >= 1.0 => Err(format!(
            "`tie` must be a fraction below 1 (0.1: predictions within 10 % of the fastest are a \
             tie), got `{value}`{}",
            match value.starts_with("0.") {
                true => ", which a 64-bit float reads as 1",
                false => "",
            }
        )),
        _ => Ok(()),
    }
}

fn model(table: &Table) -> Result<CostModel, CostFileError> {
    let get = |key: &str| {
        table
            .entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| *v)
    };
    if let Some((key, _)) = KEYS
        .iter()
        .find(|(k, required)| *required && get(k).is_none())
    {
        return Err(CostFileError {
            line: table.line,
            message: format!("table [{}] has no `{key}`", table.name),
        });
    }
    let number = |key: &str| get(key).unwrap_or(0.0);
    Ok(CostModel {
        alpha: number("alpha"),
        alpha_peer: number("alpha_peer"),
        beta: number("beta"),
        beta_shared: get("beta_shared"),
        gamma: number("gamma"),
        overhead: number("overhead"),
        cores: get("cores"),
        beta_memory: number("beta_memory"),
        cache: get("cache"),
        tie: get("tie"),
        delta: number("delta"),
        beta_local: number("beta_local"),
    })
}

/// The longest prediction: 2^63 - 1 ns, what the record holds at most.
pub const LONGEST_SECONDS: f64 = i64::MAX as f64 * 1e-9;

/// The tie of a model that does not give one (`tie` in its file): 1 %.
pub const DEFAULT_TIE: f64 = 0.01;

/// Every mode's predicted time for `shape` among `candidates`, and the
/// fastest: the first, in [`AllReduceMode::ALL`] order (the default mesh
/// first, which keeps no segment bookkeeping), within the model's tie
/// ([`CostModel::tie`]) of the smallest prediction. Predictions closer than
/// the model can resolve (its fit is good to some 20 % on the simulator)
/// do not decide against the default.
pub fn choose(
    model: &CostModel,
    shape: &Shape,
    candidates: &[AllReduceMode],
) -> Option<(AllReduceMode, Vec<(AllReduceMode, f64)>)> {
    // Predictions past 2^63 ns (a model of absurd figures) are all the
    // largest time the record can hold: equal, so the order decides, as
    // the record and the remark show them.
    let times: Vec<(AllReduceMode, f64)> = candidates
        .iter()
        .map(|mode| {
            let time = model.predict(shape.counts(*mode), shape.ranks);
            (*mode, time.min(LONGEST_SECONDS))
        })
        .collect();
    let fastest = times.iter().map(|(_, t)| *t).reduce(f64::min)?;
    let best = times
        .iter()
        .filter(|(_, t)| *t <= fastest * (1.0 + model.tie()))
        .min_by_key(|(mode, _)| AllReduceMode::ALL.iter().position(|m| m == mode))?;
    Some((best.0, times))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(rail: Rail, bytes: i64, ranks: i64) -> Shape {
        Shape {
            rail,
            elements: bytes / 4,
            element_bytes: 4,
            ranks,
        }
    }

    /// The counts of docs/algorithms.md, by hand: 64 MiB on 8 ranks.
    #[test]
    fn counts_by_hand() {
        let big = shape(Rail::Composite, 64 << 20, 8);
        // 4096 chunks of 16 KiB and the ready barrier; 7 peers' 64 MiB.
        assert_eq!(
            big.counts(AllReduceMode::Mesh),
            Counts {
                barriers: 4097,
                read: 7 * (64 << 20),
                shared: 6 * (64 << 20),
                reduced: 7 * (64 << 20),
                windows: 8 * (64 << 20),
                tiles: 9 * 4096,
                // Each chunk loaded from and stored to the own window.
                local: 2 * (64 << 20),
            }
        );
        // 8 MiB segments: 7 of them read twice, reduced once.
        assert_eq!(
            big.counts(AllReduceMode::TwoShot),
            Counts {
                barriers: 3,
                read: 14 * (8 << 20),
                shared: 0,
                reduced: 7 * (8 << 20),
                windows: 8 * (64 << 20),
                tiles: 23 * 512,
                // The own segment loaded and stored, 7 others stored.
                local: 9 * (8 << 20),
            }
        );
        // 14 steps of 512 subchunks, two barriers each; 7 reduce steps of
        // 3 tiles and 7 gather steps of 2 per subchunk.
        // Locally: 7 reduce steps load and store a segment, 7 gather steps
        // store one.
        let ring = big.counts(AllReduceMode::Ring);
        assert_eq!(
            (ring.barriers, ring.tiles, ring.local),
            (14 * 2 * 512, 35 * 512, 21 * (8 << 20))
        );
        // The builtin mesh: 16 tiles of 256 elements over 4 lanes, 4 per
        // lane, each its own load, 1 remote load and the store.
        let host = shape(Rail::Builtin { lanes: 4 }, 4096 * 4, 2);
        let mesh = host.counts(AllReduceMode::Mesh);
        assert_eq!((mesh.barriers, mesh.tiles), (1 + 4, 3 * 4));
        // Its two-shot: segments of 2048 elements, 8 tiles, 2 per lane;
        // (2 + 1) + 2 tiles moved for each.
        assert_eq!(host.counts(AllReduceMode::TwoShot).tiles, 5 * 2);
        // The builtin ring: one barrier per signal row, 2(P-1)+1 = 15; one
        // block over the 8192 tiles of a 2 Mi-element segment.
        let host_ring = shape(Rail::Builtin { lanes: 1 }, 64 << 20, 8);
        let ring = host_ring.counts(AllReduceMode::Ring);
        assert_eq!((ring.barriers, ring.tiles), (15, 35 * 8192));
    }

    /// The model's choice follows its terms: with a large alpha the mesh's
    /// barriers cost it the large calls; with a large overhead and small
    /// calls on 2 ranks (the same bytes read) the fewer barriers win.
    #[test]
    fn the_choice_follows_the_terms() {
        let all = AllReduceMode::ALL;
        let model = |alpha, beta, gamma| CostModel {
            alpha,
            alpha_peer: 0.0,
            beta,
            beta_shared: None,
            gamma,
            overhead: 1e-4,
            cores: None,
            beta_memory: 0.0,
            cache: None,
            tie: None,
            delta: 0.0,
            beta_local: 0.0,
        };
        // Bandwidth only: two-shot reads 2(P-1)/P N, the mesh (P-1) N.
        let bandwidth = model(0.0, 1e-10, 0.0);
        let big = shape(Rail::Composite, 64 << 20, 4);
        assert_eq!(
            choose(&bandwidth, &big, &all).unwrap().0,
            AllReduceMode::TwoShot
        );
        // Latency only: the mesh's 2 barriers at 4 KiB beat two-shot's 3,
        // and the ring's 2(P-1) x 2.
        let latency = model(1e-6, 0.0, 0.0);
        let small = shape(Rail::Composite, 4096, 4);
        let (chosen, times) = choose(&latency, &small, &all).unwrap();
        assert_eq!(chosen, AllReduceMode::Mesh, "{times:?}");
        // Reduction only, P = 2: the mesh folds N, two-shot N/2.
        let reduction = model(0.0, 0.0, 1e-9);
        let two = shape(Rail::Composite, 1 << 20, 2);
        let (chosen, times) = choose(&reduction, &two, &AllReduceMode::ALL).unwrap();
        assert_eq!(chosen, AllReduceMode::TwoShot, "{times:?}");
        // A tie within the default 1 % keeps the earlier mode: at 4 KiB on
        // 2 ranks with overhead only, two-shot's one more tiny alpha loses
        // to nothing, but a two-shot 0.5 % faster than the mesh still
        // leaves the mesh; 2 % faster wins; with `tie = 0.1`, 8 % faster
        // is a tie and 12 % faster wins.
        let overhead_only = model(0.0, 0.0, 0.0);
        let tiny = shape(Rail::Composite, 4096, 2);
        assert_eq!(
            choose(&overhead_only, &tiny, &all).unwrap().0,
            AllReduceMode::Mesh
        );
        let mesh_time = overhead_only.predict(tiny.counts(AllReduceMode::Mesh), 2);
        let cases = [
            (None, 0.005, AllReduceMode::Mesh),
            (None, 0.02, AllReduceMode::TwoShot),
            (Some(0.1), 0.08, AllReduceMode::Mesh),
            (Some(0.1), 0.12, AllReduceMode::TwoShot),
        ];
        for (tie, faster, expected) in cases {
            // Reduction only at P = 2 (gamma): two-shot folds half the mesh's
            // bytes (g each), the mesh both halves, so with the overhead t
            // mesh / two-shot = (t + 2g) / (t + g) = 1 + faster when
            // g = t faster / (1 - faster).
            let gap = mesh_time * faster / (1.0 - faster);
            let bytes_gap = (tiny.elements * tiny.element_bytes) as f64 / 2.0;
            let m = CostModel {
                gamma: gap / bytes_gap,
                tie,
                ..overhead_only
            };
            let (chosen, times) = choose(&m, &tiny, &all).unwrap();
            assert_eq!(chosen, expected, "{tie:?} {faster}: {times:?}");
        }
        // Predictions past 2^63 ns are equal: the order decides.
        let absurd = CostModel {
            beta: 1e300,
            ..bandwidth
        };
        let (chosen, times) = choose(&absurd, &big, &all).unwrap();
        assert_eq!(chosen, AllReduceMode::Mesh, "{times:?}");
        assert!(times.iter().all(|(_, t)| *t == LONGEST_SECONDS));
        // Candidates limit the choice.
        let only = [AllReduceMode::Mesh];
        assert_eq!(
            choose(&bandwidth, &big, &only).unwrap().0,
            AllReduceMode::Mesh
        );
        // The contention factor: 8 ranks on 2 cores take 4 times as long,
        // but for the call's overhead (alpha_peer 0 here: its term has f
        // twice, which the_optional_terms checks).
        let counts = shape(Rail::Composite, 4096, 8).counts(AllReduceMode::TwoShot);
        let m = CostModel {
            alpha_peer: 0.0,
            ..CostModel::SIMULATOR
        };
        let no_cores = CostModel { cores: None, ..m };
        let stretched = 4.0 * (no_cores.predict(counts, 8) - m.overhead) + m.overhead;
        assert!((m.predict(counts, 8) - stretched).abs() < 1e-12);
    }

    /// The optional terms, by hand: a file without them reads as the first
    /// format did (alpha_peer 0, beta_shared = beta); with them, a barrier
    /// costs alpha + alpha_peer (P-1) f and the mesh's shared bytes
    /// beta_shared.
    #[test]
    fn the_optional_terms() {
        let old = CostFile::parse("[sim]\nalpha = 1e-6\nbeta = 1e-9\ngamma = 0\noverhead = 0\n")
            .unwrap()
            .target("sim")
            .unwrap();
        assert_eq!((old.alpha_peer, old.beta_shared), (0.0, None));
        // 4 ranks, 1 MiB mesh: 65 barriers, 3 MiB read, 2 MiB of it shared.
        let counts = shape(Rail::Composite, 1 << 20, 4).counts(AllReduceMode::Mesh);
        assert_eq!((counts.barriers, counts.shared), (65, 2 << 20));
        let mib = (1 << 20) as f64;
        let expect = |t: f64, want: f64| assert!((t / want - 1.0).abs() < 1e-12, "{t} {want}");
        expect(old.predict(counts, 4), 65e-6 + 3.0 * mib * 1e-9);
        let new = CostFile::parse(
            "[sim]\nalpha = 1e-6\nalpha_peer = 2e-6\nbeta = 1e-9\nbeta_shared = 1e-10\ngamma = 0\noverhead = 0\n",
        )
        .unwrap()
        .target("sim")
        .unwrap();
        expect(
            new.predict(counts, 4),
            65.0 * (1e-6 + 3.0 * 2e-6) + mib * 1e-9 + 2.0 * mib * 1e-10,
        );
        // On 2 cores, 4 ranks: f = 2 stretches the call but its overhead
        // (0 here), and a barrier's per-peer part once more.
        let shared_cores = CostModel {
            cores: Some(2.0),
            ..new
        };
        expect(
            shared_cores.predict(counts, 4),
            2.0 * (65.0 * (1e-6 + 3.0 * 2e-6 * 2.0) + mib * 1e-9 + 2.0 * mib * 1e-10),
        );
        // Windows (4 x 1 MiB) beyond `cache`: the bytes read alone cost
        // beta_memory more; windows that fit do not.
        let spilled = CostModel {
            beta_memory: 5e-10,
            cache: Some((2 << 20) as f64),
            ..new
        };
        expect(
            spilled.predict(counts, 4),
            65.0 * (1e-6 + 3.0 * 2e-6) + mib * (1e-9 + 5e-10) + 2.0 * mib * 1e-10,
        );
        let fits = CostModel {
            cache: Some((4 << 20) as f64),
            ..spilled
        };
        expect(fits.predict(counts, 4), new.predict(counts, 4));
        // A tile moved costs delta, stretched by f like the rest: the
        // 64 chunks of 5 tiles (own load, 3 remote loads, store).
        assert_eq!(counts.tiles, 64 * 5);
        let per_tile = CostModel {
            delta: 1e-7,
            ..shared_cores
        };
        expect(
            per_tile.predict(counts, 4),
            shared_cores.predict(counts, 4) + 2.0 * 320.0 * 1e-7,
        );
        let file =
            CostFile::parse("[sim]\nalpha = 0\nbeta = 0\ngamma = 0\noverhead = 0\ndelta = 2e-8\n")
                .unwrap();
        assert_eq!(file.target("sim").unwrap().delta, 2e-8);
        // A byte moved inside the own window costs beta_local, stretched
        // by f too: the 1 MiB mesh loads and stores its own 1 MiB.
        assert_eq!(counts.local, 2 * (1 << 20));
        let local = CostModel {
            beta_local: 1e-11,
            ..shared_cores
        };
        expect(
            local.predict(counts, 4),
            shared_cores.predict(counts, 4) + 2.0 * (2 << 20) as f64 * 1e-11,
        );
        let file = CostFile::parse(
            "[sim]\nalpha = 0\nbeta = 0\ngamma = 0\noverhead = 0\nbeta_local = 4e-11\n",
        )
        .unwrap();
        assert_eq!(file.target("sim").unwrap().beta_local, 4e-11);
        // Two ranks share nothing: one reader per byte.
        let two = shape(Rail::Composite, 1 << 20, 2).counts(AllReduceMode::Mesh);
        assert_eq!(two.shared, 0);
    }

    #[test]
    fn files_parse_and_say_what_is_wrong() {
        let text = "# comment\n[sim]\nalpha = 1e-6 # s\nbeta = 2e-10\ngamma = 1e-10\noverhead = 5e-5\ncores = 2\n\n[a2a3]\nalpha = 3e-6\nbeta = 1e-11\ngamma = 2e-12\noverhead = 2e-5\n";
        let file = CostFile::parse(text).unwrap();
        assert_eq!(file.target("sim").unwrap().cores, Some(2.0));
        assert_eq!(file.target("a2a3").unwrap().alpha, 3e-6);
        assert_eq!(file.target("a5"), None);
        let err = |t: &str| CostFile::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("alpha = 1"),
            "line 1: `alpha` comes before any `[target]` table"
        );
        assert_eq!(
            err("[sim]\nalpha = fast"),
            "line 2: `alpha` must be a non-negative number, got `fast`"
        );
        assert_eq!(
            err("[sim]\nalpha = 1\nbeta = 1\ngamma = 1"),
            "line 1: table [sim] has no `overhead`"
        );
        assert!(err("[sim]\nepsilon = 1").contains("unknown key `epsilon` in [sim]"));
        assert_eq!(
            err("[sim]\n= 5"),
            "line 2: a key is missing before `=` in `= 5` (expected `key = number`)"
        );
        assert!(err("[sim]\nalpha 1").contains("expected `key = number`"));
        assert!(err("[sim]\n[sim]").contains("table [sim] is given twice"));
        assert!(err("[sim]\nalpha = -1").contains("non-negative"));
    }

    /// Numbers as TOML writes them (the uat-cost10 tester's finding 3):
    /// `5.` and `.5e-7` are not TOML and were taken; `1e400` was refused
    /// as not a non-negative number.
    #[test]
    fn numbers_are_toml_numbers() {
        for (text, value) in [
            ("1e-7", 1e-7),
            ("2.5E+3", 2500.0),
            ("1_000", 1000.0),
            ("+0.5", 0.5),
            ("0", 0.0),
            ("0.0", 0.0),
            ("1_0e-8", 1e-7),
            ("3", 3.0),
            ("-0", 0.0),
            ("-0.0", 0.0),
            ("99999999999999999999", f64::INFINITY),
            // TOML's other integers (algo23 LOW-1: refused).
            ("0x10", 16.0),
            ("0xdead_BEEF", 3735928559.0),
            ("0o17", 15.0),
            ("0b1010", 10.0),
            ("0x7fffffffffffffff", 9223372036854775807.0),
            ("0x8000000000000000", f64::INFINITY),
        ] {
            assert_eq!(toml_number(text), Some(value), "{text}");
        }
        for text in [
            "5.", ".5e-7", ".5", "inf", "nan", "-1", "05", "1__0", "_1", "1_", "1e", "1e+", "e5",
            "1.2.3", "", "1 2", "0x", "0x_1", "0x1__0", "0xg", "+0x10", "-0x10", "0o8", "0b2",
            "0X10",
        ] {
            assert_eq!(toml_number(text), None, "{text}");
        }
        let err = |t: &str| CostFile::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("[sim]\ndelta = 5."),
            "line 2: `delta` must be a non-negative number, got `5.`"
        );
        assert_eq!(
            err("[sim]\ndelta = 1e400"),
            "line 2: `delta` = 1e400 is too large (beyond a 64-bit floating-point number)"
        );
        // An integer past TOML's signed 64 bits is too large for TOML, not
        // for a float (the tester's 2^63 for `cores`); as a float it reads.
        assert_eq!(
            err("[sim]\ncores = 9223372036854775808"),
            "line 2: `cores` = 9223372036854775808 is too large (a TOML integer is at most \
             9223372036854775807; write a larger number as a float, such as 1e19)"
        );
        assert_eq!(
            toml_number("9223372036854775807"),
            Some(9223372036854775807.0)
        );
        assert_eq!(toml_number("9.3e18"), Some(9.3e18));
    }

    /// The tester's odd bytes (uat trust12, finding 8): a NUL and a long
    /// value are quoted escaped and cut; a byte-order mark is skipped.
    #[test]
    fn odd_bytes_are_quoted_safely() {
        let err = |t: &str| CostFile::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("[sim]\nalpha = 1e-7\0"),
            "line 2: `alpha` must be a non-negative number, got `1e-7\\u{0}`"
        );
        let long = err(&format!("[sim]\nalpha = x{}", "y".repeat(100_000)));
        assert!(
            long.ends_with(&format!("got `x{}...`", "y".repeat(79))),
            "{long}"
        );
        let keys = "alpha = 1e-6\nbeta = 1e-9\ngamma = 0\noverhead = 1e-5\n";
        assert!(CostFile::parse(&format!("\u{feff}[sim]\n{keys}")).is_ok());
        // The re-check's invisible characters show; a no-break space is not
        // TOML's whitespace.
        assert_eq!(
            err(&format!("[sim]\n{keys}\u{feff}")),
            "line 6: expected `key = number`, got `\\u{feff}`"
        );
        assert_eq!(
            err("[sim]\nalpha\u{a0}= 1e-7"),
            "line 2: unknown key `alpha\\u{a0}` in [sim] (the keys: alpha, alpha_peer, beta, \
             beta_shared, gamma, overhead, cores, beta_memory, cache, tie, delta, beta_local)"
        );
        assert!(CostFile::parse(&format!("[sim]\t\n{keys}")).is_ok());
    }

    /// The tester's files that were read as something else (uat-algo
    /// finding 5): each is refused at its line.
    #[test]
    fn malformed_files_are_refused_at_their_line() {
        let keys = "alpha = 1e-6\nbeta = 1e-9\ngamma = 0\noverhead = 1e-5\n";
        let err = |t: &str| CostFile::parse(t).unwrap_err().to_string();
        for cores in ["0", "2.5", "0.5", "-2"] {
            let message = err(&format!("[sim]\n{keys}cores = {cores}"));
            assert!(
                message.starts_with("line 6: `cores` must be a whole number of at least 1"),
                "{cores}: {message}"
            );
        }
        assert_eq!(
            err(&format!("[sim]\n{keys}cache = 1.5")),
            "line 6: `cache` must be a whole number of bytes, got `1.5`"
        );
        assert!(err(&format!("[sim]\n{keys}tie = 1"))
            .starts_with("line 6: `tie` must be a fraction below 1"));
        assert!(err(&format!("[sim]\n{keys}tie = 0.9999999999999999999"))
            .ends_with("got `0.9999999999999999999`, which a 64-bit float reads as 1"));
        for header in ["[sim]]", "[[sim]]", "[\"sim\"]", "[sim.x]", "[]", "[si m]"] {
            let message = err(&format!("{header}\n{keys}"));
            assert!(
                message.starts_with("line 1: expected a table header `[target]`"),
                "{header}: {message}"
            );
            assert!(message.ends_with(&format!("got `{header}`")), "{message}");
        }
        assert_eq!(err(""), "line 1: no `[target]` table in the file");
        assert_eq!(err("# only\n\n"), "line 2: no `[target]` table in the file");
        // What stays accepted: whole cores and cache, a tie, `-` and `_` in
        // names; a file without a tie has the default.
        let file = CostFile::parse(&format!(
            "[a2-a3_x]\n{keys}cores = 4\ncache = 1e6\ntie = 0.05\n[b]\n{keys}"
        ))
        .unwrap();
        let model = file.target("a2-a3_x").unwrap();
        assert_eq!((model.cores, model.cache), (Some(4.0), Some(1e6)));
        assert_eq!((model.tie, model.tie()), (Some(0.05), 0.05));
        assert_eq!(file.target("b").unwrap().tie(), DEFAULT_TIE);
    }
}
