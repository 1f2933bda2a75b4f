//! Reading and making locations.

use crate::attr::string_ref;
use melior::{
    ir::{Identifier, Location},
    Context,
};

/// A source position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// File name as recorded in the IR; empty or `-` for the parsed buffer.
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// `file:line:col` as reports write it, read back (a file that is not
    /// empty; a line and a column that are numbers).
    pub fn parse(text: &str) -> Option<Position> {
        let mut parts = text.rsplitn(3, ':');
        let column = parts.next()?.parse().ok()?;
        let line = parts.next()?.parse().ok()?;
        let file = parts.next().filter(|f| !f.is_empty())?.to_string();
        Some(Position { file, line, column })
    }

    /// A message that starts at a place (`k.mlir:7:8: rest`): the place
    /// and the rest.
    pub fn leading(message: &str) -> Option<(Position, &str)> {
        let (place, rest) = message.split_once(": ")?;
        Some((Position::parse(place)?, rest))
    }
}

fn identifier(id: Identifier) -> String {
    // SAFETY: identifiers are uniqued in the context and outlive this call;
    // the string is copied before returning.
    string_ref(unsafe { mlir_sys::mlirIdentifierStr(id.to_raw()) })
}

/// The file named by a file:line:col location.
pub fn file_name(location: Location) -> Option<String> {
    location
        .is_file_line_col_range()
        .then(|| identifier(location.file_line_col_range_filename()))
}

/// The first file position a location refers to, looking through names,
/// call sites (the callee's, else the caller's, as MLIR shows a
/// diagnostic) and fused locations.
pub fn position(location: Location) -> Option<Position> {
    if location.is_file_line_col_range() {
        return Some(Position {
            file: identifier(location.file_line_col_range_filename()),
            line: location.file_line_col_range_start_line(),
            column: location.file_line_col_range_start_column(),
        });
    }
    if location.is_name() {
        return position(location.name_child_location());
    }
    if location.is_call_site() {
        return position(location.call_site_callee())
            .or_else(|| position(location.call_site_caller()));
    }
    if location.is_fused() {
        return (0..location.fused_num_locations())
            .find_map(|i| position(location.fused_location(i)));
    }
    None
}

/// Whether `location` is MLIR's unknown location (`loc(unknown)`).
pub fn is_unknown(location: Location) -> bool {
    location.to_string() == "loc(unknown)"
}

/// The callers of the call site `location` is (or names: `loc("bar"(callsite(...)))`),
/// innermost first, each at its file position: MLIR's source-manager
/// handler adds a `called from` note at each, after the diagnostic at
/// [`position`].
pub fn callers(location: Location) -> Vec<Position> {
    let mut at = location;
    while at.is_name() {
        at = at.name_child_location();
    }
    let mut shown = Vec::new();
    // (MLIR shows at most 10 callers, too.)
    for _ in 0..CALLERS {
        if !at.is_call_site() {
            break;
        }
        at = at.call_site_caller();
        shown.extend(position(at));
    }
    shown
}

/// How many callers of a call-site location a diagnostic shows.
const CALLERS: usize = 10;

/// The names an op's location carries (`loc("name")`, also inside fused
/// and call-site locations).
pub fn location_names(location: Location) -> Vec<String> {
    let mut names = Vec::new();
    let mut pending = vec![location];
    while let Some(location) = pending.pop() {
        if location.is_name() {
            names.push(identifier(location.name_value()));
            pending.push(location.name_child_location());
        } else if location.is_fused() {
            pending.extend((0..location.fused_num_locations()).map(|i| location.fused_location(i)));
        } else if location.is_call_site() {
            pending.push(location.call_site_callee());
            pending.push(location.call_site_caller());
        }
    }
    names
}

/// `location` wrapped in a name, so that printing with
/// `--mlir-use-nameloc-as-prefix` shows `%name` for the op's result.
pub fn named<'c>(context: &'c Context, name: &str, location: Location<'c>) -> Location<'c> {
    Location::name(context, name, location)
}
