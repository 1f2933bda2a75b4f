//! Command lines as LLVM tools read them: a long option may be written with
//! one dash (`-pass-pipeline=...`, `-split-input-file`) as well as two, and
//! a malformed command line ends `pld-opt` and `pld-translate` with status
//! 1, as it ends `mlir-opt` and `mlir-translate`.

use clap::error::{ContextKind, ContextValue};

/// The command line as text: an argument that is not UTF-8 (a path with
/// such a byte) ends the process with `status` and a message naming it,
/// where `std::env::args` would panic. The tools take paths, names and
/// pipelines as text.
pub fn text(tool: &str, status: i32) -> Vec<String> {
    let mut args = Vec::new();
    for (index, arg) in std::env::args_os().enumerate() {
        match arg.into_string() {
            Ok(arg) => args.push(arg),
            Err(raw) => {
                pld_ir::say!(
                    "{tool}: error: argument {index} ('{}') is not UTF-8 text; {tool} takes \
                     paths and names as text (rename the file, or pass it on standard input)",
                    raw.to_string_lossy()
                );
                std::process::exit(status)
            }
        }
    }
    args
}

/// The command line parsed into `C`, as `mlir-opt` and `mlir-translate`
/// end on a malformed one: the parser's message and exit status 1 (clap's
/// own status is 2). `--help` and `--version` print and exit 0.
pub fn parse_or_exit_1<C: clap::Parser>(args: impl IntoIterator<Item = String>) -> C {
    C::try_parse_from(llvm_style(args)).unwrap_or_else(|error| {
        if !error.use_stderr() {
            // A closed stdout leaves nothing to report the failure on.
            let _ = error.print();
            std::process::exit(0)
        }
        let error = with_full_usage::<C>(error);
        // In one write (see pld_ir::say!), coloured on a terminal only.
        let styled = error.render();
        use std::io::IsTerminal;
        pld_ir::diag::write_stderr(&if std::io::stderr().is_terminal() {
            styled.ansi().to_string()
        } else {
            styled.to_string()
        });
        std::process::exit(1)
    })
}

/// `error` with the whole usage of `C`: clap's error shows the arguments
/// given as if they were required (`Usage: pld-opt <INPUT>` after
/// `in.mlir --bogus`, though INPUT may be left out).
pub fn with_full_usage<C: clap::CommandFactory>(mut error: clap::Error) -> clap::Error {
    if error.get(ContextKind::Usage).is_some() {
        let usage = C::command().render_usage();
        error.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    }
    error
}

/// `args` (the program name first) with every single-dash long option
/// given its second dash. Short options (`-o`), a lone `-` (standard
/// input), negative numbers and everything after `--` stay as they are.
pub fn llvm_style(args: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest_positional = false;
    for (index, arg) in args.into_iter().enumerate() {
        if index == 0 || rest_positional {
            out.push(arg);
            continue;
        }
        if arg == "--" {
            rest_positional = true;
            out.push(arg);
            continue;
        }
        let single_dash_long = arg.strip_prefix('-').is_some_and(|rest| {
            let name = rest.split('=').next().unwrap_or("");
            !rest.starts_with('-')
                && name.len() > 1
                && name.starts_with(|c: char| c.is_ascii_alphabetic())
        });
        if single_dash_long {
            out.push(format!("-{arg}"));
        } else {
            out.push(arg);
        }
    }
    out
}

/// A boolean option's value as LLVM's command-line library reads it
/// (`--verify-each=false`): `true`, `false`, `1` or `0`, the words also in
/// capitals or with a capital first letter; anything else is an error that
/// lists those.
pub fn llvm_bool(value: &str) -> Result<bool, String> {
    match value {
        "true" | "TRUE" | "True" | "1" => Ok(true),
        "false" | "FALSE" | "False" | "0" => Ok(false),
        _ => Err(format!(
            "'{value}' is not a boolean value: give true, false, 1 or 0"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::llvm_style;

    fn convert(args: &[&str]) -> Vec<String> {
        llvm_style(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn single_dash_long_options_get_two() {
        assert_eq!(
            convert(&[
                "pld-opt",
                "-pass-pipeline=builtin.module(cse)",
                "-split-input-file"
            ]),
            [
                "pld-opt",
                "--pass-pipeline=builtin.module(cse)",
                "--split-input-file"
            ]
        );
        assert_eq!(
            convert(&["pld-opt", "-o", "-", "-", "--x", "-o=f", "-1", "--", "-weird"]),
            ["pld-opt", "-o", "-", "-", "--x", "-o=f", "-1", "--", "-weird"]
        );
    }
}
