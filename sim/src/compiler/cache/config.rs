//! Where the compile cache is and how large it may grow: the command
//! line's choice ([`Choice`]) over the environment, every variable read
//! strictly (a value that means nothing is an error, not a default).

use super::{Cache, Off, Place};
use crate::runtime::env::NO_CACHE;
use std::path::PathBuf;

/// What the embedding program (pld-run's `--no-cache`, `--cache-dir`)
/// asks for; `PLD_NO_CACHE` turns the cache off whatever this says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Choice {
    /// The environment decides.
    #[default]
    Default,
    /// Off (`--no-cache`).
    Off,
    /// This directory (`--cache-dir`).
    Dir(PathBuf),
}

/// The default bound on the bytes of the cache directory's entries.
pub const MAX_BYTES: u64 = 256 << 20;

/// The variables read, by name.
const CACHE_DIR: &str = "PLD_CACHE_DIR";
const CACHE_MAX_BYTES: &str = "PLD_CACHE_MAX_BYTES";

/// The cache `choice` and the environment (read through `var`) give.
pub(super) fn resolve(
    choice: &Choice,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Place, String> {
    // Set and not empty: an empty variable is an unset one.
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    let no_cache = set(NO_CACHE.name).map_or(Ok(false), |v| NO_CACHE.parse(&v))?;
    let max_bytes = set(CACHE_MAX_BYTES).map_or(Ok(MAX_BYTES), |v| bytes(CACHE_MAX_BYTES, &v))?;
    if no_cache {
        return Ok(Place::Off(Off::Environment));
    }
    let dir = match choice {
        Choice::Off => return Ok(Place::Off(Off::Asked)),
        Choice::Dir(dir) => dir.clone(),
        Choice::Default => match default_dir(set) {
            Some(dir) => dir,
            None => return Ok(Place::Off(Off::NoDirectory)),
        },
    };
    Ok(Place::On(Cache { dir, max_bytes }))
}

/// `$PLD_CACHE_DIR`, else `$XDG_CACHE_HOME/pld` (an absolute one only, as
/// the XDG base directory specification says), else `$HOME/.cache/pld`.
fn default_dir(set: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(dir) = set(CACHE_DIR) {
        return Some(PathBuf::from(dir));
    }
    let xdg = set("XDG_CACHE_HOME").map(PathBuf::from);
    if let Some(xdg) = xdg.filter(|x| x.is_absolute()) {
        return Some(xdg.join("pld"));
    }
    set("HOME").map(|home| PathBuf::from(home).join(".cache").join("pld"))
}

/// A number of bytes: digits, then optionally K, M, G or T (or KiB, MiB,
/// GiB, TiB; powers of 1024, in any case).
fn bytes(name: &str, value: &str) -> Result<u64, String> {
    let refuse = || {
        format!(
            "{name}={value}: the compile cache's bound must be a number of bytes, \
             optionally followed by K, M, G or T (powers of 1024), e.g. 512M"
        )
    };
    let split = value
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(value.len());
    let (digits, unit) = value.split_at(split);
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        _ => return Err(refuse()),
    };
    let number: u64 = digits.parse().map_err(|_| refuse())?;
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{name}={value}: more bytes than a 64-bit count holds"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)], choice: Choice) -> Result<Place, String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        resolve(&choice, |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    fn on(dir: &str, max_bytes: u64) -> Result<Place, String> {
        Ok(Place::On(Cache {
            dir: dir.into(),
            max_bytes,
        }))
    }

    #[test]
    fn no_cache_turns_the_cache_off_whatever_else_is_set() {
        for value in ["1", "true", "YES", "On"] {
            let vars = [("PLD_NO_CACHE", value), ("PLD_CACHE_DIR", "/c")];
            assert_eq!(
                with(&vars, Choice::Dir("/d".into())),
                Ok(Place::Off(Off::Environment))
            );
            assert_eq!(with(&vars, Choice::Off), Ok(Place::Off(Off::Environment)));
        }
        for value in ["0", "false", "No", "OFF", ""] {
            let vars = [("PLD_NO_CACHE", value), ("HOME", "/h")];
            assert_eq!(with(&vars, Choice::Default), on("/h/.cache/pld", MAX_BYTES));
        }
        let refused = with(&[("PLD_NO_CACHE", "maybe")], Choice::Default).unwrap_err();
        assert!(
            refused.starts_with("PLD_NO_CACHE=maybe: say 1, true"),
            "{refused}"
        );
    }

    #[test]
    fn the_directory_comes_from_the_command_line_then_the_environment() {
        let all = [
            ("PLD_CACHE_DIR", "/p"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ];
        assert_eq!(with(&all, Choice::Dir("/d".into())), on("/d", MAX_BYTES));
        assert_eq!(with(&all, Choice::Off), Ok(Place::Off(Off::Asked)));
        assert_eq!(with(&all, Choice::Default), on("/p", MAX_BYTES));
        let empty_dir = [("PLD_CACHE_DIR", ""), ("XDG_CACHE_HOME", "/x")];
        assert_eq!(with(&empty_dir, Choice::Default), on("/x/pld", MAX_BYTES));
        // A relative XDG_CACHE_HOME is ignored.
        let relative = [("XDG_CACHE_HOME", "rel"), ("HOME", "/h")];
        assert_eq!(
            with(&relative, Choice::Default),
            on("/h/.cache/pld", MAX_BYTES)
        );
        let nothing = [("XDG_CACHE_HOME", "rel"), ("HOME", "")];
        assert_eq!(
            with(&nothing, Choice::Default),
            Ok(Place::Off(Off::NoDirectory))
        );
    }

    #[test]
    fn the_bound_is_bytes_with_an_optional_binary_unit() {
        let bound = |v: &str| {
            with(
                &[("PLD_CACHE_MAX_BYTES", v), ("HOME", "/h")],
                Choice::Default,
            )
        };
        assert_eq!(bound("0"), on("/h/.cache/pld", 0));
        assert_eq!(bound("5000"), on("/h/.cache/pld", 5000));
        assert_eq!(bound("512M"), on("/h/.cache/pld", 512 << 20));
        assert_eq!(bound("2g"), on("/h/.cache/pld", 2 << 30));
        assert_eq!(bound("1MiB"), on("/h/.cache/pld", 1 << 20));
        assert_eq!(bound(""), on("/h/.cache/pld", MAX_BYTES));
        for bad in ["abc", "-1", "1e6", " 5000", "5000 ", "M", "1.5G", "1KB"] {
            let refused = bound(bad).unwrap_err();
            assert!(
                refused.starts_with(&format!("PLD_CACHE_MAX_BYTES={bad}: the compile")),
                "{refused}"
            );
        }
        assert!(bound("99999999999T").unwrap_err().contains("64-bit"));
    }
}
