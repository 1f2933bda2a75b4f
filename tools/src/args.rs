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
    let given: Vec<String> = args.into_iter().collect();
    let args = llvm_booleans(&C::command(), llvm_style(given.clone()));
    args.and_then(C::try_parse_from).unwrap_or_else(|error| {
        if !error.use_stderr() {
            // A closed stdout leaves nothing to report the failure on.
            let _ = error.print();
            std::process::exit(0)
        }
        let error = as_given(with_full_usage::<C>(error), &given);
        say_error(C::command().get_name(), &error);
        std::process::exit(1)
    })
}

/// Writes a malformed command line's `error` as the tools' other errors
/// start, `pld-opt: error: ...` (clap's own has no tool name), in one
/// write (see pld_ir::say!), coloured on a terminal only.
pub fn say_error(tool: &str, error: &clap::Error) {
    let styled = error.render();
    use std::io::IsTerminal;
    let text = match std::io::stderr().is_terminal() {
        true => styled.ansi().to_string(),
        false => styled.to_string(),
    };
    pld_ir::diag::write_stderr(&format!("{tool}: {text}"));
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

/// `error` naming the argument it refuses as the user wrote it: one given
/// with a single dash (`-bogus`) is said so, not with the second dash
/// [`llvm_style`] gave it.
pub fn as_given(mut error: clap::Error, given: &[String]) -> clap::Error {
    let Some(ContextValue::String(refused)) = error.get(ContextKind::InvalidArg) else {
        return error;
    };
    let name = |arg: &str| arg.split(['=', ' ']).next().unwrap_or("").to_string();
    let written = given.iter().skip(1).find(|arg| {
        !arg.starts_with("--") && arg.starts_with('-') && format!("-{}", name(arg)) == name(refused)
    });
    let Some(written) = written.map(|w| name(w)) else {
        return error;
    };
    let two = format!("-{written}");
    let shown = refused.replacen(&two, &written, 1);
    error.insert(ContextKind::InvalidArg, ContextValue::String(shown));
    // The tips quote it too (`to pass '--bogus' as a value, ...`).
    if let Some(ContextValue::StyledStrs(tips)) = error.get(ContextKind::Suggested) {
        let quoted = (format!("{two}'"), format!("{written}'"));
        let tips = (tips.iter())
            .map(|tip| tip.to_string().replace(&quoted.0, &quoted.1).into())
            .collect();
        error.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
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

/// `args` with every flag of `command` given a value as LLVM's options
/// take one (`--mlir-timing=true`, `--mlir-print-debuginfo=0`) written as
/// clap reads it: the bare flag when true, nothing when false (dropping the
/// flag given before: the last one wins). A value that
/// is not a boolean ([`llvm_bool`]) is an error naming the flag.
pub fn llvm_booleans(
    command: &clap::Command,
    args: Vec<String>,
) -> Result<Vec<String>, clap::Error> {
    let is_flag = |name: &str| {
        command.get_arguments().any(|arg| {
            arg.get_long() == Some(name) && matches!(arg.get_action(), clap::ArgAction::SetTrue)
        })
    };
    let mut out = Vec::with_capacity(args.len());
    let mut rest_positional = false;
    for arg in args {
        rest_positional |= arg == "--";
        let flag = (!rest_positional)
            .then(|| arg.strip_prefix("--")?.split_once('='))
            .flatten()
            .filter(|(name, _)| is_flag(name));
        let Some((name, value)) = flag else {
            out.push(arg);
            continue;
        };
        match llvm_bool(value) {
            Ok(true) => out.push(format!("--{name}")),
            // The last one given wins, as in LLVM's options.
            Ok(false) => out.retain(|given| *given != format!("--{name}")),
            Err(e) => {
                let message = format!(
                    "invalid value '{value}' for '--{name}[=<bool>]': {e}\n\n\
                     For more information, try '--help'.\n"
                );
                let error = clap::Error::raw(clap::error::ErrorKind::InvalidValue, message);
                return Err(error.with_cmd(command));
            }
        }
    }
    Ok(out)
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
    fn flags_take_llvm_booleans() {
        #[derive(clap::Parser)]
        struct Cli {
            #[arg(long = "flag")]
            flag: bool,
            #[arg(long = "name")]
            name: Option<String>,
        }
        use clap::CommandFactory;
        let given = |args: &[&str]| {
            let args = args.iter().map(|s| s.to_string()).collect();
            super::llvm_booleans(&Cli::command(), args)
        };
        let ok = |args: &[&str]| given(args).unwrap();
        assert_eq!(ok(&["t", "--flag=True", "x"]), ["t", "--flag", "x"]);
        assert_eq!(ok(&["t", "--flag=0", "x"]), ["t", "x"]);
        assert_eq!(ok(&["t", "--flag", "x", "--flag=false"]), ["t", "x"]);
        // Options with values and everything after `--` are left alone.
        assert_eq!(ok(&["t", "--name=0"]), ["t", "--name=0"]);
        assert_eq!(ok(&["t", "--", "--flag=0"]), ["t", "--", "--flag=0"]);
        let error = given(&["t", "--flag=yes"]).unwrap_err().to_string();
        assert!(
            error.contains("invalid value 'yes' for '--flag[=<bool>]'"),
            "{error}"
        );
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
