//! The op written at a place of the input (`file:line:col`): what run
//! errors and explorer findings name and quote, the pld op the author
//! wrote rather than the PTO op it became.

use pld_sim::compiler::Source;

/// The line and column of `file:line:col` when `file` is the input's: a
/// converted module's ops may be at places of the file it was converted
/// from, whose lines the input's are not (its line 22 was quoted under
/// `ring.mlir:22:5`).
pub(crate) fn line_col(location: &str, source: Source) -> Option<(usize, usize)> {
    let at = pld_ir::loc::Position::parse(location)?;
    let file = pld_ir::diag::display_file(&at.file, source.name);
    (file == source.name).then_some((at.line, at.column))
}

/// A run's error with the pld op written at its place named before the
/// PTO op it became, as findings name ops (`rank 3: k.mlir:20:5:
/// `pld.tile_remote_store` (pto.tstore): a store at address 0x0, ...`;
/// it named `pto.tstore` alone, an op the author never wrote).
pub(crate) fn named_error(error: &str, source: Source) -> String {
    let named = || {
        let place = pld_sim::error_place(error).1?;
        let (line, col) = line_col(place, source)?;
        let pld_op = pld_op_at(source.file, line, col)?;
        let at = error.find(place)? + place.len() + 2;
        let rest = error.get(at..)?;
        let (op, said) = rest.split_once(": ")?;
        (op.starts_with("pto.") && !op.contains(' '))
            .then(|| format!("{}`{pld_op}` ({op}): {said}", &error[..at]))
    };
    named().unwrap_or_else(|| error.to_string())
}

/// The pld op written at `line:col` of `source` (`"pld.tile_store"(...)`
/// or `%r = "pld.tile_remote_load"(...)`), if that is where one starts.
pub(crate) fn pld_op_at(source: &str, line: usize, col: usize) -> Option<String> {
    op_at(source, line, col).filter(|name| name.starts_with("pld."))
}

/// The op whose statement starts at `line:col` of `source`: its name,
/// generic (`"pto.tload"(...)`) or custom (`pto.tload ins(...)`), after a
/// result list (`%r, %s = `).
pub(crate) fn op_at(source: &str, line: usize, col: usize) -> Option<String> {
    let text = source.lines().nth(line.checked_sub(1)?)?;
    let rest: String = text.chars().skip(col.saturating_sub(1)).collect();
    let mut statement = rest.as_str();
    if statement.starts_with('%') {
        let (results, op) = statement.split_once('=')?;
        let listed = results
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " %,:#_".contains(c));
        statement = listed.then_some(op.trim_start())?;
    }
    let statement = statement.strip_prefix('"').unwrap_or(statement);
    let name: String = statement
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '_')
        .collect();
    name.contains('.').then_some(name)
}
