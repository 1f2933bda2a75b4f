//! `--split-input-file[=MARKER]`: one input, several independent chunks
//! separated by marker lines (`// -----` unless given: MLIR's convention).

/// The default separator line, in and out.
pub const MARKER: &str = "// -----";

/// The marker `--split-input-file=<value>` names: MLIR's default for an
/// empty value (the bare flag).
pub fn input_marker(value: String) -> String {
    match value.is_empty() {
        true => MARKER.to_string(),
        false => value,
    }
}

/// `--split-input-file[=MARKER]` and `--output-split-marker`, as
/// `pld-opt` and `pld-translate` take them (mlir-opt 22's).
#[derive(clap::Args, Clone, Debug)]
pub struct SplitFlags {
    /// Split the input into chunks at lines starting with MARKER (default
    /// '// -----') and process each independently.
    #[arg(
        long = "split-input-file",
        value_name = "MARKER",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = ""
    )]
    split_input_file: Option<String>,
    /// The line written between the chunks' outputs.
    #[arg(long = "output-split-marker", value_name = "MARKER", default_value = MARKER)]
    output_split_marker: String,
}

impl SplitFlags {
    /// The marker the input is split at; `None` without splitting.
    pub fn input(&self) -> Option<String> {
        self.split_input_file.clone().map(input_marker)
    }

    /// The line between the outputs.
    pub fn output(&self) -> String {
        self.output_split_marker.clone()
    }
}

/// A piece of the input and the line (1-based) it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub first_line: usize,
    pub text: String,
}

impl Chunk {
    /// The chunk's text preceded by blank lines, so that locations the
    /// parser reports are line numbers of the whole input.
    pub fn padded(&self) -> String {
        let mut padded = "\n".repeat(self.first_line.saturating_sub(1));
        padded.push_str(&self.text);
        padded
    }
}

/// Splits `text` at the lines that start with `marker` (after blanks);
/// without a marker, one chunk.
pub fn chunks(text: &str, marker: Option<&str>) -> Vec<Chunk> {
    let Some(marker) = marker else {
        return vec![Chunk {
            first_line: 1,
            text: text.to_string(),
        }];
    };
    let mut chunks = Vec::new();
    let mut current = Chunk {
        first_line: 1,
        text: String::new(),
    };
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_start().starts_with(marker) {
            chunks.push(std::mem::replace(
                &mut current,
                Chunk {
                    first_line: index + 2,
                    text: String::new(),
                },
            ));
        } else {
            current.text.push_str(line);
        }
    }
    chunks.push(current);
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_keeps_line_numbers() {
        let parts = chunks("a\n// -----\nb\nc\n// -----\n", Some(MARKER));
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[1].first_line, 3);
        assert_eq!(parts[1].text, "b\nc\n");
        assert_eq!(parts[1].padded(), "\n\nb\nc\n");
        assert_eq!(parts[2].text, "");
        assert_eq!(chunks("a\n// -----\n", None).len(), 1);
    }

    #[test]
    fn a_marker_of_ones_own() {
        let parts = chunks("a\n// -----\nb\n  // ===== x\nc\n", Some("// ====="));
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].text, "a\n// -----\nb\n");
        assert_eq!(parts[1].first_line, 5);
        assert_eq!(input_marker(String::new()), MARKER);
        assert_eq!(input_marker("false".into()), "false");
    }
}
